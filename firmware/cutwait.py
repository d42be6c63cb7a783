"""A new match waiting for the player's cut (a deal the device cannot
choose: engine/cut.py, docs/FAIRNESS.md): app.session from the moment its
secret is drawn until the player's cut deals its first hand.

Cold: imported only by a new match made with an entropy source (the
board's, the web page's, the simulator's play) and by a start that finds
such a match in the game save; let go, with the cut screen
(firmware/screens/cut.py), once the first hand is dealt.

    begin(app, rules, seed, box)   NEW MATCH, 3-PLAYER GAME: the secret
                                   and the AI's seed drawn, saved, then the
                                   match commitment shown (the cut screen)
    deal(app, cut)                 the player's cut: the match made with
                                   it, its first hand dealt and shown
    drop(app)                      B on the cut screen: no match, the title

The order is the promise: the secret is drawn and written to the flash
(the game save, firmware/saves/gamesave.py's Wait, not waiting for the frame as
a turn's save does) before the screen shows its commitment, and a start
that finds it shows the same commitment again. So a power cut never gives
the device a second secret for the match whose MATCH # the player saw.
Nothing the player gives enters before the commitment is shown: the cut
screen starts blank and deals only once every place is chosen.

The waiting session is a session (firmware/matchlife.py) with no match:
its save is the Wait with the statistics, and its screen for the title
and the table is the cut screen, so a start that resumes it (after the
notes of the start) and a new match's way to the table both show it.
"""

from firmware.saves import gamesave
from firmware.compat import collect
from firmware.saves.cutsave import Wait

_LET_GO = ("firmware.screens.cut", "firmware.cutwait", "firmware.saves.cutsave")
class CutSession:
    """The session of a match waiting for its cut (the module's docstring;
    firmware/matchlife.py says what a session is)."""

    kind = "cut"
    other = b"CPU"
    save_name = gamesave.NAME
    match = None
    opponent = None

    def __init__(self, app, stats, wait, dealt, plain):
        self.app = app
        self.stats = stats
        self.wait = wait             # firmware/saves/cutsave.py's Wait
        self.dealt = dealt           # the session class of the match once dealt
        self.plain = plain           # the session class of no match (B: the title)

    def payload(self, held, finished):
        # no match is in play (`held` went with the match before; a finished
        # match's record was written before a new match could be made)
        return gamesave.join(self.stats.encode(), self.wait.encode(), gamesave.VERSION)

    def screen(self, name):
        return "cut" if name == "title" or name == "play" else name

    def tick(self, now):
        return None

    def resume(self):
        pass

    def follow_level(self):
        pass

    def forget_style(self):
        self.stats.reset("style")
        self.app.saving.save_match()

    def reset_stats(self):
        from firmware.settings import Stats

        self.stats = Stats()
        self.app.saving.save_match()

    def end(self):
        pass


def begin(app, rules, seed, dealt, plain, box=False):
    """A new match at `rules` and `seed` (box: a V6 box match), waiting for
    its cut: the match in play ends, the secret and the AI's seed are
    drawn and saved at once, then App.go to the table shows the cut
    screen. `dealt` is the session class of the match once dealt
    (firmware/matchlife.py's Session, firmware/boxgame.py's BoxSession),
    `plain` that of no match in play (Session): passed in, so that this
    cold module imports neither."""
    s = CutSession(app, app.session.stats, None, dealt, plain)
    app.session = s              # the last match and its AI go first
    app.saving.held = None
    collect()
    secret, ai = app.life.draw()
    s.wait = Wait(box, rules, seed, secret, ai)
    # before the commitment is on the screen: not after the frame
    app.saving.save_match(now=True)


def commitment(wait):
    """MATCH # and the first engine.match_commit.MATCH_HEX hex digits of
    the match commitment of `wait`'s secret (bytes)."""
    from engine.match_commit import MATCH_HEX, secret_commitment
    from engine.sha256 import hex_text

    return b"MATCH #" + hex_text(secret_commitment(wait.secret)[:MATCH_HEX // 2]).encode()


def deal(app, cut):
    """The player's cut (str, engine.cut.check_cut's): the session of the
    match to be dealt takes the place of the waiting one, holding what
    deals it (pending: plain values, nothing of this module), and the cut
    screen and this module are let go; the title's tick, later in this
    same step of the App, makes the match (matchlife.Life.deal) and shows
    its first hand. So on the .mpy bundle the match and its AI are made
    with the cut's code off the heap (made here, they did not fit)."""
    ws = app.session
    w = ws.wait
    # the cut saved before the deal: a start after a power cut, or after
    # running out of memory in the deal (the .mpy bundle: the start's
    # fresh heap), deals this same match (dealt_session)
    w.cut = cut
    app.saving.save_match(now=True)
    app.session = dealt_session(app, ws.stats, w, ws.dealt)
    app.let_go("cut", _LET_GO)
    app.go("title")


def dealt_session(app, stats, w, dealt):
    """The session (class `dealt`) of the match waiting match `w` deals,
    its cut given: made by the title's tick (matchlife.Life.deal)."""
    s = dealt(app, stats)
    s.pending = (w.box, w.rules, w.seed, w.secret, w.ai_seed, w.cut)
    return s


def drop(app):
    """B on the cut screen: the waiting match goes (nothing was dealt from
    its secret), saved at once; the title."""
    ws = app.session
    app.session = ws.plain(app, ws.stats)
    app.saving.save_match(now=True)
    app.go("title")
    app.let_go("cut", _LET_GO)
