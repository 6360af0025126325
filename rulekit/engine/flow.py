"""How play goes on from an action: the step of a working copy once the deciding seat's
action is judged, and everything that follows it until the next decision.

The language's phases at run time (see docs/language.md): a turn's ``then`` and the
clockwise turn passing on, a window's poll (seats with nothing they could do are not
asked) and its close, a vote's effects taken together, the ``then`` blocks of pending
``ask``s, ``end turn`` and ``end deal``, the next deal's setup, and the end of the match
with its winners. What each action, block and procedure does is the generated module's
(:mod:`.codegen`); this is the order in which the engine runs those functions.

:class:`PhaseFlow` is a part of :class:`~.core.Engine` (its base class): it reads the
engine's compiled game (``cg``), its programs (``program``, ``pieces``, ``_programs``),
which phases are open to every seat (``_open``) and how the engine judges and labels
actions (``_decline_reason``, ``_no_such_action``, ``_judge``, ``_label``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..errors import IllegalAction, RulesRuntimeError
from .compile import DECLINE
from .runtime import (ACTOR, CURRENT, MAX_QUICK_DEALS, MAX_SETTLE, NO_EVENTS, Ctx, EndOfDeal, EndOfTurn, closed_nowhere,
                      endless_deals, endless_phases, no_go_to, nobody_to_play)

if TYPE_CHECKING:
    from .core import Action


class PhaseFlow:
    """The step and the phases' flow of :class:`~.core.Engine` (see the module docstring)."""

    def _step(self, ctx: Ctx, phase, seat: int, action: Action, rng: random.Random,
              body_only: bool = False) -> None:
        """The deciding ``seat`` takes ``action`` on the working copy ``ctx`` (its generator
        the placeholder that forbids chance): judged first, then done, until the next
        decision or the end of the match (``body_only``: only the action's own effects; a
        vote or a decline does nothing more than being judged).

        Raises:
            IllegalAction: before anything is changed but the actor, chosen cards and values.
        """
        kind = phase.kind
        ctx.seats[ACTOR] = seat
        prog = self._programs.get(ctx.n) or self.program(ctx.n)
        declined = action.name == DECLINE
        if declined:
            reason = self._decline_reason(ctx, phase, action)
        else:
            a = phase.by_name.get(action.name)
            reason = self._no_such_action(phase, action) if a is None else prog.check_of[a](ctx, action)
        if reason is not None:
            raise IllegalAction(reason)
        ctx.rng = rng
        if body_only and (declined or kind == "vote"):
            return                  # judged, and nothing more
        if declined:
            ctx.events.append(("decline", None, {"seat": seat, "phase": phase.name}))
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
            self._settle(ctx)
            return
        if kind == "vote":
            # a vote stays secret, and takes effect, only when every vote is cast
            ctx.events.append(("voted", None, {"seat": seat, "phase": phase.name}))
            votes = list(ctx.votes)
            votes[seat] = action
            ctx.votes = tuple(votes)
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
            self._settle(ctx)
            return
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("action", None, {"seat": seat, "action": a.name,
                                                "text": self._label(ctx, a) if ctx.texts else None,
                                                "ncards": len(action.cards)}))
        ctx.goto = None
        try:
            prog.bodies[phase.index][a.index](ctx)
        except EndOfDeal:
            ctx.goto = None
            self._end_deal(ctx)
        except EndOfTurn:
            self._end_turn(ctx)
        if ctx.phase == -1 or body_only:
            return
        if ctx.goto is None and kind == "each":
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
        elif ctx.goto is None:
            if ctx.stack:
                self._return(ctx)
            elif kind == "turn":
                self._finish_turn(ctx, phase)     # the turn's 'then', and a 'clockwise' turn passes on
            if ctx.goto is None and ctx.phase != -1:
                raise RulesRuntimeError(no_go_to(a.name, phase.name, a.span.line))
        self._settle(ctx)

    def _after(self, ctx: Ctx, phase):
        """The block that runs when ``phase`` closes (its 'then' / 'otherwise')."""
        return self.program(ctx.n).after[phase.index]

    def _run(self, ctx: Ctx, fn) -> None:
        try:
            fn(ctx)
        except EndOfDeal:
            ctx.goto = None
            self._end_deal(ctx)
        except EndOfTurn:
            self._end_turn(ctx)

    def _end_turn(self, ctx: Ctx) -> None:
        """``end turn``: leave every phase the turn asked, and end the turn that asked first."""
        if ctx.stack:
            _, values, current, actor, origin = ctx.stack[0]
            ctx.stack = ()
            ctx.locals = dict(values)
            ctx.seats[CURRENT] = current
            ctx.seats[ACTOR] = actor
        else:
            origin = ctx.phase if ctx.asker is None else ctx.asker
        phase = self.cg.phase_list[origin] if origin is not None and origin >= 0 else None
        if phase is None or phase.kind != "turn":
            raise RulesRuntimeError("'end turn' is reached outside a turn")
        ctx.goto = None
        self._finish_turn(ctx, phase)
        if ctx.goto is None and ctx.phase != -1:
            raise RulesRuntimeError(f"turn '{phase.name}' ends without saying where play goes (line {phase.span.line})")

    def _finish_turn(self, ctx: Ctx, phase) -> None:
        """A turn's action is over and nothing said where play goes: the turn's ``then``
        block runs; then a ``clockwise`` turn passes to the next seat."""
        if phase.closes:
            try:
                self._after(ctx, phase)(ctx)
            except EndOfTurn:
                ctx.goto = None                   # 'end turn' in the turn's own 'then' stops it
            except EndOfDeal:
                ctx.goto = None
                self._end_deal(ctx)
                return
        if ctx.goto is None and ctx.phase != -1 and phase.rotates:
            seat = self.pieces(ctx.n).rotate[phase.index](ctx)
            if seat is None:
                raise RulesRuntimeError(nobody_to_play(phase.name, phase.span.line))
            ctx.seats[CURRENT] = seat
            ctx.goto = phase.index

    def _return(self, ctx: Ctx) -> None:
        """An asked phase ended without saying where play goes: run the ``then`` blocks of
        the pending ``ask``s, innermost first, until one says where play goes."""
        origin = None
        while ctx.goto is None and ctx.phase != -1 and ctx.stack:
            index, values, current, actor, origin = ctx.stack[-1]
            ctx.stack = ctx.stack[:-1]
            ctx.locals = dict(values)
            ctx.seats[CURRENT] = current
            ctx.seats[ACTOR] = actor
            ctx.asker = origin
            self._run(ctx, self.program(ctx.n).continuations[index])
            ctx.asker = None
        if ctx.goto is None and ctx.phase != -1:
            # every pending 'then' is done: the turn that asked first ends as its actions do
            phase = self.cg.phase_list[origin] if origin is not None and origin >= 0 else None
            if phase is None or phase.kind != "turn" or not phase.closes and not phase.rotates:
                raise RulesRuntimeError("the rules end a 'then' block of 'ask' without saying where play goes")
            self._finish_turn(ctx, phase)

    def _run_setup(self, ctx: Ctx) -> None:
        ctx.deals_run += 1
        if ctx.deals_run > MAX_QUICK_DEALS:
            raise RulesRuntimeError(endless_deals())
        ctx.goto = None
        ctx.stack = ()
        ctx.claim = None
        ctx.claimed = None
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("deal_start", None, {"deal": ctx.deal}))
        self._run(ctx, self.program(ctx.n).setup)

    def _end_deal(self, ctx: Ctx) -> None:
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("deal_end", None, {"deal": ctx.deal, "counters": tuple(ctx.counters)}))
        pieces = self.pieces(ctx.n)
        over = ctx.over or pieces.until is None or bool(pieces.until(ctx))
        if over:
            ctx.phase = -1
            ctx.goto = None
            ctx.poll = ()
            winners = self._winners(ctx)
            ctx.events.append(("match_end", None, {"winners": winners}))
            ctx.winners = winners
            return
        self._run(ctx, pieces.between)
        ctx.deal += 1
        ctx.known = ()
        self._run_setup(ctx)

    def _winners(self, ctx: Ctx) -> tuple:
        # seats knocked out never win while another seat is still in
        seats = [s for s in range(ctx.n) if not ctx.out[s]] or list(range(ctx.n))
        saved = ctx.seats[ACTOR]
        for highest, key in self.pieces(ctx.n).rank_keys:
            values = {}
            for s in seats:
                ctx.seats[ACTOR] = s
                values[s] = key(ctx)
            best = max(values.values()) if highest else min(values.values())
            seats = [s for s in seats if values[s] == best]
        ctx.seats[ACTOR] = saved
        return tuple(seats)

    def _settle(self, ctx: Ctx) -> None:
        """Follow ``go to``s until a seat must decide or the match is over."""
        moves = 0
        while ctx.goto is not None and ctx.phase != -1:
            moves += 1
            if moves > MAX_SETTLE:
                raise RulesRuntimeError(endless_phases())
            target = self.cg.phase_list[ctx.goto]
            ctx.goto = None
            ctx.phase = target.index
            if target.kind == "turn":
                ctx.poll = ()
                return
            ctx.poll = tuple(self.pieces(ctx.n).polls[target.index](ctx))
            ctx.votes = (None,) * ctx.n
            self._advance_poll(ctx, target)

    def _advance_poll(self, ctx: Ctx, phase) -> None:
        """Skip seats that could do nothing; when nobody is left, close the window or vote."""
        saved = ctx.seats[ACTOR]
        makers = (self._programs.get(ctx.n) or self.program(ctx.n)).options[phase.index]
        while ctx.poll:
            if ctx.out[ctx.poll[0]]:            # knocked out while the window was open
                ctx.poll = ctx.poll[1:]
                continue
            ctx.seats[ACTOR] = ctx.poll[0]
            if self._open[phase.index] or any(make(ctx) is not None for make in makers):
                ctx.seats[ACTOR] = saved
                return
            ctx.poll = ctx.poll[1:]
        ctx.seats[ACTOR] = saved
        ctx.goto = None
        if phase.kind == "vote":
            ctx.events.append(("votes", None, {"phase": phase.name, "votes": tuple(None if v is None else v.name
                                                              for v in ctx.votes)}))
            # the choices take effect together: each statement of the chosen actions is done
            # for every voter (in seat order) before the next, so no effect sees another's
            ready = []
            for seat, vote in enumerate(ctx.votes):
                if vote is None:
                    continue
                a = phase.by_name[vote.name]
                ctx.seats[ACTOR] = seat
                if self._judge(ctx, a, vote) is None:
                    effects = self.program(ctx.n).effects_of[a]
                    ready.append((seat, effects, ctx.locals, ctx.chosen, ctx.chosen_zone))
            for i in range(max((len(r[1]) for r in ready), default=0)):
                for seat, effects, values, chosen, zone in ready:
                    if i < len(effects):
                        ctx.seats[ACTOR] = seat
                        ctx.locals, ctx.chosen, ctx.chosen_zone = values, chosen, zone
                        self._run(ctx, effects[i])
                        if ctx.phase == -1:
                            return
            ctx.goto = None
        if phase.closes:
            self._run(ctx, self._after(ctx, phase))
        if ctx.goto is None and ctx.phase != -1 and ctx.stack:
            self._return(ctx)
        if ctx.goto is None and ctx.phase != -1:
            raise RulesRuntimeError(closed_nowhere(phase.name, phase.span.line))
