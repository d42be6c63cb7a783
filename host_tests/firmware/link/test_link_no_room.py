"""LINK on a board with too little heap for the link's code (the .mpy
bundle on stock MicroPython): the game says so and goes on, the match
against the CPU as it was."""

from firmware.link import linkmatch
from tools.kit.memstorage import MemStorage
from tools.sim.simulator import Sim
from tools.kit.ui_driver import title_to
from tools.link.fakelink import SilentPort
from linkpair import link_of


def test_link_without_room_says_so_and_the_cpu_match_stays(monkeypatch):
    sim = Sim(seed=3, storage=MemStorage(), link_port=SilentPort)
    sim.settle()
    sim.press("A")                               # NEW GAME: a match against the CPU
    cpu = sim.app.session
    cpu_match = sim.app.match
    assert sim.screen == "play" and cpu_match is not None
    sim.press("B")
    sim.app.go("title")
    sim.settle()
    real = linkmatch.LinkSession.save

    def no_room(self):
        raise MemoryError("memory allocation failed")
    monkeypatch.setattr(linkmatch.LinkSession, "save", no_room)   # late in the set-up
    title_to(sim, "link")
    assert sim.screen == "message"
    words = " ".join(x if isinstance(x, str) else x.decode() for x in sim.app.screen.lines)
    assert "Not enough memory for link play" in words and "uf2" in words
    assert link_of(sim.app) is None and sim.app.session is cpu and sim.app.match is cpu_match
    assert cpu.player is not None
    sim.press("A")
    assert sim.screen == "title"
    monkeypatch.setattr(linkmatch.LinkSession, "save", real)
    title_to(sim, "link", False)                 # room again: LINK works
    sim.run(100, 5)
    assert sim.screen == "link" and link_of(sim.app) is not None
