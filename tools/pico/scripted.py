"""A scripted hand on the emulated Pico and in the simulator, frame for frame.

The simulator (tools/sim/simulator.py, `--keys` with a seed and its fake clock)
and the board (tools/pico/onboard/keyscript.py: the same stepping,
firmware/keyscript.py, on the real driver, bus and storage) play the same presses; each returns the
pictures of every frame that put bytes on the bus, in order.
"""


from tools.sim import simulator

# A hand from the title: NEW MATCH, then draws, discards and cursor moves,
# the menu opened and closed, a hint, until the AI has moved several times.
HAND = "A A R A L L A A R R A B B A LB A R A A"


class _Recording(simulator.Sim):
    def _first_frame(self, png_dir):
        self.recorded = []
        super()._first_frame(png_dir)
        if self.app.last_bytes:
            self.recorded.append(self.image())

    def step(self):
        w = super().step()
        if self.app.last_bytes:
            self.recorded.append(self.image())
        return w


def simulator_frames(seed, seq=HAND):
    sim = _Recording(seed=seed)
    sim.settle()
    sim.keys(seq)
    return dedup(sim.recorded), sim.screen


def device_frames(pico, seed, seq=HAND, timeout_ms=600000):
    """Play `seq` on a board at its idle REPL with keyscript.mpy on it;
    (pictures of the frames, screen at the end)."""
    mark = len(pico.chunks)
    for k in seq.split():
        if simulator.bad_key(k):
            raise ValueError(simulator.bad_key(k))
    code = "import keyscript\nkeyscript.main(%d, %r)\n" % (seed, seq)
    out, err = pico.exec(code, timeout_ms=timeout_ms)
    if err:
        raise AssertionError("keyscript failed on the board:\n" + err)
    end = [ln.split() for ln in out.splitlines() if ln.startswith("@end")]
    pico.run(20)  # the last burst is closed
    ready = [c[1] for c in pico.chunks[mark:] if "@ready" in c[2]][0]
    before = [f.image for f in pico.frames if f.t1 < ready][-1:]
    images = dedup(before + [f.image for f in pico.frames if f.t0 > ready])[len(before):]
    return images, end[-1][1] if end else None


def dedup(images):
    """The pictures with consecutive repeats left out (a contrast command
    is a bus transaction that changes no pixel)."""
    out = []
    for im in images:
        if not out or out[-1] != im:
            out.append(im)
    return out
