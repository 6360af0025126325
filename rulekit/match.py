"""Playing a match: players take turns on an engine, the log records every step.

The log is a list of JSON-ready records: one per decision (who decided what) and one per
event. The same game, seed, players and variants always give the same log.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

import attrs

from .engine import Action, Engine, Event, State
from .errors import OptionError


@attrs.define
class MatchRecord:
    """What happened in one match."""

    state: State
    steps: int
    log: list
    winners: tuple


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
               max_steps: int = 2_000_000) -> MatchRecord:
    """Play one match to its end.

    Args:
        engine: the game.
        players: one player per seat (``choose(view, decision) -> Action``).
        n: the number of seats.
        seed: the seed of chance (shuffles, dice); None for a fresh random seed.
        on_events: called after every step with the new state and its events.
        max_steps: a safety bound on decisions; reaching it raises.

    Raises:
        OptionError: the player count does not fit the game.
        RuntimeError: the match did not end within ``max_steps`` decisions.
    """
    if len(players) != n:
        raise OptionError(f"{len(players)} players for {n} seats")
    rng = random.Random(seed)
    state, events = engine.new_match(n, rng)
    log = [event_record(engine, e) for e in events]
    if on_events:
        on_events(state, events)
    steps = 0
    while not state.is_terminal:
        if steps >= max_steps:
            raise RuntimeError(f"the match did not end within {max_steps} decisions")
        decision = engine.decision(state)
        view = engine.view(state, decision.seat)
        action = players[decision.seat].choose(view, decision)
        log.append(action_record(engine, steps, decision.seat, action))
        state, events = engine.apply(state, action, rng)
        log.extend(event_record(engine, e) for e in events)
        if on_events:
            on_events(state, events)
        steps += 1
    return MatchRecord(state, steps, log, state.winners)
