"""Fixed action ids for any game: the encoding the OpenSpiel, PettingZoo and Gymnasium
adapters share (see docs/rl.md, "Action ids").

A rulekit :class:`~rulekit.engine.Action` names an action, the cards it chooses (a multiset
of kinds) and the values it chooses. Game-AI libraries want each decision to be one integer
among a fixed number (``num_distinct_actions``) known before play. :class:`ActionSpace`
gives every game and player count such ids:

* one **head** per action (of a phase; actions of the same name and the same choices in
  several phases share theirs) and one for a window's ``decline``. When the values the
  action chooses (and its card, when it chooses exactly one) have few combinations (at
  most :data:`FLAT_LIMIT`), each combination is a head of its own: an action choosing ``a``
  then ``b`` has one id per (a, b), numbered ``a`` first, as the file chooses them. Otherwise the head
  names the action alone and each value is a decision of its own that follows;
* a choice of **several cards** is made one card at a time, smallest kind first: one id per
  card kind ("add a card of this kind") and one id "done", shared by every action. A seat
  choosing 3 of its cards makes up to 4 decisions; the card ids offered are those that
  still lead to a legal choice.

The values a choice may take are fixed before play: seats (``0..n-1``), a group's seats
(every set of that size, in order), symbols, the values of an order of combinations (by
their index, lowest first), places counted from the top (``1..`` every card of the match)
and number ranges, whose bounds are found from the file (literals,
numbers of cards and seats, their sums and products, and earlier choices; a bound that
cannot be found is taken as the engine's own limit on one choice, ``MAX_CHOICES`` values).
A game whose encoding would need more than :data:`MAX_ACTIONS` ids, or one choice more
than :data:`MAX_VALUES` values, raises :class:`~rulekit.errors.RulesError` located at the
choice.

This module knows no game: everything it reads comes from the checked model and the
compiled game of :class:`~rulekit.engine.Engine`.
"""

from __future__ import annotations

import bisect
import itertools
from math import comb, prod

from .lang import model as m
from .engine.compile import DECLINE
from .engine.runtime import MAX_CHOICES
from .engine.narrate import seat_name
from .errors import Problem, RulesError, Span

#: the most combinations of an action's values (and its single card) numbered as heads of
#: their own; beyond it each value is a decision of its own
FLAT_LIMIT = 4096
#: the most ids a game may have
MAX_ACTIONS = 1_000_000
#: the most values one choice may take
MAX_VALUES = 100_000


# ---------------------------------------------------------------------------- value bounds
class _Facts:
    """What bounds a value in a match of ``n`` seats: the pieces (cards and dice) in play
    and the sum of each attribute's negative and positive values over them; the values of
    each order of combinations (``orders``)."""

    def __init__(self, game: m.Game, n: int):
        self.n = n
        dice = sum(d.count * (n if d.each else 1) for d in game.dice)
        self.pieces = game.pieces(n) + dice
        self.game = game
        self.orders: dict = {}            # each order of combinations by name (runtime.CombinationOrder)

    def total(self, attr: str) -> tuple[int, int]:
        low = high = 0
        for k in self.game.kinds:
            copies = k.count * (self.n if k.start else 1)
            v = k.attr(attr) * copies
            if v < 0:
                low += v
            else:
                high += v
        return low, high


def value_bounds(expr, facts: _Facts, known: dict) -> tuple[int, int] | None:
    """The lowest and highest value ``expr`` may take in any match, or None when this
    analysis cannot bound it (a counter, a seat, a claim's value). ``known``: the bounds of
    names already fixed (earlier choices of the same action)."""
    if isinstance(expr, m.Num):
        return expr.value, expr.value
    if isinstance(expr, m.Name):
        return known.get(expr.name)
    if isinstance(expr, m.CountOf):
        return 0, facts.pieces
    if isinstance(expr, m.TotalOf):
        return facts.total(expr.attr)
    if isinstance(expr, m.TableValue):
        values = [v for t in facts.game.tables if t.name == expr.name for _, row in t.rows for v in row]
        return (min(values), max(values)) if values else None
    if isinstance(expr, m.CardExtreme):
        values = [k.attr(expr.attr) for k in facts.game.kinds] + [0]
        return min(values), max(values)
    if isinstance(expr, m.PlayerCount):
        return facts.n, facts.n
    if isinstance(expr, m.CountSeats):
        return 0, facts.n
    if isinstance(expr, m.MinMax):
        parts = [value_bounds(a, facts, known) for a in expr.args]
        if any(p is None for p in parts):
            return None
        pick = max if expr.highest else min
        return pick(p[0] for p in parts), pick(p[1] for p in parts)
    if isinstance(expr, m.CondValue):
        a, b = value_bounds(expr.then, facts, known), value_bounds(expr.orelse, facts, known)
        if a is None or b is None:
            return None
        return min(a[0], b[0]), max(a[1], b[1])
    if isinstance(expr, m.BinOp) and expr.op in ("+", "-", "*", "/", "/^", "mod"):
        a, b = value_bounds(expr.left, facts, known), value_bounds(expr.right, facts, known)
        if a is None or b is None:
            return None
        if expr.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if expr.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if expr.op == "*":
            corners = [x * y for x in a for y in b]
            return min(corners), max(corners)
        if b[0] <= 0 <= b[1]:
            return None                    # a divisor that may be 0 (or change sign)
        if expr.op == "mod":
            if b[0] < 0:
                return None
            return 0, b[1] - 1
        corners = []
        for x in a:
            for y in b:
                corners.append(x // y if expr.op == "/" else -((-x) // y))
        return min(corners), max(corners)
    return None


# ---------------------------------------------------------------------------- action space
class ParamSpace:
    """The values one choice may take, fixed for a game and player count: ``values`` in
    order (a value's index is its code), ``kind`` (range, seat, group, symbol or place)."""

    __slots__ = ("name", "kind", "values", "index", "texts")

    def __init__(self, name: str, kind: str, values: tuple, texts: tuple | None = None):
        self.name = name
        self.kind = kind
        self.values = values
        self.index = {v: i for i, v in enumerate(values)}
        self.texts = texts

    def text(self, value) -> str:
        """How people name ``value``."""
        if self.texts is not None:
            return self.texts[self.index[value]]
        if self.kind == "seat":
            return seat_name(value)
        if self.kind == "group":
            return "+".join(seat_name(s) for s in value)
        if self.kind == "place":
            return " ".join(f"#{p}" for p in ((value,) if isinstance(value, int) else value))
        return str(value)


class Head:
    """The ids of one action: ``base`` … ``base + size - 1``.

    ``cards`` is "none", "one" (exactly one card, chosen within the head) or "many" (cards
    chosen one at a time after the head); ``params`` the spaces of its values; ``flat``:
    the values (and the single card) are chosen within the head, a combination an id, else
    each value is a decision of its own after the cards (``param_bases``: the first id of
    each)."""

    __slots__ = ("name", "base", "size", "cards", "low", "high", "params", "flat", "radices", "param_bases",
                 "kinds", "_one", "_digits")

    def __init__(self, name, cards, low, high, params, kinds: int):
        self.name = name
        self.cards = cards
        self.low = low
        self.high = high
        self.params = params
        self.kinds = kinds
        self.radices = ((kinds,) if cards == "one" else ()) + tuple(len(p.values) for p in params)
        self.flat = prod(self.radices) <= FLAT_LIMIT
        self.size = prod(self.radices) if self.flat else (kinds if cards == "one" else 1)
        self.base = 0
        self.param_bases = ()
        self._one = cards == "one"
        # each value's (its space's index of values, radix) in the order the code reads them
        self._digits = tuple((p.index, len(p.values)) for p in params)

    def signature(self) -> tuple:
        return (self.name, self.cards, self.low, self.high, tuple((p.kind, p.values) for p in self.params))

    def head_id(self, card, params: tuple) -> int:
        """The head id of a choice (``card``: the single card's kind, or None)."""
        code = card if self._one else 0
        if not self.flat:
            return self.base + code
        for (index, radix), v in zip(self._digits, params):
            code = code * radix + index[v]
        return self.base + code

    def split(self, action_id: int) -> tuple:
        """(the single card or None, the values chosen within the head) of a head id."""
        code = action_id - self.base
        if not self.flat:
            return (code if self.cards == "one" else None), ()
        digits = []
        for r in reversed(self.radices):
            code, d = divmod(code, r)
            digits.append(d)
        digits.reverse()
        card = digits.pop(0) if self.cards == "one" else None
        return card, tuple(p.values[d] for p, d in zip(self.params, digits))


class ActionSpace:
    """The action ids of a game for ``n`` seats (see the module's docstring).

    Attributes:
        heads: every :class:`Head`, by first id.
        size: ``num_distinct_actions``: every id is below it.
        card_base: the id of "a card of kind 0" (kind k: ``card_base + k``), or -1 when no
            action chooses several cards; ``done``: the id that ends such a choice.
        decline: the id of a window's decline, or -1.

    Raises:
        RulesError: a choice takes more than :data:`MAX_VALUES` values, or the game more
            than :data:`MAX_ACTIONS` ids (located at the choice or the game's first line).
    """

    def __init__(self, engine, n: int):
        game = engine.game
        cg = engine.cg
        facts = _Facts(game, n)
        if cg.combination_kinds:            # the values of each order of combinations, lowest first
            orders = engine.program(n).combinations
            facts.orders = {name: orders[i] for name, i in cg.combination_kinds.items()}
        self.n = n
        self.kinds = len(engine.kinds)
        self.labels = tuple(k.label for k in engine.kinds)
        self._problems: list[Problem] = []
        decls = {p.name: p for p in game.phases}
        heads: dict = {}                  # signature -> Head
        self.head_of: dict = {}           # (phase index, action name) -> Head
        self.decline = -1
        windows = False
        for phase in cg.phase_list:
            decl = decls[phase.name]
            by_name = {a.name: a for a in decl.actions}
            windows = windows or phase.kind in ("first", "each")
            for a in phase.actions:
                head = self._head(by_name[a.name], facts, cg)
                head = heads.setdefault(head.signature(), head)
                self.head_of[(phase.index, a.name)] = head
        if self._problems:
            raise RulesError(game.path, game.source, self._problems)
        at = 0
        self.heads = tuple(heads.values())
        for head in self.heads:
            head.base = at
            at += head.size
        if windows:
            self.decline = at
            at += 1
        self.card_base = self.done = -1
        if any(h.cards == "many" for h in self.heads):
            self.card_base = at
            self.done = at + self.kinds
            at += self.kinds + 1
        for head in self.heads:
            if not head.flat:
                bases = []
                for p in head.params:
                    bases.append(at)
                    at += len(p.values)
                head.param_bases = tuple(bases)
        self.size = at
        if at > MAX_ACTIONS:
            raise RulesError(game.path, game.source, [Problem(
                f"the actions of this game take {at:,} ids for {n} players, more than the {MAX_ACTIONS:,} "
                "an adapter allows", Span(1, 1), "choose among fewer values (or fewer cards) in an action")])
        self._bases = [h.base for h in self.heads]
        self._param_ids = []                # (first id, head, param index), by first id
        for h in self.heads:
            for j, b in enumerate(h.param_bases):
                self._param_ids.append((b, h, j))
        self._param_ids.sort(key=lambda t: t[0])
        self._param_starts = [t[0] for t in self._param_ids]

    # ------------------------------------------------------------------ building
    def _head(self, action: m.Action, facts: _Facts, cg) -> Head:
        cards, low, high = "none", 0, 0
        params = []
        known: dict = {}
        for s in action.body:
            if isinstance(s, m.Require):
                continue
            if isinstance(s, m.ChooseCards):
                if s.blind:
                    params.append(self._places(s, facts))
                else:
                    low, high = s.low, s.high
                    cards = "one" if low == 1 and high == 1 else "many"
                continue
            if not isinstance(s, m.ChooseParam):
                break
            space = self._param(s, facts, known, cg)
            if space.kind == "range" and space.values:
                known[s.name] = (space.values[0], space.values[-1])
            params.append(space)
        return Head(action.name, cards, low, high, tuple(params), self.kinds)

    def _too_many(self, what: str, count: int, span) -> None:
        self._problems.append(Problem(f"{what} may take {count:,} values in a match of {self.n} players, "
                                      f"more than the {MAX_VALUES:,} an adapter allows", span,
                                      "bound the choice by numbers or counts of cards"))

    def _places(self, s: m.ChooseCards, facts: _Facts) -> ParamSpace:
        if s.low == 1:
            return ParamSpace("card", "place", tuple(range(1, facts.pieces + 1)))
        count = comb(facts.pieces, s.low)
        if count > MAX_VALUES:
            self._too_many(f"a blind choice of {s.low} cards", count, s.span)
            return ParamSpace("card", "place", ())
        return ParamSpace("card", "place", tuple(itertools.combinations(range(1, facts.pieces + 1), s.low)))

    def _param(self, s: m.ChooseParam, facts: _Facts, known: dict, cg) -> ParamSpace:
        d = s.domain
        n = facts.n
        if d.kind == "symbols" and d.name in cg.combination_kinds:
            # a value of an order of combinations is its index, lowest first
            order = facts.orders[d.name]
            return ParamSpace(s.name, "combination", tuple(order.indices), tuple(order.text(i) for i in order.indices))
        if d.kind == "symbols":
            names = cg.symbols.get(d.name, ())
            return ParamSpace(s.name, "symbol", tuple(range(len(names))), tuple(names))
        if d.kind == "group":
            bounds = value_bounds(d.size, facts, known) or (1, n)
            sizes = range(max(1, bounds[0]), min(n, bounds[1]) + 1)
            return ParamSpace(s.name, "group", tuple(g for size in sizes for g in itertools.combinations(range(n), size)))
        if d.kind != "range":
            return ParamSpace(s.name, "seat", tuple(range(n)) + ((-1,) if d.or_nobody else ()))
        low = value_bounds(d.low, facts, known)
        high = value_bounds(d.high, facts, known)
        # a range holds at most MAX_CHOICES values (the engine's own limit on one choice)
        if low is None and high is None:
            self._problems.append(Problem(f"the values of '{s.name}' have no bound an adapter can find", d.span,
                                          "start or end the range with a number, or a count of cards or seats"))
            return ParamSpace(s.name, "range", ())
        if low is None:
            low = (high[0] - MAX_CHOICES + 1, high[1])
        if high is None:
            high = (low[0], low[1] + MAX_CHOICES - 1)
        lo, hi = low[0], min(high[1], low[1] + MAX_CHOICES - 1)
        lo = max(lo, high[0] - MAX_CHOICES + 1)
        if hi - lo + 1 > MAX_VALUES:
            self._too_many(f"'{s.name}'", hi - lo + 1, d.span)
            return ParamSpace(s.name, "range", ())
        texts = None
        if s.names is not None and s.names in cg.value_names:
            named = cg.value_names[s.names]
            texts = tuple(named.get(v, str(v)) for v in range(lo, hi + 1))
        return ParamSpace(s.name, "range", tuple(range(lo, hi + 1)), texts)

    # ------------------------------------------------------------------ ids
    def head(self, phase: int, name: str) -> Head:
        """The head of action ``name`` in the phase of index ``phase``.

        Raises:
            KeyError: no such action in that phase.
        """
        return self.head_of[(phase, name)]

    def head_at(self, action_id: int) -> Head | None:
        """The head whose ids hold ``action_id``, or None (a card, done, decline or value id)."""
        i = bisect.bisect_right(self._bases, action_id) - 1
        if i >= 0:
            h = self.heads[i]
            if action_id < h.base + h.size:
                return h
        return None

    def param_at(self, action_id: int) -> tuple | None:
        """(head, value index) of a value id of a head that is not flat, or None."""
        i = bisect.bisect_right(self._param_starts, action_id) - 1
        if i >= 0:
            base, h, j = self._param_ids[i]
            if action_id < base + len(h.params[j].values):
                return h, j
        return None

    def encode(self, phase: int, action) -> tuple:
        """The ids of the decisions that make ``action`` in the phase of index ``phase``:
        its head, then a card id per card (smallest kind first) and done, then its values'
        ids (when the head is not flat).

        Raises:
            KeyError: the action is not one of that phase, or a value is outside its space.
        """
        if action.name == DECLINE:
            return (self.decline,)
        h = self.head_of[(phase, action.name)]
        card = action.cards[0] if h.cards == "one" else None
        ids = [h.head_id(card, action.params)]
        if h.cards == "many":
            ids.extend(self.card_base + k for k in sorted(action.cards))
            ids.append(self.done)
        if not h.flat:
            ids.extend(b + p.index[v] for b, p, v in zip(h.param_bases, h.params, action.params))
        return tuple(ids)

    def text(self, action_id: int) -> str:
        """How an id reads: the action and its values ("raise n=3 c=2"), "card LABEL", "done",
        "decline", or a value alone ("c=2")."""
        if action_id == self.decline:
            return "decline"
        if self.card_base >= 0 and self.card_base <= action_id < self.done:
            return f"card {self.labels[action_id - self.card_base]}"
        if action_id == self.done and action_id >= 0:
            return "done"
        h = self.head_at(action_id)
        if h is not None:
            card, values = h.split(action_id)
            words = [h.name]
            if card is not None:
                words.append(f"card={self.labels[card]}")
            words += [f"{p.name}={p.text(v)}" for p, v in zip(h.params, values)]
            return " ".join(words)
        found = self.param_at(action_id)
        if found is not None:
            h, j = found
            p = h.params[j]
            return f"{p.name}={p.text(p.values[action_id - h.param_bases[j]])}"
        return f"action {action_id}"

    def describe(self) -> list[tuple[int, int, str]]:
        """(first id, last id, what they mean) for every block of ids, in order: the table
        ``docs/rl.md`` prints for a game."""
        rows = []
        for h in self.heads:
            what = h.name
            if h.flat and (h.params or h.cards == "one"):
                what += " × " + " × ".join((["card"] if h.cards == "one" else []) + [p.name for p in h.params])
            elif h.cards == "one":
                what += " × card"
            rows.append((h.base, h.base + h.size - 1, what))
        if self.decline >= 0:
            rows.append((self.decline, self.decline, "decline"))
        if self.card_base >= 0:
            rows.append((self.card_base, self.done - 1, "a card of each kind"))
            rows.append((self.done, self.done, "done (no more cards)"))
        for h in self.heads:
            for b, p in zip(h.param_bases, h.params):
                rows.append((b, b + len(p.values) - 1, f"{h.name}: {p.name}"))
        return rows


__all__ = ["ActionSpace", "FLAT_LIMIT", "Head", "MAX_ACTIONS", "MAX_VALUES", "ParamSpace", "value_bounds"]
