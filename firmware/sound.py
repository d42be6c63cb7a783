"""Short sounds for an optional piezo buzzer, played without waiting.

    snd = Sound(tone, clock_ms)   # tone(hz) sounds the buzzer, tone(0) stops it
    snd.play("draw")              # starts the first note and returns at once
    snd.update(now)               # often (the button sampler's 2 ms timer):
                                  # ends a note on time, starts the next

The app calls play(name) for 'draw' 'discard' 'knock' 'gin' 'win' 'lose'
'error' unless the player muted the sound (SETTINGS > SOUND). A new sound
cuts the one playing. update() allocates nothing, so it may run in a timer
callback. No hardware here: firmware/pico/pico.py supplies tone() from a PWM pin
(board.BUZZER_PIN); the simulator prints the names instead (--sound).
"""

from firmware.compat import const
from firmware.buttons import ticks_diff

_TICKS_MASK = const(0x3FFFFFFF)

# name -> (hz, ms, hz, ms, ...); hz 0 is a rest. Short: a sound must never
# hold up the game or annoy on the hundredth hand.
TUNES = {
    "draw": (1568, 25),
    "discard": (1047, 30),
    "knock": (659, 60, 0, 40, 659, 60),
    "gin": (784, 60, 988, 60, 1175, 60, 1568, 160),
    "win": (523, 90, 659, 90, 784, 90, 1047, 240),
    "lose": (392, 140, 330, 140, 262, 260),
    "error": (196, 110),
}


class Sound:
    def __init__(self, tone, clock_ms, tunes=None):
        self._tone = tone
        self._clock = clock_ms
        self.tunes = TUNES if tunes is None else tunes
        self.playing = False
        self.last = None          # name of the last sound started
        self._notes = ()
        self._i = 0
        self._until = 0

    def play(self, name):
        notes = self.tunes.get(name)
        if not notes:
            return
        self.playing = False      # the timer leaves the tune alone meanwhile
        self.last = name
        self._notes = notes
        self._i = 0
        self._start(self._clock())
        self.playing = True

    def _start(self, now):
        i = self._i
        self._tone(self._notes[i])
        self._until = (now + self._notes[i + 1]) & _TICKS_MASK

    def update(self, now):
        """End the note once its time is up; start the next or fall silent."""
        if not self.playing or ticks_diff(now, self._until) < 0:
            return
        self._i += 2
        if self._i >= len(self._notes):
            self.playing = False
            self._tone(0)
            return
        self._start(now)

    def stop(self):
        self.playing = False
        self._tone(0)
