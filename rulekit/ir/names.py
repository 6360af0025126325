"""What a name of a ``.rules`` file stands for where it is read: resolved once, here.

A bare name may be a value the rules bound (a choice, a ``let``, a loop's variable, a
procedure's parameter), a counter, a seat (``current``, ``actor``, ``claimant``, a declared
seat, ``P1``…), a group of seats, or a symbol of a symbol set; in a set of seats, in a card
condition, as the target of ``set``/``add`` and as what ``for each`` runs over, the same
name is read by other rules. Each ``resolve_…`` function below is the one place that says
which, in order; the compiler (which reports what resolves to nothing, and checks the kinds)
and the code generator (which translates each symbol) both call it, so they cannot
disagree.

``table`` is the game's layout (:class:`rulekit.engine.compile.CompiledGame`: its
``counter_index``, ``seat_index``, ``group_index``, ``symbol_of``, ``symbols``…); ``scope``
is {name: kind} of the values bound where the name is read (the compiler's kinds: "num",
"seat", "group", "kind", "sym:SET"…, and keys starting with ``$`` that are not names).
"""

from __future__ import annotations

import re

import attrs

#: a seat by its number at the table: P1, P2…
PLAYER_NAME = re.compile(r"P([1-9][0-9]*)$")


@attrs.frozen(slots=True)
class Symbol:
    """The common base of what a name resolves to."""


@attrs.frozen(slots=True)
class Local(Symbol):
    """A value the rules bound: ``kind`` as the compiler's scope gives it."""

    name: str
    kind: str


@attrs.frozen(slots=True)
class Counter(Symbol):
    """A counter, by its index among the counters (``per_player``: one per seat, the
    actor's when no seat is named)."""

    index: int
    per_player: bool


@attrs.frozen(slots=True)
class SeatSlot(Symbol):
    """A seat the match keeps: ``index`` in the state's seats (current, actor, claimant,
    then the declared seats)."""

    index: int


@attrs.frozen(slots=True)
class NumberedSeat(Symbol):
    """``P<number>``: the seat ``number - 1`` (1 is the first seat)."""

    number: int


@attrs.frozen(slots=True)
class Group(Symbol):
    """A declared group of seats, by index (as a value: its seats still in the match)."""

    index: int


@attrs.frozen(slots=True)
class SymbolValue(Symbol):
    """A symbol of a symbol set: ``value`` is its place in the set (0 first)."""

    set: str
    value: int


@attrs.frozen(slots=True)
class Winners(Symbol):
    """``winners`` where ``returns`` reads it: the seats that won the match."""


@attrs.frozen(slots=True)
class SymbolSet(Symbol):
    """A symbol set as what ``for each`` runs over: each of its symbols in order."""

    name: str


@attrs.frozen(slots=True)
class CardTest(Symbol):
    """A name in a card condition that tests the card's kind: a flag, a card's name or a
    symbol (``what``: "flag", "card" or "symbol")."""

    name: str
    what: str


def resolve_value(table, name: str, scope) -> Symbol | None:
    """What a bare name read as a value stands for: a bound value first, then a counter, a
    seat, a group, a symbol, ``P<number>``; None when it is none of those."""
    if name in scope:
        return Local(name, scope[name])
    index = table.counter_index.get(name)
    if index is not None:
        return Counter(index, table.game.counters[index].per_player)
    if name in table.seat_index:
        return SeatSlot(table.seat_index[name])
    if name in table.group_index:
        return Group(table.group_index[name])
    if name in table.symbol_of:
        return SymbolValue(*table.symbol_of[name])
    numbered = PLAYER_NAME.match(name)
    if numbered:
        return NumberedSeat(int(numbered.group(1)))
    return None


def resolve_seats(table, name: str, scope) -> Symbol | None:
    """What a name read as a set of seats stands for: a bound seat or group, a declared
    group, ``winners`` where it is bound (``returns``), or a single seat (a declared seat
    or ``P<number>``); None when it is none of those. A bound value of another kind is
    not a set of seats (None)."""
    kind = scope.get(name)
    if kind in ("seat", "group"):
        return Local(name, kind)
    if name in table.group_index:
        return Group(table.group_index[name])
    if name in scope:
        return None
    if name == "winners":
        return Winners() if "$winners" in scope else None
    if name in table.seat_index:
        return SeatSlot(table.seat_index[name])
    numbered = PLAYER_NAME.match(name)
    return NumberedSeat(int(numbered.group(1))) if numbered else None


def is_one_seat(table, name: str, scope) -> bool:
    """Whether the name of ``everyone except NAME`` stands for one seat (then the seats
    go clockwise from its left, as people go round a table), not a group."""
    return scope.get(name) == "seat" or name not in scope and name not in table.group_index


def resolve_loop(table, name: str, scope) -> Symbol | None:
    """What ``for each VAR in NAME`` runs over when NAME is a symbol set (a
    :class:`SymbolSet`); None when NAME is read as a set of seats."""
    if name in table.symbols and name not in scope:
        return SymbolSet(name)
    return None


def resolve_card_test(table, name: str, scope) -> Symbol | None:
    """What a bare name in a card condition stands for: a bound card kind or symbol (a
    :class:`Local` of kind "kind" or "sym:…"), else a flag, a card's name or a symbol (a
    :class:`CardTest`); None when it is none of those."""
    kind = scope.get(name) or ""
    if kind == "kind" or kind.startswith("sym:"):
        return Local(name, kind)
    if name in table.flag_names:
        return CardTest(name, "flag")
    if name in table.card_names:
        return CardTest(name, "card")
    if name in table.symbol_of:
        return CardTest(name, "symbol")
    return None


def resolve_target(table, name: str, has_seat: bool) -> Symbol | None:
    """What the target of ``set``/``add``/``subtract`` stands for: a group or a seat (when
    no seat is named after it), else a counter; None when it is none of those."""
    if not has_seat and name in table.group_index:
        return Group(table.group_index[name])
    if not has_seat and name in table.seat_index:
        return SeatSlot(table.seat_index[name])
    index = table.counter_index.get(name)
    if index is not None:
        return Counter(index, table.game.counters[index].per_player)
    return None
