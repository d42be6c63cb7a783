"""The AI's slices in the App (firmware/screens/play.py, play_ai.py): the
play screen calls the AI's begin() at the start of its pause and one
step() a tick while the pause runs; the move is made once the pause is
over AND the steps are done; A ends the pause but not the steps, so a
hurried move is the same move; buttons and frames are served between
steps; a step that raises keeps the fast choice."""
import engine
from engine.hand import TOOK, DRAW_STOCK, PASS
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import presses_for, simple_choice, to_ai_turn


class Slicer:
    """The simple policy in `steps` slices of `ms` each of the (fake)
    clock; result() is the move only when every step ran (else a move
    that differs), and a step can be made to raise."""

    level = "hard"

    def __init__(self, box, steps, ms, fail_at=None):
        self.box = box
        self.steps = steps
        self.ms = ms
        self.fail_at = fail_at
        self.log = []          # (what, clock) of begin and each step
        self.left = 0
        self.view = None

    def begin(self, view):
        self.view = view
        self.left = self.steps
        self.log.append(("begin", self.box[0].clock.t))
        return simple_choice(view)

    def step(self):
        sim = self.box[0]
        self.log.append(("step", sim.clock.t))
        if self.fail_at is not None and self.steps - self.left == self.fail_at:
            raise RuntimeError("a bug in a step")
        if self.ms:
            sim.clock.advance(self.ms)
        self.left -= 1
        return self.left > 0

    def result(self):
        a = simple_choice(self.view)
        if self.left:
            legal = self.view.legal
            return [x for x in legal if x != a][0]
        return a

    def choose(self, view):
        raise AssertionError("the App asks in slices")

    def hint(self, view):
        return simple_choice(view), "least deadwood"


def _sim(ai, speed):
    box = []
    sim = Sim(seed=1, storage=MemStorage(), player_factory=lambda lv, s: ai,
              settings={"speed": speed})
    box.append(sim)
    ai.box = box
    return sim


def test_the_move_waits_for_the_pause_and_for_the_steps():
    # short steps: the move comes when the pause is over
    ai = Slicer(None, 5, 20)
    sim = _sim(ai, "normal")              # 900 ms
    m = to_ai_turn(sim)
    sim.run(850, 5)
    assert len(m.hand.log) == 2
    assert [w for w, _ in ai.log] == ["begin"] + ["step"] * 5
    sim.run(100, 5)
    assert len(m.hand.log) == 3 and m.hand.log[2] is not None
    # many steps (the App steps once a tick, each at least 1 ms of the fake
    # clock apart): the move comes when the steps are done, long after the
    # pause's end
    ai = Slicer(None, 2000, 0)
    sim = _sim(ai, "fast")                # 400 ms
    m = to_ai_turn(sim)
    while len(m.hand.log) == 2:
        sim.run(10, 5)
    log = [w for w, _ in ai.log]
    assert log[:2001] == ["begin"] + ["step"] * 2000   # every step before the move
    assert sim.clock.t - ai.log[0][1] >= 1000          # far past the 400 ms pause


def test_a_hurried_move_is_the_same_move():
    def first_ai_move(hurry):
        ai = Slicer(None, 1000, 0)
        sim = _sim(ai, "slow")            # 1600 ms
        m = to_ai_turn(sim)
        if hurry:
            sim.run(30, 5)
            sim.press("A", settle=False)  # hurry: the pause ends, the steps go on
        for _ in range(400):
            if len(m.hand.log) > 2:
                break
            sim.run(10, 5)
        assert [w for w, _ in ai.log][:1001] == ["begin"] + ["step"] * 1000
        return m.hand.log[2], sim.clock.t
    slow, t_slow = first_ai_move(False)
    quick, t_quick = first_ai_move(True)
    assert slow == quick
    assert t_quick < t_slow


def test_buttons_and_frames_are_served_between_steps():
    # B opens the menu while the AI thinks: its frame comes at once, the
    # steps go on under the menu, and the move waits for the menu to close
    ai = Slicer(None, 1500, 0)
    sim = _sim(ai, "slow")
    m = to_ai_turn(sim)
    sim.run(250, 5)
    frames = sim.app.frames
    sim.press("B", settle=False)
    assert sim.app.screen.overlay != 0 and sim.app.frames > frames
    steps = len(ai.log)
    sim.run(400, 5)
    assert len(ai.log) > steps           # thinking on under the menu
    sim.run(2000, 5)
    assert len(m.hand.log) == 2          # no move while the menu is open
    assert ai.left == 0 and len(ai.log) == 1501
    sim.press("B", settle=False)         # back to the table
    sim.run(100, 5)
    assert len(m.hand.log) == 3


def test_a_step_that_raises_keeps_the_fast_choice():
    ai = Slicer(None, 5, 10, fail_at=2)
    sim = _sim(ai, "fast")
    m = to_ai_turn(sim)
    fast = simple_choice(m.view(1))
    sim.run(600, 5)
    assert len(m.hand.log) >= 3
    log = [w for w, _ in ai.log]
    assert log[:4] == ["begin", "step", "step", "step"] and log[4] == "begin"
    assert fast == "draw_upcard" or fast == "draw_stock" or fast == "pass"
    got = m.hand.log[2]                  # the log: TOOK + card for the upcard
    assert (got >= TOOK) if fast == "draw_upcard" else (got == (DRAW_STOCK if fast == "draw_stock" else PASS))


def test_hard_hurried_or_not_makes_the_same_moves():
    # the real hard player: the same match whether the human hurries every
    # AI turn or not
    from engine.ai import Player

    def play(hurry):
        sim = Sim(seed=3, storage=MemStorage(), settings={"speed": "fast", "level": "hard"},
                  player_factory=lambda lv, s: Player(lv, s))
        sim.press("A")
        m = sim.app.match
        for _ in range(40):
            if sim.screen != "play" or m.to_move != 0:
                break
            for k in presses_for(sim, simple_choice(m.view(0))):
                sim.press(k, settle=not hurry)
                if hurry and m.to_move == 1:
                    sim.run(5, 5)
                    sim.press("A", settle=False)
            sim.settle()
        ai = sim.app.session.player
        assert ai.level == "hard"
        return engine.dumps(m), len(m.hand.log)
    a = play(False)
    b = play(True)
    assert a == b and a[1] > 10


class Counted:
    """The real hard player, its begin/step/result counted with the App's
    step in which each ran, and a twin deciding each view whole
    (Player.choose) beside it."""

    def __init__(self, sim_box, seed):
        from engine.ai import Player
        self.p = Player("hard", seed)
        self.twin = Player("hard", seed)
        self.level = "hard"
        self.box = sim_box
        self.calls = []      # (what, App step number)
        self.pairs = []      # (the twin's move, the sliced move)

    def _at(self, what):
        self.calls.append((what, self.box[0].n_steps))

    def begin(self, view):
        self._at("begin")
        self.want = self.twin.choose(view)
        return self.p.begin(view)

    def step(self):
        self._at("step")
        return self.p.step()

    def result(self):
        got = self.p.result()
        self.pairs.append((self.want, got))
        return got

    def choose(self, view):
        raise AssertionError("the App asks in slices")

    def hint(self, view):
        return self.p.hint(view)


def test_hard_in_the_app_moves_as_choose_and_its_steps_come_a_tick_after_begin():
    box = []
    ai = Counted(box, 5)
    sim = Sim(seed=5, storage=MemStorage(), settings={"speed": "fast"},
              player_factory=lambda lv, s: ai)
    box.append(sim)
    sim.n_steps = 0
    step = sim.app.step

    def counted_step():
        sim.n_steps += 1
        return step()
    sim.app.step = counted_step
    sim.press("A")
    m = sim.app.match
    for _ in range(200):
        if sim.screen != "play" or m.hand.result is not None:
            break
        if m.to_move == 0:
            for k in presses_for(sim, simple_choice(m.view(0))):
                sim.press(k)
        sim.settle()
    split = [i for i in range(len(ai.calls) - 1)
             if ai.calls[i][0] == "begin" and ai.calls[i + 1][0] == "step"]
    assert len(ai.pairs) > 5 and split
    assert all(want == got for want, got in ai.pairs)
    # the slice begin() left runs in a later App step than begin
    assert all(ai.calls[i + 1][1] > ai.calls[i][1] for i in split)


def test_a_first_slice_without_a_move_and_a_failing_step_still_move():
    class Undecided(Slicer):
        def begin(self, view):
            super().begin(view)
            return None
    ai = Undecided(None, 3, 10, fail_at=1)
    sim = _sim(ai, "fast")
    m = to_ai_turn(sim)
    legal = m.legal()
    sim.run(600, 5)
    assert len(m.hand.log) >= 3           # moved: the first legal move
    first = legal[0]
    got = m.hand.log[2]
    assert (got >= TOOK) if first.startswith("draw_upcard") else (got == (DRAW_STOCK if first == "draw_stock" else PASS))
