"""Every fixed text fits: a tour of the screens (the title, every settings
row and value, the HARDWARE page, the statistics, every RULES page, a
match's screens with the menu, the hint and the pile, a match to its end
with the review, the three-player game, the link screen) in which no text
runs past the panel's edge and no message loses lines (fit.py), and no
line of the terminal's text view is longer than its smallest terminal
shows whole (tools/sim/terminal.py: 50 columns, two of them its margin)."""

from fit import Fit
from firmware.screens.play_modes import M_DISCARD, M_DRAW
from tools.kit.ui_driver import play_turn, simple_factory, title_to
from tools.link.fakelink import SilentPort
from tools.sim import terminal, textscreen
from tools.sim.simulator import Sim

TEXT_COLS = terminal.TEXT_MIN[0] - 2     # the text view's lines are indented by two


class Tour:
    """Presses keys; look() reads the frame as the text view does (slow:
    about half a second a frame), once for each screen and page shown."""

    def __init__(self, sim, fit):
        self.sim = sim
        self.fit = fit
        self.long = set()
        self.seen = set()

    def look(self, what=None):
        key = (self.sim.screen, what)
        if key in self.seen:
            return
        self.seen.add(key)
        for line in textscreen.read(self.sim.image()):
            if len(line) > TEXT_COLS:
                self.long.add("%s: %r (%d characters, the text view shows %d)"
                              % (self.sim.screen, line, len(line), TEXT_COLS))

    def press(self, *keys):
        for k in keys:
            self.sim.press(k)

    def check(self):
        problems = self.fit.found + sorted(self.long)
        assert not problems, "\n".join(problems)


def _sim(fit, seed=7, **settings):
    """A simulator whose texts `fit` (the conftest's words_fit) records,
    named by the screen drawing them."""
    sim = Sim(seed=seed, player_factory=simple_factory, settings=settings or None)
    fit.screen = lambda: sim.screen
    return sim


def _tour(sim, fit):
    t = Tour(sim, fit)
    t.look()
    # SETTINGS: every row, every value (LEFT and RIGHT step round)
    title_to(sim, "settings")
    rows = sim.app.screen.keys
    for key in rows:
        st = sim.app.screen
        assert st.keys[st.menu.sel] == key
        t.look(key)
        if key == "style":
            t.press("R")                    # FORGET?
            t.look("forget")
            t.press("L")                    # kept
        elif key not in ("hardware", "about"):
            for _ in range(9):
                t.press("R")
                t.look(st.about)
        t.press("D")
    # the HARDWARE page: every row and its values
    for _ in range(len(rows)):
        if sim.app.screen.keys[sim.app.screen.menu.sel] == "hardware":
            break
        t.press("U")
    t.press("A")
    assert sim.screen == "hardware"
    t.look()
    for _ in range(8):
        t.press("D", "R", "L")
    t.press("B", "B")
    # STATISTICS, with the question of a reset
    title_to(sim, "stats")
    t.look()
    t.press("LA")
    t.look("reset?")
    t.press("B", "B")
    # every RULES page
    title_to(sim, "rules")
    for i in range(40):
        t.look(i)
        t.press("R")
    t.press("B")
    # a match to its end: the menu, the hint, the pile, the reviews
    title_to(sim, "new")
    t.look()
    t.press("B")
    t.look("menu")
    t.press("D", "A")                      # HINT
    t.look("hint")
    t.press("A")
    t.press("B", "D", "D", "A")            # DISCARD PILE
    t.look("pile")
    t.press("B")
    turns = 0
    while sim.app.match is not None and sim.app.match.phase != "match_over" and turns < 400:
        name = sim.screen
        t.look()
        if name == "play" and sim.app.match.to_move == 0:
            play_turn(sim)
        elif name in ("result", "showdown"):
            t.press("D")                   # the review of the hand
            t.look()
            t.press("D", "D", "U", "B", "A")
        else:
            t.press("A")
        turns += 1
    for _ in range(4):
        t.look()
        t.press("D")
    t.press("A", "A")
    t.look()
    return t


def test_the_three_player_game_fits(words_fit):
    """A three-player match to 50 through its table (the advice as
    captain, the advice given as sitter), showdowns, results and end."""
    sim = _sim(words_fit, seed=5, speed="fast", target=50)
    t = Tour(sim, words_fit)
    title_to(sim, "box")
    m = sim.app.match
    for _ in range(3000):
        if sim.screen == "box_match_end" or sim.screen == "title":
            break
        t.look()
        play = sim.app.screen
        if sim.screen != "box_play":
            t.press("A")
        elif play.overlay:
            t.look(play.overlay)
            t.press("A")
        elif m.to_move == 0 and play.mode in (M_DRAW, M_DISCARD):
            t.press("LB")                      # the sitter's advice, as captain
            t.look("advice")
            t.press("A")
            play_turn(sim)
        else:
            sim.settle()
    assert sim.screen == "box_match_end", sim.screen
    t.look()
    assert {"box_play", "box_showdown", "box_result", "box_match_end"} <= {s for s, _ in t.seen}
    t.check()


def test_the_link_screen_fits(words_fit):
    sim = _sim(words_fit)
    sim.app.link_port = SilentPort
    sim.app.go("title")
    t = Tour(sim, words_fit)
    title_to(sim, "link", settle=False)
    for _ in range(6):
        sim.run(1000)
        s = sim.app.session
        t.look(s.words() if s is not None and s.kind == "link" else None)
    assert sim.screen == "link"
    t.check()


def test_every_text_fits_the_panel_and_the_text_view(words_fit):
    _tour(_sim(words_fit), words_fit).check()


def test_the_check_finds_words_that_do_not_fit(words_fit):
    """The recorder sees a text past the edge, a message cut short, and
    nothing when the words fit."""
    from firmware.display import fb
    from firmware.screens import layout as L
    with Fit() as fit:        # inside the one every UI test has (conftest.py)
        c = fb.Canvas()
        c.text(b"A: HARD CPU FORGETS HOW YOU KNOC", 1, 49)        # 32 small: ends at 128
        c.text(b"SIXTEEN LETTERS", 38, 2, 1, fb.BIG)             # 15 big: ends at 127
        L.rich_text(c, L.wrap("take Qc then knock", 30)[0], 5, 22)
        assert not fit.found, fit.found
        c.text(b"A: HARD CPU FORGETS HOW YOU KNOCK", 1, 49)       # 33: the K is cut
        L.wrap("one two three four five six seven", 10)[:2]
        L.text_c(c, b"A TITLE TOO WIDE TO BE CENTRED ON IT", 2)
    assert len(fit.found) == 3, fit.found
    assert "KNOCK" in fit.found[0] and "4 lines of 10 characters, 2 shown" in fit.found[1]
    assert len(words_fit.found) >= 2          # the outer one sees the texts too: on purpose here
    words_fit.found[:] = []


def test_the_link_words_of_every_port_fit_the_link_screen():
    """The link screen keeps 5 lines of 31 characters (firmware/screens/
    link.py): the cable's words, the simulator's socket's and the browser
    tab's all fit, and so does the simulator's LINK without --link."""
    from firmware.link import link as lk
    from firmware.screens import layout as L
    from tools.link.sockport import LocalPort
    from tools.sim.simulator import NO_LINK
    from web.webport import LinkPort

    class Host:
        any = take = post = use = None
    words = [getattr(lk, n) for n in dir(lk) if n.startswith("WORDS_")]
    for port in (LocalPort(47474), LinkPort(Host())):
        words += [port.looking, port.lost]
    assert len(words) >= 10
    for w in words:
        assert len(L.wrap(w, 31)) <= 5, w
    assert len(L.wrap("The link port did not open: %s" % NO_LINK, 31)) <= 6
