"""Flow analyses of a game's rules that checks, bots and statistics share: what an action
leads to without another choice being made."""

from __future__ import annotations

import attrs

from ..lang import model as m


def challenge_actions(game) -> frozenset[tuple[str, str]]:
    """The actions of ``game`` (a checked :class:`~rulekit.lang.model.Game`) that challenge a
    claim: (phase name, action name) pairs.

    An action challenges when what it does reads whether the standing claim holds
    (``claim holds``, ``claim holds on …``) before any claim is made or cleared: in its own
    statements (its ``require`` aside: a condition of taking it is not an effect of it),
    in the procedures they call, in the ``then`` block of its phase if that is a turn,
    and in what play goes on to without another choice: for a phase it sends play to
    (``go to``, ``ask``), that phase's ``then``/``otherwise`` block and the conditions
    (``require``, ``forced when``) of its actions, which are judged to offer them. So an
    action that sends play to a vote whose ``then`` reveals whether the claim holds, or asks
    the claimant to prove it by an action that requires it, challenges; the action that
    makes the claim does not (it makes a claim first). At play, such an action counts as
    a challenge only when it is taken while a claim stands, by a seat other than its
    claimant. Computed once per game, from the rules alone.
    """
    reads = _ClaimReads(game)
    found = set()
    for phase in game.phases:
        for a in phase.actions:
            seen = frozenset({("phase", phase.name)})
            hit, stops = reads.block(a.body, seen)
            if not hit and not stops and phase.kind == "turn" and phase.after is not None:
                hit = reads.block(phase.after, seen)[0]
            if hit:
                found.add((phase.name, a.name))
    return frozenset(found)


_LOOPS = (m.ForEach, m.Repeat, m.ForRange, m.ForKinds)


def _reads(node) -> bool:
    """Whether ``node`` (an expression, or None) reads whether the standing claim holds."""
    return node is not None and m.mentions(node, m.ClaimHolds)


class _ClaimReads:
    """Whether statements of a game read the standing claim's truth before play stops going
    through them, for :func:`challenge_actions`. ``seen``: the procedures and phases
    already followed, ("procedure" or "phase", name) pairs, not followed again."""

    def __init__(self, game) -> None:
        self.procedures = {p.name: p for p in game.procedures}
        self.phases = {p.name: p for p in game.phases}

    def block(self, stmts, seen) -> tuple[bool, bool]:
        """(whether the block reads the claim's truth, whether play stops going through it:
        a claim made or cleared, a 'go to', the end of the deal or turn)."""
        for stmt in stmts:
            found, stops = self.statement(stmt, seen)
            if found or stops:
                return found, True
        return False, False

    def statement(self, stmt, seen) -> tuple[bool, bool]:
        """As :meth:`block`, for one statement."""
        reads, block = _reads, self.block
        if isinstance(stmt, (m.Require, m.Log)):
            return False, False
        if isinstance(stmt, m.MakeClaim):
            return any(reads(a) for a in stmt.args), True
        if isinstance(stmt, (m.ClearClaim, m.EndDeal, m.EndTurn)):
            return False, True
        if isinstance(stmt, m.If):
            if reads(stmt.cond):
                return True, True
            found, stops = block(stmt.then, seen)
            other, other_stops = block(stmt.orelse, seen)
            return found or other, stops and other_stops
        if isinstance(stmt, _LOOPS):
            head = any(reads(getattr(stmt, f.name)) for f in attrs.fields(type(stmt))
                       if f.name not in ("body", "span"))
            return head or block(stmt.body, seen)[0], False
        if isinstance(stmt, m.Do):
            key = ("procedure", stmt.procedure)
            if any(reads(a) for a in stmt.args):
                return True, True
            if key in seen or stmt.procedure not in self.procedures:
                return False, False
            return block(self.procedures[stmt.procedure].body, seen | {key})
        if isinstance(stmt, m.GoTo):
            return reads(stmt.start) or self.goes_to(stmt.phase, seen), True
        if isinstance(stmt, m.Ask):
            if reads(stmt.seat) or self.goes_to(stmt.phase, seen):
                return True, True
            return block(stmt.then, seen)
        return reads(stmt), False

    def goes_to(self, name: str, seen) -> bool:
        """Whether play sent to the phase ``name`` reads the claim's truth before another
        choice: in who plays it, its actions' conditions, or its ``then`` block."""
        reads = _reads
        key = ("phase", name)
        phase = self.phases.get(name)
        if key in seen or phase is None:
            return False
        seen = seen | {key}
        if reads(phase.seats):
            return True
        for a in phase.actions:
            if reads(a.forced) or any(reads(r.cond) for r in m.walk(a.body) if isinstance(r, m.Require)):
                return True
        return phase.after is not None and self.block(phase.after, seen)[0]
