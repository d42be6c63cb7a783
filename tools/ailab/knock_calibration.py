"""How well the hard AI's knock estimate predicts what happens.

    .venv/bin/python -m tools.ailab.knock_calibration --b simple,hard-patient [--matches 40] [--seed 7] [--a hard@knock.t_wait=0]

At every knock decision the estimate weighs (knockable, not gin, stock
left), the hand is played out twice from copies of the match and both
players: once knocking now, once playing on (the same discard, then the
hard AI's own later decisions). Per opponent and stage of the stock it
prints the estimate beside the mean actual points of each (EK vs K, EN
vs N, points per hand for the hard seat, from its score's side), how
often the rule chose the better of the two, and the points a hand its
choice lost against always picking the better one (regret); then the
same by the undercut risk the estimate starts from (the share of its
prior for the opponent's deadwood at or below ours, before the habit).
Match-end points (R12 bonuses) are left out: the hand's own points only.
"""
import argparse
import copy
import sys

from engine import Match, CARDEMS
from engine.cards import card_text
from engine.melds import deadwood4, masks_of
from engine.ai.opp_shape import below
from tools.ailab import bots
from tools.kit.play import play_out, players_choose

# (lo, hi, name): the rows with lo <= stock left < hi, and with lo <= risk (%) < hi
STAGES = ((20, 99, "stock 20+"), (12, 20, "stock 12-19"), (6, 12, "stock 6-11"), (0, 6, "stock 0-5"))
RISKS = ((0, 5, "risk 0-5%"), (5, 20, "risk 5-20%"), (20, 50, "risk 20-50%"), (50, 101, "risk 50%+"))


def undercut_risk(knock, cards, c):
    """The share (%) of the last estimate's prior (knock.pr) for the
    opponent's deadwood at or below that of `cards` less the card c (a
    bucket that straddles it counts in part, as the estimate counts it)."""
    dw = deadwood4(*masks_of([x for x in cards if x != c]))
    pr = knock.pr
    tot = sum(pr) or 1
    return 100 * sum(p * below(j, dw) for j, p in enumerate(pr)) / (256 * tot)


def hand_points(m, seat):
    """Points of the hand just ended, for `seat` (+ won, - lost, 0 drawn)."""
    r = m.results[-1]
    if r.winner is None:
        return 0
    return r.points if r.winner == seat else -r.points


def finish_hand(m, players, hand_no):
    """Play hand `hand_no` of m to its end."""
    play_out(m, players_choose(players),
             stop=lambda m: m.phase == "hand_over" or m.hand_no != hand_no)


def counterfactual(m, players, seat, action):
    m2 = copy.deepcopy(m)
    p2 = copy.deepcopy(players)
    hand_no = m2.hand_no
    why = m2.act(action)
    if why is not None:
        raise RuntimeError(why)
    finish_hand(m2, p2, hand_no)
    return hand_points(m2, seat)


def run(b_name, matches, seed, a_name="hard"):
    rows = []                       # (stock, ek, en, k, n, knocked, risk)
    for i in range(matches):
        hard_seat = i & 1
        hard = bots.make(a_name, seed + i)
        other = bots.make(b_name, seed + 7919 * i + 1)
        players = [None, None]
        players[hard_seat] = hard
        players[1 - hard_seat] = other
        m = Match(CARDEMS, seed + i)

        def choose(m, s, hard=hard, hard_seat=hard_seat, players=players):
            v = m.view(s)
            if s != hard_seat:
                return players[s].choose(v)
            snap = (copy.deepcopy(m), copy.deepcopy(players))
            hard.knock.ek = None
            a = hard.choose(v)
            left = hard.k.stock - hard.k.stop_at
            est = hard.knock.ek is not None and left > 0
            if est and a.split(":")[0] in ("knock", "discard"):
                kc = card_text(hard.knock.c)
                card = a.split(":")[1] if a.startswith("discard") else kc
                risk = undercut_risk(hard.knock, m.hand.cards_of(s), hard.knock.c)
                m0, p0 = snap
                # the copies replay the same choose() first (its learning and its scratch)
                p0[hard_seat].choose(m0.view(s))
                k = counterfactual(m0, p0, hard_seat, "knock:" + kc)
                n = counterfactual(m0, p0, hard_seat, "discard:" + card)
                rows.append((left, hard.knock.ek / 16, hard.knock.en / 16, k, n, a.startswith("knock"), risk))
            return a

        play_out(m, choose, stop=lambda m: len(m.results) >= 60)
    return rows


def summary(b_name, rows, out=sys.stdout):
    out.write("vs %s: %d decisions\n" % (b_name, len(rows)))
    out.write("  %-12s %5s %7s %7s %7s %7s %6s %7s %7s\n"
              % ("", "n", "EK", "K", "EN", "N", "right", "regret", "knocks"))
    for at, lo, hi, name in ([(0,) + x for x in STAGES + ((0, 99, "all"),)]
                             + [(6,) + x for x in RISKS]):
        sel = [r for r in rows if lo <= r[at] < hi]
        if not sel:
            continue
        c = len(sel)
        ek = sum(r[1] for r in sel) / c
        en = sum(r[2] for r in sel) / c
        k = sum(r[3] for r in sel) / c
        n = sum(r[4] for r in sel) / c
        right = sum(1 for r in sel if (r[5] and r[3] >= r[4]) or (not r[5] and r[4] >= r[3])) / c
        regret = sum(max(r[3], r[4]) - (r[3] if r[5] else r[4]) for r in sel) / c
        kn = sum(1 for r in sel if r[5]) / c
        out.write("  %-12s %5d %7.1f %7.1f %7.1f %7.1f %5.0f%% %7.2f %6.0f%%\n"
                  % (name, c, ek, k, en, n, 100 * right, regret, 100 * kn))


DIFF_BINS = ((-999, -10), (-10, -5), (-5, -2), (-2, 0), (0, 2), (2, 5), (5, 999))


def diff_table(rows, out=sys.stdout):
    """The estimate's EK - EN against the actual K - N: where the rule
    would be right to knock, K - N is above 0."""
    out.write("  %-14s %5s %9s %9s %7s\n" % ("EK-EN", "n", "K-N", "+-95%", "knocks"))
    for lo, hi in DIFF_BINS:
        sel = [r[3] - r[4] for r in rows if lo <= r[1] - r[2] < hi]
        if not sel:
            continue
        c = len(sel)
        mu = sum(sel) / c
        sd = (sum((x - mu) ** 2 for x in sel) / max(1, c - 1)) ** 0.5
        kn = sum(1 for r in rows if lo <= r[1] - r[2] < hi and r[5]) / c
        out.write("  %-14s %5d %9.1f %9.1f %6.0f%%\n" % ("[%d, %d)" % (max(lo, -99), min(hi, 99)), c, mu,
                                                       1.96 * sd / c ** 0.5, 100 * kn))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard", help="the hard AI, or a tuning of it (hard@field=value)")
    ap.add_argument("--b", default="simple,hard-patient")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--save", help="also write the decisions (JSON: opponent -> rows)")
    args = ap.parse_args(argv)
    saved = {}
    for b in args.b.split(","):
        rows = run(b, args.matches, args.seed, args.a)
        summary(b, rows)
        diff_table(rows)
        saved[b] = rows
        sys.stdout.flush()
    if args.save:
        import json
        with open(args.save, "w") as f:
            json.dump(saved, f)


if __name__ == "__main__":
    main()
