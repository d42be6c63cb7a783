"""A whole link match between two emulated Picos (tools/pico/two_picos.py):
both boards boot the frozen build (the .mpy bundle on the stock firmware
has no room for the link: OUT OF MEMORY at LINK, docs/LINK.md), LINK is
chosen on each title, the
boards find each other over the cable (UART1, GP8 to GP9 both ways) and
a simple player on each board, reading only its panel, plays the match to
its end. Both boards must show the same DEAL # every hand, the same
totals after every hand and the same final score, seats mirrored.

The match is to 50 points (SETTINGS > MATCH TO, saved on both boards
before they boot): a match to 100 takes about four times as long. Slow:
a few minutes of host time for about a minute of emulated play."""

from tools.pico import two_picos as lp

TARGET = 50


def test_two_boards_play_a_whole_link_match_over_the_cable(kit, frozen):
    fs = lp.h.fs_image(lp.settings_files(TARGET))
    with lp.LinkPair(frozen, kit.bootrom, fs=(fs, fs)) as pair:
        pair.boot()
        a, b = lp.play_link_match(pair, limit_s=900)
        outs = [x.output() for x in pair.boards]
        wire = pair.wire
    for out in outs:
        assert "Traceback" not in out, out[-2000:]
    # every hand dealt the same on both boards
    hands = int(lp._after(lp._line(a.final, " OF "), " OF "))
    assert hands >= 1
    assert sorted(a.deals) == sorted(b.deals) == list(range(1, hands + 1)), (a.deals, b.deals)
    assert a.deals == b.deals
    # the same totals after each hand, and at the end, each board's own first
    assert sorted(a.results) == sorted(b.results) == list(range(1, hands + 1))
    for n in a.results:
        assert a.results[n] == b.results[n][::-1], (n, a.results, b.results)
    mine, theirs = a.score()
    assert (theirs, mine) == b.score()
    assert max(mine, theirs) >= TARGET
    assert (mine, theirs) == a.results[hands]
    # ("YOU WIN!" on one board, "P1 WINS" or "P2 WINS" on the other)
    assert ("YOU WIN!" in a.final) != ("YOU WIN!" in b.final)
    # both ways of the cable carried the match
    assert all(w["received"] > 0 and w["baud"] == wire[0]["baud"] for w in wire), wire
