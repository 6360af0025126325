"""The values the engine and its players exchange: an :class:`Action`, a :class:`State`, an
:class:`Event`, a player's :class:`Option` s and :class:`Decision`, and a seat's
:class:`View`. Immutable (named tuples where simulations make millions of them), and
holding nothing of the engine: a player that gets a view and a decision reaches no state
it could not know (see :class:`Decision` for the judge it carries).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import attrs

from .compile import DECLINE
from .runtime import ACTOR, multiset_contains


class Action(NamedTuple):
    """What a seat does: an action name, the chosen cards (kind indices, sorted) and the
    chosen values in the order the action chooses them. (A named tuple: simulations make
    millions of them.)"""

    name: str
    cards: tuple = ()
    params: tuple = ()


DECLINE_ACTION = Action(DECLINE)


class State(NamedTuple):
    """A position in a match. Zones hold card kind indices, the top card last.

    A named tuple (a simulation makes one per decision): ``state._replace(zones=…)`` gives
    a changed copy."""

    n: int
    zones: tuple
    counters: tuple
    seats: tuple
    phase: int                      # -1 once the match is over
    poll: tuple                     # seats still to ask in a window or vote; poll[0] decides
    votes: tuple                    # per seat: the action chosen in the running vote, or None
    claim: tuple | None             # (claim index, values, claimant)
    claimed: tuple | None           # (zone instance, number of cards on its top)
    known: tuple | None             # ((viewer or -1 for all, zone instance, cards, is the claimed group), …):
                                    # the zone holds at least those cards, as that viewer knows;
                                    # None: not tracked (Engine.working_copy(…, knowledge=False))
    deal: int
    groups: tuple = ()              # the seats of each declared group
    winners: tuple = ()
    out: tuple = ()                 # per seat: 0 while in the match, k for the k-th seat knocked out
    stack: tuple = ()               # pending 'ask … then': (block, values, current, actor, asking phase,
                                    # an 'each' window to resume and its poll left, or None), innermost last

    @property
    def is_terminal(self) -> bool:
        return self.phase < 0


class Event(NamedTuple):
    """One thing that happened: ``kind`` (action, decline, claim, move, draw, deal, shuffle,
    refill, roll, pick, reveal, show, voted, votes, log, deal_start, deal_end, match_end),
    ``seat`` the only recipient of a private ``show`` (None otherwise) and ``data`` (a
    named tuple; ``data`` is a dict, so an event is not hashable).

    Events are the omniscient record of a match (moves, draws and shuffles name hidden
    cards): a player never receives them, only its :class:`View`.
    """

    kind: str
    seat: int | None
    data: dict


_new = tuple.__new__             # a named tuple made from a tuple of its fields, without checks
_new_event = functools.partial(_new, Event)     # an Event from a tuple of its fields


class Option(NamedTuple):
    """One action a deciding seat may take now, before its cards and values are chosen.
    (A named tuple: a decision offers a few, a simulation makes millions.)

    ``cards``: the zone contents the cards are chosen from (kind indices) or None;
    ``low``/``high``: how many cards (``high`` None: any number up to all of them);
    ``params``: (name, allowed values) for each value the action chooses;
    ``shown``: for each value, how people name its allowed values (symbol names, P1…);
    ``exact``: every choice within ``cards``, ``low``..``high`` and ``params`` is legal (the
    action has no ``require`` that reads a choice and no range that depends on another), so
    a choice made within them needs no check;
    ``prompts``: for each value, the question the file asks a person (``choose n in 1..6
    "how many?"``) or None.
    """

    name: str
    label: str
    cards: tuple | None
    low: int
    high: int | None
    params: tuple
    shown: tuple = ()
    exact: bool = False
    prompts: tuple = ()


def option_reason(option: Option, action: Action) -> str | None:
    """None if ``action`` is a choice within ``option`` (its cards a sub-multiset of the
    option's, as many as it allows, each value among the allowed ones), else why not; for
    an ``exact`` option that makes the action legal."""
    if option.cards is None:
        if action.cards:
            return "this action takes no cards"
    else:
        high = len(option.cards) if option.high is None else option.high
        if not option.low <= len(action.cards) <= high:
            return f"choose {option.low} to {high} cards"
        if not multiset_contains(option.cards, action.cards):
            return "those cards are not there to choose"
    if len(action.params) != len(option.params):
        return "this action takes a different number of values"
    for value, (name, values) in zip(action.params, option.params):
        if value not in values:
            return f"{name} cannot be {value!r} here"
    return None


_DECLINE_OPTION = Option(DECLINE, "declines", None, 0, 0, (), (), True)


@attrs.frozen
class Decision:
    """The seat that must decide, the shape of the decision and its options.

    ``check(action) -> str | None`` says why an action would be illegal (None if legal),
    :meth:`is_legal` only whether it is, and ``actions(limit=None, largest_first=False,
    budget=None) -> list[Action]`` lists concrete legal actions; all answer about this
    decision only. From
    :meth:`Engine.decision` they answer from the state given (the caller owns it); the
    decision a match gives a player answers from a state sampled from that seat's view
    (:func:`rulekit.play.match.player_decision`), so a player never reaches the true state, and
    the match itself judges the action it returns.

    ``rejected``: None, or (action, reason) when the same seat's previous answer to this
    decision was illegal and it is asked again.
    """

    seat: int
    phase: str
    kind: str                       # turn, first, each or vote
    options: tuple                  # Option; a window also offers 'decline'
    check: object = attrs.field(default=None, eq=False, repr=False)
    actions: object = attrs.field(default=None, eq=False, repr=False)
    rejected: tuple | None = None   # (Action, reason) of the previous, illegal answer
    legal: object = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    # ``legal(action) -> bool``, ``check(action) is None`` without the sentence (see is_legal)
    guessed: bool = attrs.field(default=False, kw_only=True)
    # True when ``check``, ``legal`` and ``actions`` answer from a state dealt from the
    # seat's view where the phase's checks read cards it cannot see: a guess the match may
    # overrule either way (a person is then offered every choice, and the match judges)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal here: ``check(action) is None``, cheaper where the
        decision has a ``legal`` test (no reason is put into words)."""
        if self.legal is not None:
            return self.legal(action)
        return self.check(action) is None


@attrs.frozen
class View:
    """What one seat knows: never a card it could not know at the table.

    ``zones``: for each zone instance (name, owner seat or None, count or None when hidden,
    cards or None when this seat may not see them); ``known``: cards this seat was shown
    privately and which have not moved since, as (zone name, owner, cards).
    """

    seat: int
    players: int
    phase: str
    decider: int | None
    zones: tuple
    counters: tuple
    seats: tuple                    # (seat name, seat) of each: ``actor`` the decider while one decides
    claim: tuple | None             # (claim name, values, claimant, number of claimed cards, zone instance)
    known: tuple
    voted: tuple                    # seats who have voted in the running vote
    deal: int
    poll: tuple = ()                # seats still to be asked in the running window or vote
    groups: tuple = ()              # (group name, seats) of each declared group
    claim_text: str | None = None   # the standing claim as its label reads, e.g. "3 × 5"
    out: tuple = ()                 # per seat: 0 while in the match, k for the k-th seat knocked out
    dice: tuple = ()                # per zone instance: how many dice of each die it holds
                                    # (in the order of the game's dice), None when its count is hidden
    pending: tuple = ()             # the 'ask … then' blocks waiting for this phase (public)
    history: Sequence = attrs.field(default=(), eq=False, repr=False)
    # the events this seat perceived since the match began, in order (see Engine.observe);
    # filled by the match runner, empty from Engine.view alone

    def key(self) -> tuple:
        """A hashable information-state key: every field of the view and the events of its
        ``history`` (each event's data as nested tuples, lists as tuples), so that two views
        have the same key exactly when they are equal and perceived the same history. Use
        it to key a table of what a seat should do (a tabular policy, a search's nodes).
        A view from :meth:`Engine.view` alone has an empty history; ``play_match`` fills it
        for a player with ``uses_history``."""
        fields = tuple(_freeze(getattr(self, f.name)) for f in _VIEW_FIELDS)
        return fields + (tuple(_freeze(tuple(e)) for e in self.history),)

    def zone(self, name: str, owner: int | None = None):
        """The (count, cards) of a zone instance as this seat sees it."""
        for zname, zowner, count, cards in self.zones:
            if zname == name and zowner == owner:
                return count, cards
        raise KeyError((name, owner))


_VIEW_FIELDS = tuple(f for f in attrs.fields(View) if f.name != "history")


def acting_seats(seats: tuple, decider: int | None) -> tuple:
    """A state's seat values as a view shows them: ``actor`` is the seat taking the action,
    so while a decision waits (``decider`` not None) it is the seat deciding, not the last
    seat that acted."""
    if decider is None or seats[ACTOR] == decider:
        return seats
    return seats[:ACTOR] + (decider,) + seats[ACTOR + 1:]


def known_least(view: "View") -> dict:
    """What ``view``'s seat knows of the zones from its ``known`` facts: for each (zone,
    owner) a fact names, a ``Counter`` of the cards it holds at least (each fact says the
    zone holds at least its cards, so together the most copies of each kind one of them
    names: facts may name the same card), in the order the facts come."""
    known: dict = {}
    for zone, owner, cards in view.known:
        least = known.setdefault((zone, owner), Counter())
        for kind, copies in Counter(cards).items():
            least[kind] = max(least[kind], copies)
    return known


def seen_counters(rows) -> tuple:
    """The counters of a state, from a view's rows (counter, value or per-seat values, None
    where the seat may not see them), a value not seen read as 0."""
    counters: list = []
    for _, value in rows:
        if isinstance(value, tuple):
            counters.extend(0 if v is None else v for v in value)
        else:
            counters.append(0 if value is None else value)
    return tuple(counters)


def _freeze(value):
    """``value`` made hashable: dicts as sorted (key, value) tuples, lists and tuples as
    tuples, each part frozen too."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_freeze(v) for v in value))
    return value
