"""Generates the Python source of one game for one player count, and loads it.

This module is the one implementation of what every construct of the language does: the
engine runs only the module written here. Each action's legality is straight-line Python:
nested loops over the cards and values the action chooses, each ``require`` placed in the
innermost loop that binds what it reads (so a failed condition prunes every candidate
below it), the standing claim's order key computed once, and layout constants (zone and
counter slots for this player count) written in as numbers. The :class:`Generator` writes
each expression, statement, listing and check once, in the form of a context (``ctx.…``);
:mod:`.stepgen`'s writer, the same generator in a frame of locals, makes of them the
functions the engine runs (the steps, listings, options and first state, over a state's
fields); what is read of a state (claims, the winners' keys, returns, texts, views) stays
in the context's form, over a context that only reads. The result is one module per game,
variant and player count; ``rulekit compile FILE --emit`` prints it.

The generated text holds nothing of the ``.rules`` file but literals (names as Python
string literals, line numbers in comments: the first line of every statement, require and
choice ends ``# line N``, which :func:`rules_lines` reads into the module's source map):
every identifier in it is made here. Its
globals are the exports of :mod:`.runtime` (what a construct does at run time, written
once), tables of this game and what the engine supplies. The generator reads what
:mod:`.compile` resolved (the layout, the typed steps of each action, the kinds of
expressions); every construct of the language has a translation, so a program the
compiler accepted is written out whole (a node without one raises a RuntimeError: a
defect of rulekit).

A function in the context's form reads a :class:`~.runtime.Ctx` named ``ctx`` and changes
nothing of it.
"""

from __future__ import annotations

import itertools
import re

import attrs

from typing import Callable

from .. import ir
from ..ir import names as naming
from ..lang import model as m
from .compile import (BOOL, CONFLICT, GROUP, KIND, MAYBE_SEAT, NUM, SEAT, CompiledGame, Compiler, _seats_found,
                      names_read, note_revealed)
from ..errors import IllegalAction, OptionError, RulesError, RulesRuntimeError
from .runtime import ACTOR, MAX_CHOICES, exports, value_weight

#: what an enumerator yields when its budget of candidates runs out
OUT_OF_BUDGET = object()

#: candidate choices examined to decide whether an option is open
EXISTENCE_BUDGET = 20_000

#: the most Actions a listing keeps to give again when the same values are listed again
MEMO_SIZE = 4096

#: a row's filter in a listing: a claim's order, passed at once where the flag (group 2) says
#: the values chosen before are above the standing claim's; group 1, the condition
_ROW_FILTER = re.compile(r"if not (\((above\w+) or .*\)):\n    continue", re.S)


def none_legal(ctx, first) -> bool:
    """Whether no concrete choice of an option is legal, by its existence test ``first(ctx,
    largest_first, budget)`` (True when it finds a legal choice, OUT_OF_BUDGET when it
    examined ``budget`` candidates without one, None when it examined them all: the
    action's enumerator, stopping at its first action): the choices are tried largest
    first (conditions such as "beats the claim" favour them), then smallest first. When
    both searches run out of their budget without an answer the option stays offered: a
    legal choice is never hidden, at worst a choice is refused when taken."""
    half = EXISTENCE_BUDGET // 2
    for largest_first in (True, False):
        verdict = first(ctx, largest_first, half)
        if verdict is None:
            return True                  # every candidate was examined: none is legal
        if verdict is not OUT_OF_BUDGET:
            return False
    return False


def untranslated(node, what: str | None = None) -> RuntimeError:
    """The error of a node the generator cannot write: never raised for a program the
    compiler accepted (``what``: how to name the node, by default its class)."""
    line = getattr(getattr(node, "span", None), "line", "?")
    return RuntimeError(f"no translation of {what or _words(type(node).__name__)} (line {line}): a defect of rulekit")


class Program:
    """The generated module of one game for ``n`` seats, loaded: its text and the tables and
    functions the engine reads, each taken from the module once (the names in capitals are
    the module's; see docs/design.md, "Generated code").

    The steps of :mod:`.stepgen`, per phase: ``steps`` ({action name: ``(S, action, rng,
    made=None, ev=None, texts=False, body=False, judge=False) -> State``}, a window's
    ``decline`` among them; ``made``: a list the claimants of the claims the step makes
    are appended to), ``legal`` (``(S) -> list[Action]``), ``state_options`` (``(S) ->
    tuple[Option, ...]``, without texts) and ``enumerators_of`` (((action name, ``(S,
    largest_first, budget) -> Iterator[Action | OUT_OF_BUDGET]``), …), a window's decline
    last); ``start`` (``(zones, counters, seats, votes, groups, out, rng, ev=None,
    texts=False) -> State``) and ``holds_of`` (``(S) -> bool``, whether the standing
    claim of a state is true, or None). What is read of a state over a context that only
    reads it (:func:`~.runtime.reading`): by compiled action, ``label_of`` and
    ``preview_of`` (its label, taken and offered); by claim index, ``truths``, ``ranks``,
    ``beats`` and ``claim_labels``; ``holds`` (whether the standing claim is true),
    ``rank_keys``, ``returns``, ``combinations``, ``view_zones``, ``view_counters``,
    ``places`` (each zone instance as a view names it: (zone, owner or None)) and
    ``namespace`` (the module's globals, its source map among them).
    """

    def __init__(self, source: str, namespace: dict, cg: CompiledGame, n: int):
        self.source = source
        self.namespace = namespace
        self.rank_keys = namespace["RANK_KEYS"]
        self.returns = namespace["RETURNS"]
        self.claim_labels = namespace["CLAIM_LABELS"]
        self.holds = namespace["holds"]
        self.combinations = namespace["COMBINATIONS"]
        self.truths = namespace["TRUTHS"]
        self.ranks = namespace["RANKS"]
        self.beats = namespace["BEATS"]
        self.view_zones = namespace["view_zones"]
        self.view_counters = namespace["view_counters"]
        # the straight-line forms (rulekit.engine.stepgen): every one there (StepWriter.complete)
        self.steps = namespace["STEPS"]
        self.legal = namespace["LEGAL"]
        self.state_options = namespace["STATE_OPTIONS"]
        self.enumerators_of = namespace["ENUMERATORS_OF"]
        self.start = namespace["START"]
        self.holds_of = namespace.get("HOLDS")

        def by_action(rows) -> dict:
            return {a: f for phase, row in zip(cg.phase_list, rows) for a, f in zip(phase.actions, row)}
        self.label_of = by_action(namespace["LABELS"])
        self.preview_of = by_action(namespace["PREVIEWS"])
        self.places = tuple((cg.zones[zi].name, None if owner < 0 else owner) for zi, owner in cg.zone_owners(n))


class Generator:
    """Writes the source of one game for one player count (see the module docstring)."""

    def __init__(self, cg: CompiledGame, compiler: Compiler, n: int, action_type):
        self.cg = cg
        self.comp = compiler
        self.n = n
        # the module's globals: the runtime's exports, and what the engine supplies
        self.globals: dict = exports()
        self.globals.update({"multisets": None, "Action": action_type, "OUT": OUT_OF_BUDGET,
                             "INFINITY": float("inf"), "new": tuple.__new__, "none_legal": none_legal})
        self._refs: dict = {}
        self.tables: dict = {}            # name -> a table the module's text defines
        self.scope: dict = {}             # name -> type, as the compiler's scope
        self.env: dict = {}               # name -> Python expression of a bound local
        self.hoisted: list | None = None  # lines computed once at the top of a function
        # a claim's truth: {selection's Python text: the local it is computed into, once}
        self.shared: dict | None = None
        self.temps = 0                    # temporary Python names made so far (_saved<i>, ...)
        self.checked = None               # the first effect of the action being written, when
                                          # it may move the chosen cards unchecked
        self.all_kinds = tuple(range(len(cg.kinds)))    # every kind, as the parts of combinations read them

    # ------------------------------------------------------------ module globals
    def ref(self, obj, prefix: str) -> str:
        """The module-level name under which ``obj`` (a table) is reachable."""
        key = id(obj)
        name = self._refs.get(key)
        if name is None:
            name = f"{prefix}{len(self.globals)}"
            self.globals[name] = obj
            self.tables[name] = obj         # written into the module's text (see tables_text)
            self._refs[key] = name
        return name

    def tables_text(self) -> str:
        """The module's tables as Python literals (the game's columns, orders, ranges,
        names…, the dice's faces and who keeps sight of cards moved face down): the text
        defines every table its functions read.

        Raises:
            RuntimeError: a table is not written back as the value it holds (a defect).
        """
        keepers = {}
        slots = self.cg.zone_count(self.n)
        for src in range(slots):
            for dest in range(slots):
                seat = self.cg.keeper(src, dest, self.n)
                if seat >= 0 and src != dest:
                    keepers[(src, dest)] = seat
        rows = [("faces", self.cg.die_faces, "per card kind: None for a card, (the kind of face 1, sides) for a die"),
                ("KEEPERS", keepers, "(zone instance, zone instance): the seat that still knows cards it moved "
                                     "face down from the first to the second"),
                ("NOBODY_OUT", (0,) * self.n, "the knock-outs of a match where nobody is out (a state's out is () then)")]
        rows += [(name, obj, None) for name, obj in self.tables.items()]
        out = []
        for name, obj, comment in rows:
            text = repr(obj)
            if eval(text, {"__builtins__": {"range": range}}) != obj:  # noqa: S307 - a literal made here
                raise RuntimeError(f"the table {name} is not written as a literal: a defect of rulekit")
            out.append((f"# {comment}\n" if comment else "") + f"{name} = {text}\n")
        return "".join(out)

    # ------------------------------------------------------------ expressions
    def ex(self, node) -> str:
        """A Python expression over ``ctx`` with the value of ``node``."""
        method = getattr(self, "ex_" + type(node).__name__, None)
        src = method(node) if method is not None else None
        if src is None:
            raise untranslated(node)
        return src

    def ex_Num(self, node):
        return repr(node.value)

    def ex_Bool(self, node):
        return repr(node.value)

    def ex_SeatName(self, node):
        return self.ex_Name(node)

    def ex_Name(self, node):
        return self.value_of(naming.resolve_value(self.cg, node.name, self.scope), node)

    def value_of(self, sym, node) -> str | None:
        """The Python expression of what a name stands for (see :mod:`rulekit.ir.names`)."""
        cg = self.cg
        match sym:
            case naming.Local(name=name):
                return self.env.get(name) or f"ctx.locals[{name!r}]"
            case naming.Counter(index=index, per_player=per_player):
                base = cg.counter_base(self.n)[index]
                return f"ctx.counters[{base} + ctx.seats[{ACTOR}]]" if per_player else f"ctx.counters[{base}]"
            case naming.SeatSlot(index=index):
                return f"ctx.seats[{index}]"
            case naming.Group(index=index):
                return f"tuple([s for s in ctx.groups[{index}] if not ctx.out[s]])"
            case naming.SymbolValue(value=value):
                return repr(value)
            case naming.NumberedSeat(number=number) if number <= self.n:
                return repr(number - 1)
            case naming.NumberedSeat(number=number) if number <= cg.game.players[1]:
                return f"no_seat({node.name!r}, ctx.n, {node.span.line})"     # a seat this player count lacks
        return None

    def kind_of(self, node) -> str | None:
        """The kind the compiler found for ``node`` (a let's value, a text's part, what
        'has' tests: see ``Compiler.kinds``); the generator does not check it again.

        Raises:
            RuntimeError: the compiler noted no single kind for it (a defect of rulekit).
        """
        noted = self.comp.kinds.get(id(node))
        if noted is None or noted[0] is not node or noted[1] == CONFLICT:
            raise untranslated(node, "an expression whose kind the compiler did not note once")
        return noted[1]

    def seat(self, node) -> str:
        if isinstance(node, m.Neighbour):
            return f"step_seat(ctx, {self.seat(node.seat)}, {node.step})"
        return self.ex(node)

    ex_Neighbour = seat

    def ex_ValueOf(self, node):
        ci = self.cg.counter_index[node.name]
        return f"ctx.counters[{self.cg.counter_base(self.n)[ci]} + {self.seat(node.seat)}]"

    def zone(self, ref: m.ZoneRef) -> str:
        zi = self.cg.zone_index[ref.zone]
        base = self.cg.zone_base(self.n)[zi]
        if not self.cg.zones[zi].per_player:
            return str(base)
        seat = self.seat(ref.seat) if ref.seat is not None else f"ctx.seats[{ACTOR}]"
        return f"{base} + {seat}"

    def seat_set(self, node: m.SeatSet) -> str:
        """A set of seats as a Python expression of a list of seats."""
        kind = node.kind
        if kind == "everyone":
            return "in_play(ctx)"
        if kind == "nobody":
            return "[]"
        if kind == "others":
            return f"clockwise(ctx, ctx.seats[{ACTOR}], 1)"
        method = getattr(self, "seats_" + kind, None)
        src = method(node) if method is not None else None
        if src is None:
            raise untranslated(node, f"the set of seats {kind!r}")
        return src

    def seats_after(self, node, first: int = 1) -> str:
        seat = self.seat(node.seat)
        if node.base is None or node.base.kind == "everyone":
            return f"clockwise(ctx, {seat}, {first})"
        return f"ordered_seats(ctx, {self.seat_set(node.base)}, {seat}, {first})"

    def seats_from(self, node) -> str:
        return self.seats_after(node, 0)

    def seats_except(self, node) -> str:
        other = node.other
        if node.base.kind == "everyone" and other.kind == "var" and naming.is_one_seat(self.cg, other.name, self.scope):
            # everyone except a seat: clockwise from the seat's left
            return f"clockwise(ctx, {self.seat(m.SeatName(other.name, span=other.span))}, 1)"
        return f"except_seats({self.seat_set(other)}, {self.seat_set(node.base)})"

    def seat_pairs(self, var: str, seats_node, value_node) -> str:
        """[(seat, value)] for each seat of a set, ``var`` naming the seat in ``value_node``."""
        seats = self.seat_set(seats_node)
        local = f"_p{self.temp()}"         # the seat, a local of the comprehension
        saved = self.scope, self.env, self.shared
        self.scope = dict(self.scope)
        self.scope[var] = SEAT
        self.env = {**self.env, var: local}
        self.shared = None                  # no selection that reads the seat is made once per call
        try:
            value = self.ex(value_node)
        finally:
            self.scope, self.env, self.shared = saved
        return f"[({local}, {value}) for {local} in {seats}]"

    def seats_highest(self, node) -> str:
        return f"extreme_seats({self.seat_pairs(node.name, node.base, node.cond)}, {'max' if node.kind == 'highest' else 'min'})"

    seats_lowest = seats_highest

    def seats_where(self, node) -> str:
        return f"[s for s, v in {self.seat_pairs(node.name, node.base, node.cond)} if v]"

    def seats_voters(self, node) -> str:
        return (f"[s for s in range(ctx.n) if ctx.votes[s] is not None and ctx.votes[s].name == {node.name!r}]")

    def seats_var(self, node) -> str | None:
        match naming.resolve_seats(self.cg, node.name, self.scope):
            case naming.Local(name=name, kind=kind):
                local = self.env.get(name) or f"ctx.locals[{name!r}]"
                return f"single_seat(ctx, {local})" if kind == SEAT else f"list({local})"
            case naming.Group(index=index):
                return f"[s for s in ctx.groups[{index}] if not ctx.out[s]]"
            case naming.Winners():
                return "list(ctx.winners)"          # the seats that won (in 'returns')
            case naming.SeatSlot() | naming.NumberedSeat() as sym:
                seat = self.value_of(sym, node)
                return None if seat is None else f"single_seat(ctx, {seat})"
        return None

    def ex_CountOf(self, node):
        cards = node.cards
        if isinstance(cards, m.Where):
            pred = self.cpred(cards.pred)
            every = cards.cards
            if isinstance(every, m.EveryZone) and not every.seats:     # the seats in play's: no list of them made
                base = self.cg.zone_base(self.n)[self.cg.zone_index[every.zone]]
                slot = "s" if base == 0 else f"{base} + s"
                return f"len([0 for s in range(ctx.n) if not ctx.out[s] for k in ctx.zones[{slot}] if {pred}])"
            return f"len([0 for _, ks in {self.selection(cards.cards)} for k in ks if {pred}])"
        if isinstance(cards, m.ZoneRef):
            return f"len(ctx.zones[{self.zone(cards)}])"
        if isinstance(cards, m.Chosen):
            return "len(ctx.chosen)"
        if isinstance(cards, m.EveryZone) and not cards.seats:    # the seats still in: a term per seat
            base = self.cg.zone_base(self.n)[self.cg.zone_index[cards.zone]]
            return "(" + " + ".join(f"(0 if ctx.out[{s}] else len(ctx.zones[{base + s}]))"
                                    for s in range(self.n)) + ")"
        return f"sum(len(ks) for _, ks in {self.selection(cards)})"

    def cpred(self, node) -> str:
        """A condition on the card kind ``k``."""
        cg = self.cg
        if isinstance(node, m.CpLogic):
            left = self.cpred(node.left)
            if node.op == "not":
                return f"(not {left})"
            return f"({left} {node.op} {self.cpred(node.right)})"
        if isinstance(node, m.CpCompare):
            if node.attr not in cg.attr_table:      # 'SYMBOLS = s': the card shows that symbol of the set
                columns = self.ref(tuple(cg.attr_table[sym] for sym in cg.symbols[node.attr]), "columns")
                return f"({columns}[{self.ex(node.value)}][k] {'>' if node.op == '=' else '=='} 0)"
            col = self.ref(cg.attr_table[node.attr], "column")
            has = self.has_attr(node.attr)
            return f"({has}[k] and {col}[k] {_PY_COMPARE[node.op]} {self.ex(node.value)})"
        if isinstance(node, m.CpName):
            match naming.resolve_card_test(cg, node.name, self.scope):
                case naming.Local(name=name, kind="kind"):
                    return f"({self.env.get(name) or f'ctx.locals[{name!r}]'} == k)"
                case naming.Local(name=name):
                    return f"({self.symbol_columns(name)}[k] > 0)"          # a bound symbol
                case naming.CardTest(name=name, what="flag"):
                    table = tuple(name in flags for flags in cg.kind_flags)
                case naming.CardTest(name=name, what="card"):
                    table = tuple(kind.card == name for kind in cg.kinds)
                case naming.CardTest(name=name, what="symbol"):
                    table = tuple(v > 0 for v in cg.attr_table[name])
                case _:
                    raise untranslated(node, f"the card condition {node.name!r}")
            return f"{self.ref(table, 'kinds')}[k]"
        raise untranslated(node)

    def ex_CardQuantifier(self, node):
        pred = self.cpred(node.pred)
        return f"{'all' if node.every else 'any'}({pred} for _, ks in {self.selection(node.cards)} for k in ks)"

    def ex_ClaimHolds(self, node):
        if node.cards is None:
            return "holds(ctx)"           # every module has it (see claim_functions)
        # these cards stand in for the claimed cards while the standing claim is judged
        return f"(ctx.claim is not None and holds_on(ctx, {self.selection(node.cards)}))"

    def claim_expr(self, c, node) -> str:
        """A Python expression of ``node`` over claim ``c``'s values (bound to a0, a1, …)."""
        saved = self.scope, self.env, self.hoisted
        self.scope = dict(zip(c.params, c.types))
        self.env = {p: f"a{i}" for i, p in enumerate(c.params)}
        self.hoisted = None
        try:
            return self.ex(node)
        finally:
            self.scope, self.env, self.hoisted = saved

    def claim_function(self, name: str, c, comment: str, body: str, shared=()) -> str:
        """``name(ctx, values)``: ``return body`` with the claim's values bound, after the
        ``shared`` lines (the card selections it reads more than once, made once)."""
        lines = [f"def {name}(ctx, values):", f"    # {comment}"]
        if c.params and re.search(r"\ba\d+\b", body + "".join(shared)):
            lines.append(f"    {', '.join(f'a{i}' for i in range(len(c.params)))}"
                         f"{',' if len(c.params) == 1 else ''} = values")
        lines.extend(f"    {line}" for line in shared)
        lines.append(f"    return {body}")
        return "\n".join(lines) + "\n"

    def claim_truth(self, c, decl) -> tuple[str, list[str]]:
        """(the expression of claim ``c``'s truth over its values a0, a1…, the lines that
        compute once the card selections it reads more than once)."""
        self.shared = {}
        try:
            truth = f"bool({self.claim_expr(c, decl.truth)})"
            return truth, [f"{name} = {text}" for text, name in self.shared.items()]
        finally:
            self.shared = None

    def claim_order(self, c, decl) -> tuple[str, str]:
        """(the expression of claim ``c``'s place in its order over its ``values``, None
        when unordered; whether claiming ``values`` beats the standing claim of that kind)."""
        i = c.index
        if c.table is not None:
            rank = f"{self.ref(c.table, 'table')}.get(values)"
        elif decl.ordering:
            rank = _tuple([self.claim_expr(c, e) for e in decl.ordering])
        else:
            rank = "None"
        claimable = "" if c.table is None else f"values in {self.ref(c.table, 'table')} and "
        if decl.higher is not None:
            return rank, f"{claimable}bool({self.claim_expr(c, decl.higher)})"
        return rank, (f"{claimable}(new := rank_{i}(ctx, values)) is not None "
                      f"and (old := rank_{i}(ctx, ctx.claim[1])) is not None and new > old")

    def claim_functions(self) -> str:
        """For each claim ``i``: ``truth_i(ctx, values)``, its 'true when'; ``rank_i(ctx,
        values)``, its place in its declared order (None when unordered); ``beats_i(ctx,
        values)``, whether claiming ``values`` beats the standing claim of that kind. Then
        ``holds(ctx)`` (the standing claim is true), ``holds_on(ctx, picked)`` (it is true of
        the cards ``picked`` in place of the claimed cards) and the tables ``TRUTHS``,
        ``RANKS``, ``BEATS`` by claim index (see Compiler.claim and CompiledClaim)."""
        functions = []
        for c, decl in zip(self.cg.claim_list, self.cg.game.claims):
            i, where = c.index, f"claim {c.name!r} (line {decl.span.line})"
            truth, shared = self.claim_truth(c, decl)
            functions.append(self.claim_function(f"truth_{i}", c, f"the truth of {where}", truth, shared))
            rank, beats = self.claim_order(c, decl)
            functions.append(self.claim_function(f"rank_{i}", c, f"the place in its order of {where}", rank))
            functions.append(self.claim_function(f"beats_{i}", c, f"whether a claim beats {where}", beats))
        tables = {kind: _tuple([f"{kind}_{c.index}" for c in self.cg.claim_list]) if self.cg.claim_list
                  else "()" for kind in ("truth", "rank", "beats")}
        functions.append("def holds(ctx):\n    # whether the standing claim is true\n    claim = ctx.claim\n"
                         "    return False if claim is None else TRUTHS[claim[0]](ctx, claim[1])\n\n\n"
                         "def holds_on(ctx, picked):\n    # whether the standing claim is true of these cards\n"
                         "    saved = ctx.focus\n    ctx.focus = picked\n    try:\n        return holds(ctx)\n"
                         "    finally:\n        ctx.focus = saved\n\n\n"
                         f"TRUTHS = {tables['truth']}\nRANKS = {tables['rank']}\nBEATS = {tables['beats']}\n")
        return "\n\n".join(functions)

    def ex_PlayerCount(self, node):
        return repr(self.n)

    def ex_NoClaim(self, node):
        return "(ctx.claim is None)"

    def ex_ClaimIs(self, node):
        ci = self.cg.claims[node.claim].index
        return f"(ctx.claim is not None and ctx.claim[0] == {ci})"

    def ex_IsNobody(self, node):
        return f"({self.ex(m.Name(node.name, span=node.span))} < 0)"

    def ex_IsOut(self, node):
        return f"(ctx.out[{self.seat(m.SeatName(node.seat, span=node.span))}] > 0)"

    def ex_CountSeats(self, node):
        return f"len({self.seat_set(node.seats)})"

    def ex_Not(self, node):
        return f"(not {self.ex(node.operand)})"

    def ex_CondValue(self, node):
        return f"({self.ex(node.then)} if {self.ex(node.cond)} else {self.ex(node.orelse)})"

    def ex_MinMax(self, node):
        if len(node.args) == 1:
            return self.ex(node.args[0])
        return f"{'max' if node.highest else 'min'}({', '.join(self.ex(a) for a in node.args)})"

    def ex_FirstOf(self, node):
        return f"first_seat({self.seat_set(node.seats)}, {node.span.line})"

    def ex_Member(self, node):
        return f"({self.seat(m.SeatName(node.seat, span=node.span))} in {self.seat_set(node.seats)})"

    def ex_SeatQuantifier(self, node):
        return f"{'all' if node.every else 'any'}([v for _, v in {self.seat_pairs(node.var, node.seats, node.cond)}])"

    def ex_OverSeats(self, node):
        pairs = self.seat_pairs(node.var, node.seats, node.value)
        return f"over_seats([v for _, v in {pairs}], {node.how!r}, {node.span.line})"

    def ex_Extreme(self, node):
        cg = self.cg
        ci = cg.counter_index.get(node.name)
        if ci is None or not cg.game.counters[ci].per_player:
            return None
        base = cg.counter_base(self.n)[ci]
        return f"{'max' if node.highest else 'min'}(ctx.counters[{base}:{base + self.n}])"

    def ex_Roll(self, node):
        sides = self.cg.dice.get(node.die)
        return None if sides is None else f"roll_die(ctx, {sides}, {node.die!r})"

    def ex_ClaimedField(self, node):
        positions = {c.index: c.params.index(node.field) for c in self.cg.claim_list if node.field in c.params}
        if not positions:
            return None
        if len(positions) == 1:
            (ci, pos), = positions.items()
            return f"(ctx.claim[1][{pos}] if ctx.claim is not None and ctx.claim[0] == {ci} else 0)"
        table = self.ref(positions, "fields")
        return f"(ctx.claim[1][{table}[ctx.claim[0]]] if ctx.claim is not None and ctx.claim[0] in {table} else 0)"

    def symbol_columns(self, name: str) -> str | None:
        """For a name bound to a symbol: the table (symbol value, kind) -> how many of that
        symbol the kind shows, indexed by the name's value; else None."""
        typ = self.scope.get(name) or ""
        if not typ.startswith("sym:"):
            return None
        table = self.ref(tuple(self.cg.attr_table[s] for s in self.cg.symbols[typ[4:]]), "columns")
        return f"{table}[{self.env.get(name) or f'ctx.locals[{name!r}]'}]"

    def how_many(self, node) -> str:
        """A count of cards or seats: a literal as it is, a computed one checked not negative."""
        if isinstance(node, m.Num):
            return repr(node.value)
        return f"how_many({self.ex(node)}, {node.span.line})"

    def ex_TableValue(self, node):
        rows = self.cg.tables[node.name]
        table = self.ref(rows, "table")
        if None in rows:                    # one row without a key: NAME(place)
            key, place = "None", self.ex(node.args[-1])
        elif len(node.args) == 1:           # one number a row: NAME(key)
            key, place = self.ex(node.args[0]), "1"
        else:
            key, place = self.ex(node.args[0]), self.ex(node.args[1])
        return f"table_value({table}, {key}, {place}, {node.name!r}, {node.span.line})"

    def ex_HasCombination(self, node):
        cg, value = self.cg, node.value
        selection = self.selection(node.cards)
        if isinstance(value, m.TableValue) and value.name in cg.combinations and value.name not in cg.tables:
            args = _tuple([self.ex(a) for a in value.args]) if value.args else "()"
            return f"combination_holds({selection}, COMBINATION_PARTS[{cg.combinations[value.name]}], {args})"
        typ = self.kind_of(value) or ""
        if not typ.startswith("comb:"):
            return None
        return f"has_combination({selection}, COMBINATIONS[{cg.combination_kinds[typ[5:]]}].cards({self.ex(value)}))"

    def best_top(self, node) -> int:
        """The weight of one value of the order in the score of ``best`` ``node`` (see
        ``runtime.best_combination``): above every tie of its cards."""
        attrs_ = self.cg.combination_attrs.get(node.order) or ()
        values = self.cg.attr_values[attrs_[0]] if attrs_ else (0,)
        return value_weight(node.count, values[0], values[-1], bool(attrs_))

    def ex_BestCombination(self, node):
        cg = self.cg
        order = f"COMBINATIONS[{cg.combination_kinds[node.order]}]"
        attrs_ = cg.combination_attrs.get(node.order) or ()
        if not attrs_:
            return (f"best_combination({self.selection(node.cards)}, {node.count}, {order}, None, None, 0, 0, "
                    f"{node.span.line})")
        values = cg.attr_values[attrs_[0]]
        column = self.ref(cg.attr_table[attrs_[0]], "column")
        return (f"best_combination({self.selection(node.cards)}, {node.count}, {order}, {column}, "
                f"{self.has_attr(attrs_[0])}, {values[0]}, {values[-1]}, {node.span.line})")

    # ------------------------------------------------------------ combinations
    def combination_functions(self) -> str:
        """For each combination ``i``: ``combination_when_i(ctx, values)`` (whether it has these
        values), ``combination_cards_i(ctx, values)`` (the cards each of its parts needs: (how
        many, of which kinds) pairs) and ``combination_text_i(ctx, values)`` (its words), in
        ``COMBINATION_PARTS``; then ``COMBINATIONS``, the values of each order of combinations,
        made when the module loads (a :class:`~.runtime.CombinationOrder` each)."""
        cg, out, made = self.cg, [], []
        for i, c in enumerate(cg.game.combinations):
            types = cg.combination_types[i]
            self.scope, self.hoisted = dict(zip((p.name for p in c.params), types)), None
            self.env = {p.name: f"a{j}" for j, p in enumerate(c.params)}
            where = f"combination {c.name!r} (line {c.span.line})"
            when = "None"
            if c.when is not None:
                out.append(self.claim_function(f"combination_when_{i}", c, f"which values {where} has",
                                               f"bool({self.ex(c.when)})"))
                when = f"combination_when_{i}"
            parts = " + ".join(self.combination_part(part) for part in c.parts) or "()"
            out.append(self.claim_function(f"combination_cards_{i}", c, f"the cards each part of {where} needs",
                                           parts))
            if c.label is not None:
                text = self.template(c.label)
            else:
                text = f"' '.join({_tuple([repr(c.name)] + [self.shown(t, f'a{j}') for j, t in enumerate(types)])})"
            out.append(self.claim_function(f"combination_text_{i}", c, f"the words of {where}", text))
            made.append(f"({when}, combination_cards_{i}, combination_text_{i})")
        orders = []
        for k in cg.game.combination_kinds:
            indices = [cg.combinations[name] for name in k.combinations]
            members = [f"({i}, {self.ref(cg.combination_domains[i], 'domains')})" for i in indices]
            orders.append(f"CombinationOrder({k.name!r}, {_tuple(members) if members else '()'}, COMBINATION_PARTS)")
        self.scope, self.env = {}, {}
        out.append(f"COMBINATION_PARTS = {_tuple(made) if made else '()'}\n"
                   f"COMBINATIONS = {_tuple(orders) if orders else '()'}\n")
        return "\n\n".join(out)

    def combination_part(self, part) -> str:
        """The source of the (how many, of which kinds) pairs of one part of a combination."""
        every = self.ref(self.all_kinds, "kinds")
        if isinstance(part, m.ComboCards):
            return f"(({part.count}, tuple([k for k in {every} if {self.cpred(part.pred)}])),)"
        column = self.ref(self.cg.attr_table[part.attr], "column")
        allowed = "None" if part.pred is None else f"tuple([k for k in {every} if {self.cpred(part.pred)}])"
        return (f"run_parts({column}, {self.has_attr(part.attr)}, {part.length}, {self.ex(part.top)}, "
                f"{part.also!r}, {allowed})")

    def has_attr(self, attr: str) -> str:
        """The module's table of which card kinds carry the attribute ``attr``."""
        return self.ref(tuple(any(a == attr for a, _ in kind.attrs) for kind in self.cg.kinds), "has")

    def ex_CardExtreme(self, node):
        cg = self.cg
        column = self.ref(cg.attr_table[node.attr], "column")
        has = self.has_attr(node.attr)
        return f"extreme_of({column}, {has}, {self.selection(node.cards)}, {'max' if node.highest else 'min'})"

    def ex_TotalOf(self, node):
        cg = self.cg
        if node.attr in cg.attr_table and node.attr not in self.scope:
            column = self.ref(cg.attr_table[node.attr], "column")
        else:
            column = self.symbol_columns(node.attr)
            if column is None:
                return None
        return f"total_of({column}, {self.selection(node.cards)})"

    def ex_BinOp(self, node):
        op = node.op
        if op in ("/", "/^", "mod"):
            left, right = self.ex(node.left), f"divisor({self.ex(node.right)}, {node.span.line})"
            if op == "/":
                return f"exact_quotient({left}, {right})" if "$exact" in self.scope else f"({left} // {right})"
            return f"(-(-{left} // {right}))" if op == "/^" else f"({left} % {right})"
        if op in ("and", "or", "+", "-", "*"):
            return f"({self.ex(node.left)} {op} {self.ex(node.right)})"
        return f"({self.ex(node.left)} {_PY_COMPARE[op]} {self.ex(node.right)})"

    def ex_Beats(self, node):
        c = self.cg.claims[node.claim]
        args = [self.ex(a) for a in node.args]
        ci = c.index
        new = self.claim_key(c, args)
        if new is None:
            claimable = "True" if c.table is None else f"{_tuple(args)} in {self.ref(c.table, 'table')}"
            return f"(beats_{ci}(ctx, {_tuple(args)}) if ctx.claim is not None and ctx.claim[0] == {ci} else {claimable})"
        held_values = [f"ctx.claim[1][{i}]" for i in range(len(c.params))]
        old = self.claim_key(c, held_values)
        if old is not None and old.replace("ctx.", "") == _tuple(held_values).replace("ctx.", ""):
            # ordered by its values as given: their tuple is its key
            old = "ctx.claim[1]" if "ctx." in old else "claim[1]"
        if self.hoisted is not None:
            # the standing claim's key is the same for every candidate: computed once
            name = f"standing{ci}"
            line = f"{name} = {old} if ctx.claim is not None and ctx.claim[0] == {ci} else None"
            if line not in self.hoisted:
                self.hoisted.append(line)
            return f"({name} is None or {new} > {name})"
        return f"(ctx.claim is None or ctx.claim[0] != {ci} or {new} > {old})"

    def claim_key(self, c, args: list) -> str | None:
        """The key of claim ``c`` in its order with its values given by the expressions
        ``args`` (each read as often as the key reads it); None for a claim ordered
        otherwise (a table, 'higher when')."""
        parts = self.claim_key_parts(c, args)
        return None if parts is None else _tuple(parts)

    def claim_key_parts(self, c, args: list) -> list | None:
        """The parts of :meth:`claim_key`, one expression per ``ordered by`` key."""
        decl = self.cg.game.claims[c.index]
        if not decl.ordering or decl.table or decl.higher is not None:
            return None
        saved = self.scope, self.env, self.hoisted
        self.scope = dict(zip(c.params, c.types))
        self.env = {p: f"({a})" if not a.isidentifier() and not a.endswith("]") else a
                    for p, a in zip(c.params, args)}
        self.hoisted = None
        try:
            return [self.ex(e) for e in decl.ordering]
        finally:
            self.scope, self.env, self.hoisted = saved

    # ------------------------------------------------------------ actions
    #: how a listing stops when a condition before any choice fails
    stop_listing = "return"

    def enumeration(self, phase_index: int, action: m.Action, compiled) -> tuple:
        """(hoisted, levels, loops) of an action's enumeration: the lines computed once,
        the lines of each level (0 before any choice, then one per choice), the loops."""
        steps = list(compiled.steps)
        forced = bool(steps) and type(steps[0]) is ir.Forced
        if forced:
            del steps[0]
        # cards are chosen in the outermost loop (fewest first), whatever the order of the
        # statements: their zone names no value chosen before them (the compiler's rule)
        at = next((i for i, st in enumerate(steps) if type(st) is ir.ChooseCards), None)
        first = next((i for i, st in enumerate(steps) if type(st) is not ir.Require), None)
        if at is not None and first < at:
            steps.insert(first, steps.pop(at))
        self.scope, self.env = {}, {}
        self.hoisted = []
        # levels: 0 before any choice; then one per choice, in order
        levels: list[list[str]] = [[]]
        loops: list[tuple] = []                   # (kind, step, statement)
        level_of: dict = {}
        reqs_level = 0
        if forced:
            levels[0].append(f"if not {self.forced_test(phase_index, action)}:\n    {self.stop_listing}")
        for st in steps:
            if type(st) is ir.Require:
                s = st.stmt
                cond = self.ex(s.cond)
                read = names_read(s.cond)
                level = max([level_of[x] for x in read if x in level_of]
                            + ([level_of["$chosen"]] if m.mentions(s.cond, (m.Chosen,)) and "$chosen" in level_of
                               else []) + [reqs_level])
                reqs_level = level
                above = self.prune(s.cond, level, level_of, levels, loops)
                if above is not None:        # a prefix already above the standing claim's beats it
                    cond = f"({above} or {cond})"
                if level == 0:
                    levels[0].append(f"if not {cond}:\n    {self.stop_listing}")
                else:
                    levels[level].append(f"if not {cond}:\n    continue")
            elif type(st) is ir.ChooseBlind:
                i = len(loops)
                levels[0].append(f"sel_{i} = {self.selection(st.stmt.source)}")
                levels[0].append(f"dom_{i} = blind_places(sel_{i}, {st.count})")
                levels.append([])
                level_of["$chosen"] = len(levels) - 1
                loops.append(("blind", f"sel_{i}", f"v_{i}", f"dom_{i}", st.count))
                self.scope["$chosen"] = "cards"
            elif type(st) is ir.ChooseCards:
                slot = self.zone(st.stmt.source)
                levels.append([])
                level_of["$chosen"] = len(levels) - 1
                loops.append(["cards", st, slot, None])    # None: no lower bound beyond the action's
                self.scope["$chosen"] = "cards"
            elif type(st) is ir.ChooseValue:
                pname, typ, dependent = st.name, st.type, st.dependent
                domain = self.domain(st)
                var = f"v_{len(loops)}"
                levels.append([])
                level_of[pname] = len(levels) - 1
                if not dependent:        # computed once, before any choice
                    levels[0] += self.domain_lines(st, domain, len(loops))
                    domain = f"dom_{len(loops)}"
                loops.append(("param", pname, var, domain, dependent))
                self.scope[pname] = typ
                self.env[pname] = var
            else:
                raise TypeError(f"the listing has no loop for {type(st).__name__}: a defect of rulekit")
        self.hoisted, hoisted = None, self.hoisted
        return hoisted, levels, loops

    def domain_lines(self, st: ir.ChooseValue, domain: str, i: int) -> list[str]:
        """The lines that compute ``dom_i``, the values of a choice that reads no other
        choice, before any choice (``domain``: :meth:`domain`'s expression)."""
        d = st.domain
        if domain.startswith("choice_range(") and isinstance(d.low, m.Num):
            # a range from a number: its bounds checked inline, the call made only to
            # refuse one too wide
            low = d.low.value
            return [f"high_{i} = {self.ex(d.high)}",
                    f"dom_{i} = range({low}, high_{i} + 1) if high_{i} - {low} < MAX_CHOICES "
                    f"else choice_range({low}, high_{i}, {st.name!r}, {d.span.line})"]
        if domain.startswith("choice_range(") or re.fullmatch(r"R\d+|COMBINATIONS\[\d+\]\.indices", domain):
            return [f"dom_{i} = {domain}"]
        return [f"dom_{i} = tuple({domain})"]

    @staticmethod
    def _enumerator_text(name, title, mode, hoisted, levels, loops, action_name) -> str:
        """The text of an enumerator: ``mode`` "enum", a generator with a budget and an
        order; "list", ``list_…(ctx, out)`` that appends every legal action in the plain
        order (the fast path of ``legal_actions``, no generator to resume); "first",
        ``first_…(ctx, largest_first, budget)``, the generator's search stopped at its first
        action: True, OUT when the budget runs out first, None when there is none (the
        existence test of the action's option, see :func:`none_legal`)."""
        listing = mode == "list"
        if listing:
            out = [f"def {name.replace('enum_', 'list_')}(ctx, out):", title]
        else:
            out = [f"def {name.replace('enum_', mode + '_')}(ctx, largest_first, budget):", title]
        # the chosen values are Python locals (v_0, …), and so is the seat a value over
        # seats names (see seat_pairs): ctx.locals starts empty
        out += ["    ctx.locals = {}",
                "    ctx.chosen = ()",
                "    ctx.chosen_zone = -1"]
        if not listing:
            out += ["    examined = 0", "    if budget is None:", "        budget = INFINITY"]
        out.append("    try:")
        body, memo = Generator._enumerator_body(name, mode, hoisted, levels, loops, action_name, "out")
        out.extend("        " + line for line in body)
        out.append("    except KeyError:")
        out.append("        return")
        return "".join(f"{m}\n\n\n" for m in memo) + "\n".join(out) + "\n"

    @staticmethod
    def _enumerator_body(name, mode, hoisted, levels, loops, action_name, into: str) -> tuple:
        """(the lines of an enumerator's body, the module-level lines that make its memos of
        actions (a dict each) or its one action (a choice-free one), a tuple):
        see :meth:`_enumerator_text`; a listing appends to the list named ``into``."""
        listing = mode == "list"
        row = Generator._row_test(levels, loops) if listing else None
        body: list[str] = list(hoisted)
        for line in levels[0]:
            body.extend(line.splitlines())
        indent = ""
        values = []
        cards = "()"
        order = "False" if listing else "largest_first"
        for depth, loop in enumerate(loops, start=1):
            if loop[0] == "cards":
                # an existence test whose conditions count the chosen cards and read no
                # more of them tries one choice of each size
                sizes = mode == "first" and Generator._counts_only(levels[depth:], loops[depth:])
                body += Generator._cards_loop(indent, loop, sizes, order)
                indent += "    "
                cards = "cards"
            elif loop[0] == "blind":            # places counted from the top
                _, sel, var, domain, count = loop
                source = domain if listing else f"(reversed({domain}) if largest_first else {domain})"
                body.append(f"{indent}for {var} in {source}:")
                indent += "    "
                body.append(f"{indent}ctx.chosen, ctx.chosen_zone = blind_pick({sel}, {count}, {var})")
                values.append(var)
            else:
                _, pname, var, domain, dependent = loop
                if dependent:        # the values of this candidate's domain, in order
                    source = f"sorted({domain})" if listing else f"sorted({domain}, reverse=largest_first)"
                else:
                    source = domain if listing else f"(reversed({domain}) if largest_first else {domain})"
                if row is not None and depth == len(loops):
                    # every value of the last choice passes: its actions at once, made once
                    rows = name.replace("enum_", "rows_")
                    key = _tuple(values) if values else "()"
                    made = (action_name, _tuple(values + [var]), var, source)
                    body += [f"{indent}if {row}:", *_row_lines(indent + "    ", rows, key, made, None, into),
                             f"{indent}else:"]
                    edge = Generator._edge_filter(levels[depth], values + [var])
                    if edge is not None:
                        # the row level with the standing claim: its legal actions depend on
                        # nothing but the values chosen before and the standing claim's key
                        body += _row_lines(indent + "    ", rows, _tuple(values + [edge[1]]), made, edge[0], into)
                        return body, (f"{rows} = {{}}",)
                    indent += "    "
                body.append(f"{indent}for {var} in {source}:")
                indent += "    "
                values.append(var)
            if not listing:
                body.append(f"{indent}examined += 1")
                body.append(f"{indent}if examined > budget:")
                body.append(f"{indent}    return OUT" if mode == "first" else f"{indent}    yield OUT")
                if mode == "enum":
                    body.append(f"{indent}    return")
            for line in levels[depth]:
                body.extend(indent + x for x in line.splitlines())
        if not loops and not listing:
            body.append("examined += 1")
        made = f"new(Action, ({action_name!r}, {cards}, {_tuple(values) if values else '()'}))"
        memo: tuple = ()
        if listing and values and cards == "()":
            made_memo = name.replace("enum_", "made_")
            memo = (f"{made_memo} = {{}}",) + ((f"{name.replace('enum_', 'rows_')} = {{}}",) if row else ())
            body += _remembered(indent, made_memo, action_name, _tuple(values), into)
        elif listing and cards == "()":         # no choice: the one action, made once
            made = name.replace("enum_", "act_")
            memo = (f"{made} = new(Action, ({action_name!r}, (), ()))",)
            body.append(f"{indent}{into}.append({made})")
        else:
            body.append(f"{indent}{into}.append({made})" if listing else
                        f"{indent}return True" if mode == "first" else f"{indent}yield {made}")
        return body, memo

    @staticmethod
    def _cards_loop(indent: str, loop: tuple, sizes: bool, order: str) -> list:
        """The lines that open an enumerator's loop over the choices of cards of ``loop``
        (("cards", the choice, the zone instance's expression, a lower bound or None)), the
        chosen cards named ``cards`` and set on ``ctx``; ``sizes``: one choice of each size
        (:func:`one_of_each_size`), else every multiset; ``order``: the largest first when
        that expression is true."""
        _, st, slot, least = loop
        high = "len(pool)" if st.high is None else str(st.high)
        low = str(st.low) if least is None else f"max({st.low}, {least})"
        source = "one_of_each_size" if sizes else "multisets"
        inner = indent + "    "
        return [f"{indent}slot = {slot}", f"{indent}pool = tuple(sorted(ctx.zones[slot]))",
                f"{indent}for cards in {source}(pool, {low}, {high}, {order}):",
                f"{inner}ctx.chosen = cards", f"{inner}ctx.chosen_zone = slot"]

    @staticmethod
    def _counts_only(levels, loops) -> bool:
        """Whether the conditions ``levels`` and the choices ``loops`` that come after a
        choice of cards read nothing of the chosen cards but how many there are (the text
        names the chosen cards, ``chosen`` or ``ctx.chosen``, only as ``len(…)``, names no
        ``cards``, and does not pass ``ctx`` on whole)."""
        text = re.sub(r"len\((ctx\.)?chosen\)", "", "\n".join([*map(str, levels), *map(str, loops)]))
        return re.search(r"(?<![\w'\"])(ctx\.)?chosen\b|\bcards\b|\bctx\b(?!\.)", text) is None

    @staticmethod
    def _edge_filter(lines: list, names: list) -> tuple | None:
        """(the condition, the standing claim's name) of a row's filter (the one line of
        :meth:`_row_test`'s last level) when it reads nothing but the chosen values
        ``names``, the standing claim's key and the flag set from them: its legal values
        are then the same whenever those are; else None."""
        found = _ROW_FILTER.fullmatch(lines[0]) if len(lines) == 1 else None
        if found is None:
            return None
        cond = found[1]
        read = set(re.findall(r"(?<![\w.'\"])[A-Za-z_]\w*", cond)) - {"None", "is", "not", "or", "and"}
        standing = {x for x in read if re.fullmatch(r"standing\d+", x)}
        if len(standing) != 1 or not read <= set(names) | standing | {found[2]}:
            return None
        return cond, standing.pop()

    @staticmethod
    def _row_test(levels, loops) -> str | None:
        """For a listing of values only whose last choice takes the values of a table made
        once (``R…``) and is filtered by nothing but a claim's order: the test (the flag of
        :meth:`prune`, or True when nothing filters it) under which every value of that
        choice is legal, so that the listing gives the actions of all of them at once; else
        None."""
        if not loops or any(loop[0] != "param" for loop in loops) or loops[-1][4]:
            return None
        domain = loops[-1][3]
        if not any(re.fullmatch(rf"{domain} = R\d+", line) for line in levels[0]):
            return None
        last = levels[len(loops)]
        if not last:
            return "True"
        found = _ROW_FILTER.fullmatch(last[0]) if len(last) == 1 else None
        return found[2] if found else None

    def prune(self, cond, level: int, level_of: dict, levels: list, loops: list) -> str | None:
        """Enumerate a claim from its order: for ``require C(args) beats claim``, where the
        first keys of C's order are fixed by outer choices, skip the choices below them as
        soon as those keys fall short of the standing claim's (its key is compared key by
        key, so a shorter prefix that is smaller can never beat it). Returns the name of a
        flag, set where the longest such prefix is known, that says the prefix is above the
        standing claim's (so the claim beats it whatever the other keys), or None."""
        if not isinstance(cond, m.Beats):
            return None
        c = self.cg.claims[cond.claim]
        decl = self.cg.game.claims[c.index]
        parts = self.claim_key_parts(c, [self.ex(a) for a in cond.args])
        if parts is None or len(parts) < 2:
            return None

        def level_of_node(node) -> int:
            found = [level_of[x] for x in names_read(node) if x in level_of]
            if m.mentions(node, (m.Chosen,)) and "$chosen" in level_of:
                found.append(level_of["$chosen"])
            return max(found, default=0)
        arg_level = {p: level_of_node(a) for p, a in zip(c.params, cond.args)}
        prefix_level = 0
        standing = f"standing{c.index}"
        longest = None
        for j, key in enumerate(decl.ordering[:-1], start=1):
            prefix_level = max([prefix_level] + [arg_level[p] for p in names_read(key) if p in arg_level])
            if prefix_level >= level:
                break
            if j == 1 and prefix_level > 0 and isinstance(key, m.Name) and key.name in arg_level:
                arg = cond.args[c.params.index(key.name)]
                cards = next((lp for lp in loops if lp[0] == "cards"), None)
                if isinstance(arg, m.CountOf) and isinstance(arg.cards, m.Chosen) and cards is not None:
                    # the order's first key is how many cards are chosen: fewer than the
                    # standing claim's can never beat it, so they are not even listed
                    cards[3] = f"({standing}[0] if {standing} is not None else 0)"
            below = f"{parts[0]} < {standing}[0]" if j == 1 else f"{_tuple(parts[:j])} < {standing}[:{j}]"
            test = f"if {standing} is not None and {below}:"
            levels[prefix_level].append(test + ("\n    return" if prefix_level == 0 else "\n    continue"))
            longest = (j, prefix_level)
        if longest is None:
            return None
        j, at = longest
        flag = f"above{c.index}_{level}"
        above = f"{parts[0]} > {standing}[0]" if j == 1 else f"{_tuple(parts[:j])} > {standing}[:{j}]"
        levels[at].append(f"{flag} = {standing} is None or {above}")
        return flag

    def refuse(self, reason: str) -> str:
        """The line that refuses an action for ``reason`` (a Python expression of its text):
        a check returns it."""
        return f"return {reason}"

    def bind_choice(self, name: str, var: str) -> list[str]:
        """The lines that bind the chosen value ``var`` to the name ``name`` for the effects."""
        return [f"L[{name!r}] = {var}"]

    def check_lines(self, phase_index: int, action: m.Action, compiled) -> list[str]:
        """The lines that judge one concrete action (``action``, its values ``params``, how
        many ``given``), each failed step refused (:meth:`refuse`) with its reason; its
        choices bound for the effects (``self.env``, :meth:`bind_choice`)."""
        steps = compiled.steps
        nparams = len(compiled.choices)
        has_cards = any(type(st) is ir.ChooseCards for st in steps)     # a blind choice takes values
        body = []
        index = 0
        for st in steps:
            if type(st) is ir.Forced:
                self._require(body, self.forced_test(phase_index, action), st.message, action)
                continue
            if type(st) is ir.Require:
                self._require(body, self.ex(st.stmt.cond), st.message, st.stmt)
                continue
            var = f"v_{index}"
            if type(st) is ir.ChooseCards:
                low, high = st.low, st.high
                if high is None:
                    wrong, say = f"len(cards) < {low}", f"choose at least {low} card(s)"
                else:
                    wrong = f"not {low} <= len(cards) <= {high}"
                    say = f"choose exactly {low} card(s)" if low == high else f"choose {low} to {high} cards"
                body += _tagged([f"slot = {self.zone(st.stmt.source)}",
                                 "cards = action.cards",
                                 f"if {wrong}:",
                                 f"    {self.refuse(repr(say))}",
                                 "if not multiset_contains(ctx.zones[slot], cards):",
                                 f"    {self.refuse(repr('those cards are not there to choose'))}",
                                 "ctx.chosen = tuple(cards)",
                                 "ctx.chosen_zone = slot"], st.stmt)
                self.scope["$chosen"] = "cards"
                continue
            index += 1
            if type(st) is ir.ChooseBlind:
                body += _tagged([f"{var} = params[{index - 1}] if given >= {index} else None",
                                 f"if {var} is None:",
                                 f"    {self.refuse(repr('choose which card, counting from the top'))}",
                                 f"picked = blind_pick({self.selection(st.stmt.source)}, {st.count}, {var})",
                                 "if picked is None:",
                                 f"    {self.refuse(repr('there is no card %s from the top to choose') + f' % ({var},)')}",
                                 "ctx.chosen, ctx.chosen_zone = picked"],
                                st.stmt)
                self.scope["$chosen"] = "cards"
                continue
            if type(st) is not ir.ChooseValue:
                raise TypeError(f"the check has no test for {type(st).__name__}: a defect of rulekit")
            kind = "tuple" if st.type == GROUP else "int"
            domain = self.domain(st)
            ranged = re.fullmatch(r"choice_range\((.*), ('[^']*'), (\d+)\)", domain, re.S)
            if ranged is not None and ranged[1].count(", ") == 1:
                # a range computed here: its bounds compared, no range made (as large a
                # range as choice_range allows)
                low, high = ranged[1].split(", ")
                test = [f"_low, _high = {low}, {high}", "if _high - _low >= MAX_CHOICES:",
                        f"    choice_range(_low, _high, {ranged[2]}, {ranged[3]})",
                        f"if type({var}) is not int or not _low <= {var} <= _high:"]
            else:
                test = [f"if type({var}) is not {kind} or {var} not in {domain}:"]
            body += _tagged([f"{var} = params[{index - 1}] if given >= {index} else None",
                             f"if {var} is None:",
                             f"    {self.refuse(repr(f'choose a value for {st.name}'))}",
                             *test,
                             f"    {self.refuse(repr(f'{st.name} cannot be %r here') + f' % ({var},)')}",
                             *self.bind_choice(st.name, var)], st.stmt)
            self.scope[st.name] = st.type
            self.env[st.name] = var
        if not has_cards:
            body += ["if action.cards:", f"    {self.refuse(repr('this action takes no cards'))}"]
        body += [f"if given != {nparams}:", f"    {self.refuse(repr('this action takes a different number of values'))}"]
        return body

    def _require(self, body: list, test: str, say: str, node) -> None:
        """The lines of one require in a check: ``say`` when ``test`` fails or reads what is
        not there (a KeyError); ``node``: what gives its line."""
        body += [*_tagged(["try:"], node),
                 f"    if not {test}:",
                 f"        {self.refuse(repr(say))}",
                 "except KeyError:",
                 f"    {self.refuse(repr(say))}"]

    def domain(self, st: ir.ChooseValue) -> str:
        """The values a choice may take, as a Python expression."""
        d = st.domain
        if d.kind == "range":
            if isinstance(d.low, m.Num) and isinstance(d.high, m.Num) and d.high.value - d.low.value < MAX_CHOICES:
                return self.ref(range(d.low.value, d.high.value + 1), "R")     # made once
            return f"choice_range({self.ex(d.low)}, {self.ex(d.high)}, {st.name!r}, {d.span.line})"
        if d.kind == "symbols" and d.name in self.cg.combination_kinds:
            return f"COMBINATIONS[{self.cg.combination_kinds[d.name]}].indices"      # made when the module loads
        if d.kind == "symbols":
            return self.ref(range(len(self.cg.symbols[d.name])), "R")
        if d.kind == "group":
            return f"seat_groups({self.seat_set(d.seats)}, {self.how_many(d.size)})"
        if d.or_nobody:
            return f"(tuple({self.seat_set(d.seats)}) or (-1,))"      # no seat to choose: nobody
        return self.seat_set(d.seats)

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope: dict) -> list[str]:
        """The lines of a block of statements (at least one: ``pass``); the statements after
        an 'ask' are its continuation (see Compiler.ask)."""
        saved = self.scope
        self.scope = dict(scope)          # a 'let' is known to the rest of its block only
        lines: list[str] = []
        try:
            for i, node in enumerate(stmts):
                if isinstance(node, m.Ask) and not node.then and i + 1 < len(stmts):
                    # 'ask PHASE' followed by more statements: they are what happens after it
                    lines.extend(self.stmt(attrs.evolve(node, then=tuple(stmts[i + 1:]))))
                    break
                lines.extend(self.stmt(node))
                note_revealed(self.scope, node)
        finally:
            self.scope = saved
        return lines or ["pass"]

    def stmt(self, node) -> list[str]:
        """The lines of one statement, the first tagged with its line in the ``.rules`` file
        (see :func:`rules_lines`)."""
        method = getattr(self, "st_" + type(node).__name__, None)
        lines = method(node) if method is not None else None
        if lines is None:
            raise untranslated(node)
        return _tagged(lines, node)

    def st_If(self, node):
        lines = [f"if {self.ex(node.cond)}:"]
        lines.extend("    " + x for x in self.block(node.then, _seats_found(node.cond, self.scope, True)))
        if node.orelse:
            lines.append("else:")
            lines.extend("    " + x for x in self.block(node.orelse, _seats_found(node.cond, self.scope, False)))
        return lines

    def temp(self) -> int:
        """A fresh number for the temporary names of one statement."""
        self.temps += 1
        return self.temps

    def st_RemoveSeat(self, node):
        gi = self.cg.group_index.get(node.group)
        return None if gi is None else [f"remove_from_group(ctx, {gi}, {self.seat(node.seat)})"]

    def _refill_of(self, zone: str) -> int | None:
        """The zone instance (a shared zone) that zone ``zone`` declares to be refilled
        from, or None."""
        decl = self.cg.zones[self.cg.zone_index[zone]]
        refill = self.cg.zone_index.get(decl.refill_from) if decl.refill_from is not None else None
        return None if refill is None else self.cg.zone_base(self.n)[refill]

    def st_Log(self, node):
        return ["if ctx.events is not NO_EVENTS:",
                f'    ctx.events.append(("log", None, {{"text": {self.template(node.text)} if ctx.texts else None}}))']

    def template(self, tmpl: m.Template, pending=()) -> str:
        """A Python expression rendering a quoted text: a part that reads what not every
        seat may see is left out (the compiler reported it);
        one that reads a ``pending`` name (a choice not made yet) or the chosen cards reads
        "…"."""
        pieces = []
        for part in tmpl.parts:
            if isinstance(part, str):
                pieces.append(repr(part))
                continue
            if pending and any(isinstance(n, m.Chosen) or isinstance(n, m.Name) and n.name in pending
                               for n in m.nodes(part)):
                pieces.append(repr("…"))
                continue
            if self.comp.secret_in(part, self.scope.get("$revealed", frozenset())) is not None:
                continue
            if type(part) is m.BestCombination:     # the words of the best combination, not its score
                pieces.append(f"best_text({self.ex(part)}, COMBINATIONS[{self.cg.combination_kinds[part.order]}], "
                              f"{self.best_top(part)})")
                continue
            pieces.append(self.shown(self.kind_of(part), self.ex(part)))
        return f"''.join({_tuple(pieces)})" if pieces else "''"

    def shown(self, typ: str | None, value: str) -> str:
        """A Python expression of how a text shows ``value`` (a Python expression) of kind ``typ``."""
        cg = self.cg
        if typ in (SEAT, MAYBE_SEAT):
            return f"seat_name({value})"
        if typ == GROUP:
            return f"' and '.join([seat_name(s) for s in {value}])"
        if typ is not None and typ.startswith("sym:"):
            return f"{self.ref(cg.symbols[typ[4:]], 'names')}[{value}]"
        if typ is not None and typ.startswith("comb:"):
            return f"COMBINATIONS[{cg.combination_kinds[typ[5:]]}].text({value})"
        if typ == KIND:
            return f"{self.ref(tuple(k.label for k in cg.kinds), 'labels')}[{value}]"
        if typ is not None and typ.startswith("num:"):
            return f"value_name({self.ref(cg.value_names.get(typ[4:], {}), 'names')}, {value})"
        if typ == BOOL:
            return f"('yes' if {value} else 'no')"
        return f"str({value})"

    def st_ClearClaim(self, node):
        return ["ctx.claim = None", "ctx.claimed = None"]

    def st_RevealCounter(self, node):
        ci = self.cg.counter_index[node.counter]
        base = self.cg.counter_base(self.n)[ci]
        if not self.cg.game.counters[ci].per_player:
            slot, seat = str(base), "-1"
        else:
            seat = self.seat(node.seat) if node.seat is not None else f"ctx.seats[{ACTOR}]"
            slot = f"{base} + {seat}"
        viewer = self.seat(node.to) if node.to is not None else "-1"
        return [f"reveal_counter(ctx, {node.counter!r}, {slot}, {seat}, {viewer})"]

    def st_Assign(self, node):
        t = node.target
        match naming.resolve_target(self.cg, t.name, t.seat is not None):
            case naming.Group(index=index):
                return [f"add_to_group(ctx, {index}, {self.ex(node.value)})"] if node.op == "+" else None
            case naming.SeatSlot(index=index):
                return [f"ctx.seats[{index}] = {self.ex(node.value)}"]
            case naming.Counter(index=index, per_player=per_player):
                value = self.ex(node.value)
                base = self.cg.counter_base(self.n)[index]
                if per_player:
                    seat = self.seat(t.seat) if t.seat is not None else f"ctx.seats[{ACTOR}]"
                    slot = f"{base} + {seat}"
                else:
                    slot = str(base)
                op = {"+": "+=", "-": "-=", "=": "="}[node.op]
                if op == "=":
                    return [f"ctx.counters[{slot}] = {value}"]
                return [f"slot = {slot}", f"ctx.counters[slot] {op} {value}"]
        return None

    def selection(self, node) -> str:
        """A card selection [(zone instance, kinds)]; in a claim's truth, one that reads no
        name bound inside the expression (nor chance) is made once per call (``shared``)."""
        text = self._selection(node)
        if self.shared is None or "random_portion" in text or names_read(node) - set(self.cg.seat_index) - set(self.env):
            return text
        name = self.shared.get(text)
        if name is None:
            name = self.shared[text] = f"S{len(self.shared)}"
        return name

    def _selection(self, node) -> str:
        if isinstance(node, m.ZoneRef):
            return f"[(slot, ctx.zones[slot]) for slot in ({self.zone(node)},)]"
        if isinstance(node, m.Chosen):
            return "[(ctx.chosen_zone, ctx.chosen)]"
        if isinstance(node, m.Claimed):
            return "claimed_selection(ctx)"
        if isinstance(node, m.EveryZone):
            base = self.cg.zone_base(self.n)[self.cg.zone_index[node.zone]]
            slot = "s" if base == 0 else f"{base} + s"
            seats = self.seat_set(node.seats) if node.seats else "range(ctx.n) if not ctx.out[s]"     # in play
            return f"[({slot}, ctx.zones[{slot}]) for s in {seats}]"
        if isinstance(node, m.Portion):
            how = "random_portion(ctx, " if node.random else "top_portion("
            return f"{how}{self.selection(node.cards)}, {self.how_many(node.count)})"
        if isinstance(node, m.Where):
            pred = self.cpred(node.pred)
            return f"[(slot, tuple(k for k in ks if {pred})) for slot, ks in {self.selection(node.cards)}]"
        if isinstance(node, m.CardUnion):
            return "(" + " + ".join(self.selection(p) for p in node.parts) + ")"
        raise untranslated(node, "cards")

    def text_functions(self) -> str:
        """The texts people read: ``LABELS[phase][action]`` (``label_P_A(ctx)``, the label
        of an action taken, its choices in ``ctx``), ``PREVIEWS`` (the same before the
        choices are made: "…" in their place), ``CLAIM_LABELS[claim]`` (``claim_label_C(ctx,
        values)``); None where the rules give no label."""
        out, labels, previews, claims = [], [], [], []
        for pi, (p, cp) in enumerate(zip(self.cg.game.phases, self.cg.phase_list)):
            lrow, prow = [], []
            for a, ca in zip(p.actions, cp.actions):
                if a.label is None:
                    lrow.append("None")
                    prow.append("None")
                    continue
                scope = self._action_scope(ca)
                pending = {st.name for st in ca.steps if type(st) is ir.ChooseValue} | {"$chosen"}
                for name, row, wait in ((f"label_{pi}_{ca.index}", lrow, ()), (f"preview_{pi}_{ca.index}", prow, pending)):
                    self.scope, self.env, self.hoisted = dict(scope), {}, None
                    out.append(f"def {name}(ctx):\n    # the label of {a.name!r} in {p.name!r}\n"
                               f"    return {self.template(a.label, wait)}\n")
                    row.append(name)
            labels.append(_tuple(lrow) if lrow else "()")
            previews.append(_tuple(prow) if prow else "()")
        for c, decl in zip(self.cg.claim_list, self.cg.game.claims):
            if decl.label is None:
                claims.append("None")
                continue
            self.scope, self.hoisted = dict(zip(c.params, c.types)), None
            self.env = {p: f"a{i}" for i, p in enumerate(c.params)}
            text = self.template(decl.label)
            unpack = (f"    {', '.join(f'a{i}' for i in range(len(c.params)))}{',' if len(c.params) == 1 else ''} = values\n"
                      if c.params and re.search(r"\ba\d+\b", text) else "")
            out.append(f"def claim_label_{c.index}(ctx, values):\n    # the words of claim {c.name!r}\n"
                       f"{unpack}    return {text}\n")
            claims.append(f"claim_label_{c.index}")
        out.append(f"LABELS = {_tuple(labels) if labels else '()'}\nPREVIEWS = {_tuple(previews) if previews else '()'}\n"
                   f"CLAIM_LABELS = {_tuple(claims) if claims else '()'}\n")
        self.env = {}
        return "\n\n".join(out)

    def value_function(self, name: str, node, comment: str, scope: dict | None = None) -> str:
        """``name(ctx)``: the value of the expression ``node`` (``scope``: the names known
        there, none by default)."""
        self.scope, self.env, self.hoisted = dict(scope or {}), {}, None
        return f"def {name}(ctx):\n    # {comment}\n    return {self.ex(node)}\n"

    def match_functions(self) -> str:
        """How the match is scored, read of a finished match: ``RANK_KEYS`` ((highest, key) of
        each 'winners' key, read with the seat as ``actor``, for ``Engine.standings``) and
        ``RETURNS`` (a seat's result, or None). The rest of the match's flow (polls, turns
        passing on, deals, setups) is written into the steps (:mod:`.stepgen`)."""
        g, out = self.cg.game, []
        keys = []
        for i, key in enumerate(g.match.winners):
            out.append(self.value_function(f"key_{i}", key.expr, f"winners key {i + 1}, for the seat 'actor'"))
            keys.append(f"({key.highest}, key_{i})")
        if g.match.returns is not None:
            out.append(self.value_function("returns", g.match.returns, "a seat's result, for the seat 'actor'",
                                           {"$winners": GROUP, "$exact": NUM}))
        out.append(f"RANK_KEYS = {_tuple(keys) if keys else '()'}\n"
                   f"RETURNS = {'returns' if g.match.returns is not None else 'None'}\n")
        return "\n\n".join(out)

    def forced_test(self, phase_index: int, action: m.Action) -> str:
        """The first require a 'forced when' gives ``action`` (see Compiler.force): its own
        condition holds, or none of the other actions' conditions does."""
        decls = next(p for p in self.cg.game.phases if p.name == self.cg.phase_list[phase_index].name).actions
        saved = self.scope, self.env
        self.scope, self.env = {}, {}
        try:
            own = [self.ex(a.forced) for a in decls if a.forced is not None and a.name == action.name]
            others = [self.ex(a.forced) for a in decls if a.forced is not None and a.name != action.name]
        finally:
            self.scope, self.env = saved
        test = f"not ({' or '.join(others)})"
        return f"({own[0]} or {test})" if own else f"({test})"

    def forced_lines(self, p: m.PhaseDecl) -> list[str]:
        """The lines of ``forced_P``'s body for phase ``p`` (declared): the message of its first
        'forced when' action whose condition holds for the actor, or None."""
        self.scope, self.env, self.hoisted = {}, {}, None
        lines = []
        for a in p.actions:
            if a.forced is not None:
                lines += [f"if {self.ex(a.forced)}:", f"    return {f'you must {a.name}'!r}"]
        return lines + ["return None"]

    def option_function(self, phase_index: int, action: m.Action, compiled, enum: str) -> str:
        """The source of ``option_P_A(ctx)``: the action's :class:`Option` for a player who
        reads no texts (label: its name; no value names or prompts), or None when its
        conditions before any choice fail, or when a require reads a choice and no choice
        passes it (``none_legal`` by the action's enumerator ``enum``)."""
        self.scope, self.env, self.hoisted = {}, {}, None
        body = []
        cards, low, high = "None", 0, 0          # an option without cards
        params = []
        earlier: list = []                       # (name, its values) of the choices so far
        for st in compiled.steps:
            if type(st) is ir.Forced:
                body.append(f"if not {self.forced_test(phase_index, action)}:")
                body.append("    return None")
            elif type(st) is ir.Require:
                if st.reads_choice:
                    continue            # it reads a choice: judged per choice (none_legal below)
                body.append(f"if not {self.ex(st.stmt.cond)}:")
                body.append("    return None")
            elif type(st) is ir.ChooseBlind:          # places counted from the top
                var = f"dom_{len(params)}"
                body.append(f"{var} = blind_places({self.selection(st.stmt.source)}, {st.count})")
                body.append(f"if not {var}:")
                body.append("    return None")
                params.append(f"('card', {var})")
            elif type(st) is ir.ChooseCards:
                low, high = st.low, st.high
                body.append(f"pool = tuple(sorted(ctx.zones[{self.zone(st.stmt.source)}]))")
                top = "len(pool)" if high is None else f"min({high}, len(pool))"
                body.append(f"if {top} < {low}:")
                body.append("    return None")
                cards = "pool"
            elif type(st) is ir.ChooseValue:
                var = f"dom_{len(params)}"
                if not st.dependent:
                    values = f"tuple({self.domain(st)})"
                else:
                    # its domain reads earlier choices: the union over every choice of them,
                    # each earlier choice a local of the loops (e_0, …)
                    saved_env = self.env
                    self.env = {**self.env, **{name: f"e_{i}" for i, (name, _) in enumerate(earlier)}}
                    try:
                        domain = self.domain(st)
                    finally:
                        self.env = saved_env
                    body += self._union_of_domains(var, domain, earlier)
                    values = f"sorted({var})"
                if st.guards:
                    # the values its guards allow, the choice read as v
                    saved = self.scope, self.env
                    self.scope, self.env = {**self.scope, st.name: st.type}, {**self.env, st.name: "v"}
                    try:
                        test = " and ".join(self.ex(cond) for cond in st.guards)
                    finally:
                        self.scope, self.env = saved
                    values = f"tuple([v for v in {values} if {test}])"
                body.append(f"{var} = {values}" if values.startswith("tuple(") else f"{var} = tuple({values})")
                body.append(f"if not {var}:")
                body.append("    return None")
                params.append(f"({st.name!r}, {var})")
                earlier.append((st.name, var))
                self.scope[st.name] = st.type
            else:
                raise TypeError(f"the option has no values for {type(st).__name__}: a defect of rulekit")
        option = (f"new(Option, ({action.name!r}, {action.name!r}, {cards}, {low}, {high}, "
                  f"{_tuple(params) if params else '()'}, (), {compiled.exact}, ()))")
        if compiled.reads_choice and (cards != "None" or params) and not compiled.secret_check:
            # an option none of whose concrete choices is legal is not an option (unless the
            # check reads cards the seat cannot see: then it is judged when chosen)
            body.append(f"if none_legal(ctx, {enum.replace('enum_', 'first_')}):")
            body.append("    return None")
        body.append(f"return {option}")
        out = [f"def option_{phase_index}_{compiled.index}(ctx):",
               f"    # the option of {action.name!r} in {self.cg.phase_list[phase_index].name!r} "
               f"(line {action.span.line}), without texts",
               "    try:"]
        out.extend("        " + line for line in body)
        out.append("    except KeyError:")
        out.append("        return None")
        return "\n".join(out) + "\n"

    @staticmethod
    def _union_of_domains(var: str, domain: str, earlier: list) -> list[str]:
        """Lines that collect in the set ``var`` the values of ``domain`` (which reads the
        choices ``earlier``, [(name, their values)], as the locals ``e_0``, … ) for every
        combination of those values."""
        lines = [f"{var} = set()"]
        indent = ""
        for i, (_, values) in enumerate(earlier):
            lines.append(f"{indent}for e_{i} in {values}:")
            indent += "    "
        return lines + [f"{indent}{var}.update({domain})"]

    @staticmethod
    def _choice_count(action: m.Action) -> int:
        """How many statements open the action (requires and choices) before its effects."""
        count = 0
        for s in action.body:
            if not isinstance(s, (m.Require, m.ChooseCards, m.ChooseParam)):
                break
            count += 1
        return count

    @staticmethod
    def _action_scope(ca) -> dict:
        scope = {st.name: st.type for st in ca.steps if type(st) is ir.ChooseValue}
        if any(type(st) in (ir.ChooseCards, ir.ChooseBlind) for st in ca.steps):
            scope["$chosen"] = "cards"
        return scope

    # ------------------------------------------------------------ views
    def view_functions(self) -> str:
        """``view_zones(zones, seat)`` and ``view_counters(counters, seat)``: the zones and
        counters of :class:`View` for ``seat``, one line per zone instance and counter, by
        who may see them (see ``Engine.view``)."""
        cg, n = self.cg, self.n
        rows = []
        for slot, (zi, owner) in enumerate(cg.zone_owners(n)):
            decl = cg.zones[zi]
            count = "None" if decl.seen == "nobody" else f"len(zones[{slot}])"
            cards = f"tuple(sorted(zones[{slot}]))"
            if decl.seen == "owner" and owner >= 0:
                cards = f"{cards} if seat == {owner} else None"
            elif decl.seen == "others" and owner >= 0:
                cards = f"None if seat == {owner} else {cards}"
            elif decl.seen != "all":
                cards = "None"
            rows.append(f"        ({decl.name!r}, {None if owner < 0 else owner}, {count}, {cards}),")
        counters = []
        bases = cg.counter_base(n)
        for ci, decl in enumerate(cg.game.counters):
            base = bases[ci]
            if decl.per_player:
                if decl.seen == "all":
                    values = f"counters[{base}:{base + n}]"
                elif decl.seen == "owner":
                    values = _tuple([f"counters[{base + s}] if seat == {s} else None" for s in range(n)])
                else:
                    values = _tuple(["None"] * n)
            else:
                values = f"counters[{base}]" if decl.seen == "all" else "None"
            counters.append(f"        ({decl.name!r}, {values}),")
        return ("def view_zones(zones, seat):\n"
                "    # (zone, owner, how many cards or None, its cards or None) as seat sees them\n"
                "    return (\n" + "\n".join(rows) + "\n    )\n\n\n"
                "def view_counters(counters, seat):\n"
                "    # (counter, value or values per seat, None where seat may not see them)\n"
                "    return (\n" + "\n".join(counters) + "\n    )\n")

    # ------------------------------------------------------------ the module
    def module(self, more: Callable[[Generator], str] | None = None) -> str:
        """The module's text; ``more(self)``: more of it (written with this generator's
        tables, after every other function: the steps, listings, options and first state
        of :mod:`.stepgen`, which the engine runs)."""
        functions = [self.match_functions(), self.text_functions()]
        if more is not None:
            functions.append(more(self))
        header = (f'"""Generated by rulekit from the rules of {self.cg.game.title!r} for {self.n} players.\n\n'
                  f"It defines every table of the game it reads; its other globals are\n"
                  f"rulekit.engine.runtime's exports and what the engine supplies when it loads the module\n"
                  f'(Action, Option, State, multisets)."""\n')
        functions.append(self.view_functions())
        functions = [self.combination_functions(), self.claim_functions()] + functions
        return header + "\n\n" + self.tables_text() + "\n\n" + "\n\n".join(functions) + "\n"

def _row_lines(indent: str, rows: str, key: str, made: tuple, cond: str | None, into: str) -> list:
    """The lines of a listing that extends ``into`` with a row of actions kept in the
    module's dict ``rows`` under ``key`` (made the first time, the memo holding at most
    MEMO_SIZE actions): ``made`` is (the action's name, the text of its values, the last
    choice's variable, the source of its values), ``cond`` the filter of those values or
    None."""
    name, values, var, source = made
    test = f" if {cond}" if cond else ""
    return [f"{indent}acts = {rows}.get({key})",
            f"{indent}if acts is None:",
            f"{indent}    acts = tuple([new(Action, ({name!r}, (), {values})) for {var} in {source}{test}])",
            f"{indent}    if (len({rows}) + 1) * max(1, len(acts)) <= {MEMO_SIZE}:",
            f"{indent}        {rows}[{key}] = acts",
            f"{indent}{into}.extend(acts)"]


def _remembered(indent: str, memo: str, action_name: str, values: str, into: str = "out") -> list:
    """The lines of a listing that appends the action of these ``values`` (a Python tuple),
    given again from the module's dict ``memo`` when it made it before (the memo keeps at
    most MEMO_SIZE actions)."""
    return [f"{indent}chosen = {values}",
            f"{indent}act = {memo}.get(chosen)",
            f"{indent}if act is None:",
            f"{indent}    act = new(Action, ({action_name!r}, (), chosen))",
            f"{indent}    if len({memo}) < {MEMO_SIZE}:",
            f"{indent}        {memo}[chosen] = act",
            f"{indent}{into}.append(act)"]


def _tagged(lines: list, node) -> list:
    """``lines`` with the first tagged ``# line N``: the line of ``node`` in the ``.rules``
    file (unchanged when it has none)."""
    line = getattr(getattr(node, "span", None), "line", 0)
    if not lines or not line:
        return lines
    return [f"{lines[0]}  # line {line}", *lines[1:]]


#: a generated line that says which line of the ``.rules`` file it comes from: a statement's
#: first line ends ``# line N``, a function's opening comment ``(line N)``
_LINE_TAG = re.compile(r"#.*\bline (\d+)\)?$")


def rules_lines(text: str) -> tuple:
    """The source map of a generated module: per line of ``text`` (the first at index 0),
    the line of the ``.rules`` file it was written from, or 0 where none is known. A line
    tagged by :func:`_tagged` (or a function's opening comment) gives its own; any other
    line belongs to the nearest tagged line above it at a lower or the same indentation
    (the statement or function it is part of: an ``else:`` belongs to its ``if``, a
    loop's body to the loop), and a ``def`` or a top-level line starts afresh."""
    out = []
    open_: list = []          # (indentation, .rules line) of the statements that contain this line
    for raw in text.split("\n"):
        code = raw.lstrip()
        if not code:
            out.append(open_[-1][1] if open_ else 0)
            continue
        depth = len(raw) - len(code)
        while open_ and open_[-1][0] > depth:
            open_.pop()
        found = _LINE_TAG.search(code) if "#" in code else None
        if found is not None:
            line = int(found.group(1))
            if open_ and open_[-1][0] == depth:
                open_.pop()
            open_.append((depth, line))
        elif depth == 0:
            open_.clear()
            line = 0
        else:
            line = open_[-1][1] if open_ else 0
        out.append(line)
    return tuple(out)


def rules_line(exc: BaseException) -> int | None:
    """The line of the ``.rules`` file whose generated code ``exc`` was raised in (the
    innermost generated frame of its traceback, read through the module's source map), or
    None when no generated code is on its way."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        lines = tb.tb_frame.f_globals.get(SOURCE_MAP)
        if lines is not None and 0 < tb.tb_lineno <= len(lines) and lines[tb.tb_lineno - 1]:
            found = lines[tb.tb_lineno - 1]
        tb = tb.tb_next
    return found


def defect_at_line(exc: BaseException) -> RulesRuntimeError | None:
    """For an exception no rule explains (not one of rulekit's own errors) raised in a
    game's generated code: the :class:`RulesRuntimeError` that names the line of the
    ``.rules`` file being run (a defect of rulekit, reported without a traceback); None
    for anything else (rulekit's own errors, Ctrl-C, an exception of a player's own code)."""
    if not isinstance(exc, Exception) or isinstance(exc, (RulesRuntimeError, RulesError, IllegalAction, OptionError)):
        return None
    line = rules_line(exc)
    if line is None:
        return None
    return RulesRuntimeError(f"rulekit failed running line {line} of the rules ({type(exc).__name__}: {exc}): "
                             "a defect of rulekit, not of the file; please report it")


#: the global of a loaded module that holds its source map (:func:`rules_lines`)
SOURCE_MAP = "__rules_lines__"


def _words(name: str) -> str:
    """A model class name as words: "MakeClaim" -> "make claim"."""
    return "".join(" " + c.lower() if c.isupper() else c for c in name).strip()


def _tuple(items) -> str:
    """The source of a tuple of the expressions ``items``."""
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


_PY_COMPARE = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def generate(cg: CompiledGame, n: int, action_type, multisets: Callable, option_type=None,
             state_type=None, more: Callable[[Generator], str] | None = None) -> Program:
    """Write, compile and load the module of ``cg`` for ``n`` seats (``option_type``,
    ``state_type``: the classes of the options and states it makes; ``more``: what writes
    more of the module, see :meth:`Generator.module`)."""
    gen = Generator(cg, cg.compiler, n, action_type)
    gen.globals["Option"] = option_type
    gen.globals["State"] = state_type
    gen.globals["multisets"] = multisets
    text = gen.module(more)
    # the tables are defined by the text itself
    namespace = {k: v for k, v in gen.globals.items() if k not in gen.tables}
    namespace[SOURCE_MAP] = rules_lines(text)
    # a traceback through the module shows its lines (each statement's with its line of the
    # rules): read, when a traceback is printed, from the text (linecache asks the loader)
    number = next(_MODULES)
    namespace["__name__"] = f"rulekit_generated_{number}"
    namespace["__loader__"] = _Source(text)
    code = compile(text, f"rulekit generated #{number}: {cg.game.title} for {n} players", "exec")
    exec(code, namespace)  # noqa: S102 - the text is generated here and holds only literals of the file
    return Program(text, namespace, cg, n)


#: numbers the generated modules of this process, so that each has a name of its own
_MODULES = itertools.count(1)


class _Source:
    """The loader of a generated module as :mod:`linecache` asks it, for a traceback: it
    gives the module's text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def get_source(self, name: str) -> str:
        return self.text


__all__ = ["generate", "Program", "OUT_OF_BUDGET", "defect_at_line", "rules_line", "rules_lines"]
