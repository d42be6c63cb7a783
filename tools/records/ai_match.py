"""Play seeded AI-vs-AI matches and print their records (cross-runtime check).

    python tools/records/ai_match.py [SEED]               (default seed 7)
    micropython tools/records/ai_match.py [SEED]
    node tools/kit/run_wasm.mjs tools/records/ai_match.py [SEED]
    micropython tools/records/ai_match.py --heap-lock [SEED]

Prints the record (engine.record_text) of two matches with the same seed:
hard (seat 0) against normal (seat 1), then easy against hard, each with
a line on hard's deeper look (engine/ai/deep.py: the moves it changed from
the fast choice, its work units and steps; the players decide in slices,
begin, step, result, as the App asks them). The look is off in the game;
hard plays with it here so that its moves and its allocation are checked
on every runtime. The AI's moves depend only on
the seed, so every runtime must print the same bytes
(host_tests/test_ai_runtimes.py compares them).

With --heap-lock (MicroPython only) every AI decision of the first match is
made twice: once normally, then again on the same view under
micropython.heap_lock(), where any allocation raises MemoryError, with the
player made to re-read the whole hand from the view; both must give the
same action. The first, made as a game makes it, must not have needed
Player's fallback without the lock (Player.unlocked stays 0, both seats),
nor has a step of the deeper look failed (a MemoryError in a step would
end the look: Deep.failed stays 0).
Prints "ai alloc-free: N decisions (deep look: U units in S steps)".
"""

import sys

import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

from engine import Match, record_text, replay  # noqa: E402
from engine.ai import Player  # noqa: E402
from tools.kit.play import play_out  # noqa: E402


def decide(player, view, count):
    """The player's move in slices (begin, step while True, result), as the
    App asks; count = [moves changed by the look, units, steps]."""
    fast = player.begin(view)
    while player.step():
        pass
    action = player.result()
    if action != fast:
        count[0] += 1
    return action


def play(seed, levels, locked=None, count=None):
    """Play a match between Player(levels[0]) and Player(levels[1]).
    `locked`: a function(player, view, action) re-checking each decision;
    `count`: see decide()."""
    m = Match(seed=seed)
    players = (Player(levels[0], seed, deep=True), Player(levels[1], seed + 1, deep=True))
    if count is None:
        count = [0, 0, 0]

    def choose(m, seat):
        view = m.view(seat)
        action = decide(players[seat], view, count)
        if locked is not None:
            locked(players[seat], view, action)
        return action

    play_out(m, choose)
    for p in players:
        if p.deep is not None:
            count[1] += p.deep.units
            count[2] += p.deep.steps
    return m


def heap_lock_check(seed):
    import gc
    import micropython
    count = [0]

    def locked(player, view, action):
        if player.unlocked:
            raise RuntimeError("%s made a decision again without the heap lock" % player.level)
        if player.deep is not None and player.deep.failed:
            raise RuntimeError("a step of the deeper look failed")
        if player.level != "hard":
            return
        # forget the hand so the locked decision re-reads it from the view
        # (the once-per-hand part included)
        player.k.key_hand = -1
        gc.collect()
        micropython.heap_lock()
        try:
            again = player.choose(view)
        finally:
            micropython.heap_unlock()
        if again != action:
            raise RuntimeError("decision changed under heap_lock: %s then %s" % (action, again))
        count[0] += 1

    looked = [0, 0, 0]
    play(seed, ("hard", "normal"), locked, looked)
    print("ai alloc-free: %d decisions (deep look: %d units in %d steps)" % (
        count[0], looked[1], looked[2]))


def main(argv):
    args = argv[1:]
    if args and args[0] == "--heap-lock":
        heap_lock_check(int(args[1]) if len(args) > 1 else 7)
        return
    seed = int(args[0]) if args else 7
    for levels in (("hard", "normal"), ("easy", "hard")):
        count = [0, 0, 0]
        m = play(seed, levels, count=count)
        text = record_text(m)
        if record_text(replay(text)) != text:
            raise RuntimeError("the record does not replay to the same match")
        sys.stdout.write("# %s (seat 0) vs %s (seat 1)\n" % levels)
        sys.stdout.write(text)
        sys.stdout.write("# deep look: %d moves changed, %d units in %d steps\n" % tuple(count))


if __name__ == "__main__":
    main(sys.argv)
