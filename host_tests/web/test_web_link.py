"""Link play between two tabs of the web handheld (web; see conftest.py):
two pages of one browser context join over the BroadcastChannel (web.js,
webport.LinkPort), agree who deals, and play a whole hand by keys, each
tab's player choosing with the simple policy (tools/kit/ui_driver.py) and
pressing the keyboard keys that play it (tools/web/tabs_latency.py's
helpers, which also time the link). Both tabs show the same DEAL #
and end the hand with the same scores (each tab's own player is its seat
0: the second's match is the mirror of the first's).

A third tab that chooses LINK while the two play stays looking (told the
others are busy) and the pair's hand goes on untouched; a tab reloaded
after the hand gets its own handheld's saves back and takes the match up.
"""

import json

from tools.web.tabs_latency import choose_link, play_hand, py, ready


def test_two_tabs_link_and_play_a_hand_with_a_third_kept_out(browser, site):
    b = browser
    b.page(site)
    ready(b, 0)
    one = b.tab(site)
    ready(b, one)
    tabs = [0, one]
    # each tab is its own handheld: the second keeps saves of its own
    assert [b.eval("gin.handheld", tab=t) for t in tabs] == [1, 2]
    for t in tabs:
        choose_link(b, t)
    b.wait("gin.screen() === 'link_play'", 30000, tab=0)
    b.wait("gin.screen() === 'link_play'", 30000, tab=one)
    ids = [b.eval("gin.link.me", tab=t) for t in tabs]
    assert [b.eval("gin.link.state", tab=t) for t in tabs] == ["paired", "paired"]
    assert [b.eval("gin.link.peer", tab=t) for t in tabs] == ids[::-1]
    # who deals: the handshake's leader is P1 (role 0) on one tab only
    roles = sorted(py(b, "app.session.role", t) for t in tabs)
    assert roles == [0, 1]
    deal = [py(b, "app.match.hand.commit", t) for t in tabs]
    assert deal[0] == deal[1] and len(deal[0]) >= 4, deal
    shown = [py(b, "app.screen.fp", t) for t in tabs]     # the DEAL # on the table
    assert shown[0] == shown[1] == b"DEAL #" + deal[0].encode(), shown

    # a third tab: LINK, but the two are paired; it stays looking
    three = b.tab(site)
    ready(b, three)
    assert b.eval("gin.handheld", tab=three) == 3
    choose_link(b, three)
    b.wait("gin.link.state === 'looking' && gin.link.busyAt > 0", 10000, tab=three)

    # a stranger (id 1, below every tab's) claims each of the pair and
    # sends one of them bytes: both answer busy, the bytes are refused
    heard = b.eval("""(async () => {
      const ch = new BroadcastChannel("gin-rummy-link");
      const heard = [];
      ch.onmessage = (e) => { if (e.data.to === 1) heard.push(e.data.k + " " + e.data.from); };
      for (const id of %s) ch.postMessage({ k: "claim", from: 1, to: id });
      ch.postMessage({ k: "data", from: 1, to: %d, d: new Uint8Array([126, 68, 0]) });
      await new Promise((r) => setTimeout(r, 500));
      ch.close();
      return heard.sort();
    })()""" % (json.dumps(ids), ids[0]), tab=three)
    assert heard == sorted(["busy %d" % ids[0], "busy %d" % ids[1], "bye %d" % ids[0]]), heard

    def kept_out():
        assert b.eval("gin.link.state", tab=three) == "looking"
        assert b.eval("gin.screen()", tab=three) == "link"
        for t in tabs:
            assert b.eval("gin.link.peer", tab=t) == ids[1 - tabs.index(t)]

    moves = play_hand(b, tabs, watch=kept_out)
    kept_out()
    assert moves >= 2
    assert "other tabs are linked" in b.eval("document.getElementById('status').textContent",
                                             tab=three)
    b.close_tab(three)

    # the same hand, the same result, on both tabs
    logs = [py(b, "list(app.match.hands[0].log)", t) for t in tabs]
    assert len(logs[0]) == len(logs[1]) >= 4
    scores = [py(b, "app.match.scores", t) for t in tabs]
    assert scores[0] == scores[1][::-1], scores
    assert [py(b, "app.match.hands[0].commit", t) for t in tabs] == deal
    assert [py(b, "len(app.match.results)", t) for t in tabs] == [1, 1]
    for t in tabs:
        assert b.eval("gin.failed", tab=t) is None
        assert b.eval("gin.link.dropped", tab=t) == 0

    # tab 2 reloaded: its own saves (handheld 2) back, LINK takes the match up
    b.call("reload", tab=one)
    ready(b, one)
    assert b.eval("gin.handheld", tab=one) == 2
    choose_link(b, one)
    b.wait("['link_play', 'showdown', 'result'].includes(gin.screen()) && "
           "gin.link.state === 'paired'", 30000, tab=one)
    assert py(b, "app.match.scores", one) == scores[1]
    assert py(b, "list(app.match.hands[0].log)", one) == logs[1]
    assert py(b, "app.match.hands[0].commit", one) == deal[1]


def test_without_web_locks_the_open_tabs_still_keep_their_own_saves(browser, site):
    """A page that is no secure context (plain HTTP from another computer)
    has no navigator.locks: the open tabs say which handhelds they hold on
    a BroadcastChannel instead."""
    b = browser
    b.page(site, init="Object.defineProperty(Navigator.prototype, 'locks', "
                      "{ get: () => undefined, configurable: true });")
    ready(b, 0)
    assert b.eval("navigator.locks === undefined")
    tabs = [0, b.tab(site), b.tab(site)]
    for t in tabs[1:]:
        ready(b, t)
    # the two tabs opened together claim 2 and 3 in whichever order they start
    held = [b.eval("gin.handheld", tab=t) for t in tabs]
    assert held[0] == 1 and sorted(held) == [1, 2, 3], held
    b.call("reload", tab=tabs[1])
    ready(b, tabs[1])
    assert b.eval("gin.handheld", tab=tabs[1]) == held[1]    # its own back
    b.close_tab(tabs[0])
    b.call("reload", tab=tabs[2])
    ready(b, tabs[2])
    assert b.eval("gin.handheld", tab=tabs[2]) == held[2]    # its own, not the freed 1
    assert "Handheld %d" % held[2] in b.eval("document.getElementById('status').textContent",
                                             tab=tabs[2])
