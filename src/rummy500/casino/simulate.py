"""Monte Carlo check of the exact analysis: many rounds of the real game played by basic strategy.

Each round is dealt from a full shoe (a continuous shuffler: the cards of a round go
back before the next), which is what the exact analysis assumes. The result is the
mean net per initial bet with its 95% normal interval. Chunks of rounds are seeded
from the run's seed and the chunk number, so a run gives the same figures on any
number of worker processes. Seeds are 0 or more (``random.Random`` would deal a
negative seed's cards for its absolute value).
"""

from __future__ import annotations

import math
import random
import signal
from dataclasses import dataclass

from rummy500.casino.cards import Card, Shoe
from rummy500.casino.game import Round
from rummy500.casino.rules import CasinoRules
from rummy500.casino.strategy import Chart, advise

__all__ = ["MIN_ROUNDS", "ContinuousShoe", "SimResult", "play_rounds", "simulate"]

CHUNK = 50_000

#: The fewest rounds whose 95% interval is compared with the exact edge: below this the
#: normal interval means little (and one round has none at all).
MIN_ROUNDS = 1000


class ContinuousShoe(Shoe):
    """A shoe whose dealt cards all go back (and are reshuffled) after every round."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        super().__init__(decks, rng, penetration=1.0)
        self._left = len(self.cards)

    def shuffle(self) -> None:
        """Return every card."""
        super().shuffle()
        self._left = len(self.cards)

    def draw(self) -> Card:
        """A uniformly random card among those not yet dealt this round."""
        i = int(self.rng.random() * self._left)  # uniform to within 2**-53
        self._left -= 1
        cards = self.cards
        cards[i], cards[self._left] = cards[self._left], cards[i]
        return cards[self._left]

    def collect(self) -> None:
        """Put the round's cards back."""
        self._left = len(self.cards)

    @property
    def needs_shuffle(self) -> bool:
        """Never: every round starts from the full shoe."""
        return False


@dataclass
class SimResult:
    """Totals of a simulation run.

    Attributes:
        rounds: rounds played.
        total: sum of the net results (per unit initial bet).
        total_sq: sum of their squares.
        bonus: sum of the bonuses paid.
    """

    rounds: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    bonus: float = 0.0

    def add(self, other: SimResult) -> None:
        """Merge another run into this one."""
        self.rounds += other.rounds
        self.total += other.total
        self.total_sq += other.total_sq
        self.bonus += other.bonus

    @property
    def mean(self) -> float:
        """The player's mean result per round."""
        return self.total / self.rounds

    @property
    def sd(self) -> float:
        """The standard deviation of one round's result."""
        return math.sqrt(max(self.total_sq / self.rounds - self.mean**2, 0.0))

    @property
    def edge(self) -> float:
        """The house edge in percent."""
        return -100 * self.mean

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the house edge, in percentage points."""
        return 100 * 1.959964 * self.sd / math.sqrt(self.rounds)

    @property
    def comparable(self) -> bool:
        """Whether the interval means something: at least :data:`MIN_ROUNDS` rounds, not all alike."""
        return self.rounds >= MIN_ROUNDS and self.sd > 0

    def agrees(self, exact: float) -> bool | None:
        """Whether the exact house edge (in percent) is inside the 95% interval (``None``: not :attr:`comparable`)."""
        if not self.comparable:
            return None
        return abs(self.edge - exact) <= self.half_width


def play_rounds(rules: CasinoRules, chart: Chart, rounds: int, seed: int) -> SimResult:
    """Play ``rounds`` rounds by basic strategy from a continuous shuffler seeded with ``seed``.

    Raises:
        ValueError: a negative seed or number of rounds.
    """
    _check_seed(seed)
    _check_rounds(rounds)
    rng = random.Random(seed)
    shoe = ContinuousShoe(rules.decks, rng)
    res = SimResult()
    for _ in range(rounds):
        r = Round(rules, shoe, 1)
        up = r.up_card.value
        while not r.finished:
            h = r.hands[r.active]
            r.act(advise(chart, h.cards, up, r.legal_actions(), not h.from_split))
        net = r.net
        res.rounds += 1
        res.total += net
        res.total_sq += net * net
        res.bonus += r.bonus_paid
        shoe.collect()
    return res


def _check_seed(seed: int) -> None:
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, not {seed}")


def _check_rounds(rounds: int) -> None:
    if rounds < 0:  # (range() would play none, and simulate() a negative count of chunks)
        raise ValueError(f"the number of rounds must be 0 or more, not {rounds}")


def _ignore_ctrl_c() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk(args: tuple[CasinoRules, dict, int, int]) -> SimResult:
    rules, chart, rounds, seed = args
    return play_rounds(rules, Chart.from_dict(chart), rounds, seed)


def simulate(
    rules: CasinoRules, chart: Chart, rounds: int, seed: int = 0, workers: int = 1, chunk: int = CHUNK
) -> SimResult:
    """Play ``rounds`` rounds in chunks of ``chunk`` (on ``workers`` processes when more than one).

    The same seed and chunk size give the same result whatever ``workers`` is. On
    Ctrl-C (``KeyboardInterrupt`` in this process) the workers are terminated and the
    interrupt goes on to the caller.

    Raises:
        ValueError: a negative seed or number of rounds, or a chunk of fewer than one round.
    """
    _check_seed(seed)
    _check_rounds(rounds)
    if chunk < 1:
        raise ValueError(f"a chunk must hold at least 1 round, not {chunk}")
    sizes = [chunk] * (rounds // chunk) + ([rounds % chunk] if rounds % chunk else [])
    jobs = [(rules, chart.to_dict(), n, seed * 1_000_003 + i) for i, n in enumerate(sizes)]
    total = SimResult()
    if workers > 1 and len(jobs) > 1:
        import multiprocessing

        with multiprocessing.Pool(workers, initializer=_ignore_ctrl_c) as pool:
            for part in pool.imap(_chunk, jobs):
                total.add(part)
    else:
        for job in jobs:
            total.add(_chunk(job))
    return total
