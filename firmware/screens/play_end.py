"""The play screen once the hand is over (M_END): how it ended (YOU KNOCK!,
STOCK RAN OUT...) for a readable pause (A cuts it short), then the
showdown, or the result of a drawn hand (R11, R14, V3). The hand is
counted once (statistics, save, game record), also after a resume.

A mixin of firmware.screens.play.Play.
"""

from firmware import buttons as btn
from firmware.buttons import ticks_diff
from firmware.screens.play_modes import M_END, MARK_MS


class HandEnd:
    t_gin = b"CPU GOES GIN!"      # the other player's (a link match names the other board's)
    t_knocks = b"CPU KNOCKS!"
    def _hand_over(self, now):
        m = self.app.match
        res = self._last_result()
        self.mode = M_END
        self.end_due = now + self.app.settings.speed_ms() + 600
        self._set_end_text(res)
        if self._counted is not m.hand:
            self._counted = m.hand
            self._count_hand(res)
            self.mark = True
            self.mark_until = now + MARK_MS
        if res.kind == "gin":
            self.app.play_sound("gin")
        elif res.kind != "draw":
            self.app.play_sound("knock")

    def _last_result(self):
        """The HandResult of the hand just ended."""
        return self.app.match.results[-1]

    def _count_hand(self, res):
        """Count the ended hand (statistics, save, game record) once."""
        self.app.session.hand_over(res)

    def _set_end_text(self, res):
        if res.kind == "draw":
            stop = self.app.match.rules.stop_at
            if res.why != "stock":
                self.end_kind = b"HAND IS DRAWN"
            elif stop:
                # V3: the hand ends with cards still in the stock
                self.end_kind = ("STOCK DOWN TO %d" % stop).encode()
            else:
                self.end_kind = b"STOCK RAN OUT"
        elif res.kind == "gin":
            self.end_kind = b"YOU GO GIN!" if res.knocker == 0 else self.t_gin
        else:
            self.end_kind = b"YOU KNOCK!" if res.knocker == 0 else self.t_knocks

    def _end_event(self, ev, now):
        if ev == btn.A:
            self.end_due = now
        return False

    def _end_tick(self, now):
        """ms left of the pause; at its end, on to the showdown or result."""
        left = ticks_diff(self.end_due, now)
        if left > 0:
            return left
        res = self._last_result()
        self.app.go(self.result_screen if res.kind == "draw" else self.showdown_screen)
        return 0
