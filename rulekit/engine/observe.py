"""Observation: what a seat may know of a match (:class:`Observation`, a part of the
engine: the view of a state, what a seat perceives of an event), and what a view says
of the state, as a state.

:func:`view_state` makes the one state that agrees with everything a view shows and holds
nothing else (the players' checks of their own decisions are answered from it; bots build
on it). It depends on the view and the rules alone, never on the true state.
"""

from __future__ import annotations

import functools
import weakref
from collections import Counter
from collections.abc import Sequence
from itertools import chain, repeat
from typing import TYPE_CHECKING

from ..lang import model as m
from .state import Event, State, View, acting_seats, known_least, seen_counters

if TYPE_CHECKING:
    from .core import Engine

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
    seat whose player reads none. It reads no knowledge, so it also serves a state that
    tracks none (``known`` None, see :meth:`Engine.working_copy`), of which no view can
    be made."""
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


class Observation:
    """What a seat may know, as part of :class:`~.core.Engine` (its base class): the view
    of a state, the fields of a state a view fixes, and what a seat perceives of an event.
    It reads the engine's compiled game (``cg``, ``game``, ``kinds``, ``die_names``), its
    programs (``program``, ``pieces``) and who decides (``decider``, ``claim_text``)."""

    def view(self, state: State, seat: int, history: Sequence = (), texts: bool = True) -> View:
        """What ``seat`` may know of ``state`` (see :class:`View`); ``history`` is the seat's
        public history, carried as ``View.history``; ``texts``: give the standing claim's
        words (``View.claim_text``; None with False, for bots, which do not read it).

        Raises:
            ValueError: ``state`` tracks no knowledge (its ``known`` is None: see
                ``Engine.working_copy``), so what the seat knows cannot be told.
        """
        cg = self.cg
        prog = self.program(state.n)
        zones = prog.view_zones(state.zones, seat)
        counters = prog.view_counters(state.counters, seat)
        claim = None
        claim_text = None
        if state.claim is not None:
            ci, values, claimant = state.claim
            claim_text = self.claim_text(state) if texts else None
            count = state.claimed[1] if state.claimed is not None else 0
            slot = state.claimed[0] if state.claimed is not None else -1
            claim = (cg.claim_list[ci].name, values, claimant, count, slot)
        # what this seat knows, once each (a seat may both remember and have seen the same cards)
        known = ()
        if state.known is None:
            raise ValueError("this state tracks nothing of what the seats know (a working copy made with "
                             "knowledge=False): it has no view")
        if state.known:
            places = prog.places
            known = tuple(dict.fromkeys(places[slot] + (tuple(sorted(cards)),)
                                        for viewer, slot, cards, _ in state.known if viewer == seat or viewer < 0))
        phase = cg.phase_list[state.phase].name if state.phase >= 0 else "over"
        decider = self.decider(state) if state.phase >= 0 else None
        voted = ()
        if state.phase >= 0 and cg.phase_list[state.phase].kind == "vote":
            voted = tuple(s for s, v in enumerate(state.votes) if v is not None)
        dice = ()
        if cg.has_dice:
            names = self.die_names
            dice = tuple(None if z[2] is None else tuple(sum(1 for k in cards if self.kinds[k].die == d)
                                                         for d in names)
                         for z, cards in zip(zones, state.zones))
        seats = acting_seats(state.seats, decider)
        return View(seat, state.n, phase, decider, tuple(zones), tuple(counters),
                    tuple(zip(cg.seat_names, seats)), claim, known, voted, state.deal, state.poll,
                    tuple((gr.name, seats) for gr, seats in zip(self.game.groups, state.groups)), claim_text,
                    state.out, dice, state.stack, history)

    def unseen_standing(self, state: State, viewer: int) -> set:
        """The values of the final standings that ``viewer`` (a seat) could not know at the
        table, as (seat, index): index k < the number of ``winners`` keys for that key of
        :meth:`~.core.Engine.standings`, and that number for the seat's result
        (:meth:`~.core.Engine.returns`): one read, with ``actor`` the seat, from cards the
        viewer has not seen (a folded hand never shown) or from a counter it may not see
        (another seat's, seen by its owner, or one seen by nobody). A zone read only for its
        size (``count of your penalty``) counts when its size is shown. Of ``your`` zones
        only the seat's own is read; a zone of any other seat, every seat's.

        Raises:
            ValueError: ``state`` tracks no knowledge (see :meth:`view`).
        """
        view = self.view(state, viewer, texts=False)
        seen = {(z, owner): cards is not None or count is not None and k >= count
                for (z, owner, count, cards), k in zip(view.zones, self._known_counts(view))}
        sized = {(z, owner): count is not None for z, owner, count, _ in view.zones}
        # the counters as the viewer sees them (None where it may not), but those seen by
        # nobody that every seat could keep (see bookkeeping_counters)
        kept = self._bookkeeping
        counters = {decl.name: value for decl, (_, value) in zip(self.game.counters, view.counters)
                    if decl.seen != "all" and decl.name not in kept}
        match = self.game.match
        exprs = [key.expr for key in match.winners] + ([match.returns] if match.returns is not None else [])
        unseen = set()
        for k, expr in enumerate(exprs):
            sizes_only = {id(n.cards) for n in m.nodes(expr) if isinstance(n, m.CountOf)}
            for seat in range(state.n):
                for node in m.nodes(expr):
                    if isinstance(node, (m.ZoneRef, m.EveryZone)):
                        own = isinstance(node, m.ZoneRef) and (node.yours or isinstance(node.seat, m.SeatName)
                                                               and node.seat.name == "actor")
                        table = sized if id(node) in sizes_only else seen
                        places = [p for p in table if p[0] == node.zone and (not own or p[1] in (seat, None))]
                        hidden = not all(table[p] for p in places)
                    elif isinstance(node, (m.Name, m.ValueOf, m.Extreme)) and node.name in counters:
                        value = counters[node.name]
                        if isinstance(value, tuple):    # a seat's own, or any seat's
                            hidden = value[seat] is None if isinstance(node, m.Name) else None in value
                        else:
                            hidden = value is None
                    else:
                        continue
                    if hidden:
                        unseen.add((seat, k))
                        break
        return unseen

    @functools.cached_property
    def _bookkeeping(self) -> frozenset:
        """See :func:`rulekit.sema.visibility.bookkeeping_counters`."""
        from ..sema.visibility import bookkeeping_counters
        return bookkeeping_counters(self.game)

    @staticmethod
    def _known_counts(view: View) -> list:
        """For each zone row of ``view``, how many of its cards the seat knows from
        ``known`` (see :func:`~.state.known_least`)."""
        known = known_least(view)
        return [sum(known[(z, owner)].values()) if (z, owner) in known else 0 for z, owner, _, _ in view.zones]

    def view_fields(self, view: View) -> dict:
        """Every field of a :class:`State` that ``view`` fixes, zones aside, by name: the
        counters (a value the seat may not see reads 0), seats, phase, poll, standing claim,
        deal, groups, knock-outs and pending asks; no vote is cast and no fact is known.
        ``State(view.players, zones, **fields)`` is then a state agreeing with the view."""
        claim = claimed = None
        if view.claim is not None:
            name, values, claimant, count, slot = view.claim
            claim = (self.cg.claims[name].index, values, claimant)
            claimed = (slot, count) if slot >= 0 else None
        n = view.players
        return dict(counters=seen_counters(view.counters), seats=tuple(s for _, s in view.seats),
                    phase=self.phase_index(view.phase), poll=tuple(view.poll), votes=(None,) * n, claim=claim,
                    claimed=claimed, known=(), deal=view.deal, groups=tuple(s for _, s in view.groups),
                    out=view.out or (0,) * n, stack=view.pending)

    def observe(self, event: Event, seat: int, players: int) -> Event | None:
        """What ``seat`` perceives of an event at the table, or None if nothing.

        Cards that go where the seat cannot see them are replaced by None (their number
        stays public; so are those a ``deal`` gives to others); orders of shuffles, faces of hidden dice and hidden counters are left
        out; a ``show`` to another seat is not perceived; of an anonymous vote's votes, the
        seat perceives its own alone. The result is what a person at
        that seat would know: the events of a seat's public history (``View.history``).
        """
        kind, data = event.kind, event.data
        if kind in ("show", "show_counter"):
            return event if event.seat == seat else None
        if kind in ("move", "draw", "pick", "roll_dice"):
            slot = data.get("to", data.get("zone", -1))
            if slot >= 0 and not self._sees(slot, seat, players):
                sources = data.get("from")
                sources = sources if isinstance(sources, (list, tuple)) else ()
                if not (kind == "move" and sources and all(self._sees(s, seat, players) for s in sources)):
                    data = dict(data, cards=(None,) * len(data["cards"]))
            return Event(kind, None, data)
        if kind == "deal" and "dealt" in data:
            # how many each seat got is public; which cards, only where the seat may look
            dealt = tuple([(slot, cards if self._sees(slot, seat, players) else (None,) * len(cards))
                           for slot, cards in data["dealt"]])
            return Event(kind, None, dict(data, dealt=dealt))
        if kind in ("shuffle", "refill"):
            return Event(kind, None, {k: v for k, v in data.items() if k != "order"})
        if kind == "votes" and data.get("anonymous"):    # each seat perceives its own vote alone
            return Event(kind, None, dict(data, votes=tuple(v if s == seat else None for s, v in enumerate(data["votes"]))))
        if kind == "deal_end":
            public = []
            bases = self.cg.counter_base(players)
            for ci, decl in enumerate(self.game.counters):
                width = players if decl.per_player else 1
                if decl.seen == "all":
                    public.extend(data["counters"][bases[ci]:bases[ci] + width])
                else:
                    public.extend((None,) * width)
            return Event(kind, None, dict(data, counters=tuple(public)))
        return event

    def observe_common(self, event: Event, seats, players: int) -> Event | None:
        """What every seat of ``seats`` (one or more) perceives of an event: the
        :meth:`observe` of each, with a card, count or value any of them may not see
        replaced by None; None when one of them perceives nothing of it. What people
        sharing one screen may all be told."""
        common = None
        for seat in seats:
            seen = self.observe(event, seat, players)
            if seen is None:
                return None
            common = seen if common is None else Event(seen.kind, seen.seat, _common(common.data, seen.data))
        return common

    def _sees(self, slot: int, seat: int, players: int) -> bool:
        zi, owner = self.cg.zone_owner(slot, players)
        return self.cg.zones[zi].sees(owner, seat)

    def describe_event(self, event: Event, players: int) -> str | None:
        """A line of play-by-play for an event, or None for events not worth a line."""
        from .narrate import describe
        return describe(self, event, players)


def _common(a, b):
    """The part of two observations of one event that agree: a value where they differ is
    None (a tuple or dict, part by part)."""
    if a == b:
        return a
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return {k: _common(a[k], b[k]) for k in a}
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        return tuple(_common(x, y) for x, y in zip(a, b))
    return None
