"""Compiles a checked :class:`~rulekit.lang.model.Game` into plain Python callables.

Names are resolved and expressions turned into closures once per game, so that the hot
path (legal actions, applying an action) only calls functions on a small mutable context.
Every name that cannot be resolved becomes a located :class:`~rulekit.errors.Problem`;
:class:`CompileError` carries all of them.

The engine knows no game: it knows zones, counters, seats, claims, phases and actions,
whatever the ``.rules`` file calls them.
"""

from __future__ import annotations

import re
from typing import Callable

import attrs

from .. import ir
from ..lang import model as m
from ..errors import CompileError, Problem, RulesRuntimeError, Span, suggest  # noqa: F401 (also imported from here)
from .runtime import (next_seat, ACTOR, CLAIMANT, CURRENT, Ctx, EndOfDeal, EndOfTurn, Jump, MAX_CALLS, MAX_CHOICES, choice_range,
                      loop_size, add_to_group, claimed_selection, clockwise, deal_cards, divisor, draw_cards,
                      except_seats, extreme_seats, first_seat, gather_cards, in_play, knock_out_seat, loop_range,
                      make_claim, move_cards, multiset_contains, no_seat, ordered_seats, over_seats, push_ask,
                      random_portion, remove_cards, remove_from_group, reveal_cards, roll_dice_in, roll_die,
                      seat_groups, seat_name, seat_pairs, set_group, shuffle_zone, single_seat, step_seat, too_deep,
                      top_portion, total_of, value_name)

NUM, BOOL, SEAT, GROUP, KIND = "num", "bool", "seat", "group", "kind"
BUILTIN_SEATS = ("current", "actor", "claimant")
DECLINE = "decline"


def _sym(name: str) -> str:
    return "sym:" + name


def base_type(typ):
    """A number with display names ("num:rank") is a number."""
    return NUM if typ is not None and typ.startswith("num:") else typ


_PLAYER_NAME = re.compile(r"P([1-9][0-9]*)$")


def loop(var: str, values: Callable, body: Callable) -> Callable:
    """Run ``body`` once for each of ``values(ctx)``, with ``var`` naming it."""
    def run(ctx):
        saved = ctx.locals.get(var)
        for v in values(ctx):
            ctx.locals[var] = v
            body(ctx)
        ctx.locals[var] = saved
    return run


def names_read(node) -> set:
    """Every bare name an expression (or any model node) reads: values, seats, groups."""
    found = set()
    for n in m.nodes(node):
        if isinstance(n, (m.Name, m.SeatName)):
            found.add(n.name)
        elif isinstance(n, (m.Member, m.IsOut)):
            found.add(n.seat)
        elif isinstance(n, m.SeatSet) and n.name is not None:
            found.add(n.name)
    return found


class CompiledAction:
    """One action of a phase: its legality steps (requires and choices) and its effects."""

    __slots__ = ("name", "index", "label", "_steps", "body", "span", "preview", "effects", "exact", "reads_choice")

    def __init__(self, name, index, label, steps, body, span, preview=None, effects=()):
        self.effects = effects        # the statements of ``body``, one closure each (votes run them in step)
        self.name = name
        self.index = index
        self.label = label
        self.preview = preview        # the label before the choices are made
        self.steps = steps            # the requires and choices that open it (rulekit.ir.steps)
        self.body = body
        self.span = span

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


class CompiledPhase:
    __slots__ = ("name", "index", "kind", "seats", "actions", "by_name", "after", "span", "forcing", "rotate")

    def __init__(self, name, index, kind, span):
        self.forcing = ()             # (condition, message) of each 'forced when' action
        self.name = name
        self.index = index
        self.kind = kind
        self.span = span
        self.seats = None
        self.actions = ()
        self.by_name = {}
        self.after = None
        self.rotate = None            # ctx -> the seat whose turn comes next ('clockwise' turns)


class CompiledClaim:
    __slots__ = ("name", "index", "params", "types", "label", "truth", "key", "table", "higher")

    def __init__(self, name, index, params, types):
        self.name = name
        self.index = index
        self.params = params
        self.types = types
        self.label = None
        self.truth = None
        self.key = None               # ctx -> the claim_args' key (tuple), from 'ordered by'
        self.table = None             # {values: rank}, from 'ordered as'
        self.higher = None            # ctx -> bool, from 'higher when'

    def claimable(self, values: tuple) -> bool:
        """Whether these values may be claimed at all (a table lists every claimable one)."""
        return self.table is None or values in self.table

    def rank(self, ctx, values: tuple):
        """The claim's place in its declared order (comparable), or None when unordered."""
        if self.table is not None:
            return self.table.get(values)
        if self.key is None:
            return None
        saved = ctx.claim_args
        ctx.claim_args = values
        try:
            return self.key(ctx)
        finally:
            ctx.claim_args = saved

    def beats(self, ctx, values: tuple) -> bool:
        """Whether claiming ``values`` beats the standing claim (of this kind) in ``ctx``."""
        if not self.claimable(values):
            return False
        if self.higher is not None:
            saved = ctx.claim_args
            ctx.claim_args = values
            try:
                return bool(self.higher(ctx))
            finally:
                ctx.claim_args = saved
        new, old = self.rank(ctx, values), self.rank(ctx, ctx.claim[1])
        return new is not None and old is not None and new > old


def claim_label_of(c: CompiledClaim):
    """The compiled claim's words as ``(ctx, values) -> str``, or None without a label."""
    if c.label is None:
        return None

    def label(ctx, values):
        ctx.claim_args = values
        try:
            return c.label(ctx)
        finally:
            ctx.claim_args = None
    return label


class CompiledGame:
    """Everything the engine needs, resolved to indices and closures."""

    def __init__(self, game: m.Game):
        self.game = game
        self.kinds = game.kinds
        self.kind_flags = [k.flags for k in game.kinds]
        self.card_names = {k.card for k in game.kinds}
        self.attr_names = {a for k in game.kinds for a, _ in k.attrs}
        self.flag_names = {f for k in game.kinds for f in k.flags}
        self.symbols = {s.name: s.symbols for s in game.symbols}
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
        self.claims = {}
        self.claim_list = []
        self.phases = {}
        self.phase_list = []
        self.procedures = {}
        self.setup = None
        self.between = None
        self.until = None
        self.rank_keys = ()
        self.returns = None
        self.continuations: list = []     # the compiled 'then' blocks of every 'ask', by index
        self.counter_inits = ()
        self.seat_inits = ()
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
            seen, seen_d = self.zones[zi].seen, self.zones[zd].seen
            hidden = not (seen_d == "all" or seen_d == "owner" and owner_d == owner)
            seat = self._keepers[key] = owner if seen == "owner" and hidden else -1
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
    """Turns model nodes into closures over a :class:`Ctx`, collecting problems."""

    def __init__(self, cg: CompiledGame):
        self.cg = cg
        self.problems = cg.problems
        self._asks: dict = {}         # each 'ask' (and its scope) -> its closure, compiled once
        self.ask_frames: dict = {}    # the same key -> (continuation index, names it keeps, phase name)
        self.ask_blocks: dict = {}    # continuation index -> ('then' block, its scope)

    def err(self, message: str, span: Span, hint: str | None = None):
        problem = Problem(message, span, hint)
        if problem not in self.problems:        # a part compiled twice (a label and its preview)
            self.problems.append(problem)

    def hint_for(self, name, candidates):
        return suggest(name, candidates)

    # ------------------------------------------------------------ seats
    def seat(self, node, scope) -> Callable:
        if isinstance(node, m.Neighbour):
            inner = self.seat(node.seat, scope)
            step = node.step
            return lambda ctx: step_seat(ctx, inner(ctx), step)
        if isinstance(node, m.FirstOf):
            seats = self.seat_set(node.seats, scope)
            line = node.span.line
            return lambda ctx: first_seat(seats(ctx), line)
        if isinstance(node, m.SeatName):
            fn, typ = self.name(m.Name(node.name, span=node.span), scope)
            if typ != SEAT and typ is not None:
                self.err(f"'{node.name}' is not a seat", node.span,
                         "a seat is current, actor, claimant, a declared seat or 'left of …'")
            return fn
        fn, typ = self.expr(node, scope)
        if typ != SEAT:
            self.err("expected a seat here", node.span)
        return fn

    def rotation(self, p: m.PhaseDecl) -> Callable:
        """The seat that takes a ``clockwise`` turn next (see runtime.next_seat)."""
        if p.rotation.among is None:
            return lambda ctx: next_seat(ctx, None)
        among = self.seat_set(p.rotation.among, {})
        return lambda ctx: next_seat(ctx, among(ctx))

    def seat_set(self, node: m.SeatSet, scope) -> Callable:
        kind = node.kind
        if kind == "everyone":
            return in_play
        if kind == "nobody":
            return lambda ctx: []
        if kind == "others":
            return lambda ctx: clockwise(ctx, ctx.seats[ACTOR], 1)
        if kind in ("after", "from"):
            s = self.seat(node.seat, scope)
            first = 1 if kind == "after" else 0
            if node.base is None or node.base.kind == "everyone":
                return lambda ctx: clockwise(ctx, s(ctx), first)
            base = self.seat_set(node.base, scope)
            return lambda ctx: ordered_seats(ctx, base(ctx), s(ctx), first)
        if kind == "except":
            base = self.seat_set(node.base, scope)
            other = self.seat_set(node.other, scope)
            single = node.other.kind == "var" and (scope.get(node.other.name) == SEAT or node.other.name not in scope
                                                   and node.other.name not in self.cg.group_index)
            if node.base.kind == "everyone" and single:
                # everyone except a seat: clockwise from the seat's left, as people go round a table
                one = self.seat(m.SeatName(node.other.name, span=node.other.span), scope)
                return lambda ctx: clockwise(ctx, one(ctx), 1)
            return lambda ctx: except_seats(other(ctx), base(ctx))
        if kind in ("highest", "lowest"):
            pairs = self.seat_values(node.name, node.base, node.cond, scope, NUM)
            best = max if kind == "highest" else min
            return lambda ctx: extreme_seats(pairs(ctx), best)
        if kind == "where":
            pairs = self.seat_values(node.name, node.base, node.cond, scope, BOOL)
            return lambda ctx: [s for s, v in pairs(ctx) if v]
        if kind == "voters":
            phase_action = node.name

            def voters(ctx, name=phase_action):
                return [s for s in range(ctx.n) if ctx.votes[s] is not None and ctx.votes[s].name == name]
            if not any(a.name == node.name for p in self.cg.game.phases if p.kind == "vote" for a in p.actions):
                self.err(f"no vote has a choice named '{node.name}'", node.span)
            return voters
        name = node.name
        if name in scope and scope[name] == SEAT:
            return lambda ctx: single_seat(ctx, ctx.locals[name])
        if name in scope and scope[name] == GROUP:
            return lambda ctx: list(ctx.locals[name])
        if name in self.cg.group_index:
            gi = self.cg.group_index[name]
            return lambda ctx: [s for s in ctx.groups[gi] if not ctx.out[s]]
        if name not in scope and (name in self.cg.seat_index or _PLAYER_NAME.match(name)):
            one = self.seat(m.SeatName(name, span=node.span), scope)
            return lambda ctx: single_seat(ctx, one(ctx))
        self.err(f"'{name}' is not a set of seats", node.span,
                 self.hint_for(name, list(self.cg.group_index))
                 or "use everyone, others, everyone except …, everyone after …, a group or a chosen group")
        return lambda ctx: []

    def seat_values(self, var: str, seats_node, value_node, scope, want) -> Callable:
        """A closure giving [(seat, value)] for each seat of a set, ``var`` naming the seat
        while ``value_node`` is evaluated (``p`` in ``(p in others where …)``)."""
        seats = self.seat_set(seats_node, scope)
        inner = dict(scope)
        inner[var] = SEAT
        value, typ = self.expr(value_node, inner)
        self.want(typ, want, value_node)
        return lambda ctx: seat_pairs(ctx, var, seats(ctx), value)

    # ------------------------------------------------------------ names
    def name(self, node: m.Name, scope):
        name = node.name
        cg = self.cg
        if name in scope:
            typ = scope[name]
            return (lambda ctx: ctx.locals[name]), typ
        if name in cg.counter_index:
            ci = cg.counter_index[name]
            decl = cg.game.counters[ci]
            typ = self.counter_type(decl)
            if decl.per_player:
                return (lambda ctx: ctx.counters[cg.counter_base(ctx.n)[ci] + ctx.seats[ACTOR]]), typ
            return (lambda ctx: ctx.counters[cg.counter_base(ctx.n)[ci]]), typ
        if name in cg.seat_index:
            si = cg.seat_index[name]
            return (lambda ctx: ctx.seats[si]), SEAT
        if name in cg.symbol_of:
            _, idx = cg.symbol_of[name]
            return (lambda ctx: idx), _sym(cg.symbol_of[name][0])
        numbered = _PLAYER_NAME.match(name)
        if numbered:
            seat = int(numbered.group(1)) - 1
            low, high = cg.game.players
            if seat >= high:
                self.err(f"there is no {name}: this game is for at most {high} players", node.span)
            if seat >= low:
                # a seat that only some player counts have
                line = node.span.line
                return (lambda ctx: no_seat(name, ctx.n, line) if seat >= ctx.n else seat), SEAT
            return (lambda ctx: seat), SEAT
        candidates = list(scope) + list(cg.counter_index) + list(cg.seat_index)
        hint = self.hint_for(name, candidates) or "declare it as a counter or a seat, or choose it in the action"
        if name in cg.attr_table:
            hint = (f"'{name}' is a card attribute; a condition on cards goes in parentheses: "
                    f"every card in … is (wild or {name} = …)")
        self.err(f"unknown name '{name}'", node.span, hint)
        return (lambda ctx: 0), None

    # ------------------------------------------------------------ expressions
    def expr(self, node, scope) -> tuple[Callable, str | None]:
        method = self._EXPR.get(type(node))
        if method is not None:
            return getattr(self, method)(node, scope)
        self.err("this is not an expression", getattr(node, "span", Span.unknown()))
        return (lambda ctx: 0), None

    def _expr_Num(self, node, scope) -> tuple[Callable, str | None]:
        """A whole number."""
        v = node.value
        return (lambda ctx: v), NUM

    def _expr_Bool(self, node, scope) -> tuple[Callable, str | None]:
        """``true`` or ``false``."""
        b = node.value
        return (lambda ctx: b), BOOL

    def _expr_Name(self, node, scope) -> tuple[Callable, str | None]:
        """A bare name."""
        return self.name(node, scope)

    def _expr_SeatName(self, node, scope) -> tuple[Callable, str | None]:
        """A seat named where a value is expected."""
        return self.name(m.Name(node.name, span=node.span), scope)

    def _expr_seat(self, node, scope) -> tuple[Callable, str | None]:
        """``left of SEAT``, ``right of SEAT`` and ``first of SEATS``."""
        return self.seat(node, scope), SEAT

    def _expr_ValueOf(self, node, scope) -> tuple[Callable, str | None]:
        """``NAME of SEAT``."""
        cg = self.cg
        if node.name not in cg.counter_index:
            self.err(f"unknown counter '{node.name}'", node.span, self.hint_for(node.name, cg.counter_index))
            return (lambda ctx: 0), NUM
        ci = cg.counter_index[node.name]
        if not cg.game.counters[ci].per_player:
            self.err(f"'{node.name}' is one counter for the whole table, not one per player", node.span,
                     f"write just '{node.name}'")
        s = self.seat(node.seat, scope)
        return (lambda ctx: ctx.counters[cg.counter_base(ctx.n)[ci] + s(ctx)]), \
            self.counter_type(cg.game.counters[ci])

    def _expr_CountOf(self, node, scope) -> tuple[Callable, str | None]:
        """``count of CARDS``."""
        sel = self.cards(node.cards, scope)
        return (lambda ctx: sum(len(ks) for _, ks in sel(ctx))), NUM

    def _expr_TotalOf(self, node, scope) -> tuple[Callable, str | None]:
        """``total ATTR of CARDS``."""
        cg = self.cg
        sel = self.cards(node.cards, scope)
        if node.attr in cg.attr_table and node.attr not in scope:
            col = cg.attr_table[node.attr]
            return (lambda ctx: total_of(col, sel(ctx))), NUM
        fn, typ = self.name(m.Name(node.attr, span=node.span), scope) if node.attr in scope or \
            node.attr in cg.counter_index or node.attr in cg.seat_index else (None, None)
        if typ and typ.startswith("sym:"):
            columns = tuple(cg.attr_table[s] for s in cg.symbols[typ[4:]])
            return (lambda ctx: total_of(columns[fn(ctx)], sel(ctx))), NUM
        self.err(f"'{node.attr}' is not a card attribute", node.span,
                 self.hint_for(node.attr, cg.attr_table) or "attributes are declared on the cards of the deck")
        return (lambda ctx: 0), NUM

    def _expr_CardQuantifier(self, node, scope) -> tuple[Callable, str | None]:
        """``every card in CARDS is P`` and ``some card in CARDS is P``."""
        sel = self.cards(node.cards, scope)
        pred = self.cpred(node.pred, scope)
        if node.every:
            return (lambda ctx: all(pred(ctx, k) for _, ks in sel(ctx) for k in ks)), BOOL
        return (lambda ctx: any(pred(ctx, k) for _, ks in sel(ctx) for k in ks)), BOOL

    def _expr_Roll(self, node, scope) -> tuple[Callable, str | None]:
        """``roll DIE``."""
        cg = self.cg
        if node.die not in cg.dice:
            self.err(f"unknown die '{node.die}'", node.span, self.hint_for(node.die, cg.dice))
            return (lambda ctx: 0), NUM
        sides = cg.dice[node.die]
        die = node.die
        return (lambda ctx: roll_die(ctx, sides, die)), NUM

    def _expr_ClaimHolds(self, node, scope) -> tuple[Callable, str | None]:
        """``claim holds [on CARDS]``."""
        cg = self.cg
        claims = cg.claim_list
        focus = self.cards(node.cards, scope) if node.cards is not None else None

        def holds(ctx):
            if ctx.claim is None:
                return False
            c = claims[ctx.claim[0]]
            saved = ctx.claim_args, ctx.focus
            ctx.claim_args = ctx.claim[1]
            if focus is not None:
                ctx.focus = focus(ctx)        # these cards stand in for the claimed cards
            try:
                return c.truth(ctx)
            finally:
                ctx.claim_args, ctx.focus = saved
        return holds, BOOL

    def _claim_named(self, node):
        """The compiled claim ``node.claim`` names, or None (reported: an unknown claim)."""
        cg = self.cg
        if node.claim not in cg.claims:
            self.err(f"unknown claim '{node.claim}'", node.span, self.hint_for(node.claim, cg.claims))
            return None
        return cg.claims[node.claim]

    def _expr_ClaimIs(self, node, scope) -> tuple[Callable, str | None]:
        """``claim is NAME``."""
        c = self._claim_named(node)
        if c is None:
            return (lambda ctx: False), BOOL
        ci = c.index
        return (lambda ctx: ctx.claim is not None and ctx.claim[0] == ci), BOOL

    def _expr_NoClaim(self, node, scope) -> tuple[Callable, str | None]:
        """``no claim``."""
        return (lambda ctx: ctx.claim is None), BOOL

    def _expr_ClaimedField(self, node, scope) -> tuple[Callable, str | None]:
        """``claimed FIELD``."""
        cg = self.cg
        matches = [c for c in cg.claim_list if node.field in c.params]
        if not matches:
            self.err(f"no claim has a field '{node.field}'", node.span)
            return (lambda ctx: 0), NUM
        positions = {c.index: c.params.index(node.field) for c in matches}
        typ = matches[0].types[matches[0].params.index(node.field)]

        def field(ctx):
            if ctx.claim is None or ctx.claim[0] not in positions:
                return 0
            return ctx.claim[1][positions[ctx.claim[0]]]
        return field, typ

    def _expr_Beats(self, node, scope) -> tuple[Callable, str | None]:
        """``NAME(args) beats claim``."""
        cg = self.cg
        c = self._claim_named(node)
        if c is None:
            return (lambda ctx: False), BOOL
        args = self.args(c, node.args, node.span, scope)
        decl = cg.game.claims[c.index]
        if not (decl.ordering or decl.table or decl.higher):
            self.err(f"claim '{c.name}' has no ordering, so nothing beats it", node.span,
                     "declare one: claim NAME(a, b) ordered by a, b: …")
        ci = c.index

        def beats(ctx):
            new = tuple(a(ctx) for a in args)
            return c.beats(ctx, new) if ctx.claim is not None and ctx.claim[0] == ci else c.claimable(new)
        return beats, BOOL

    def _expr_Member(self, node, scope) -> tuple[Callable, str | None]:
        """``SEAT in SEATS``."""
        seat = self.seat(m.SeatName(node.seat, span=node.span), scope)
        seats = self.seat_set(node.seats, scope)
        return (lambda ctx: seat(ctx) in seats(ctx)), BOOL

    def _expr_PlayerCount(self, node, scope) -> tuple[Callable, str | None]:
        """``players``."""
        return (lambda ctx: ctx.n), NUM

    def _expr_Extreme(self, node, scope) -> tuple[Callable, str | None]:
        """``highest NAME`` and ``lowest NAME``."""
        cg = self.cg
        if node.name not in cg.counter_index or not cg.game.counters[cg.counter_index[node.name]].per_player:
            self.err(f"'{node.name}' is not a per-player counter", node.span,
                     self.hint_for(node.name, cg.counter_index))
            return (lambda ctx: 0), NUM
        ci = cg.counter_index[node.name]
        agg = max if node.highest else min

        def extreme(ctx):
            base = cg.counter_base(ctx.n)[ci]
            return agg(ctx.counters[base:base + ctx.n])
        return extreme, NUM

    def _expr_IsOut(self, node, scope) -> tuple[Callable, str | None]:
        """``SEAT is out``."""
        seat = self.seat(m.SeatName(node.seat, span=node.span), scope)
        return (lambda ctx: ctx.out[seat(ctx)] > 0), BOOL

    def _expr_CountSeats(self, node, scope) -> tuple[Callable, str | None]:
        """``count of seats in SEATS``."""
        seats = self.seat_set(node.seats, scope)
        return (lambda ctx: len(seats(ctx))), NUM

    def _expr_SeatQuantifier(self, node, scope) -> tuple[Callable, str | None]:
        """``some NAME in SEATS where (COND)`` and ``every NAME in SEATS where (COND)``."""
        pairs = self.seat_values(node.var, node.seats, node.cond, scope, BOOL)
        if node.every:
            return (lambda ctx: all(v for _, v in pairs(ctx))), BOOL
        return (lambda ctx: any(v for _, v in pairs(ctx))), BOOL

    def _expr_OverSeats(self, node, scope) -> tuple[Callable, str | None]:
        """``highest of (…)``, ``lowest of (…)`` and ``total of (…)`` over seats."""
        pairs = self.seat_values(node.var, node.seats, node.value, scope, NUM)
        how, line = node.how, node.span.line
        return (lambda ctx: over_seats([v for _, v in pairs(ctx)], how, line)), NUM

    def _expr_MinMax(self, node, scope) -> tuple[Callable, str | None]:
        """``min(a, b, …)`` and ``max(a, b, …)``."""
        fns = []
        for a in node.args:
            f, t = self.expr(a, scope)
            self.want(t, NUM, a)
            fns.append(f)
        agg = max if node.highest else min
        return (lambda ctx: agg(f(ctx) for f in fns)), NUM

    def _expr_CondValue(self, node, scope) -> tuple[Callable, str | None]:
        """``if COND then A else B``."""
        cond, ct = self.expr(node.cond, scope)
        self.want(ct, BOOL, node.cond)
        then, tt = self.expr(node.then, scope)
        orelse, ot = self.expr(node.orelse, scope)
        if tt is not None and ot is not None and base_type(tt) != base_type(ot):
            self.err("the two values of 'if … then … else …' are of different kinds", node.span)
        return (lambda ctx: then(ctx) if cond(ctx) else orelse(ctx)), tt or ot

    def _expr_Not(self, node, scope) -> tuple[Callable, str | None]:
        """``not COND``."""
        f, t = self.expr(node.operand, scope)
        self.want(t, BOOL, node.operand)
        return (lambda ctx: not f(ctx)), BOOL

    def _expr_BinOp(self, node, scope) -> tuple[Callable, str | None]:
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
        m.CountSeats: "_expr_CountSeats",
        m.SeatQuantifier: "_expr_SeatQuantifier",
        m.OverSeats: "_expr_OverSeats",
        m.MinMax: "_expr_MinMax",
        m.CondValue: "_expr_CondValue",
        m.Not: "_expr_Not",
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
            names = {NUM: "a number", BOOL: "a condition", SEAT: "a seat"}
            self.err(f"expected {names.get(expected, expected)}, found {names.get(typ, 'a symbol')}", node.span)

    def binop(self, node: m.BinOp, scope):
        lf, lt = self.expr(node.left, scope)
        rf, rt = self.expr(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            self.want(lt, BOOL, node.left)
            self.want(rt, BOOL, node.right)
            if op == "and":
                return (lambda ctx: lf(ctx) and rf(ctx)), BOOL
            return (lambda ctx: lf(ctx) or rf(ctx)), BOOL
        if op in _ARITH:
            self.want(lt, NUM, node.left)
            self.want(rt, NUM, node.right)
            if op in ("/", "/^", "mod"):
                if isinstance(node.right, m.Num) and node.right.value == 0:
                    self.err("division by zero", node.right.span)
                line = node.span.line
                if op == "/":
                    return (lambda ctx: lf(ctx) // divisor(rf(ctx), line)), NUM
                if op == "/^":
                    return (lambda ctx: -(-lf(ctx) // divisor(rf(ctx), line))), NUM
                return (lambda ctx: lf(ctx) % divisor(rf(ctx), line)), NUM
            return _ARITH[op](lf, rf), NUM
        if lt is not None and rt is not None and base_type(lt) != base_type(rt):
            left = node.left
            if isinstance(left, m.CardQuantifier) and isinstance(left.pred, m.CpName) \
                    and left.pred.name in self.cg.attr_table:
                return _COMPARE[op](lf, rf), BOOL      # "is rank = r": said once, at 'rank'

            self.err("these two sides cannot be compared (one is a seat, a symbol or a condition, "
                     "the other is not)", node.span)
        return _COMPARE[op](lf, rf), BOOL

    def args(self, claim: CompiledClaim, args, span, scope):
        if len(args) != len(claim.params):
            self.err(f"claim '{claim.name}' takes {len(claim.params)} value(s), {len(args)} given", span)
        fns = []
        for a, typ in zip(args, claim.types):
            f, t = self.expr(a, scope)
            if t is not None and base_type(t) != base_type(typ):
                self.err(f"this value does not fit claim '{claim.name}'", a.span)
            fns.append(f)
        return fns

    # ------------------------------------------------------------ card predicates
    def cpred(self, node, scope) -> Callable:
        cg = self.cg
        if isinstance(node, m.CpName):
            name = node.name
            if scope.get(name) == KIND:
                return lambda ctx, k: ctx.locals[name] == k      # a kind named by 'for each … in deck'
            if (scope.get(name) or "").startswith("sym:"):
                # a chosen or claimed symbol: the card shows it
                columns = tuple(cg.attr_table[s] for s in cg.symbols[scope[name][4:]])
                return lambda ctx, k: columns[ctx.locals[name]][k] > 0
            if name in cg.flag_names:
                flags = cg.kind_flags
                return lambda ctx, k: name in flags[k]
            if name in cg.card_names:
                owners = tuple(kind.card == name for kind in cg.kinds)
                return lambda ctx, k: owners[k]
            if name in cg.symbol_of:
                col = cg.attr_table[name]
                return lambda ctx, k: col[k] > 0
            if name in cg.attr_table:
                self.err(f"'{name}' is a card attribute, not a condition: after 'is', a comparison goes "
                         f"in parentheses", node.span, f"write: is ({name} = …)")
                return lambda ctx, k: False
            self.err(f"'{name}' is neither a flag nor a card of the deck", node.span,
                     self.hint_for(name, cg.flag_names | cg.card_names))
            return lambda ctx, k: False
        if isinstance(node, m.CpCompare):
            if node.attr not in cg.attr_table:
                self.err(f"'{node.attr}' is not a card attribute", node.span, self.hint_for(node.attr, cg.attr_table))
                return lambda ctx, k: False
            col = cg.attr_table[node.attr]
            value, _ = self.expr(node.value, scope)
            has = tuple(any(a == node.attr for a, _ in kind.attrs) for kind in cg.kinds)
            cmp = _CMP[node.op]
            # a card without the attribute never satisfies a comparison on it
            return lambda ctx, k: has[k] and cmp(col[k], value(ctx))
        if isinstance(node, m.CpLogic):
            left = self.cpred(node.left, scope)
            if node.op == "not":
                return lambda ctx, k: not left(ctx, k)
            right = self.cpred(node.right, scope)
            if node.op == "and":
                return lambda ctx, k: left(ctx, k) and right(ctx, k)
            return lambda ctx, k: left(ctx, k) or right(ctx, k)
        self.err("not a card condition", getattr(node, "span", Span.unknown()))
        return lambda ctx, k: False

    # ------------------------------------------------------------ zones and cards
    def zone(self, ref: m.ZoneRef, scope) -> Callable:
        """A closure giving the zone instance index in ``ctx.zones``."""
        cg = self.cg
        if ref.zone not in cg.zone_index:
            self.err(f"unknown zone '{ref.zone}'", ref.span, self.hint_for(ref.zone, cg.zone_index)
                     or "declare it: zone NAME: shared, count only")
            return lambda ctx: 0
        zi = cg.zone_index[ref.zone]
        decl = cg.zones[zi]
        if decl.per_player:
            if ref.seat is None and not ref.yours:
                self.err(f"'{ref.zone}' is a zone of each player: say whose", ref.span,
                         f"write 'your {ref.zone}' or '{ref.zone} of SEAT'")
                return lambda ctx: 0
            s = self.seat(ref.seat, scope) if ref.seat is not None else (lambda ctx: ctx.seats[ACTOR])
            return lambda ctx: cg.zone_base(ctx.n)[zi] + s(ctx)
        if ref.seat is not None or ref.yours:
            self.err(f"'{ref.zone}' is shared by the table; it belongs to no player", ref.span,
                     f"write just '{ref.zone}'")
        return lambda ctx: cg.zone_base(ctx.n)[zi]

    def cards(self, node, scope) -> Callable:
        """A closure giving a card selection: a list of (zone instance, kinds) pairs."""
        cg = self.cg
        if isinstance(node, m.ZoneRef):
            z = self.zone(node, scope)

            def whole(ctx):
                slot = z(ctx)
                return [(slot, ctx.zones[slot])]
            return whole
        if isinstance(node, m.Chosen):
            if "$chosen" not in scope:
                self.err("'chosen' is only known in an action that chooses cards", node.span,
                         "add 'choose 1 from your hand' (or similar) before it")
            return lambda ctx: [(ctx.chosen_zone, ctx.chosen)]
        if isinstance(node, m.Claimed):
            return claimed_selection
        if isinstance(node, m.EveryZone):
            if node.zone not in cg.zone_index:
                self.err(f"unknown zone '{node.zone}'", node.span, self.hint_for(node.zone, cg.zone_index))
                return lambda ctx: []
            zi = cg.zone_index[node.zone]
            if not cg.zones[zi].per_player:
                self.err(f"'{node.zone}' is shared, so there is only one", node.span, f"write just '{node.zone}'")
                return lambda ctx: []
            seats = self.seat_set(node.seats, scope) if node.seats else in_play

            def every(ctx):
                base = cg.zone_base(ctx.n)[zi]
                return [(base + s, ctx.zones[base + s]) for s in seats(ctx)]
            return every
        if isinstance(node, m.Portion):
            sel = self.cards(node.cards, scope)
            count = node.count
            if node.random:
                return lambda ctx: random_portion(ctx, sel(ctx), count)
            return lambda ctx: top_portion(sel(ctx), count)
        if isinstance(node, m.Where):
            inner = self.cards(node.cards, scope)
            pred = self.cpred(node.pred, scope)
            return lambda ctx: [(slot, tuple(k for k in ks if pred(ctx, k))) for slot, ks in inner(ctx)]
        self.err("expected cards here", getattr(node, "span", Span.unknown()))
        return lambda ctx: []

    # ------------------------------------------------------------ templates
    def secret_in(self, expr, revealed=frozenset()) -> str | None:
        """What an expression of a text (a label, a log) reads that some seat may not see:
        cards of a zone not seen by all (beyond how many there are; ``revealed``: zones whose
        every instance was just revealed to everyone), the chosen or claimed cards, the
        truth of the claim, a counter not seen by all; None if it reads nothing hidden."""
        cg = self.cg
        for node in m.nodes(expr):
            if isinstance(node, m.ClaimHolds):
                return "whether the claim holds"
            if isinstance(node, (m.Name, m.ValueOf)) and node.name in cg.counter_index:
                seen = cg.game.counters[cg.counter_index[node.name]].seen
                if seen != "all":
                    return f"the counter '{node.name}'"
            if isinstance(node, (m.Where, m.TotalOf, m.CardQuantifier)):
                for inner in m.nodes(node.cards):
                    if isinstance(inner, (m.Chosen, m.Claimed)):
                        return "the faces of the chosen cards" if isinstance(inner, m.Chosen) else \
                            "the faces of the claimed cards"
                    if isinstance(inner, (m.ZoneRef, m.EveryZone)) and inner.zone in cg.zone_index:
                        if cg.zones[cg.zone_index[inner.zone]].seen != "all" and inner.zone not in revealed:
                            return f"the cards of '{inner.zone}'"
        return None

    def template(self, tmpl: m.Template | None, scope, pending=()) -> Callable | None:
        """A closure rendering a quoted text; holes that read ``pending`` names (choices not
        made yet) or the chosen cards render as "…"."""
        if tmpl is None:
            return None
        pieces = []
        cg = self.cg
        for part in tmpl.parts:
            if isinstance(part, str):
                pieces.append(lambda ctx, s=part: s)
                continue
            if pending and any(isinstance(n, m.Chosen) or isinstance(n, m.Name) and n.name in pending
                               for n in m.nodes(part)):
                pieces.append(lambda ctx: "…")
                continue
            secret = self.secret_in(part, scope.get("$revealed", frozenset()))
            if secret is not None:
                self.err(f"this text is shown to every seat, but it reads {secret}, which not every seat may see",
                         getattr(part, "span", tmpl.span) if getattr(part, "span", None) else tmpl.span,
                         "a text may show what the whole table sees: a number of cards (count of ZONE), "
                         "public counters, seats, the claim's values")
                continue
            f, typ = self.expr(part, scope)
            if typ == SEAT:
                pieces.append(lambda ctx, f=f: seat_name(f(ctx)))
            elif typ == GROUP:
                pieces.append(lambda ctx, f=f: " and ".join(seat_name(s) for s in f(ctx)))
            elif typ is not None and typ.startswith("sym:"):
                names = cg.symbols[typ[4:]]
                pieces.append(lambda ctx, f=f, names=names: names[f(ctx)])
            elif typ == KIND:
                pieces.append(lambda ctx, f=f: cg.kinds[f(ctx)].label)
            elif typ is not None and typ.startswith("num:"):
                names = cg.value_names.get(typ[4:], {})
                pieces.append(lambda ctx, f=f, names=names: value_name(names, f(ctx)))
            elif typ == BOOL:
                pieces.append(lambda ctx, f=f: "yes" if f(ctx) else "no")
            else:
                pieces.append(lambda ctx, f=f: str(f(ctx)))

        def render(ctx):
            return "".join(p(ctx) for p in pieces)
        return render

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope) -> Callable:
        return self.run_all(self.statements(stmts, scope))

    def statements(self, stmts, scope) -> list:
        scope = dict(scope)          # a 'let' is known to the rest of its block only
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, m.Ask) and not s.then and i + 1 < len(stmts):
                # 'ask PHASE' followed by more statements: they are what happens after it
                out.append(self.stmt(attrs.evolve(s, then=tuple(stmts[i + 1:])), scope))
                break
            out.append(self.stmt(s, scope))
            note_revealed(scope, s)
        return out

    @staticmethod
    def run_all(fns) -> Callable:
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def stmt(self, node, scope) -> Callable:
        method = self._STMT.get(type(node))
        if method is not None:
            return getattr(self, method)(node, scope)
        self.err("not a statement", getattr(node, "span", Span.unknown()))
        return lambda ctx: None

    def _stmt_step(self, node, scope) -> Callable:
        """``require`` or ``choose`` after an action's effects (an error)."""
        self.err("'require' and 'choose' belong at the start of an action, before its effects",
                 node.span)
        return lambda ctx: None

    def _stmt_Move(self, node, scope) -> Callable:
        """``move CARDS to ZONE [at bottom]`` and ``lay CARDS on ZONE``."""
        cg = self.cg
        sel = self.cards(node.cards, scope)
        dest = self.zone(node.dest, scope)
        bottom = node.bottom
        lay = node.lay
        # what is known of the cards moves with them when everyone can tell which cards
        # moved: a whole zone, or the claimed cards (known as a group)
        whole = isinstance(node.cards, m.ZoneRef)
        group = isinstance(node.cards, m.Claimed)
        own = isinstance(node.cards, m.Chosen)

        def move(ctx):
            move_cards(ctx, cg, sel(ctx), dest(ctx), bottom, lay, whole, group, own)
        return move

    def _stmt_Draw(self, node, scope) -> Callable:
        """``draw N from ZONE to ZONE``."""
        cg = self.cg
        count, _ = self.expr(node.count, scope)
        src = self.zone(node.source, scope)
        dest = self.zone(node.dest, scope)
        decl = cg.zones[cg.zone_index.get(node.source.zone, 0)]
        refill = None
        if decl.refill_from is not None:
            if decl.refill_from not in cg.zone_index:
                self.err(f"unknown zone '{decl.refill_from}'", decl.span)
            else:
                rz = cg.zone_index[decl.refill_from]
                if cg.zones[rz].per_player:
                    self.err("a zone can only be refilled from a shared zone", decl.span)
                refill = rz

        def draw(ctx):
            draw_cards(ctx, cg, count(ctx), src(ctx), dest(ctx), refill)
        return draw

    def _stmt_Deal(self, node, scope) -> Callable:
        """``deal N from ZONE to each ZONE``."""
        cg = self.cg
        count, _ = self.expr(node.count, scope)
        src = self.zone(node.source, scope)
        if node.zone not in cg.zone_index or not cg.zones[cg.zone_index[node.zone]].per_player:
            self.err(f"'{node.zone}' is not a zone of each player", node.span,
                     self.hint_for(node.zone, [z.name for z in cg.zones if z.per_player]))
            return lambda ctx: None
        zi = cg.zone_index[node.zone]
        return lambda ctx: deal_cards(ctx, cg, src(ctx), zi, count(ctx))   # the count once: it may be a roll

    def _stmt_Shuffle(self, node, scope) -> Callable:
        """``shuffle ZONE`` and ``shuffle CARDS into ZONE``."""
        dest = self.zone(node.zone, scope)
        sel = self.cards(node.cards, scope) if node.cards is not None else None
        if sel is None:
            return lambda ctx: shuffle_zone(ctx, dest(ctx), None)
        return lambda ctx: shuffle_zone(ctx, dest(ctx), sel(ctx))

    def _stmt_Gather(self, node, scope) -> Callable:
        """``gather all cards into ZONE``."""
        cg = self.cg
        dest = self.zone(node.zone, scope)
        faces = cg.die_faces
        return lambda ctx: gather_cards(ctx, dest(ctx), faces)

    def _stmt_Reveal(self, node, scope) -> Callable:
        """``reveal CARDS`` and ``show CARDS to SEAT``."""
        sel = self.cards(node.cards, scope)
        to = self.seat(node.to, scope) if node.to is not None else None
        group = isinstance(node.cards, m.Claimed)

        def reveal(ctx):
            reveal_cards(ctx, sel(ctx), -1 if to is None else to(ctx), group)
        return reveal

    def _stmt_Assign(self, node, scope) -> Callable:
        """``set``, ``add`` and ``subtract``."""
        return self.assign(node, scope)

    def _stmt_MakeClaim(self, node, scope) -> Callable:
        """``claim NAME(args)``."""
        c = self._claim_named(node)
        if c is None:
            return lambda ctx: None
        args = self.args(c, node.args, node.span, scope)
        line = node.span.line

        def claim(ctx):
            make_claim(ctx, c.index, c.name, c.table, claim_label_of(c), tuple(a(ctx) for a in args), line)
        return claim

    def _stmt_LetGroup(self, node, scope) -> Callable:
        """``let GROUP be SEATS``."""
        cg = self.cg
        if node.name not in cg.group_index:
            self.err(f"unknown group '{node.name}'", node.span, self.hint_for(node.name, cg.group_index)
                     or f"declare it: group {node.name}")
            return lambda ctx: None
        gi = cg.group_index[node.name]
        seats = self.seat_set(node.seats, scope)
        return lambda ctx: set_group(ctx, gi, seats(ctx))

    def _stmt_ClearClaim(self, node, scope) -> Callable:
        """``clear claim``."""

        def clear(ctx):
            ctx.claim = None
            ctx.claimed = None
        return clear

    def _stmt_If(self, node, scope) -> Callable:
        """``if COND { … } else { … }``."""
        cond, typ = self.expr(node.cond, scope)
        self.want(typ, BOOL, node.cond)
        then = self.block(node.then, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None

        def if_(ctx):
            if cond(ctx):
                then(ctx)
            elif orelse is not None:
                orelse(ctx)
        return if_

    def _stmt_ForKinds(self, node, scope) -> Callable:
        """``for each NAME in deck { … }``."""
        cg = self.cg
        inner = dict(scope)
        inner[node.var] = KIND
        kinds = tuple(i for i, k in enumerate(cg.kinds) if k.die is None)
        return loop(node.var, lambda ctx: kinds, self.block(node.body, inner))

    def _stmt_ForEach(self, node, scope) -> Callable:
        """``for each NAME in SEATS { … }`` (or in a symbol set)."""
        cg = self.cg
        if node.seats.kind == "var" and node.seats.name in cg.symbols and node.seats.name not in scope:
            # for each value of a symbol set
            inner = dict(scope)
            inner[node.var] = _sym(node.seats.name)
            values = range(len(cg.symbols[node.seats.name]))
            return loop(node.var, lambda ctx: values, self.block(node.body, inner))
        seats = self.seat_set(node.seats, scope)
        inner = dict(scope)
        inner[node.var] = SEAT
        return loop(node.var, seats, self.block(node.body, inner))

    def _stmt_GoTo(self, node, scope) -> Callable:
        """``go to PHASE [from SEAT]``."""
        cg = self.cg
        if node.phase not in self.phase_names:
            self.err(f"unknown phase '{node.phase}'", node.span, self.hint_for(node.phase, self.phase_names))
            return lambda ctx: None
        target = node.phase
        start = self.seat(node.start, scope) if node.start is not None else None

        def goto(ctx):
            if start is not None:
                ctx.seats[CURRENT] = start(ctx)     # 'go to PHASE from SEAT'
            ctx.goto = cg.phases[target].index
            ctx.stack = ()          # a 'go to' leaves every pending 'ask … then'
            raise Jump()
        return goto

    def _stmt_EndTurn(self, node, scope) -> Callable:
        """``end turn``."""

        def end_turn(ctx):
            raise EndOfTurn()
        return end_turn

    def _stmt_Ask(self, node, scope) -> Callable:
        """``ask [SEAT to] PHASE [then { … }]``."""
        return self.ask(node, scope)

    def _stmt_Do(self, node, scope) -> Callable:
        """``do NAME(args)``."""
        if node.procedure not in self.procedure_names:
            self.err(f"unknown procedure '{node.procedure}'", node.span,
                     self.hint_for(node.procedure, self.procedure_names))
            return lambda ctx: None
        return self.call(node, scope)

    def _stmt_LetValue(self, node, scope) -> Callable:
        """``let NAME = EXPR``."""
        value, typ = self.expr(node.value, scope)
        scope[node.name] = typ
        var = node.name

        def let_value(ctx):
            ctx.locals[var] = value(ctx)
        return let_value

    def _stmt_RemoveSeat(self, node, scope) -> Callable:
        """``remove SEAT from GROUP``."""
        gi = self.group(node.group, node.span)
        seat = self.seat(node.seat, scope)
        return lambda ctx: remove_from_group(ctx, gi, seat(ctx))

    def _stmt_KnockOut(self, node, scope) -> Callable:
        """``knock out SEAT``."""
        cg = self.cg
        seat = self.seat(node.seat, scope)
        remain = cg.game.match.remain

        def knock_out(ctx):
            knock_out_seat(ctx, seat(ctx), remain)
        return knock_out

    def _stmt_RollDice(self, node, scope) -> Callable:
        """``roll CARDS``."""
        cg = self.cg
        sel = self.cards(node.cards, scope)
        faces = cg.die_faces

        def roll_dice(ctx):
            roll_dice_in(ctx, sel(ctx), faces)
        return roll_dice

    def _stmt_Repeat(self, node, scope) -> Callable:
        """``repeat N times { … }``."""
        count, typ = self.expr(node.count, scope)
        self.want(typ, NUM, node.count)
        body = self.block(node.body, scope)

        line = node.span.line

        def repeat(ctx):
            for _ in range(loop_size(count(ctx), "repeat", line)):
                body(ctx)
        return repeat

    def _stmt_ForRange(self, node, scope) -> Callable:
        """``for each NAME in LOW..HIGH { … }``."""
        low, lt = self.expr(node.low, scope)
        high, ht = self.expr(node.high, scope)
        self.want(lt, NUM, node.low)
        self.want(ht, NUM, node.high)
        inner = dict(scope)
        inner[node.var] = NUM
        line = node.span.line
        return loop(node.var, lambda ctx: loop_range(low(ctx), high(ctx), line), self.block(node.body, inner))

    def _stmt_EndDeal(self, node, scope) -> Callable:
        """``end deal``."""

        def end(ctx):
            raise EndOfDeal()
        return end

    def _stmt_Log(self, node, scope) -> Callable:
        """``log "TEXT"``."""
        text = self.template(node.text, scope)
        return lambda ctx: ctx.events.append(("log", None, {"text": text(ctx) if ctx.texts else None}))

    _STMT = {
        m.Require: "_stmt_step",
        m.ChooseCards: "_stmt_step",
        m.ChooseParam: "_stmt_step",
        m.Move: "_stmt_Move",
        m.Draw: "_stmt_Draw",
        m.Deal: "_stmt_Deal",
        m.Shuffle: "_stmt_Shuffle",
        m.Gather: "_stmt_Gather",
        m.Reveal: "_stmt_Reveal",
        m.Assign: "_stmt_Assign",
        m.MakeClaim: "_stmt_MakeClaim",
        m.LetGroup: "_stmt_LetGroup",
        m.ClearClaim: "_stmt_ClearClaim",
        m.If: "_stmt_If",
        m.ForKinds: "_stmt_ForKinds",
        m.ForEach: "_stmt_ForEach",
        m.GoTo: "_stmt_GoTo",
        m.EndTurn: "_stmt_EndTurn",
        m.Ask: "_stmt_Ask",
        m.Do: "_stmt_Do",
        m.LetValue: "_stmt_LetValue",
        m.RemoveSeat: "_stmt_RemoveSeat",
        m.KnockOut: "_stmt_KnockOut",
        m.RollDice: "_stmt_RollDice",
        m.Repeat: "_stmt_Repeat",
        m.ForRange: "_stmt_ForRange",
        m.EndDeal: "_stmt_EndDeal",
        m.Log: "_stmt_Log",
    }

    def ask(self, node: m.Ask, scope) -> Callable:
        """``ask [SEAT to] PHASE then { … }``: a frame (the ``then`` block, the values known
        here, ``current`` and ``actor``) is pushed on ``ctx.stack``; the engine pops it when
        the asked phase ends without saying where play goes."""
        cg = self.cg
        if node.phase not in self.phase_names:
            self.err(f"unknown phase '{node.phase}'", node.span, self.hint_for(node.phase, self.phase_names))
            return lambda ctx: None
        self.asked.add(node.phase)
        decl = next(p for p in cg.game.phases if p.name == node.phase)
        seat = None
        if node.seat is not None:
            if decl.kind != "turn":
                self.err(f"'{node.phase}' is a {'vote' if decl.kind == 'vote' else 'window'}: it asks its own seats",
                         node.span, f"write 'ask {node.phase} …'")
            seat = self.seat(node.seat, scope)
        inner = {k: v for k, v in scope.items() if not k.startswith("$")}
        # compiled once: the code generator asks again for the closure of the same 'ask', and
        # a match's pending frames name its continuation by index
        key = (node, tuple(sorted(inner.items())))
        cached = self._asks.get(key)
        if cached is not None:
            return cached
        index = len(cg.continuations)
        cg.continuations.append(None)
        self.ask_blocks[index] = (node.then, inner)
        cg.continuations[index] = self.block(node.then, inner) if node.then else (lambda ctx: None)
        names = tuple(sorted(inner))
        target = node.phase
        self.ask_frames[key] = (index, names, target)

        def ask(ctx):
            push_ask(ctx, index, names, cg.phases[target].index, None if seat is None else seat(ctx))
            raise Jump()
        self._asks[key] = ask
        return ask

    def group(self, name: str, span) -> int:
        if name not in self.cg.group_index:
            self.err(f"unknown group '{name}'", span, self.hint_for(name, self.cg.group_index)
                     or f"declare it: group {name}")
            return 0
        return self.cg.group_index[name]

    def call(self, node: m.Do, scope) -> Callable:
        """``do NAME(args)``: the procedure's values are bound while it runs."""
        cg = self.cg
        decl = self.procedure_decls[node.procedure]
        if len(node.args) != len(decl.params):
            self.err(f"procedure '{decl.name}' takes {len(decl.params)} value(s), {len(node.args)} given",
                     node.span)
            return lambda ctx: None
        name = node.procedure
        line = node.span.line

        def enter(ctx):
            ctx.calls += 1
            if ctx.calls > MAX_CALLS:
                too_deep(name, line)
        if not decl.params:
            def call_plain(ctx):
                enter(ctx)
                try:
                    cg.procedures[name](ctx)
                finally:
                    ctx.calls -= 1
            return call_plain
        fns = []
        for a, p in zip(node.args, decl.params):
            f, t = self.expr(a, scope)
            want = self.param_type(p)
            if want is not None and t is not None and base_type(t) != base_type(want):
                self.want(t, want, a)
            fns.append(f)
        names = tuple(p.name for p in decl.params)
        body = self.procedure_body(decl)

        def call(ctx):
            values = [f(ctx) for f in fns]
            saved = [ctx.locals.get(v) for v in names]
            for v, x in zip(names, values):
                ctx.locals[v] = x
            enter(ctx)
            try:
                body(ctx)
            finally:
                ctx.calls -= 1
                for v, x in zip(names, saved):
                    ctx.locals[v] = x
        return call

    def param_type(self, p: m.Param):
        """The kind of value a procedure or claim parameter takes: a number, a seat or a symbol."""
        if p.symbols is None:
            return NUM
        if p.symbols == "seat":
            return SEAT
        if p.symbols in self.cg.value_names:
            return "num:" + p.symbols
        if p.symbols not in self.cg.symbols:
            self.err(f"unknown symbol set '{p.symbols}'", p.span,
                     self.hint_for(p.symbols, list(self.cg.symbols)))
            return None
        return _sym(p.symbols)

    def procedure_body(self, decl: m.ProcedureDecl) -> Callable:
        """A procedure with values, compiled once (calls go through a forwarding closure,
        so that a procedure may call itself)."""
        cache = self.procedure_cache
        if decl.name not in cache:
            cache[decl.name] = None
            scope = {p.name: self.param_type(p) for p in decl.params}
            cache[decl.name] = self.block(decl.body, scope)
        return lambda ctx: cache[decl.name](ctx)

    def assign(self, node: m.Assign, scope) -> Callable:
        cg = self.cg
        t = node.target
        value, typ = self.expr(node.value, scope)
        op = node.op
        if t.name in cg.group_index and t.seat is None:
            if op != "+":
                self.err(f"'{t.name}' is a group of seats: add a seat to it or remove one", node.span)
                return lambda ctx: None
            self.want(typ, SEAT, node.value)
            gi = cg.group_index[t.name]
            return lambda ctx: add_to_group(ctx, gi, value(ctx))
        if t.name in cg.seat_index and t.seat is None:
            if op != "=":
                self.err(f"'{t.name}' is a seat: it can be set, not added to", node.span)
            self.want(typ, SEAT, node.value)
            si = cg.seat_index[t.name]

            def set_seat(ctx):
                ctx.seats[si] = value(ctx)
            return set_seat
        if t.name not in cg.counter_index:
            self.err(f"unknown counter or seat '{t.name}'", t.span,
                     self.hint_for(t.name, list(cg.counter_index) + list(cg.seat_index)))
            return lambda ctx: None
        self.want(typ, NUM, node.value)
        ci = cg.counter_index[t.name]
        per_player = cg.game.counters[ci].per_player
        if t.seat is not None and not per_player:
            self.err(f"'{t.name}' is one counter for the whole table", t.span, f"write just '{t.name}'")
        seat = self.seat(t.seat, scope) if t.seat is not None else (lambda ctx: ctx.seats[ACTOR])

        def assign(ctx):
            slot = cg.counter_base(ctx.n)[ci] + (seat(ctx) if per_player else 0)
            v = value(ctx)
            if op == "+":
                v = ctx.counters[slot] + v
            elif op == "-":
                v = ctx.counters[slot] - v
            ctx.counters[slot] = v
        return assign

    # ------------------------------------------------------------ actions
    def action(self, node: m.Action, index: int, scope, kind: str) -> CompiledAction:
        """One action: its opening steps (requires and choices, see :mod:`rulekit.ir.steps`)
        checked and resolved, then its effects."""
        steps: list = []
        chosen: dict = {}                 # name -> type of the values chosen so far
        scope = dict(scope)
        body_start = len(node.body)
        for i, s in enumerate(node.body):
            if isinstance(s, m.Require):
                f, typ = self.expr(s.cond, scope)
                self.want(typ, BOOL, s.cond)
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
                _, typ = self.choice_domain(s, scope)
                dependent = bool(names_read(s.domain) & set(chosen))
                steps.append(ir.ChooseValue(s, s.name, typ, dependent, (), s.prompt))
                chosen[s.name] = typ
                scope[s.name] = typ
            else:
                body_start = i
                break
        steps = self.guard_choices(steps)
        effects = self.statements(node.body[body_start:], scope)
        label = self.template(node.label, scope)
        preview = self.template(node.label, scope, set(chosen) | {"$chosen"})
        return CompiledAction(node.name, index, label, tuple(steps), self.run_all(effects), node.span, preview,
                              tuple(effects))

    def choice_domain(self, s: m.ChooseParam, scope) -> tuple:
        """``choose NAME in DOMAIN``: the values offered, as ``ctx -> values``, and their type."""
        d = s.domain
        if d.kind == "range":
            lo, lt = self.expr(d.low, scope)
            hi, ht = self.expr(d.high, scope)
            self.want(lt, NUM, d.low)
            self.want(ht, NUM, d.high)
            if isinstance(d.low, m.Num) and isinstance(d.high, m.Num) \
                    and d.high.value - d.low.value >= MAX_CHOICES:
                self.err(f"{s.name} would be chosen among {d.high.value - d.low.value + 1:,} values; at most "
                         f"{MAX_CHOICES:,} are allowed", d.span, "choose among fewer values")
            dom = (lambda ctx, lo=lo, hi=hi, line=d.span.line, name=s.name:
                   choice_range(lo(ctx), hi(ctx), name, line))
            typ = NUM
            if s.names is not None:
                typ = self.param_type(m.Param(s.name, s.names, span=s.span)) or NUM
        elif d.kind == "symbols":
            typ = _sym(d.name)
            if d.name not in self.cg.symbols:
                hint = self.hint_for(d.name, self.cg.symbols)
                if d.name in self.cg.zone_index:
                    hint = f"'{d.name}' is a zone: to choose cards write 'choose 1 from {d.name}'"
                self.err(f"unknown symbol set '{d.name}'", d.span, hint)
                dom = (lambda ctx: range(0))
                typ = None
            else:
                size = len(self.cg.symbols[d.name])
                dom = (lambda ctx, size=size: range(size))
        elif d.kind == "group":
            seats = self.seat_set(d.seats, scope)
            size = d.size
            if size < 1:
                self.err("choose at least 1 seat", d.span)
            dom = (lambda ctx, seats=seats, size=size: seat_groups(seats(ctx), size))
            typ = GROUP
        else:
            seats = self.seat_set(d.seats, scope)
            dom = seats
            typ = SEAT
        return dom, typ

    def force(self, p: m.PhaseDecl, actions: list, cp: CompiledPhase) -> None:
        """``action NAME … forced when COND``: while COND holds for the deciding seat, the
        other actions (and a window's decline) are not allowed; each gets a first step
        (:class:`rulekit.ir.Forced`) that says so."""
        forced = []
        for a in p.actions:
            if a.forced is not None:
                f, t = self.expr(a.forced, {})
                self.want(t, BOOL, a.forced)
                forced.append((a.name, f, f"you must {a.name}"))
        if not forced:
            return
        cp.forcing = tuple((f, message) for _, f, message in forced)
        for ca in actions:
            others = [message for name, _, message in forced if name != ca.name]
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

    @staticmethod
    def guard_choices(steps: list) -> list:
        """``steps`` with each chosen value given, as its guards, the conditions of the
        requires right after it that read that choice and no other: they filter the values a
        player is offered (a seat that may be targeted, a count that is allowed)."""
        names = {st.name for st in steps if type(st) is ir.ChooseValue}
        out = []
        current = None                    # the index in out of the choice the requires follow
        for st in steps:
            if type(st) is ir.Require and current is not None:
                cond = st.stmt.cond
                read = names_read(cond)
                choice = out[current]
                if choice.name in read and not (read & (names - {choice.name})) \
                        and not m.mentions(cond, (m.Chosen, m.Beats)):
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
            if p.kind == "vote":
                for a in p.actions:
                    for s in m.walk(a.body):
                        if isinstance(s, (m.GoTo, m.EndDeal, m.Ask, m.EndTurn)):
                            self.err("the choices of a vote take effect together, so a vote's action cannot "
                                     "leave the vote", s.span, "move 'go to' / 'end deal' into the vote's 'then' block")
            if p.after is not None and not p.rotation and not _ends(p.after, procs):
                word = "otherwise" if p.kind == "first" else "then"
                self.err(f"the '{word}' block of '{p.name}' can end without saying where play goes", p.span, hint)
        if not _ends(g.setup, procs):
            self.err("the setup can end without saying where play goes", g.setup_span,
                     "end the setup with 'go to PHASE'")

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
        for i, c in enumerate(g.claims):
            types = [self.param_type(p) or NUM for p in c.params]
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
        # claim fields are read from ctx.claim_args while the claim is evaluated
        fns = {}
        for pos, name in enumerate(cc.params):
            fns[name] = pos
        if m.mentions(c.truth, (m.ClaimHolds,)):
            self.err(f"claim '{c.name}' is true when… 'claim holds': a claim cannot be defined by itself",
                     c.truth.span, "say what must be true of the cards or the table")
        truth, typ = self.expr(c.truth, scope)
        self.want(typ, BOOL, c.truth)
        cc.truth = _with_claim_args(truth, fns)
        cc.label = _with_claim_args(self.template(c.label, scope), fns) if c.label else None
        if c.ordering:
            keys = []
            for e in c.ordering:
                f, t = self.expr(e, scope)
                if t == BOOL:
                    self.err("an ordering key is a value, not a condition", e.span)
                keys.append(f)
            cc.key = _with_claim_args(lambda ctx, keys=tuple(keys): tuple(f(ctx) for f in keys), fns)
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
            f, t = self.expr(c.higher, scope)
            self.want(t, BOOL, c.higher)
            cc.higher = _with_claim_args(f, fns)

    def procedures(self, g: m.Game) -> None:
        """``procedure NAME(params) { … }``: those without values compiled here, the others once each."""
        cg = self.cg
        self.procedure_decls = {proc.name: proc for proc in g.procedures}
        self.procedure_cache = {}
        for proc in g.procedures:
            cg.procedures[proc.name] = None
        compiled_procs = {proc.name: self.block(proc.body, {}) for proc in g.procedures if not proc.params}
        cg.procedures.update(compiled_procs)
        for proc in g.procedures:
            if proc.params:
                self.procedure_body(proc)

    def phase(self, p: m.PhaseDecl, cp: CompiledPhase) -> None:
        """A phase: its seats, its actions, its rotation and its closing block."""
        if p.seats is not None:
            cp.seats = self.seat_set(p.seats, {})
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
            cp.rotate = self.rotation(p)
        if p.after is not None:
            cp.after = self.block(p.after, {})
        elif p.kind == "vote":
            self.err(f"vote '{p.name}' needs a 'then' block", p.span)

    def match(self, g: m.Game) -> None:
        """The setup, ``between deals``, ``deals until``, the ranking, the result and the initial values."""
        cg = self.cg
        cg.setup = self.block(g.setup, {})
        cg.between = self.block(g.match.between, {})
        if g.match.until is not None:
            cg.until, typ = self.expr(g.match.until, {})
            self.want(typ, BOOL, g.match.until)
        keys = []
        for node in tuple(k.expr for k in g.match.winners) + ((g.match.returns,) if g.match.returns else ()):
            if m.mentions(node, m.Roll):
                self.err("a ranking or a result may not depend on chance", node.span,
                         "roll the die in the rules and keep the result in a counter")
            elif any(isinstance(x, m.Portion) and x.random for x in m.nodes(node)):
                self.err("a ranking or a result may not depend on chance", node.span,
                         "draw the random cards in the rules and keep what counts in a counter")
        for key in g.match.winners:
            f, typ = self.expr(key.expr, {})
            self.want(typ, NUM, key.expr)
            keys.append((key.highest, f))
        cg.rank_keys = tuple(keys)
        if g.match.returns is not None:
            cg.returns, typ = self.expr(g.match.returns, {})
            self.want(typ, NUM, g.match.returns)
        cg.counter_inits = tuple(self.expr(c.initial, {})[0] for c in g.counters)
        cg.seat_inits = tuple("random" if s.random else None if s.initial is None else self.seat(s.initial, {})
                              for s in g.seats)

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
            if p.rotation is not None or not blocks:
                continue
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


def entry_text(entry: tuple) -> str:
    parts = [str(a.value) if isinstance(a, m.Num) else a.name for a in entry]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def cg_symbols(cg: CompiledGame, typ: str) -> tuple:
    return cg.symbols[typ[4:]]


def _with_claim_args(fn, positions: dict):
    """Evaluate ``fn`` with the claim's fields bound as locals."""
    if fn is None:
        return None
    items = tuple(positions.items())

    def run(ctx):
        args = ctx.claim_args
        saved = dict(ctx.locals)
        for name, pos in items:
            ctx.locals[name] = args[pos]
        try:
            return fn(ctx)
        finally:
            ctx.locals = saved
    return run


def note_revealed(scope: dict, s) -> None:
    """After statement ``s`` of a block: 'reveal every ZONE' (to everyone) lets the texts of
    the rest of the block read those zones (``scope["$revealed"]``), until a statement that
    may move a card."""
    if isinstance(s, m.Reveal) and s.to is None and isinstance(s.cards, m.EveryZone):
        scope["$revealed"] = scope.get("$revealed", frozenset()) | {s.cards.zone}
    elif "$revealed" in scope and not _moves_no_card(s):
        del scope["$revealed"]


def _moves_no_card(s) -> bool:
    """Whether statement ``s`` certainly leaves every card where it is (a log, a reveal, a
    counter, a local, the claim, or an ``if`` of such statements)."""
    if isinstance(s, m.If):
        return all(_moves_no_card(t) for t in s.then + s.orelse)
    return isinstance(s, (m.Log, m.Reveal, m.Assign, m.LetValue, m.LetGroup, m.ClearClaim, m.MakeClaim))


_CMP = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}

_ARITH = {
    "+": lambda lf, rf: (lambda ctx: lf(ctx) + rf(ctx)),
    "-": lambda lf, rf: (lambda ctx: lf(ctx) - rf(ctx)),
    "*": lambda lf, rf: (lambda ctx: lf(ctx) * rf(ctx)),
    "/": None, "/^": None, "mod": None,
}

_COMPARE = {
    "=": lambda lf, rf: (lambda ctx: lf(ctx) == rf(ctx)),
    "!=": lambda lf, rf: (lambda ctx: lf(ctx) != rf(ctx)),
    "<": lambda lf, rf: (lambda ctx: lf(ctx) < rf(ctx)),
    "<=": lambda lf, rf: (lambda ctx: lf(ctx) <= rf(ctx)),
    ">": lambda lf, rf: (lambda ctx: lf(ctx) > rf(ctx)),
    ">=": lambda lf, rf: (lambda ctx: lf(ctx) >= rf(ctx)),
}


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
    cg.compiler = compiler          # the code generator asks it for the closures of untranslated nodes
    if cg.problems:
        raise CompileError(cg.problems)
    _CACHE.pop(key, None)
    _CACHE[key] = (game, cg)
    while len(_CACHE) > _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]          # the oldest entry
    return cg


__all__ = ["compile_game", "CompiledGame", "CompileError", "Ctx", "Jump", "EndOfDeal",
           "remove_cards", "multiset_contains", "DECLINE", "CURRENT", "ACTOR", "CLAIMANT"]
