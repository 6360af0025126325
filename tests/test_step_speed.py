"""The short cuts of the engine's step give what the long way gives: the same draws of
chance, the same contexts, the same legality, the same multisets in the same order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit import Engine, load
from rulekit.engine import runtime
from rulekit.engine.core import _NO_CHANCE, _context, multisets
from rulekit.engine.runtime import Ctx, rand_face, shuffle_in_place
from rulekit.players.base import random_concrete

GAMES = Path(__file__).resolve().parent.parent / "games"


class _Subclassed(random.Random):
    """A generator that is not ``random.Random`` itself: it is asked in the usual way."""


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("size", [0, 1, 2, 7, 52, 130])
def test_shuffle_in_place_draws_as_random_shuffle(seed, size):
    mine, theirs = random.Random(seed), random.Random(seed)
    cards, expected = list(range(size)), list(range(size))
    shuffle_in_place(mine, cards)
    theirs.shuffle(expected)
    assert cards == expected
    assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(5))
def test_rand_face_draws_as_randint(seed):
    mine, theirs = random.Random(seed), random.Random(seed)
    sides = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 1000] * 5
    assert [rand_face(mine, s) for s in sides] == [theirs.randint(1, s) for s in sides]
    assert mine.getstate() == theirs.getstate()


def test_other_generators_are_asked_as_before():
    rng = _Subclassed(3)
    cards = list(range(20))
    shuffle_in_place(rng, cards)
    expected = list(range(20))
    _Subclassed(3).shuffle(expected)
    assert cards == expected
    assert not runtime._native(rng)


def test_a_context_made_without_init_has_every_default_of_ctx():
    engine = Engine(load(str(GAMES / "dtc.rules")))
    state, _ = engine.new_match(4, random.Random(2))
    made = _context(state, state.zones, state.counters, _NO_CHANCE)
    fresh = Ctx()
    for name in ("texts", "focus", "locals", "chosen", "chosen_zone", "events"):
        assert getattr(made, name) == getattr(fresh, name), name
    for name in Ctx.__slots__:
        if name != "winners":                      # set only once a match is over
            getattr(made, name)                    # every other slot is set


@pytest.mark.parametrize("game, players", [("dtc", 4), ("bluff", 4), ("coyote", 4), ("liars_dice", 2),
                                           ("skull", 3), ("lugenbeutel", 3)])
def test_is_legal_agrees_with_why_illegal(game, players):
    engine = Engine(load(str(GAMES / f"{game}.rules")))
    rng = random.Random(7)
    for seed in range(6):
        state, _ = engine.new_match(players, random.Random(seed))
        for _ in range(40):
            if state.is_terminal:
                break
            for option in engine.decision(state, False).options:
                for _ in range(4):
                    action = random_concrete(option, rng)
                    expected = engine.why_illegal(state, action) is None
                    assert engine.is_legal(state, action) == expected
            state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)), rng)


def _multisets_by_recursion(pool, low, high, largest_first=False):
    """The order :func:`multisets` promises: by size, then the most of the smallest kind first."""
    kinds = sorted(set(pool))

    def rec(i, left):
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        for c in range(min(pool.count(kinds[i]), left), -1, -1):
            for rest in rec(i + 1, left - c):
                yield (kinds[i],) * c + rest

    sizes = range(min(high, len(pool)), low - 1, -1) if largest_first else range(low, min(high, len(pool)) + 1)
    for size in sizes:
        yield from rec(0, size)


def test_multisets_order_is_unchanged():
    rng = random.Random(0)
    for _ in range(500):
        pool = tuple(rng.randrange(rng.randint(1, 6)) for _ in range(rng.randint(0, 8)))
        low, high = rng.randint(0, 3), rng.randint(0, 9)
        for largest_first in (False, True):
            assert list(multisets(pool, low, high, largest_first)) == \
                list(_multisets_by_recursion(pool, low, high, largest_first))
