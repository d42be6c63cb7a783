"""The rule variants (V1-V5) on the handheld, driven by button presses on a
fake clock: each variant set one by one on the settings screen, a new match
started, the variant seen in effect on the play, result and match-end
screens; the settings surviving a restart; a match in progress keeping its
rules. Golden screenshots (UPDATE_GOLDEN=1 rewrites them) and, after every
press, the panel rebuilt from the driver's I2C bytes equals the framebuffer.

The opponent is the small SimplePlayer (ui_driver) so the pictures do not
move when the device AI improves.
"""

import engine
from engine.rules import BONUS, CARDEMS, CLASSIC, OKLAHOMA
from firmware.settings import Settings
from firmware.screens import play as P
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import StockOnly, play_turn, quit_to_title, simple_choice, simple_factory, title_to
from ui_golden import CheckedSim, Golden

ROWS = ("level", "speed", "rules", "upcard_offer", "oklahoma", "stop_at",
        "match_bonus", "target", "knock_limit", "first", "brightness", "sound",
        "style", "hardware", "about")


def new_sim(seed=1, storage=None, factory=simple_factory, **settings):
    st = {"speed": "fast"}
    st.update(settings)
    sim = CheckedSim(seed=seed, storage=storage if storage is not None else MemStorage(),
                     player_factory=factory, settings=st)
    sim.settle()
    return sim


# -- pressing through the menus --------------------------------------------
def open_settings(sim):
    title_to(sim, "settings")
    assert sim.screen == "settings"


def row(sim, key):
    """Move the settings cursor to row `key` with UP/DOWN."""
    s = sim.app.screen
    for _ in range(len(ROWS)):
        if s.keys[s.menu.sel] == key:
            return s
        sim.press("D")
    raise AssertionError("no settings row %r" % key)


def set_row(sim, key, want, key_press="R"):
    """Press LEFT/RIGHT on row `key` until its value is `want`."""
    s = row(sim, key)
    st = sim.app.settings
    for _ in range(12):
        if getattr(st, key) == want:
            return s
        sim.press(key_press)
    raise AssertionError("%s never became %r" % (key, want))


def start_match(sim):
    """From the title: NEW MATCH (confirming over a match in progress)."""
    title_to(sim, "new")
    if sim.screen == "title":
        sim.press("A")                        # NEW MATCH? A: new
    assert sim.screen == "play"
    return sim.app.match


def value_shown(sim, key):
    s = sim.app.screen
    return s.menu.values[s.keys.index(key)]


def play_to(sim, screens, limit=3000):
    """Play (human: the simple policy by buttons; A on other screens) until
    the screen is one of `screens`."""
    for _ in range(limit):
        if sim.screen in screens:
            return
        if sim.screen == "play":
            play_turn(sim)
        else:
            sim.press("A")
    raise AssertionError("never reached %s" % (screens,))


# -- the settings model ------------------------------------------------------
def test_settings_presets_set_every_field_and_a_change_makes_custom():
    s = Settings()
    assert s.rules == "cardems" and s.match_rules() == CARDEMS
    s.set_preset("oklahoma")
    assert (s.upcard_offer, s.oklahoma, s.stop_at, s.match_bonus) == (1, 1, 2, 0)
    assert s.match_rules() == OKLAHOMA
    s.set_rule("knock_limit", 7)
    assert s.rules == "custom"
    r = s.match_rules()
    assert r.name == "custom" and r.oklahoma and r.knock_limit == 7 and r.stop_at == 2
    s.set_rule("knock_limit", 10)
    assert s.rules == "oklahoma"                  # equal to the preset again
    s.set_preset("cardems")
    for key, value in (("upcard_offer", 1), ("stop_at", 2)):
        s.set_rule(key, value)
    assert s.rules == "classic" and s.match_rules() == CLASSIC
    s.set_rule("match_bonus", 1)
    s.set_rule("stop_at", 0)
    assert s.rules == "bonus" and s.match_rules() == BONUS


def test_settings_rule_fields_round_trip_sorted():
    s = Settings()
    s.set_preset("bonus")
    s.set_rule("target", 350)
    s.set_rule("first", "loser")
    s.set_rule("knock_limit", 0)
    data = s.encode()
    lines = data.decode().splitlines()
    assert lines == sorted(lines)
    # Custom: the fields that differ from Cardems (and the target, as ever).
    assert [ln for ln in lines if ln.split("=")[0] not in (
        "brightness", "level", "sound", "speed")] == [
        "first=loser", "knock_limit=0", "match_bonus=1", "rules=custom",
        "target=350", "upcard_offer=1"]
    t = Settings.decode(data)
    assert t.pairs() == s.pairs() and t.match_rules() == s.match_rules()
    r = t.match_rules()
    assert r.text() == engine.Rules.from_text(r.text()).text()


def test_settings_a_preset_is_stored_as_its_name_as_before():
    s = Settings()
    assert s.encode() == (b"brightness=high\nlevel=normal\nrules=cardems\n"
                          b"sound=1\nspeed=normal\ntarget=100\n")
    s.set_preset("oklahoma")
    assert b"rules=oklahoma\n" in s.encode() and b"stop_at" not in s.encode()
    assert Settings.decode(s.encode()).match_rules() == OKLAHOMA


def test_settings_from_before_the_rule_fields_read_through_their_preset():
    # An older file names only the preset and the target.
    old = Settings.decode(b"brightness=low\nlevel=hard\nrules=classic\n"
                          b"sound=0\nspeed=fast\ntarget=100\n")
    assert old.rules == "classic" and old.match_rules() == CLASSIC
    assert old.level == "hard" and old.brightness == "low" and old.sound == 0
    old = Settings.decode(b"rules=oklahoma\ntarget=150\n")
    assert old.oklahoma == 1 and old.target == 150 and old.rules == "custom"
    assert old.match_rules().oklahoma and old.match_rules().target == 150
    # Missing, unknown and bad values fall back to the defaults.
    d = Settings.decode(b"rules=poker\nknock_limit=11\nfirst=nobody\nstop_at=3\n"
                        b"target=75\nupcard_offer=yes\noklahoma=1\ncolour=red\n")
    assert d.match_rules() == CARDEMS.copy(name="custom", oklahoma=True)
    assert Settings.decode(b"").match_rules() == CARDEMS


# -- setting variants one by one, and seeing them in play --------------------
def test_each_rule_row_changes_its_field_and_a_preset_resets_them(tmp_path):
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = new_sim(storage=storage)
    open_settings(sim)
    set_row(sim, "upcard_offer", 1)
    set_row(sim, "oklahoma", 1)
    set_row(sim, "stop_at", 2)
    set_row(sim, "match_bonus", 1)
    set_row(sim, "target", 250)
    set_row(sim, "first", "alternate")
    st = sim.app.settings
    assert st.rules == "custom"
    assert value_shown(sim, "rules") == b"CUSTOM"
    assert value_shown(sim, "first") == b"ALTERNATE"
    s = row(sim, "knock_limit")
    assert value_shown(sim, "knock_limit") == b"UPCARD"   # V2 sets it
    assert s.about.startswith(b"OKLAHOMA ON")
    before = st.knock_limit
    sim.press("R")
    assert st.knock_limit == before                      # nothing to change
    g.check(sim, "30_settings_knock_limit_oklahoma")
    set_row(sim, "oklahoma", 0, "L")
    set_row(sim, "knock_limit", 7, "L")
    assert value_shown(sim, "knock_limit") == b"7"
    row(sim, "rules")
    g.check(sim, "31_settings_rules_custom")
    sim.press("B")
    saved = Settings.decode(storage.files["settings"])
    assert saved.match_rules() == CARDEMS.copy(
        name="custom", upcard_offer=True, stop_at=2, match_bonus=True,
        target=250, knock_limit=7, first="alternate")
    # A preset sets every field again.
    open_settings(sim)
    s = row(sim, "rules")
    sim.press("R")                                       # custom -> cardems
    assert st.match_rules() == CARDEMS
    sim.press("R")
    sim.press("R")
    assert st.match_rules() == OKLAHOMA and value_shown(sim, "upcard_offer") == b"ON"
    assert s.about == b"OFFER, STOP, UPCARD SETS LIMIT"
    sim.press("L")
    assert st.match_rules() == CLASSIC
    sim.press("B")
    assert Settings.decode(storage.files["settings"]).match_rules() == CLASSIC
    g.finish()


def test_v1_upcard_offer_pass_pass_then_stock_only(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=1)
    open_settings(sim)
    set_row(sim, "upcard_offer", 1)
    sim.press("B")
    m = start_match(sim)
    assert m.rules.upcard_offer and not m.rules.stop_at and m.rules.name == "custom"
    play = sim.app.screen
    assert m.phase == "first_upcard" and play.offer and play.src == 0
    g.check(sim, "32_play_v1_offer")
    sim.press("R")                        # the pile side: take
    assert play.src == 1
    g.check(sim, "33_play_v1_offer_take")
    sim.press("L")
    sim.press("A")                        # pass; the CPU (simple) passes too
    h = m.hand
    assert [h.log[0], h.log[1]] == [2, 2] and list(h.log_seat[:2]) == [0, 1]
    assert m.phase == "draw" and m.to_move == 0 and play.stock_only
    assert "draw_upcard" not in m.legal()
    g.check(sim, "34_play_v1_both_passed")
    sim.press("R")                        # no pile to pick: nothing moves
    assert play.src == 0 and not play.offer
    sim.press("A")                        # draws from the stock
    assert m.phase == "discard" and h.log[2] == 0
    g.finish()


def test_v1_taking_the_offered_upcard():
    sim = new_sim(seed=1, rules="classic")
    m = start_match(sim)
    up = m.hand.upcard()
    sim.press("R")
    sim.press("A")                        # take
    assert m.phase == "discard" and m.view(0).taken == up
    play = sim.app.screen
    assert play.row.cards[play.cur] == up
    before = engine.dumps(m)
    sim.press("A")                        # R4 applies to the card taken
    assert engine.dumps(m) == before and play.overlay == P.O_MSG


def test_v2_oklahoma_ace_upcard_is_gin_only(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=2)
    open_settings(sim)
    set_row(sim, "oklahoma", 1)
    sim.press("B")
    m = start_match(sim)
    assert m.rules.oklahoma and not m.rules.upcard_offer
    assert m.hand.upcard() % 13 == 0 and m.hand.knock_limit == 0
    play = sim.app.screen
    assert play.limit == 0
    g.check(sim, "35_play_v2_gin_only")
    sim.press("A")                        # draw from the stock
    assert play.mode == P.M_DISCARD and play.dw > 0
    g.check(sim, "36_play_v2_gin_only_discard")
    before = engine.dumps(m)
    sim.press("U")                        # knock: refused, only gin may knock
    assert engine.dumps(m) == before and play.overlay == P.O_MSG
    assert b"ONLY GIN MAY KNOCK" in b" ".join(play.msg_lines).upper()
    sim.press("A")
    # Play on: nobody knocks with deadwood in this hand.
    while sim.screen == "play" and m.hand_no == 1:
        play_turn(sim)
    res = m.results[0]
    assert res.kind in ("gin", "draw"), res


def test_v2_oklahoma_limit_is_the_upcards_value():
    for seed in range(1, 80):
        sim = new_sim(seed=seed, rules="oklahoma")
        m = start_match(sim)
        if 0 < m.hand.knock_limit < 10:
            break
    up = m.hand.upcard()
    assert m.hand.knock_limit == engine.value(up)
    assert sim.app.screen.limit == m.hand.knock_limit


def test_v3_two_card_stop_ends_the_hand_with_two_stock_cards(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=1, factory=lambda level, seed: StockOnly(level, seed))
    open_settings(sim)
    set_row(sim, "stop_at", 2)
    sim.press("B")
    m = start_match(sim)
    assert m.rules.stop_at == 2 and m.rules.name == "custom"
    assert sim.app.screen.stop_at == 2
    g.check(sim, "37_play_v3_end_2")
    while sim.screen == "play":
        sim.press("A")                    # draw from the stock
        sim.press("A")                    # and throw it back
    assert sim.screen == "result"
    res = m.results[-1]
    assert res.kind == "draw" and res.why == "stock" and m.hand.stock_n == 2
    assert sim.app.screen.why == b"STOCK DOWN TO 2: NOBODY SCORES"
    g.check(sim, "38_result_v3_stock_down_to_2")
    g.finish()


def test_v4_bonus_breakdown_shutout_on_the_match_end_screen(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=35)
    open_settings(sim)
    set_row(sim, "match_bonus", 1)
    set_row(sim, "target", 50, "L")
    sim.press("B")
    m = start_match(sim)
    assert m.rules.match_bonus and m.rules.target == 50
    play_to(sim, ("match_end",))
    e = m.end
    assert e.winner == 0 and e.hands_won == [2, 0] and len(m.results) == 2
    assert (e.game_bonus, e.hand_bonus, e.shutout_bonus) == (100, 50, e.hand_points[0])
    assert e.total == 2 * e.hand_points[0] + 150
    s = sim.app.screen
    assert s.bonus and s.hands_label == b"25 X 2 HANDS WON"
    g.check(sim, "39_match_end_v4_shutout")
    sim.press("A")
    assert sim.screen == "title"
    g.finish()


def test_v4_bonus_breakdown_without_a_shutout(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=3, rules="bonus", target=50)
    m = start_match(sim)
    play_to(sim, ("match_end",))
    e = m.end
    assert e.winner == 0 and e.shutout_bonus == 0
    assert e.hand_bonus == 25 * e.hands_won[0] and e.total == e.hand_points[0] + 100 + e.hand_bonus
    g.check(sim, "40_match_end_v4")
    g.finish()


def test_v5_knock_limit_from_the_settings(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(seed=1)
    open_settings(sim)
    set_row(sim, "knock_limit", 5, "L")
    sim.press("B")
    m = start_match(sim)
    assert m.hand.knock_limit == 5 and sim.app.screen.limit == 5
    g.check(sim, "41_play_v5_knock_limit")
    for _ in range(400):
        if sim.screen != "play":
            break
        a = simple_choice(m.view(0))
        if a.startswith("knock"):
            assert m.view(0).deadwood <= 5
        play_turn(sim)
    res = m.results[0]
    if res.kind == "knock" or res.kind == "undercut":
        assert res.outcome is not None
    g.finish()


def test_v5_first_player_alternate_and_loser():
    sim = new_sim(seed=4)
    open_settings(sim)
    set_row(sim, "first", "alternate")
    sim.press("B")
    m = start_match(sim)
    assert m.hand.first == 0
    play_to(sim, ("result", "showdown"))
    play_to(sim, ("play",))
    assert m.hand_no == 2 and m.hand.first == 1
    sim2 = new_sim(seed=4)
    open_settings(sim2)
    set_row(sim2, "first", "loser")
    sim2.press("B")
    m2 = start_match(sim2)
    play_to(sim2, ("result", "showdown"))
    res = m2.results[0]
    play_to(sim2, ("play",))
    want = m2.hands[0].first if res.winner is None else 1 - res.winner
    assert m2.hand.first == want


# -- persistence ---------------------------------------------------------------
def test_rule_settings_persist_across_a_restart():
    storage = MemStorage()
    sim = new_sim(storage=storage)
    open_settings(sim)
    set_row(sim, "upcard_offer", 1)
    set_row(sim, "match_bonus", 1)
    set_row(sim, "target", 300)
    set_row(sim, "first", "loser")
    sim.press("B")
    want = sim.app.settings.match_rules()
    sim2 = Sim(seed=1, storage=storage, player_factory=simple_factory)
    st = sim2.app.settings
    assert st.match_rules() == want and st.rules == "custom"
    sim2.settle()
    open_settings(sim2)
    assert value_shown(sim2, "target") == b"300"
    assert value_shown(sim2, "first") == b"LOSER"
    assert value_shown(sim2, "rules") == b"CUSTOM"
    sim2.press("B")
    m = start_match(sim2)
    assert m.rules == want


def test_a_match_in_progress_keeps_its_rules():
    storage = MemStorage()
    sim = new_sim(storage=storage, rules="classic")
    m = start_match(sim)
    play_turn(sim)                        # the offer: the simple policy decides
    quit_to_title(sim)
    assert sim.screen == "title"
    open_settings(sim)
    set_row(sim, "rules", "bonus")
    sim.press("B")
    title_to(sim, "continue")
    assert sim.app.match is m and m.rules == CLASSIC
    # After a restart too: the save holds the rules.
    sim2 = Sim(seed=9, storage=storage, player_factory=simple_factory)
    sim2.settle()
    assert sim2.app.match.rules == CLASSIC
    assert sim2.app.settings.match_rules() == BONUS
    title_to(sim2, "continue")
    assert sim2.app.match.rules == CLASSIC
    quit_to_title(sim2)
    m3 = start_match(sim2)                 # a new match takes the settings
    assert m3.rules == BONUS


def test_your_style_row_shows_what_the_cpu_learned_and_forgets_it_on_a_second_a():
    sim = new_sim()
    patient = bytes([200, 20, 10, 5, 5, 5, 5, 5, 5, 5, 5, 128])
    sim.app.stats.style = patient
    open_settings(sim)
    s = row(sim, "style")
    assert s.menu.values[s.menu.sel] == b"PATIENT"
    sim.press("A")
    assert s.menu.values[s.menu.sel] == b"FORGET?"
    assert sim.app.stats.style == patient          # not yet
    sim.press("A")
    assert sim.app.stats.style == b""
    assert s.menu.values[s.menu.sel] == b"NEW"
    # moving away cancels a half-made forget
    sim.app.stats.style = patient
    s._values()
    sim.press("A")
    sim.press("U")
    sim.press("D")
    assert sim.app.stats.style == patient
    assert s.menu.values[s.menu.sel] == b"PATIENT"


def test_your_style_word_reads_both_parts_of_a_hand():
    from engine.ai.habit import RECORD_SIZE, OLD_RECORD
    from firmware.screens.settings import style_text
    quick = [5] * 10 + [200]
    patient = [200, 20, 10] + [5] * 8
    assert len(bytes(quick + [128] + quick)) == RECORD_SIZE
    assert style_text(bytes(quick + [128] + quick)) == b"QUICK"
    assert style_text(bytes(patient + [128] + patient)) == b"PATIENT"
    # quick early, patient late: neither word fits the whole hand
    assert style_text(bytes(quick + [128] + patient)) == b"MIXED"
    # a record of one estimate (older firmware) still reads
    assert len(bytes(patient + [128])) == OLD_RECORD
    assert style_text(bytes(patient + [128])) == b"PATIENT"
    assert style_text(b"") == b"NEW"
