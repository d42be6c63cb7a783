"""Runs ON the (emulated) Pico: whole matches in the real App and its real
ports (display on I2C, button sampler timer, /data storage), the human seat
played by a bot that presses buttons, every AI decision timed.

    import aibench
    aibench.main("hard", matches=5, seed=1, human="easy")

The bot's presses go through the real debounce and the screens' own
handling: firmware.pico.pico.ButtonPins is replaced by a subclass whose reading
or's in the key being pressed (40 ms down and until the sampler has seen it,
then 40 ms up). Each AI decision is
timed with time.ticks_us() around Player.choose() (the play screen's call),
with gc.mem_free() read before it; after every hand a gc.collect() gives
the free heap after a collection. Lines printed (the host parses them):

    @ai LEVEL US FREE AFTER STACK
                               one AI decision: microseconds, free heap before
                               and after it (more after: a collection ran
                               inside the decision), C stack in use at the call;
                               with the App's slices (Player.begin, step,
                               result) US is the fast part, begin()
    @slices LEVEL FAST TOTAL STEPS MAXSTEP
                               the same decision in slices: begin()'s us, the
                               whole think (begin and every step) us, the
                               steps, the slowest step's us
    @gc FREE                   free heap after a collection, at each hand end
    @slow LEVEL US SEED HEX    a decision over `slow_us`: the AI's seed and
                               engine.dumps of the match before it
    @match N SCORE0 SCORE1     a match ended (the last one plays to
                               `last_target` points when given)
    @lost UNLOCKED DEEP        decisions the AI made again without the heap
                               lock (engine.ai Player.unlocked), and button
                               samples lost (firmware.pico.pico Sampler.deep)
    @lat hand US               A on a hand result (from its release) to the
                               end of the next hand's first frame sent
    @lat end US                the last hand's A to the match end's first frame

With entropy=True a new match is made as the board makes it (the board's
entropy; the match commitment shown, then the bot gives the cut AAAA, as
tools/kit/ui_driver.py's CUT_KEYS, on a tree with the cut screen); by
default, as the figures of docs/DEVICE.md were measured, without (a match
dealt by deal numbers: the .mpy bundle's heap has no room for the bench
beside a committed match).
    @done                      all matches played
"""

import gc
import micropython
import time

from firmware import buttons as btn
from firmware.pico import pico

HOLD_MS = 40
GAP_MS = 40
SETTLE_MS = 2    # firmware.buttons accepts a change seen twice this far apart ...
SEEN_MS = 8      # ... and the key stays down this long after its first reading
_KEY = {"L": btn.LEFT, "R": btn.RIGHT, "U": btn.UP, "D": btn.DOWN, "A": btn.A, "B": btn.B}
CUT_KEYS = ("A", "U", "R", "U", "R", "U", "R", "U", "A")   # tools/kit/ui_driver.py's


class Done(KeyboardInterrupt):
    """All matches are played: ends pico.run() like Ctrl-C does."""


class Keys:
    """One key at a time: down at least HOLD_MS from the press and until a
    reading SEEN_MS after the first that saw it (so the debounce's two
    agreeing samples see it however busy the loop is), then up GAP_MS.
    Times are read when they happen, never passed in: a bot that thinks
    between reading the clock and pressing must not press a key whose
    time is already up (it was never seen, and the bot pressed it again
    and again)."""

    def __init__(self):
        self.bit = 0
        self.down_until = 0
        self.seen = 0            # readings that saw the key: 0, 1, 2 (two, SETTLE_MS apart)
        self.seen_t = 0
        self.free_at = 0
        self.released = 0        # time.ticks_us() when the last key went up

    def busy(self, now):
        if self.bit:
            return True
        return time.ticks_diff(self.free_at, now) > 0

    def press(self, name):
        self.seen = 0
        self.down_until = time.ticks_add(time.ticks_ms(), HOLD_MS)
        self.bit = _KEY[name]

    def mask(self):
        """The key down now (or'ed into the pins' reading: runs in the
        sampler's timer and in the loop's polls)."""
        b = self.bit
        if not b:
            return 0
        now = time.ticks_ms()
        if self.seen == 0:
            self.seen = 1
            self.seen_t = now
        elif self.seen == 1:
            if time.ticks_diff(now, self.seen_t) >= SETTLE_MS:
                self.seen = 2                  # a second reading the debounce accepts
        elif time.ticks_diff(now, self.down_until) >= 0 and \
                time.ticks_diff(now, self.seen_t) >= SEEN_MS:
            self.bit = 0
            self.released = time.ticks_us()
            self.free_at = time.ticks_add(now, GAP_MS)
            return 0
        return b


KEYS = Keys()


_Pins = pico.ButtonPins
_Sampler = pico.Sampler
LOST = [0, None]    # decisions made again unlocked; the App's Sampler


class BenchSampler(_Sampler):
    def __init__(self, *a, **kw):
        _Sampler.__init__(self, *a, **kw)
        LOST[1] = self


class BotPins(_Pins):
    def read(self):
        return _Pins.read(self) | KEYS.mask()


class Timed:
    """The AI with its choose() timed."""

    def __init__(self, player, level, log):
        self.player = player
        self.level = level
        self.log = log

    def choose(self, view):
        stack = micropython.stack_use()
        free = gc.mem_free()
        n = getattr(self.player, "unlocked", 0)   # (0: a tree from before the lock)
        t0 = time.ticks_us()
        a = self.player.choose(view)
        us = time.ticks_diff(time.ticks_us(), t0)
        LOST[0] += getattr(self.player, "unlocked", 0) - n
        self.log(self, us, free, gc.mem_free(), stack)
        return a

    def begin(self, view):
        stack = micropython.stack_use()
        free = gc.mem_free()
        n = getattr(self.player, "unlocked", 0)
        t0 = time.ticks_us()
        a = self.player.begin(view)
        us = time.ticks_diff(time.ticks_us(), t0)
        LOST[0] += getattr(self.player, "unlocked", 0) - n
        self.log(self, us, free, gc.mem_free(), stack)
        self.t_fast = us
        self.t_total = us
        self.t_steps = 0
        self.t_max = 0
        return a

    def step(self):
        n = getattr(self.player, "unlocked", 0)
        t0 = time.ticks_us()
        more = self.player.step()
        us = time.ticks_diff(time.ticks_us(), t0)
        LOST[0] += getattr(self.player, "unlocked", 0) - n
        self.t_total += us
        self.t_steps += 1
        if us > self.t_max:
            self.t_max = us
        if not more:
            print("@slices %s %d %d %d %d" % (
                self.level, self.t_fast, self.t_total, self.t_steps, self.t_max))
        return more

    def result(self):
        return self.player.result()

    def __getattr__(self, name):
        return getattr(self.player, name)


def _human_key(app, human):
    """The next key the human's bot presses on the play screen, or None."""
    s = app.screen
    m = app.match
    if s.overlay != 0:
        return "A" if s.overlay == 2 else "B"   # confirm a knock; close the rest
    if s.mode >= 2 or m.to_move != 0:
        return "A"                             # hurry the AI / the hand's end
    a = human.action(m)
    if s.mode == 0:
        if a == "draw_upcard":
            want = 1
        else:
            want = 0                           # draw_stock, or pass (V1)
        return "A" if s.src == want or s.stock_only else "R"
    card = engine_card(a[a.index(":") + 1:])
    i = s.row.index_of(card)
    if i != s.cur:
        n = s.row.n
        return "R" if (i - s.cur) % n <= n // 2 else "L"
    return "U" if a.startswith("knock") else "A"


class HumanBot:
    """The human seat's player: one decision per position (the cursor
    keys of a move re-read it)."""

    def __init__(self, player):
        self.player = player
        self.at = None
        self.a = None

    def action(self, m):
        at = (m.hand, len(m.hand.log), m.phase)
        if at != self.at:
            self.at = at
            self.a = self.player.choose(m.view(0))
        return self.a


class GreedyBot:
    """A human seat that takes no heap of its own (for the game's free heap
    alone): the stock, the discard leaving the least deadwood
    (engine.melds.best_discard4, allocation-free), a knock when the
    deadwood left allows it. `player` is None."""

    player = None

    def __init__(self):
        self.m4 = [0, 0, 0, 0]

    def action(self, m):
        h = m.hand
        if m.phase != "discard":
            return "draw_stock"
        from engine.melds import best_discard4
        from engine.cards import card_text

        o = h.turn * 4
        m4 = self.m4
        for i in range(4):
            m4[i] = h.masks[o + i]
        r = best_discard4(m4, h.taken)
        return ("knock:" if r >> 6 <= h.knock_limit else "discard:") + card_text(r & 63)


def human_bot(level, seed):
    """The human seat's bot: an engine.ai Player at `level`, or GreedyBot
    for "greedy"."""
    if level == "greedy":
        return GreedyBot()
    from engine.ai import Player

    return HumanBot(Player(level, seed))


def engine_card(text):
    import engine

    return engine.card(text)


class ShowTimer:
    """The display, with the time each frame was sent noted: `then(t)` is
    called with time.ticks_us() once a frame is on the bus."""

    def __init__(self, display, then):
        self.display = display
        self.then = then

    def show(self, buf):
        n = self.display.show(buf)
        self.then(time.ticks_us())
        return n

    def __getattr__(self, name):
        return getattr(self.display, name)


def _title_key(app):
    s = app.screen
    if s.confirm:
        return "A"
    want = s.keys.index("new")
    if s.menu.sel != want:
        return "D"
    return "A"


def main(level="hard", matches=5, seed=1, human="easy", slow_us=400000, speed="fast",
         last_target=0, entropy=False):
    import engine
    from engine.ai import Player
    from firmware.app import App

    state = {"matches": 0, "seed": None, "hands": -1, "at_end": False, "cut": 0,
             "lat": None}
    bot = human_bot(human, seed + 7919)

    def log(t, us, free, after, stack):
        print("@ai %s %d %d %d %d" % (t.level, us, free, after, stack))
        if us > slow_us:
            m = app_box[0].match
            print("@slow %s %d %d %s" % (t.level, us, m.seed & 0x3FFFFFFF, engine.dumps(m).hex()))

    def player_factory(lv, s):
        return Timed(Player(lv, s), lv, log)

    app_box = [None]

    class BenchApp(App):
        def __init__(self, ports):
            ports.player_factory = player_factory
            if entropy:
                ports.entropy = pico.hw_entropy()     # as the board's own App has it
            App.__init__(self, ports)
            self.display = ShowTimer(self.display, self.shown)
            app_box[0] = self

        def shown(self, t):
            """A frame is on the bus: the latency a result's A waits for."""
            lat = state["lat"]
            if lat is not None and self.screen_name in lat[1]:
                state["lat"] = None
                print("@lat %s %d" % (lat[0], time.ticks_diff(t, KEYS.released)))

        def start(self):
            App.start(self)
            self.settings.level = level
            self.settings.speed = speed
            if last_target and matches == 1:
                self.settings.target = last_target

        def step(self):
            w = App.step(self)
            now = time.ticks_ms()
            name = self.screen_name
            m = self.match
            # ints, not the hand or the match: holding those would keep a
            # finished match on the heap the game's figures are read from
            if m is not None and name != "play" and (
                    m.seed != state["seed"] or len(m.results) != state["hands"]):
                state["seed"] = m.seed
                state["hands"] = len(m.results)
                gc.collect()
                print("@gc %d" % gc.mem_free())
            at_end = name == "match_end"
            if at_end and not state["at_end"]:
                state["matches"] += 1
                print("@match %d %d %d" % (state["matches"], m.scores[0], m.scores[1]))
                rv = self.reviews
                print("@reviewed %d %d" % (rv.next, len(m.results)))
                if last_target and state["matches"] == matches - 1:
                    self.settings.target = last_target     # the last match's
                if state["matches"] >= matches:
                    print("@lost %d %d" % (LOST[0], LOST[1].deep if LOST[1] else -1))
                    print("@done")
                    raise Done()
            state["at_end"] = at_end
            if KEYS.busy(now) or self.buttons.held():   # until the release is taken too
                return w if w < 10 else 10
            if name != "cut":
                state["cut"] = 0
            if name == "title":
                k = _title_key(self)
            elif name == "play":
                k = _human_key(self, bot)
            elif name == "cut":
                k = CUT_KEYS[state["cut"] % len(CUT_KEYS)]
                state["cut"] += 1
            elif name in ("showdown", "result", "seal", "match_end", "message"):
                k = "A"
                if name == "result":
                    # timed from the release to the next screen's first frame
                    # (the match end's first screen: its seal page, if any)
                    state["lat"] = ("end", ("seal", "match_end")) if m.phase == "match_over" \
                        else ("hand", ("play",))
            else:
                k = "B"
            KEYS.press(k)
            return 0

    pico.ButtonPins = BotPins
    pico.Sampler = BenchSampler
    gc.collect()
    print("@free %d" % gc.mem_free())
    pico.run(app_factory=BenchApp, root="/data", seed=seed)
