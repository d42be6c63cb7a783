"""Play seeded AI-vs-AI matches and print their records (cross-runtime check).

    python tools/records/ai_match.py [SEED]               (default seed 7)
    micropython tools/records/ai_match.py [SEED]
    node tools/kit/run_wasm.mjs tools/records/ai_match.py [SEED]
    micropython tools/records/ai_match.py --heap-lock [SEED]

Prints the record (engine.record_text) of two matches with the same seed:
hard (seat 0) against normal (seat 1), then easy against hard; the players
decide in slices, begin, step, result, as the App asks them. The AI's
moves depend only on the seed, so every runtime must print the same bytes
(host_tests/engine/ai/test_ai_runtimes.py compares them).

With --heap-lock (MicroPython only) every AI decision of the first match is
made twice: once normally, then again on the same view under
micropython.heap_lock(), where any allocation raises MemoryError, with the
player made to re-read the whole hand from the view; both must give the
same action. The first, made as a game makes it, must not have needed
Player's fallback without the lock (Player.unlocked stays 0, both seats).
Prints "ai alloc-free: N decisions".
"""

import sys

import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

from engine import Match, record_text, replay  # noqa: E402
from engine.ai import Player  # noqa: E402
from tools.kit.play import play_out  # noqa: E402


def decide(player, view):
    """The player's move in slices (begin, step while True, result), as the
    App asks."""
    player.begin(view)
    while player.step():
        pass
    return player.result()


def play(seed, levels, locked=None):
    """Play a match between Player(levels[0]) and Player(levels[1]).
    `locked`: a function(player, view, action) re-checking each decision."""
    m = Match(seed=seed)
    players = (Player(levels[0], seed), Player(levels[1], seed + 1))

    def choose(m, seat):
        view = m.view(seat)
        action = decide(players[seat], view)
        if locked is not None:
            locked(players[seat], view, action)
        return action

    play_out(m, choose)
    return m


def heap_lock_check(seed):
    import gc
    import micropython
    count = [0]

    def locked(player, view, action):
        if player.unlocked:
            raise RuntimeError("%s made a decision again without the heap lock" % player.level)
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

    play(seed, ("hard", "normal"), locked)
    print("ai alloc-free: %d decisions" % count[0])


def main(argv):
    args = argv[1:]
    if args and args[0] == "--heap-lock":
        heap_lock_check(int(args[1]) if len(args) > 1 else 7)
        return
    seed = int(args[0]) if args else 7
    for levels in (("hard", "normal"), ("easy", "hard")):
        m = play(seed, levels)
        text = record_text(m)
        if record_text(replay(text)) != text:
            raise RuntimeError("the record does not replay to the same match")
        sys.stdout.write("# %s (seat 0) vs %s (seat 1)\n" % levels)
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
