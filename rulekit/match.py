"""Playing a match: players take turns on an engine, the log records every step.

The log is a list of JSON-ready records: one per decision (who decided what) and one per
event. The same game, seed, players and variants always give the same log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Callable, Iterable

import attrs

from .engine import Action, Engine, Event, State
from .errors import OptionError


class History(Sequence):
    """A seat's public history as it stood at one decision: the first ``length`` events of
    a list that only grows (so making one costs nothing, however long the match)."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: list, length: int):
        self._events = events
        self._length = length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self._events[:self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError(index)
        return self._events[index % self._length]

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"History({self._length} events)"


class MatchTooLong(RuntimeError):
    """A match reached its bound on decisions; ``record`` holds what was played."""

    def __init__(self, record: "MatchRecord", bound: int):
        self.record = record
        self.bound = bound
        super().__init__(f"the match was stopped after {bound} decisions without ending")


@attrs.define
class MatchRecord:
    """What happened in one match."""

    state: State
    steps: int
    log: list
    winners: tuple


#: the default bound on the decisions of one match: no shipped game comes near it (the
#: longest match measured with random bots took 16,701 decisions; see test_conformance)
MAX_DECISIONS = 200_000


def seat_rng(seed: int | None, seat: int) -> random.Random:
    """The random generator of one seat's bot, derived from the match seed."""
    return random.Random(f"{seed}/seat/{seat}")


def event_record(engine: Engine, event: Event) -> dict:
    data = {}
    for key, value in event.data.items():
        if key == "cards":
            value = [engine.kind_label(k) for k in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[key] = value
    return {"type": "event", "kind": event.kind, "to": event.seat, "data": data}


def action_record(engine: Engine, step: int, seat: int, action: Action) -> dict:
    return {"type": "decision", "step": step, "seat": seat, "action": action.name,
            "cards": [engine.kind_label(k) for k in action.cards], "params": list(action.params)}


def play_match(engine: Engine, players: list, n: int, seed: int | None,
               on_events: Callable[[State, Iterable[Event]], None] | None = None,
               max_steps: int = MAX_DECISIONS) -> MatchRecord:
    """Play one match to its end.

    Args:
        engine: the game.
        players: one player per seat (``choose(view, decision) -> Action``).
        n: the number of seats.
        seed: the seed of chance (shuffles, dice); None for a fresh random seed.
        on_events: called after every step with the new state and its events.
        max_steps: a bound on decisions; reaching it raises ``MatchTooLong``.

    Raises:
        OptionError: the player count does not fit the game.
        MatchTooLong: the match did not end within ``max_steps`` decisions (it carries
            the record of what was played).
        RulesRuntimeError: the rules reached a state they do not say how to leave.
    """
    if len(players) != n:
        raise OptionError(f"{len(players)} players for {n} seats")
    rng = random.Random(seed)
    state, events = engine.new_match(n, rng)
    log = [event_record(engine, e) for e in events]
    seen: list[list] = [[] for _ in range(n)]        # each seat's public history
    # only for the players that read it (``uses_history``): nobody else pays for it
    readers = [s for s, p in enumerate(players) if getattr(p, "uses_history", False)]

    def perceive(events):
        for e in events:
            for s in readers:
                o = engine.observe(e, s, n)
                if o is not None:
                    seen[s].append(o)
    perceive(events)
    if on_events:
        on_events(state, events)
    steps = 0
    while not state.is_terminal:
        if steps >= max_steps:
            raise MatchTooLong(MatchRecord(state, steps, log, ()), max_steps)
        decision = engine.decision(state)
        if not decision.options:
            from .engine.compile import RulesRuntimeError
            from .engine.narrate import seat_name
            line = engine.cg.phases[decision.phase].span.line
            raise RulesRuntimeError(f"{seat_name(decision.seat)} must decide in '{decision.phase}' but has no "
                                    f"legal action (line {line})")
        view = attrs.evolve(engine.view(state, decision.seat),
                            history=History(seen[decision.seat], len(seen[decision.seat])))
        action = players[decision.seat].choose(view, decision)
        log.append(action_record(engine, steps, decision.seat, action))
        state, events = engine.apply(state, action, rng)
        log.extend(event_record(engine, e) for e in events)
        perceive(events)
        if on_events:
            on_events(state, events)
        steps += 1
    return MatchRecord(state, steps, log, state.winners)
