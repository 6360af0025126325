"""Observation: what a seat's view says of the state, as a state.

:func:`view_state` makes the one state that agrees with everything a view shows and holds
nothing else (the players' checks of their own decisions are answered from it; bots build
on it). It depends on the view and the rules alone, never on the true state.
"""

from __future__ import annotations

import weakref
from collections import Counter
from itertools import chain, repeat

from .core import Engine, State, View, acting_seats, seen_counters

_new = tuple.__new__             # a named tuple made from a tuple of its fields, without checks


#: per engine (held weakly), per player count: (the deck as (kinds, copies) in the order of
#: ``Engine.cards_for``, the first face of each die of ``Engine.die_names``, each kind's die))
_DECKS: "weakref.WeakKeyDictionary[Engine, dict]" = weakref.WeakKeyDictionary()


def _deck(engine: Engine, n: int) -> tuple:
    per = _DECKS.get(engine)
    if per is None:
        per = _DECKS[engine] = {}
    got = per.get(n)
    if got is None:
        first: dict = {}
        for i, k in enumerate(engine.kinds):
            if k.die is not None:
                first.setdefault(k.die, i)
        deck = Counter(engine.cards_for(n))
        got = per[n] = ((tuple(deck), tuple(deck.values())),
                        tuple(first[d] for d in engine.die_names), tuple(k.die for k in engine.kinds))
    return got


def multiset_union(looks) -> tuple:
    """The cards that several looks at one zone showed (each a tuple of kinds), as one
    multiset: each kind as often as the look that showed most of it. Grouped by kind, the
    kinds in the order they first appear (as the ``elements()`` of the union of their
    ``Counter``)."""
    counts: dict = {}
    for cards in looks:
        if len(cards) == 1:
            k = cards[0]
            if k not in counts:
                counts[k] = 1
            continue
        here: dict = {}
        for k in cards:
            here[k] = here.get(k, 0) + 1
        for k, c in here.items():
            if c > counts.get(k, 0):
                counts[k] = c
    return tuple(chain.from_iterable(map(repeat, counts, counts.values())))


def view_state(engine: Engine, view: View) -> State:
    """A state that agrees with everything ``view`` shows and holds nothing else.

    It is the state ``players.determinize.sample_state`` deals with fixed chance (no
    shuffle, the first face of each die, a hidden-size zone but the last holding only
    the cards known to be there), made without shuffling: the cards the seat cannot place (the deck less what it sees
    and what ``view.known`` pins) go into the hidden zones in the deck's order; hidden
    dice show their first face, counters the seat may not see read 0, no vote is cast
    and no fact is known. It depends on ``view`` and the rules alone.

    Raises:
        ValueError: the view shows more cards than the deck holds.
    """
    n = view.players
    counts, first_faces, die_of = _deck(engine, n)
    zones: list = [None] * len(view.zones)
    shown: list = []
    for slot, z in enumerate(view.zones):
        if z[3] is not None:
            zones[slot] = z[3]
            shown.extend(z[3])
    pinned: dict = {}
    if view.known:
        slots = {(z[0], z[1]): i for i, z in enumerate(view.zones)}
        looks: dict = {}
        for name, owner, cards in view.known:
            slot = slots[(name, owner)]
            if zones[slot] is None:     # several looks at one zone: each showed some of its cards
                looks.setdefault(slot, []).append(cards)
        for slot, seen in looks.items():
            pinned[slot] = seen[0] if len(seen) == 1 else multiset_union(seen)
        for cards in pinned.values():
            shown.extend(cards)
    seen = Counter(shown).get
    order, copies = counts
    left = [c - seen(k, 0) for k, c in zip(order, copies)]      # dice are not in the deck
    if left and min(left) < 0:
        raise ValueError("the view shows more cards than the deck holds")
    pool = tuple(chain.from_iterable(map(repeat, order, left)))
    at = 0
    sized = []
    for slot, z in enumerate(view.zones):
        if zones[slot] is not None:
            continue
        if z[2] is None:
            sized.append(slot)
            continue
        have = pinned.get(slot) or []
        if view.dice and view.dice[slot]:
            have = list(have)
            for face, count in zip(first_faces, view.dice[slot]):
                die = die_of[face]
                have.extend(repeat(face, count - sum(1 for k in have if die_of[k] == die)))
        need = max(0, z[2] - len(have))
        zones[slot] = tuple(have) + pool[at:at + need]
        at += need
    for slot in sized:
        zones[slot] = tuple(pinned.get(slot, ()))
    if sized:
        zones[sized[-1]] += pool[at:]
    return State(n, tuple(zones), **engine.view_fields(view))


def masked_state(engine: Engine, view: View) -> State:
    """A state that agrees with everything ``view`` shows and holds nothing else, made
    without dealing: the zones the seat sees as its view shows them, each other zone
    holding as many copies of the first kind as it holds (none when its size is hidden),
    counters it may not see at 0, no vote cast and no fact known. A check that reads only
    what the seat sees (``Engine.public_checks``) answers there as in the true state and as
    in :func:`view_state`, at a fraction of the cost."""
    return State(view.players, _filled(view.zones), **engine.view_fields(view))


def seat_masked_state(engine: Engine, state: State, seat: int) -> State:
    """``masked_state(engine, engine.view(state, seat))``, made without the view: for a
    seat whose player reads none."""
    n, zones, counters, seats, phase, poll, _, claim, claimed, _, deal, groups, _, out, stack = state
    prog = engine._programs.get(n) or engine.program(n)
    decider = engine.decider(state) if phase >= 0 else None
    return _new(State, (n, _filled(prog.view_zones(zones, seat)),
                        seen_counters(prog.view_counters(counters, seat)) if counters else (),
                        acting_seats(seats, decider), phase, tuple(poll), (None,) * n, claim, claimed, (),
                        deal, groups, (), out or (0,) * n, stack))


def _filled(rows) -> tuple:
    """The zones of a masked state from a view's zone rows: the cards the seat sees, as many
    copies of the first kind as another zone holds, nothing where its size is hidden."""
    return tuple([cards if cards is not None else () if count is None else (0,) * count
                  for _, _, count, cards in rows])
