"""Determinization: states consistent with one seat's view, for bots that reason by sampling.

The unknown cards are the declared deck minus every card the seat can see (its own zones,
open zones, cards it was shown). They are dealt at random into the hidden zones, each
getting as many cards as the view says it holds; zones whose size is hidden share the rest.
Hidden dice (the view says how many lie in each zone) show faces drawn uniformly.

**Cards of each seat.** When every card of the match is one the seats start with (``card
marker: 2 in each hand``: no shared deck, no dice in zones) and the rules can never pass a
card from one seat's zones to another seat's (:func:`keeps_owners`, decided once per
engine from the rules), the cards are not pooled: each seat's hidden zones are dealt from
that seat's own starting cards less those of its zones the viewer sees or knows, and what
is left of each seat (what it was dealt less what its zones hold) lies in the one shared
zone the viewer cannot see (a pile of lost cards), which holds those leftovers of every
seat. A view this does not fit (cards in an open shared zone, whose owners it cannot
tell, or several hidden shared zones that may hold cards) is dealt pooled.

**What else the view hides.** A counter the seat may not see reads as after the setup of
a fresh match (a hidden bookkeeping counter usually keeps that value); in a running vote,
each secret vote already cast is a random legal choice of its seat in the sample (else
those votes would be lost when the vote closes).
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from itertools import chain, repeat, starmap
from math import comb
from typing import Callable

from ..lang import model as m
from ..engine import Engine, State, View
from ..engine.observe import multiset_union
from .base import random_concrete, random_legal, sample


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
    Its ``chance_at_least(slots, tops, good, need)`` answers one such question exactly:
    the chance that those zones hold at least ``need`` cards of the kinds ``good`` accepts
    (None where it is not worked out: sample it).

    Raises:
        ValueError: the view is inconsistent with the deck (a bug, never the player's fault).
    """
    fixed: list = [None] * len(view.zones)
    pinned: dict[int, list] = {}
    slots_by_key = {}
    for slot, (name, owner, count, cards) in enumerate(view.zones):
        slots_by_key[(name, owner)] = slot
        if cards is not None:
            fixed[slot] = tuple(cards)
    for name, owner, cards in view.known:
        slot = slots_by_key[(name, owner)]
        if fixed[slot] is None:
            # several looks at one zone: each showed some of its cards
            pinned.setdefault(slot, []).append(cards)
    for slot, looks in pinned.items():
        pinned[slot] = list(multiset_union(looks))
    finish = _finisher(engine, view)
    dealt = _owned(engine)
    if dealt is not None:
        # what a view's zones and known cards leave to deal, kept for the views seen last
        # (a bot asks for samplers of one view several times)
        made = _cached(engine).setdefault("by seat", {})
        key = (view.zones, view.known)
        own = made.get(key, _NOT_MADE)
        if own is _NOT_MADE:
            if len(made) >= 512:
                made.clear()
            own = made[key] = _by_seat(view, fixed, pinned, dealt)
        if own is not None:
            return _seat_sampler(own, finish)
    return _pooled_sampler(engine, view, fixed, pinned, finish)


_NOT_MADE = object()


def _pooled_sampler(engine: Engine, view: View, fixed: list, pinned: dict, finish) -> Callable:
    """The sampler dealing every unseen card of the deck into any hidden zone."""
    unknown_cards = _unseen_cards(engine, view, fixed, pinned)
    plan, hidden_sizes = _pooled_plan(view, fixed, pinned)

    def draw(rng: random.Random) -> State:
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
                    take.insert(int(rng.random() * (len(take) + 1)), card)
            zones[slot] = tuple(take)
        pool = pool[at:]
        for i, slot in enumerate(hidden_sizes):
            # a zone of hidden size holds the cards known to be there and a share of the rest
            if i == len(hidden_sizes) - 1:
                share, pool = pool, []
            else:
                k = int(rng.random() * (len(pool) + 1))
                share, pool = pool[:k], pool[k:]
            zones[slot] = tuple(pinned.get(slot, ())) + tuple(share)
        return finish(zones, rng)

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
                out[slot] = _top(fixed[slot], top)
            elif slot in sized:
                have, dice, count = sized[slot]
                if dice is not None:
                    have = have + _roll_unseen(engine, dice, have, rng)
                todo.append(_wanted(rng, slot, have, count, top))
            else:
                return None
        _deal_wanted(rng, unknown_cards, todo, out)
        return out

    unknown_counts = Counter(unknown_cards)

    def chance_at_least(slots, tops: dict | None, good: Callable, need: int) -> float | None:
        """The chance that the zones ``slots``, dealt as ``zones(rng, slots, tops)`` deals
        them, hold together at least ``need`` cards of a kind for which ``good(kind)`` is
        true: worked out from the hypergeometric law of the unknown cards, not sampled.
        None when one of the zones has a hidden size or holds dice, or its top leaves
        too many ways to place the cards the seat knows there (sample those).

        Raises:
            ValueError: the zones take more unknown cards than the view leaves (as
                ``zones`` does).
        """
        parts = {(0, 0): 1.0}       # (good cards the seat knows are there, unknown cards) -> chance
        for slot in slots:
            top = tops.get(slot) if tops else None
            if fixed[slot] is not None:
                zone = _top(fixed[slot], top)
                parts = _added(parts, {(sum(map(good, zone)), 0): 1.0})
            elif slot in sized and sized[slot][1] is None:
                have, _, count = sized[slot]
                zone = _zone_parts(have, count, top, good)
                if zone is None:
                    return None
                parts = _added(parts, zone)
            else:
                return None
        total = len(unknown_cards)
        if max(unknown for _, unknown in parts) > total:
            raise ValueError("the zones take more cards than the view leaves unseen")
        hits = sum(c for kind, c in unknown_counts.items() if good(kind))
        return sum(p * _at_least(total, hits, unknown, need - known) for (known, unknown), p in parts.items())

    draw.zones = draw_zones
    draw.chance_at_least = chance_at_least
    return draw


def _top(zone: tuple, top: int | None) -> tuple:
    """The top ``top`` cards of ``zone`` (all of it for None)."""
    return zone if top is None else zone[max(0, len(zone) - top):]


#: the most known cards a zone's top may hold for :func:`_zone_parts` to work its law out
#: (the work grows as their square); with more, the zone is sampled
MOST_KNOWN_ON_TOP = 40


def _zone_parts(have: list, count: int, top: int | None, good: Callable) -> dict | None:
    """For one zone of ``count`` cards of which the seat knows ``have`` (each at a uniformly
    random place): {(good known cards, unknown cards): chance} of the zone, or of its top
    ``top`` cards (a uniformly random ``top`` of its places); None when that top may hold
    more than ``MOST_KNOWN_ON_TOP`` known cards."""
    known = sum(map(good, have))
    if top is None or top >= count:
        return {(known, count - len(have)): 1.0}
    h = len(have)
    if min(h, top) > MOST_KNOWN_ON_TOP:
        return None
    parts: dict = {}
    for j in range(max(0, top - (count - h)), min(h, top) + 1):      # known cards among the top
        pj = _pmf(count, h, top, j)
        for a in range(max(0, j - (h - known)), min(known, j) + 1):   # good ones among them
            key = (a, top - j)
            parts[key] = parts.get(key, 0.0) + pj * _pmf(h, known, j, a)
    return parts


def _added(parts: dict, more: dict) -> dict:
    """The law of the sums of two independent (good, unknown) pairs of counts."""
    out: dict = {}
    for (a, m), p in parts.items():
        for (b, k), q in more.items():
            key = (a + b, m + k)
            out[key] = out.get(key, 0.0) + p * q
    return out


def _pmf(total: int, hits: int, drawn: int, k: int) -> float:
    """The chance of ``k`` hits in ``drawn`` cards drawn without replacement from ``total``
    cards of which ``hits`` are hits (the hypergeometric law)."""
    return comb(hits, k) * comb(total - hits, drawn - k) / comb(total, drawn)


def _at_least(total: int, hits: int, drawn: int, k: int) -> float:
    """The chance of ``k`` or more hits (see :func:`_pmf`)."""
    if k <= 0:
        return 1.0
    return sum(_pmf(total, hits, drawn, i) for i in range(k, min(hits, drawn) + 1))


def _unseen_cards(engine: Engine, view: View, fixed: list, pinned: dict) -> tuple:
    """The cards of the deck the view neither shows nor pins (kinds, in deck order, each
    repeated as many times as it is unseen).

    Raises:
        ValueError: the view shows more cards than the deck holds.
    """
    unknown = dict(_deck_counts(engine, view.players))     # kind -> how many are unseen, in deck order
    dice = _die_kinds(engine)

    def unseen(cards) -> None:
        for k in cards:
            if k not in dice:
                unknown[k] = unknown.get(k, 0) - 1
    for cards in fixed:
        if cards is not None:
            unseen(cards)
    for cards in pinned.values():
        unseen(cards)
    if any(v < 0 for v in unknown.values()):
        raise ValueError("the view shows more cards than the deck holds")
    return tuple(chain.from_iterable(starmap(repeat, unknown.items())))


def _pooled_plan(view: View, fixed: list, pinned: dict) -> tuple:
    """(the hidden zones of known size, the slots of the zones whose size is hidden) that
    the pooled sampler deals, in the order of the view's zones."""
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
    return plan, hidden_sizes


def _wanted(rng: random.Random, slot: int, have: list, count: int, top: int | None) -> tuple:
    """What :func:`_deal_wanted` deals into one zone of ``count`` cards, ``have`` of them
    known: (slot, have, how many unknown cards, the places dealt or None for all)."""
    if top is None or top >= count:
        return (slot, have, count - len(have), None)
    # the zone is a uniformly random order of its known and unknown cards: its top cards
    # are a random sample of its places, a place below len(have) holding that known card,
    # any other an unknown card
    places = _places(rng, count, top)
    return (slot, have, sum(1 for p in places if p >= len(have)), places)


def _deal_wanted(rng: random.Random, pool: tuple, todo: list, out: dict) -> None:
    """Deal the zones of ``todo`` (see :func:`_wanted`) into ``out`` from ``pool``, drawing
    as many cards of it as they take."""
    picked = sample(rng, pool, sum(need for _, _, need, _ in todo))
    at = 0
    for slot, have, need, places in todo:
        take = picked[at:at + need]
        at += need
        if places is not None:
            unknown = iter(take)
            out[slot] = tuple(have[p] if p < len(have) else next(unknown) for p in places)
            continue
        for card in reversed(have):         # each known card at a uniformly random place
            take.insert(int(rng.random() * (len(take) + 1)), card)
        out[slot] = tuple(take)


def _by_seat(view: View, fixed: list, pinned: dict, dealt: tuple) -> tuple | None:
    """What the sampler of a game whose seats keep their own cards deals (see the module
    docstring): (the zones the view fixes or leaves no choice in, the hidden shared zone
    holding the leftovers or None, the leftovers no deal changes, and per seat whose cards
    need a deal: (its unseen cards, whether they are of several kinds, its hidden zones
    as (slot, known cards, unknown count))); None when the view does not fit that (its
    cards are then dealt pooled). ``dealt``: per kind, the copies each seat starts with.

    Raises:
        ValueError: the view is inconsistent with the cards each seat was dealt.
    """
    n = view.players
    zones = _seat_zones(view, fixed, pinned, dealt)
    if zones is None:
        return None
    fixed, unseen, held, hidden, sinks = zones
    if len(sinks) > 1:
        return None                     # which of them holds a seat's leftovers?
    sink = sinks[0] if sinks else None
    total = sum(dealt)
    seats = []
    lost = 0
    kept: list = []                     # the leftovers no deal changes
    forced = [0] * len(dealt)           # per kind, the fewest the shared zone holds
    for s in range(n):
        left = unseen[s]
        if min(left) < 0:
            raise ValueError(f"the view shows more cards of seat {s} than it was dealt")
        pool = [k for k, c in enumerate(left) for _ in range(c)]
        need = sum(need for _, _, need in hidden[s])
        gone = total - held[s]
        if gone < 0 or len(pool) != need + gone:
            raise ValueError(f"the zones of seat {s} do not add up to the cards it was dealt")
        lost += gone
        for k, c in enumerate(left):
            if c > need:
                forced[k] += c - need
        mixed = sum(1 for c in left if c) > 1
        if (not mixed or not need) and not any(have for _, have, _ in hidden[s]):
            # one kind of card, or all of them lost, none known in place: nothing to deal
            at = 0
            for slot, have, need in hidden[s]:
                fixed[slot] = tuple(pool[at:at + need])
                at += need
            kept.extend(pool[at:])
        else:
            seats.append((tuple(pool), mixed, tuple(hidden[s])))
    if sink is None and lost or sink is not None and view.zones[sink][2] not in (None, lost):
        raise ValueError("the shared zones do not hold what the seats have lost")
    if sink is not None and sink in pinned:
        # cards known to lie in the shared zone: whose they are does not matter when the
        # seats must have lost them anyway, else the deal would have to make sure of them
        if any(c > forced[k] for k, c in Counter(pinned[sink]).items()):
            return None
    return fixed, sink, tuple(kept), tuple(seats)


def _seat_zones(view: View, fixed: list, pinned: dict, dealt: tuple) -> tuple | None:
    """What the view's zones leave of each seat's cards, for :func:`_by_seat`: (a copy of
    ``fixed`` with the empty hidden shared zones fixed, per seat its unseen cards as
    counts per kind, per seat how many cards its zones hold, per seat its hidden zones as
    (slot, known cards, unknown count), the slots of the hidden shared zones that may
    hold cards); None when the view does not fit a deal by seat."""
    n = view.players
    unseen = [list(dealt) for _ in range(n)]
    held = [0] * n
    hidden: list = [[] for _ in range(n)]
    fixed = list(fixed)
    sinks = []
    for slot, (name, owner, count, cards) in enumerate(view.zones):
        if owner is None:
            if fixed[slot] is not None:
                if fixed[slot]:
                    return None         # cards in an open shared zone: whose are they?
            elif count == 0:
                fixed[slot] = ()
            else:
                sinks.append(slot)
            continue
        if count is None:
            return None                 # how many cards this seat has left is hidden
        held[owner] += count
        left = unseen[owner]
        if fixed[slot] is not None:
            for k in fixed[slot]:
                left[k] -= 1
        else:
            have = pinned.get(slot, [])
            for k in have:
                left[k] -= 1
            hidden[owner].append((slot, have, count - len(have)))
    return fixed, unseen, held, hidden, sinks


def _seat_sampler(own: tuple, finish) -> Callable:
    """The sampler dealing each seat's hidden zones from its own unseen cards (see
    :func:`_by_seat` for ``own``)."""
    fixed, sink, kept, seats = own

    def deal(rng: random.Random) -> list:
        zones = list(fixed)
        rest = list(kept)
        for pool, mixed, hidden in seats:
            pool = list(pool)
            if mixed:
                _shuffle(pool, rng)
            at = 0
            for slot, have, need in hidden:
                take = pool[at:at + need]
                at += need
                for card in reversed(have):     # each known card at a uniformly random place
                    take.insert(int(rng.random() * (len(take) + 1)), card)
                zones[slot] = tuple(take)
            if at < len(pool):
                rest += pool[at:]               # what the seat lost: in the shared zone
        if sink is not None:
            if len(rest) > 1:
                _shuffle(rest, rng)
            zones[sink] = tuple(rest)
        return zones

    def draw(rng: random.Random) -> State:
        return finish(deal(rng), rng)

    owner = {slot: (i, have, need) for i, (_, _, hidden) in enumerate(seats) for slot, have, need in hidden}

    def draw_zones(rng: random.Random, slots, tops: dict | None = None) -> dict:
        """As the pooled sampler's ``zones``: each seat's zones asked for are dealt from
        that seat's unseen cards, as many as they take; the shared zone of leftovers
        takes a whole deal."""
        out = {}
        if sink is not None and sink in slots:
            zones = deal(rng)
            for slot in slots:
                out[slot] = _top(zones[slot], tops.get(slot) if tops else None)
            return out
        todo: dict = {}
        for slot in slots:
            top = tops.get(slot) if tops else None
            if fixed[slot] is not None:
                out[slot] = _top(fixed[slot], top)
            else:
                seat, have, need = owner[slot]
                todo.setdefault(seat, []).append(_wanted(rng, slot, have, need + len(have), top))
        for seat, wanted in todo.items():
            _deal_wanted(rng, seats[seat][0], wanted, out)
        return out

    def chance_at_least(slots, tops: dict | None, good: Callable, need: int) -> None:
        """Not worked out for a deal by seat (the zones of several seats come from
        several pools): None, sample them with ``zones``."""
        return None

    draw.zones = draw_zones
    draw.chance_at_least = chance_at_least
    return draw


def _finisher(engine: Engine, view: View) -> Callable:
    """``finish(zones, rng)``: the state of those zones and of everything else ``view``
    fixes, hidden counters as after the setup of a fresh match and the secret votes
    already cast as random legal choices of their seats."""
    n = view.players
    voted = view.voted
    fields: list = []           # the other fields of a whole state, made at the first draw

    def finish(zones: list, rng: random.Random) -> State:
        if not fields:
            made = engine.view_fields(view)
            hidden = []
            at = 0
            for _, value in view.counters:
                for v in (value if isinstance(value, tuple) else (value,)):
                    if v is None:
                        hidden.append(at)
                    at += 1
            if hidden:
                fresh = _fresh_counters(engine, n)
                counters = list(made["counters"])
                for i in hidden:
                    counters[i] = fresh[i]
                made["counters"] = tuple(counters)
            defaults = State._field_defaults
            fields.append(tuple(made[f] if f in made else defaults[f] for f in State._fields[2:]))
        state = _new(State, (n, tuple(zones)) + fields[0])
        if voted:
            votes = list(state.votes)
            for seat in voted:
                asked = state._replace(poll=(seat,))
                options = engine.decide(asked, False)[2]
                if not options:
                    continue
                option = options[int(rng.random() * len(options))] if len(options) > 1 else options[0]
                if option.exact:        # as random_legal chooses, without a Decision
                    votes[seat] = random_concrete(option, rng)
                else:
                    votes[seat] = random_legal(engine.decision(asked, False), rng)
            state = state._replace(votes=tuple(votes))
        return state
    return finish


_new = tuple.__new__             # a named tuple made from a tuple of its fields, without checks
_DECKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _cached(engine: Engine) -> dict:
    per_engine = _DECKS.get(engine)
    if per_engine is None:
        per_engine = _DECKS[engine] = {}
    return per_engine


def _deck_counts(engine: Engine, n: int) -> dict:
    """How many cards of each kind a match of ``n`` seats holds, in the order of
    ``engine.cards_for(n)`` (kept per engine; callers copy it)."""
    per_engine = _cached(engine)
    counts = per_engine.get(n)
    if counts is None:
        counts = per_engine[n] = dict(Counter(engine.cards_for(n)))
    return counts


def _fresh_counters(engine: Engine, n: int) -> tuple:
    """The counters after the setup of a fresh match of ``n`` seats (kept per engine)."""
    per_engine = _cached(engine)
    key = ("fresh", n)
    fresh = per_engine.get(key)
    if fresh is None:
        fresh = per_engine[key] = engine.new_match(n, random.Random(0), False)[0].counters
    return fresh


def _owned(engine: Engine) -> tuple | None:
    """Per kind, the copies each seat starts with, when every card of a match is one the seats
    start with, no die lies in a zone and the rules keep every card with its seat
    (:func:`keeps_owners`); else None (kept per engine)."""
    per_engine = _cached(engine)
    if "owned" not in per_engine:
        game = engine.game
        owned = None
        if not engine.deck and not engine.die_names and any(k.start for k in game.kinds) and keeps_owners(game):
            owned = tuple(0 if k.start is None else k.count for k in game.kinds)
        per_engine["owned"] = owned
    return per_engine["owned"]


_ANY = "any seat"


def keeps_owners(game: m.Game) -> bool:
    """Whether the rules provably never pass a card from one seat's zones to another
    seat's, directly or through shared zones. True when every statement that moves cards
    (move, lay, draw, deal, shuffle into, gather, a zone's refill) either moves them
    between zones of one seat, the same seat expression on both sides (``your hand`` to
    ``your mat``; for chosen cards: of the actor or of a seat the action chooses), or from
    a seat's zone into shared zones, none of which (nor any shared zone their cards may
    reach) ever gives cards to a zone of a seat. A statement this cannot tell about
    (cards of every seat, dealt to each seat, moved to a seat named otherwise) makes it
    False."""
    per = {z.name: z.per_player for z in game.zones}
    found = _CardMoves(game, per)
    try:
        shared = _shared_flows(found.all(), per)
    except KeyError:                # a zone the rules do not declare (a checked game has none)
        return False
    if shared is None:
        return False
    sinks, gives, flows = shared
    return not _reached(sinks, flows) & gives


class _CardMoves:
    """The card movements the statements of a game may make, for :func:`keeps_owners`:
    ((zone, owner), (zone, owner)) pairs, each owner None (a shared zone), a seat or _ANY.
    A zone the rules do not declare raises KeyError."""

    def __init__(self, game: m.Game, per: dict) -> None:
        self.game = game
        self.per = per              # zone name -> whether each seat has one
        self.actor = m.SeatName("actor")
        self.lays = {node.dest.zone for node in m.nodes(game) if isinstance(node, m.Move) and node.lay}
        self.everything = [(z, _ANY if p else None) for z, p in per.items()]
        self.moves: list = []       # ((zone, owner), (zone, owner)): owner None (shared), a seat or _ANY

    def owner(self, ref: m.ZoneRef, stable=None):
        """The owner of the zone ``ref`` names: None for a shared zone, its seat, or _ANY
        when that seat is unknown or not one of ``stable`` (when given)."""
        if not self.per[ref.zone]:
            return None
        seat = self.actor if ref.yours else ref.seat
        if seat is None or stable is not None and seat not in stable:
            return _ANY
        return seat

    def sources(self, cards, chosen) -> list:
        """The (zone, owner) pairs the cards ``cards`` may come from; ``chosen``: those of
        the cards an action chose."""
        if isinstance(cards, m.ZoneRef):
            return [(cards.zone, self.owner(cards))]
        if isinstance(cards, (m.Portion, m.Where)):
            return self.sources(cards.cards, chosen)
        if isinstance(cards, m.CardUnion):
            return [s for part in cards.parts for s in self.sources(part, chosen)]
        if isinstance(cards, m.EveryZone):
            return [(cards.zone, _ANY)]
        if isinstance(cards, m.Chosen):
            return chosen
        if isinstance(cards, m.Claimed):
            return [(z, _ANY if self.per[z] else None) for z in self.lays]
        return self.everything

    def collect(self, roots, chosen) -> None:
        """Add the moves of every statement under ``roots`` (``chosen``: as for :meth:`sources`)."""
        moves, owner = self.moves, self.owner
        for root in roots:
            for node in m.nodes(root):
                if isinstance(node, m.Move):
                    moves.extend((s, (node.dest.zone, owner(node.dest))) for s in self.sources(node.cards, chosen))
                elif isinstance(node, m.Swap):
                    first, second = (node.first.zone, owner(node.first)), (node.second.zone, owner(node.second))
                    moves.extend(((first, second), (second, first)))
                elif isinstance(node, m.Draw):
                    source = (node.source.zone, owner(node.source))
                    moves.append((source, (node.dest.zone, owner(node.dest))))
                    refill = next(z.refill_from for z in self.game.zones if z.name == node.source.zone)
                    if refill is not None:
                        moves.append(((refill, None), source))
                elif isinstance(node, m.Deal):
                    moves.append(((node.source.zone, owner(node.source)), (node.zone, _ANY)))
                elif isinstance(node, m.Shuffle) and node.cards is not None:
                    moves.extend((s, (node.zone.zone, owner(node.zone))) for s in self.sources(node.cards, chosen))
                elif isinstance(node, m.Gather):
                    moves.extend((s, (node.zone.zone, owner(node.zone))) for s in self.everything)

    def collect_action(self, action) -> None:
        """Add the moves of one action, its chosen cards coming from the zones it chooses them in."""
        # the cards an action chooses come from a zone named when they are chosen:
        # its seat is known for the whole action when it is the actor or a chosen seat
        body = list(m.walk(action.body))
        rebound = {s.var for s in body if isinstance(s, m.ForEach)} | \
                  {s.name for s in body if isinstance(s, m.LetValue)}
        stable = [self.actor] + [m.SeatName(s.name) for s in body
                                 if isinstance(s, m.ChooseParam) and s.name not in rebound]
        chosen = [(s.source, stable) for s in body if isinstance(s, m.ChooseCards)]
        self.collect([action], [src for cards, st in chosen
                                for src in _chosen_sources(cards, self.owner, st, self.sources)])

    def all(self) -> list:
        """The moves of every statement of the game (its actions first, then the rest)."""
        game = self.game
        rest = [*game.setup, *game.procedures, game.match]
        for phase in game.phases:
            rest.extend(phase.after or ())
            for action in phase.actions:
                self.collect_action(action)
        self.collect(rest, self.everything)
        return self.moves


def _shared_flows(moves: list, per: dict) -> tuple | None:
    """(the shared zones a seat's cards may go to, those that give cards to a seat's zone,
    {shared zone: the shared zones its cards may go to}) of ``moves`` (see
    :class:`_CardMoves`); None when a move may pass cards from one seat to another."""
    sinks: set = set()          # shared zones a seat's cards may reach
    gives: set = set()          # shared zones that give cards to a seat's zone
    flows: dict = {}            # shared zone -> shared zones its cards may go to
    for (src, src_owner), (dest, dest_owner) in moves:
        if per[dest]:
            if not per[src]:
                gives.add(src)
            elif src_owner is _ANY or dest_owner is _ANY or src_owner != dest_owner:
                return None
        elif per[src]:
            sinks.add(dest)
        else:
            flows.setdefault(src, set()).add(dest)
    return sinks, gives, flows


def _reached(sinks: set, flows: dict) -> set:
    """``sinks`` (updated in place) with every shared zone their cards may reach through ``flows``."""
    todo = list(sinks)
    while todo:
        for z in flows.get(todo.pop(), ()):
            if z not in sinks:
                sinks.add(z)
                todo.append(z)
    return sinks


def _chosen_sources(cards, owner, stable, sources) -> list:
    """The zones cards chosen from ``cards`` come from, the seat of each kept only when it
    is one of ``stable`` (it names the same seat for the whole action)."""
    while isinstance(cards, (m.Portion, m.Where)):
        cards = cards.cards
    if isinstance(cards, m.ZoneRef):
        return [(cards.zone, owner(cards, stable))]
    return [(z, None if o is None else _ANY) for z, o in sources(cards, [])]


def _die_kinds(engine: Engine) -> frozenset:
    """The kinds that are faces of a die (not cards of the deck)."""
    per_engine = _cached(engine)
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
