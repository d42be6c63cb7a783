"""The emulated boards' simple player (tools/pico/two_picos.py, Player)
leaves a button up before it presses the next: pressed again at once, the
board saw one long press, the second went unanswered until the player's
patience ran out, and tools/pico/two_picos_latency.py counted LEFT/RIGHT presses
of 1.6 s. A stand-in board moves its cursor at each press and answers with
a new panel, the moment the player used to press again with no time up."""

from firmware import buttons as btn
from tools.pico import two_picos as lp


class Board:
    """Buttons on a timeline; the panel a discard with the cursor on card
    `sel`, moved by each press of RIGHT or LEFT (taken at the press)."""

    HAND = ["2\u2660", "3\u2660", "4\u2660", "K\u2666", "9\u2660", "5\u2665", "5\u2666",
            "5\u2663", "9\u2665", "9\u2666", "A\u2663"]

    def __init__(self):
        self.t = 0
        self.sel = 0
        self.down = {}
        self.pins = []            # (ns, key, down)
        self._burst = None

    def pin(self, key, down):
        self.pins.append((self.t, key, down))
        if down and key in "LR":
            self.sel = (self.sel + (1 if key == "R" else -1)) % len(self.HAND)

    def run(self, ms):
        self.t += int(ms * 1e6)

    def text(self):
        hand = " ".join((">" if i == self.sel else "") + c for i, c in enumerate(self.HAND))
        return ["YOU 0   CPU 0   HAND 1 DW 45", "STOCK 30   PILE 7\u2663", "YOUR DISCARD",
                "<> A DISCARD ^ KNOCK B MENU", hand]


def test_the_player_leaves_a_button_up_before_the_next_press():
    b = Board()
    p = lp.Player(b)
    keys = [p.act() for _ in range(3)]
    assert keys == ["R", "R", "R"]          # to K♦, each on a new panel at once
    ups = [t for t, _, down in b.pins if not down]
    downs = [t for t, _, down in b.pins if down]
    gaps = [(d - u) / 1e6 for u, d in zip(ups, downs[1:])]
    # up longer than the debounce needs to take a release and a new press
    assert gaps and min(gaps) > btn.LOCKOUT_MS + 2 * btn.SETTLE_MS
