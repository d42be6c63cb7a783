"""A link match: two boards, one game (docs/LINK.md, "What the App does").

Cold: imported only when LINK is chosen on the title, and unloaded (with
firmware/link/link.py, firmware/link/linkframe.py and engine/linkdeal.py) when the
title shows again, so a game against the CPU never holds its code.

LinkSession is app.session while a link match is on (firmware/matchlife.py
says what a session is); firmware/link/linkstart.py makes it:

    s = LinkSession(app, port, kept)  # kept: the session it takes over from
    app.session = s
    s.save()
    s.tick(now)                 # every step of the App's loop (App._step)
    s.screen(name)              # App.go: the link's table; the title ends it (leave)
    s.opponent                  # OtherBoard: the play screen asks it for the
                                # other's moves (take_move) and tells it the
                                # player's (send_move)

Its match is the link match, its statistics the link statistics (kept
apart from those against the CPU: their own save, "link"); the session it
took over from (the match against the CPU, or the box game, with their
statistics and AIs) waits in `kept` and comes back on leave().

The boards find each other (firmware/link/link.py's handshake: the game
version and the rules must be the same), and the leader of the handshake
takes role 0: its player is P1 and seat 0 of the match; the other board's
match is the mirror (engine.Match mirror=True), its own player seat 0 too.
A board linked without a role waits ROLE_WAIT_MS for the other's
commitment, which names the other's role: one that held its role before
this board restarted keeps it, and this board takes the one left.
Then the deal (engine/linkdeal.py): each board sends b"C" role commitment,
and once it holds the other's, b"S" its secret; the match is dealt from
both (role 0's secret, role 1's as its cut: a match of record format 5,
whose records chain every hand's moves and result and end with a seal).
Then every move is b"M" n:2 action: the n-th move of the match
(all hands), the engine's action string, the same on both boards; the
board that receives it plays it through Match.act, and a move the rules
refuse stops the link match with words, as do a deal refused, two boards
that took the same role, and matches that differ.

The save ("link", one commit with the statistics and the match, made
after every move sent or taken, before the poll that acknowledges it):

    b"GRLK" layout:1 role:1 flags:1 [secret:16] [their commitment:32]
    got:3 next:3 pending:1 (len:1 message)*  stats_len:2 stats  match

role is 255 before the boards linked; flags & 1: the secret is there,
flags & 2: the other's commitment too. match is engine.dumps, or nothing
while the deal is made.
"""

from firmware.compat import const, unload, heap_free
from firmware.buttons import ticks_diff
from firmware.link import link as lk
from firmware.link.linkframe import printable
from firmware.matchlife import Session
from engine import linkdeal
from engine.hand import DRAW_UPCARD, action_code, action_text
from engine.cards import card
from engine.sha256 import hex_text
import engine

SAVE = "link"
MAGIC = b"GRLK"
LAYOUT = const(1)
POLL_MS = const(20)      # the loop steps at least this often in a link match
ROLE_WAIT_MS = const(600)   # linked without a role: how long the other's commitment may take
NAMES = (b"P1", b"P2")   # role 0's player, role 1's

# the screens a link match shows in place of the game against the CPU's
_SCREENS = {"play": "link_play"}
# what a link match lets go when the title shows: its modules, their package
MODULES = ("firmware.link.linkmatch", "firmware.link.linkstart", "firmware.link.link", "firmware.link.linkframe",
           "firmware.link", "engine.linkdeal", "engine.cut", "firmware.screens.link", "firmware.screens.link_play")

WORDS_SAME_ROLE = "Both boards took the same seat: start a new link match on both."
WORDS_ORDER = "The other board's moves came out of order: start a new link match."
WORDS_UNKNOWN = "The other board sent a message this one does not know."
MOVE_MAX = const(16)     # "draw_upcard:Qs", the longest move, is 14 characters


def move_of(m):
    """The move in a b"M" message's text (bytes after its number): the
    engine's action string when it is one, byte for byte as this board
    writes it (printable ASCII, a card where one is named); else None.
    Checked here, before Match.act or any words see it."""
    a = printable(m, MOVE_MAX)
    if a is None:
        return None
    try:
        code = action_code(a)
        if code == DRAW_UPCARD and a != "draw_upcard":
            card(a[12:])
        elif code != DRAW_UPCARD and action_text(code) != a:
            return None
    except ValueError:
        return None
    return a


def encode(role, secret, theirs, state, stats, match):
    out = bytearray(MAGIC)
    out.append(LAYOUT)
    out.append(255 if role is None else role)
    out.append((1 if secret is not None else 0) | (2 if theirs is not None else 0))
    if secret is not None:
        out.extend(secret)
    if theirs is not None:
        out.extend(theirs)
    got, nxt, pending = state
    for v in (got, nxt):
        out.extend(bytes(((v >> 16) & 255, (v >> 8) & 255, v & 255)))
    out.append(len(pending))
    for p in pending:
        out.append(len(p))
        out.extend(p)
    sb = stats.encode()
    out.append(len(sb) >> 8)
    out.append(len(sb) & 255)
    out.extend(sb)
    if match is not None:
        out.extend(engine.dumps(match))
    return bytes(out)


def decode(p):
    """(role, secret, theirs, state, stats, match) of a save; ValueError
    when it is none or damaged."""
    from firmware.stats import Stats

    if len(p) < 15 or bytes(p[:4]) != MAGIC or p[4] != LAYOUT:
        raise ValueError("not a link match save")
    role = None if p[5] == 255 else p[5]
    if role not in (None, 0, 1):
        raise ValueError("a role is 0 or 1")
    f = p[6]
    i = 7
    secret = theirs = None
    if f & 1:
        secret = bytes(p[i:i + 16])
        i += 16
    if f & 2:
        theirs = bytes(p[i:i + 32])
        i += 32
    got = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2]
    nxt = (p[i + 3] << 16) | (p[i + 4] << 8) | p[i + 5]
    n = p[i + 6]
    i += 7
    pending = []
    for _ in range(n):
        k = p[i]
        pending.append(bytes(p[i + 1:i + 1 + k]))
        i += 1 + k
    k = (p[i] << 8) | p[i + 1]
    i += 2
    stats = Stats.decode(bytes(p[i:i + k]))
    i += k
    match = engine.loads(bytes(p[i:])) if i < len(p) else None
    if i > len(p) or (secret is not None and len(secret) != 16) or len(pending) != n:
        raise ValueError("the link match save is cut short")
    return role, secret, theirs, (got, nxt, tuple(pending)), stats, match


def moves_of(match):
    """Every move of the match so far, as action strings, hand after hand."""
    out = []
    for h in match.hands:
        for code in h.log:
            out.append(action_text(code))
    return out


def last_move(match):
    """The last move played in the match's hand, in the engine's words
    ("draw_upcard:9d": what the link sends and checks)."""
    return action_text(match.hand.log[-1])


class OtherBoard:
    """The other seat of a link match (the opponent of firmware/matchlife.py):
    the other board's player. Its moves come over the link when they come;
    the player's moves on this board go to it."""

    plans_ahead = False
    plan = None
    busy = None

    def __init__(self, session):
        self.session = session

    def play(self, m):
        return self.session.take_move()

    def told(self, m):
        self.session.send_move(last_move(m))

    def think(self, m):
        pass                     # nothing to decide here

    def forget(self):
        pass


class LinkSession(Session):
    kind = "link"
    save_name = SAVE

    def __init__(self, app, port, kept):
        from firmware.stats import Stats

        self.app = app
        self.port = port
        self.kept = kept             # the session LINK took over from, back on leave()
        self.opponent = OtherBoard(self)
        self.role = None
        self.secret = None
        self.theirs = None
        self.deal = None
        self.stopped = None          # words once the link match cannot go on
        self.other = NAMES[1]
        self.turns = 0
        self.check = 0xFFFF
        self.checked = None          # the session whose turns were checked
        self.linked_at = None        # when linked without a role (ROLE_WAIT_MS)
        self.moved = 0               # the other's moves played (tests, screens)
        self.last = None             # the link match, also once the match end let it go
        stats = match = state = None
        try:
            got = app.storage.load(SAVE, decode)[0]
        except Exception:
            got = None
        self.finishing = False       # a finished match's last moves still go out
        if got is not None:
            role, secret, theirs, state, stats, match = got
            if match is not None and match.winner is not None and not (state and state[2]):
                match = state = None          # over: a new one, same statistics
            else:
                # (over, but its last move not acknowledged: it goes out
                # first, then a new link match; LinkSession.tick)
                self.finishing = match is not None and match.winner is not None
                self.role = role
                self.secret = secret
                self.theirs = theirs
        self.stats = stats if stats is not None else Stats()
        self.match = match
        if self.secret is None:
            self.secret = self._entropy()(16)
        if match is None and self.role is not None:
            self._new_deal()
            if self.theirs is not None:
                self.deal.take_commitment(self.theirs)
        if self.role is not None:
            self.other = NAMES[1 - self.role]
        if match is not None:
            self._count()
            self.last = match
        self.rules = match.rules if match is not None else app.settings.match_rules()
        self.link = lk.Link(port, app.clock, self._entropy(), engine.version.VERSION,
                            self.rules.text(), saved=state)
        self.link.hold(self.turns, self.check)

    def _entropy(self):
        e = self.app.life.entropy
        if e is None:
            from firmware.entropy import fallback

            e = fallback()
        return e

    def _new_deal(self):
        self.deal = linkdeal.Deal(self.role, self.secret)

    # -- the App's loop ------------------------------------------------------
    def screen(self, name):
        """The screen a link match shows for `name` (App.go): its own
        table; the title ends the link match (leave())."""
        if name == "title":
            self.leave()
        return _SCREENS.get(name, name)

    def linked(self):
        return self.link.linked()

    def tick(self, now):
        """Poll the link (once a step, on every screen), make the deal,
        check the match both boards hold; ms until the next poll."""
        if self.stopped is not None:
            self.link.poll()          # the refusal goes on being said
            return POLL_MS * 10
        link = self.link
        last = self.last
        if (last is not None and last.winner is not None and not self.finishing
                and link.idle() and not link.ack_due):
            # the match is over and every move of it delivered both ways:
            # the link is done (the other board may start a new one now)
            return None
        if self.theirs is not None and self.match is None and SAVE in self.app.saving.unsaved:
            # The save that holds the other's commitment was refused (a
            # full or failing flash): this board's reveal, queued with it,
            # stays in the link until a save holds both, so no restart can
            # forget a deal whose secret went out. Tried again meanwhile.
            self.save()
            return POLL_MS * 10
        st = link.poll()
        if self.finishing:
            if link.idle() or st == lk.REFUSED:
                # delivered (or the other board has moved on: it refuses a
                # link that holds more of its moves than it does): the next
                self.forget()
            return POLL_MS
        if st == lk.REFUSED:
            self._stop(link.refusal)
            return POLL_MS
        if st != lk.LINKED:
            return POLL_MS
        if self.role is None:
            # A board that already holds its role (saved before this one
            # restarted) says it in its commitment: take the other. Else,
            # after ROLE_WAIT_MS, the leader of this session is role 0.
            if self.linked_at is None:
                self.linked_at = now
            m = link.recv()
            if m is not None:
                if m[:1] != b"C" or len(m) < 2 or m[1] > 1:
                    self._stop(WORDS_UNKNOWN)
                    return POLL_MS
                self._take_role(1 - m[1])
                self._deal_message(m)
                self.save()
                return POLL_MS
            if ticks_diff(now, self.linked_at) < ROLE_WAIT_MS:
                return POLL_MS
            self._take_role(0 if link.leader() else 1)
            self.save()
        if self.match is not None:
            self.last = self.match
        if self.match is None:
            m = link.recv()
            if m is not None:
                self._deal_message(m)
                self.save()
        elif self.checked != link.peer and link.peer_turns is not None:
            self.checked = link.peer
            what, n = lk.resume(self.turns, self._check_at, link.peer_turns, link.peer_check)
            if what == "differ":
                self._stop(n)
        return POLL_MS

    def _take_role(self, role):
        self.role = role
        self.other = NAMES[1 - role]
        self._new_deal()
        self.link.send(b"C" + bytes((role,)) + self.deal.commitment())

    def _deal_message(self, m):
        d = self.deal
        kind = m[:1]
        if kind == b"C":
            if len(m) < 2 or m[1] == self.role:
                self._stop(WORDS_SAME_ROLE)
                return
            why = d.take_commitment(m[2:])
            if why:
                self._stop(why)
                return
            if self.theirs is None:
                # the deal is bound from here: the other's secret is fixed
                # by the commitment held, and this board reveals its own
                # (once: a resend of the same commitment changes nothing)
                self.theirs = bytes(m[2:])
                self.link.send(b"S" + d.reveal())
        elif kind == b"S":
            why = d.take_reveal(m[1:])
            if why:
                self._stop(why)
                return
            # record format 5: role 0's secret deals, role 1's is the cut
            # (engine/match.py), so both boards chain transcripts and seal
            s0, s1 = d.secrets()
            self.match = engine.Match(self.rules, 0, secret=s0, cut=hex_text(s1),
                                      seats="link link", mirror=self.role == 1)
            self.deal = None
        else:
            self._stop(WORDS_UNKNOWN)

    # -- moves -----------------------------------------------------------------
    def send_move(self, action):
        """The player's move, just played on this board, to the other
        board: `action` in the engine's words for it ("draw_upcard:9d",
        last_move())."""
        n = self.turns
        self.link.send(b"M" + bytes((n >> 8, n & 255)) + action.encode())
        self._held(action)
        # saved before the poll that sends it (a draw too: against the
        # CPU only a whole turn is saved)
        self.save()

    def take_move(self):
        """On the other player's turn: its move, played through Match.act
        (None while none has come, or when it stops the link match)."""
        if self.stopped is not None:
            return None
        m = self.link.recv()
        if m is None:
            return None
        if m[:1] != b"M" or len(m) < 4:
            self._stop(WORDS_UNKNOWN)
            return None
        n = (m[1] << 8) | m[2]
        action = move_of(m[3:])
        if action is None:
            self._stop(WORDS_UNKNOWN)
            return None
        if n != self.turns:
            self._stop(WORDS_ORDER)
            return None
        why = self.match.act(action)
        if why is not None:
            self._stop("The other board played %s, which the rules refuse: %s. "
                       "The link match stops." % (action, why))
            return None
        self._held(last_move(self.match))
        self.moved += 1
        self.app.saving.save_match()
        return action

    def _held(self, action):
        self.turns += 1
        self.check = lk.turn_check(self.check, action.encode())
        self.link.hold(self.turns, self.check)

    def _count(self):
        self.turns = 0
        self.check = 0xFFFF
        for a in moves_of(self.match):
            self.turns += 1
            self.check = lk.turn_check(self.check, a.encode())

    def _check_at(self, n):
        c = 0xFFFF
        moves = moves_of(self.match)
        for i in range(min(n, len(moves))):
            c = lk.turn_check(c, moves[i].encode())
        return c

    # -- words, saves, the end ---------------------------------------------------
    def words(self):
        """What the link screen says."""
        if self.stopped is not None:
            return self.stopped
        if self.finishing:
            return "Sending the last move of the match to the other board."
        w = self.link.words()
        if self.link.linked() and self.match is None:
            return "Linked. Dealing: each board commits to its secret, then both reveal."
        return w

    def bound(self):
        """True once this board holds the other's commitment, and so has
        revealed its secret, until the match is over: the deal is the one
        played (a restart, a cut cable, a refusal resume it) and the match
        ends only as finished or as the other board's forfeit (new_match())."""
        m = self.match if self.match is not None else self.last
        return self.theirs is not None and not (m is not None and m.winner is not None)

    def waiting_on_other(self):
        """Bound, and the match cannot go on from this board's side: the
        other board stopped it (or sent what stops it), is not linked, or
        holds back its reveal. Only then does the link screen offer to
        end it as the other board's forfeit (new_match())."""
        return self.bound() and (self.stopped is not None or self.match is None
                                 or not self.link.linked())

    def new_match(self):
        """The link screen's A. A link match bound (bound()) ends as the
        other board's forfeit, counted in the link statistics, then a new
        link match; one that is not starts anew (forget())."""
        if self.bound():
            self.stats.record_forfeit()
        self.forget()

    def _stop(self, words):
        if self.stopped is None:
            self.stopped = words
            self.save()
            self.app.go("link")

    def save(self):
        self.app.saving.save_match()

    def payload(self, held=None, finished=None):
        """The save's bytes (firmware.saves.saving writes them, "link"; the game
        save's `held` and `finished` are not its own)."""
        m = self.match
        if m is None and self.last is not None and not self.link.idle():
            m = self.last             # the match end let it go: kept until delivered
        return encode(self.role, self.secret, self.theirs, self.link.state(), self.stats, m)

    def forget(self):
        """A new link match: the link match in the save goes (its
        statistics stay), and the boards look for each other again. Only
        for a match that is over or was never bound (new_match() counts a bound
        one's forfeit first): a board never draws a fresh secret in place
        of one it has revealed for a match that goes on."""
        app = self.app
        self.match = None
        self.role = self.theirs = self.deal = self.stopped = None
        self.checked = None
        self.finishing = False
        self.last = None
        self.linked_at = None
        self.secret = self._entropy()(16)
        self.turns = 0
        self.check = 0xFFFF
        self.rules = app.settings.match_rules()
        self.link = lk.Link(self.port, app.clock, self._entropy(), engine.version.VERSION,
                            self.rules.text())
        self.save()

    def follow_level(self):
        pass                         # no AI here

    def leave(self):
        """To the title: the link match is in its save; the session LINK
        took over from comes back, and the link's code leaves the heap. A
        match over whose last move the other board has not acknowledged
        yet (the title chosen at once, the cable out) keeps it in the
        save: LINK sends it first."""
        app = self.app
        app.saving.store(SAVE, self.payload())
        app.session = self.kept
        self.kept = None
        for n in ("link", "link_play"):
            app.let_go(n, ())
        if heap_free() is not None:
            for m in MODULES:
                unload(m)
