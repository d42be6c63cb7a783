"""engine/ai/action_text.py's written-out table against the action codes."""
from engine.ai import ACTION_TEXT
from engine.hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK, action_code, action_text


def test_every_action_code_has_its_text():
    assert len(ACTION_TEXT) == 192
    for code in (DRAW_STOCK, DRAW_UPCARD, PASS):
        assert ACTION_TEXT[code] == action_text(code)
    for c in range(52):
        for base in (DISCARD, KNOCK):
            assert ACTION_TEXT[base + c] == action_text(base + c)
            assert action_code(ACTION_TEXT[base + c]) == base + c


def test_the_other_slots_are_empty():
    named = {DRAW_STOCK, DRAW_UPCARD, PASS}
    named.update(DISCARD + c for c in range(52))
    named.update(KNOCK + c for c in range(52))
    for code in range(192):
        if code not in named:
            assert ACTION_TEXT[code] is None, code
