"""Play our AI inside OpenSpiel's `gin_rummy` against its C++ SimpleGinRummyBot.

Arena-only: needs PyPI `open-spiel` (requirements-bench.txt), never the tests
or the device.

    python -m tools.ailab.openspiel_adapter --level hard --matches 200 --seed 1 --jobs 2

The hands are played by OpenSpiel under OpenSpiel's rules; the adapter only
translates.  How OpenSpiel's game maps to ours:

- Cards.  Both number a card suit*13 + rank (A..K = 0..12) but OpenSpiel's
  suit order is s c d h and ours is s h d c, so hearts and clubs swap
  (`to_os` / `from_os`, the same permutation both ways).
- Deal.  A chance node per card: 10 to player 0, 10 to player 1, the upcard,
  then one per stock draw.  The adapter feeds them from our own deal
  (engine.rng.deck_for of the match generator's deal numbers, as in
  engine.match.Match): deck[0:10] to player 0, deck[10:20] to player 1,
  deck[20] the upcard, stock drawn from deck[51] down.  So a (seed, hand)
  gives the same cards from either seat, and the runs are reproducible.
- Seats.  OpenSpiel's player 0 always acts first, like our seat 0.
  `our_seat` is our OpenSpiel player id for the whole match.
- Actions.  52 draw upcard, 53 draw stock, 54 pass, 55 knock, 0..51 a card
  (discard), 56.. declare a meld (OpenSpiel's 185 melds: sets of 3 and 4,
  runs of 3 to 5 cards; a longer run is declared as pieces).
  Our strings: 'draw_upcard' -> 52 ('draw_upcard:Qs' accepted), 'draw_stock'
  -> 53, 'pass' -> 54, 'discard:Xx' -> the card, 'knock:Xx' -> 55 then the
  card (OpenSpiel knocks first and then chooses a discard that keeps the
  deadwood within the knock card).
- Phases.  FirstUpcard with take/pass -> 'first_upcard'; after both passed
  player 0's forced stock draw, Draw and Wall -> 'draw'; Discard and the
  knocker's 11-card discard -> 'discard'.  Wall (two stock cards left after
  a discard): the next player may only pass (the hand is a 0-point draw) or
  take the upcard to knock; we offer that as legal ['pass', 'draw_upcard'],
  and after 'draw_upcard' only 'knock:Xx' moves.  There 'draw_stock' is
  read as 'pass' and 'discard:Xx' as 'knock:Xx' (the only ways to do what
  was meant).  A decision with a single legal action is applied without
  asking.  Any other illegal answer is counted and replaced by drawing from
  the stock or the lowest-deadwood discard (an error with strict=True).
- Rules that differ from Cardems: the upcard offer (our V1), no R4 (the card
  taken from the pile may be discarded at once), the wall above, a knock tie
  scores 0 (no undercut), no R14 but a hand is drawn after the 50th upcard
  draw or when both players in turn draw the upcard and throw it straight
  back, single hands (this module adds them up into matches to `target`).
- Showdown.  OpenSpiel makes the knocker declare melds and the defender lay
  off and declare melds, one action each.  Our side does it automatically and
  optimally: the knocker declares engine.best_melds' arrangement; the
  defender searches every legal layoff sequence OpenSpiel allows (its layoffs
  may use any card, not only deadwood as in our R9) and then declares the
  engine's best melds of what is left, keeping the lowest final deadwood.
- The bot never lays off.  It also passes straight away when the knocker went
  gin, so its melds are not declared and its whole hand counts as deadwood
  (that is how OpenSpiel's bot plays; `fix_bot_gin=True` / --fix-bot-gin
  declares its best melds for it instead, to measure without that gift).

Scores: OpenSpiel's per-hand returns are zero-sum; the side with the
positive return scores it, first to `target` wins the match.
"""
import argparse
import math
import os
import sys
import time

import engine
from engine.cards import card_text, card as card_of_text
from engine.rng import Rng, deck_for

try:
    import pyspiel
except ImportError:  # arena-only dependency
    pyspiel = None

DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56

# ours s h d c <-> OpenSpiel s c d h (index: suit, value: the other's suit)
_SUIT = (0, 3, 2, 1)


def to_os(c):
    """Our card int -> OpenSpiel's."""
    return _SUIT[c // 13] * 13 + c % 13


def from_os(a):
    """OpenSpiel's card int -> ours."""
    return _SUIT[a // 13] * 13 + a % 13


def _need_pyspiel():
    if pyspiel is None:
        raise RuntimeError("pyspiel is not installed: "
                           "pip install -r requirements-bench.txt (open-spiel)")


_CACHE = {}


def _game():
    """(game, utils) loaded once per process."""
    if "game" not in _CACHE:
        _need_pyspiel()
        _CACHE["game"] = pyspiel.load_game("gin_rummy")
        _CACHE["utils"] = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    return _CACHE["game"], _CACHE["utils"]


def rules_line(target=100):
    """OpenSpiel's rules as our rules line, for the obs (so the AI plays
    the game it is in): the upcard offer (V1), the wall at two stock cards
    (V3), its knock card and bonuses, the match target. What a rules line
    cannot say (a knock tie scores 0, no R4) the legal moves show. Made
    once per target (every decision's obs carries it)."""
    key = ("rules", target)
    if key not in _CACHE:
        p = _game()[0].get_parameters()
        ok = 1 if p.get("oklahoma") else 0
        _CACHE[key] = ("openspiel knock_limit=%d gin_bonus=%d undercut_bonus=%d target=%d"
                       " stop_at=2 upcard_offer=1 oklahoma=%d max_pile_turns=50"
                       % (p["knock_card"], p["gin_bonus"], p["undercut_bonus"], target, ok))
    return _CACHE[key]


def _phase(state):
    P = pyspiel.gin_rummy.Phase
    return {P.DEAL: "deal", P.FIRST_UPCARD: "first_upcard", P.DRAW: "draw",
            P.DISCARD: "discard", P.KNOCK: "knock", P.LAYOFF: "layoff",
            P.WALL: "wall", P.GAME_OVER: "over"}[state.current_phase()]


def _hand_of(state, seat):
    return sorted(from_os(a) for a in state.hands()[seat])


def _move_text(state, action):
    """The move a player's action makes, in our log's words, or None when
    the move is no log entry (the knock action before its discard, meld
    declarations and layoffs)."""
    ph = _phase(state)
    if ph in ("first_upcard", "draw"):
        if action == DRAW_UPCARD:
            return "draw_upcard:" + card_text(from_os(state.upcard()))
        if action == DRAW_STOCK:
            return "draw_stock"
        if action == PASS:
            return "pass"
    elif ph == "wall":
        if action == KNOCK:
            return "draw_upcard:" + card_text(from_os(state.upcard()))
        if action == PASS:
            return "pass"
    elif ph == "discard":
        if action < 52:
            return "discard:" + card_text(from_os(action))
    elif ph == "knock":
        if action < 52 and len(state.hands()[state.current_player()]) == 11:
            return "knock:" + card_text(from_os(action))
    return None


def _opponent_known(moves, opp):
    known = []
    for seat, mv in moves:
        if seat != opp:
            continue
        if mv.startswith("draw_upcard:"):
            known.append(card_of_text(mv[12:]))
        elif mv.startswith("discard:") or mv.startswith("knock:"):
            c = card_of_text(mv.split(":")[1])
            if c in known:
                known.remove(c)
    return [card_text(c) for c in sorted(known)]


def _legal(state, utils):
    """(our legal strings, {string: [OpenSpiel actions]}) for the player to
    move, or (None, None) outside the draw/discard decisions."""
    ph = _phase(state)
    acts = state.legal_actions()
    seat = state.current_player()
    out = {}
    if ph in ("first_upcard", "draw"):
        if DRAW_STOCK in acts:
            out["draw_stock"] = [DRAW_STOCK]
        if DRAW_UPCARD in acts:
            out["draw_upcard"] = [DRAW_UPCARD]
        if PASS in acts:
            out["pass"] = [PASS]
    elif ph == "wall":
        out["pass"] = [PASS]
        if KNOCK in acts:
            out["draw_upcard"] = [KNOCK]
    elif ph == "discard" or (ph == "knock" and len(state.hands()[seat]) == 11):
        hand = state.hands()[seat]
        knocks = set()
        if ph == "knock" or KNOCK in acts:
            knocks = set(utils.legal_discards(hand, state.knock_card()))
        for c in sorted(from_os(a) for a in hand):
            a = to_os(c)
            if ph == "discard":
                out["discard:" + card_text(c)] = [a]
            if a in knocks:
                out["knock:" + card_text(c)] = [a] if ph == "knock" else [KNOCK, a]
    else:
        return None, None
    return list(out), out


def _obs(state, seat, moves, legal, scores, history=(), target=100):
    ph = _phase(state)
    hand = _hand_of(state, seat)
    pile = [from_os(a) for a in state.discard_pile()]
    up = state.upcard()
    if up is not None:
        pile.append(from_os(up))
    if ph == "first_upcard" and "pass" not in legal:
        ph = "draw"              # both passed: the first player draws stock
    elif ph == "wall":
        ph = "draw"
    elif ph == "knock":
        ph = "discard"
    if len(hand) == 11:
        dw = min(engine.best_melds([x for x in hand if x != c])[0] for c in hand)
    else:
        dw = engine.best_melds(hand)[0]
    return {
        "seat": seat,
        "phase": ph,
        "hand": [card_text(c) for c in hand],
        "upcard": card_text(pile[-1]) if pile else None,
        "discard_pile": [card_text(c) for c in pile[:-1]],
        "opponent_known": _opponent_known(moves, 1 - seat),
        "stock_size": state.stock_size(),
        "knock_card": state.knock_card(),
        "deadwood": dw,
        "moves": [list(m) for m in moves],
        "legal": list(legal),
        "scores": [scores[seat], scores[1 - seat]],
        "target": target,
        "rules": rules_line(target),
        "history": list(history),
    }


def _finished(deck, moves, state):
    """The obs "history" entry of a finished hand: its moves and, after a
    knock (both hands are shown), the two final hands, followed from the
    deal and the moves (OpenSpiel's own hands lose the melds laid down)."""
    hands = [set(deck[0:10]), set(deck[10:20])]
    stock = list(deck[21:])
    knocker = None
    for seat, mv in moves:
        if mv == "draw_stock":
            hands[seat].add(stock.pop())
        elif mv.startswith("draw_upcard:"):
            hands[seat].add(engine.card(mv[12:]))
        elif mv.startswith("discard:") or mv.startswith("knock:"):
            hands[seat].discard(engine.card(mv.split(":")[1]))
            if mv.startswith("knock:"):
                knocker = seat
    h = {"moves": [list(m) for m in moves], "knocker": knocker,
         "knock_card": state.knock_card()}
    if knocker is not None:
        if len(hands[0]) != 10 or len(hands[1]) != 10:
            raise RuntimeError("hands followed from the moves do not add up: %r" % (moves,))
        h["hands"] = [[card_text(c) for c in sorted(x)] for x in hands]
    return h


def _split_runs(meld):
    """OpenSpiel declares runs of 3..5 cards: cut longer runs into pieces."""
    if len(meld) <= 5 or meld[0] % 13 == meld[-1] % 13:
        return [meld]
    meld = sorted(meld)
    n = len(meld)
    first = 3 if n - 3 <= 5 else 5
    return [meld[:first]] + _split_runs(meld[first:])


def _declare_melds(state, seat, utils):
    """Declare the engine's lowest-deadwood melds for `seat`, then pass."""
    hand = _hand_of(state, seat)
    _, melds = engine.best_melds(hand)
    for ml in melds:
        for piece in _split_runs(sorted(ml)):
            a = MELD_BASE + utils.meld_to_int(sorted(to_os(c) for c in piece))
            if a not in state.legal_actions():
                raise RuntimeError("meld %s not legal in OpenSpiel:\n%s"
                                   % (engine.cards_text(piece), state))
            state.apply_action(a)
    state.apply_action(PASS)


def _best_layoffs(state, seat):
    """The layoff sequence leaving `seat` the lowest deadwood once its own
    best melds are declared: exhaustive over OpenSpiel's legal layoffs."""
    best = [engine.best_melds(_hand_of(state, seat))[0], []]
    seen = set()

    def rec(st, seq):
        for a in st.legal_actions():
            if a >= 52:
                continue
            key = tuple(sorted(seq + [a]))
            if key in seen:
                continue
            seen.add(key)
            ch = st.clone()
            ch.apply_action(a)
            dw = engine.best_melds(_hand_of(ch, seat))[0]
            if dw < best[0]:
                best[0] = dw
                best[1] = seq + [a]
            rec(ch, seq + [a])

    rec(state, [])
    return best[1]


def _defend(state, seat, utils):
    """Layoffs (unless the knocker went gin), then melds: optimally."""
    if not state.finished_layoffs():
        for a in _best_layoffs(state, seat):
            state.apply_action(a)
        state.apply_action(PASS)
    _declare_melds(state, seat, utils)


def _translate(choice, ph, table):
    """Our words for OpenSpiel's special spots: 'draw_upcard:Qs' is
    'draw_upcard'; at the wall 'draw_stock' (not taking the upcard) is
    'pass'; after taking the upcard at the wall every discard is a knock, so
    'discard:Xx' is 'knock:Xx'; where OpenSpiel refuses the knock (its
    11-card deadwood takes the best melds of all 11 cards and then drops the
    highest deadwood card, which can miss the lowest deadwood), 'knock:Xx'
    is 'discard:Xx'."""
    if not isinstance(choice, str):
        return choice
    if choice.startswith("draw_upcard:"):
        return "draw_upcard"
    if ph == "wall" and choice == "draw_stock":
        return "pass"
    if ph == "knock" and choice.startswith("discard:"):
        return "knock:" + choice[8:]
    if choice.startswith("knock:") and choice not in table \
            and "discard:" + choice[6:] in table:
        return "discard:" + choice[6:]
    return choice


def _fallback(state, seat, legal):
    """The replacement for an illegal choice: draw from the stock (else
    pass), or the discard or knock leaving the lowest deadwood."""
    if legal[0].startswith("discard:") or legal[0].startswith("knock:"):
        hand = _hand_of(state, seat)

        def key(a):
            c = card_of_text(a.split(":")[1])
            return (engine.best_melds([x for x in hand if x != c])[0],
                    0 if a.startswith("knock:") else 1)
        return min(legal, key=key)
    for a in ("draw_stock", "pass"):
        if a in legal:
            return a
    return legal[0]


def _our_turn(state, seat, our_choose, moves, scores, utils, times, strict,
              refused, history=(), target=100):
    """One decision of ours (draw/discard), or the automatic showdown moves.
    Returns 1 when our action was illegal and replaced, else 0."""
    ph = _phase(state)
    if ph == "knock" and len(state.hands()[seat]) == 10:
        _declare_melds(state, seat, utils)
        return 0
    if ph == "layoff":
        _defend(state, seat, utils)
        return 0
    legal, table = _legal(state, utils)
    if legal is None:
        raise RuntimeError("unexpected OpenSpiel phase %s" % ph)
    bad = 0
    if len(legal) == 1:
        choice = legal[0]
    else:
        obs = _obs(state, seat, moves, legal, scores, history, target)
        t0 = time.perf_counter()
        choice = our_choose(obs)
        times.append(time.perf_counter() - t0)
        asked = choice
        choice = _translate(choice, ph, table)
        if choice != asked and isinstance(asked, str) \
                and asked.startswith("knock:"):
            refused[0] += 1
        if choice not in table:
            if strict:
                raise ValueError("illegal action %r; legal %s\nobs %r"
                                 % (choice, legal, obs))
            bad = 1
            choice = _fallback(state, seat, legal)
    for a in table[choice]:
        mv = _move_text(state, a)
        if mv is not None:
            moves.append([seat, mv])
        state.apply_action(a)
    return bad


def _new_stats():
    z = lambda: [0, 0]  # noqa: E731  [ours, bot]
    return {"hands": 0, "hands_won": z(), "knock_ties": 0, "draws": 0,
            "gins": z(), "undercuts": z(), "knocks": z(), "points": z(),
            "hand_returns": [], "decision_times": [], "illegal": 0,
            "gin_gift": 0, "knock_refused": [0]}


def play_hand(deck, our_seat, our_choose, scores=(0, 0), bot=None,
              strict=False, fix_bot_gin=False, stats=None, on_end=None,
              history=None, target=100):
    """Play one OpenSpiel hand from the 52-card order `deck` (our card ints).

    Returns (our return, stats); `scores` is [ours, bot] before the hand.
    `on_end(state, moves)` sees the final OpenSpiel state and our move log."""
    game, utils = _game()
    if bot is None:
        bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - our_seat)
    bot.restart()
    if stats is None:
        stats = _new_stats()
    deck = list(deck)
    deal = deck[:21]
    stock = deck[21:]
    seat_scores = [0, 0]
    seat_scores[our_seat] = scores[0]
    seat_scores[1 - our_seat] = scores[1]
    moves = []
    state = game.new_initial_state()
    dealt = 0
    steps = 0
    while not state.is_terminal():
        steps += 1
        if steps > 2000:
            raise RuntimeError("hand does not end:\n%s" % state)
        if state.is_chance_node():
            if dealt < 21:
                c = deal[dealt]
                dealt += 1
            else:
                c = stock.pop()
            state.apply_action(to_os(c))
            continue
        p = state.current_player()
        if p == our_seat:
            stats["illegal"] += _our_turn(state, p, our_choose, moves,
                                          seat_scores, utils,
                                          stats["decision_times"], strict,
                                          stats["knock_refused"],
                                          history or (), target)
            continue
        ph = _phase(state)
        if fix_bot_gin and ph == "layoff" and state.knocked()[1 - p] \
                and state.deadwood()[1 - p] == 0 and not state.layed_melds()[p]:
            _declare_melds(state, p, utils)
            continue
        a = bot.step(state)
        mv = _move_text(state, a)
        if mv is not None:
            moves.append([p, mv])
        state.apply_action(a)

    if on_end is not None:
        on_end(state, moves)
    if history is not None:
        history.append(_finished(list(deck), moves, state))
    ret = int(state.returns()[our_seat])
    knocked = state.knocked()
    dead = state.deadwood()
    stats["hands"] += 1
    stats["hand_returns"].append(ret)
    side = lambda seat: 0 if seat == our_seat else 1  # noqa: E731
    if ret > 0:
        stats["hands_won"][0] += 1
        stats["points"][0] += ret
    elif ret < 0:
        stats["hands_won"][1] += 1
        stats["points"][1] += -ret
    for k in (0, 1):
        if knocked[k]:
            s = side(k)
            stats["knocks"][s] += 1
            if dead[k] == 0:
                stats["gins"][s] += 1
                if s == 0 and not fix_bot_gin:
                    rest = [from_os(a) for a in state.hands()[1 - k]]
                    stats["gin_gift"] += dead[1 - k] - engine.best_melds(rest)[0]
            if state.returns()[k] < 0:
                stats["undercuts"][1 - s] += 1
            elif state.returns()[k] == 0:
                stats["knock_ties"] += 1
    if not knocked[0] and not knocked[1]:
        stats["draws"] += 1
    return ret, stats


def play_match(our_choose, seed, our_seat, target=100, strict=False,
               fix_bot_gin=False):
    """Play OpenSpiel hands, our side as player `our_seat`, until one side's
    summed hand points reach `target`.  Hand k's cards come from the k-th
    deal number of engine.rng.Rng(seed), so both seats of a seed see the
    same deals.  Returns the match stats (lists are [ours, bot])."""
    game, _ = _game()
    bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - our_seat)
    rng = Rng(seed)
    stats = _new_stats()
    scores = [0, 0]
    history = []            # the finished hands, as our side saw them (obs)
    while max(scores) < target:
        if stats["hands"] >= 1000:
            raise RuntimeError("match does not end (seed %d)" % seed)
        deal = rng.seed30()
        ret, _ = play_hand(deck_for(deal), our_seat, our_choose, scores, bot,
                           strict, fix_bot_gin, stats, history=history,
                           target=target)
        if ret > 0:
            scores[0] += ret
        elif ret < 0:
            scores[1] += -ret
    stats["seed"] = seed
    stats["our_seat"] = our_seat
    stats["scores"] = scores
    stats["winner"] = "ours" if scores[0] >= target else "bot"
    return stats


# -- building our side ------------------------------------------------------

def make_chooser(level, seed):
    """`choose(obs)` for an AI level ('easy', 'normal', 'hard'), or for a
    'module:function' bot taking the obs dict."""
    if ":" in level:
        import importlib
        mod, fn = level.split(":", 1)
        return getattr(importlib.import_module(mod), fn)
    from engine import ai
    player = ai.Player(level=level, seed=seed)
    return lambda obs: player.choose(ai.ObsView(obs))


def _task(args):
    level, seq_seed, our_seat, target, fix_bot_gin = args
    choose = make_chooser(level, seq_seed)
    return play_match(choose, seq_seed, our_seat, target, False, fix_bot_gin)


def match_plan(matches, seed):
    """[(deal-sequence seed, our seat)]: each sequence from both seats."""
    rng = Rng(seed)
    plan = []
    while len(plan) < matches:
        s = rng.seed30()
        plan.append((s, 0))
        if len(plan) < matches:
            plan.append((s, 1))
    return plan


def run(level, matches, seed, jobs=1, target=100, fix_bot_gin=False,
        progress=None):
    """Play `matches` seat-balanced matches; return the summary dict."""
    _need_pyspiel()
    tasks = [(level, s, seat, target, fix_bot_gin)
             for s, seat in match_plan(matches, seed)]
    t0 = time.time()
    results = []
    if jobs <= 1:
        for i, t in enumerate(tasks):
            results.append(_task(t))
            if progress:
                progress(i + 1, len(tasks))
    else:
        import multiprocessing as mp
        ctx = mp.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ctx.Pool(jobs) as pool:
            for i, r in enumerate(pool.imap(_task, tasks, chunksize=1)):
                results.append(r)
                if progress:
                    progress(i + 1, len(tasks))
    s = summarize(results)
    s.update(level=level, seed=seed, target=target, jobs=jobs,
             fix_bot_gin=fix_bot_gin, wall_seconds=time.time() - t0)
    return s


def wilson(k, n, z=1.959964):
    """95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _pct(sorted_xs, q):
    if not sorted_xs:
        return 0.0
    i = min(len(sorted_xs) - 1, int(q * (len(sorted_xs) - 1) + 0.5))
    return sorted_xs[i]


def summarize(results):
    n = len(results)
    won = sum(1 for r in results if r["winner"] == "ours")
    by_seat = {}
    for seat in (0, 1):
        rs = [r for r in results if r["our_seat"] == seat]
        by_seat[seat] = [sum(1 for r in rs if r["winner"] == "ours"), len(rs)]
    hands = sum(r["hands"] for r in results)
    tot = lambda key, i: sum(r[key][i] for r in results)  # noqa: E731
    times = sorted(t for r in results for t in r["decision_times"])
    net = sum(sum(r["hand_returns"]) for r in results)
    return {
        "matches": n,
        "match_wins": won,
        "match_win_rate": won / n if n else 0.0,
        "match_ci": wilson(won, n),
        "by_seat": by_seat,
        "hands": hands,
        "hands_won": tot("hands_won", 0),
        "hands_lost": tot("hands_won", 1),
        "hand_win_rate": tot("hands_won", 0) / hands if hands else 0.0,
        "hand_ci": wilson(tot("hands_won", 0), hands),
        "knock_ties": sum(r["knock_ties"] for r in results),
        "draws": sum(r["draws"] for r in results),
        "avg_points_per_hand": net / hands if hands else 0.0,
        "points_per_hand": [tot("points", 0) / hands if hands else 0.0,
                            tot("points", 1) / hands if hands else 0.0],
        "gins": [tot("gins", 0), tot("gins", 1)],
        "undercuts": [tot("undercuts", 0), tot("undercuts", 1)],
        "knocks": [tot("knocks", 0), tot("knocks", 1)],
        "gin_gift": sum(r["gin_gift"] for r in results),
        "illegal": sum(r["illegal"] for r in results),
        "knock_refused": sum(r["knock_refused"][0] for r in results),
        "decisions": len(times),
        "time_ms": {"median": _pct(times, 0.5) * 1e3,
                    "mean": (sum(times) / len(times) * 1e3) if times else 0.0,
                    "p99": _pct(times, 0.99) * 1e3,
                    "max": (times[-1] * 1e3) if times else 0.0},
    }


def format_summary(s):
    h = s["hands"] or 1
    lo, hi = s["match_ci"]
    hlo, hhi = s["hand_ci"]
    seat = s["by_seat"]
    lines = [
        "OpenSpiel gin_rummy, its rules: %s vs SimpleGinRummyBot, %d matches to %d, "
        "seed %s%s" % (s.get("level", "?"), s["matches"], s.get("target", 100),
                      s.get("seed", "?"),
                      ", bot melds after our gin" if s.get("fix_bot_gin") else ""),
        "matches won  %d/%d = %.1f%%  (95%% CI %.1f-%.1f%%)   as player 0: %d/%d, "
        "as player 1: %d/%d" % (s["match_wins"], s["matches"],
                                100 * s["match_win_rate"], 100 * lo, 100 * hi,
                                seat[0][0], seat[0][1], seat[1][0], seat[1][1]),
        "hands        %d: won %.1f%% (95%% CI %.1f-%.1f%%), lost %.1f%%, "
        "knock ties %.1f%%, no knock %.1f%%" % (
            s["hands"], 100 * s["hand_win_rate"], 100 * hlo, 100 * hhi,
            100 * s["hands_lost"] / h, 100 * s["knock_ties"] / h,
            100 * s["draws"] / h),
        "points/hand  %+.2f net  (ours %.2f, bot %.2f)" % (
            s["avg_points_per_hand"], s["points_per_hand"][0],
            s["points_per_hand"][1]),
        "per hand     gin ours %.1f%% bot %.1f%%; knock (incl. gin) ours %.1f%% "
        "bot %.1f%%; undercut by ours %.1f%% by bot %.1f%%" % (
            100 * s["gins"][0] / h, 100 * s["gins"][1] / h,
            100 * s["knocks"][0] / h, 100 * s["knocks"][1] / h,
            100 * s["undercuts"][0] / h, 100 * s["undercuts"][1] / h),
        "decisions    %d, time ms: median %.3f, mean %.3f, p99 %.3f, max %.3f"
        % (s["decisions"], s["time_ms"]["median"], s["time_ms"]["mean"],
           s["time_ms"]["p99"], s["time_ms"]["max"]),
    ]
    if not s.get("fix_bot_gin"):
        lines.append("bot gin gift %d points in total (%.2f per hand): the bot "
                     "declares no melds after our gin" % (s["gin_gift"],
                                                         s["gin_gift"] / h))
    if s["knock_refused"]:
        lines.append("knocks OpenSpiel refused (played as the discard): %d"
                     % s["knock_refused"])
    if s["illegal"]:
        lines.append("ILLEGAL actions from our side: %d (replaced by the first "
                     "legal action)" % s["illegal"])
    if "wall_seconds" in s:
        lines.append("wall time    %.0f s with %d job(s)" % (s["wall_seconds"],
                                                           s.get("jobs", 1)))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="hard",
                    help="easy | normal | hard, or module:function (a choose(obs) bot)")
    ap.add_argument("--matches", type=int, default=200,
                    help="matches to play; deal sequences are played from both seats")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the deal sequences (0 <= seed < 2**30)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--target", type=int, default=100, help="match target points")
    ap.add_argument("--fix-bot-gin", action="store_true",
                    help="declare the bot's best melds after our gin "
                         "(OpenSpiel's bot declares none)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    if pyspiel is None:
        print("pyspiel is not installed: pip install -r requirements-bench.txt",
              file=sys.stderr)
        return 2

    def progress(i, n):
        if not args.quiet and (i % 50 == 0 or i == n):
            print("  %d/%d matches" % (i, n), file=sys.stderr, flush=True)

    s = run(args.level, args.matches, args.seed, args.jobs, args.target,
            args.fix_bot_gin, progress)
    print(format_summary(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
