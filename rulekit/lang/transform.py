"""Parse tree → model: one method per grammar alternative, each reading like a constructor.

Quoted texts with ``{expr}`` holes become :class:`model.Template`; their holes are parsed
here too, so that nothing after this module sees Lark.
"""

from __future__ import annotations

import re

import attrs

from lark import Token, Transformer, v_args
from lark.exceptions import VisitError

from . import model as m
from ..errors import Problem, RulesError, Span
from .syntax import keywords, parse, reserved_hint


def _span(meta) -> Span:
    if getattr(meta, "empty", True):
        return Span.unknown()
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def _tspan(tok: Token) -> Span:
    return Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


_HOLE = re.compile(r"\{([^{}]*)\}")


def _shift(node, line: int, offset: int):
    """``node`` with its spans (relative to a hole's text) moved to the hole's place in the file."""
    import attrs
    if isinstance(node, tuple):
        return tuple(_shift(n, line, offset) for n in node)
    if not hasattr(node, "__attrs_attrs__"):
        return node
    changes = {}
    for a in node.__attrs_attrs__:
        value = getattr(node, a.name)
        if isinstance(value, Span):
            if value.line:
                changes[a.name] = Span(line, value.column + offset, line, value.end_column + offset)
        elif isinstance(value, tuple) or hasattr(value, "__attrs_attrs__"):
            changes[a.name] = _shift(value, line, offset)
    return attrs.evolve(node, **changes)


class _TemplateError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


@v_args(inline=True, meta=True)
class ToModel(Transformer):
    """Builds :mod:`rulekit.lang.model` objects from the Lark tree of a ``.rules`` file."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self.problems: list[Problem] = []
        self.reserved = keywords()

    # -- terminals
    def INT(self, tok):
        return int(tok)

    def NAME(self, tok):
        # the contextual lexer lets a keyword through where only a name can come
        if str(tok) in self.reserved:
            self.problems.append(Problem(f"unexpected '{tok}'; expected a name", _tspan(tok),
                                         reserved_hint(str(tok))))
        return tok

    def STRING(self, tok):
        return tok

    def _template(self, tok) -> m.Template | None:
        if tok is None:
            return None
        text = str(tok)[1:-1]
        parts: list = []
        pos = 0
        span = _tspan(tok)
        for hole in _HOLE.finditer(text):
            if hole.start() > pos:
                parts.append(text[pos:hole.start()])
            try:
                tree = parse(hole.group(1), path=self.path, start="expr")
                # the hole's text starts after the quote, the text before it and the '{'
                offset = span.column + 1 + hole.start()
                parts.append(_shift(ToModel(self.path).transform(tree), span.line, offset))
            except RulesError as exc:
                problem = exc.problems[0]
                col = span.column + 1 + hole.start() + 1 + max(0, problem.span.column - 1)
                raise _TemplateError(Problem(
                    f"in the text's {{…}}: {problem.message}",
                    Span(span.line, col, span.line, col + 1),
                    "a {…} in a quoted text holds an expression, like {count of chosen}")) from None
            pos = hole.end()
        if pos < len(text):
            parts.append(text[pos:])
        return m.Template(tuple(parts), span=span)

    # -- top level
    def start(self, meta, *items):
        return tuple(items)

    def game_decl(self, meta, title):
        return m.GameDecl(str(title)[1:-1], span=_span(meta))

    def players_decl(self, meta, low, high):
        return m.PlayersDecl(low, low if high is None else high, span=_span(meta))

    def deck_decl(self, meta, *cards):
        return m.DeckDecl(tuple(cards), span=_span(meta))

    def card_decl(self, meta, name, label, *props):
        return m.CardDecl(str(name), str(label)[1:-1] if label else None, tuple(props), span=_span(meta))

    def prop_count(self, meta, n):
        return m.CardProp("count", value=n, span=_span(meta))

    def prop_symbols(self, meta, name):
        return m.CardProp("symbols", name=str(name), span=_span(meta))

    def prop_each(self, meta, n, zone):
        return m.CardProp("each", name=str(zone), value=n, span=_span(meta))

    def prop_range(self, meta, name, low, high):
        return m.CardProp("range", name=str(name), value=low, high=high, span=_span(meta))

    def prop_value(self, meta, name, n):
        return m.CardProp("value", name=str(name), value=n, span=_span(meta))

    def prop_alias(self, meta, name, other):
        return m.CardProp("alias", name=str(name), other=str(other), span=_span(meta))

    def prop_flag(self, meta, name):
        return m.CardProp("flag", name=str(name), span=_span(meta))

    def die_decl(self, meta, name, sides, *props):
        fields: dict = {}
        for key, value in props:
            if key == "wild":
                fields["wild"] = fields.get("wild", ()) + (value,)
            elif key == "names":
                fields["names"] = fields.get("names", ()) + value
            else:
                fields["count"], fields["zone"], fields["each"] = value
        return m.DieDecl(str(name), sides, span=_span(meta), **fields)

    def die_wild(self, meta, face):
        return ("wild", face)

    def die_each(self, meta, count, zone):
        return ("place", (count, str(zone), True))

    def die_in(self, meta, count, zone):
        return ("place", (count, str(zone), False))

    def die_names(self, meta, *pairs):
        return ("names", tuple(pairs))

    def die_name(self, meta, face, label):
        return (face, str(label)[1:-1])

    def symbols_decl(self, meta, name, *symbols):
        return m.SymbolsDecl(str(name), tuple(str(s) for s in symbols), span=_span(meta))

    def symbols_unordered(self, meta, name, *symbols):
        return m.SymbolsDecl(str(name), tuple(str(s) for s in symbols), span=_span(meta), ordered=False)

    def zone_decl(self, meta, name, *props):
        per_player = False
        seen = "count"
        holds = False
        refill = None
        for p in props:
            if p == "per_player":
                per_player = True
            elif p == "shared":
                per_player = False
            elif p in ("owner", "others", "all", "nobody", "count"):
                seen = p
            elif p == "holds":
                holds = True
            elif isinstance(p, tuple):
                refill = p[1]
        return m.ZoneDecl(str(name), per_player, seen, holds, refill, span=_span(meta))

    def zone_per_player(self, meta):
        return "per_player"

    def zone_shared(self, meta):
        return "shared"

    def seen_by_owner(self, meta):
        return "owner"

    def seen_by_all(self, meta):
        return "all"

    def seen_by_others(self, meta):
        return "others"

    def seen_by_nobody(self, meta):
        return "nobody"

    def zone_count_only(self, meta):
        return "count"

    def zone_holds_deck(self, meta):
        return "holds"

    def zone_refill(self, meta, name):
        return ("refill", str(name))

    def per_player(self, meta):
        return True

    def counter_decl(self, meta, name, names, per_player, initial, seen):
        return m.CounterDecl(str(name), bool(per_player), initial, seen or "all", str(names) if names else None,
                             span=_span(meta))

    def seat_decl(self, meta, name, initial):
        if initial == "random":
            return m.SeatDecl(str(name), None, True, span=_span(meta))
        return m.SeatDecl(str(name), initial, span=_span(meta))

    def seat_random(self, meta):
        return "random"

    def group_decl(self, meta, name):
        return m.GroupDecl(str(name), span=_span(meta))

    def let_group(self, meta, name, seats):
        return m.LetGroup(str(name), seats, span=_span(meta))

    def member(self, meta, name, seats):
        return m.Member(str(name), seats, span=_span(meta))

    def dom_seat_group(self, meta, size, seats):
        return m.Domain("group", seats=seats, size=size, span=_span(meta))

    def seat_expr(self, meta, expr):
        return expr

    def claim_decl(self, meta, name, params, label, ordering, higher, truth):
        keys, table = ordering if ordering else ((), ())
        return m.ClaimDecl(str(name), params or (), self._template(label), keys, truth, table, higher,
                           span=_span(meta))

    def ordering_table(self, meta, *values):
        return ((), tuple(values))

    def order_value(self, meta, *atoms):
        return tuple(atoms)

    def negative(self, meta, n):
        return m.Num(-n, span=_span(meta))

    def raise_rule(self, meta, expr):
        return expr

    def params(self, meta, *params):
        return tuple(params)

    def param(self, meta, name, symbols):
        return m.Param(str(name), str(symbols) if symbols else None, span=_span(meta))

    def param_seat(self, meta, name):
        return m.Param(str(name), "seat", span=_span(meta))

    def param_seats(self, meta, name):
        return m.Param(str(name), "seats", span=_span(meta))

    def ordering(self, meta, *keys):
        return (tuple(keys), ())

    def setup_decl(self, meta, body):
        return m.SetupDecl(body, span=_span(meta))


    def procedure_decl(self, meta, name, params, body):
        return m.ProcedureDecl(str(name), body, params or (), span=_span(meta))

    def turn_phase(self, meta, name, rotation, *rest):
        return attrs.evolve(self._window("turn", meta, name, None, rest), rotation=rotation)

    def turn_single(self, meta, name, rotation, action):
        return self.turn_phase(meta, name, rotation, action)

    def rotation(self, meta, among):
        return m.Rotation(among, span=_span(meta))

    def _window(self, kind, meta, name, seats, rest):
        actions = tuple(a for a in rest if isinstance(a, m.Action))
        after = rest[-1] if rest and not isinstance(rest[-1], m.Action) else None
        return m.PhaseDecl(kind, str(name), seats, actions, after, span=_span(meta))

    def first_window(self, meta, name, seats, *rest):
        return self._window("first", meta, name, seats, rest)

    def each_window(self, meta, name, seats, *rest):
        return self._window("each", meta, name, seats, rest)

    def vote_phase(self, meta, name, seats, *rest):
        return self._window("vote", meta, name, seats, rest)

    def anonymous_vote(self, meta, name, seats, *rest):
        return attrs.evolve(self._window("vote", meta, name, seats, rest), anonymous=True)

    def after(self, meta, body):
        return body

    def action(self, meta, name, label, forced, body):
        return m.Action(str(name), self._template(label) if label is not None else None, body, forced,
                        span=_span(meta))

    def forced(self, meta, cond):
        return cond

    def match_decl(self, meta, *props):
        fields: dict = {"until": None, "between": (), "winners": ()}
        for kind, value in props:
            fields[kind] = value
        return m.MatchDecl(**fields, span=_span(meta))

    def match_remain(self, meta, count):
        return ("remain", count)

    def match_returns(self, meta, expr):
        return ("returns", expr)

    def match_until(self, meta, expr):
        return ("until", expr)

    def match_between(self, meta, body):
        return ("between", body)

    def match_winners(self, meta, *keys):
        return ("winners", tuple(keys))

    def highest(self, meta, expr, label):
        return m.RankKey(True, expr, str(label)[1:-1] if label else None, span=_span(meta))

    def lowest(self, meta, expr, label):
        return m.RankKey(False, expr, str(label)[1:-1] if label else None, span=_span(meta))

    def variant_decl(self, meta, name, label, extends, *items):
        return m.VariantDecl(str(name), str(label)[1:-1] if label else None, extends or (), tuple(items),
                             span=_span(meta))

    def remove_action(self, meta, name, phase):
        return m.RemoveAction(str(name), str(phase), span=_span(meta))

    def remove_card(self, meta, name):
        return m.RemoveCard(str(name), span=_span(meta))

    def extends(self, meta, *names):
        return tuple(str(n) for n in names)

    # -- statements
    def block(self, meta, *stmts):
        flat = []
        for s in stmts:
            flat.extend(s if isinstance(s, tuple) else (s,))    # a statement written as two
        return tuple(flat)

    def require(self, meta, cond, message):
        return m.Require(cond, str(message)[1:-1] if message else None, span=_span(meta))

    def choose_cards(self, meta, count, source):
        low, high = count
        return m.ChooseCards(low, high, source, span=_span(meta))

    def choose_blind(self, meta, count, source):
        return m.ChooseCards(count, count, source, blind=True, span=_span(meta))

    def claim_holds_on(self, meta, cards):
        return m.ClaimHolds(cards, span=_span(meta))

    def exactly(self, meta, n):
        return (n, n)

    def at_least(self, meta, n):
        return (n, None)

    def between(self, meta, low, high):
        return (low, high)

    def choose_param(self, meta, name, names, domain, prompt):
        return m.ChooseParam(str(name), domain, str(names) if names else None,
                             str(prompt)[1:-1] if prompt else None, span=_span(meta))

    def table_decl(self, meta, name, *rows):
        return m.TableDecl(str(name), tuple(rows), span=_span(meta))

    def table_row(self, meta, key, *values):
        return (key, tuple(values))

    def signed_int(self, meta, value):
        return int(value)

    def negative_int(self, meta, value):
        return -int(value)

    def table_value(self, meta, name, args):
        return m.TableValue(str(name), tuple(args), span=_span(meta))

    def combination_decl(self, meta, name, params, label, *parts):
        groups: list = []
        when = None
        for part in parts:
            if when is not None:
                self.problems.append(Problem("'when' comes last, after the cards of the combination", when.span,
                                             "move 'when …' to the end"))
                when = None
            if isinstance(part, m.ComboCards | m.ComboRun):
                groups.append(part)
            elif part[0] == "when":
                when = part[1]
            elif groups and isinstance(groups[-1], m.ComboRun):
                groups[-1] = attrs.evolve(groups[-1], also=groups[-1].also + (part[1],))
            else:
                self.problems.append(Problem(f"'{part[1][0]} also {part[1][1]}' belongs to a run", part[2],
                                             "write it right after 'run of N by ATTR to TOP'"))
        return m.CombinationDecl(str(name), params or (), self._template(label), tuple(groups), when,
                                 span=_span(meta))

    def combo_cards(self, meta, count, pred):
        return m.ComboCards(count, pred, span=_span(meta))

    def combo_run(self, meta, length, attr, top, pred):
        return m.ComboRun(length, str(attr), top, pred, span=_span(meta))

    def combo_also(self, meta, value, other):
        return ("also", (value, other), _span(meta))

    def combo_when(self, meta, cond):
        return ("when", cond)

    def combinations_decl(self, meta, name, *names):
        return m.CombinationsDecl(str(name), tuple(str(n) for n in names), tuple(_tspan(n) for n in names),
                                  span=_span(meta))

    def has_combination(self, meta, cards, value):
        return m.HasCombination(cards, value, span=_span(meta))

    def best_combination(self, meta, count, cards, order):
        return m.BestCombination(count, cards, str(order), span=_span(meta))

    def names_decl(self, meta, name, *pairs):
        return m.NamesDecl(str(name), tuple(pairs), span=_span(meta))

    def value_name(self, meta, value, label):
        return (value, str(label)[1:-1])

    def negative_value_name(self, meta, value, label):
        return (-value, str(label)[1:-1])

    def dom_range(self, meta, low, high):
        return m.Domain("range", low=low, high=high, span=_span(meta))

    def dom_symbols(self, meta, name):
        return m.Domain("symbols", name=str(name), span=_span(meta))

    def dom_seats(self, meta, seats):
        return m.Domain("seats", seats=seats, span=_span(meta))

    def dom_seats_or_nobody(self, meta, seats):
        return m.Domain("seats", seats=seats, or_nobody=True, span=_span(meta))

    def move(self, meta, cards, dest, bottom):
        return m.Move(cards, dest, bottom=bottom is not None, span=_span(meta))

    def swap(self, meta, first, second):
        return m.Swap(first, second, span=_span(meta))

    def move_choice(self, meta, count, source, dest, bottom):
        # 'move 1 of your choice from X to Z' is 'choose 1 from X' then 'move chosen to Z'
        span = _span(meta)
        return (self.choose_cards(meta, count, source), m.Move(m.Chosen(span=span), dest, bottom=bottom is not None,
                                                              span=span))

    def shuffle_choice(self, meta, count, source, zone):
        span = _span(meta)
        return (self.choose_cards(meta, count, source), m.Shuffle(zone, m.Chosen(span=span), span=span))

    def at_bottom(self, meta):
        return True

    def lay(self, meta, cards, dest):
        return m.Move(cards, dest, lay=True, span=_span(meta))

    def draw(self, meta, count, source, dest):
        return m.Draw(count, source, dest, span=_span(meta))

    def deal(self, meta, count, source, zone):
        return m.Deal(count, source, str(zone), span=_span(meta))

    def shuffle(self, meta, zone):
        return m.Shuffle(zone, span=_span(meta))

    def shuffle_into(self, meta, cards, zone):
        return m.Shuffle(zone, cards, span=_span(meta))

    def gather(self, meta, zone):
        return m.Gather(zone, span=_span(meta))

    def reveal(self, meta, cards):
        return m.Reveal(cards, span=_span(meta))

    def show(self, meta, cards, seat):
        return m.Reveal(cards, seat, span=_span(meta))

    def target(self, meta, name):
        return m.Target(str(name), span=_span(meta))

    def target_of(self, meta, name, seat):
        return m.Target(str(name), seat, span=_span(meta))

    def set(self, meta, target, value):
        return m.Assign("=", target, value, span=_span(meta))

    def add(self, meta, value, target):
        return m.Assign("+", target, value, span=_span(meta))

    def subtract(self, meta, value, target):
        return m.Assign("-", target, value, span=_span(meta))

    def make_claim(self, meta, name, args):
        return m.MakeClaim(str(name), args or (), span=_span(meta))

    def clear_claim(self, meta):
        return m.ClearClaim(span=_span(meta))

    def if_(self, meta, cond, then, orelse):
        return m.If(cond, then, orelse or (), span=_span(meta))

    def else_part(self, meta, body):
        return body if isinstance(body, tuple) else (body,)

    def for_each(self, meta, var, seats, body):
        return m.ForEach(str(var), seats, body, span=_span(meta))

    def ask(self, meta, seat, phase, then):
        return m.Ask(seat, str(phase), then or (), span=_span(meta))

    def goto(self, meta, name, start):
        return m.GoTo(str(name), start, span=_span(meta))

    def do(self, meta, name, args):
        return m.Do(str(name), args or (), span=_span(meta))

    def let_value(self, meta, name, value):
        return m.LetValue(str(name), value, span=_span(meta))

    def remove_seat(self, meta, seat, group):
        return m.RemoveSeat(seat, str(group), span=_span(meta))

    def knock_out(self, meta, seat):
        return m.KnockOut(seat, span=_span(meta))

    def roll_dice(self, meta, cards):
        return m.RollDice(cards, span=_span(meta))

    def repeat(self, meta, count, body):
        return m.Repeat(count, body, span=_span(meta))

    def for_kinds(self, meta, var, body):
        return m.ForKinds(str(var), body, span=_span(meta))

    def for_range(self, meta, var, low, high, body):
        return m.ForRange(str(var), low, high, body, span=_span(meta))

    def end_deal(self, meta):
        return m.EndDeal(span=_span(meta))

    def end_turn(self, meta):
        return m.EndTurn(span=_span(meta))

    def log(self, meta, text):
        return m.Log(self._template(text), span=_span(meta))

    def args(self, meta, *exprs):
        return tuple(exprs)

    # -- cards, zones, seats
    def zone_shared_ref(self, meta, name):
        return m.ZoneRef(str(name), span=_span(meta))

    def zone_of(self, meta, name, seat):
        return m.ZoneRef(str(name), seat, span=_span(meta))

    def zone_yours(self, meta, name):
        return m.ZoneRef(str(name), yours=True, span=_span(meta))

    def chosen(self, meta):
        return m.Chosen(span=_span(meta))

    def claimed(self, meta):
        return m.Claimed(span=_span(meta))

    def every_zone(self, meta, name):
        return m.EveryZone(str(name), span=_span(meta))

    def zones_of_seats(self, meta, name, seats):
        return m.EveryZone(str(name), seats, span=_span(meta))

    def count_int(self, meta, n):
        return m.Num(int(n), span=_span(meta))

    def top_of(self, meta, n, cards):
        return m.Portion(False, n, cards, span=_span(meta))

    def random_of(self, meta, n, cards):
        return m.Portion(True, n, cards, span=_span(meta))

    def cards_union(self, meta, *parts):
        return m.CardUnion(tuple(parts), span=_span(meta))

    def cards_where(self, meta, cards, pred):
        return m.Where(cards, pred, span=_span(meta))

    def seat_name(self, meta, name):
        return m.SeatName(str(name), span=_span(meta))

    def left_of(self, meta, seat):
        return m.Neighbour(1, seat, span=_span(meta))

    def right_of(self, meta, seat):
        return m.Neighbour(-1, seat, span=_span(meta))

    def everyone(self, meta):
        return m.SeatSet("everyone", span=_span(meta))

    def nobody(self, meta):
        return m.SeatSet("nobody", span=_span(meta))

    def others_of_actor(self, meta):
        return m.SeatSet("others", span=_span(meta))

    def seats_except(self, meta, base, other):
        return m.SeatSet("except", base=base, other=other, span=_span(meta))

    def seats_where(self, meta, name, base, cond):
        return m.SeatSet("where", name=str(name), base=base, cond=cond, span=_span(meta))

    def seats_after(self, meta, base, seat):
        return m.SeatSet("after", seat, base=base, span=_span(meta))

    def seats_from(self, meta, base, seat):
        return m.SeatSet("from", seat, base=base, span=_span(meta))

    def first_of(self, meta, seats):
        return m.FirstOf(seats, span=_span(meta))

    def voters(self, meta, name):
        return m.SeatSet("voters", name=str(name), span=_span(meta))

    def seat_set_var(self, meta, name):
        return m.SeatSet("var", name=str(name), span=_span(meta))

    # -- expressions
    def or_(self, meta, left, right):
        return m.BinOp("or", left, right, span=_span(meta))

    def and_(self, meta, left, right):
        return m.BinOp("and", left, right, span=_span(meta))

    def not_(self, meta, operand):
        return m.Not(operand, span=_span(meta))

    def compare(self, meta, left, op, right):
        return m.BinOp(op, left, right, span=_span(meta))

    def cmp_op(self, meta, tok):
        return str(tok)

    def add_(self, meta, left, right):
        return m.BinOp("+", left, right, span=_span(meta))

    def sub_(self, meta, left, right):
        return m.BinOp("-", left, right, span=_span(meta))

    def div_down(self, meta, left, right):
        return m.BinOp("/", left, right, span=_span(meta))

    def div_up(self, meta, left, right):
        return m.BinOp("/^", left, right, span=_span(meta))

    def mod(self, meta, left, right):
        return m.BinOp("mod", left, right, span=_span(meta))

    def neg(self, meta, operand):
        if isinstance(operand, m.Num):
            return m.Num(-operand.value, span=_span(meta))
        return m.BinOp("-", m.Num(0, span=_span(meta)), operand, span=_span(meta))

    def cond_value(self, meta, cond, then, orelse):
        return m.CondValue(cond, then, orelse, span=_span(meta))

    def is_out(self, meta, name):
        return m.IsOut(str(name), span=_span(meta))

    def is_nobody(self, meta, name):
        return m.IsNobody(str(name), span=_span(meta))

    def count_seats(self, meta, seats):
        return m.CountSeats(seats, span=_span(meta))

    def some_seat(self, meta, name, seats, cond):
        return m.SeatQuantifier(False, str(name), seats, cond, span=_span(meta))

    def every_seat(self, meta, name, seats, cond):
        return m.SeatQuantifier(True, str(name), seats, cond, span=_span(meta))

    def highest_over(self, meta, value, name, seats):
        return m.OverSeats("highest", value, str(name), seats, span=_span(meta))

    def lowest_over(self, meta, value, name, seats):
        return m.OverSeats("lowest", value, str(name), seats, span=_span(meta))

    def total_over(self, meta, value, name, seats):
        return m.OverSeats("total", value, str(name), seats, span=_span(meta))

    def seats_highest(self, meta, name, base, value):
        return m.SeatSet("highest", name=str(name), base=base, cond=value, span=_span(meta))

    def seats_lowest(self, meta, name, base, value):
        return m.SeatSet("lowest", name=str(name), base=base, cond=value, span=_span(meta))

    def min_of(self, meta, *args):
        return m.MinMax(False, tuple(args), span=_span(meta))

    def max_of(self, meta, *args):
        return m.MinMax(True, tuple(args), span=_span(meta))

    def mul(self, meta, left, right):
        return m.BinOp("*", left, right, span=_span(meta))

    def number(self, meta, n):
        return m.Num(n, span=_span(meta))

    def true_(self, meta):
        return m.Bool(True, span=_span(meta))

    def false_(self, meta):
        return m.Bool(False, span=_span(meta))

    def name(self, meta, name):
        return m.Name(str(name), span=_span(meta))

    def value_of(self, meta, name, seat):
        return m.ValueOf(str(name), seat, span=_span(meta))

    def count_of(self, meta, cards):
        return m.CountOf(cards, span=_span(meta))

    def total_of(self, meta, name, cards):
        return m.TotalOf(str(name), cards, span=_span(meta))

    def highest_attr(self, meta, name, cards):
        return m.CardExtreme(True, str(name), cards, span=_span(meta))

    def lowest_attr(self, meta, name, cards):
        return m.CardExtreme(False, str(name), cards, span=_span(meta))

    def every_card(self, meta, cards, pred):
        return m.CardQuantifier(True, cards, pred, span=_span(meta))

    def some_card(self, meta, cards, pred):
        return m.CardQuantifier(False, cards, pred, span=_span(meta))

    def roll(self, meta, name):
        return m.Roll(str(name), span=_span(meta))

    def claim_stands(self, meta):
        return m.Not(m.NoClaim(span=_span(meta)), span=_span(meta))

    def claim_holds(self, meta):
        return m.ClaimHolds(span=_span(meta))

    def claim_is(self, meta, name):
        return m.ClaimIs(str(name), span=_span(meta))

    def no_claim(self, meta):
        return m.NoClaim(span=_span(meta))

    def claimed_field(self, meta, name):
        return m.ClaimedField(str(name), span=_span(meta))

    def beats(self, meta, name, args):
        return m.Beats(str(name), args, span=_span(meta))

    def player_count(self, meta):
        return m.PlayerCount(span=_span(meta))

    def highest_of(self, meta, name):
        return m.Extreme(True, str(name), span=_span(meta))

    def lowest_of(self, meta, name):
        return m.Extreme(False, str(name), span=_span(meta))

    def cp_name(self, meta, name):
        return m.CpName(str(name), span=_span(meta))

    def cp_compare(self, meta, name, op, value):
        return m.CpCompare(str(name), op, value, span=_span(meta))

    def cp_or(self, meta, left, right):
        return m.CpLogic("or", left, right, span=_span(meta))

    def cp_and(self, meta, left, right):
        return m.CpLogic("and", left, right, span=_span(meta))

    def cp_not(self, meta, operand):
        return m.CpLogic("not", operand, span=_span(meta))


def to_model(source: str, path: str = "<rules>") -> m.RulesFile:
    """Parse and transform a ``.rules`` text.

    Returns:
        the :class:`model.RulesFile` with every declaration in source order.

    A byte-order mark (U+FEFF) that begins the text is left out: some editors write one.

    Raises:
        RulesError: a syntax error, located.
    """
    source = source.removeprefix("\ufeff")
    tree = parse(source, path)
    builder = ToModel(path)
    try:
        items = builder.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, _TemplateError):
            raise RulesError(path, source, builder.problems + [exc.orig_exc.problem]) from None
        raise exc.orig_exc from None
    if builder.problems:
        raise RulesError(path, source, builder.problems)
    return m.RulesFile(items, path, source)
