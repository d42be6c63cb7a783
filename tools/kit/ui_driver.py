"""Drive the simulator like a player: decide a move, then press the buttons
that make it (cursor moves, A, UP + A for a knock).

`SimplePlayer` is a small deterministic opponent for the golden tests (the
device AI keeps improving; golden screens must not move with it): take the
upcard only if it lowers the deadwood, discard what leaves the least
deadwood, knock as soon as the rules allow.
"""

import engine
from engine import card_text
from tools.kit.memstorage import MemStorage


def simple_choice(view):
    """The move of the simple policy for `view` (an engine View)."""
    ph = view.phase
    hand = view.hand
    limit = view.knock_limit
    if ph in ("draw", "first_upcard"):
        up = view.upcard
        if up is not None and "draw_upcard" in view.legal:
            now, _ = engine.best_melds(hand)
            after, _ = engine.best_discard(hand + [up], forbidden=up)
            if after < now:
                return "draw_upcard"
        return "pass" if ph == "first_upcard" else "draw_stock"
    dw, c = engine.best_discard(hand, forbidden=view.taken)
    if dw <= limit:
        return "knock:" + card_text(c)
    return "discard:" + card_text(c)


class SimplePlayer:
    def __init__(self, level="normal", seed=0):
        self.level = level

    def choose(self, view):
        return simple_choice(view)

    def hint(self, view):
        a = simple_choice(view)
        return a, "least deadwood"


def simple_factory(level, seed):
    return SimplePlayer(level, seed)


class StockOnly:
    """Passes the upcard offer, draws from the stock and throws the card
    drawn back: never knocks (for drawn hands)."""

    def __init__(self, level="normal", seed=0):
        self.level = level
        self.before = set()

    def choose(self, view):
        if view.phase in ("draw", "first_upcard"):
            self.before = set(view.hand)
            return "draw_stock" if view.phase == "draw" else "pass"
        new = [c for c in view.hand if c not in self.before]
        return "discard:" + engine.card_text(new[0])

    def hint(self, view):
        return self.choose(view), "stock only"


def presses_for(sim, action):
    """The key names that play `action` on the play screen as it stands."""
    play = sim.app.screen
    keys = []
    if action in ("draw_stock", "pass", "draw_upcard"):
        want = 1 if action == "draw_upcard" else 0
        if play.src != want:
            keys.append("R")
        keys.append("A")
        return keys
    kind, _, text = action.partition(":")
    c = engine.card(text)
    row = play.row
    i = row.index_of(c)
    n = row.n
    d = (i - play.cur) % n
    if d <= n - d:
        keys.extend(["R"] * d)
    else:
        keys.extend(["L"] * (n - d))
    if kind == "knock":
        keys.extend(["U", "A"])
    else:
        keys.append("A")
    return keys


# A new match made with an entropy source (the board's, the web page's,
# the simulator's play) shows its match commitment, then waits for the
# player's cut (firmware/screens/cut.py): A goes from the commitment to
# the cut, UP gives a place its first sign (A), RIGHT the next place, A
# deals. Every driver that starts such a match by keys presses these.
CUT = "AAAA"
CUT_KEYS = ("A", "U", "R", "U", "R", "U", "R", "U", "A")
CUT_SCRIPT = " ".join(CUT_KEYS)        # the same as a --keys / KeyScript string


def chosen_wait():
    """A match waiting for its cut whose secret is chosen here, not drawn:
    a start that finds it in the game save shows its commitment and takes
    the cut (CUT_KEYS), so a test on a board or in `make play` plays a deal
    it knows instead of the entropy's. With the cut AAAA nobody ends the
    hand in the human's first three turns of drawing from the stock and
    discarding the card drawn (host_tests/ui/test_ui_cut.py checks it)."""
    import engine
    from firmware.saves.cutsave import Wait

    return Wait(False, engine.CARDEMS, 7, b"\x02" * 16, 11)


def chosen_game_save():
    """The game save (payload) of chosen_wait(), its statistics new."""
    from firmware.saves import gamesave
    from firmware.settings import Stats

    return gamesave.join(Stats().encode(), chosen_wait().encode(), gamesave.VERSION)


def give_cut(sim):
    """On the cut screen: on from the match commitment, the cut AAAA
    given, the first hand dealt. Returns the match."""
    assert sim.screen == "cut", sim.screen
    for k in CUT_KEYS:
        sim.press(k)
    m = sim.app.match
    assert m is not None and m.cut == CUT
    return m


def play_turn(sim, choose=simple_choice, on_key=None):
    """Play the human's current decision by pressing buttons."""
    action = choose(sim.app.match.view(0))
    for k in presses_for(sim, action):
        sim.press(k)
        if on_key:
            on_key(k)
    return action


def to_ai_turn(sim):
    """From the title: NEW MATCH, the human's draw and discard; the AI's
    turn begins (not settled). Returns the match."""
    sim.press("A")                      # NEW MATCH
    m = sim.app.match
    play_turn(sim)                      # draw
    keys = presses_for(sim, simple_choice(m.view(0)))
    for k in keys[:-1]:
        sim.press(k)
    sim.press(keys[-1], settle=False)   # the discard: the AI's turn begins
    assert m.to_move == 1 and len(m.hand.log) == 2
    return m


def title_to(sim, key, settle=True):
    """On the title, move the cursor to `key` and press A."""
    t = sim.app.screen
    assert sim.screen == "title"
    for _ in range(len(t.keys)):
        if t.keys[t.menu.sel] == key:
            break
        sim.press("D")
    assert t.keys[t.menu.sel] == key
    sim.press("A", settle)


def quit_to_title(sim):
    """From a play screen: B opens the menu, D four times to its last row,
    A picks QUIT TO TITLE."""
    sim.press("B")
    for _ in range(4):
        sim.press("D")
    sim.press("A")


def title_entries(monkeypatch):
    """The frames drawn before each entry of the title screen, in a list
    that grows as the title is entered (Title.enter watched through
    pytest's `monkeypatch`): what the ports' tests count at power-on."""
    from firmware.screens.title import Title

    entered = []
    real = Title.enter

    def enter(self, **kw):
        entered.append(self.app.frames)
        real(self, **kw)

    monkeypatch.setattr(Title, "enter", enter)
    return entered


class RefusingStorage(MemStorage):
    """Flash that is full: every write fails with OSError, as Storage allows."""

    def save(self, name, payload):
        raise OSError(28, "no space left on device")

    def remove(self, name):
        raise OSError(5, "EIO")


def saved_match(storage):
    """The match in the game save of a MemStorage (firmware/saves/gamesave.py)."""
    from firmware.saves import gamesave

    return engine.loads(gamesave.split(storage.files["game"])[1])
