"""Determinization: states consistent with one seat's view, for bots that reason by sampling.

The unknown cards are the declared deck minus every card the seat can see (its own zones,
open zones, cards it was shown). They are dealt at random into the hidden zones, each
getting as many cards as the view says it holds; zones whose size is hidden share the rest.
Hidden dice (the view says how many lie in each zone) show faces drawn uniformly.
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from itertools import chain, repeat, starmap
from typing import Callable

from ..engine import Engine, State, View
from .base import sample


def sample_state(engine: Engine, view: View, rng: random.Random) -> State:
    """One state that agrees with everything ``view`` shows.

    Raises:
        ValueError: the view is inconsistent with the deck (a bug, never the player's fault).
    """
    return sampler(engine, view)(rng)


def sampler(engine: Engine, view: View) -> Callable[[random.Random], State]:
    """A function that draws states agreeing with ``view`` (as :func:`sample_state` does)
    from the generator it is given; what the view fixes is worked out once, here, so that
    many samples of one view cost little more than their shuffles. Its ``zones(rng, slots)``
    deals only some zones ({slot: cards}, the same distribution as a whole state's), for a
    question about those zones alone: it draws as many cards as they take, not the deck.

    Raises:
        ValueError: the view is inconsistent with the deck (a bug, never the player's fault).
    """
    n = view.players
    unknown = dict(_deck_counts(engine, n))     # kind -> how many are unseen, in deck order
    dice = _die_kinds(engine)
    fixed: list = [None] * len(view.zones)
    pinned: dict[int, list] = {}
    slots_by_key = {}

    def unseen(cards) -> None:
        for k in cards:
            if k not in dice:
                unknown[k] = unknown.get(k, 0) - 1
    for slot, (name, owner, count, cards) in enumerate(view.zones):
        slots_by_key[(name, owner)] = slot
        if cards is not None:
            fixed[slot] = tuple(cards)
            unseen(cards)
    seen: dict[int, Counter] = {}
    for name, owner, cards in view.known:
        slot = slots_by_key[(name, owner)]
        if fixed[slot] is None:
            # several looks at one zone: each showed some of its cards
            seen[slot] = seen.get(slot, Counter()) | Counter(cards)
    for slot, cards in seen.items():
        pinned[slot] = list(cards.elements())
        unseen(pinned[slot])
    if any(v < 0 for v in unknown.values()):
        raise ValueError("the view shows more cards than the deck holds")
    unknown_cards = tuple(chain.from_iterable(starmap(repeat, unknown.items())))
    # the hidden zones in order: (slot, the cards known to be there, the dice counts or
    # None, how many it holds); zones whose size is hidden share what is left
    plan = []
    hidden_sizes = []
    for slot, (name, owner, count, cards) in enumerate(view.zones):
        if fixed[slot] is not None:
            continue
        if count is None:
            hidden_sizes.append(slot)
            continue
        plan.append((slot, pinned.get(slot, []), view.dice[slot] if view.dice and view.dice[slot] else None, count))
    fields: dict = {}             # the rest of a whole state, made at the first draw

    def draw(rng: random.Random) -> State:
        if not fields:
            fields.update(engine.view_fields(view))
        zones = list(fixed)
        pool = list(unknown_cards)
        _shuffle(pool, rng)
        at = 0
        for slot, have, dice, count in plan:
            if dice is not None:
                have = have + _roll_unseen(engine, dice, have, rng)
            need = count - len(have)
            take = pool[at:at + need]
            at += need
            if have:            # the pool is shuffled already: only the cards it knows need a place
                take = list(take)
                for card in reversed(have):     # each at a uniformly random place
                    take.insert(rng.randint(0, len(take)), card)
            zones[slot] = tuple(take)
        pool = pool[at:]
        for i, slot in enumerate(hidden_sizes):
            # a zone of hidden size holds the cards known to be there and a share of the rest
            if i == len(hidden_sizes) - 1:
                share, pool = pool, []
            else:
                k = rng.randint(0, len(pool))
                share, pool = pool[:k], pool[k:]
            zones[slot] = tuple(pinned.get(slot, ())) + tuple(share)
        return State(n, tuple(zones), **fields)

    sized = {slot: (have, dice, count) for slot, have, dice, count in plan}

    def draw_zones(rng: random.Random, slots, tops: dict | None = None) -> dict | None:
        """The cards of the zones ``slots`` alone, {slot: cards}, dealt as ``draw`` deals
        them (the same distribution of those zones), drawing from the unknown cards only
        as many as they take; None when one of them has a hidden size. ``tops``: {slot:
        t} for zones of which only the top ``t`` cards matter: those alone are dealt (the
        same distribution as the top ``t`` of a whole deal, in a random order)."""
        out = {}
        todo = []
        for slot in slots:
            top = tops.get(slot) if tops else None
            if fixed[slot] is not None:
                zone = fixed[slot]
                out[slot] = zone if top is None else zone[max(0, len(zone) - top):]
            elif slot in sized:
                have, dice, count = sized[slot]
                if dice is not None:
                    have = have + _roll_unseen(engine, dice, have, rng)
                if top is None or top >= count:
                    todo.append((slot, have, count - len(have), None))
                else:
                    # the zone is a uniformly random order of its known and unknown cards:
                    # its top cards are a random sample of its places, a place below
                    # len(have) holding that known card, any other an unknown card
                    places = _places(rng, count, top)
                    todo.append((slot, have, sum(1 for p in places if p >= len(have)), places))
            else:
                return None
        picked = sample(rng, unknown_cards, sum(need for _, _, need, _ in todo))
        at = 0
        for slot, have, need, places in todo:
            take = picked[at:at + need]
            at += need
            if places is not None:
                unknown = iter(take)
                out[slot] = tuple(have[p] if p < len(have) else next(unknown) for p in places)
                continue
            for card in reversed(have):         # each known card at a uniformly random place
                take.insert(rng.randint(0, len(take)), card)
            out[slot] = tuple(take)
        return out

    draw.zones = draw_zones
    return draw


_DECKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _deck_counts(engine: Engine, n: int) -> dict:
    """How many cards of each kind a match of ``n`` seats holds, in the order of
    ``engine.cards_for(n)`` (kept per engine; callers copy it)."""
    per_engine = _DECKS.get(engine)
    if per_engine is None:
        per_engine = _DECKS[engine] = {}
    counts = per_engine.get(n)
    if counts is None:
        counts = per_engine[n] = dict(Counter(engine.cards_for(n)))
    return counts


def _die_kinds(engine: Engine) -> frozenset:
    """The kinds that are faces of a die (not cards of the deck)."""
    per_engine = _DECKS.get(engine)
    if per_engine is None:
        per_engine = _DECKS[engine] = {}
    kinds = per_engine.get("dice")
    if kinds is None:
        kinds = per_engine["dice"] = frozenset(i for i, k in enumerate(engine.kinds) if k.die is not None)
    return kinds


def _roll_unseen(engine: Engine, counts: tuple, seen: list, rng: random.Random) -> list:
    """Faces for the dice of a zone that ``seen`` does not already account for."""
    kinds = engine.kinds
    rolled = []
    for name, count in zip(engine.die_names, counts):
        faces = [i for i, k in enumerate(kinds) if k.die == name]
        known = sum(1 for k in seen if kinds[k].die == name)
        rolled.extend(rng.choice(faces) for _ in range(count - known))
    return rolled


def _places(rng: random.Random, count: int, k: int) -> list:
    """``k`` distinct places of ``range(count)`` (``k`` < ``count``), uniformly, in a
    uniformly random order."""
    draw = rng.random
    places: list = []
    while len(places) < k:
        p = int(draw() * count)
        if p not in places:
            places.append(p)
    return places


def _shuffle(cards: list, rng: random.Random) -> None:
    """Put ``cards`` in a uniformly random order, in place: sorted by a random key each,
    about twice as fast as ``random.shuffle`` (whose draws are made in Python)."""
    draw = rng.random
    cards.sort(key=lambda _: draw())
