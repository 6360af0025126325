"""Chance a caller can supply: every chance event as a step with its outcomes.

The engine draws chance (die rolls, shuffles, random picks, random seats) from the object it
is given as ``rng``: usually a seeded ``random.Random``. A :class:`Chance` takes its place
when a caller wants to see each chance event and choose its outcome, as a search bot, an
adapter to another framework or a cross-check against another implementation does:

>>> chance = Chance(lambda event: event.outcomes[0])      # every die shows 1, …
>>> state, events = engine.new_match(2, chance)            # doctest: +SKIP

Each event is a :class:`ChanceEvent`: ``kind`` ("die", "seat", "card"), the possible
``outcomes`` and their ``probabilities``. A shuffle is drawn card by card, as a dealer deals:
one "card" event per position, from the top card down, among the kinds still to place, each
with probability proportional to its copies left (cards of one kind are interchangeable), so
the cards dealt first are drawn first. A pick of N random cards is the first N such draws. Without a chooser, outcomes are drawn from
``rng`` with the stated probabilities.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

import attrs


@attrs.frozen
class ChanceEvent:
    """One chance step: ``kind`` is "die" (a face 1..sides), "seat" (a seat index, for
    ``seat NAME = random``) or "card" (the card kind drawn next); ``outcomes`` and
    ``probabilities`` are aligned tuples (the probabilities sum to 1)."""

    kind: str
    outcomes: tuple
    probabilities: tuple


class Chance:
    """A source of chance that asks ``choose(event) -> outcome`` at every chance event.

    Args:
        choose: returns one of ``event.outcomes``; None draws from ``rng``.
        rng: the generator used when ``choose`` is None (default: a fresh one).

    Raises:
        ValueError: (from the engine's call) ``choose`` returned something that is not one
            of the event's outcomes.
    """

    def __init__(self, choose: Callable[[ChanceEvent], object] | None = None,
                 rng: random.Random | None = None):
        self.choose = choose
        self.rng = rng if rng is not None else random.Random()
        #: every event asked so far, with its outcome, in order
        self.history: list[tuple[ChanceEvent, object]] = []

    def _pick(self, event: ChanceEvent):
        if self.choose is None:
            outcome = self.rng.choices(event.outcomes, event.probabilities)[0]
        else:
            outcome = self.choose(event)
            if outcome not in event.outcomes:
                raise ValueError(f"{outcome!r} is not an outcome of this {event.kind} event "
                                 f"(the outcomes are {', '.join(map(repr, event.outcomes))})")
        self.history.append((event, outcome))
        return outcome

    def _uniform(self, kind: str, outcomes) -> object:
        outcomes = tuple(outcomes)
        p = 1 / len(outcomes)
        return self._pick(ChanceEvent(kind, outcomes, (p,) * len(outcomes)))

    # the part of random.Random's interface the engine uses
    def randint(self, a: int, b: int) -> int:
        """A die roll: a face from ``a`` to ``b``, uniform."""
        return self._uniform("die", range(a, b + 1))

    def randrange(self, n: int) -> int:
        """A random seat: 0..n-1, uniform."""
        return self._uniform("seat", range(n))

    def _draw(self, left: Counter):
        kinds = tuple(sorted(left))
        total = sum(left.values())
        kind = self._pick(ChanceEvent("card", kinds, tuple(left[k] / total for k in kinds)))
        left[kind] -= 1
        if not left[kind]:
            del left[kind]
        return kind

    def shuffle(self, cards: list) -> None:
        """Shuffle in place, drawn card by card from the top (the last index) down to the
        bottom (index 0), as a dealer deals them."""
        left = Counter(cards)
        for i in range(len(cards) - 1, -1, -1):
            cards[i] = self._draw(left)

    def sample(self, cards, k: int) -> list:
        """``k`` different cards of ``cards``, drawn one at a time."""
        left = Counter(cards)
        return [self._draw(left) for _ in range(min(k, len(cards)))]


__all__ = ["Chance", "ChanceEvent"]
