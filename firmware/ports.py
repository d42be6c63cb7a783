"""What the App is given, all at once: App(Ports(...)) (firmware/app.py says
what each port is).

Cold: the port's entry point imports it to make the App and, on
MicroPython, lets it go at once (firmware.compat.unload): the App keeps
the ports, not this record of them.

The storage port, which three back-ends keep: firmware.saves.storage.Storage
(files on the board's littlefs flash; the web page's and the simulator's
files too), circuitpython/cpnvm.NvmStorage (CircuitPython's nvm sector)
and tools/kit/memstorage.MemStorage (memory: the simulator, the tests and
the benches). host_tests/test_storage_contract.py runs every clause on
each of them.

  load(name, decode=None) -> (value, message)
      Never raises. value: the newest save of `name` (bytes, or what
      decode(payload) returns), or None when there is none; message: None,
      or words for the player when something happened to the save.
  save(name, payload) -> bool
      payload (bytes) becomes the newest save of `name`: True when it was
      written (False: it equals the save there, nothing written). Raises
      OSError when refused; the save before it still loads.
  remove(name)
      The save of `name` is gone (load gives (None, None)); nothing to
      remove is not an error. The game removes its match saves ("game",
      "link"), never the settings, which the nvm does not remove.
  outcome   {name: firmware.saves.storage DAMAGED, NEWER, RESUMED or KEPT}: what
            the last load of that name found, when it was not a plain
            save or nothing (no entry).
  kept      names a load could not read now (decode ran out of memory):
            their saves stay as they are and save() refuses them (OSError)
            until the next start, which reads them again.
  damage    the technical cause of every damage found since the start
            (the serial console).

Names: "settings" (firmware/settings.py) and "game" (firmware/saves/gamesave.py:
the statistics and the match) on every back-end; a link match's "link"
(firmware/link/linkmatch.py) where there is a link; "stats" and "match", an
older firmware's, are loaded once and removed.

Damage: a payload that decode refuses (raising anything but MemoryError)
is set aside: that load gives None with a message, outcome DAMAGED (or
RESUMED when an older good save is given instead), and that start never
gives it again; a save of the name then lands as any other. A save cut by
a power cut leaves, at the next start, the save before it or the new one
for every name: never nothing, never damage, and nothing said (the Pico's
littlefs files), or said only when the nvm's rewrite was cut and its copy
on the drive resumed (memory has no power cut).
"""


class Ports:
    def __init__(self, display, buttons, clock, storage, sound=None, seed=None,
                 player_factory=None, review_factory=None, entropy=None, link_port=None,
                 records=None, board_parts=None):
        self.display = display
        self.buttons = buttons
        self.clock = clock
        self.storage = storage
        self.sound = sound
        self.seed = seed
        self.player_factory = player_factory
        self.review_factory = review_factory
        self.entropy = entropy
        self.link_port = link_port
        self.records = records
        self.board_parts = board_parts
