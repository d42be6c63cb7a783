"""The result of a box game hand (V6): who scored, who moves where, and
the three totals with each player's role in the next hand.

    +--------------------------------------------------------------+
    | HAND 3 RESULT                                                |
    |            P2 SCORES 23                                      |
    |             BY KNOCKING                                      |
    | P2 STAYS IN THE BOX                                          |
    | YOU AND P3 SWAP                                              |
    | YOU  34  [=====        ]  NEXT CAP                           |
    | P2   52  [========     ]  NEXT BOX                           |
    | P3   12  [==           ]  NEXT SIT                           |
    | [A] NEXT HAND                                                |
    +--------------------------------------------------------------+

V6: a box that wins stays and the other two swap; a box that loses sits
out, the captain goes into the box and the sitter becomes captain; after a
drawn hand nobody moves and the same box deals again. The sitter never
scores. A deals the next hand (BoxMatch.next_hand), or shows the match
end once a player has reached the target. UP, for a committed deal, shows
the hand's proof page (its seed and nonce: firmware/screens/result.py).
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.box_common import NAMES, ROLE_TAGS, rotation_lines
from firmware.screens.result import go_on, title, why_text, proof_of, draw_proof, proof_hint


class BoxResult(Screen):
    name = "box_result"

    def __init__(self, app):
        super().__init__(app)
        self.hand_no = 0
        self.scorer = None
        self.points = 0
        self.why = b""
        self.lines = ()
        self.scores = [0, 0, 0]
        self.next_role = bytearray(3)    # player -> role next hand
        self.target = 100
        self.over = False
        self.proof = None                # a committed deal's (commit, seed, nonce)
        self.page = False                # its proof page is showing (UP)

    def enter(self, **kw):
        self.dirty = True
        m = self.app.match
        res, roles = m.results[-1]
        self.hand_no = m.hand_no
        self.points = res.points
        self.scores = list(m.scores)
        self.target = m.rules.target
        self.over = m.phase == "match_over"
        if res.winner is None:
            self.scorer = None
        else:
            self.scorer = roles[0] if res.winner == 1 else roles[1]
        self.why = why_text(res, m.rules.stop_at)
        self.proof = proof_of(m)
        self.page = False
        self.lines = rotation_lines(roles, res.winner)
        # the roles of the next hand, by the engine's own V6 rotation
        nxt = m.rotate(res) if not self.over else roles
        for i in range(3):
            self.next_role[nxt[i]] = i

    def event(self, ev, now):
        if self.page and (ev == btn.UP or ev == btn.B):
            self.page = False
            self.dirty = True
        elif ev == btn.UP and self.proof is not None and not self.page:
            self.page = True
            self.dirty = True
        elif ev == btn.A:
            go_on(self.app, self.over, "box_match_end", "box_play")

    def draw(self, c):
        if self.page:
            draw_proof(c, self.hand_no, self.proof, self.over)
            return
        c.fill(0)
        title(c, self.hand_no)
        if self.scorer is None:
            L.text_c(c, b"DRAWN HAND", 11, 1, fb.BIG)
        else:
            p = self.scorer
            w = (len(NAMES[p]) + 7 + (0 if p == 0 else 1)) * 6 + fb.num_width(self.points, fb.BIG)
            x = c.text(NAMES[p], (128 - w) // 2, 11, 1, fb.BIG)
            x = c.text(b" SCORE " if p == 0 else b" SCORES ", x, 11, 1, fb.BIG)
            c.num(self.points, x, 11, 1, fb.BIG)
        L.text_c(c, self.why, 20, 1)
        # who moves where (V6)
        c.text(self.lines[0], 2, 27, 1)
        c.text(self.lines[1], 2, 33, 1)
        # the totals, a bar toward the target, the role in the next hand
        for p in range(3):
            yy = 40 + 6 * p
            c.text(NAMES[p], 2, yy, 1)
            v = self.scores[p]
            c.num(v, 32 - fb.num_width(v), yy, 1)
            L.progress(c, 36, yy, 56, v, self.target)
            if not self.over:
                x = c.text(b"NEXT", 96, yy, 1)
                c.text(ROLE_TAGS[self.next_role[p]], x + 2, yy, 1)
        x = L.hint(c, b"A", b"MATCH RESULT" if self.over else b"NEXT HAND", 0, 58)
        if self.proof is not None:
            proof_hint(c, x, 58)
