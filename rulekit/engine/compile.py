"""Checks a :class:`~rulekit.lang.model.Game` and resolves what the code generator needs.

The compiler resolves every name (counters, seats, zones, claims, combinations, phases,
procedures, symbols, the values an action chooses), checks the kind of every expression (a
number, a condition, a seat, a group of seats, a card kind, a symbol, a value of an order of
combinations) and the static rules of the language (a phase says where play goes, no phase
is a trap or a dead end, a text shows nothing some seat may not see…). Every problem becomes a
located :class:`~rulekit.errors.Problem`; :class:`CompileError` carries all of them.

It builds no code: it gives :mod:`.codegen` the game's layout (:class:`CompiledGame`:
zones, counters and seats by index), its claims and phases, each action's opening steps
as typed records (:mod:`rulekit.ir.steps`), and, from the :class:`Compiler` itself, the
kinds of expressions, the 'ask' frames and the procedures. The generated module is what
the engine runs.

The engine knows no game: it knows zones, counters, seats, claims, phases and actions,
whatever the ``.rules`` file calls them.
"""

from __future__ import annotations

import functools
from math import prod

import attrs

from .. import ir
from ..ir import names as naming
from ..lang import model as m
from ..errors import CompileError, Problem, RulesRuntimeError, Span, suggest  # noqa: F401 (also imported from here)
from .runtime import ACTOR, CLAIMANT, CURRENT, MAX_CHOICES, Ctx, multiset_contains, remove_cards

NUM, BOOL, SEAT, GROUP, KIND = "num", "bool", "seat", "group", "kind"
#: a seat chosen ``or nobody``: usable as a seat only where ``not NAME is nobody`` holds
MAYBE_SEAT = "seat?"
#: the kind noted for an expression checked twice with different kinds (see Compiler.noted)
CONFLICT = "?conflict"
#: the scope's key of {name: what its value reads that some seat may not see} (see secret_of)
SECRET = "$secret"
BUILTIN_SEATS = ("current", "actor", "claimant")
DECLINE = "decline"


def _sym(name: str) -> str:
    return "sym:" + name


def _comb(name: str) -> str:
    """The kind of the values of a ``combinations`` declaration: "comb:NAME"."""
    return "comb:" + name


def base_type(typ):
    """A number with display names ("num:rank") is a number."""
    return NUM if typ is not None and typ.startswith("num:") else typ


def shown_in(stmts, tracked: dict, procedures: dict, groups, seen: set):
    """Whether statements show every seat a value of the names ``tracked`` ({name in
    these statements: the name it stands for}): in a ``log``, a claim, a group, or
    passed to a procedure that does, through ``let``s too. (that name, "line N") of the
    first such place, or None. ``groups``: the names of the groups; ``seen``: (procedure,
    names) already followed. A loop's variable is tracked when its bounds or seats read a
    tracked name."""
    tracked = dict(tracked)
    for s in m.walk(stmts):
        bound = (s.name, (s.value,)) if isinstance(s, m.LetValue) else \
            (s.var, (s.low, s.high)) if isinstance(s, m.ForRange) else \
            (s.var, (s.seats,)) if isinstance(s, m.ForEach) else None
        if bound is not None:           # a name whose value (or range of values) reads a tracked one
            hit = next((tracked[n] for x in bound[1] for n in names_read(x) if n in tracked), None)
            if hit is not None:
                tracked[bound[0]] = hit
            if isinstance(s, m.LetValue):
                continue
        shown = ()
        if isinstance(s, m.Log):
            shown = [p for p in s.text.parts if not isinstance(p, str)]
        elif isinstance(s, m.MakeClaim):
            shown = s.args
        elif isinstance(s, m.LetGroup):
            shown = (s.seats,)
        elif isinstance(s, m.Assign) and s.op == "+" and s.target.seat is None and s.target.name in groups:
            shown = (s.value,)          # a seat added to a group
        elif isinstance(s, m.RemoveSeat):
            shown = (s.seat,)           # a seat taken out of a group
        for x in shown:
            hit = next((tracked[n] for n in names_read(x) if n in tracked), None)
            if hit is not None:
                return hit, f"line {s.span.line}"
        if isinstance(s, m.Do) and s.procedure in procedures:
            decl = procedures[s.procedure]
            inner = {p.name: tracked[n] for a, p in zip(s.args, decl.params)
                     for n in names_read(a) if n in tracked}
            key = (s.procedure, frozenset(inner.items()))
            if inner and key not in seen:
                seen.add(key)
                leak = shown_in(decl.body, inner, procedures, groups, seen)
                if leak is not None:
                    return leak[0], f"line {s.span.line}, then {leak[1]}"
    return None


def _seats_found(cond, scope: dict, holds: bool) -> dict:
    """``scope`` where ``cond`` holds (``holds``) or fails: a seat chosen ``or nobody`` is
    a seat where ``not NAME is nobody`` holds (alone or joined by ``and``), or where ``NAME
    is nobody`` fails."""
    found = set()

    def proves(c, holds: bool) -> None:
        if isinstance(c, m.Not):
            proves(c.operand, not holds)
        elif isinstance(c, m.IsNobody) and not holds:
            found.add(c.name)
        elif isinstance(c, m.BinOp) and (c.op == "and" and holds or c.op == "or" and not holds):
            proves(c.left, holds)
            proves(c.right, holds)

    proves(cond, holds)
    found = {n for n in found if scope.get(n) == MAYBE_SEAT}
    return {**scope, **{n: SEAT for n in found}} if found else scope


def names_read(node) -> set:
    """Every bare name an expression (or any model node) reads: values, seats, groups; a
    card condition's name and a total's attribute too (``your hand where col``, ``total b
    of your hand``: a chosen symbol)."""
    found = set()
    for n in m.nodes(node):
        if isinstance(n, (m.Name, m.SeatName, m.CpName)):
            found.add(n.name)
        elif isinstance(n, m.TotalOf):
            found.add(n.attr)
        elif isinstance(n, (m.Member, m.IsOut)):
            found.add(n.seat)
        elif isinstance(n, m.IsNobody):
            found.add(n.name)
        elif isinstance(n, m.SeatSet) and n.name is not None:
            found.add(n.name)
    return found


class CompiledAction:
    """One action of a phase: its opening steps (requires and choices), checked and resolved."""

    __slots__ = ("name", "index", "_steps", "span", "labelled", "exact", "reads_choice", "choices", "secret_check")

    def __init__(self, name, index, steps, span, labelled=False, secret_check=False):
        self.name = name
        self.index = index
        self.labelled = labelled      # the rules give it a label (its option's text then depends on the state)
        self.steps = steps            # the requires and choices that open it (rulekit.ir.steps)
        self.span = span
        #: a require that reads a choice also reads what the deciding seat cannot see: that
        #: no choice passes it must not take the option away (it would tell the seat)
        self.secret_check = secret_check

    @property
    def steps(self) -> tuple:
        return self._steps

    @steps.setter
    def steps(self, steps: tuple) -> None:
        self._steps = steps
        #: every choice an option of this action offers is legal: no require reads a choice
        #: and no range depends on an earlier one (a player needs no check of its choice)
        self.exact = not any((type(st) is ir.Require and st.reads_choice) or (type(st) is ir.ChooseValue and st.dependent)
                             for st in steps)
        #: a require reads a choice (an option may then offer no legal choice at all)
        self.reads_choice = any(type(st) is ir.Require and st.reads_choice for st in steps)
        #: the steps that give the action's values, in order (a value chosen, or a blind place)
        self.choices = tuple(st for st in steps if type(st) is ir.ChooseValue or type(st) is ir.ChooseBlind)


class CompiledPhase:
    """One phase: its kind and actions, and what the engine asks of it."""

    __slots__ = ("name", "index", "kind", "actions", "by_name", "span", "forced", "closes", "rotates")

    def __init__(self, name, index, kind, span):
        self.forced = False           # an action of it is 'forced when' something holds
        self.name = name
        self.index = index
        self.kind = kind
        self.span = span
        self.actions = ()
        self.by_name = {}
        self.closes = False           # it has a closing block ('then' / 'otherwise')
        self.rotates = False          # a 'clockwise' turn: it passes to the next seat by itself


class CompiledClaim:
    """One claim: its values (names and kinds) and its 'ordered as' table."""

    __slots__ = ("name", "index", "params", "types", "table")

    def __init__(self, name, index, params, types):
        self.name = name
        self.index = index
        self.params = params
        self.types = types
        self.table = None             # {values: rank}, from 'ordered as'


class CompiledGame:
    """The game's layout (zones, counters, seats, symbols and card attributes by index), its
    claims and phases as the compiler resolved them, and the problems found."""

    def __init__(self, game: m.Game):
        self.game = game
        self.kinds = game.kinds
        self.kind_flags = [k.flags for k in game.kinds]
        self.card_names = {k.card for k in game.kinds}
        self.attr_names = {a for k in game.kinds for a, _ in k.attrs}
        self.flag_names = {f for k in game.kinds for f in k.flags}
        self.symbols = {s.name: s.symbols for s in game.symbols}
        self.unordered = {s.name for s in game.symbols if not s.ordered}    # 'symbols NAME: A, B'
        self.value_names = {d.name: dict(d.pairs) for d in game.names}
        self.symbol_of = {}
        for s in game.symbols:
            for i, name in enumerate(s.symbols):
                self.symbol_of[name] = (s.name, i)
        self.zones = game.zones
        self.zone_index = {z.name: i for i, z in enumerate(game.zones)}
        self.counter_index = {c.name: i for i, c in enumerate(game.counters)}
        self.seat_index = {name: i for i, name in enumerate(BUILTIN_SEATS)}
        for i, s in enumerate(game.seats):
            self.seat_index[s.name] = len(BUILTIN_SEATS) + i
        self.seat_names = BUILTIN_SEATS + tuple(s.name for s in game.seats)
        self.dice = {d.name: d.sides for d in game.dice}
        self.group_index = {gr.name: i for i, gr in enumerate(game.groups)}
        #: each table by name: {row key (None for a table of one row without keys): its values}
        self.tables = {t.name: {key: values for key, values in t.rows} for t in game.tables}
        #: each combination and each order of combinations by name: its index
        self.combinations = {c.name: i for i, c in enumerate(game.combinations)}
        self.combination_kinds = {k.name: i for i, k in enumerate(game.combination_kinds)}
        #: per combination (by index): the kinds of its values and the values each may take,
        #: in order (resolved by Compiler.check_combinations)
        self.combination_types: list = [() for _ in game.combinations]
        self.combination_domains: list = [() for _ in game.combinations]
        #: per order of combinations (by name): the card attributes its values range over
        #: (that break ties between the cards of ``best N of …``), in order
        self.combination_attrs: dict = {}
        self.claims = {}
        self.claim_list = []
        self.phases = {}
        self.phase_list = []
        self.rank_keys = ()               # (highest, its expression) of each 'winners' key
        self.returns = None               # the expression of 'returns', or None
        self.seat_inits = ()              # per declared seat: "random", its first seat's expression, or None
        self.problems: list[Problem] = []
        self.holder = next((i for i, z in enumerate(game.zones) if z.holds_deck), 0)
        # dice: for each kind, None for a card, else (the kind of face 1, the number of sides)
        first: dict = {}
        for i, k in enumerate(game.kinds):
            if k.die is not None:
                first.setdefault(k.die, i)
        self.dice_sides = {d.name: d.sides for d in game.dice}
        self.die_faces = tuple(None if k.die is None else (first[k.die], self.dice_sides[k.die])
                               for k in game.kinds)
        self.has_dice = bool(first)
        # layouts per player count: zone/counter bases and zone owners
        self._bases: dict = {}
        self._cbases: dict = {}
        self._owners: dict = {}
        self._keepers: dict = {}
        # attribute columns: value of attribute ``a`` on kind ``k`` is attr_table[a][k]
        self.attr_table = {a: tuple(k.attr(a) for k in game.kinds) for a in self.attr_names}
        #: the values the cards give each attribute, lowest first (those that carry it)
        self.attr_values = {a: tuple(sorted({v for k in game.kinds for b, v in k.attrs if b == a}))
                            for a in self.attr_names}
        for sym in self.symbol_of:
            if sym not in self.attr_table:
                # a card named like a symbol shows that symbol once
                self.attr_table[sym] = tuple(1 if k.card == sym else 0 for k in game.kinds)

    # ---- layout of a state for n players
    def zone_slot(self, zone: int, seat: int, n: int) -> int:
        """The index of a zone instance in ``State.zones``: shared zones first, then per-player."""
        return self.zone_base(n)[zone] + (seat if self.zones[zone].per_player else 0)

    def zone_base(self, n: int):
        cache = self._bases.get(n)
        if cache is None:
            bases = []
            pos = 0
            for z in self.zones:
                bases.append(pos)
                pos += n if z.per_player else 1
            cache = (tuple(bases), pos)
            self._bases[n] = cache
        return cache[0]

    def zone_count(self, n: int) -> int:
        self.zone_base(n)
        return self._bases[n][1]

    def zone_owner(self, slot: int, n: int) -> tuple[int, int]:
        """(zone declaration index, owner seat or -1) of a zone instance."""
        return self.zone_owners(n)[slot]

    def zone_owners(self, n: int) -> tuple:
        """(zone declaration index, owner seat or -1) of every zone instance, by instance."""
        table = self._owners.get(n)
        if table is None:
            table = []
            for zi, z in enumerate(self.zones):
                if z.per_player:
                    table.extend((zi, s) for s in range(n))
                else:
                    table.append((zi, -1))
            table = tuple(table)
            self._owners[n] = table
        return table

    def keeper(self, src: int, dest: int, n: int) -> int:
        """The seat that still knows the cards it moved face down from zone instance ``src``
        to ``dest`` (the owner of a zone only its owner sees, when ``dest`` is a zone that
        owner does not see), or -1."""
        key = (src, dest, n)
        seat = self._keepers.get(key)
        if seat is None:
            zi, owner = self.zone_owner(src, n)
            zd, owner_d = self.zone_owner(dest, n)
            hidden = not self.zones[zd].sees(owner_d, owner)
            seat = self._keepers[key] = owner if self.zones[zi].seen == "owner" and hidden else -1
        return seat

    def counter_slot(self, counter: int, seat: int, n: int) -> int:
        bases = self.counter_base(n)
        return bases[counter] + (seat if self.game.counters[counter].per_player else 0)

    def counter_base(self, n: int):
        cache = self._cbases.get(n)
        if cache is None:
            bases = []
            pos = 0
            for c in self.game.counters:
                bases.append(pos)
                pos += n if c.per_player else 1
            cache = (tuple(bases), pos)
            self._cbases[n] = cache
        return cache[0]



class Compiler:
    """Resolves the names of model nodes and checks their kinds, collecting problems."""

    def __init__(self, cg: CompiledGame):
        self.cg = cg
        self.problems = cg.problems
        self.ask_frames: dict = {}    # each 'ask' and its scope -> (continuation index, names it keeps, phase name)
        self.ask_blocks: dict = {}    # continuation index -> ('then' block, its scope)
        #: id(node) -> (node, kind) of each expression whose kind the generator reads (a
        #: let's value, a text's part, what 'has' tests): checked once, here
        self.kinds: dict = {}

    def err(self, message: str, span: Span, hint: str | None = None):
        problem = Problem(message, span, hint)
        if problem not in self.problems:        # a part checked twice (a seat set and the seat it names)
            self.problems.append(problem)

    def noted(self, node, kind: str | None) -> str | None:
        """``kind``, noted as the kind of ``node`` for the generator (see ``kinds``); a node
        checked again with another kind is noted as having none (the generator then
        refuses it)."""
        seen = self.kinds.get(id(node))
        self.kinds[id(node)] = (node, kind if seen is None or seen[1] == kind else CONFLICT)
        return kind

    def hint_for(self, name, candidates):
        return suggest(name, candidates)

    def no_chance(self, node, what: str) -> None:
        """Refuse a roll or random cards in ``node``, which ``what`` names: it is judged, not
        played (a check, a claim's truth or order), so no chance may happen there."""
        for x in m.nodes(node):
            if isinstance(x, m.Roll) or isinstance(x, m.Portion) and x.random:
                self.err(f"{what} may not depend on chance", x.span,
                         "roll the die (or draw the cards) in an action's effects and keep the result in a counter")
                return

    def symbols_hint(self, name: str) -> str | None:
        """The hint of an unknown symbol set ``name`` typing a value: a near name, or what
        a die's faces are typed with."""
        dice = [d.name for d in self.cg.game.dice]
        if dice and (name == "face" or name in dice):
            what = "a die" if name in dice else "a die's face"
            return (f"'{name}' is {what}: a face is a number; to call faces by names declare "
                    "'names face: 1 \"ace\"' and type the value ': face', or leave the type out")
        return self.hint_for(name, list(self.cg.symbols) + list(self.cg.combination_kinds))

    # ------------------------------------------------------------ seats
    def seat(self, node, scope) -> None:
        """Check a seat: ``left of``/``right of`` a seat, ``first of`` seats, a seat's name
        or an expression whose value is a seat."""
        if isinstance(node, m.Neighbour):
            self.seat(node.seat, scope)
            return
        if isinstance(node, m.FirstOf):
            self.seat_set(node.seats, scope)
            return
        if isinstance(node, m.SeatName):
            typ = self.name(m.Name(node.name, span=node.span), scope)
            if typ == MAYBE_SEAT:
                self.err(f"'{node.name}' may be nobody here (it was chosen 'or nobody')", node.span,
                         f"use it where it is a seat: if not {node.name} is nobody {{ … }}")
            elif typ != SEAT and typ is not None:
                self.err(f"'{node.name}' is not a seat", node.span,
                         "a seat is current, actor, claimant, a declared seat or 'left of …'")
            return
        if self.expr(node, scope) != SEAT:
            self.err("expected a seat here", node.span)

    def seat_set(self, node: m.SeatSet, scope) -> None:
        """Check a set of seats."""
        kind = node.kind
        if kind in ("everyone", "nobody", "others"):
            return
        if kind in ("after", "from"):
            self.seat(node.seat, scope)
            if node.base is not None and node.base.kind != "everyone":
                self.seat_set(node.base, scope)
            return
        if kind == "except":
            self.seat_set(node.base, scope)
            self.seat_set(node.other, scope)
            other = node.other
            if node.base.kind == "everyone" and other.kind == "var" and naming.is_one_seat(self.cg, other.name, scope):
                # everyone except a seat: clockwise from the seat's left, as people go round a table
                self.seat(m.SeatName(other.name, span=other.span), scope)
            return
        if kind in ("highest", "lowest"):
            self.seat_values(node.name, node.base, node.cond, scope, NUM)
            return
        if kind == "where":
            self.seat_values(node.name, node.base, node.cond, scope, BOOL)
            return
        if kind == "voters":
            votes = [p for p in self.cg.game.phases if p.kind == "vote" and any(a.name == node.name for a in p.actions)]
            if not votes:
                self.err(f"no vote has a choice named '{node.name}'", node.span)
            for p in votes:
                if p.anonymous:
                    self.err(f"'{node.name}' is a choice of the anonymous vote '{p.name}', whose votes are never "
                             f"revealed: 'voters for {node.name}' would tell who chose it", node.span,
                             f"count the choices in their effects instead (a counter: 'add 1 to …' in '{node.name}')")
                    break
            return
        name = node.name
        match naming.resolve_seats(self.cg, name, scope):
            case naming.SeatSlot() | naming.NumberedSeat():
                self.seat(m.SeatName(name, span=node.span), scope)
                return
            case None:
                pass
            case _:
                return
        if name == "winners" and name not in scope:
            self.err("'winners' names the seats that won the match: it is known only in 'returns'", node.span,
                     "declare a group to keep a set of seats during the match")
            return
        self.err(f"'{name}' is not a set of seats", node.span,
                 self.hint_for(name, list(self.cg.group_index))
                 or "use everyone, others, everyone except …, everyone after …, a group or a chosen group")

    def seat_values(self, var: str, seats_node, value_node, scope, want) -> None:
        """Check a value of each seat of a set, ``var`` naming the seat while ``value_node``
        is evaluated (``p`` in ``(p in others where …)``)."""
        self.seat_set(seats_node, scope)
        inner = dict(scope)
        inner[var] = SEAT
        self.want(self.expr(value_node, inner), want, value_node)

    # ------------------------------------------------------------ names
    def name(self, node: m.Name, scope) -> str | None:
        """The kind of a bare name's value (None: unknown, reported); what the name stands
        for is :func:`rulekit.ir.naming.resolve_value`'s answer."""
        name = node.name
        cg = self.cg
        match naming.resolve_value(cg, name, scope):
            case naming.Local(kind=kind):
                return kind
            case naming.Counter(index=index):
                return self.counter_type(cg.game.counters[index])
            case naming.SeatSlot():
                return SEAT
            case naming.NumberedSeat(number=number):
                high = cg.game.players[1]
                if number > high:
                    self.err(f"there is no {name}: this game is for at most {high} players", node.span)
                return SEAT
            case naming.Group():
                return GROUP                  # a group's seats still in, passed to a procedure
            case naming.SymbolValue(set=symbols):
                return _sym(symbols)
        candidates = list(scope) + list(cg.counter_index) + list(cg.seat_index)
        hint = self.hint_for(name, candidates) or "declare it as a counter or a seat, or choose it in the action"
        if name in cg.attr_table:
            hint = (f"'{name}' is a card attribute; a condition on cards goes in parentheses: "
                    f"every card in … is (wild or {name} = …)")
        self.err(f"unknown name '{name}'", node.span, hint)
        return None

    # ------------------------------------------------------------ expressions
    def expr(self, node, scope) -> str | None:
        """The kind of an expression's value: NUM, "num:NAMES", BOOL, SEAT, GROUP, KIND or
        "sym:SET"; None when it is unknown (a problem reported)."""
        method = self._EXPR.get(type(node))
        if method is not None:
            return getattr(self, method)(node, scope)
        self.err("this is not an expression", getattr(node, "span", Span.unknown()))
        return None

    def _expr_Num(self, node, scope) -> str | None:
        """A whole number."""
        return NUM

    def _expr_Bool(self, node, scope) -> str | None:
        """``true`` or ``false``."""
        return BOOL

    def _expr_Name(self, node, scope) -> str | None:
        """A bare name."""
        return self.name(node, scope)

    def _expr_SeatName(self, node, scope) -> str | None:
        """A seat named where a value is expected."""
        return self.name(m.Name(node.name, span=node.span), scope)

    def _expr_seat(self, node, scope) -> str | None:
        """``left of SEAT``, ``right of SEAT`` and ``first of SEATS``."""
        self.seat(node, scope)
        return SEAT

    def _expr_ValueOf(self, node, scope) -> str | None:
        """``NAME of SEAT``."""
        cg = self.cg
        if node.name not in cg.counter_index:
            self.err(f"unknown counter '{node.name}'", node.span, self.hint_for(node.name, cg.counter_index))
            return NUM
        ci = cg.counter_index[node.name]
        if not cg.game.counters[ci].per_player:
            self.err(f"'{node.name}' is one counter for the whole table, not one per player", node.span,
                     f"write just '{node.name}'")
        self.seat(node.seat, scope)
        return self.counter_type(cg.game.counters[ci])

    def _expr_CountOf(self, node, scope) -> str | None:
        """``count of CARDS``."""
        self.cards(node.cards, scope)
        return NUM

    def _expr_TotalOf(self, node, scope) -> str | None:
        """``total ATTR of CARDS``."""
        cg = self.cg
        self.cards(node.cards, scope)
        if node.attr in cg.attr_table and node.attr not in scope:
            return NUM
        typ = self.name(m.Name(node.attr, span=node.span), scope) if node.attr in scope or \
            node.attr in cg.counter_index or node.attr in cg.seat_index else None
        if typ and typ.startswith("sym:"):
            return NUM
        self.not_an_attribute(node.attr, node.span)
        return NUM

    def not_an_attribute(self, attr: str, span: Span) -> None:
        """The error of a name used as a card attribute that is none."""
        self.err(f"'{attr}' is not a card attribute", span,
                 self.hint_for(attr, self.cg.attr_table) or "attributes are declared on the cards of the deck")

    def _expr_CardExtreme(self, node, scope) -> str | None:
        """``highest ATTR of CARDS`` and ``lowest ATTR of CARDS``."""
        self.cards(node.cards, scope)
        if node.attr not in self.cg.attr_table or node.attr in scope:
            self.not_an_attribute(node.attr, node.span)
        return NUM

    def _expr_CardQuantifier(self, node, scope) -> str | None:
        """``every card in CARDS is P`` and ``some card in CARDS is P``."""
        self.cards(node.cards, scope)
        self.cpred(node.pred, scope)
        return BOOL

    def _expr_Roll(self, node, scope) -> str | None:
        """``roll DIE``."""
        if node.die not in self.cg.dice:
            self.err(f"unknown die '{node.die}'", node.span, self.hint_for(node.die, self.cg.dice))
        return NUM

    def _expr_ClaimHolds(self, node, scope) -> str | None:
        """``claim holds [on CARDS]``."""
        if node.cards is not None:
            self.cards(node.cards, scope)
        return BOOL

    def _claim_named(self, node):
        """The compiled claim ``node.claim`` names, or None (reported: an unknown claim)."""
        cg = self.cg
        if node.claim not in cg.claims:
            self.err(f"unknown claim '{node.claim}'", node.span, self.hint_for(node.claim, cg.claims))
            return None
        return cg.claims[node.claim]

    def _expr_ClaimIs(self, node, scope) -> str | None:
        """``claim is NAME``."""
        self._claim_named(node)
        return BOOL

    def _expr_NoClaim(self, node, scope) -> str | None:
        """``no claim``."""
        return BOOL

    def _expr_ClaimedField(self, node, scope) -> str | None:
        """``claimed FIELD``."""
        matches = [c for c in self.cg.claim_list if node.field in c.params]
        if not matches:
            self.err(f"no claim has a field '{node.field}'", node.span)
            return NUM
        return matches[0].types[matches[0].params.index(node.field)]

    def _expr_TableValue(self, node, scope) -> str | None:
        """``NAME(key, place)`` or ``NAME(place)``: a number of a table; ``NAME(key)`` of a
        table whose every row holds one number."""
        for a in node.args:
            self.want(self.expr(a, scope), NUM, a)
        table = self.cg.tables.get(node.name)
        if table is None:
            hint = self.hint_for(node.name, self.cg.tables) or "declare it: table NAME: 5: 2, 3, 2  6: 2, 3, 4"
            if node.name in self.cg.claims:
                hint = f"'{node.name}' is a claim: compare it with '{node.name}(…) beats claim'"
            if node.name in self.cg.combinations:
                hint = f"'{node.name}' is a combination: test cards with 'CARDS has {node.name}(…)'"
            self.err(f"unknown table '{node.name}'", node.span, hint)
            return NUM
        wanted = 1 if None in table else 2
        single = None not in table and all(len(row) == 1 for row in table.values())
        if len(node.args) != wanted and not (single and len(node.args) == 1):
            longer = next((key for key, row in table.items() if len(row) > 1), None) if len(node.args) == 1 else None
            why = f" (row {longer} holds {len(table[longer])} numbers)" if longer is not None else ""
            self.err(f"table '{node.name}' is read with {wanted} value(s), {len(node.args)} given{why}", node.span,
                     f"write {node.name}(KEY, PLACE)" if wanted == 2 else f"write {node.name}(PLACE)")
        return NUM

    def check_tables(self) -> None:
        """A table has rows with distinct keys, or one row without a key."""
        for t in self.cg.game.tables:
            keys = [key for key, _ in t.rows]
            if None in keys and len(keys) > 1:
                self.err(f"table '{t.name}' mixes rows with and without keys", t.span,
                         "give every row a key ('5: 2, 3, 2'), or write one row without a key")
            elif len(set(keys)) != len(keys):
                twice = next(k for k in keys if keys.count(k) > 1)
                self.err(f"table '{t.name}' has two rows for {twice}", t.span)

    # ------------------------------------------------------------ combinations
    def _expr_HasCombination(self, node, scope) -> str | None:
        """``CARDS has C``: C a value of an order of combinations, or ``NAME(ARGS)`` of a combination."""
        self.cards(node.cards, scope)
        v = node.value
        if isinstance(v, m.TableValue) and v.name in self.cg.combinations and v.name not in self.cg.tables:
            self.combination_args(v, scope)
            return BOOL
        typ = self.noted(v, self.expr(v, scope))
        if typ is not None and not typ.startswith("comb:"):
            self.err("'has' tests a combination, and this is not one", v.span,
                     "write 'CARDS has C' with C a value of a 'combinations' order (a claim's or a chosen "
                     "value), or 'CARDS has NAME(…)' with the values of a combination")
        return BOOL

    def _expr_BestCombination(self, node, scope) -> str | None:
        """``best N of CARDS by ORDER``: a number; ties broken by one attribute of the cards."""
        cg = self.cg
        self.cards(node.cards, scope)
        if node.count < 1:
            self.err("'best' ranks at least 1 card", node.span)
        if node.order not in cg.combination_kinds:
            self.err(f"unknown order of combinations '{node.order}'", node.span,
                     self.hint_for(node.order, cg.combination_kinds)
                     or "declare one: combinations NAME: high_card < pair < …")
        elif len(cg.combination_attrs.get(node.order, ())) > 1:
            found = " and ".join(cg.combination_attrs[node.order])
            self.err(f"'best' breaks ties by one attribute of the cards, but the values of '{node.order}' range "
                     f"over {found}", node.span, "give the combinations of the order values of one attribute")
        return NUM

    def combination_args(self, node: m.TableValue, scope) -> None:
        """``NAME(ARGS)`` of a combination: as many values as it takes, each of its kind."""
        types = self.cg.combination_types[self.cg.combinations[node.name]]
        if len(node.args) != len(types):
            self.err(f"combination '{node.name}' takes {len(types)} value(s), {len(node.args)} given", node.span)
        for a, typ in zip(node.args, types):
            t = self.expr(a, scope)
            if t is not None and base_type(t) != base_type(typ):
                self.err(f"this value does not fit combination '{node.name}'", a.span)

    def check_combinations(self) -> None:
        """Every combination (its values, its cards, its 'when' and its words), then every
        order of combinations."""
        g = self.cg.game
        for i, c in enumerate(g.combinations):
            self.combination(i, c)
        for k in g.combination_kinds:
            self.combination_kind(k)

    def an_attribute(self) -> str:
        """A card attribute of this game, for the examples of hints ("ATTR" if it has none)."""
        return next((a for a in sorted(self.cg.attr_values) if a not in self.cg.symbol_of), "ATTR")

    def combination_param(self, c: m.CombinationDecl, p: m.Param) -> tuple:
        """(kind, values lowest first) of a value of a combination: those a card attribute takes
        on the cards of the deck (``x: ATTR``), or the symbols of a set (``s: SYMBOLS``)."""
        cg = self.cg
        if p.symbols in cg.symbols:
            return _sym(p.symbols), tuple(range(len(cg.symbols[p.symbols])))
        attributes = [a for a in cg.attr_values if a not in cg.symbol_of]
        if p.symbols in attributes:
            return ("num:" + p.symbols if p.symbols in cg.value_names else NUM), cg.attr_values[p.symbols]
        if p.symbols is None or p.symbols in ("seat", "seats"):
            self.err(f"value '{p.name}' of combination '{c.name}' needs a kind: a card attribute or a symbol set",
                     p.span, f"write '{p.name}: ATTRIBUTE' (one of {', '.join(sorted(attributes)) or 'none'}) or "
                             f"'{p.name}: SYMBOLS'")
        else:
            self.err(f"'{p.symbols}' is neither an attribute of the cards nor a symbol set", p.span,
                     self.hint_for(p.symbols, attributes + list(cg.symbols))
                     or "the values of a combination are values of a card attribute or of a symbol set")
        return None, ()

    def combination(self, i: int, c: m.CombinationDecl) -> None:
        """``combination NAME(VALUES) "LABEL": PARTS, when COND``: its values' kinds and ranges
        (kept in ``cg.combination_types`` and ``cg.combination_domains``), its parts, its
        condition and its words, which read nothing but its values, numbers and symbols."""
        cg = self.cg
        kinds = [self.combination_param(c, p) for p in c.params]
        names = [p.name for p in c.params]
        for j, p in enumerate(c.params):
            if p.name in names[:j]:
                self.err(f"combination '{c.name}' has two values named '{p.name}'", p.span)
        cg.combination_types[i] = tuple(t or NUM for t, _ in kinds)
        cg.combination_domains[i] = tuple(d for _, d in kinds)
        scope = dict(zip(names, cg.combination_types[i]))
        if not c.parts:
            self.err(f"combination '{c.name}' names no cards", c.span,
                     f"say which, e.g. '2 of {self.an_attribute()} = x'")
        for part in c.parts:
            if isinstance(part, m.ComboRun):
                self.combination_run(c, part, scope)
                continue
            if part.count < 1:
                self.err("each part of a combination needs at least 1 card", part.span)
            if self.static(part.pred, scope, c.name):
                self.cpred(part.pred, scope)
        if c.when is not None and self.static(c.when, scope, c.name):
            self.want(self.expr(c.when, scope), BOOL, c.when)
        if c.label is not None and all(self.static(h, scope, c.name) for h in c.label.parts if not isinstance(h, str)):
            self.template(c.label, scope)

    def combination_run(self, c: m.CombinationDecl, run: m.ComboRun, scope) -> None:
        """``run of N by ATTR to TOP [in COND], V also W``: an attribute of the cards, a top that is
        a number, at most as many cards as the values the attribute takes (with the 'also' ones)."""
        cg = self.cg
        if self.static(run.top, scope, c.name):
            self.want(self.expr(run.top, scope), NUM, run.top)
        if run.pred is not None and self.static(run.pred, scope, c.name):
            self.cpred(run.pred, scope)
        if run.attr not in cg.attr_values or run.attr in cg.symbol_of:
            self.not_an_attribute(run.attr, run.span)
            return
        values = cg.attr_values[run.attr]
        for v, _ in run.also:
            if v not in values:
                self.err(f"no card has {run.attr} {v}", run.span, f"the cards' {run.attr} is {values_text(values)}")
        reach = sorted(set(values) | {w for _, w in run.also})
        if run.length < 1:
            self.err("a run needs at least 1 card", run.span)
        elif run.length > len(reach):
            self.err(f"a run of {run.length} by {run.attr} is longer than the values the cards give it "
                     f"({values_text(reach)})", run.span, f"a run by {run.attr} has at most {len(reach)} cards")

    _STATIC = (m.Num, m.Bool, m.Name, m.BinOp, m.Not, m.MinMax, m.CondValue, m.CpName, m.CpCompare, m.CpLogic,
               Span)

    def static(self, node, scope, combination: str) -> bool:
        """Whether ``node`` reads only the values of a combination (``scope``), numbers, symbols
        and what each card shows; if not, the first thing it reads otherwise is reported."""
        for n in m.nodes(node):
            if not isinstance(n, self._STATIC) or isinstance(n, m.Name) and n.name not in scope \
                    and n.name not in self.cg.symbol_of:
                values = ", ".join(f"'{v}'" for v in scope) or "none"
                self.err(f"a combination reads only its own values ({values}), numbers and symbols", n.span,
                         f"'{combination}' is one pattern wherever it is used: give it a value for what changes")
                return False
        return True

    def combination_kind(self, k: m.CombinationsDecl) -> None:
        """``combinations NAME: A < B < …``: declared combinations, each once, with at most
        MAX_CHOICES values in all (a choice offers every one)."""
        cg = self.cg
        seen: set = set()
        total = 0
        for j, name in enumerate(k.combinations):
            span = k.spans[j] if j < len(k.spans) else k.span
            if name not in cg.combinations:
                attr = self.an_attribute()
                self.err(f"unknown combination '{name}'", span, self.hint_for(name, cg.combinations)
                         or f"declare it: combination {name}(x: {attr}) \"…\": 2 of {attr} = x")
                continue
            if name in seen:
                self.err(f"'{name}' is listed twice in '{k.name}'", span)
            seen.add(name)
            i = cg.combinations[name]
            total += prod(len(d) for d in cg.combination_domains[i])
            decl = cg.game.combinations[i]
            for p, t in zip(decl.params, cg.combination_types[i]):
                self.no_order(t, span)          # combinations of one kind compare by their values
            found = [p.symbols for p, t in zip(decl.params, cg.combination_types[i]) if not t.startswith("sym:")]
            found += [part.attr for part in decl.parts if isinstance(part, m.ComboRun)]
            attrs_ = cg.combination_attrs.setdefault(k.name, [])
            attrs_ += [a for a in dict.fromkeys(found) if a in cg.attr_values and a not in attrs_]
        if total > MAX_CHOICES:
            self.err(f"'{k.name}' may have {total:,} values; at most {MAX_CHOICES:,} are allowed", k.span,
                     "order fewer combinations, or give their values fewer possibilities")

    def no_order(self, typ: str | None, span) -> None:
        """Report a value of kind ``typ`` compared by order when it is a symbol of a set
        declared without one (``symbols NAME: A, B, …``)."""
        if typ is not None and typ.startswith("sym:") and base_type(typ)[4:] in self.cg.unordered:
            name = base_type(typ)[4:]
            self.err(f"the symbols of '{name}' have no order (they are listed with commas), so they "
                     "cannot be compared as higher or lower", span,
                     f"compare them with '=' or '!=', or declare an order: symbols {name}: "
                     + " < ".join(self.cg.symbols[name][:3]) + (" < …" if len(self.cg.symbols[name]) > 3 else ""))

    def _expr_Beats(self, node, scope) -> str | None:
        """``NAME(args) beats claim``."""
        c = self._claim_named(node)
        if c is None:
            return BOOL
        self.args(c, node.args, node.span, scope)
        decl = self.cg.game.claims[c.index]
        if not (decl.ordering or decl.table or decl.higher):
            self.err(f"claim '{c.name}' has no ordering, so nothing beats it", node.span,
                     "declare one: claim NAME(a, b) ordered by a, b: …")
        return BOOL

    def _expr_Member(self, node, scope) -> str | None:
        """``SEAT in SEATS``."""
        self.seat(m.SeatName(node.seat, span=node.span), scope)
        self.seat_set(node.seats, scope)
        return BOOL

    def _expr_PlayerCount(self, node, scope) -> str | None:
        """``players``."""
        return NUM

    def _expr_Extreme(self, node, scope) -> str | None:
        """``highest NAME`` and ``lowest NAME``."""
        cg = self.cg
        if node.name not in cg.counter_index or not cg.game.counters[cg.counter_index[node.name]].per_player:
            self.err(f"'{node.name}' is not a per-player counter", node.span,
                     self.hint_for(node.name, cg.counter_index))
        return NUM

    def _expr_IsNobody(self, node, scope) -> str | None:
        """``NAME is nobody``."""
        if self.name(m.Name(node.name, span=node.span), scope) not in (MAYBE_SEAT, None):
            self.err(f"'{node.name}' is always a seat", node.span,
                     "only a seat chosen with 'choose NAME in seats in SEATS or nobody' may be nobody")
        return BOOL

    def _expr_IsOut(self, node, scope) -> str | None:
        """``SEAT is out``."""
        self.seat(m.SeatName(node.seat, span=node.span), scope)
        return BOOL

    def _expr_CountSeats(self, node, scope) -> str | None:
        """``count of seats in SEATS``."""
        self.seat_set(node.seats, scope)
        return NUM

    def _expr_SeatQuantifier(self, node, scope) -> str | None:
        """``some NAME in SEATS where (COND)`` and ``every NAME in SEATS where (COND)``."""
        self.seat_values(node.var, node.seats, node.cond, scope, BOOL)
        return BOOL

    def _expr_OverSeats(self, node, scope) -> str | None:
        """``highest of (…)``, ``lowest of (…)`` and ``total of (…)`` over seats."""
        self.seat_values(node.var, node.seats, node.value, scope, NUM)
        return NUM

    def _expr_MinMax(self, node, scope) -> str | None:
        """``min(a, b, …)`` and ``max(a, b, …)``."""
        for a in node.args:
            self.want(self.expr(a, scope), NUM, a)
        return NUM

    def _expr_CondValue(self, node, scope) -> str | None:
        """``if COND then A else B``."""
        self.want(self.expr(node.cond, scope), BOOL, node.cond)
        tt = self.expr(node.then, scope)
        ot = self.expr(node.orelse, scope)
        if tt is not None and ot is not None and base_type(tt) != base_type(ot):
            self.err("the two values of 'if … then … else …' are of different kinds", node.span)
        return tt or ot

    def _expr_Not(self, node, scope) -> str | None:
        """``not COND``."""
        self.want(self.expr(node.operand, scope), BOOL, node.operand)
        return BOOL

    def _expr_BinOp(self, node, scope) -> str | None:
        """Arithmetic, comparison and logic."""
        return self.binop(node, scope)

    _EXPR = {
        m.Num: "_expr_Num",
        m.Bool: "_expr_Bool",
        m.Name: "_expr_Name",
        m.SeatName: "_expr_SeatName",
        m.Neighbour: "_expr_seat",
        m.FirstOf: "_expr_seat",
        m.ValueOf: "_expr_ValueOf",
        m.CountOf: "_expr_CountOf",
        m.TotalOf: "_expr_TotalOf",
        m.CardExtreme: "_expr_CardExtreme",
        m.CardQuantifier: "_expr_CardQuantifier",
        m.Roll: "_expr_Roll",
        m.ClaimHolds: "_expr_ClaimHolds",
        m.ClaimIs: "_expr_ClaimIs",
        m.NoClaim: "_expr_NoClaim",
        m.ClaimedField: "_expr_ClaimedField",
        m.Beats: "_expr_Beats",
        m.Member: "_expr_Member",
        m.PlayerCount: "_expr_PlayerCount",
        m.Extreme: "_expr_Extreme",
        m.IsOut: "_expr_IsOut",
        m.IsNobody: "_expr_IsNobody",
        m.CountSeats: "_expr_CountSeats",
        m.SeatQuantifier: "_expr_SeatQuantifier",
        m.OverSeats: "_expr_OverSeats",
        m.MinMax: "_expr_MinMax",
        m.CondValue: "_expr_CondValue",
        m.Not: "_expr_Not",
        m.TableValue: "_expr_TableValue",
        m.HasCombination: "_expr_HasCombination",
        m.BestCombination: "_expr_BestCombination",
        m.BinOp: "_expr_BinOp",
    }

    def counter_type(self, decl: m.CounterDecl) -> str:
        """NUM, or "num:NAMES" for a counter declared with display names (checked in ``game``)."""
        if decl.names is None or decl.names not in self.cg.value_names:
            return NUM
        return "num:" + decl.names

    def want(self, typ, expected, node):
        typ = base_type(typ)
        if typ is not None and typ != expected:
            names = {NUM: "a number", BOOL: "a condition", SEAT: "a seat", GROUP: "a set of seats",
                     MAYBE_SEAT: "a seat that may be nobody"}
            found = names.get(typ) or ("a combination" if typ.startswith("comb:") else "a symbol")
            self.err(f"expected {names.get(expected, expected)}, found {found}", node.span)

    def binop(self, node: m.BinOp, scope) -> str:
        lt = self.expr(node.left, scope)
        rt = self.expr(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            self.want(lt, BOOL, node.left)
            self.want(rt, BOOL, node.right)
            return BOOL
        if op in _ARITH:
            self.want(lt, NUM, node.left)
            self.want(rt, NUM, node.right)
            if op in ("/", "/^", "mod") and isinstance(node.right, m.Num) and node.right.value == 0:
                self.err("division by zero", node.right.span)
            return NUM
        if op in ("<", "<=", ">", ">="):
            for t in (lt, rt):
                self.no_order(t, node.span)
        if lt is not None and rt is not None and base_type(lt) != base_type(rt):
            left = node.left
            if isinstance(left, m.CardQuantifier) and isinstance(left.pred, m.CpName) \
                    and left.pred.name in self.cg.attr_table:
                return BOOL      # "is rank = r": said once, at 'rank'

            self.err("these two sides cannot be compared (one is a seat, a symbol or a condition, "
                     "the other is not)", node.span)
        return BOOL

    def args(self, claim: CompiledClaim, args, span, scope) -> None:
        """Check the values given to a claim: as many as it takes, each of its kind."""
        if len(args) != len(claim.params):
            self.err(f"claim '{claim.name}' takes {len(claim.params)} value(s), {len(args)} given", span)
        for a, typ in zip(args, claim.types):
            t = self.expr(a, scope)
            if t is not None and base_type(t) != base_type(typ):
                self.err(f"this value does not fit claim '{claim.name}'", a.span)

    # ------------------------------------------------------------ card predicates
    def cpred(self, node, scope) -> None:
        """Check a condition on a card: a flag, a card's name, a symbol, a chosen kind or
        symbol, a comparison of an attribute, and ``and``/``or``/``not`` of those."""
        cg = self.cg
        if isinstance(node, m.CpName):
            name = node.name
            if naming.resolve_card_test(cg, name, scope) is not None:
                return           # a flag, a card's name, a symbol; a bound kind or symbol
            if name in cg.attr_table:
                self.err(f"'{name}' is a card attribute, not a condition: after 'is', a comparison goes "
                         f"in parentheses", node.span, f"write: is ({name} = …)")
                return
            self.err(f"'{name}' is neither a flag nor a card of the deck", node.span,
                     self.hint_for(name, cg.flag_names | cg.card_names))
            return
        if isinstance(node, m.CpCompare):
            if node.attr not in cg.attr_table and node.attr in cg.symbols:
                self.symbol_test(node, scope)      # 'SYMBOLS = s': the card shows that symbol
                return
            if node.attr not in cg.attr_table:
                self.err(f"'{node.attr}' is not a card attribute", node.span, self.hint_for(node.attr, cg.attr_table))
                return
            self.expr(node.value, scope)
            return
        if isinstance(node, m.CpLogic):
            self.cpred(node.left, scope)
            if node.op != "not":
                self.cpred(node.right, scope)
            return
        self.err("not a card condition", getattr(node, "span", Span.unknown()))

    def symbol_test(self, node: m.CpCompare, scope) -> None:
        """``SYMBOLS = VALUE`` (or ``!=``) in a card condition, SYMBOLS a symbol set: whether the
        card shows that symbol of the set (a card of ``ATTR LO..HI, each SYMBOLS`` shows one)."""
        if node.op not in ("=", "!="):
            self.err(f"a card shows a {node.attr} or not: compare it with '=' or '!='", node.span,
                     f"write '{node.attr} = VALUE'")
            return
        typ = self.expr(node.value, scope)
        if typ is not None and typ != _sym(node.attr):
            self.err(f"expected a symbol of '{node.attr}' here", node.value.span,
                     f"one of {', '.join(self.cg.symbols[node.attr])}, or a value of that set")

    # ------------------------------------------------------------ zones and cards
    def zone(self, ref: m.ZoneRef, scope) -> None:
        """Check a zone: a declared one, whose it is said for a zone of each player (and only then)."""
        cg = self.cg
        if ref.zone not in cg.zone_index:
            self.err(f"unknown zone '{ref.zone}'", ref.span, self.hint_for(ref.zone, cg.zone_index)
                     or "declare it: zone NAME: shared, count only")
            return
        if cg.zones[cg.zone_index[ref.zone]].per_player:
            if ref.seat is None and not ref.yours:
                self.err(f"'{ref.zone}' is a zone of each player: say whose", ref.span,
                         f"write 'your {ref.zone}' or '{ref.zone} of SEAT'")
                return
            if ref.seat is not None:
                self.seat(ref.seat, scope)
            return
        if ref.seat is not None or ref.yours:
            self.err(f"'{ref.zone}' is shared by the table; it belongs to no player", ref.span,
                     f"write just '{ref.zone}'")

    def cards(self, node, scope) -> None:
        """Check a selection of cards."""
        cg = self.cg
        if isinstance(node, m.ZoneRef):
            self.zone(node, scope)
        elif isinstance(node, m.Chosen):
            if "$chosen" not in scope:
                self.err("'chosen' is only known in an action that chooses cards", node.span,
                         "add 'choose 1 from your hand' (or similar) before it")
        elif isinstance(node, m.Claimed):
            pass
        elif isinstance(node, m.EveryZone):
            if node.zone not in cg.zone_index:
                self.err(f"unknown zone '{node.zone}'", node.span, self.hint_for(node.zone, cg.zone_index))
            elif not cg.zones[cg.zone_index[node.zone]].per_player:
                self.err(f"'{node.zone}' is shared, so there is only one", node.span, f"write just '{node.zone}'")
            elif node.seats:
                self.seat_set(node.seats, scope)
        elif isinstance(node, m.Portion):
            self.cards(node.cards, scope)
            self.want(self.expr(node.count, scope), NUM, node.count)
        elif isinstance(node, m.Where):
            self.cards(node.cards, scope)
            self.cpred(node.pred, scope)
        elif isinstance(node, m.CardUnion):
            for part in node.parts:
                self.cards(part, scope)
        else:
            self.err("expected cards here", getattr(node, "span", Span.unknown()))

    # ------------------------------------------------------------ templates
    def secret_in(self, expr, revealed=frozenset()) -> str | None:
        """What an expression of a text (a label, a log) reads that some seat may not see:
        cards of a zone not seen by all (beyond how many there are), the chosen or claimed
        cards, the truth of the claim, a counter not seen by all; None if it reads nothing
        hidden. ``revealed``: what was just revealed to everyone (see :func:`note_revealed`):
        names of zones whose every instance was, and the cards expressions that were (read
        where no seat variable they name is bound again inside ``expr``). Inside ``(p in
        SEATS where …)``, ``every p in SEATS where …`` or ``… for p in SEATS``, ``ZONE of p``
        is revealed when ``every ZONE of SEATS`` was."""
        return self._secret_walk(expr, revealed, {}, False)

    _FACES = (m.Where, m.TotalOf, m.CardExtreme, m.CardQuantifier, m.HasCombination, m.BestCombination)

    def _secret_walk(self, node, revealed, bound: dict, faces: bool) -> str | None:
        """:meth:`secret_in` of ``node``, where ``bound`` maps the seat variables bound around
        it within the expression to the seats they range over (None: not a set whose zones
        were revealed), and ``faces`` says whether the faces of its cards are read."""
        cg = self.cg
        if isinstance(node, m.ClaimHolds):
            return "whether the claim holds"
        if isinstance(node, (m.Name, m.ValueOf, m.Extreme)) and node.name in cg.counter_index \
                and not (type(node) is m.Name and node.name in bound):      # (a seat variable of that name)
            if cg.game.counters[cg.counter_index[node.name]].seen != "all":
                return f"the counter '{node.name}'"
        if isinstance(node, m.CountOf) and isinstance(node.cards, (m.ZoneRef, m.EveryZone)) \
                and node.cards.zone in cg.zone_index and cg.zones[cg.zone_index[node.cards.zone]].seen == "nobody":
            return f"how many cards '{node.cards.zone}' holds"          # hidden too: 'seen by nobody'
        if faces and isinstance(node, (m.Chosen, m.Claimed, m.ZoneRef, m.EveryZone)) \
                and not self._revealed_here(node, revealed, bound):
            if isinstance(node, (m.Chosen, m.Claimed)):
                return "the faces of the chosen cards" if isinstance(node, m.Chosen) else \
                    "the faces of the claimed cards"
            if node.zone in cg.zone_index and cg.zones[cg.zone_index[node.zone]].seen != "all":
                return f"the cards of '{node.zone}'"
        if isinstance(node, m.SeatSet) and node.kind in ("where", "highest", "lowest") and node.name:
            var, seats, inner = node.name, node.base, node.cond
        elif isinstance(node, (m.SeatQuantifier, m.OverSeats)):
            var, seats, inner = node.var, node.seats, node.cond if isinstance(node, m.SeatQuantifier) else node.value
        else:
            var = None
        if var is not None:
            found = self._secret_walk(seats, revealed, bound, faces) if seats is not None else None
            # the seats range over a set whose zones were revealed, named as it was revealed
            over = seats if seats is not None and not (_names_of(seats) & bound.keys()) else None
            return found or self._secret_walk(inner, revealed, {**bound, var: over}, faces)
        for child in m.children(node):
            reads = faces or (isinstance(node, self._FACES) and child is node.cards)
            found = self._secret_walk(child, revealed, bound, reads)
            if found is not None:
                return found
        return None

    @staticmethod
    def _revealed_here(node, revealed, bound: dict) -> bool:
        """Whether the cards ``node`` names were revealed to all (see :meth:`secret_in`)."""
        if isinstance(node, (m.ZoneRef, m.EveryZone)) and node.zone in revealed:
            return True
        if node in revealed and not (_names_of(node) & bound.keys()):
            return True
        if isinstance(node, m.ZoneRef) and isinstance(node.seat, m.SeatName) and bound.get(node.seat.name):
            return m.EveryZone(node.zone, bound[node.seat.name]) in revealed
        return False

    def secret_of(self, expr, scope) -> str | None:
        """What ``expr`` reads that some seat may not see (:meth:`secret_in`), directly or
        through a name bound to such a value (a ``let``, a procedure's value: the scope's
        ``$secret``, {name: what its value reads}); None if nothing."""
        secret = self.secret_in(expr, scope.get("$revealed", frozenset()))
        if secret is None and scope.get(SECRET):
            secrets = scope[SECRET]
            name = next((n for n in sorted(names_read(expr)) if n in secrets), None)
            if name is not None:
                secret = f"'{name}', whose value reads {secrets[name]}"
        return secret

    def shown_to_all(self, expr, scope, what: str) -> None:
        """Report ``expr`` if it reads what some seat may not see: ``what`` says where every
        seat would see it (a claim announced, a group of the views, a procedure's text)."""
        secret = self.secret_of(expr, scope)
        if secret is not None:
            self.err(f"{what}, but this reads {secret}, which not every seat may see",
                     getattr(expr, "span", None) or Span.unknown(),
                     "only what the whole table sees may be shown to all: reveal the cards first, or "
                     "keep the value in a counter seen by its owner")

    def template(self, tmpl: m.Template | None, scope) -> None:
        """Check a quoted text: every hole an expression that reads nothing some seat may not see."""
        if tmpl is None:
            return
        for part in tmpl.parts:
            if isinstance(part, str):
                continue
            secret = self.secret_of(part, scope)
            if secret is not None:
                self.err(f"this text is shown to every seat, but it reads {secret}, which not every seat may see",
                         getattr(part, "span", tmpl.span) if getattr(part, "span", None) else tmpl.span,
                         "a text may show what the whole table sees: a number of cards (count of ZONE), "
                         "public counters, seats, the claim's values")
                continue
            self.noted(part, self.expr(part, scope))

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope, interleaved: bool = False) -> None:
        """Check a block of statements; a 'let' is known to the rest of its block only.
        ``interleaved``: the body of a vote's action, whose statements run in turn for every
        voter (each statement for all, then the next): nothing revealed by one statement is
        known to be still in place at the next."""
        scope = dict(scope)
        for i, s in enumerate(stmts):
            if isinstance(s, m.Ask) and not s.then and i + 1 < len(stmts):
                # 'ask PHASE' followed by more statements: they are what happens after it
                self.stmt(attrs.evolve(s, then=tuple(stmts[i + 1:])), scope)
                break
            self.stmt(s, scope)
            if interleaved:
                scope.pop("$revealed", None)
            else:
                note_revealed(scope, s)

    def stmt(self, node, scope) -> None:
        """Check a statement (a 'let' adds its name to ``scope``)."""
        method = self._STMT.get(type(node))
        if method is not None:
            getattr(self, method)(node, scope)
            return
        self.err("not a statement", getattr(node, "span", Span.unknown()))

    def _stmt_step(self, node, scope) -> None:
        """``require`` or ``choose`` after an action's effects (an error)."""
        self.err("'require' and 'choose' belong at the start of an action, before its effects",
                 node.span)

    def _stmt_nothing(self, node, scope) -> None:
        """``clear claim``, ``end turn`` and ``end deal``: nothing to resolve."""

    def _stmt_Move(self, node, scope) -> None:
        """``move CARDS to ZONE [at bottom]`` and ``lay CARDS on ZONE``."""
        self.cards(node.cards, scope)
        self.zone(node.dest, scope)

    def _stmt_Swap(self, node, scope) -> None:
        """``swap ZONE with ZONE``."""
        self.zone(node.first, scope)
        self.zone(node.second, scope)
        if node.first == attrs.evolve(node.second, span=node.first.span) and node.first.zone in self.cg.zone_index \
                and not self.cg.zones[self.cg.zone_index[node.first.zone]].per_player:
            self.err(f"'{node.first.zone}' is swapped with itself", node.span, "name two different zones")

    def _stmt_Draw(self, node, scope) -> None:
        """``draw N from ZONE to ZONE``."""
        self.expr(node.count, scope)
        self.zone(node.source, scope)
        self.zone(node.dest, scope)

    def _stmt_Deal(self, node, scope) -> None:
        """``deal N from ZONE to each ZONE``."""
        cg = self.cg
        self.expr(node.count, scope)
        self.zone(node.source, scope)
        if node.zone not in cg.zone_index or not cg.zones[cg.zone_index[node.zone]].per_player:
            self.err(f"'{node.zone}' is not a zone of each player", node.span,
                     self.hint_for(node.zone, [z.name for z in cg.zones if z.per_player]))

    def _stmt_Shuffle(self, node, scope) -> None:
        """``shuffle ZONE`` and ``shuffle CARDS into ZONE``."""
        self.zone(node.zone, scope)
        if node.cards is not None:
            self.cards(node.cards, scope)

    def _stmt_Gather(self, node, scope) -> None:
        """``gather all cards into ZONE``."""
        self.zone(node.zone, scope)

    def _stmt_Reveal(self, node, scope) -> None:
        """``reveal CARDS`` and ``show CARDS to SEAT``."""
        self.cards(node.cards, scope)
        if node.to is not None:
            self.seat(node.to, scope)

    def _stmt_RevealCounter(self, node, scope) -> None:
        """``reveal COUNTER of SEAT`` and ``show COUNTER of SEAT to SEAT``."""
        decl = self.cg.game.counters[self.cg.counter_index[node.counter]]
        if decl.per_player and node.seat is None and not node.yours:
            self.err(f"'{node.counter}' is a counter of each player: say whose", node.span,
                     f"write 'reveal {node.counter} of SEAT' or 'reveal your {node.counter}'")
        elif not decl.per_player and (node.seat is not None or node.yours):
            self.err(f"'{node.counter}' is a counter of the table, not of a player", node.span,
                     f"write 'reveal {node.counter}'")
        if node.seat is not None:
            self.seat(node.seat, scope)
        if node.to is not None:
            self.seat(node.to, scope)

    def _stmt_Assign(self, node, scope) -> None:
        """``set``, ``add`` and ``subtract``."""
        self.assign(node, scope)

    def _stmt_MakeClaim(self, node, scope) -> None:
        """``claim NAME(args)``."""
        c = self._claim_named(node)
        if c is not None:
            self.args(c, node.args, node.span, scope)
            for a in node.args:
                self.shown_to_all(a, scope, "a claim is announced to every seat")

    def _stmt_LetGroup(self, node, scope) -> None:
        """``let GROUP be SEATS``."""
        cg = self.cg
        if node.name not in cg.group_index:
            self.err(f"unknown group '{node.name}'", node.span, self.hint_for(node.name, cg.group_index)
                     or f"declare it: group {node.name}")
            return
        self.seat_set(node.seats, scope)
        self.shown_to_all(node.seats, scope, "every seat sees who is in a group")

    def _stmt_If(self, node, scope) -> None:
        """``if COND { … } else { … }``."""
        self.want(self.expr(node.cond, scope), BOOL, node.cond)
        self.block(node.then, _seats_found(node.cond, scope, True))
        if node.orelse:
            self.block(node.orelse, _seats_found(node.cond, scope, False))

    def _stmt_ForKinds(self, node, scope) -> None:
        """``for each NAME in deck { … }``."""
        inner = loop_scope(scope, node.body)
        inner[node.var] = KIND
        self.block(node.body, inner)

    def _stmt_ForEach(self, node, scope) -> None:
        """``for each NAME in SEATS { … }`` (or in a symbol set)."""
        inner = loop_scope(scope, node.body)
        over = naming.resolve_loop(self.cg, node.seats.name, scope) if node.seats.kind == "var" else None
        if over is not None:
            inner[node.var] = _sym(over.name)      # for each value of a symbol set
        else:
            self.seat_set(node.seats, scope)
            inner[node.var] = SEAT
            self._loop_secret(inner, node.var, node.seats)
        self.block(node.body, inner)

    def _loop_secret(self, inner: dict, var: str, *read) -> None:
        """A loop's variable ``var`` is secret in its block (``inner``) when what the loop
        runs over (``read``: its bounds, its seats) reads what some seat may not see: ``for
        each i in 1..count of (hand of P2 where gold)`` tells, round by round, how many golds
        P2 holds (see :meth:`secret_of`)."""
        secret = next((s for s in (self.secret_of(x, inner) for x in read) if s is not None), None)
        if secret is not None:
            inner[SECRET] = {**inner.get(SECRET, {}), var: secret}
        elif var in inner.get(SECRET, ()):
            inner[SECRET] = {n: r for n, r in inner[SECRET].items() if n != var}

    def _stmt_GoTo(self, node, scope) -> None:
        """``go to PHASE [from SEAT]``."""
        if node.phase not in self.phase_names:
            self.err(f"unknown phase '{node.phase}'", node.span, self.hint_for(node.phase, self.phase_names))
            return
        if node.start is not None:
            self.seat(node.start, scope)

    def _stmt_Ask(self, node, scope) -> None:
        """``ask [SEAT to] PHASE [then { … }]``."""
        self.ask(node, scope)

    def _stmt_Do(self, node, scope) -> None:
        """``do NAME(args)``."""
        if node.procedure not in self.procedure_names:
            self.err(f"unknown procedure '{node.procedure}'", node.span,
                     self.hint_for(node.procedure, self.procedure_names))
            return
        self.call(node, scope)

    def _stmt_LetValue(self, node, scope) -> None:
        """``let NAME = EXPR``; a value that reads what some seat may not see makes the name
        secret for the rest of the block (see :meth:`secret_of`)."""
        scope[node.name] = self.noted(node.value, self.expr(node.value, scope))
        secret = self.secret_of(node.value, scope)
        if secret is not None:
            scope[SECRET] = {**scope.get(SECRET, {}), node.name: secret}
        elif node.name in scope.get(SECRET, ()):
            scope[SECRET] = {n: r for n, r in scope[SECRET].items() if n != node.name}

    def _stmt_RemoveSeat(self, node, scope) -> None:
        """``remove SEAT from GROUP``."""
        self.group(node.group, node.span)
        self.seat(node.seat, scope)
        self.shown_to_all(node.seat, scope, "every seat sees who is in a group")

    def _stmt_KnockOut(self, node, scope) -> None:
        """``knock out SEAT``."""
        self.seat(node.seat, scope)

    def _stmt_RollDice(self, node, scope) -> None:
        """``roll CARDS``."""
        self.cards(node.cards, scope)

    def _stmt_Repeat(self, node, scope) -> None:
        """``repeat N times { … }``."""
        self.want(self.expr(node.count, scope), NUM, node.count)
        self.block(node.body, loop_scope(scope, node.body))

    def _stmt_ForRange(self, node, scope) -> None:
        """``for each NAME in LOW..HIGH { … }``."""
        lt = self.expr(node.low, scope)
        ht = self.expr(node.high, scope)
        self.want(lt, NUM, node.low)
        self.want(ht, NUM, node.high)
        inner = loop_scope(scope, node.body)
        inner[node.var] = NUM
        self._loop_secret(inner, node.var, node.low, node.high)
        self.block(node.body, inner)

    def _stmt_Log(self, node, scope) -> None:
        """``log "TEXT"``."""
        self.template(node.text, scope)

    _STMT = {
        m.Require: "_stmt_step",
        m.ChooseCards: "_stmt_step",
        m.ChooseParam: "_stmt_step",
        m.Move: "_stmt_Move",
        m.Swap: "_stmt_Swap",
        m.Draw: "_stmt_Draw",
        m.Deal: "_stmt_Deal",
        m.Shuffle: "_stmt_Shuffle",
        m.Gather: "_stmt_Gather",
        m.Reveal: "_stmt_Reveal",
        m.RevealCounter: "_stmt_RevealCounter",
        m.Assign: "_stmt_Assign",
        m.MakeClaim: "_stmt_MakeClaim",
        m.LetGroup: "_stmt_LetGroup",
        m.ClearClaim: "_stmt_nothing",
        m.If: "_stmt_If",
        m.ForKinds: "_stmt_ForKinds",
        m.ForEach: "_stmt_ForEach",
        m.GoTo: "_stmt_GoTo",
        m.EndTurn: "_stmt_nothing",
        m.Ask: "_stmt_Ask",
        m.Do: "_stmt_Do",
        m.LetValue: "_stmt_LetValue",
        m.RemoveSeat: "_stmt_RemoveSeat",
        m.KnockOut: "_stmt_KnockOut",
        m.RollDice: "_stmt_RollDice",
        m.Repeat: "_stmt_Repeat",
        m.ForRange: "_stmt_ForRange",
        m.EndDeal: "_stmt_nothing",
        m.Log: "_stmt_Log",
    }

    def ask(self, node: m.Ask, scope) -> None:
        """``ask [SEAT to] PHASE then { … }``: at run time a frame (the ``then`` block, the
        values known here, ``current`` and ``actor``) is pushed on ``ctx.stack``; the engine
        pops it when the asked phase ends without saying where play goes. Each 'ask' (in
        each scope) gets, once, a continuation index (``ask_frames``) and its ``then`` block
        (``ask_blocks``), which the code generator writes as a function."""
        cg = self.cg
        if node.phase not in self.phase_names:
            self.err(f"unknown phase '{node.phase}'", node.span, self.hint_for(node.phase, self.phase_names))
            return
        self.asked.add(node.phase)
        decl = next(p for p in cg.game.phases if p.name == node.phase)
        if node.seat is not None:
            if decl.kind != "turn":
                self.err(f"'{node.phase}' is a {'vote' if decl.kind == 'vote' else 'window'}: it asks its own seats",
                         node.span, f"write 'ask {node.phase} …'")
            self.seat(node.seat, scope)
        inner = {k: v for k, v in scope.items() if not k.startswith("$")}
        # once: the code generator asks again for the frame of the same 'ask', and a match's
        # pending frames name its continuation by index
        key = (node, tuple(sorted(inner.items())))
        if key in self.ask_frames:
            return
        index = len(self.ask_blocks)
        self.ask_blocks[index] = (node.then, inner)
        self.ask_frames[key] = (index, tuple(sorted(inner)), node.phase)
        if node.then:
            # what a value of this scope reads stays secret in the 'then' block (a 'let' of
            # hidden cards logged after the asked phase); not part of the frame's key
            self.block(node.then, {**inner, SECRET: scope[SECRET]} if scope.get(SECRET) else inner)

    def group(self, name: str, span) -> None:
        if name not in self.cg.group_index:
            self.err(f"unknown group '{name}'", span, self.hint_for(name, self.cg.group_index)
                     or f"declare it: group {name}")

    def call(self, node: m.Do, scope) -> None:
        """``do NAME(args)``: as many values as the procedure takes, each of its kind."""
        decl = self.procedure_decls[node.procedure]
        if len(node.args) != len(decl.params):
            self.err(f"procedure '{decl.name}' takes {len(decl.params)} value(s), {len(node.args)} given",
                     node.span)
            return
        if not decl.params:
            return
        secrets = {}
        for a, p in zip(node.args, decl.params):
            t = self.expr(a, scope)
            want = self.param_type(p)
            if want is not None and t is not None and base_type(t) != base_type(want):
                self.want(t, want, a)
            secret = self.secret_of(a, scope)
            if secret is not None:
                secrets[p.name] = (secret, a)
        self.procedure(decl)
        if secrets:
            leak = shown_in(decl.body, {name: name for name in secrets}, self.procedure_decls, self.cg.group_index, set())
            if leak is not None:
                param, where = leak
                secret, arg = secrets[param]
                self.err(f"'{decl.name}' shows its value '{param}' to every seat ({where}), but this reads "
                         f"{secret}, which not every seat may see", arg.span or node.span,
                         "pass only what the whole table sees, or reveal the cards first")

    def param_type(self, p: m.Param):
        """The kind of value a procedure or claim parameter takes: a number, a seat, a set of
        seats (a procedure's only) or a symbol."""
        if p.symbols is None:
            return NUM
        if p.symbols == "seat":
            return SEAT
        if p.symbols == "seats":
            return GROUP
        if p.symbols in self.cg.value_names:
            return "num:" + p.symbols
        if p.symbols in self.cg.combination_kinds:
            return _comb(p.symbols)
        if p.symbols not in self.cg.symbols:
            self.err(f"unknown symbol set '{p.symbols}'", p.span, self.symbols_hint(p.symbols))
            return None
        return _sym(p.symbols)

    def procedure(self, decl: m.ProcedureDecl) -> None:
        """Check the body of a procedure with values, once (a procedure may call itself)."""
        if decl.name not in self.procedures_checked:
            self.procedures_checked.add(decl.name)
            self.block(decl.body, {p.name: self.param_type(p) for p in decl.params})

    def assign(self, node: m.Assign, scope) -> None:
        cg = self.cg
        t = node.target
        typ = self.expr(node.value, scope)
        op = node.op
        match naming.resolve_target(cg, t.name, t.seat is not None):
            case naming.Group():
                if op != "+":
                    self.err(f"'{t.name}' is a group of seats: add a seat to it or remove one", node.span)
                    return
                self.want(typ, SEAT, node.value)
                self.shown_to_all(node.value, scope, "every seat sees who is in a group")
            case naming.SeatSlot():
                if op != "=":
                    self.err(f"'{t.name}' is a seat: it can be set, not added to", node.span)
                self.want(typ, SEAT, node.value)
            case naming.Counter(per_player=per_player):
                self.want(typ, NUM, node.value)
                if t.seat is not None and not per_player:
                    self.err(f"'{t.name}' is one counter for the whole table", t.span, f"write just '{t.name}'")
                if t.seat is not None:
                    self.seat(t.seat, scope)
            case None:
                self.err(f"unknown counter or seat '{t.name}'", t.span,
                         self.hint_for(t.name, list(cg.counter_index) + list(cg.seat_index)))

    # ------------------------------------------------------------ actions
    def action(self, node: m.Action, index: int, scope, kind: str) -> CompiledAction:
        """One action: its opening steps (requires and choices, see :mod:`rulekit.ir.steps`)
        checked and resolved, then its effects and its label checked."""
        steps: list = []
        chosen: dict = {}                 # name -> type of the values chosen so far
        scope = dict(scope)
        body_start = len(node.body)
        for i, s in enumerate(node.body):
            if isinstance(s, m.Require):
                self.want(self.expr(s.cond, scope), BOOL, s.cond)
                self.no_chance(s.cond, "a condition of an action")
                reads = bool(names_read(s.cond) & set(chosen)) or m.mentions(s.cond, (m.Chosen,)) \
                    or any(type(st) is ir.ChooseBlind for st in steps)
                steps.append(ir.Require(s, s.message or ir.steps.DEFAULT_MESSAGE, reads))
            elif isinstance(s, m.ChooseCards):
                if any(type(st) in (ir.ChooseCards, ir.ChooseBlind) for st in steps):
                    self.err("an action chooses cards once", s.span)
                read = names_read(s.source) & set(chosen)
                if read:
                    self.err(f"the cards are chosen from a zone that depends on '{sorted(read)[0]}', "
                             "a value chosen before them", s.source.span,
                             "a player is offered cards from one zone: choose the cards first, or choose "
                             "the value in one action and the cards in the next phase")
                if s.blind:
                    if s.low < 1:
                        self.err("choose at least 1 card", s.span)
                    self.cards(s.source, scope)
                    steps.append(ir.ChooseBlind(s, s.low))
                    scope["$chosen"] = "cards"
                    continue
                if not isinstance(s.source, m.ZoneRef):
                    self.err("cards are chosen from one zone, like 'your hand'", s.source.span)
                    continue
                self.zone(s.source, scope)
                if s.high is not None and s.high < s.low:
                    self.err(f"the range {s.low}..{s.high} is empty", s.span)
                steps.append(ir.ChooseCards(s, s.low, s.high))
                scope["$chosen"] = "cards"
            elif isinstance(s, m.ChooseParam):
                typ = self.choice_domain(s, scope)
                self.no_chance(s.domain, "the values offered")
                dependent = bool(names_read(s.domain) & set(chosen))
                steps.append(ir.ChooseValue(s, s.name, typ, dependent, (), s.prompt))
                chosen[s.name] = typ
                scope[s.name] = typ
            else:
                body_start = i
                break
        steps = self.guard_choices(steps, self.seen_by_decider)
        self.block(node.body[body_start:], scope, interleaved=kind == "vote")
        self.template(node.label, scope)
        if node.label is not None:
            self.no_chance(node.label, "the label of an action")
        secret = any(type(st) is ir.Require and st.reads_choice and not self.seen_by_decider(st.stmt.cond, chosen)
                     for st in steps)
        return CompiledAction(node.name, index, tuple(steps), node.span, node.label is not None, secret)

    def choice_domain(self, s: m.ChooseParam, scope) -> str | None:
        """``choose NAME in DOMAIN``: the kind of the values offered (checked)."""
        d = s.domain
        if d.kind == "range":
            lt = self.expr(d.low, scope)
            ht = self.expr(d.high, scope)
            self.want(lt, NUM, d.low)
            self.want(ht, NUM, d.high)
            if isinstance(d.low, m.Num) and isinstance(d.high, m.Num) \
                    and d.high.value - d.low.value >= MAX_CHOICES:
                self.err(f"{s.name} would be chosen among {d.high.value - d.low.value + 1:,} values; at most "
                         f"{MAX_CHOICES:,} are allowed", d.span, "choose among fewer values")
            if s.names is not None:
                return self.param_type(m.Param(s.name, s.names, span=s.span)) or NUM
            return NUM
        if d.kind == "symbols":
            if d.name in self.cg.combination_kinds:
                return _comb(d.name)                 # every value of an order of combinations
            if d.name not in self.cg.symbols:
                die = next((x for x in self.cg.game.dice if d.name in (x.name, "face")), None)
                hint = (f"a face is a number: 'choose {s.name} in 1..{die.sides}'" if die is not None
                        else self.symbols_hint(d.name))
                if d.name in self.cg.zone_index:
                    hint = f"'{d.name}' is a zone: to choose cards write 'choose 1 from {d.name}'"
                self.err(f"unknown symbol set '{d.name}'", d.span, hint)
                return None
            return _sym(d.name)
        self.seat_set(d.seats, scope)
        if d.kind == "group":
            if isinstance(d.size, m.Num) and d.size.value < 1:
                self.err("choose at least 1 seat", d.span)
            self.want(self.expr(d.size, scope), NUM, d.size)
            return GROUP
        return MAYBE_SEAT if d.or_nobody else SEAT

    def force(self, p: m.PhaseDecl, actions: list, cp: CompiledPhase) -> None:
        """``action NAME … forced when COND``: while COND holds for the deciding seat, the
        other actions (and a window's decline) are not allowed; each gets a first step
        (:class:`rulekit.ir.Forced`) that says so."""
        forced = []
        for a in p.actions:
            if a.forced is not None:
                self.want(self.expr(a.forced, {}), BOOL, a.forced)
                self.no_chance(a.forced, "a condition of an action")
                forced.append((a.name, f"you must {a.name}"))
        if not forced:
            return
        cp.forced = True
        for ca in actions:
            others = [message for name, message in forced if name != ca.name]
            if others:
                ca.steps = (ir.Forced(" or ".join(others)),) + ca.steps

    def table_entry(self, cc: CompiledClaim, entry: tuple, span) -> tuple:
        """One entry of an ``ordered as`` table as the claim's values (symbols as indices)."""
        if len(entry) != len(cc.params):
            self.err(f"{entry_text(entry)} does not fit claim '{cc.name}', which takes {len(cc.params)} value(s)",
                     entry[0].span if entry else span, "write each entry of the table as (v1, v2, …)")
            return None
        values = []
        for atom, typ in zip(entry, cc.types):
            if isinstance(atom, m.Num) and base_type(typ) == NUM:
                values.append(atom.value)
            elif isinstance(atom, m.Name) and typ.startswith("sym:") and atom.name in cg_symbols(self.cg, typ):
                values.append(cg_symbols(self.cg, typ).index(atom.name))
            else:
                self.err(f"'{entry_text((atom,))}' is not a value of claim '{cc.name}' here", atom.span)
                return None
        return tuple(values)

    @functools.cached_property
    def seen_by_decider(self):
        """See :func:`rulekit.sema.visibility.seen_by_decider`."""
        from ..sema.visibility import seen_by_decider
        return seen_by_decider(self.cg.game)

    @staticmethod
    def guard_choices(steps: list, seen) -> list:
        """``steps`` with each chosen value given, as its guards, the conditions of the
        requires right after it that read that choice and no other: they filter the values a
        player is offered (a seat that may be targeted, a count that is allowed). Only those
        that read what the deciding seat sees (``seen(cond, names)``): filtered by a card it
        cannot see, the values offered would tell it the card (a seat it may not accuse
        because of its hidden role); those are judged when the choice is made."""
        names = {st.name for st in steps if type(st) is ir.ChooseValue}
        out = []
        current = None                    # the index in out of the choice the requires follow
        for st in steps:
            if type(st) is ir.Require and current is not None:
                cond = st.stmt.cond
                read = names_read(cond)
                choice = out[current]
                if choice.name in read and not (read & (names - {choice.name})) \
                        and not m.mentions(cond, (m.Chosen, m.Beats)) and seen(cond, names):
                    out[current] = attrs.evolve(choice, guards=choice.guards + (cond,))
            elif type(st) is ir.ChooseValue:
                current = len(out)
            elif type(st) is not ir.Require:
                current = None
            out.append(st)
        return out

    def check_endings(self, g: m.Game) -> None:
        """A turn, a first-come window and every window or vote's closing block must say
        where play goes next; otherwise the match would stall."""
        procs = {p.name: p.body for p in g.procedures}
        hint = "end it with 'go to PHASE' or 'end deal' (also inside each branch of an 'if')"
        remain = g.match.remain
        ko = remain is not None and g.players[1] - 1 <= remain

        def _ends(stmts, procs):
            return _ends_(stmts, procs, knockout_ends=ko)
        for p in g.phases:
            if p.kind == "vote":      # asked or not
                for a in p.actions:
                    for s, via in _leaving(a.body, procs):
                        self.err("the choices of a vote take effect together, so a vote's action cannot "
                                 f"leave the vote{via}", s.span,
                                 "move 'go to' / 'end deal' into the vote's 'then' block")
            if p.name in self.asked:
                continue          # an asked phase may end by returning to the 'then' of its 'ask'
            if p.kind in ("turn", "first") and not (p.kind == "turn" and (p.after is not None or p.rotation)):
                for a in p.actions:
                    if not _ends(a.body, procs):
                        self.err(f"action '{a.name}' can end without saying where play goes", a.span, hint)
            if p.kind in ("first", "each") and p.after is None:
                word = "otherwise" if p.kind == "first" else "then"
                self.err(f"window '{p.name}' needs a '{word}' block: every seat may decline", p.span,
                         f"add '{word} {{ … go to PHASE }}' after its actions")
            if p.after is not None and not p.rotation and not _ends(p.after, procs):
                word = "otherwise" if p.kind == "first" else "then"
                self.err(f"the '{word}' block of '{p.name}' can end without saying where play goes", p.span, hint)
        if not _ends(g.setup, procs):
            self.err("the setup can end without saying where play goes", g.setup_span,
                     "end the setup with 'go to PHASE'")
        # after an ask, nothing but the ask's own block can say where play goes, in an action
        # of a turn with no 'then' and no rotation (elsewhere the turn's 'then' runs again),
        # in a window's action and in a window's or vote's closing block
        blocks = [a.body for p in g.phases if p.kind == "turn" and p.after is None and not p.rotation
                  for a in p.actions]
        blocks += [a.body for p in g.phases if p.kind in ("first", "each") for a in p.actions]
        blocks += [p.after for p in g.phases if p.kind != "turn" and p.after]
        reported: set = set()
        phases = {p.name: p for p in g.phases}
        for block in blocks:
            for ask, after in _asks_cut_short(block, procs):
                target = phases.get(ask.phase)
                if id(ask) not in reported and target is not None and _may_return(target, procs):
                    reported.add(id(ask))
                    self.err(f"when '{ask.phase}' ends without saying where play goes, play goes on after "
                             f"'ask {ask.phase}' in its own block only: the statements after the block that "
                             f"holds it (line {after.span.line}) would not run then", ask.span,
                             "end that block with what comes next, or move the 'ask' after it")
        for s, via in _leaving(g.match.between, procs):
            self.err("'between deals' runs between two deals: the next deal's setup says where play goes, so it "
                     f"cannot leave the block{via}", s.span, "move 'go to' into the setup; a deal ends in a phase")

    # ------------------------------------------------------------ the whole game
    def game(self):
        cg = self.cg
        g = cg.game
        self.phase_names = [p.name for p in g.phases]
        self.asked: set = set()
        for c in g.counters:
            if c.names is not None and c.names not in cg.value_names:
                self.err(f"unknown names '{c.names}'", c.span, self.hint_for(c.names, cg.value_names)
                         or f"declare them: names {c.names}: 1 \"A\", …")
        self.procedure_names = [p.name for p in g.procedures]
        self.check_tables()
        self.check_combinations()
        for i, c in enumerate(g.claims):
            types = [self.param_type(p) or NUM for p in c.params]
            for p, t in zip(c.params, types):
                if t == GROUP:
                    self.err(f"a claim's value is a number, a seat or a symbol, not a set of seats ('{p.name}')",
                             p.span, "a procedure may take a set of seats: 'procedure NAME(who: seats)'")
            cc = CompiledClaim(c.name, i, tuple(p.name for p in c.params), tuple(types))
            cg.claims[c.name] = cc
            cg.claim_list.append(cc)
        for i, p in enumerate(g.phases):
            cp = CompiledPhase(p.name, i, p.kind, p.span)
            cg.phases[p.name] = cp
            cg.phase_list.append(cp)
        for c, cc in zip(g.claims, cg.claim_list):
            self.claim(c, cc)
        self.procedures(g)
        for p, cp in zip(g.phases, cg.phase_list):
            self.phase(p, cp)
        for d in g.dice:
            if d.count and d.zone is not None:
                if d.zone not in cg.zone_index:
                    self.err(f"unknown zone '{d.zone}'", d.span, self.hint_for(d.zone, cg.zone_index))
                elif cg.zones[cg.zone_index[d.zone]].per_player != d.each:
                    self.err(f"'{d.zone}' is {'shared' if d.each else 'a zone of each player'}", d.span,
                             f"write '{d.count} in {d.zone}'" if d.each else f"write '{d.count} in each {d.zone}'")
        self.match(g)
        self.check_endings(g)
        self.check_dead_ends(g)
        self.check_traps(g)

    def claim(self, c: m.ClaimDecl, cc: CompiledClaim) -> None:
        """``claim NAME(params) "label" ordered …: true when COND``: its truth, label and order."""
        scope = {name: typ for name, typ in zip(cc.params, cc.types)}
        if m.mentions(c.truth, (m.ClaimHolds,)):
            self.err(f"claim '{c.name}' is true when… 'claim holds': a claim cannot be defined by itself",
                     c.truth.span, "say what must be true of the cards or the table")
        self.want(self.expr(c.truth, scope), BOOL, c.truth)
        self.no_chance(c.truth, "the truth of a claim")
        self.template(c.label, scope)
        if c.label is not None:
            self.no_chance(c.label, "the words of a claim")
        for key in (*(c.ordering or ()), *((c.higher,) if c.higher is not None else ())):
            self.no_chance(key, "the order of claims")
            found = next((x for x in m.nodes(key) if isinstance(x, (m.ClaimHolds, m.Beats))), None)
            if found is not None:
                self.err("the order of claims reads only their values: not whether a claim holds, nor "
                         "'beats claim'", found.span, "compare the values: 'higher when q > claimed q'")
        for e in c.ordering or ():
            typ = self.expr(e, scope)
            if typ == BOOL:
                self.err("an ordering key is a value, not a condition", e.span)
            self.no_order(typ, e.span)
        if c.table:
            cc.table = {}
            for rank, entry in enumerate(c.table):
                values = self.table_entry(cc, entry, c.span)
                if values is None:
                    break             # one located problem is enough for a malformed table
                if values in cc.table:
                    self.err(f"{entry_text(entry)} is listed twice in the order of '{c.name}'", c.span)
                cc.table[values] = rank
        if c.higher is not None:
            self.want(self.expr(c.higher, scope), BOOL, c.higher)

    def procedures(self, g: m.Game) -> None:
        """``procedure NAME(params) { … }``: those without values checked here, the others once each."""
        self.procedure_decls = {proc.name: proc for proc in g.procedures}
        self.procedures_checked: set = set()
        for proc in g.procedures:
            if not proc.params:
                self.block(proc.body, {})
        for proc in g.procedures:
            if proc.params:
                self.procedure(proc)

    def phase(self, p: m.PhaseDecl, cp: CompiledPhase) -> None:
        """A phase: its seats, its actions, its rotation and its closing block."""
        if p.seats is not None:
            self.seat_set(p.seats, {})
        actions = []
        for i, a in enumerate(p.actions):
            if a.name == DECLINE:
                self.err(f"'{DECLINE}' is the built-in way to let a window pass; choose another name", a.span)
            actions.append(self.action(a, i, {}, p.kind))
        names = [a.name for a in p.actions]
        for a in p.actions:
            if names.count(a.name) > 1:
                self.err(f"phase '{p.name}' has two actions named '{a.name}'", a.span)
                break
        if not actions:
            self.err(f"phase '{p.name}' offers no action", p.span)
        self.force(p, actions, cp)
        cp.actions = tuple(actions)
        cp.by_name = {a.name: a for a in actions}
        if p.rotation is not None:
            cp.rotates = True
            if p.rotation.among is not None:
                self.seat_set(p.rotation.among, {})
        if p.after is not None:
            cp.closes = True
            self.block(p.after, {})
        elif p.kind == "vote":
            self.err(f"vote '{p.name}' needs a 'then' block", p.span)

    def match(self, g: m.Game) -> None:
        """The setup, ``between deals``, ``deals until``, the ranking, the result and the initial values."""
        cg = self.cg
        self.block(g.setup, {})
        self.block(g.match.between, {})
        if g.match.until is not None:
            self.want(self.expr(g.match.until, {}), BOOL, g.match.until)
        for node in tuple(k.expr for k in g.match.winners) + ((g.match.returns,) if g.match.returns else ()):
            if m.mentions(node, m.Roll):
                self.err("a ranking or a result may not depend on chance", node.span,
                         "roll the die in the rules and keep the result in a counter")
            elif any(isinstance(x, m.Portion) and x.random for x in m.nodes(node)):
                self.err("a ranking or a result may not depend on chance", node.span,
                         "draw the random cards in the rules and keep what counts in a counter")
        for key in g.match.winners:
            self.want(self.expr(key.expr, {}), NUM, key.expr)
        cg.rank_keys = tuple((key.highest, key.expr) for key in g.match.winners)
        if g.match.returns is not None:
            # the match is over: 'winners' names the seats that won
            self.want(self.expr(g.match.returns, {"$winners": GROUP}), NUM, g.match.returns)
        cg.returns = g.match.returns
        for c in g.counters:
            self.expr(c.initial, {})
        for s in g.seats:
            if not s.random and s.initial is not None:
                self.seat(s.initial, {})
        cg.seat_inits = tuple("random" if s.random else s.initial for s in g.seats)

    def check_traps(self, g: m.Game) -> None:
        """Phases that can never be left: every action of each (and its closing block) only
        goes to phases of the same set and changes nothing on the way (it may choose,
        require and log, nothing else), so the state never changes and the match never
        ends, whatever anybody decides. A turn that passes to the next seat by itself
        ('clockwise') changes the seat, so it is never a trap."""
        inert = (m.GoTo, m.Log, m.Require, m.ChooseParam, m.ChooseCards)
        trapped = {}
        for p in g.phases:
            blocks = [a.body for a in p.actions] + ([p.after] if p.after is not None else [])
            if p.rotation is not None or not blocks or p.name in self.asked:
                continue        # an asked phase returns to its asker when an action says nowhere
            stmts = [s for block in blocks for s in block]
            if all(isinstance(s, inert) and (not isinstance(s, m.GoTo) or s.start is None) for s in stmts):
                trapped[p.name] = {s.phase for s in stmts if isinstance(s, m.GoTo)}
        changed = True
        while changed:
            changed = False
            for name, targets in list(trapped.items()):
                if not targets <= trapped.keys():
                    del trapped[name]
                    changed = True
        for p in g.phases:
            if p.name in trapped:
                names = ", ".join(f"'{t}'" for t in sorted(trapped[p.name]))
                self.err(f"'{p.name}' can never be left: each of its actions only goes to {names} and changes "
                         "nothing, so the match would never end", p.span,
                         "end the deal somewhere ('end deal'), or let an action change something")

    def check_dead_ends(self, g: m.Game) -> None:
        """A turn or a vote none of whose actions can ever be taken, as far as the check
        can prove it: an action whose requirement is the constant ``false``, or that must
        choose cards from a zone no card ever reaches, or more cards than the match has.
        (A window is never a dead end: its seats may pass.)"""
        filled = {z.name for z in g.zones if z.holds_deck}
        filled |= {k.start for k in g.kinds if k.start}
        filled |= {d.zone for d in g.dice if d.zone and d.count}
        for node in m.nodes(g):
            if isinstance(node, (m.Move, m.Draw)):
                filled.add(node.dest.zone)
            elif isinstance(node, m.Swap):
                filled.update((node.first.zone, node.second.zone))
            elif isinstance(node, m.Deal):
                filled.add(node.zone)
            elif isinstance(node, m.Shuffle) and node.cards is not None or isinstance(node, m.Gather):
                filled.add(node.zone.zone)
        most = g.pieces(g.players[1]) + sum(d.count * (g.players[1] if d.each else 1) for d in g.dice)
        for p in g.phases:
            if p.kind not in ("turn", "vote") or not p.actions:
                continue
            reasons = [_never_taken(a, filled, most) for a in p.actions]
            if all(reasons):
                why = "; ".join(f"action '{a.name}' {r}" for a, r in zip(p.actions, reasons))
                self.err(f"'{p.name}' is a dead end: a seat asked here can never act ({why})", p.span,
                         "give the seat an action it can always take, or change what makes each one impossible")


def _never_taken(action: m.Action, filled: set, most: int) -> str | None:
    """Why ``action`` can provably never be taken, or None."""
    for s in action.body:
        if isinstance(s, m.Require):
            if isinstance(s.cond, m.Bool) and not s.cond.value:
                return "requires false"
        elif isinstance(s, m.ChooseCards):
            if s.low > most:
                return f"chooses {s.low} cards, more than the match has ({most})"
            source = s.source
            while isinstance(source, (m.Where, m.Portion)):
                source = source.cards
            if s.low >= 1 and isinstance(source, m.ZoneRef) and source.zone not in filled:
                return f"chooses from '{source.zone}', which no card ever reaches"
        elif not isinstance(s, (m.ChooseParam, m.Log, m.LetValue)):
            return None       # what follows may not run (or may be reached otherwise)
    return None


def _ends_(stmts, procs, seen=frozenset(), knockout_ends=False) -> bool:
    """Whether every way through ``stmts`` leaves by ``go to`` or ``end deal`` (or by a
    knock-out, when any knock-out leaves few enough seats to end the match)."""
    for s in stmts:
        if isinstance(s, (m.GoTo, m.EndDeal, m.Ask, m.EndTurn)) or knockout_ends and isinstance(s, m.KnockOut):
            return True
        if isinstance(s, m.If) and s.orelse and _ends_(s.then, procs, seen, knockout_ends) \
                and _ends_(s.orelse, procs, seen, knockout_ends):
            return True
        if isinstance(s, m.Do) and s.procedure in procs and s.procedure not in seen:
            if _ends_(procs[s.procedure], procs, seen | {s.procedure}, knockout_ends):
                return True
    return False


def _asks_cut_short(stmts, procs, seen: frozenset = frozenset()) -> list:
    """(ask, the first statement after the block holding it) for each ``ask`` inside an
    ``if``, a loop or a procedure called in ``stmts`` (or in an ask's ``then``) that
    statements follow, where what comes after the ask in its own block does not say where
    play goes: when the asked phase comes back, play goes on there only, so the statements
    that follow do not run."""
    found = []
    for i, s in enumerate(stmts):
        if isinstance(s, m.Ask):
            found += _asks_cut_short(s.then, procs, seen)
        for block in _inner_blocks(s, procs, seen):
            found += _asks_cut_short(block, procs, seen | _called(s))
            if i + 1 < len(stmts):
                found += [(ask, stmts[i + 1]) for ask, rest in _open_asks(block, procs, seen | _called(s))
                          if not _ends_(rest, procs)]
    return found


def _called(s) -> frozenset:
    return frozenset((s.procedure,)) if isinstance(s, m.Do) else frozenset()


def _inner_blocks(s, procs, seen: frozenset) -> tuple:
    """The branches of ``s`` (:func:`rulekit.lang.model.branches`), and the body of the
    procedure it calls (once)."""
    if isinstance(s, m.Do) and s.procedure in procs and s.procedure not in seen:
        return (procs[s.procedure],)
    return m.branches(s)


def _open_asks(stmts, procs, seen: frozenset = frozenset()) -> list:
    """(ask, what follows it in its own block, its ``then`` first) for every ``ask`` in
    ``stmts`` or in the ``if``s, loops and procedures called within them."""
    found = []
    for i, s in enumerate(stmts):
        if isinstance(s, m.Ask):
            found.append((s, tuple(s.then) + tuple(stmts[i + 1:])))
        for block in _inner_blocks(s, procs, seen):
            found += _open_asks(block, procs, seen | _called(s))
    return found


def _may_return(p: m.PhaseDecl, procs) -> bool:
    """Whether asked phase ``p`` may end without saying where play goes (so that play
    comes back to the ask): a turn whose action and 'then' may end so; a first-come window
    whose taken action or 'otherwise' (or none) may; an 'each' window or a vote whose
    closing block may (their actions pass the window on, or cannot leave the vote)."""
    closing = p.after is None or not _ends_(p.after, procs)
    acting = any(not _ends_(a.body, procs) for a in p.actions)
    if p.kind == "turn":
        return closing and acting
    if p.kind == "first":
        return closing or acting
    return closing          # an 'each' window's actions pass it on, a vote's cannot leave it


def _leaving(stmts, procs) -> list:
    """The statements of ``stmts`` that say where play goes (``go to``, ``end deal``,
    ``ask``, ``end turn``), each as (the statement, or the call that reaches one; "" or
    the words naming the procedure called and the line of what it does there)."""
    found = []
    for s in m.walk(stmts):
        if isinstance(s, (m.GoTo, m.EndDeal, m.Ask, m.EndTurn)):
            found.append((s, ""))
        elif isinstance(s, m.Do) and s.procedure in procs:
            inner = _reached(procs, s.procedure, frozenset())
            if inner is not None:
                found.append((s, f": it calls '{s.procedure}', which does (line {inner.span.line})"))
    return found


def _reached(procs, name: str, seen: frozenset = frozenset(), knockouts: bool = False):
    """The first statement saying where play goes in procedure ``name`` (``procs``: the
    procedures' bodies by name) or in a procedure it calls (see :func:`_leaving`), or None;
    with ``knockouts``, a knock-out too (it may end the match)."""
    for s in m.walk(procs[name]):
        if isinstance(s, (m.GoTo, m.EndDeal, m.Ask, m.EndTurn)) or knockouts and isinstance(s, m.KnockOut):
            return s
        if isinstance(s, m.Do) and s.procedure in procs and s.procedure not in seen | {name}:
            inner = _reached(procs, s.procedure, seen | {name}, knockouts)
            if inner is not None:
                return inner
    return None


def values_text(values) -> str:
    """Numbers in words for a message: "2..14" when they follow one another, else listed."""
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values[:12])) + (", …" if len(values) > 12 else "")


def entry_text(entry: tuple) -> str:
    parts = [str(a.value) if isinstance(a, m.Num) else a.name for a in entry]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def cg_symbols(cg: CompiledGame, typ: str) -> tuple:
    return cg.symbols[typ[4:]]


def note_revealed(scope: dict, s) -> None:
    """After statement ``s`` of a block: cards revealed to everyone may be read by the texts
    of the rest of the block (``scope["$revealed"]``, what :meth:`Checker.secret_in` takes).
    'reveal every ZONE' and 'reveal ZONE' of a shared zone reveal the zone (its name is
    kept) until a statement that may move a card; 'reveal ZONE of SEAT', 'reveal every ZONE
    of SEATS', 'reveal claimed cards' and 'reveal chosen' reveal those cards (the
    expression is kept) until a statement other than a ``log`` or a ``reveal`` (one that
    might change which seat or cards the expression names)."""
    revealed = scope.get("$revealed", frozenset())
    if isinstance(s, m.Reveal) and s.to is None:
        cards = s.cards
        whole = isinstance(cards, m.EveryZone) and cards.seats is None or \
            isinstance(cards, m.ZoneRef) and cards.seat is None and not cards.yours
        if whole:
            scope["$revealed"] = revealed | {cards.zone}
        elif isinstance(cards, (m.EveryZone, m.ZoneRef, m.Claimed, m.Chosen)) and not _drawn(cards):
            # (a set of seats drawn by chance names other seats each time it is written)
            scope["$revealed"] = revealed | {cards}
        return
    if not revealed or isinstance(s, (m.Log, m.Reveal, m.RevealCounter)):
        return
    kept = _zones_kept(revealed, (s,))
    if kept:
        scope["$revealed"] = kept
    else:
        del scope["$revealed"]


def _zones_kept(revealed: frozenset, stmts) -> frozenset:
    """Of what ``revealed`` holds, the whole zones (their names) that are still open after
    ``stmts``: all of them when no statement may move a card, else none; the cards
    expressions revealed are never kept (a statement may change which seat they name)."""
    if not all(_moves_no_card(s) for s in stmts):
        return frozenset()
    return frozenset(r for r in revealed if type(r) is str)


def _drawn(node) -> bool:
    """Whether ``node`` reads chance (a roll, ``random N of``): it may differ each time it is
    evaluated."""
    return any(isinstance(n, m.Roll) or isinstance(n, m.Portion) and n.random for n in m.nodes(node))


def _names_of(node) -> set:
    """The names an expression reads (its seats, groups and values)."""
    out = set()
    for n in m.nodes(node):
        if isinstance(n, (m.Name, m.SeatName)):
            out.add(n.name)
        elif isinstance(n, (m.Member, m.IsOut)):      # 'r in G', 'r is out': the seat by its name
            out.add(n.seat)
        elif isinstance(n, m.SeatSet) and n.kind == "var" and n.name:
            out.add(n.name)
    return out


def loop_scope(scope: dict, body) -> dict:
    """A copy of ``scope`` for the body of a loop: what was revealed before it stays
    readable there only as whole zones (``reveal every ZONE``), and only when the body
    moves no card (a later round would read cards moved in an earlier one); the cards
    expressions revealed are dropped (the loop's variable may name another seat)."""
    inner = dict(scope)
    kept = _zones_kept(inner.pop("$revealed", frozenset()), body)
    if kept:
        inner["$revealed"] = kept
    return inner


def _moves_no_card(s) -> bool:
    """Whether statement ``s`` certainly leaves every card where it is (a log, a reveal, a
    counter, a local, the claim, or an ``if`` or a loop of such statements)."""
    if isinstance(s, m.If):
        return all(_moves_no_card(t) for t in s.then + s.orelse)
    if isinstance(s, (m.ForEach, m.ForRange, m.ForKinds, m.Repeat)):
        return all(_moves_no_card(t) for t in s.body)
    return isinstance(s, (m.Log, m.Reveal, m.Assign, m.LetValue, m.LetGroup, m.ClearClaim, m.MakeClaim))


#: the arithmetic operators (the others compare, or are "and" and "or")
_ARITH = {"+", "-", "*", "/", "/^", "mod"}


_CACHE: dict = {}
_CACHE_SIZE = 8                 # the games compiled last: checking a game then playing it compiles it once


def compile_game(game: m.Game) -> CompiledGame:
    """Compile a game once (the last few games compiled are kept, so that loading a game
    and then building its engine compile it once; a process that loads many games keeps
    only those few).

    Raises:
        CompileError: every unresolved name or mismatched value, located.
    """
    key = id(game)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    cg = CompiledGame(game)
    compiler = Compiler(cg)
    compiler.game()
    cg.compiler = compiler          # the code generator reads its kinds, 'ask' frames and procedures
    if cg.problems:
        raise CompileError(cg.problems)
    _CACHE.pop(key, None)
    _CACHE[key] = (game, cg)
    while len(_CACHE) > _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]          # the oldest entry
    return cg


__all__ = ["compile_game", "CompiledGame", "CompileError", "Ctx",
           "remove_cards", "multiset_contains", "DECLINE", "CURRENT", "ACTOR", "CLAIMANT"]
