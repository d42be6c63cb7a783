"""The terminal's text view against the screen's own text (screen_own.py):
ui_golden.Golden.check holds every golden snapshot to it; here, that the
comparison sees what it must (a card missing, a card invented, a clipped
line) and live screens agree."""

from screen_own import mismatches, own
from tools.sim import textscreen
from tools.sim.simulator import Sim


def _at_a_discard():
    sim = Sim(seed=3)
    sim.keys("A")                 # NEW MATCH: the deal, then the draw
    while sim.screen != "play" or sim.app.match.phase != "draw":
        sim.press("A")
    sim.press("A")                # take the stock's card: now a discard
    return sim


def test_a_live_hand_s_text_view_is_the_screen_s_own_text():
    sim = _at_a_discard()
    assert mismatches(sim) == []
    cards = [t for k, t, _, hidden in own(sim) if k == "card" and not hidden]
    assert len(cards) >= 11       # the hand and the pile's top at least


def test_a_card_the_view_drops_or_invents_is_a_mismatch(monkeypatch):
    sim = _at_a_discard()
    real = textscreen.read(sim.image())
    last = real[-1].split(" ")
    monkeypatch.setattr(textscreen, "read", lambda buf: real[:-1] + [" ".join(last[1:])])
    assert any("not in the view" in m for m in mismatches(sim))
    monkeypatch.setattr(textscreen, "read", lambda buf: real + ["A\u2660 A\u2665"])
    assert any("never drawn" in m for m in mismatches(sim))


def test_text_drawn_past_the_edge_is_a_mismatch(words_fit):
    sim = _at_a_discard()
    screen = sim.app.screen
    draw = screen.draw

    def clipped(c):
        draw(c)
        c.fill_rect(0, 40, 128, 6, 0)
        c.text(b"A LINE TOO LONG FOR THE PANEL, CLIPPED", 2, 40, 1)
    screen.draw = clipped
    screen.draw(sim.app.canvas)
    sim.app.display.show(sim.app.canvas.buf)
    assert any("LINE TOO LONG" in m for m in mismatches(sim))
    assert any("LINE TOO LONG" in f for f in words_fit.found)   # on purpose: seen, then let be
    words_fit.found[:] = []
