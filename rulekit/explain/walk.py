"""Walks over a game's model for the rulebook, saying nothing yet: its blocks of statements
and their nodes, how often each procedure is called, and the order in which play first
reaches the phases and procedures."""

from __future__ import annotations

from ..lang import model as m


def bodies(game: m.Game):
    """Every block of statements of the game, with where it is."""
    g = game
    yield g.setup
    for p in g.procedures:
        yield p.body
    for ph in g.phases:
        for a in ph.actions:
            yield a.body
        if ph.after:
            yield ph.after
    yield g.match.between


def all_nodes(game: m.Game):
    g = game
    for body in bodies(game):
        for stmt in body:
            yield from m.nodes(stmt)
    for c in g.claims:
        yield from m.nodes(c)
    for p in g.procedures:
        for param in p.params:
            yield param
    for ph in g.phases:
        yield from m.nodes(ph)
    yield from m.nodes(g.match)
    for c in g.counters:
        yield from m.nodes(c)


def count_calls(game: m.Game) -> dict:
    calls: dict = {}
    for body in bodies(game):
        for stmt in m.walk(body):
            if isinstance(stmt, m.Do):
                calls[stmt.procedure] = calls.get(stmt.procedure, 0) + 1
    return calls


def calls_itself(game: m.Game, name: str) -> bool:
    procedures = {p.name: p for p in game.procedures}
    seen, todo = set(), [name]
    while todo:
        proc = procedures.get(todo.pop())
        if proc is None:
            continue
        for stmt in m.walk(proc.body):
            if isinstance(stmt, m.Do):
                if stmt.procedure == name:
                    return True
                if stmt.procedure not in seen:
                    seen.add(stmt.procedure)
                    todo.append(stmt.procedure)
    return False


def flow_order(game: m.Game):
    """The phases and procedures in the order play first reaches them from the setup;
    those never reached follow in the order of the file."""
    phase_named = {p.name: p for p in game.phases}
    procedure_named = {p.name: p for p in game.procedures}
    phases: list[str] = []
    procs: list[str] = []
    todo: list = [game.setup]

    def visit(body):
        for stmt in m.walk(body):
            if isinstance(stmt, (m.GoTo, m.Ask)) and stmt.phase in phase_named and stmt.phase not in phases:
                phases.append(stmt.phase)
                phase = phase_named[stmt.phase]
                todo.extend(a.body for a in phase.actions)
                if phase.after:
                    todo.append(phase.after)
            elif isinstance(stmt, m.Do) and stmt.procedure in procedure_named and stmt.procedure not in procs:
                procs.append(stmt.procedure)
                todo.append(procedure_named[stmt.procedure].body)

    while todo:
        visit(todo.pop(0))
    todo = [game.match.between]            # what runs between deals comes last
    while todo:
        visit(todo.pop(0))
    phases += [p.name for p in game.phases if p.name not in phases]
    procs += [p.name for p in game.procedures if p.name not in procs]
    return phases, procs
