"""Straight-line steps: for an action of a turn, a window or a vote, one generated function
that takes a :class:`~.state.State` and returns the next one, with the state's fields in
Python locals (docs/design.md, "Decision: the next step engine is straight-line code over
locals").

``step_P_A(S, action, rng, made=None)`` judges the action (the same lines as
``check_P_A``, each refusal an :class:`~rulekit.errors.IllegalAction`), does its effects
over the locals (a vote is only cast), ends the turn as the phase says (its ``then``, the
turn passing ``clockwise``), and packs the new state; where play goes on to something
other than a turn (a window or a vote and its poll, the votes taken together when it
closes, the ``then`` blocks of pending ``ask`` s, the turn an ``end turn`` ends, the next
deal, the end of the match), ``arrive(…)`` follows it until a seat must decide. A
window's decline is ``step_P_decline``. The claimants of the claims a step makes are
appended to ``made`` (a list, or None; a simulation's statistics read them). A step records no events: the engine calls it for
``Engine.apply(..., events=False)`` and, where every action has one, ``play_match`` plays
by them (``Engine.stepper``). ``legal_P(S)`` lists the legal actions of a phase,
``start(…)`` makes the first state of a match and ``holds_of(S)`` says whether the
standing claim is true, the same way.

The writer is the module's :class:`~.codegen.Generator` itself, in a frame of locals: an
expression is written by the generator's own method and its reads of the context's fields
(``ctx.zones``, ``ctx.claim``…) are then read from the locals of the same names, and the
runtime's readers of a context from their forms over values (:func:`~.runtime.seats_in`,
:func:`~.runtime.clockwise_of`…). The steps are the one implementation of the rules at
run time: what the writer does not write (:class:`Unsupported`: none of the constructs
of the language today) is a defect, and the module is refused (:meth:`StepWriter.complete`).
``tests/test_steps.py`` asks the steps every way the engine answers, and
``tests/test_walks.py`` pins what they do.

A procedure is written into the step that calls it; one that calls itself, or one beyond
``MAX_INLINED``, is a function over the step's locals (``proc_K_of``, :meth:`StepWriter.call`)
that gives back the locals it rebinds.
"""

from __future__ import annotations

import re

from .. import ir
from ..lang import model as m
from .codegen import Generator, _tuple
from ..errors import CannotRun, Problem
from ..ir import names as naming
from .compile import DECLINE, KIND, NUM, SEAT, _reached, note_revealed
from .state import State
from .runtime import (ACTOR, CLAIMANT, CURRENT, MAX_CALLS, MAX_QUICK_DEALS, MAX_SETTLE, closed_nowhere, no_go_to,
                      nobody_to_play)

#: the fields of a context that a step holds in locals of the same names
_FIELD = re.compile(r"\bctx\.(zones|counters|seats|out|claim|claimed|known|n|groups|votes|chosen_zone|chosen)\b")

#: the runtime's readers of a context, and their forms over a step's locals
_READERS = (("in_play(ctx)", "seats_in(n, out)"),
            ("clockwise(ctx, ", "clockwise_of(n, out, "),
            ("step_seat(ctx, ", "step_seat_of(n, out, "),
            ("claimed_selection(ctx)", "claimed_top_of(zones, claimed)"),
            ("roll_die(ctx, ", "face_of(rng, ev, "),
            ("random_portion(ctx, ", "random_selection(rng, ev, "),
            ("ctx.events is not NO_EVENTS", "ev is not None"),          # events (a list, or None)
            ("ctx.events.append(", "ev.append("),
            ("ctx.texts", "texts"),
            ("ordered_seats(ctx, ", "ordered_seats_of(n, out, "),
            ("single_seat(ctx, ", "single_seat_of(out, "),
            ("add_to_group(ctx, ", "groups = group_with(groups, "),         # statements
            ("remove_from_group(ctx, ", "groups = group_without(groups, "),
            ("reveal_counter(ctx, ", "counter_shown(ev, counters, "))

#: a call of a claim's order over a context (see StepWriter.orders_over_locals)
_ORDER = re.compile(r"\b(rank|beats)_(\d+)\(ctx, ")

#: what is left of a context once a text is in the frame of locals: not written by a step
_CONTEXT = re.compile(r"\bctx\b|\bL\[")

#: the locals a claim's truth may read (``held``'s parameters, besides the claim)
_HELD_FIELDS = ("n", "zones", "counters", "seats", "out", "claimed", "known", "groups", "votes")

#: how many procedures the writer writes into one function (beyond: functions of their own)
MAX_INLINED = 64

#: the statements the step writer writes in the frame of locals (the rest: Unsupported)
_STATEMENTS = frozenset({"If", "MakeClaim", "KnockOut", "Reveal", "Log", "GoTo", "Assign", "LetValue",
                         "ClearClaim", "RollDice", "Move", "Draw", "Gather", "Shuffle", "Deal", "ForEach",
                         "ForKinds", "Do", "EndDeal", "LetGroup", "Ask", "EndTurn", "RemoveSeat", "Swap",
                         "RevealCounter", "Repeat", "ForRange"})

#: the locals an option's conditions may read (the parameters of ``can_P_A``)
_OPTION_FIELDS = "n, zones, counters, seats, votes, claim, claimed, known, groups, out"


#: the first lines of a function over a state ``S``: its fields in locals, the deciding seat of
#: a turn as the actor
_UNPACK = ("    n, zones, counters, seats, phase, poll, votes, claim, claimed, known, deal, groups, _, out, stack = S",
           "    if not out:",
           "        out = NOBODY_OUT",
           "    seats = list(seats)",
           f"    seats[{ACTOR}] = seats[{CURRENT}]")


def _packed(phase: str, poll: str = "()", zones: str = "tuple(zones)", counters: str = "tuple(counters)",
            deal: str = "deal", winners: str = "()") -> str:
    """The text of the new :class:`~.state.State` a step returns, from its locals (each
    argument: the text of that field; a match over, ``phase`` -1, keeps no pending 'ask')."""
    stack = "()" if phase == "-1" else "stack"
    return (f"new(State, (n, {zones}, {counters}, tuple(seats), {phase}, {poll}, votes, claim, claimed, known, "
            f"{deal}, groups, {winners}, out, {stack}))")


def _arrive(goto: str, stop: str = "0", closing: str = "True", deal: str = "deal", made: str = "made",
            work: str = "0", here: str = "phase") -> str:
    """The text of a call of ``arrive`` over a step's locals (each argument: its text;
    ``here``: the phase play is in, -2 in a setup)."""
    return (f"arrive(n, zones, counters, seats, votes, claim, claimed, known, {deal}, groups, out, stack, {goto}, "
            f"{stop}, {closing}, rng, {made}, {work}, ev, texts, {here})")


def _deal_end(indent: str = "") -> list[str]:
    """The lines that record the end of a deal (its event)."""
    return [f"{indent}if ev is not None:",
            f'{indent}    ev.append(("deal_end", None, {{"deal": deal, "counters": tuple(counters)}}))']


#: ``goto`` in a step's locals once an action or a closing block said nothing and an 'ask' is
#: pending: its 'then' blocks run next
RETURN = -3
#: ``goto`` ``FINISH - t`` after 'end turn': turn ``t``, which began the asks, ends
#: (its 'then', a 'clockwise' turn passing on)
FINISH = -10
#: ``goto`` ENDED after 'end turn' in a turn's own 'then': the block stops, and the turn passes
#: on as if it had said nothing
ENDED = -4


class Unsupported(Exception):
    """A construct the step writer does not write: a defect of rulekit (see
    :meth:`StepWriter.complete`), or where the writer tries a second way, that way;
    ``span``: where the file writes it, when known."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


class StepWriter(Generator):
    """Writes the straight-line steps of one game's module (see the module docstring); it
    shares the tables of the :class:`~.codegen.Generator` ``gen`` that writes the rest."""

    def __init__(self, gen: Generator):
        self.__dict__.update(gen.__dict__)        # the same tables, globals and compiler
        self.writes_counters = False
        self.writes_zones = False
        self.ends_match = False                   # a knock-out or an 'end deal' written may end the match
        self.between = False                      # writing 'between deals' (see _next_deal)
        self.held_call = None                     # how a step calls ``held``, once it is written
        self.orders: set = set()                  # the claims whose rank_i_of and beats_i_of are written
        self.inlined: list = []                   # the procedures being written into a step, outermost first
        self.inlines = 0                          # procedures written into the function being written
        self.functions: dict = {}                 # (procedure, …) -> its function (see call)
        self.in_function = False                  # whether a procedure's function is being written
        self.calls = False                        # a procedure's function is called in what is being written
        self.arrivals = False                     # whether steps may go on to any phase (see arrive)
        self.arrives = False                      # whether ``arrive`` is written (else no step is)
        self.pollers: dict = {}                   # phase index -> the name of its ``polled_P``, or None
        self.forcers: dict = {}                   # phase index -> the name of its ``forced_P_of``, or None
        self.makers: dict = {}                    # phase index -> the calls of its options over locals, or None
        self.voter_lets = False                   # a 'let' is written for the voter of a vote's effect
        self.asker = None                         # the text of the phase an 'ask' written now is made in
        self.resume = "None"                      # the text of what an 'ask' written now resumes when its
                                                  # 'then' says nothing: (an 'each' window, its poll left)
        self.in_then = False                      # whether a turn's 'then' block is being written
        self.in_setup = False                     # whether a deal's setup is being written
        self.ends_turn = False                    # an 'end turn' is written in the function being written
        self.helpers: list = []                   # the sources of the functions the polls call
        self.reasons: list = []                   # what the writer could not write (see steps)
        self.reason_spans: list = []              # where the file writes each, when known

    # ------------------------------------------------------------ the frame of locals
    def frame(self, text: str) -> str:
        """``text`` (written over a context) over the step's locals.

        Raises:
            Unsupported: it still needs a context.
        """
        text = _FIELD.sub(r"\1", text)
        for over_context, over_locals in _READERS:
            text = text.replace(over_context, over_locals)
        if self.held_call is not None:
            text = text.replace("holds(ctx)", self.held_call).replace("holds_on(ctx, ", f"{self.held_call[:-1]}, ")
        if self.orders:             # a claim's order, where it is written over locals
            text = _ORDER.sub(lambda f: f"{f[1]}_{f[2]}_of({_OPTION_FIELDS}, " if int(f[2]) in self.orders else f[0],
                              text)
        if _CONTEXT.search(text):
            raise Unsupported(text)
        return text

    def ex(self, node) -> str:
        return self.frame(super().ex(node))

    def refuse(self, reason: str) -> str:
        return f"raise IllegalAction({reason})"

    def bind_choice(self, name: str, var: str) -> list[str]:
        return []                   # the value is the local ``var`` (``self.env``)

    def stmt(self, node) -> list[str]:
        if type(node).__name__ not in _STATEMENTS:
            raise Unsupported(type(node).__name__, getattr(node, "span", None))
        return [self.frame(line) for line in super().stmt(node)]

    # ------------------------------------------------------------ statements
    def st_MakeClaim(self, node):
        c = self.cg.claims[node.claim]
        t = self.temp()
        lines = [f"_values{t} = {_tuple([self.ex(a) for a in node.args])}"]
        if c.table is not None:
            lines += [f"if _values{t} not in {self.ref(c.table, 'table')}:",
                      f"    not_in_table({c.name!r}, _values{t}, {node.span.line})"]
        label = "None" if self.cg.game.claims[c.index].label is None else f"claim_label_{c.index}"
        return lines + [f"claim = ({c.index}, _values{t}, seats[{ACTOR}])", f"seats[{CLAIMANT}] = seats[{ACTOR}]",
                        "if made is not None:", f"    made.append(seats[{ACTOR}])",
                        "if ev is not None:",
                        f"    ev.append(claim_event(seats[{ACTOR}], {c.name!r}, _values{t}, claim_text({label}, "
                        f"{c.name!r}, {self.reading()}, _values{t}) if texts else None))"]

    def reading(self) -> str:
        """The text of a context over the locals, for a text written over one (see
        :func:`~.runtime.reading`): the names in scope and their values as its locals."""
        values = "{" + ", ".join(f"{name!r}: {var}" for name, var in self.env.items()) + "}"
        return ("reading(n, zones, counters, seats, votes, claim, claimed, known, deal, groups, out, chosen, "
                f"chosen_zone, {values})")

    def st_KnockOut(self, node):
        remain = self.cg.game.match.remain
        t = self.temp()
        lines = [f"_seat{t} = {self.seat(node.seat)}", f"if not out[_seat{t}]:",
                 f"    out = knocked_out(out, _seat{t})",
                 "    if ev is not None:", f"        ev.append(out_event(_seat{t}))"]
        if remain is not None:
            self.ends_match = True
            ends = [] if self.between else _deal_end("        ")     # between deals, the deal has ended already
            lines += [f"    if out.count(0) <= {remain}:", *ends, "        stop = 1", "        break"]
        return lines

    def st_Reveal(self, node):
        viewer = self.seat(node.to) if node.to is not None else "-1"
        t = self.temp()
        return [f"_picked{t} = {self.frame(self.selection(node.cards))}",
                f"known = revealed(known, _picked{t}, {viewer}, {isinstance(node.cards, m.Claimed)})",
                "if ev is not None:", f"    ev.append(reveal_event(_picked{t}, {viewer}))"]

    def st_GoTo(self, node):
        target = self.cg.phases[node.phase]
        if target.kind != "turn" and not self.arrivals:
            raise Unsupported(f"go to a {target.kind}", node.span)
        lines = [] if node.start is None else [f"seats[{CURRENT}] = {self.seat(node.start)}"]
        if self.comp.ask_blocks:
            lines.append("stack = ()")          # a 'go to' leaves every pending 'ask'
        return lines + [f"goto = {target.index}  # {node.phase!r}", "break"]

    def st_Assign(self, node):
        lines = super().st_Assign(node)
        if lines is not None and any("ctx.counters" in line for line in lines):
            self.writes_counters = True
        return lines

    def st_RollDice(self, node):
        self.writes_zones = True
        t = self.temp()
        return [f"for _slot{t}, _rolled{t} in roll_dice_over(zones, rng, {self.frame(self.selection(node.cards))}, faces):",
                "    if known or claimed is not None:     # else nothing to forget",
                f"        known, claimed = touched(known, claimed, _slot{t})",
                "    if ev is not None:", f"        ev.append(roll_dice_event(_slot{t}, _rolled{t}))"]

    def st_Move(self, node):
        self.writes_zones = True
        checked = isinstance(node.cards, m.Chosen) and node is self.checked
        t = self.temp()
        if checked:                 # the chosen cards, found where they were chosen by the action's check
            return [f"_to{t} = {self.frame(self.zone(node.dest))}",
                    f"known, claimed, _moved{t} = moved_chosen(zones, known, claimed, KEEPERS, chosen_zone, chosen, "
                    f"_to{t}, {node.bottom}, {node.lay}, seats[{ACTOR}])",
                    "if ev is not None:",
                    f"    ev.append(move_event(_to{t}, _moved{t}, [(chosen_zone, chosen)], {node.lay}))"]
        return [f"_picked{t} = {self.frame(self.selection(node.cards))}",
                f"_to{t} = {self.frame(self.zone(node.dest))}",
                f"known, claimed, _moved{t} = moved_cards(zones, known, claimed, KEEPERS, _picked{t}, _to{t}, "
                f"{node.bottom}, {node.lay}, {isinstance(node.cards, m.ZoneRef)}, {isinstance(node.cards, m.Claimed)}, "
                f"{isinstance(node.cards, m.Chosen)}, {checked}, chosen_zone, seats[{ACTOR}])",
                "if ev is not None:", f"    ev.append(move_event(_to{t}, _moved{t}, _picked{t}, {node.lay}))"]

    def st_Draw(self, node):
        self.writes_zones = True
        t = self.temp()
        refill = self._refill_of(node.source.zone)
        return [f"_want{t}, _from{t}, _to{t} = {self.ex(node.count)}, {self.frame(self.zone(node.source))}, "
                f"{self.frame(self.zone(node.dest))}",
                f"known, claimed, _got{t}, _refills{t} = drawn_cards(zones, known, claimed, rng, _want{t}, _from{t}, "
                f"_to{t}, {refill!r})",
                "if ev is not None:",
                f"    ev.extend(draw_events(_want{t}, _from{t}, _to{t}, {refill!r}, _got{t}, _refills{t}))"]

    def st_Gather(self, node):
        self.writes_zones = True
        # what was known is forgotten (and still not tracked where it was not: see runtime.touched)
        return [f"gathered(zones, {self.frame(self.zone(node.zone))}, faces)",
                "known, claimed = (() if known is not None else None), None"]

    def st_Shuffle(self, node):
        self.writes_zones = True
        picked = self.frame(self.selection(node.cards)) if node.cards is not None else "None"
        t = self.temp()
        return [f"_to{t} = {self.frame(self.zone(node.zone))}",
                f"known, claimed, _order{t} = shuffled(zones, known, claimed, rng, _to{t}, {picked})",
                "if ev is not None:", f"    ev.append(shuffle_event(_to{t}, _order{t}))"]

    def st_Deal(self, node):
        zi = self.cg.zone_index.get(node.zone)
        if zi is None or not self.cg.zones[zi].per_player:
            raise Unsupported("deal to a zone that is not each seat's", node.span)
        self.writes_zones = True
        t = self.temp()
        refill = self._refill_of(node.source.zone)
        return [f"_from{t}, _want{t} = {self.frame(self.zone(node.source))}, {self.ex(node.count)}",
                f"known, claimed, _refills{t}, _dealt{t} = dealt_cards(zones, known, claimed, rng, n, out, _from{t}, "
                f"{self.cg.zone_base(self.n)[zi]}, _want{t}, {refill!r})",
                "if ev is not None:",
                f"    ev.extend(deal_events(_from{t}, {zi}, _want{t}, {refill!r}, _refills{t}, _dealt{t}))"]

    def each(self, var: str | None, values: str, typ: str, body, line: int, counted: str | None = None) -> list[str]:
        """A loop over the Python expression ``values`` (seats, symbols, kinds or numbers),
        ``var`` a local in its body (None: no name), its rounds counted against the step's
        (``work``; ``counted``: the line that counts them, else their number); a 'go to' or
        the end of the match in the body stops the step (the loop's ``break``, then this)."""
        t = self.temp()
        inner = dict(self.scope)
        saved = self.env
        if var is not None:
            inner[var] = typ
            self.env = {**self.env, var: f"l_{var}_{t}"}
        try:
            lines = self.block(body, inner)
        finally:
            self.env = saved
        stops = any(x.strip() == "break" for x in lines)
        return [f"_values{t} = {values}", counted or f"work = loop_work(work, len(_values{t}), 'for each', {line})",
                f"for {'_' if var is None else f'l_{var}_{t}'} in _values{t}:", *("    " + x for x in lines),
                *(["if goto is not None or stop:", "    break"] if stops else [])]

    def st_ForRange(self, node):
        t = self.temp()
        return [f"_low{t}, _high{t} = {self.ex(node.low)}, {self.ex(node.high)}",
                *self.each(node.var, f"range(_low{t}, _high{t} + 1)", NUM, node.body, node.span.line,
                           f"work = loop_rounds(work, _high{t} - _low{t} + 1, 'for each', {node.span.line})")]

    def st_Repeat(self, node):
        t = self.temp()
        return [f"_count{t} = {self.ex(node.count)}",
                *self.each(None, f"range(_count{t})", NUM, node.body, node.span.line,
                           f"work = loop_rounds(work, _count{t}, 'repeat', {node.span.line})")]

    def st_Swap(self, node):
        self.writes_zones = True
        t = self.temp()
        return [f"known, claimed, _moves{t} = swapped(zones, known, claimed, {self.zone(node.first)}, "
                f"{self.zone(node.second)})",
                "if ev is not None:", f"    ev.extend(_moves{t})"]

    def st_ForEach(self, node):
        over = naming.resolve_loop(self.cg, node.seats.name, self.scope) if node.seats.kind == "var" else None
        if over is not None:            # each symbol of a set
            return self.each(node.var, self.ref(range(len(self.cg.symbols[over.name])), "R"), "sym:" + over.name,
                             node.body, node.span.line)
        return self.each(node.var, self.frame(self.seat_set(node.seats)), SEAT, node.body, node.span.line)

    def st_ForKinds(self, node):
        kinds = tuple(i for i, k in enumerate(self.cg.kinds) if k.die is None)
        return self.each(node.var, self.ref(kinds, "kinds"), KIND, node.body, node.span.line)

    def st_Do(self, node):
        """A procedure's block written into the step, its values bound to locals of their
        own (it reads no other name of its caller's); a 'go to' in it stops the step."""
        decl = self.comp.procedure_decls.get(node.procedure)
        if decl is None or len(decl.params) != len(node.args):
            return None
        many = self.inlines >= MAX_INLINED and not (self.voter_lets and self._may_stop(node.procedure))
        if node.procedure in self.inlined or len(self.inlined) >= MAX_CALLS or many:
            # a procedure that calls itself, or one more than a function takes written in (procedures
            # that call others twice would double each time): a function of its own, called; but a
            # vote's effect that may end the match (a knock-out) is always written in
            return self.call(node, decl)
        self.inlines += 1
        t = self.temp()
        values = [self.ex(a) for a in node.args]
        env = {p.name: f"l_{p.name}_{t}" for p in decl.params}
        lines = [f"{', '.join(env.values())}{',' if len(values) == 1 else ''} = {_tuple(values)}"] if values else []
        saved = self.env, self.hoisted
        self.env, self.hoisted = env, None
        self.inlined.append(node.procedure)
        try:
            lines += self.block(decl.body, {p.name: self.comp.param_type(p) for p in decl.params})
        finally:
            self.env, self.hoisted = saved
            self.inlined.pop()
        return lines

    #: the locals a procedure's function takes and gives back (the rest it takes only reads,
    #: or changes in place: ``zones``, ``counters`` and ``seats`` lists, ``made``, ``ev``)
    _GIVEN_BACK = "votes, claim, claimed, known, groups, out, stack, goto, stop, work, chosen, chosen_zone"

    def call(self, node, decl) -> list[str]:
        """``do PROCEDURE(…)`` as a call of the procedure's function over the step's locals (see
        :meth:`procedure_function`), counted against ``MAX_CALLS`` as the calls within calls
        are: its depth is the procedures running around it, itself included."""
        key = (node.procedure, self.asker is not None, self.in_then, self.between, self.in_setup)
        made = self.functions.get(key) or self.procedure_function(node.procedure, decl, key)
        name, writes_zones, writes_counters, ends_match, ends_turn, stops = made
        if stops and self.voter_lets:
            raise Unsupported("a vote's effect that calls a procedure that may say where play goes", node.span)
        self.writes_zones |= writes_zones
        self.writes_counters |= writes_counters
        self.ends_match |= ends_match
        self.ends_turn |= ends_turn
        self.calls |= stops
        t = self.temp()
        depth = f"depth + {len(self.inlined)}" if self.in_function else str(len(self.inlined) + 1)
        args = "".join(f", {self.ex(a)}" for a in node.args)
        return [f"_depth{t} = {depth}",
                f"if _depth{t} > {MAX_CALLS}:",
                f"    too_deep({node.procedure!r}, {node.span.line})",
                f"{self._GIVEN_BACK} = {name}(n, zones, counters, seats, votes, claim, claimed, known, deal, groups, "
                f"out, stack, goto, stop, rng, made, ev, texts, work, chosen, chosen_zone, _depth{t}, {self.asker}, "
                f"{self.resume}{args})",
                *(["if goto is not None or stop:", "    break"] if stops else [])]

    def _may_stop(self, procedure: str) -> bool:
        """Whether ``procedure`` (or one it calls) may say where play goes or end the match:
        a 'go to', 'end deal', 'ask', 'end turn', or a knock-out where 'ends when' is declared
        (a procedure that only calls itself with smaller values stops nothing)."""
        bodies = {name: decl.body for name, decl in self.comp.procedure_decls.items()}
        return _reached(bodies, procedure, knockouts=self.cg.game.match.remain is not None) is not None

    def procedure_function(self, procedure: str, decl, key: tuple) -> tuple:
        """The function of ``procedure`` for the calls made with ``key`` (the procedure,
        whether an 'ask' may be written, whether a turn's 'then', 'between deals' or a setup
        is: what an 'ask', 'end turn' or knock-out in it writes), its source added to
        :attr:`helpers`: the procedure's block over the step's locals taken as parameters
        (with ``asker`` and ``resume``, what an 'ask' in it keeps in its frame, given by the
        caller), its values locals of its own. (name, whether it writes zones, counters, may
        end the match, ends a turn, may stop its caller)."""
        name = f"proc_{len(self.functions)}_of"
        may_stop = self._may_stop(procedure)
        self.functions[key] = (name, True, True, True, True, may_stop)     # while it is written: calls within
        state = ("scope", "env", "hoisted", "shared", "inlined", "inlines", "voter_lets", "checked", "in_function",
                 "writes_zones", "writes_counters", "ends_match", "ends_turn", "calls", "asker", "resume")
        saved = {k: getattr(self, k) for k in state}
        # what an 'ask' or 'end turn' in it writes is given by the caller, in the caller's locals
        if self.asker is not None:
            self.asker = "asker"
        self.resume = "resume"
        self.env = {p.name: f"l_{p.name}" for p in decl.params}
        self.hoisted = self.shared = self.checked = None
        self.inlined, self.inlines, self.voter_lets, self.in_function = [procedure], 0, False, True
        self.writes_zones = self.writes_counters = self.ends_match = self.ends_turn = self.calls = False
        try:
            lines = self.block(decl.body, {p.name: self.comp.param_type(p) for p in decl.params})
            made = (name, self.writes_zones, self.writes_counters, self.ends_match, self.ends_turn,
                    may_stop and (self.calls or any(x.strip() == "break" for x in lines)))
        finally:
            for k, v in saved.items():
                setattr(self, k, v)
        params = "".join(f", l_{p.name}" for p in decl.params)
        self.helpers.append("\n".join([
            f"def {name}(n, zones, counters, seats, votes, claim, claimed, known, deal, groups, out, stack, goto, stop, "
            f"rng, made, ev, texts, work, chosen, chosen_zone, depth, asker, resume{params}):",
            f"    # procedure {procedure!r} (line {decl.span.line}) over a step's locals, called where it is not "
            "written in: the locals it changes given back",
            "    while True:",
            *("        " + x for x in lines),
            "        break",
            f"    return {self._GIVEN_BACK}"]) + "\n")
        self.functions[key] = made
        return made

    def st_LetGroup(self, node):
        gi = self.cg.group_index.get(node.name)
        return None if gi is None else [f"groups = group_set(groups, {gi}, {self.seat_set(node.seats)})"]

    def st_EndDeal(self, node):
        self.ends_match = True
        if self.cg.game.match.until is None:
            return [*_deal_end(), "stop = 1", "break"]        # a match of one deal: it ends with it
        if not self.arrivals:
            raise Unsupported("the end of a deal of a match of several deals", node.span)
        return ["stop = 2", "break"]

    def st_LetValue(self, node):
        value = self.ex(node.value)
        self.scope[node.name] = self.kind_of(node.value)
        # among a vote's effects, taken voter after voter, the value is its voter's
        local = self.env[node.name] = f"_lets[_s][{node.name!r}]" if self.voter_lets else f"l_{node.name}"
        return [f"{local} = {value}"]

    # ------------------------------------------------------------ the step
    def effects(self, stmts, scope: dict) -> list[str]:
        """The lines of a block of effects that a 'go to' or the end of the match stops:
        inside a loop run once (each stop a ``break``)."""
        return ["while True:", *("    " + x for x in self.block(stmts, scope)), "    break"]

    def step(self, pi: int, action: m.Action, compiled) -> str | None:
        """The source of ``step_P_A(S, action, rng, made=None)``, or None when the writer does not
        write it yet (see :class:`Unsupported`)."""
        phase = self.cg.phase_list[pi]
        if not self.listed(pi) or not self.arrives:
            return None
        self.writes_counters = self.writes_zones = self.ends_turn = self.calls = False
        self.inlines = 0
        self.asker = str(pi)                    # an 'ask' here: the phase that asks
        if phase.kind == "each":                # and its poll goes on after the asks
            self.resume = f"({pi}, poll[1:])"
        try:
            self.scope, self.env, self.hoisted = {}, {}, None
            check = [self.frame(x) for x in self.check_lines(pi, action, compiled)]
            if phase.kind == "vote":
                return self.vote(pi, action, compiled, check)
            label = f"action_text(LABELS[{pi}][{compiled.index}], {self.reading()}, {action.name!r}) if texts else None"
            taken = ["if ev is not None:",
                     f'    ev.append(("action", None, {{"seat": seats[{ACTOR}], "action": {action.name!r}, "text": '
                     f'{label}, "ncards": len(action.cards)}}))']
            scope = self._action_scope(compiled)
            effects = action.body[self._choice_count(action):]
            # the check found the chosen cards in their zone: the first effect may move them unlooked
            self.checked = effects[0] if effects and any(type(st) is ir.ChooseCards for st in compiled.steps) else None
            try:
                lines = self.effects(effects, scope)
            finally:
                self.checked = None
            # its own effects alone (Engine.effects); effects that end the deal, the match or the
            # turn go on as the whole step does, to the next decision
            ends = self.calls or any(x.strip().startswith("stop =") or f"goto = {FINISH}" in x for x in lines)
            finish = [f"if body{f' and not stop and (goto is None or goto >= 0)' if ends else ''}:",
                      f"    return {_packed('phase', poll='poll', deal='deal')}"]
            # effects that never say where play goes, in a turn that passes on and has no
            # 'then' block: the turn passes on, unasked (no test of goto and stop)
            settled = phase.kind == "turn" and phase.rotates and not phase.closes and not self.comp.ask_blocks \
                and not self.calls and not any(re.search(r"\b(goto|stop) = ", x) for x in lines)
            if phase.kind != "each" and self.comp.ask_blocks:
                # nothing said where play goes and an 'ask' is pending: its 'then' blocks run
                finish += ["if goto is None and not stop and stack:", f"    goto = {RETURN}"]
            if settled:
                passing = self.finish_turn(pi)
                finish += [x[4:] for x in passing[1:]]
            elif phase.kind == "turn":
                finish += self.finish_turn(pi)
            # whether the step may end the deal or the match (else ``stop`` stays 0, untested)
            stops = self.calls or any(re.search(r"\bstop = ", x) for x in lines + finish)
        except Unsupported as exc:
            self.note(exc)
            return None
        finally:
            self.asker, self.resume = None, "None"
        out = [f"def step_{pi}_{compiled.index}(S, action, rng, made=None, ev=None, texts=False, body=False, "
               "judge=False):",
               f"    # the whole step of {action.name!r} in phase {phase.name!r} (line {action.span.line})",
               *self.judged(pi, check),
               *("    " + x for x in taken),
               *(["    counters = list(counters)"] if self.writes_counters else []),
               *(["    zones = list(zones)"] if self.writes_zones else []),
               "    goto = None",
               "    stop = 0",
               "    work = 0",
               *("    " + x for x in lines + finish + ([] if settled else self.goes_nowhere(pi, compiled, stops))),
               *("    " + x for x in self.going_on("deal", "made", "work", stops=stops)[-1 if settled else 0:])]
        return "\n".join(out) + "\n"

    def finish_turn(self, t: int) -> list[str]:
        """The lines that end turn ``t`` when nothing said where play goes:
        its 'then' block, then a 'clockwise' turn passes to the next seat."""
        phase, decl = self.cg.phase_list[t], self.cg.game.phases[t]
        lines = []
        if phase.closes:
            self.env, self.hoisted, self.in_then = {}, None, True
            try:
                then = self.effects(decl.after, {})
            finally:
                self.in_then = False
            lines += ["if goto is None and not stop:", *("    " + x for x in then)]
            if any(isinstance(x, m.EndTurn) for x in m.nodes(self.cg.game)):   # 'end turn' in it: the block stops
                lines += [f"    if goto == {ENDED}:", "        goto = None"]
        if phase.rotates:
            self.scope, self.env, self.hoisted = {}, {}, None
            among = "None" if decl.rotation.among is None else self.frame(self.seat_set(decl.rotation.among))
            # the seat on the left, when it is in and any seat may play (else the search)
            following = [f"    following = next_seat_of(n, out, seats[{CURRENT}], {among})"] if among != "None" else [
                f"    following = (seats[{CURRENT}] + 1) % n", "    if out[following]:",
                f"        following = next_seat_of(n, out, seats[{CURRENT}], None)"]
            lines += ["if goto is None and not stop:",
                      *following,
                      "    if following is None:",
                      f"        raise RulesRuntimeError({nobody_to_play(phase.name, phase.span.line)!r})",
                      f"    seats[{CURRENT}] = following",
                      f"    goto = {t}"]
        return lines

    def st_Ask(self, node):
        """``ask [SEAT to] PHASE``: a frame (its 'then' block's index, the values it reads,
        ``current`` and ``actor``, the phase that began the asks, and what play resumes when
        the block says nothing: an 'each' window asked from and the seats it has still to
        ask, or None) goes on the stack, and play goes to the phase."""
        inner = {k: v for k, v in self.scope.items() if not k.startswith("$")}
        frame = self.comp.ask_frames.get((node, tuple(sorted(inner.items()))))
        if frame is None or self.asker is None or not self.arrivals:
            raise Unsupported("an 'ask' outside an action, a window's or vote's close, or an 'ask''s 'then'", node.span)
        index, names, target = frame
        if any(name not in self.env for name in names):
            raise Unsupported("an 'ask' that keeps a value the step has no local of", node.span)
        values = _tuple([f"({name!r}, {self.env[name]})" for name in names])
        lines = [f"stack = stack + (({index}, {values}, seats[{CURRENT}], seats[{ACTOR}], "
                 f"stack[0][4] if stack else {self.asker}, {self.resume}),)"]
        if node.seat is not None:
            lines.append(f"seats[{CURRENT}] = {self.seat(node.seat)}")
        return lines + [f"goto = {self.cg.phases[target].index}  # ask {target!r}", "break"]

    def st_EndTurn(self, node):
        """``end turn``: every pending 'ask' is left, and the turn that began them (or this
        one) ends (see :meth:`arrive`)."""
        if self.asker is None or not self.arrivals:
            raise Unsupported("'end turn' outside an action, a window's or vote's close, or an 'ask''s 'then'", node.span)
        if self.in_then:
            return [f"goto = {ENDED}", "break"]
        self.ends_turn = True
        turns = {p.index for p in self.cg.phase_list if p.kind == "turn"}
        outside = f"'end turn' is reached outside a turn (line {node.span.line})"
        if self.in_setup:       # no ask is pending: the turn play was in ends, if it is one
            return [f"if {self.asker} not in {turns!r}:",
                    f"    raise RulesRuntimeError({outside!r})",
                    f"goto = {FINISH} - {self.asker}",
                    "break"]
        return [f"if (stack[0][4] if stack else {self.asker}) not in {turns!r}:",
                f"    raise RulesRuntimeError({outside!r})",
                "if stack:",
                f"    seats[{CURRENT}] = stack[0][2]",
                f"    seats[{ACTOR}] = stack[0][3]",
                f"    goto = {FINISH} - stack[0][4]",
                "    stack = ()",
                "else:",
                f"    goto = {FINISH} - {self.asker}",
                "break"]

    def goes_nowhere(self, pi: int, compiled, stops: bool = True) -> list[str]:
        """The lines for an action of phase ``pi`` that did not say where play goes: in an
        'each' window, the next seat it asks (or its close); anywhere else, an error
        (``stops``: the step may have ended the deal or the match)."""
        phase = self.cg.phase_list[pi]
        if phase.kind != "each":
            return [f"if goto is None{' and not stop' if stops else ''}:",
                    f"    raise RulesRuntimeError({no_go_to(compiled.name, phase.name, compiled.span.line)!r})"]
        zones = "tuple(zones)" if self.writes_zones else "zones"
        counters = "tuple(counters)" if self.writes_counters else "counters"
        return ["if goto is None and not stop:",
                "    poll = poll[1:]",
                *("    " + x for x in self.advance(pi)),
                "    if poll:",
                f"        return {_packed(str(pi), poll='poll', zones=zones, counters=counters)}",
                f"    return {_arrive(str(pi), work='work', here=str(pi))}"]

    def judged(self, pi: int, check: list) -> list[str]:
        """The first lines of a step of phase ``pi``: the state's fields in locals, then the
        action judged by the lines ``check`` (a condition that reads what is not there
        refuses it); with ``judge`` the step stops there, the action legal."""
        return [*self.unpack(pi), "    params = action.params", "    given = len(params)", "    chosen = ()",
                "    chosen_zone = -1", "    try:", *("        " + x for x in check), "    except KeyError:",
                f"        raise IllegalAction({ir.steps.DEFAULT_MESSAGE!r}) from None",
                "    if judge:                    # only judged (Engine.why_illegal): legal",
                "        return None"]

    def vote(self, pi: int, action: m.Action, compiled, check: list) -> str:
        """The source of the step of ``action`` in vote ``pi``: judged (``check``: its lines),
        the vote is cast, secret and without effect until the vote closes (see
        :meth:`tally`); the next seat the vote still asks votes, or it closes."""
        phase = self.cg.phase_list[pi]
        return "\n".join([f"def step_{pi}_{compiled.index}(S, action, rng, made=None, ev=None, texts=False, "
                          "judge=False):",
                          f"    # a vote cast for {action.name!r} in phase {phase.name!r} (line {action.span.line})",
                          *self.judged(pi, check),
                          "    if ev is not None:",
                          f'        ev.append(("voted", None, {{"seat": seats[{ACTOR}], "phase": {phase.name!r}}}))',
                          "    votes = list(votes)",
                          f"    votes[seats[{ACTOR}]] = action",
                          "    votes = tuple(votes)",
                          "    poll = poll[1:]",
                          *("    " + x for x in self.advance(pi)),
                          "    if poll:",
                          f"        return {_packed(str(pi), poll='poll', zones='zones', counters='counters')}",
                          f"    return {_arrive(str(pi), here=str(pi))}"]) + "\n"

    def unpack(self, pi: int, body: str | None = None) -> list[str]:
        """The first lines of a function over a state ``S`` of phase ``pi``: its fields in
        locals, the deciding seat the actor (a turn's current seat, a window's first asked);
        with ``body`` (the text of the function's other lines), the knock-outs and the seats
        only where it reads them."""
        lines = [*_UNPACK[:-1], f"    seats[{ACTOR}] = {'seats[%d]' % CURRENT if self.cg.phase_list[pi].kind == 'turn' else 'poll[0]'}"]
        if body is not None:
            reads = {name for name in ("out", "seats") if re.search(rf"\b{name}\b", body)}
            lines = [lines[0], *(lines[1:3] if "out" in reads else []), *(lines[3:] if "seats" in reads else [])]
        return lines

    def going_on(self, deal: str, made: str, work: str, here: str = "phase", stops: bool = True) -> list[str]:
        """The last lines of a step: the next state, on a turn (``goto``) at once, else where
        :meth:`arrive` leads (``stop``: the match or the deal is over, never where ``stops``
        is False; ``here``: the phase the step was taken in, -2 for the setup)."""
        turns = [p.index for p in self.cg.phase_list if p.kind == "turn"]
        zones = "tuple(zones)" if self.writes_zones else "zones"
        counters = "tuple(counters)" if self.writes_counters else "counters"
        state = f"return {_packed('goto', zones=zones, counters=counters, deal=deal)}"
        if len(turns) == len(self.cg.phase_list) and not self.comp.ask_blocks and not self.ends_turn:
            going = "if stop:" if stops else None
        else:
            going = f"if {'stop or ' if stops else ''}goto not in {_tuple([str(t) for t in turns])}:"
        if going is None:
            return [state]
        return [going, f"    return {_arrive('goto', 'stop', 'False', deal, made, work, here)}", state]

    def window(self, pi: int) -> bool:
        """Whether the steps write phase ``pi``, a window ('first' or 'each') or a vote: one
        that nothing forces, and open to every seat it asks (an action that requires
        nothing) or whose seats' options can be told over locals (see :meth:`poller`)."""
        p = self.cg.phase_list[pi]
        if p.kind not in ("first", "each", "vote") or p.forced and self.forcer(pi) is None:
            return False
        return self.open(pi) or self.poller(pi) is not None

    def forcer(self, pi: int) -> str | None:
        """The name of ``forced_P_of(…)`` (codegen's ``forced_P`` over the locals an option
        reads: the message of the 'forced when' action that binds the actor, or None), its
        source added to :attr:`helpers`; None when it needs a context."""
        if pi not in self.forcers:
            name = f"forced_{pi}_of"
            try:
                body = [self.frame(x) for x in self.forced_lines(self.cg.game.phases[pi])]
            except Unsupported as exc:
                self.note(exc)
                name = None
            else:
                self.helpers.append("\n".join([f"def {name}({_OPTION_FIELDS}):",
                                               "    # what binds the actor, over locals", *("    " + x for x in body)])
                                    + "\n")
            self.forcers[pi] = name
        return self.forcers[pi]

    def open(self, pi: int) -> bool:
        """Whether phase ``pi`` has an action that requires and chooses nothing: every seat
        it asks has an option."""
        return any(not a.steps for a in self.cg.phase_list[pi].actions)

    def option_makers(self, pi: int) -> list | None:
        """The calls of ``option_P_A_of(…)`` of the actions of phase ``pi`` (each the action's
        :class:`Option` for its actor, or None: codegen's ``option_P_A`` over the locals an
        option reads, and where an option needs a legal choice the choice search
        ``first_P_A_of``), their sources added to :attr:`helpers` once; None when an option
        needs a context."""
        if pi not in self.makers:
            phase, decl = self.cg.phase_list[pi], self.cg.game.phases[pi]
            sources, calls = [], []
            try:
                for a, ca in zip(decl.actions, phase.actions):
                    name = f"option_{pi}_{ca.index}"
                    text = self.option_function(pi, a, ca, f"enum_{pi}_{ca.index}")
                    text = text.replace(f"def {name}(ctx):", f"def {name}_of({_OPTION_FIELDS}):")
                    first = f"first_{pi}_{ca.index}"
                    if f"none_legal(ctx, {first})" in text:        # whether some choice of it is legal
                        sources.append(self.first_over_locals(pi, a, ca))
                        text = text.replace(f"none_legal(ctx, {first})", f"none_legal(({_OPTION_FIELDS}), {first}_of)")
                    sources.append(self.frame(text))
                    calls.append(f"{name}_of({_OPTION_FIELDS})")
            except Unsupported as exc:
                self.note(exc)
                calls = None
            else:
                self.helpers += sources
            self.makers[pi] = calls
        return self.makers[pi]

    def poller(self, pi: int) -> str | None:
        """The name of ``polled_P(poll, …)``: ``poll`` (seats) from its first seat that is
        still in and has an option in phase ``pi`` (each asked as the actor, restored
        after), the others skipped (see :meth:`option_makers`);
        its source goes to :attr:`helpers`. None when an option needs a context."""
        if pi in self.pollers:
            return self.pollers[pi]
        calls = self.option_makers(pi)
        if calls is None:
            self.pollers[pi] = None
            return None
        name = self.pollers[pi] = f"polled_{pi}"
        self.helpers.append("\n".join([
            f"def {name}(poll, {_OPTION_FIELDS}):",
            f"    # the seats {self.cg.phase_list[pi].name!r} still asks: from the first of poll that is in and has "
            "an option",
            f"    saved = seats[{ACTOR}]",
            "    while poll:",
            "        if out[poll[0]]:",
            "            poll = poll[1:]",
            "            continue",
            f"        seats[{ACTOR}] = poll[0]",
            f"        if {' or '.join(f'{c} is not None' for c in calls) or 'False'}:",
            "            break",
            "        poll = poll[1:]",
            f"    seats[{ACTOR}] = saved",
            "    return tuple(poll)"]) + "\n")
        return name

    def declines(self, pi: int, line: str) -> list[str]:
        """The lines (in a function over a state of phase ``pi``, its locals unpacked) that
        offer a window's decline by ``line`` (which makes it), unless a 'forced when' binds
        the seat; none for a turn or a vote."""
        phase = self.cg.phase_list[pi]
        if phase.kind not in ("first", "each"):
            return []
        if not phase.forced:
            return [f"    {line}"]
        return [f"    if {self.forcer(pi)}({_OPTION_FIELDS}) is None:", f"        {line}"]

    def listed(self, pi: int) -> bool:
        """Whether the writer writes phase ``pi``'s listing and steps: a turn, or a window or
        vote it writes (see :meth:`window`) where steps go on to any phase."""
        return self.cg.phase_list[pi].kind == "turn" or self.arrivals and self.window(pi)

    def options(self, pi: int) -> str | None:
        """The source of ``options_P(S)``: the options of the deciding seat in a state of phase
        ``pi``, without texts (``Engine.decide`` for a player who reads none), a window's
        decline last unless a 'forced when' binds the seat; None when an option needs a
        context."""
        calls = self.option_makers(pi)
        phase = self.cg.phase_list[pi]
        if calls is None or phase.forced and self.forcer(pi) is None:
            return None
        declines = self.declines(pi, f"found.append(new(Option, ({DECLINE!r}, 'declines', None, 0, 0, (), (), True, "
                                         "())))")
        return "\n".join([f"def options_{pi}(S):",
                          f"    # the options of the deciding seat in phase {phase.name!r}, without texts",
                          *self.unpack(pi),
                          f"    found = [option for option in ({', '.join(calls)}{',' if len(calls) == 1 else ''}) "
                          "if option is not None]",
                          *declines,
                          "    return tuple(found)"]) + "\n"

    def first_over_locals(self, pi: int, action: m.Action, compiled) -> str:
        """The source of ``first_P_A_of(F, largest_first, budget)``: the action's search for
        its first legal choice (codegen's ``first_P_A``) over the fields ``F``, a tuple of
        the locals an option reads, for :func:`~.codegen.none_legal`."""
        saved, self.stop_listing = self.stop_listing, "return"
        try:
            hoisted, levels, loops = self.enumeration(pi, action, compiled)
            text = self._enumerator_text(f"enum_{pi}_{compiled.index}", f"    # the first legal choice of "
                                         f"{action.name!r} in {self.cg.phase_list[pi].name!r}, over locals",
                                         "first", hoisted, levels, loops, action.name)
        finally:
            self.stop_listing = saved
        text = text.replace(f"def first_{pi}_{compiled.index}(ctx, largest_first, budget):",
                            f"def first_{pi}_{compiled.index}_of(F, largest_first, budget):")
        return self.frame(text.replace("    ctx.locals = {}\n", f"    {_OPTION_FIELDS} = F\n"))

    def advance(self, pi: int) -> list[str]:
        """The lines that move the local ``poll`` of phase ``pi`` on to the first seat it
        still asks (``seats`` a list)."""
        if self.open(pi):
            return ["while poll and out[poll[0]]:", "    poll = poll[1:]"]
        return [f"poll = {self.poller(pi)}(poll, {_OPTION_FIELDS})"]

    def tally(self, pi: int) -> list[str]:
        """The lines that close vote ``pi`` over :meth:`arrive`'s locals (zones and counters
        lists): each vote judged again (its seat the actor; an illegal one dropped), then
        the voters' effects taken statement by statement, every voter's in seat order
        before the next statement.

        A knock-out that ends the match stops the tally (``stop`` 1).

        Raises:
            Unsupported: an effect says where play goes or ends the deal.
        """
        decl, phase = self.cg.game.phases[pi], self.cg.phase_list[pi]
        judged, taken, sizes = [], [], []
        stops = False                           # a knock-out among the effects may end the match
        for i, (a, ca) in enumerate(zip(decl.actions, phase.actions)):
            self.scope, self.env, self.hoisted = {}, {}, None
            check = [self.frame(x) for x in self.check_lines(pi, a, ca)]
            values = list(self.env.values())
            judged += [f"{'if' if i == 0 else 'elif'} action[0] == {a.name!r}:", *("    " + x for x in check),
                       f"    ready.append((_s, {i}, chosen, chosen_zone, {_tuple(values)}))"]
            stmts = list(a.body[self._choice_count(a):])
            self.scope, self.checked = dict(self._action_scope(ca)), None
            unpack = [f"{', '.join(values)}{',' if len(values) == 1 else ''} = _vals"] if values else []
            for k, st in enumerate(stmts):
                self.voter_lets = True          # a 'let' keeps its value for its voter's later statements
                try:
                    lines = self.stmt(st)
                finally:
                    self.voter_lets = False
                note_revealed(self.scope, st)
                if any(x.strip().startswith("goto =") or x.strip().startswith("stop =") and x.strip() != "stop = 1"
                       for x in lines):
                    raise Unsupported("a vote's effect that says where play goes")
                stops = stops or any(x.strip() == "break" for x in lines)
                taken += [f"{'elif' if taken else 'if'} _a == {i} and _i == {k}:", f"    seats[{ACTOR}] = _s", *("    " + x for x in unpack + lines)]
            sizes.append(str(len(stmts)))
        secret = ', "anonymous": True' if decl.anonymous else ""
        return ["if ev is not None:",
                f'    ev.append(("votes", None, {{"phase": {phase.name!r}, "votes": tuple([None if v is None else v.name '
                f'for v in votes]){secret}}}))',
                "_lets = [{} for _ in range(n)]",
                "ready = []",
                "for _s in range(n):",
                "    action = votes[_s]",
                "    if action is None:",
                "        continue",
                f"    seats[{ACTOR}] = _s",
                "    params = action.params",
                "    given = len(params)",
                "    chosen = ()",
                "    chosen_zone = -1",
                "    try:",
                *("        " + x for x in judged),
                "    except (IllegalAction, KeyError):",
                "        pass",
                f"for _i in range(max([{_tuple(sizes)}[r[1]] for r in ready], default=0)):",
                "    for _s, _a, chosen, chosen_zone, _vals in ready:",
                *("        " + x for x in taken or ["pass"]),
                # the match is over: no later effect, and no closing block (see _window)
                *(["    if stop:", "        break"] if stops else []),
                # an anonymous vote's closing block does not run as its last voter
                *([f"seats[{ACTOR}] = seats[{CURRENT}]"] if decl.anonymous else [])]

    def arrive(self) -> str:
        """The source of ``arrive(…)``: where play goes from the end of a step, over its
        locals: on to phase ``goto`` (a window asks its poll, the first seat that is still
        in decides; an empty poll closes it at once, as ``closing`` True does: its
        'otherwise' block says where play goes), to the next deal (``stop`` 2: the match
        ends if its 'until' holds, else 'between deals' and the setup run) or to the end of
        the match (``stop`` 1: its winners), until a seat must decide. Windows and later
        deals only where :attr:`arrivals` (see :meth:`steps`)."""
        g, cg = self.cg.game, self.cg
        self.inlines = 0
        lines = self._next_deal() if self.arrivals and g.match.until is not None else []
        lines += ["    if stop:", *("        " + x for x in self.winners()),
                  "        if ev is not None:",
                  '            ev.append(("match_end", None, {"winners": tuple(found)}))',
                  f"        return {_packed('-1', winners='tuple(found)')}",
                  "    moves += 1",
                  f"    if moves > {MAX_SETTLE}:",
                  "        raise RulesRuntimeError(endless_phases())"]
        if self.arrivals and self.comp.ask_blocks:
            lines += self._returns()
        if self.arrivals and any(isinstance(x, m.EndTurn) for x in m.nodes(g)):
            lines += self._finishes()
        turns = [p.index for p in cg.phase_list if p.kind == "turn"]
        if turns:
            lines += [f"    if goto in {_tuple([str(t) for t in turns])}:", f"        return {_packed('goto')}"]
        for p, decl in zip(cg.phase_list, g.phases):
            if p.kind != "turn" and self.arrivals:
                lines += self._window(p, decl)
        return "\n".join(["def arrive(n, zones, counters, seats, votes, claim, claimed, known, deal, groups, out, stack, "
                          "goto, stop, closing, rng, made, work, ev, texts, here):",
                          "    # where play goes from the end of a step, until a seat must decide (see StepWriter.arrive)",
                          "    chosen = ()",
                          "    chosen_zone = -1",
                          "    moves = deals = 0",
                          "    while True:",
                          *("    " + x for x in lines),
                          "        raise RulesRuntimeError('no phase %r to go to' % (goto,))"]) + "\n"

    def _returns(self) -> list[str]:
        """:meth:`arrive`'s lines for ``goto`` RETURN: the 'then' blocks of the pending asks
        run, innermost first, each with the values its frame kept, until one says where
        play goes, or one made by an action of an 'each' window ends: that window goes on
        to the seats it had still to ask (an empty poll closes it); if none does, the turn
        that began the asks ends."""
        names = {index: kept for index, kept, _ in self.comp.ask_frames.values()}
        cases = []
        self.asker = "origin"                   # an 'ask' in a 'then' block: the asks go on from there
        self.resume = "resume"                  # and resume what that block's own ask resumes
        try:
            for index, (then, scope) in sorted(self.comp.ask_blocks.items()):
                env = {name: f"l_{name}_c{index}" for name in names[index]}
                self.env, self.hoisted = dict(env), None
                bind = [f"{', '.join(env.values())}{',' if len(env) == 1 else ''} = [v for _, v in values]"] \
                    if env else []
                cases += [f"{'elif' if cases else 'if'} index == {index}:",
                          *("    " + x for x in bind + self.effects(then or (), scope))]
        finally:
            self.asker, self.resume = None, "None"
        resumed = []
        for p in self.cg.phase_list:
            if p.kind == "each":
                resumed += [f"{'elif' if resumed else 'if'} here == {p.index}:",
                            *("    " + x for x in self.advance(p.index))]
        if resumed:
            resumed = ["if goto is None and not stop and resume is not None:",
                       "    here, poll = resume",
                       *("    " + x for x in resumed),
                       "    if poll:",
                       f"        return {_packed('here', poll='tuple(poll)')}",
                       "    goto, closing = here, True"]
        ends = []
        try:
            for p in self.cg.phase_list:
                if p.kind == "turn" and (p.closes or p.rotates):
                    self.asker = str(p.index)   # an 'ask' in the turn's 'then': from the turn that ends
                    ends += [f"{'elif' if ends else 'if'} origin == {p.index}:",
                             *("    " + x for x in self.finish_turn(p.index))]
        finally:
            self.asker = None
        nowhere = "the rules end a 'then' block of 'ask' without saying where play goes"
        ends += [*(["else:"] if ends else []), f"{'    ' if ends else ''}raise RulesRuntimeError({nowhere!r})"]
        return [f"    if goto == {RETURN}:",
                "        goto = None",
                "        zones = list(zones)",
                "        counters = list(counters)",
                "        while goto is None and not stop and stack:",
                "            index, values, current, actor, origin, resume = stack[-1]",
                "            stack = stack[:-1]",
                f"            seats[{CURRENT}] = current",
                f"            seats[{ACTOR}] = actor",
                *("            " + x for x in cases),
                *("            " + x for x in resumed),
                # 'end turn' in a 'then' block: the chain's origin is the phase its turn's 'then' asks from
                f"        if goto is not None and goto <= {FINISH}:",
                f"            here = {FINISH} - goto",
                "        if goto is None and not stop:",
                *("            " + x for x in ends),
                "        if goto is None and not stop:",
                f"            raise RulesRuntimeError({nowhere!r})",
                "        continue"]

    def _finishes(self) -> list[str]:
        """:meth:`arrive`'s lines for ``goto`` FINISH - t, after 'end turn': turn ``t`` ends
        (its 'then' block, a 'clockwise' turn passing on)."""
        cases = []
        self.asker = "here"                     # an 'ask' in the turn's 'then': from the phase play is in
        try:
            for p in self.cg.phase_list:
                if p.kind == "turn":
                    nowhere = f"turn '{p.name}' ends without saying where play goes (line {p.span.line})"
                    cases += [f"{'elif' if cases else 'if'} origin == {p.index}:",
                              *("    " + x for x in self.finish_turn(p.index)),
                              "    if goto is None and not stop:",
                              f"        raise RulesRuntimeError({nowhere!r})"]
        finally:
            self.asker = None
        outside = "'end turn' is reached outside a turn"
        cases += [*(["else:"] if cases else []), f"{'    ' if cases else ''}raise RulesRuntimeError({outside!r})"]
        return [f"    if goto is not None and goto <= {FINISH}:",
                f"        origin = {FINISH} - goto",
                "        goto = None",
                "        zones = list(zones)",
                "        counters = list(counters)",
                *("        " + x for x in cases),
                "        continue"]

    def setup_effects(self, here: str) -> list[str]:
        """The lines of the setup of a deal: an 'ask' in it begins its chain of asks from the
        phase play is in (``here``: -2 in the first setup); an 'end turn' in it is not
        written (see :meth:`st_EndTurn`)."""
        self.asker, self.in_setup = here, True
        try:
            return self.effects(self.cg.game.setup, {})
        finally:
            self.asker, self.in_setup = None, False

    def _next_deal(self) -> list[str]:
        """:meth:`arrive`'s lines for the end of a deal (``stop`` 2) in a match of several:
        its end if the match's 'until' holds, else 'between deals' and the next setup."""
        g = self.cg.game
        self.scope, self.env, self.hoisted = {}, {}, None
        until = self.ex(g.match.until)
        self.env, self.hoisted = {}, None
        self.between = True
        try:
            between = self.effects(g.match.between, {})
        finally:
            self.between = False
        if any(x.strip().startswith(("stop = 2", "goto =")) for x in between):
            raise Unsupported("'between deals' that ends the deal or goes to a phase")
        self.env, self.hoisted = {}, None
        setup = self.setup_effects("here")
        return ["    if stop == 2:",
                *_deal_end("        "),
                f"        if {until}:",
                "            stop = 1",
                "        else:",
                "            deals += 1",
                f"            if deals > {MAX_QUICK_DEALS}:",
                "                raise RulesRuntimeError(endless_deals())",
                "            zones = list(zones)",
                "            counters = list(counters)",
                "            goto = None",
                "            stop = 0",
                *("            " + x for x in between),
                "            if stop:",             # a knock-out there ended the match: no setup
                "                continue",
                "            deal += 1",
                "            known = () if known is not None else None     # a new deal: nothing known yet",
                "            goto = None",
                "            stop = 0",
                "            claim = claimed = None",
                "            stack = ()",
                "            if ev is not None:",
                '                ev.append(("deal_start", None, {"deal": deal}))',
                *("            " + x for x in setup),
                "            if not stop:",
                "                zones = tuple(zones)",
                "                counters = tuple(counters)",
                "                if goto is None:",
                f"                    return {_packed('-2', zones='zones', counters='counters')}",
                "            continue"]

    def _window(self, p, decl) -> list[str]:
        """:meth:`arrive`'s lines for going on to window or vote ``p`` (``decl``: its
        declaration): its poll asked, or, empty or ``closing``, the votes taken and its
        closing block run."""
        self.scope, self.env, self.hoisted = {}, {}, None
        poll = self.frame(self.seat_set(decl.seats))
        self.asker = str(p.index)               # an 'ask' in its close: the phase that asks
        try:
            tally = self.tally(p.index) if p.kind == "vote" else []
            self.scope, self.env, self.hoisted = {}, {}, None
            close = self.effects(decl.after, {}) if p.closes else []
            if close and any(x.strip() == "break" for x in tally):     # the votes may end the match
                close = ["if not stop:", *("    " + x for x in close)]
        finally:
            self.asker = None
        if self.comp.ask_blocks:            # nothing says where play goes and an 'ask' is pending
            close += ["if goto is None and not stop and stack:", f"    goto = {RETURN}"]
        return [f"    if goto == {p.index}:  # {p.name!r}",
                f"        here = {p.index}",
                "        if not closing:",
                f"            poll = {poll}",
                "            votes = (None,) * n",
                *("            " + x for x in self.advance(p.index)),
                "            if poll:",
                f"                return {_packed('goto', poll='tuple(poll)')}",
                "        closing = False",
                "        zones = list(zones)",
                "        counters = list(counters)",
                "        goto = None",
                *("        " + x for x in tally),
                *("        " + x for x in close),
                "        if goto is None and not stop:",
                f"            raise RulesRuntimeError({closed_nowhere(p.name, p.span.line)!r})",
                "        continue"]

    def decline(self, pi: int) -> str:
        """The source of ``step_P_decline``: the first seat asked by window ``pi`` declines;
        the next seat it still asks is asked, or the window closes (see :meth:`arrive`)."""
        phase = self.cg.phase_list[pi]
        # a window open to every seat stays as it is for the next seat that is still in
        stays = ["    if poll and not out[poll[0]]:", "        return new(State, S[:5] + (poll,) + S[6:])"] \
            if self.open(pi) and not phase.forced else []
        # a 'forced when' that binds the seat forbids the decline
        forced = ["    seats = list(seats)", f"    seats[{ACTOR}] = poll[0]",
                  f"    why = {self.forcer(pi)}({_OPTION_FIELDS})", "    if why is not None:",
                  "        raise IllegalAction(why)"] if phase.forced else []
        return "\n".join([f"def step_{pi}_decline(S, action, rng, made=None, ev=None, texts=False, judge=False):",
                          f"    # phase {phase.name!r}: the seat asked declines",
                          *_UNPACK[:3],
                          "    if action.cards or action.params:",
                          "        raise IllegalAction('decline takes no choice')",
                          *forced,
                          "    if judge:",
                          "        return None",
                          "    if ev is not None:",
                          f'        ev.append(("decline", None, {{"seat": poll[0], "phase": {phase.name!r}}}))',
                          "    poll = poll[1:]",
                          *stays,
                          "    seats = list(seats)",
                          f"    seats[{ACTOR}] = S.poll[0]",
                          *("    " + x for x in self.advance(pi)),
                          "    if poll:",
                          f"        return {_packed(str(pi), poll='poll', zones='zones', counters='counters')}",
                          f"    return {_arrive(str(pi), here=str(pi))}"]) + "\n"

    def winners(self) -> list[str]:
        """The lines that find the winners, ``found``, when the match ends (the seats still
        in, or every seat; then, key after key, those with the best value, each read with
        the seat as ``actor``)."""
        lines = ["found = seats_in(n, out) or list(range(n))"]
        keys = self.cg.game.match.winners
        if keys:
            lines += [f"saved = seats[{ACTOR}]"]
            for key in keys:
                self.scope, self.env, self.hoisted = {}, {}, None
                value = self.ex(key.expr)
                lines += ["values = {}", "for s in found:", f"    seats[{ACTOR}] = s", f"    values[s] = {value}",
                          f"best = {'max' if key.highest else 'min'}(values.values())",
                          "found = [s for s in found if values[s] == best]"]
            lines += [f"seats[{ACTOR}] = saved"]
        return lines

    def start(self) -> str | None:
        """The source of ``start(zones, counters, seats, votes, groups, out, rng)``: the first
        state of a match, from what every match starts with (``Engine._start``): the seats'
        and counters' first values, the first deal's setup, settled on its first turn; None
        when the writer does not write it yet (a setup that ends the deal, a first phase
        other than a turn…)."""
        g, cg = self.cg.game, self.cg
        if not self.arrives:
            return None
        lines = []
        self.scope, self.env, self.hoisted = {}, {}, None
        self.ends_match = False
        self.inlines = 0
        try:
            for i, decl in enumerate(g.seats):
                if decl.random:
                    lines += [f"seats[{3 + i}] = rng.randrange(n)", "if ev is not None:",
                              f'    ev.append(("pick", None, {{"seat": {cg.seat_names[3 + i]!r}, "value": seats[{3 + i}]}}))']
                elif decl.initial is not None:
                    lines.append(f"seats[{3 + i}] = {self.frame(self.seat(decl.initial))}")
            bases = cg.counter_base(self.n)
            for ci, decl in enumerate(g.counters):
                for s in range(self.n if decl.per_player else 1):
                    lines += [f"seats[{ACTOR}] = {s}", f"counters[{bases[ci] + s}] = {self.ex(decl.initial)}"]
            lines += [f"seats[{ACTOR}] = 0", "if ev is not None:", '    ev.append(("deal_start", None, {"deal": 1}))']
            self.env, self.hoisted = {}, None
            lines += self.setup_effects("-2")
        except Unsupported as exc:
            self.note(exc)
            return None
        self.writes_zones = self.writes_counters = True
        return "\n".join(["def start(zones, counters, seats, votes, groups, out, rng, ev=None, texts=False):",
                          "    # the first state of a match, over locals",
                          f"    n = {self.n}",
                          "    deal = 1",
                          "    made = None",
                          "    zones = list(map(tuple, zones))     # new tuples: the engine's are within a player's reach",
                          "    counters = list(counters)",
                          "    seats = list(seats)",
                          "    claim = claimed = None",
                          "    stack = ()",
                          "    known = ()",
                          "    chosen = ()",
                          "    chosen_zone = -1",
                          "    goto = None",
                          "    stop = 0",
                          "    work = 0",
                          *("    " + x for x in lines),
                          "    if goto is None and not stop:",
                          f"        return {_packed('-2', deal='1')}",
                          *("    " + x for x in self.going_on("1", "None", "work", "-2"))]) + "\n"

    def legal(self, pi: int) -> str | None:
        """The source of ``legal_P(S)``: the legal actions of the deciding seat in a state
        of phase ``pi`` (a turn, or a window: its decline last), in the order of ``Engine.legal_actions``; None when the
        writer does not write a listing of one of its actions yet."""
        phase = self.cg.phase_list[pi]
        if not self.listed(pi):
            return None
        blocks, memos = [], []
        try:
            for a, ca in zip(self.cg.game.phases[pi].actions, phase.actions):
                hoisted, levels, loops = self.enumeration(pi, a, ca)
                body, memo = self._enumerator_body(f"enum_{pi}_{ca.index}", "list", hoisted, levels, loops, a.name,
                                                   "found")
                memos += memo
                blocks += [f"    # action {a.name!r} (line {a.span.line})", "    chosen = ()", "    chosen_zone = -1",
                           "    try:", "        while True:", *(f"            {self.frame(x)}" for x in body),
                           "            break", "    except KeyError:", "        pass"]
        except Unsupported as exc:
            self.note(exc)
            return None
        decline = self.declines(pi, f"found.append(act_{pi}_decline)")
        if decline:
            memos.append(f"act_{pi}_decline = new(Action, ({DECLINE!r}, (), ()))")
        blocks += decline
        return "".join(f"{memo}\n\n\n" for memo in memos) + "\n".join([f"def legal_{pi}(S):",
                          f"    # the legal actions in phase {phase.name!r}, over the state's fields",
                          *self.unpack(pi, "\n".join(blocks)), "    found = []", *blocks, "    return found"]) + "\n"

    def enumerators(self, pi: int) -> tuple | None:
        """(the sources of ``enum_P_A_of(S, largest_first, budget)``, the text of phase ``pi``'s
        row of ``ENUMERATORS``): per action, the generator of its legal actions in a state
        of the phase (codegen's enumerator over the state's fields: an order, a budget of
        candidates examined, ``OUT`` when it runs out); a window's decline last
        (``decline_P_of``, unless a 'forced when' binds the seat). The row pairs each
        action's name with its generator (``Engine.legal_actions`` with a limit, a budget,
        an order or an action). None where the writer writes no listing of the phase."""
        phase = self.cg.phase_list[pi]
        if not self.listed(pi):
            return None
        sources, row = [], []
        saved, self.stop_listing = self.stop_listing, "return"
        try:
            for a, ca in zip(self.cg.game.phases[pi].actions, phase.actions):
                name = f"enum_{pi}_{ca.index}"
                hoisted, levels, loops = self.enumeration(pi, a, ca)
                text = self._enumerator_text(name, f"    # the legal actions of {a.name!r} in {phase.name!r}, over "
                                             "the state's fields", "enum", hoisted, levels, loops, a.name)
                text = text.replace(f"def {name}(ctx, largest_first, budget):", f"def {name}_of(S, largest_first, budget):")
                sources.append(self.frame(text.replace("    ctx.locals = {}\n", "\n".join(self.unpack(pi)) + "\n")))
                row.append(f"({a.name!r}, {name}_of)")
        except Unsupported as exc:
            self.note(exc)
            return None
        finally:
            self.stop_listing = saved
        if phase.kind in ("first", "each"):
            declines = self.declines(pi, f"yield new(Action, ({DECLINE!r}, (), ()))")
            if phase.forced:
                declines = [*self.unpack(pi), *declines]
            sources.append("\n".join([f"def decline_{pi}_of(S, largest_first, budget):",
                                      f"    # a decline of {phase.name!r}, unless a 'forced when' binds the seat",
                                      *declines]) + "\n")
            row.append(f"({DECLINE!r}, decline_{pi}_of)")
        return sources, _tuple(row)

    def held(self) -> str | None:
        """The source of ``held(…)``, whether the standing claim is true, over a step's
        locals (its parameters: the locals the claims' truths read), or None when a truth
        needs a context; sets :attr:`held_call`."""
        cases = []
        # a truth judged of other cards than the claimed ones ('claim holds on'): ``focus``
        focused = ("claimed_top_of(zones, claimed)", "(claimed_top_of(zones, claimed) if focus is None else focus)")
        try:
            for c, decl in zip(self.cg.claim_list, self.cg.game.claims):
                truth, shared = self.claim_truth(c, decl)
                truth, shared = self.frame(truth).replace(*focused), [self.frame(x).replace(*focused) for x in shared]
                unpack = [f"{', '.join(f'a{i}' for i in range(len(c.params)))}{',' if len(c.params) == 1 else ''} "
                          "= values"] if c.params else []
                cases += [f"if index == {c.index}:", *("    " + x for x in unpack + shared), f"    return {truth}"]
        except Unsupported:
            return None
        body = "\n".join(cases)
        params = ["claim"] + [f for f in _HELD_FIELDS if re.search(rf"\b{f}\b", body)]
        self.held_call = f"held({', '.join(params)})"
        lines = [f"def {self.held_call[:-1]}, focus=None):",
                 "    # whether the standing claim is true (of the cards ``focus``, when given), over a step's locals",
                 "    if claim is None:", "        return False", "    index, values, _ = claim",
                 *("    " + x for x in cases), "    return False"]
        return "\n".join(lines) + "\n"

    def orders_over_locals(self) -> list[str]:
        """The sources of ``rank_i_of`` and ``beats_i_of`` (fields…, values): each claim's
        place in its order and whether claiming ``values`` beats the standing claim of its
        kind (codegen's ``rank_i``, ``beats_i``) over a step's locals; :attr:`orders` names
        the claims written (a claim whose order needs a context is not)."""
        out = []
        for c, decl in zip(self.cg.claim_list, self.cg.game.claims):
            rank, beats = self.claim_order(c, decl)
            texts = []
            self.orders.add(c.index)            # its rank over locals, for its beats
            try:
                for kind, body in (("rank", rank), ("beats", beats)):
                    text = self.claim_function(f"{kind}_{c.index}", c, f"{kind} of claim {c.name!r} over locals", body)
                    text = text.replace(f"def {kind}_{c.index}(ctx, values):",
                                        f"def {kind}_{c.index}_of({_OPTION_FIELDS}, values):")
                    texts.append(self.frame(text))
            except Unsupported:
                self.orders.discard(c.index)
                continue
            out += texts
        return out

    def steps(self) -> str:
        """Every step the writer writes, and ``STEPS``: per phase, {action name: its step}
        (None for a phase with none)."""
        functions, rows, listings = [], [], []
        functions += self.orders_over_locals()
        held = self.held()
        if held is not None:
            # the fields held reads, straight from the state (a simulation judges every claim)
            fields = {f: f"S[{State._fields.index(f)}]" for f in ("claim",) + _HELD_FIELDS}
            fields["out"] = f"(S[{State._fields.index('out')}] or (0,) * S[0])"
            call = re.sub(r"\b(\w+)(?=[,)])", lambda f: fields.get(f.group(1), f.group(1)),
                          self.held_call[len("held("):])
            functions += [held, "\n".join(["def holds_of(S):", "    # whether the standing claim of the state S is true",
                                           f"    return held({call}"]) + "\n"]
        self.arrivals = all(p.kind == "turn" or self.window(p.index) for p in self.cg.phase_list)
        try:
            arrive = self.arrive()
        except Unsupported as exc:      # no step then: the module is refused (see complete)
            self.note(exc)
            arrive = None
        if arrive is not None:
            functions.append(arrive)
        self.arrives = arrive is not None
        start = self.start()
        if start is not None:
            functions.append(start)
        self.stop_listing = "break"             # a listing's actions are blocks of one function
        offered, enumerated = [], []
        for write, name, table in ((self.legal, "legal", listings), (self.options, "options", offered)):
            for pi in range(len(self.cg.phase_list)):         # per phase: its listing, its options
                source = write(pi)
                if source is not None:
                    functions.append(source)
                table.append("None" if source is None else f"{name}_{pi}")
        for pi in range(len(self.cg.phase_list)):             # per phase: its actions' generators
            made = self.enumerators(pi)
            if made is not None:
                functions += made[0]
            enumerated.append("None" if made is None else made[1])
        for pi, (p, cp) in enumerate(zip(self.cg.game.phases, self.cg.phase_list)):
            row = {}
            for a, ca in zip(p.actions, cp.actions):
                source = self.step(pi, a, ca)
                if source is not None:
                    functions.append(source)
                    row[a.name] = f"step_{pi}_{ca.index}"
            if cp.kind in ("first", "each") and self.listed(pi):
                functions.append(self.decline(pi))
                row[DECLINE] = f"step_{pi}_decline"
            rows.append("{" + ", ".join(f"{k!r}: {v}" for k, v in row.items()) + "}" if row else "None")
        functions += self.helpers               # what the polls, options and forced windows call
        self.complete(start, rows, listings, offered, enumerated)
        table = "\n# per phase: {action name: its straight-line step}\n"
        legal = "\n# per phase: the legal actions over the state's fields\n"
        return ("\n\n".join(functions) + f"\n{table}STEPS = {_tuple(rows) if rows else '()'}\n"
                + f"{legal}LEGAL = {_tuple(listings) if listings else '()'}\n"
                + "\n# per phase: ((action name, the generator of its legal actions over the state), …)\n"
                + f"ENUMERATORS_OF = {_tuple(enumerated) if enumerated else '()'}\n"
                + "\n# per phase: the options without texts over the state's fields\n"
                + f"STATE_OPTIONS = {_tuple(offered) if offered else '()'}\n"
                + "\n# the first state of a match over locals\n"
                + f"START = {'start' if start is not None else 'None'}\n"
                + "\n# whether the standing claim of a state is true (None: read over a context)\n"
                + f"HOLDS = {'holds_of' if held is not None else 'None'}\n")

    def note(self, exc: Unsupported) -> None:
        """Keep what the writer could not write, and where (see :meth:`complete`)."""
        self.reasons.append(str(exc))
        self.reason_spans.append(exc.span)

    def complete(self, start, rows: list, listings: list, offered: list, enumerated: list) -> None:
        """Check that the module has every function the engine calls: the first state, and
        per phase a step for each action (and a window's decline), its listing, options and
        enumerators.

        Raises:
            CannotRun: one is missing (a construct the writer does not write: a defect of
                rulekit, named by the first thing it could not write, located at the first
                phase, or the setup, it could not write).
        """
        g = self.cg.game
        missing = [] if start is not None else ["the setup"]
        spans = [] if start is not None else [g.setup_span]
        for pi, phase in enumerate(self.cg.phase_list):
            names = [a.name for a in phase.actions] + ([DECLINE] if phase.kind in ("first", "each") else [])
            if rows[pi] == "None" or any(f"{name!r}:" not in rows[pi] for name in names) or "None" in (
                    listings[pi], offered[pi], enumerated[pi]):
                missing.append(f"phase {phase.name!r} (line {phase.span.line})")
                spans.append(g.phases[pi].span)
        if missing:
            why = self.reasons[0].splitlines()[0] if self.reasons else "nothing noted"
            if self.reason_spans and self.reason_spans[0] is not None and self.reason_spans[0].line:
                spans.insert(0, self.reason_spans[0])     # where the file writes what could not be written
            raise CannotRun(g.path, g.source, Problem(
                f"rulekit cannot run {', '.join(missing)} of {g.title!r}: it does not write {why} yet "
                "(a defect of rulekit)", spans[0], "write it another way, and please report it"))


def write_steps(gen: Generator) -> str:
    """The straight-line steps of the module ``gen`` writes (see :meth:`StepWriter.steps`)."""
    return StepWriter(gen).steps()
