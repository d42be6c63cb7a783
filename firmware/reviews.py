"""The reviews of the player's hands in the match in play, made between frames.

Every finished hand of a two-player match gets its review (engine/review.py:
at each of the player's decisions, the hard level's choice from the view the
player had then, against the move played). App.step() hands this module the
time left after a frame (after_frame): work() runs review steps while the time spent
and the longest step seen so far fit in SLICE_MS (at least one step), and
says whether any work is left, so the buttons wait at most SLICE_MS or one
step, whichever is longer, whatever screen shows. A review allocates only
when it starts.

The hands are reviewed in order by the hard player the hint asks
(Life.hinter, firmware/matchlife.py; it learns the opponent's knock
habit from the earlier hands, as the hard level does): on the Pico's heap
one hard player fewer counts. A hint asked between two review steps only makes the next step
read its view again. After a resume the finished hands are reviewed again
from the first, so the match's summary covers every hand. A hand's review
is let go once counted, keeping only what its screen shows. Once the last
hand of a finished match is reviewed the summary goes into the statistics
(Stats.record_review), once.
"""

from firmware.compat import const, heap_free, collect
from firmware.buttons import ticks_diff
from engine import Match

SLICE_MS = const(40)     # review work per frame, at most (or one step)
# A hand's review starts only with this much heap free (where it is
# measured). The first one loads its code and the reviewer: about 14 KB
# from the .mpy bundle, which then had 10 KB left and ran out at the next
# screen; from the bundle (at most about 25 KB free at a hand's end) hands
# are not reviewed. The frozen build has about 150 KB free.
REVIEW_FREE = const(40960)
SLICE_STEPS = const(64)  # ... and at most this many steps (a clock that stands still)
SEAT = const(0)          # the player's seat


def default_review(match, index, player):
    from engine.review import Review
    return Review(match, index, SEAT, player)


def short_of_memory():
    """Too little heap for a hand's review and the screens after it? On
    MicroPython, after a collection: the .mpy bundle keeps the game's code on
    the heap, and a review (its modules, a hard player, the review) would
    leave the next screen no room. Never on CPython. A collection only
    when the heap looks short: garbage may be all that is missing."""
    free = heap_free()
    if free is None or free >= REVIEW_FREE:
        return False
    collect()
    return heap_free() < REVIEW_FREE


def default_reviewer(seed):
    from engine.ai import Player
    return Player("hard", seed)


def is_reviewer(player):
    """Can `player` review: a hard engine.ai Player itself (not a stand-in
    or a wrapper that only passes its calls on)?"""
    from engine.ai import Player
    return type(player) is Player and player.level == "hard"


class Reviews:
    """The match's reviews: the one being made, the summary so far."""

    def __init__(self, make_review=None, make_reviewer=None, short=None):
        """make_review(match, index, player): a hand's review (default
        engine.review.Review of seat 0); make_reviewer(): the hard player
        that reviews (default: a new engine.ai Player); short(): too
        little memory to start a review (default short_of_memory)."""
        self.make_review = make_review or default_review
        self.make_reviewer = make_reviewer or (lambda: default_reviewer(0))
        self.short = short or short_of_memory
        self.match = None
        self.player = None
        self.cur = None          # the review being made (None once counted)
        self.next = 0            # the next hand to review (index)
        self.absorbed = True     # cur is counted in the summary
        self.last = -1           # the last hand reviewed (index) ...
        self.last_n = 0          # ... its decisions ...
        self.last_recs = []      # ... and the records it shows
        self.n = 0               # the match's decisions reviewed so far
        self.total = 0           # ... their summed cost (x16)
        self.worst = None        # the costliest: (cost, hand number, record)
        self.counted = False     # the summary went into the statistics
        self.step_ms = 0         # the longest review step seen (ms)
        self.lost = -1           # the last hand whose review ran out of memory

    def follow(self, match):
        """Review `match` (another than before: start again; a finished
        match's review is first made and counted)."""
        if match is self.match:
            return
        old = self.match
        if old is not None and old.winner is not None and not self.counted \
                and self._reviewable():
            return
        self.match = match
        self.player = None
        self.cur = None
        self.next = 0
        self.absorbed = True
        self.last = -1
        self.last_n = 0
        self.last_recs = []
        self.n = 0
        self.total = 0
        self.worst = None
        self.counted = False
        self.lost = -1

    def after_frame(self, match, clock, stats, saving):
        """App.step(), its frame shown: follow `match` and work on its
        reviews for a slice of time; the finished match's summary goes into
        `stats` once it is all made, and into the game save
        (saving.save_match()). True while work is left."""
        self.follow(match)
        if not self.pending():
            return False
        more = self.work(clock)
        if self.count(stats):
            saving.save_match()          # the statistics, in the game save
        return more

    def _reviewable(self):
        """A two-player match (the V6 box game is not reviewed)."""
        return isinstance(self.match, Match)

    def pending(self):
        """Is there review work left for the match followed?"""
        if not self._reviewable():
            return False
        if self.cur is not None and not self.cur.done:
            return True
        return not self.absorbed or self.next < len(self.match.results)

    def work(self, clock):
        """Review steps while another (as long as the longest so far) ends
        within SLICE_MS; True while work is left."""
        if not self._reviewable():
            return False
        try:
            return self._work(clock)
        except MemoryError:
            self._out_of_memory()
            return self.pending()

    def _out_of_memory(self):
        """The heap could not hold a hand's review (the .mpy bundle is
        tight): that hand is left unreviewed, said on its review screen,
        and the game and the next hands' reviews go on."""
        cur = self.cur
        if cur is not None and not cur.done:
            index = cur.index
        else:                    # making the review itself failed
            index = self.next
            self.next += 1
        self.player = None
        self._shown(index, 0, [])
        self.lost = index
        collect()

    def _work(self, clock):
        t0 = clock()
        steps = 0
        while True:
            cur = self.cur
            if cur is None or cur.done:
                if cur is not None and not self.absorbed:
                    self._absorb(cur)
                if self.next >= len(self.match.results):
                    return False
                if self.short():
                    raise MemoryError("too little memory free for a review")
                if self.player is None:
                    self.player = self.make_reviewer()
                self.cur = self.make_review(self.match, self.next, self.player)
                self.next += 1
                self.absorbed = False
            a = clock()
            self.cur.step()
            now = clock()
            d = ticks_diff(now, a)
            if d > self.step_ms:
                self.step_ms = d
            steps += 1
            if steps >= SLICE_STEPS or ticks_diff(now, t0) + self.step_ms > SLICE_MS:
                return self.pending()

    def _shown(self, index, n, recs):
        """Hand `index` is done with (reviewed or not): what its screen
        shows, n decisions and their records; no review in the making."""
        self.absorbed = True
        self.cur = None
        self.last = index
        self.last_n = n
        self.last_recs = recs

    def _absorb(self, r):
        self._shown(r.index, r.n, [r.record(i) for i in r.shown()])
        self.n += r.n
        self.total += r.total
        w = r.worst()
        if w >= 0:
            rec = r.record(w)
            c = r.cost[w]
            if self.worst is None or c > self.worst[0]:
                self.worst = (c, r.index + 1, rec)

    # -- what the screens read ------------------------------------------------
    def review_of(self, index):
        """(decisions reviewed, the records shown) of hand `index` once its
        review is made and counted, else None."""
        if self.last == index and self.cur is None:
            return self.last_n, self.last_recs
        return None

    def progress(self, index):
        """Percent of hand `index`'s review made."""
        r = self.cur
        if r is None:
            return 100 if self.last >= index else 0
        if r.index < index:
            return 0
        if r.index > index:
            return 100
        return r.progress() if r.progress() < 100 else 99

    def match_done(self):
        """Every finished hand of the match is reviewed and counted."""
        return self._reviewable() and not self.pending()

    def count(self, stats):
        """The finished match's summary into the statistics, once; True
        when it was counted now."""
        m = self.match
        if self.counted or m is None or m.winner is None or not self.match_done():
            return False
        self.counted = True
        stats.record_review(self.n, self.total)
        return True
