"""What the App is given, all at once: App(Ports(...)) (firmware/app.py says
what each port is).

Cold: the port's entry point imports it to make the App and, on
MicroPython, lets it go at once (firmware.compat.unload): the App keeps
the ports, not this record of them.
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
