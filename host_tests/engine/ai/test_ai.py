"""The AI (engine/ai/): legal moves only, never the hidden state, the hint
agrees with hard, determinism, the obs interface, and a few plain positions.

Portable: plain functions and asserts, run by pytest on CPython and by
host_tests/runner.py on the MicroPython unix and WebAssembly ports.
"""
from engine import Match, View, CARDEMS, card, card_text, record_text
from engine.ai import Player, ObsView, obs_from_view, LEVELS
from scenario import match_with, play

SHORT = CARDEMS.copy(target=40)     # short matches keep the ports quick


# -- helpers -----------------------------------------------------------------

class _Masks:
    """The hand's eight suit masks; reading the other seat's four fails."""

    def __init__(self, masks, seat):
        self._masks = masks
        self._seat = seat

    def __getitem__(self, i):
        if i // 4 != self._seat:
            raise AssertionError("the AI read the opponent's cards (mask %d)" % i)
        return self._masks[i]

    def __len__(self):
        return 8


class _Hidden:
    """Reading the stock's contents fails."""

    def __getitem__(self, i):
        raise AssertionError("the AI read the stock's contents")

    def __len__(self):
        raise AssertionError("the AI read the stock's contents")


class _GuardedHand:
    """What a View may read of a Hand: the seat's own masks, the pile, the
    counts and the log. The opponent's masks and the stock raise."""

    def __init__(self, hand, seat):
        self._h = hand
        self.masks = _Masks(hand.masks, seat)
        self.stock = _Hidden()
        self.pile = hand.pile
        self.pile_n = hand.pile_n
        self.stock_n = hand.stock_n
        self.knock_limit = hand.knock_limit
        self.taken = hand.taken
        self.phase = hand.phase
        self.turn = hand.turn
        self.log = hand.log
        self.log_seat = hand.log_seat
        self.deal = hand.deal
        self.rules = hand.rules

    def moves(self):
        return self._h.moves()

    def cards_of(self, seat):
        raise AssertionError("the AI asked for a seat's cards")

    def stock_cards(self):
        raise AssertionError("the AI read the stock")


class GuardedView(View):
    @property
    def _hand(self):
        return _GuardedHand(self._match.hand, self.seat)

    @property
    def legal(self):
        return self._match.legal() if self.my_turn else []


def run_match(levels, seed, rules=SHORT, view_of=None, check=None, players=None):
    """Play Player(levels[0]) against Player(levels[1]) (or the two
    `players` given); returns the match."""
    m = Match(rules, seed)
    ps = players or (Player(levels[0], seed), Player(levels[1], seed + 1))
    steps = 0
    while m.phase != "match_over":
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        v = view_of(m, s) if view_of else m.view(s)
        a = ps[s].choose(v)
        if check:
            check(m, s, a)
        assert m.act(a) is None, "%s chose %s, refused" % (levels[s], a)
        steps += 1
        assert steps < 5000
    return m


# -- the contract ----------------------------------------------------------------

def test_every_level_returns_only_legal_actions():
    def check(m, s, a):
        legal = m.legal()
        assert a in legal, "%s not in %s" % (a, legal)
    run_match(("hard", "easy"), 3, check=check)
    run_match(("normal", "hard"), 4, check=check)


def test_ai_reads_only_the_players_view():
    # The guarded view raises if the opponent's masks or the stock are read;
    # the moves must be the same as through a normal view.
    a = run_match(("hard", "normal"), 5, view_of=lambda m, s: GuardedView(m, s))
    b = run_match(("hard", "normal"), 5)
    assert record_text(a) == record_text(b)


def test_a_discard_planned_with_the_upcard_is_the_one_decided_afresh():
    # Taking the upcard decides the discard too; the discard decision that
    # follows reuses it. Decided afresh instead, every move is the same.
    for seed in (6, 7):
        a = run_match(("hard", "normal"), seed)
        orig = Player._take
        try:
            Player._take = lambda self, k, code, kind, val: None
            b = run_match(("hard", "normal"), seed)
        finally:
            Player._take = orig
        assert record_text(a) == record_text(b)


def test_guarded_view_does_catch_a_peek():
    m = Match(SHORT, 1)
    v = GuardedView(m, 1)
    try:
        v._hand.masks[0]
    except AssertionError:
        pass
    else:
        raise AssertionError("the guard let the opponent's mask through")


def test_hint_agrees_with_hard_and_is_short():
    hard = Player("hard")
    helper = Player("easy", 9)

    def check(m, s, a):
        v = m.view(s)
        act, why = helper.hint(v)
        assert act == hard.choose(v), (act, why)
        assert isinstance(why, str) and 0 < len(why) <= 60, why
    run_match(("normal", "easy"), 6, check=check)


def _obs(hand, up, stock=31, phase="draw"):
    legal = ["draw_stock", "draw_upcard"] if phase == "draw" else ["pass", "draw_upcard"]
    return ObsView({"seat": 0, "phase": phase, "hand": hand.split(), "upcard": up,
                    "discard_pile": [], "stock_size": stock, "knock_card": 10, "moves": [],
                    "legal": legal, "scores": [0, 0], "target": 100})


def _pile_gain(hand, up):
    """What taking `up` into `hand` (card ints) and the best discard after
    it save in deadwood, by the public meld search: (gain, melds kept)."""
    from engine import best_melds
    now = best_melds(hand)[0]
    best = None
    for d in hand:
        kept = [c for c in hand if c != d] + [up]
        dw, melds = best_melds(kept)
        if best is None or dw < best[0]:
            best = (dw, melds)
    return now - best[0], best[1]


def test_the_hint_that_leaves_the_pile_card_says_what_it_would_do():
    """Hard draws from the stock while the pile's card helps: the hint
    says how (a set, a run, the deadwood it saves), never "no help"; when
    the card lowers no deadwood, it says that."""
    hard = Player("hard")
    # the queens: Q of clubs on the pile makes a set of four
    act, why = hard.hint(_obs("Qs Qh Qd 6s 4s 8s 8h 3c 9s As", "Qc"))
    assert act == "draw_stock", (act, why)
    assert why == "draw: Qc makes a set of four, but the stock is worth more", why
    act, why = hard.hint(_obs("7h 8h Jc Jh 2c Tc 4d Kh Ts 6h", "9h"))
    assert (act, why) == ("draw_stock", "draw: 9h makes a run, but the stock is worth more")
    # over matches: every hint that leaves the pile's card
    said = {"lowers no deadwood": 0, "makes a set": 0, "makes a run": 0, "saves": 0}

    def check(m, s, a):
        v = m.view(s)
        act, why = hard.hint(v)
        up = v.upcard
        if act not in ("draw_stock", "pass") or up is None:
            return
        gain, melds = _pile_gain(list(v.hand), up)
        assert len(why) <= 60, why
        if gain <= 0:
            assert why.endswith(": %s lowers no deadwood" % card_text(up)), (why, gain)
            said["lowers no deadwood"] += 1
            return
        assert "no help" not in why and why.endswith(", but the stock is worth more"), why
        in_meld = any(up in g for g in melds)
        if "saves" in why:
            assert not in_meld and (" saves %d deadwood" % gain) in why, (why, gain)
            said["saves"] += 1
        else:
            assert in_meld, (why, melds)
            kept = [c for g in melds for c in g]
            if "makes a run" in why:      # two neighbours of its suit, around it
                near = [c for c in kept if c // 13 == up // 13 and abs(c % 13 - up % 13) <= 2]
                assert len(near) >= 3, (why, melds)
                said["makes a run"] += 1
            else:
                assert "makes a set" in why, why
                assert len([c for c in kept if c % 13 == up % 13]) >= 3, (why, melds)
                said["makes a set"] += 1
    for seed in (21, 22, 23):
        run_match(("normal", "easy"), seed, check=check)
    assert said["lowers no deadwood"] and sum(said.values()) > said["lowers no deadwood"], said



def test_same_seed_same_moves():
    for lv in LEVELS:
        a = record_text(run_match((lv, "normal"), 11))
        b = record_text(run_match((lv, "normal"), 11))
        assert a == b, lv


def test_obs_view_plays_like_the_view():
    # Cardems, and Classic (V1, V3: the obs's rules line gives the AI the
    # two-card stop, as the view's rules do)
    for rules in (SHORT, CARDEMS.copy(name="classic", upcard_offer=True, stop_at=2, target=40)):
        hard = Player("hard")
        other = Player("hard")

        def check(m, s, a):
            v = m.view(s)
            obs = obs_from_view(v)
            assert ObsView(obs).rules == m.rules
            assert other.choose(ObsView(obs)) == hard.choose(v)
            assert obs["legal"] == v.legal and a in obs["legal"]
        run_match(("hard", "normal"), 12, rules, check=check)


def test_obs_has_the_documented_keys():
    m = Match(SHORT, 2)
    obs = obs_from_view(m.view(0))
    for key in ("seat", "phase", "hand", "upcard", "discard_pile",
                "opponent_known", "stock_size", "knock_card", "deadwood",
                "moves", "legal", "scores", "target", "rules", "history"):
        assert key in obs, key
    # without a rules line the obs is a Cardems game to its target
    del obs["rules"]
    obs["target"] = 250
    ov = ObsView(obs)
    assert ov.rules is None and ov.target == 250
    assert obs["phase"] == "draw" and len(obs["hand"]) == 10
    assert obs["legal"] == ["draw_stock", "draw_upcard"]


def test_unknown_level_is_refused():
    try:
        Player("expert")
    except ValueError as e:
        assert "level" in str(e)
    else:
        raise AssertionError("Player('expert') accepted")


# -- plain positions -------------------------------------------------------------

# Seat 1 holds 7s 7h and a run 2c-3c-4c; the other cards are high and loose.
SEAT1 = "7s 7h 2c 3c 4c Ks Qh Jd 9d 5s"
SEAT0 = "As 2s 3s 8h 9h Th 4d 5d 6d Kc"


def test_r5_takes_an_upcard_that_completes_a_set():
    m = match_with(SEAT0, SEAT1, "Qc", "7d")
    play(m, "draw_stock", "discard:7d")
    assert m.hand.upcard() == card("7d")
    for lv in LEVELS:
        assert Player(lv).choose(m.view(1)) == "draw_upcard", lv


def test_r4_never_discards_the_card_just_taken():
    m = match_with(SEAT0, SEAT1, "Qc", "7d")
    play(m, "draw_stock", "discard:7d", "draw_upcard")
    for lv in LEVELS:
        a = Player(lv).choose(m.view(1))
        assert a != "discard:7d" and a != "knock:7d", (lv, a)


def test_r7_goes_gin_when_it_can():
    # Seat 0 draws the 7d: As-2s-3s, 8h-9h-Th, 4d-5d-6d-7d; Kc goes out.
    m = match_with(SEAT0, SEAT1, "Qc", "7d")
    play(m, "draw_stock")
    for lv in LEVELS:
        assert Player(lv).choose(m.view(0)) == "knock:Kc", lv


def test_discards_the_high_loose_card_not_a_meld():
    m = match_with(SEAT0, SEAT1, "Qc", "2d")
    play(m, "draw_stock")      # seat 0 holds 2d: a loose low card joins
    a = Player("hard").choose(m.view(0))
    assert a in ("discard:Kc", "knock:Kc"), a


# Hard holds three melds and the 4c; seat 0 has just thrown a low card, so
# its deadwood is likely low: a knock would win little.
LOW1 = "As 2s 3s 5h 6h 7h 9d Td Jd 4c"
LOW0 = "8s 9s Ks 2h Qh 3d 5d Kd 3c Qc"


def test_r10_hard_plays_on_for_the_undercut_when_a_knock_wins_little():
    m = match_with(LOW0, LOW1, "7c", "Kh 8c")
    play(m, "draw_stock", "discard:3c", "draw_stock")    # seat 1 drew the 8c
    assert "knock:8c" in m.legal()
    assert Player("hard").choose(m.view(1)) == "discard:8c"
    assert Player("normal").choose(m.view(1)) == "knock:8c"
    assert Player("easy").choose(m.view(1)) == "knock:8c"
    act, why = Player("hard").hint(m.view(1))
    assert act == "discard:8c" and why == "discard 8c: knock later", why


def test_hint_names_the_reason():
    m = match_with(SEAT0, SEAT1, "Qc", "7d")
    play(m, "draw_stock", "discard:7d")
    assert Player("easy").hint(m.view(1)) == ("draw_upcard", "take 7d: makes a set")
    play(m, "draw_upcard")
    act, why = Player("hard").hint(m.view(1))
    assert act.startswith("discard:") and why.startswith("discard " + act[8:]), (act, why)


# -- the hard level's terms ---------------------------------------------------

def _known_to_opponent(p, cards):
    """Player p's Know: the opponent holds `cards` (taken from the pile);
    nothing else is unseen."""
    k = p.k
    for s in range(4):
        k.oppk[s] = 0
        p.model.unseen[s] = 0
    for t in cards.split():
        c = card(t)
        k.oppk[c // 13] |= 1 << (c % 13)
    return k


def test_danger_weighs_the_deadwood_a_discard_saves_the_opponent():
    # The opponent holds Kh Kd and 2h 2d: either spade completes a set, but
    # the king saves it 20 points and the deuce 4.
    p = Player("hard")
    k = _known_to_opponent(p, "Kh Kd 2h 2d")
    ks = p.model.danger(k, card("Ks"))
    two = p.model.danger(k, card("2s"))
    assert two > 0 and ks > 4 * two, (ks, two)
    # a card that melds with nothing it holds is safe
    assert p.model.danger(k, card("7c")) == 0
    # runs count too: 8h 9h take the 7h and the Th
    k = _known_to_opponent(p, "8h 9h")
    assert p.model.danger(k, card("7h")) > 0 and p.model.danger(k, card("Th")) > 0
    assert p.model.danger(k, card("6h")) == 0


def _half_known_kings(p):
    """Player p's Know: the opponent surely holds Kh; Kd and Kc are unseen,
    each held at one chance in two."""
    k = _known_to_opponent(p, "Kh")
    for t in ("Kd", "Kc"):
        c = card(t)
        p.model.unseen[c // 13] |= 1 << (c % 13)
        p.model.po[c] = 128
    return k


def test_a_discards_meld_chance_is_that_of_at_least_one_pair():
    # The opponent surely holds Kh; Kd and Kc are unseen, each held at one
    # chance in two. The Ks melds with Kh Kd, Kh Kc or Kd Kc: 1/2, 1/2 and
    # 1/4, which summed would be more than a sure thing; at least one of
    # them: 1 - 1/2 * 1/2 * 3/4 = 13/16.
    p = Player("hard")
    k = _half_known_kings(p)
    model = p.model
    model.feed(k, card("Ks"))
    assert abs(model.f_p - 256 * 13 // 16) <= 2, model.f_p
    assert model.f_save == 20 * 16          # a pair of kings stops costing 20
    d = model.danger(k, card("Ks"))
    sure = model.danger(_known_to_opponent(p, "Kh Kd"), card("Ks"))
    assert abs(d - sure * 13 // 16) <= 2, (d, sure)
    # the old sum counted the likely pairs of one card over and over
    model.t_union = 0
    k = _half_known_kings(p)
    model.feed(k, card("Ks"))
    assert model.f_p == 256


def test_meld_chances_count_less_when_the_opponent_sheds_low_cards():
    # Same position, the opponent's last discard a king or an ace: a player
    # throwing aces is near its knock, so hard values the draws to come less.
    lams = []
    for last in ("Kc", "As"):
        m = match_with(SEAT0, SEAT1, "Qc", "5c")
        play(m, "draw_stock", "discard:" + last)
        p = Player("hard")
        p.choose(m.view(1))
        lams.append(p.ev.lam)
    assert lams[1] < lams[0], lams
