"""The expert's player: a determinized Monte Carlo search over hard
(tools/ailab/expert.py's text says how it searches, and runs it).

bots.make("expert") and expert.py's runs import it from here; it imports
nothing of the lab's tables (ai_table.py, arena.py, bots.py), so they can
all import it.
"""
import random

from engine import CARDEMS
from engine.cards import CARD_VALUE, NO_CARD
from engine.hand import (Hand, OVER, OFFER, DRAW, DISCARD_PHASE, DRAW_STOCK, DRAW_UPCARD,
                         PASS, DISCARD, KNOCK, TOOK, PHASE_NAMES, action_code)
from engine.view import View
from engine.melds import BIT_RANK, best_discard4, deadwood4
from engine.ai import Player, ACTION_TEXT
from engine.ai.equity import Equity
from engine.ai.know import load4
from engine.ai.opp_shape import D_BUCKETS, d_bucket

PHASES = {"first_upcard": OFFER, "draw": DRAW, "discard": DISCARD_PHASE}
STOCK_BUCKETS = (25, 19, 13, 7, 0)     # stock sizes the decision counts are kept by
# every searched decision of every Expert in this process, as
# "kind stock>=N hard's move -> the expert's" -> [count, gain sum] (what
# run_log writes with each deal sequence and then clears)
DECISIONS = {}


def move_kind(code):
    if code == DRAW_UPCARD:
        return "upcard"
    if code in (DRAW_STOCK, PASS):
        return "stock"
    return "knock" if code >= KNOCK else "discard"


def change_text(kind, code0, code1):
    """A searched decision in words: 'draw stock>=19: stock -> upcard'."""
    a = move_kind(code0)
    b = move_kind(code1)
    if code0 == code1:
        return "kept"
    if a == b == "discard":
        from engine.cards import CARD_VALUE
        v0 = CARD_VALUE[code0 & 63]
        v1 = CARD_VALUE[code1 & 63]
        return "discard a %s card" % ("higher" if v1 > v0 else "lower" if v1 < v0 else "same-value")
    return "%s -> %s" % (a, b)


def stock_bucket(n):
    for b in STOCK_BUCKETS:
        if n >= b:
            return b
    return 0


class SimView(View):
    """The view of one seat of a determinized hand: engine.view.View over
    an engine Hand the expert made in place of a match's (its own masks,
    the pile, the stock's size, the log); the scores are set by the
    rollout, and the finished hands of the match (what the habit learns
    from) are the real view's. Whatever else of View reads the match is
    not there (AttributeError)."""

    hand_no = None       # (plain values here: View's are properties of the match)
    hands_over = 0
    rules = None

    def __init__(self, real, hand, rules):
        self.real = real
        self.h = hand
        self.rules = rules
        self.seat = 0
        self.hand_no = getattr(real, "hand_no", None)
        self.scores_abs = [0, 0]      # by seat
        self.target = rules.target
        n = getattr(real, "hands_over", None)
        self.hands_over = n if n is not None else 0

    @property
    def _hand(self):
        return self.h

    @property
    def phase(self):
        return PHASE_NAMES[self.h.phase]

    def load_scores(self, out):
        s = self.scores_abs
        out[0] = s[self.seat]
        out[1] = s[1 - self.seat]

    def past_result(self, i):
        return self.real.past_result(i)

    def past_log(self, i):
        return self.real.past_log(i)

    def past_log_seat(self, i):
        return self.real.past_log_seat(i)

    def past_limit(self, i):
        return self.real.past_limit(i)

    def past_masks(self, i, seat, out):
        return self.real.past_masks(i, seat, out)


class Position:
    """What the view says of the hand in play, read once a decision: the
    public parts of a Hand, and the cards nobody is known to hold."""

    def __init__(self, view):
        self.seat = me = view.seat
        opp = 1 - me
        self.rules = getattr(view, "rules", None) or CARDEMS
        self.mine = [0, 0, 0, 0]
        view.load_masks(self.mine)
        pile = []
        i = 0
        while True:
            c = view.pile_card(i)
            if c is None:
                break
            pile.append(c)
            i += 1
        self.pile = pile
        self.log = bytes(view.log)
        self.log_seat = bytes(view.log_seat)
        self.stock_n = view.stock_size
        self.limit = view.knock_limit
        t = view.taken
        self.taken = NO_CARD if t is None else t
        self.phase = PHASES[view.phase]
        oppk = set()
        passes = 0
        pile_turns = 0
        for code, who in zip(self.log, self.log_seat):
            if code >= TOOK:
                pile_turns += 1
                if who == opp:
                    oppk.add(code - TOOK)
            elif code >= DISCARD:
                if who == opp:
                    oppk.discard(code & 63)
            elif code == DRAW_STOCK:
                pile_turns = 0
            elif code == PASS:
                passes += 1
        self.passes = passes
        self.pile_turns = pile_turns
        self.stock_only = self.phase == DRAW and len(self.log) > 0 and self.log[-1] == PASS
        self.first = self.log_seat[0] if self.log else me
        self.oppk = sorted(oppk)
        held = set(pile) | oppk
        for s in range(4):
            for r in range(13):
                if self.mine[s] >> r & 1:
                    held.add(s * 13 + r)
        self.unseen = [c for c in range(52) if c not in held]
        self.nopp = 10 - len(self.oppk)
        self.scores = [0, 0]
        view.load_scores(self.scores)          # own first
        self.hand_no = getattr(view, "hand_no", None)
        self.hands_over = getattr(view, "hands_over", 0) or 0

    def hand(self, opp_cards, stock):
        """An engine Hand in this position with the opponent holding
        `opp_cards` and the stock `stock` (bottom first)."""
        h = Hand.__new__(Hand)
        me = self.seat
        h.rules = self.rules
        h.deal = None
        h.commit = None
        h.first = self.first
        m = [0] * 8
        for s in range(4):
            m[me * 4 + s] = self.mine[s]
        o = (1 - me) * 4
        for c in opp_cards:
            m[o + c // 13] |= 1 << (c % 13)
        h.masks = m
        h.pile = bytearray(52)
        for i, c in enumerate(self.pile):
            h.pile[i] = c
        h.pile_n = len(self.pile)
        h.stock = bytearray(stock)
        h.stock_n = len(stock)
        h.turn = me
        h.phase = self.phase
        h.passes = self.passes
        h.stock_only = self.stock_only
        h.taken = self.taken
        h.pile_turns = self.pile_turns
        h.knock_limit = self.limit
        h.log = bytearray(self.log)
        h.log_seat = bytearray(self.log_seat)
        h.result = None
        h._m = [0, 0, 0, 0]
        return h


def sample_world(pos, weight, rng, shuffle=True):
    """(opponent's cards, stock bottom first): the opponent's known pickups
    and `pos.nopp` unseen cards drawn without replacement by `weight` (a
    card -> weight), the other unseen cards shuffled into the stock."""
    pool = list(pos.unseen)
    w = [max(1, weight(c)) for c in pool]
    opp = list(pos.oppk)
    for _ in range(pos.nopp):
        tot = sum(w)
        x = rng.random() * tot
        j = 0
        acc = w[0]
        while acc <= x and j < len(pool) - 1:
            j += 1
            acc += w[j]
        opp.append(pool[j])
        pool[j] = pool[-1]
        w[j] = w[-1]
        pool.pop()
        w.pop()
    if shuffle:
        rng.shuffle(pool)
    return opp, pool


def deadwood_target(p):
    """Hard's belief of the opponent's deadwood now, by the buckets of
    engine/ai/opp_shape.py: its knock estimate's prior shape (its turn,
    its last discards, the pickups it holds, its style), less what it
    would have knocked with by its habit (KnockTerms._prior, _groups).
    `p` is a hard Player whose card model and habit are set for the view."""
    kr = p.knock
    k = p.k
    p.habit.use(k.stock)
    pr = kr._prior(k)
    kr._groups(k.limit)
    gw = kr.gw
    kf = kr.kf
    out = []
    for j in range(D_BUCKETS):
        stay = 0
        for g in range(len(gw)):
            stay += gw[g] * (256 - kf[g * D_BUCKETS + j])
        out.append(pr[j] * stay)
    return out


def sample_worlds(pos, weight, rng, n, target, pool_size):
    """n worlds (sample_world's) whose opponent hands follow `target`
    (a weight per deadwood bucket): `pool_size` hands drawn by the card
    model, then for each world a bucket drawn by `target` and a hand of
    that bucket (the nearest bucket that has one) drawn from the pool.
    The card model alone treats the unseen cards as independent, so its
    hands hold far more deadwood than a player keeps (at 12-17 stock
    cards 32 against 9 for hard-patient's real hands): searched on those,
    knocking looks far better than it is."""
    from engine.melds import deadwood4
    pool = [[] for _ in range(D_BUCKETS)]
    for _ in range(pool_size):
        opp, _stock = sample_world(pos, weight, rng, shuffle=False)
        m = [0, 0, 0, 0]
        for c in opp:
            m[c // 13] |= 1 << (c % 13)
        pool[d_bucket(deadwood4(m[0], m[1], m[2], m[3]))].append(opp)
    tot = sum(target)
    out = []
    for _ in range(n):
        x = rng.random() * tot
        j = 0
        acc = target[0]
        while acc <= x and j < D_BUCKETS - 1:
            j += 1
            acc += target[j]
        for dj in range(D_BUCKETS):
            hit = [b for b in (j - dj, j + dj) if 0 <= b < D_BUCKETS and pool[b]]
            if hit:
                b = hit[rng.randrange(len(hit))]
                break
        opp = pool[b][rng.randrange(len(pool[b]))]
        rest = [c for c in pos.unseen if c not in set(opp)]
        rng.shuffle(rest)
        out.append((opp, rest))
    return out


def discard_scores(ev, k, limit, forbid):
    """Hard's evaluator's score of every discard it weighs for the 11-card
    hand in ev.m (never `forbid`): [(value x16 with the danger charge,
    lower better; card)], in its order. Evaluator.discard_choice(k, True,
    limit, forbid) is called first (its choice, and the meld weight it
    sets), then each candidate is scored as that loop scores it, from the
    evaluator's public parts (deadwood margin, value10, lay16, at_risk,
    the card model's danger); the evaluator keeps no record of its
    candidates (the game's players would pay for it on the device). Its
    best (ties to the higher card, as discard_choice breaks them) must be
    discard_choice's card: a change of the evaluator's scoring that this
    misses stops the search rather than rank by another rule."""
    choice = ev.discard_choice(k, True, limit, forbid)
    m = ev.m
    h = [0, 0, 0, 0]
    lo = best_discard4(m, forbid) >> 6
    model = ev.model
    lay = ev.t_lay and ev.p_end
    if lay:
        ev.lay_prep(k, m)
    out = []
    best = None
    for s in range(4):
        x = m[s]
        left = x
        while left:
            bit = left & -left
            left ^= bit
            c = s * 13 + BIT_RANK[bit % 37]
            if c == forbid:
                continue
            h[0] = m[0]
            h[1] = m[1]
            h[2] = m[2]
            h[3] = m[3]
            h[s] = x ^ bit
            dwc = deadwood4(h[0], h[1], h[2], h[3])
            if dwc > lo + ev.t_margin:
                continue
            d16 = dwc * 16
            if lay:
                d16 -= ev.lay16(h)
            v = ev.at_risk(ev.value10(h), d16)
            dg = ev.t_danger * model.danger(k, c)
            if ev.t_dpat:
                dg += dg * ev.t_dpat * ev.patient >> 16
            v += dg * (dwc + ev.t_dsc) // ((10 + ev.t_dsc) * 16)
            out.append((v, c))
            if best is None or v < best[0] or (v == best[0] and CARD_VALUE[c] > CARD_VALUE[best[1]]):
                best = (v, c)
    if best is None or best[1] != choice:
        raise RuntimeError("the discard scores (%r) do not give the evaluator's choice %d" % (best, choice))
    return out


class Expert:
    """A determinized Monte Carlo player over hard (the module's text)."""

    def __init__(self, seed=0, worlds=16, cands=3, z=20, first=6, margin=48, pool=400):
        self.seed = seed
        self.name = "expert"
        self.worlds = worlds          # determinizations a decision
        self.cands = cands            # discards searched (hard's best by its evaluator)
        self.z = z                    # (x1/10) standard errors a change must gain
        self.first = first            # worlds for every candidate; the rest for the best two
        self.margin = margin          # (x16) candidates hard values this far apart: not searched
        self.pool = pool              # card-model hands the worlds are drawn from by
                                      # hard's deadwood belief (0: the card model alone)
        self.hard = Player("hard", seed)            # hard's choice, fed every view
        self.ro = [Player("hard", seed), Player("hard", seed)]   # the rollouts' players
        self.eq = Equity()
        self.stats = {}               # (kind, stock bucket) -> [kept, changed, gain sum]
        self.last = None              # the last search: (candidates, means, choice)
        self.rollouts = 0

    # -- the candidates ----------------------------------------------------------
    def candidates(self, view, code0):
        """Action codes to search, hard's choice code0 first, and the kind
        of decision ('draw', 'knock', 'discard'); [] when there is nothing
        to search (one legal move, or gin)."""
        legal = view.legal
        ph = view.phase
        if ph in ("draw", "first_upcard"):
            if "draw_upcard" not in legal:
                return [], "draw"
            if self.margin >= 0 and abs(self.take_gap(view)) > self.margin:
                return [], "draw"              # hard's values far apart: not searched
            other = DRAW_UPCARD if code0 != DRAW_UPCARD else (PASS if ph == "first_upcard" else DRAW_STOCK)
            return [code0, other], "draw"
        p = self.hard
        k = p.k
        m = load4([0, 0, 0, 0], k.mine)
        x = best_discard4(m, k.taken)
        dw = x >> 6
        if dw == 0:
            return [], "knock"                     # gin: hard takes it always
        out = [code0]
        kind = "discard"
        if dw <= k.limit:
            kind = "knock"
            kn = KNOCK + (x & 63)
            if kn not in out:
                out.append(kn)
        # hard's evaluator's ranking of the discards (its own view)
        p._setup(k, 2)
        ev = p.ev
        ranked = sorted(discard_scores(ev, k, k.limit, k.taken))
        n = 0
        for v, c in ranked:
            if n >= self.cands:
                break
            if self.margin >= 0 and v > ranked[0][0] + self.margin:
                break                              # far worse by hard's values
            c = DISCARD + c
            n += 1
            if c not in out:
                out.append(c)
        if kind == "knock" and code0 >= KNOCK and DISCARD + (code0 & 63) not in out:
            out.append(DISCARD + (code0 & 63))     # the same card, played on
        return out, kind

    def take_gap(self, view):
        """Hard's value (x16, lower better) of taking the upcard less that
        of drawing from the stock, with its take bias (Player._decide_rest)."""
        from engine.melds import deadwood4
        p = self.hard
        k = p.k
        p._setup(k, 2)
        ev = p.ev
        ev.discard_choice(k, True, k.limit, k.up)
        take = ev.dc_value
        mine = k.mine
        now = deadwood4(mine[0], mine[1], mine[2], mine[3])
        return take + p.t_bias - p.stock_value(k, now, True)

    # -- a decision ----------------------------------------------------------------
    def choose(self, view):
        p = self.hard
        a0 = p.choose(view)
        code0 = action_code(a0)
        me = view.seat
        for s in (0, 1):
            self.ro[s].habit.learn(view, s)       # what each seat knows of the other
        self.last = None
        if self.worlds <= 0:
            return a0
        cands, kind = self.candidates(view, code0)
        if len(cands) < 2:
            return a0
        pos = Position(view)
        p.model.fill(p.k, True)
        po = p.model.po
        oppk = set(pos.oppk)

        def weight(c):
            return 256 if c in oppk else po[c]

        hno = pos.hand_no if pos.hand_no is not None else pos.hands_over + 1
        rng = random.Random(((self.seed * 7919 + hno) * 1009 + len(pos.log)) * 2 + me)
        sc = pos.scores
        self.eq.set(sc[0], sc[1], pos.rules.target)
        vals = [[] for _ in cands]
        live = list(range(len(cands)))
        if self.pool > 0:
            worlds = sample_worlds(pos, weight, rng, self.worlds, deadwood_target(p), self.pool)
        else:
            worlds = [sample_world(pos, weight, rng) for _ in range(self.worlds)]
        for w in range(self.worlds):
            if w == self.first and len(live) > 2:
                # the rest of the worlds: hard's choice and its best challenger
                ch = max(live[1:], key=lambda i: (sum(vals[i]), -i))
                live = [0, ch]
            opp, stock = worlds[w]
            for i in live:
                vals[i].append(self.rollout(pos, view, opp, stock, cands[i]))
        means = [sum(v) / max(1, len(v)) for v in vals]
        best = 0
        gain = 0.0
        for i in range(1, len(cands)):
            n = len(vals[i])
            d = [a - b for a, b in zip(vals[i], vals[0])]
            md = sum(d) / n
            var = sum((x - md) ** 2 for x in d) / max(1, n - 1)
            se = (var / n) ** 0.5
            if md > 0 and md * 10 > self.z * se and md > gain:
                best = i
                gain = md
        key = "%s stock>=%d: %s" % (kind, stock_bucket(pos.stock_n), change_text(kind, cands[0], cands[best]))
        d = DECISIONS.setdefault(key, [0, 0.0])
        d[0] += 1
        d[1] += gain
        st = self.stats.setdefault((kind, stock_bucket(pos.stock_n)), [0, 0, 0.0])
        if best == 0:
            st[0] += 1
        else:
            st[1] += 1
            st[2] += gain
        self.last = (cands, means, best)
        if best == 0:
            return a0
        return ACTION_TEXT[cands[best]]

    def rollout(self, pos, view, opp, stock, code):
        """Play `code` in the world (opp, stock), then hard for both seats
        to the hand's end: the match equity it leaves (0..1) for the
        expert's seat."""
        self.rollouts += 1
        me = pos.seat
        h = pos.hand(opp, stock)
        why = h.apply(code)
        if why is not None:
            raise RuntimeError("the expert searched an illegal move %s: %s" % (ACTION_TEXT[code], why))
        sv = SimView(view, h, pos.rules)
        sv.scores_abs[me] = pos.scores[0]
        sv.scores_abs[1 - me] = pos.scores[1]
        ro = self.ro
        for p in ro:
            p.pre_n = -1
            p.pe_hand = -2
            p.k.key_hand = -2
        while h.phase != OVER:
            s = h.turn
            sv.seat = s
            p = ro[s]
            p.begin(sv)
            why = h.apply(p.code)
            if why is not None:
                raise RuntimeError("a rollout move was illegal: %s" % why)
        r = h.result
        if r.winner is None:
            v = 0
        else:
            v = r.points if r.winner == me else -r.points
        return self.eq.at(v * 16) / 65535.0
