"""A stand-in for engine.review.Review, for golden pictures that must not
move when the AI's evaluator changes (the real review is checked by
test_ui_review.py). It reads the surface the screens read: done, step(),
progress(), n, total, cost, shown(), worst(), record(i), index.

CannedReview: in every hand but the second, the player's first three
discards "cost" 7, 4 and 1 points against "the card after it in the hand";
the second hand has nothing to show. One step per move of the hand.
HeldReview: never gets past 40% (a review still being made).
"""
from engine.hand import DISCARD, KNOCK, TOOK
from engine.review import REC_LEN


class CannedReview:
    COSTS = (112, 64, 16)

    def __init__(self, match, index, player=None):
        self.index = index
        h = match.hands[index]
        self.moves = len(h.log)
        self.j = 0
        self.recs = []
        self.cost = []
        turn = 0
        for i in range(len(h.log)):
            if h.log_seat[i] != 0:
                continue
            code = h.log[i]
            if code < DISCARD or code >= TOOK:
                turn += 1
                continue
            if code >= KNOCK or index == 1 or len(self.recs) == 3:
                continue
            c = code - DISCARD
            other = (c + 1) % 52
            cost = self.COSTS[len(self.recs)]
            self.recs.append(bytes((turn, code, DISCARD + other, 255, 0, 0, 0,
                                    cost >> 8, cost & 255)))
            self.cost.append(cost)
        assert all(len(r) == REC_LEN for r in self.recs)
        self.n = turn * 2
        self.total = sum(self.cost)

    @property
    def done(self):
        return self.j >= self.moves

    def step(self):
        self.j += 1
        return not self.done

    def progress(self):
        return 100 if self.done else self.j * 100 // self.moves

    def shown(self):
        return list(range(len(self.recs)))

    def worst(self):
        return 0 if self.recs else -1

    def record(self, i):
        return self.recs[i]


class HeldReview(CannedReview):
    def step(self):
        return True

    def progress(self):
        return 40

    @property
    def done(self):
        return False


def canned(match, index, player):
    return CannedReview(match, index, player)


def held(match, index, player):
    return HeldReview(match, index, player)
