"""The hand result: who scored what, the running totals, what comes next.

For a drawn hand it says why (R11 stock exhausted, V3 stock down to two
cards, R14 no stock draw in 40 turns) and that nobody scores. A then deals the next hand, or shows the
match end when a player has reached the target (R12). DOWN shows the
hand's review (firmware/screens/review.py), with how far it is made while
it is. UP, in a match with committed deals (engine/deal.py), shows the
hand's proof page: the commitment shown when the hand started, and the
seed (from the secret and the cut, in a match with a cut) and nonce that
give it, in hex (the game record holds them too:
tools/records/replay.py --verify checks them); UP or B goes back.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.scoring import score_sum



def why_text(res, stop_at):
    """The score as its sum (R10), or why a drawn hand scores nothing."""
    if res.kind != "draw":
        return score_sum(res)
    if res.why != "stock":
        return b"40 TURNS WITHOUT A STOCK DRAW"
    if stop_at:
        # V3: the hand ends with cards still in the stock
        return ("STOCK DOWN TO %d: NOBODY SCORES" % stop_at).encode()
    return b"STOCK RAN OUT: NOBODY SCORES"


def go_on(app, over, end_screen, play_screen):
    """A on a hand result: the match end once the match is over, else the
    next hand, dealt and saved."""
    if over:
        if sealed(app.match):
            # a match with a cut opens on its seal page (a cold screen); with
            # no heap for its code, on the scores, whose UP shows it
            try:
                app.go("seal", then=end_screen, first=True)
                return
            except MemoryError:
                pass
        app.go(end_screen)
        return
    why = app.match.next_hand()
    if why is None:
        app.saving.save_match()
        let_cut_go(app)
        app.go(play_screen, new_hand=True)


def sealed(m):
    """True for a match over with a seal to show (firmware/screens/seal.py):
    one with a cut against the CPU or in the box game (a link match's seal
    is in its record)."""
    return m.cut is not None and m.seats != "link link"


def let_cut_go(app):
    """On MicroPython, a match with a cut against the CPU or in the box
    game has dealt its hand: engine/cut.py (3 KB of the .mpy bundle's
    heap) is let go until the hand's end (Saving.hand_counted brings it
    back for the record and the next deal); a turn's save needs none of
    it. A link match keeps it (firmware/link/linkmatch.py lets it go)."""
    from firmware.compat import heap_free, unload

    if heap_free() is not None and app.session.kind != "link":
        unload("engine.cut")


def proof_of(m):
    """(commitment, seed hex, nonce hex, the seed's label) as bytes of the
    match's last finished hand, or None when it was dealt by a deal
    number. The label names the cut of a match with one (engine/cut.py:
    the seed comes from the secret and the cut)."""
    h = m.hand
    if h.deal is not None or not getattr(h, "commit", None):
        return None
    from engine.sha256 import hex_text

    seed, nonce = m.proof(len(m.results) - 1)
    cut = m.cut
    if cut is None:
        label = b"SEED"
    elif m.seats == "link link":       # the cut is the other board's secret
        label = b"SEED FROM BOTH BOARDS' SECRETS"
    else:
        label = b"SEED FROM SECRET AND CUT " + cut.encode()
    return (h.commit.encode(), hex_text(seed).encode(), hex_text(nonce).encode(), label)


def draw_proof(c, hand_no, proof, over):
    """The deal's proof page: the commitment shown at the hand's start and
    the seed and nonce that give it (32 hex digits each: a line)."""
    commit, seed, nonce, label = proof
    c.fill(0)
    c.fill_rect(0, 0, 128, 9, 1)
    x = c.text(b"HAND", 2, 1, 0, fb.BIG)
    x = c.num(hand_no, x + 6, 1, 0, fb.BIG)
    c.text(b"DEAL PROOF", x + 6, 1, 0, fb.BIG)
    x = c.text(b"SHOWN AT START #", 0, 12, 1)
    c.text(commit, x, 12, 1)
    c.text(label, 0, 20, 1)
    c.text(seed, 0, 26, 1)
    c.text(b"NONCE", 0, 34, 1)
    c.text(nonce, 0, 40, 1)
    c.text(b"# = SHA-256(PREV,N,SEED,NONCE)", 0, 48, 1)     # the chain: engine/deal.py
    x = L.hint(c, b"A", b"MATCH RESULT" if over else b"NEXT HAND", 0, 58)
    L.hint(c, L.KEY_UP, b"BACK", x + 4, 58)


def proof_hint(c, x, y):
    """^ PROOF after the hints ending at x (the key alone when no room)."""
    if x + 4 + 9 + fb.text_width(b"PROOF") <= 128:
        L.hint(c, L.KEY_UP, b"PROOF", x + 4, y)
    else:
        L.key(c, L.KEY_UP, 119, y)


def title(c, hand_no):
    """HAND n RESULT, dark on a lit band."""
    c.fill_rect(0, 0, 128, 9, 1)
    x = c.text(b"HAND", 2, 1, 0, fb.BIG)
    x = c.num(hand_no, x + 6, 1, 0, fb.BIG)
    c.text(b"RESULT", x + 6, 1, 0, fb.BIG)


class Result(Screen):
    name = "result"

    def __init__(self, app):
        super().__init__(app)
        self.hand_no = 0
        self.kind = "draw"
        self.why = b""
        self.winner = None
        self.points = 0
        self.scores = [0, 0]
        self.won = [0, 0]
        self.target = 100
        self.over = False
        self.pct = -1                # the review's progress, 100: made
        self.proof = None            # (commit, seed hex, nonce hex) of a committed deal
        self.page = False            # the proof page is showing

    def enter(self, **kw):
        self.dirty = True
        o = self.app.session.other
        self.who = (b"YOU", o)
        self.says = (b"YOU SCORE", o + b" SCORES")
        m = self.app.match
        res = m.results[-1]
        self.hand_no = m.hand_no
        self.kind = res.kind
        self.winner = res.winner
        self.points = res.points
        self.scores = list(m.scores)
        self.won = list(m.hands_won)
        self.target = m.rules.target
        self.over = m.phase == "match_over"
        self.why = why_text(res, m.rules.stop_at)
        self.page = False
        self.proof = proof_of(m)
        self.pct = -1
        self._review_progress()

    def _review_progress(self):
        p = self.app.reviews.progress(len(self.app.match.results) - 1)
        if p != self.pct:
            self.pct = p
            self.dirty = True
        return p

    def tick(self, now):
        return None if self._review_progress() >= 100 else 100

    def event(self, ev, now):
        if self.page:
            if ev == btn.UP or ev == btn.B:
                self.page = False
                self.dirty = True
                return
            if ev != btn.A:
                return
        if ev == btn.UP and self.proof is not None:
            self.page = True
            self.dirty = True
        elif ev == btn.A:
            go_on(self.app, self.over, "match_end", "play")
        elif ev == btn.DOWN:
            self.app.go("review")

    def draw_proof(self, c):
        draw_proof(c, self.hand_no, self.proof, self.over)

    def draw(self, c):
        c.fill(0)
        if self.page:
            self.draw_proof(c)
            return
        title(c, self.hand_no)
        if self.winner is None:
            L.text_c(c, b"DRAWN HAND", 11, 1, fb.BIG)
            x = L.text_c(c, self.why, 20, 1)
        else:
            x = L.text_c(c, self.says[self.winner], 11, 1, fb.BIG, 0, 128 - 6 - fb.num_width(self.points, fb.BIG))
            c.num(self.points, x + 6, 11, 1, fb.BIG)
            L.text_c(c, self.why, 20, 1)
        # running totals, a bar toward the target, hands won
        c.text(b"TOTAL", 30, 28, 1)
        x = c.text(b"TO", 54, 28, 1)
        c.num(self.target, x + 4, 28, 1)
        c.text(b"WON", 112, 28, 1)
        for s in range(2):
            yy = 35 + 10 * s
            c.text(self.who[s], 2, yy, 1, fb.BIG)
            v = self.scores[s]
            c.num(v, 50 - fb.num_width(v, fb.BIG), yy, 1, fb.BIG)
            L.progress(c, 54, yy + 2, 52, v, self.target)
            w = self.won[s]
            c.num(w, 124 - fb.num_width(w, fb.BIG), yy, 1, fb.BIG)
        x = L.hint(c, b"A", b"MATCH RESULT" if self.over else b"NEXT HAND", 0, 58)
        x = L.hint(c, L.KEY_DOWN, b"REVIEW", x + 4, 58)
        if self.pct < 100:
            x = c.num(self.pct, x, 58, 1)
            x = c.text(b"%", x, 58, 1)
        if self.proof is not None:
            proof_hint(c, x, 58)
