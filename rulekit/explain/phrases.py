"""The parts of a game in words: values, seats and sets of seats, sets of cards, card
conditions, the file's texts with holes, and the phases a rule refers to.

One method per class of model node: ``x_`` for values, seats and cards, ``p_`` for card
conditions (the statements are in :mod:`rulekit.explain.steps`). A node without its method
falls back to the text of the file at its place.
"""

from __future__ import annotations

import re

from ..lang import model as m
from .walk import all_nodes
from .words import _article, _count, _join, _looks_plural, _plural, _quote, _sentence, _strip_the, words

_OPS = {"=": ("is", "are"), "!=": ("is not", "are not"), "<": ("is less than", "are less than"),
        "<=": ("is at most", "are at most"), ">": ("is more than", "are more than"),
        ">=": ("is at least", "are at least")}
_NEGATED = {"=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_QUANT = {">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "=": "exactly",
          "!=": "other than"}
_CARD_OPS = {"=": "", "!=": "other than ", "<": "less than ", "<=": "at most ", ">": "more than ",
             ">=": "at least "}
_LOGIC = ("and", "or")

#: the seat acting, where it is not "you" (in a quoted text: an announcement, a label), as
#: the rulebook's "How to read these rules" calls it
ACTOR = "the player who acts"
_ARITH = {"+": "+", "-": "-", "*": "×"}


class _Phrases:
    """Puts the parts of one game into words, as a rule of that game says them: it knows the
    game's names (what each names, and the names its file gives to values) and how a seat
    acting now is called."""

    def __init__(self, game: m.Game):
        self.game = game
        self.lines_of_source = game.source.split("\n") if game.source else []   # as the parser counts lines
        g = game
        self.counters = {c.name: c for c in g.counters}
        self.seat_vars = {s.name: s for s in g.seats}
        self.groups = {gr.name for gr in g.groups}
        self.symbol_sets = {s.name: s.symbols for s in g.symbols}
        self.symbol_values = {sym: s.name for s in g.symbols for sym in s.symbols}
        self.value_names = {n.name: dict(n.pairs) for n in g.names}
        self.zones = {z.name: z for z in g.zones}
        self.claims = {c.name: c for c in g.claims}
        self.combinations = {c.name: c for c in g.combinations}
        self.procedures = {p.name: p for p in g.procedures}
        self.phases = {p.name: p for p in g.phases}
        self.dice = {d.name: d for d in g.dice}
        self.card_kinds = [k for k in g.kinds if k.die is None]
        self.card_names = {k.card for k in self.card_kinds}
        self.kind_labels = {k.label for k in self.card_kinds}
        self.flags = set().union(*(k.flags for k in g.kinds)) if g.kinds else set()
        only_dice = not self.card_kinds and any(d.count for d in g.dice)
        self.piece, self.pieces = ("die", "dice") if only_dice else ("card", "cards")
        # the names a file gives to values: parameters, choices, loop variables, let values
        self.variables: set[str] = set()
        self.exact = False                # divisions are exact (in the result of a match)
        self.symbol_vars: dict[str, str] = {}
        self.kind_vars: set[str] = set()
        for node in all_nodes(game):
            self._note_variable(node)
        self.keep = frozenset(self.variables | {f"P{i}" for i in range(1, 65)})
        # how a seat acting now is called: "you" in the rules of an action, "the player" when
        # each seat is ranked or scored at the end
        self.mode = "you"
        self.in_template = False
        self.chosen_one = False         # the action being told chooses exactly one card
        self.subst: list[dict] = []

    # ------------------------------------------------------------ the names a file gives to values
    def _note_variable(self, node) -> None:
        if isinstance(node, m.Param):
            self.variables.add(node.name)
            if node.symbols and node.symbols not in ("seat", "seats"):
                self.symbol_vars[node.name] = node.symbols
        elif isinstance(node, m.ChooseParam):
            self.variables.add(node.name)
            if node.domain.kind == "symbols" and node.domain.name:
                self.symbol_vars[node.name] = node.domain.name
        elif isinstance(node, m.ForEach):
            self.variables.add(node.var)
            if node.seats.kind == "var" and node.seats.name in self.symbol_sets:
                self.symbol_vars[node.var] = node.seats.name
        elif isinstance(node, m.LetValue):
            self.variables.add(node.name)
            # 'let b2 = claimed b' (or '= b'): a symbol-valued local, like the value it copies
            source = node.value.field if isinstance(node.value, m.ClaimedField) else \
                node.value.name if isinstance(node.value, m.Name) else None
            if source in self.symbol_vars:
                self.symbol_vars[node.name] = self.symbol_vars[source]
        elif isinstance(node, m.ForKinds):
            self.variables.add(node.var)
            self.kind_vars.add(node.var)
        elif isinstance(node, (m.ForRange, m.SeatQuantifier, m.OverSeats)):
            self.variables.add(node.var)
        elif isinstance(node, m.LetValue):
            self.variables.add(node.name)
        elif isinstance(node, m.SeatSet) and node.kind in ("where", "highest", "lowest") and node.name:
            self.variables.add(node.name)

    # ------------------------------------------------------------ dispatch
    def x(self, node, nested: bool = False) -> str:
        """A value, seat, set of seats or set of cards in words (``nested``: inside another
        value, where a compound one is put in parentheses)."""
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            return self.fallback(node)
        text = method(node)
        if nested and isinstance(node, (m.BinOp, m.CondValue)) and (
                not isinstance(node, m.BinOp) or node.op not in _LOGIC):
            return f"({text})"
        return text

    def p(self, node, plural: bool = False) -> str:
        """A card condition as a verb phrase about one card (or several, ``plural``)."""
        method = getattr(self, "p_" + type(node).__name__, None)
        if method is None:
            return ("meet " if plural else "meets ") + self.fallback(node)
        return method(node, plural)

    def fallback(self, node) -> str:
        """The text of the file at the node's place; without one, its kind and parts in words."""
        span = getattr(node, "span", None)
        if span is not None and span.line and span.end_line and self.lines_of_source:
            try:
                if span.line == span.end_line:
                    text = self.lines_of_source[span.line - 1][span.column - 1:span.end_column - 1]
                else:
                    first = self.lines_of_source[span.line - 1][span.column - 1:]
                    middle = self.lines_of_source[span.line:span.end_line - 1]
                    last = self.lines_of_source[span.end_line - 1][:span.end_column - 1]
                    text = " ".join(part.strip() for part in (first, *middle, last))
                text = re.sub(r"\s+", " ", text).strip()
                if text:
                    return _quote(text)
            except IndexError:
                pass
        name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(node).__name__).lower()
        parts = []
        for a in getattr(node, "__attrs_attrs__", ()):
            if a.name == "span":
                continue
            value = getattr(node, a.name)
            if value is None or value == a.default:
                continue                    # a part left as the file does not write it
            if hasattr(value, "__attrs_attrs__"):
                parts.append(self.x(value))
            elif isinstance(value, (str, int)) and not isinstance(value, bool):
                parts.append(words(str(value)))
        return name + (" " + " ".join(parts) if parts else "")

    def sentence(self, text: str) -> str:
        return _sentence(text, self.keep)

    # ------------------------------------------------------------ seats
    def _name(self, name: str) -> str:
        for frame in reversed(self.subst):
            if name in frame:
                return frame[name]
        if name == "actor":
            if self.in_template:
                return ACTOR
            return "you" if self.mode == "you" else "the player"
        if name == "current":
            return "the current player"
        if name == "claimant":
            return "the claimant"
        if re.fullmatch(r"P\d+", name):
            return name
        if name in self.variables:
            return name
        if name in self.counters:
            c = self.counters[name]
            if c.per_player:
                return self._of_actor(words(name))
            return words(name)
        if name in self.seat_vars:
            return "the " + words(name)
        if name in self.groups:
            return self._group(name)
        return words(name) if name not in self.symbol_values else name

    def _of_actor(self, thing: str) -> str:
        """``your coins``, ``their coins`` (a seat ranked or scored at the end), or in a quoted
        text ``the coins of the player who acts``."""
        if self.in_template:
            return f"the {thing} of {ACTOR}"
        return f"{'your' if self.mode == 'you' else 'their'} {thing}"

    def _group(self, name: str) -> str:
        w = words(name)
        return f"the {w}" if _looks_plural(w) else f"the group {_quote(w)}"

    def _is_you(self, node) -> bool:
        return (isinstance(node, (m.Name, m.SeatName)) and node.name == "actor" and self.mode == "you"
                and not self.in_template and not any(node.name in f for f in self.subst))

    def _simple_seat(self, node) -> bool:
        return isinstance(node, (m.Name, m.SeatName))

    def poss(self, seat) -> str | None:
        """``your`` / ``the claimant's`` / ``p's`` for a seat named simply, else None."""
        if seat is None:
            return None
        if self._is_you(seat):
            return "your"
        if self._simple_seat(seat):
            text = self.x(seat)
            if text == "the player":
                return "their" if self.mode != "you" else "the player's"
            if text == ACTOR:
                return None                 # "the hand of the player who acts"
            return text + ("'" if text.endswith("s") and not text.startswith("the ") else "'s")
        return None

    def of_seat(self, thing: str, seat) -> str:
        """``your hand``, ``the claimant's hand`` or ``the hand of the player to the left of …``."""
        p = self.poss(seat)
        return f"{p} {thing}" if p else f"the {thing} of {self.x(seat)}"

    def verb(self, subject_node, singular: str, plural: str) -> str:
        return plural if self._plural_subject(subject_node) else singular

    def _plural_subject(self, node) -> bool:
        if self._is_you(node):
            return True
        if isinstance(node, m.Name) and node.name in self.counters and node.name not in self.variables:
            return _looks_plural(words(node.name))
        if isinstance(node, m.ValueOf):
            return _looks_plural(words(node.name))
        return False

    def x_SeatName(self, node) -> str:
        return self._name(node.name)

    def x_Name(self, node) -> str:
        return self._name(node.name)

    def x_Neighbour(self, node) -> str:
        steps, seat = node.step, node.seat
        while isinstance(seat, m.Neighbour) and (seat.step > 0) == (steps > 0):
            steps += seat.step
            seat = seat.seat
        side = "left" if steps > 0 else "right"
        k = abs(steps)
        how_far = "" if k == 1 else f"{k} seats "
        if self._is_you(seat):
            return f"the player {how_far}to your {side}"
        return f"the player {how_far}to the {side} of {self.x(seat)}"

    def x_FirstOf(self, node) -> str:
        s = node.seats
        if s.kind == "after" and s.seat is not None:
            base = s.base
            among = "" if base is None or base.kind == "everyone" else f" among {self.x(base)}"
            return f"the next player{among} clockwise after {self.x(s.seat)}"
        return f"the first player of {self.x(s)}"

    def x_SeatSet(self, node) -> str:
        method = getattr(self, "_seats_" + node.kind, None)
        return method(node) if method else self.fallback(node)

    def _seats_everyone(self, node) -> str:
        return "all players"

    def _seats_nobody(self, node) -> str:
        return "no player"

    def _seats_others(self, node) -> str:
        return "the other players" if self.mode == "you" else f"the players other than {ACTOR}"

    def _left_of(self, seat) -> str:
        if self._is_you(seat):
            return "your left"
        p = self.poss(seat)
        return f"{p} left" if p else f"the left of {self.x(seat)}"

    def _seats_after(self, node) -> str:
        base = node.base
        who = self.x(node.seat)
        if base is None or base.kind == "everyone":
            head = f"every player but {who}"
        else:
            head = f"{self.x(base)} but {who}"
        return f"{head}, clockwise from {self._left_of(node.seat)}"

    def _seats_from(self, node) -> str:
        base = self.x(node.base) if node.base is not None else "all players"
        return f"{base}, clockwise starting with {self.x(node.seat)}"

    def _seats_voters(self, node) -> str:
        label = self._action_label_by_name(node.name)
        return f"the players who voted {label}"

    def _seats_var(self, node) -> str:
        if node.name == "winners" and node.name not in self.groups and node.name not in self.variables:
            return "the winners"                  # in 'returns': the seats that won
        return self._name(node.name)

    def _seats_except(self, node) -> str:
        return f"{self.x(node.base)} except {self.x(node.other)}"

    def _seats_where(self, node) -> str:
        return f"the players {node.name} among {self.x(node.base)} for whom {self.x(node.cond)}"

    def _seats_highest(self, node) -> str:
        return self._seats_extreme(node, "highest")

    def _seats_lowest(self, node) -> str:
        return self._seats_extreme(node, "lowest")

    def _seats_extreme(self, node, which: str) -> str:
        value = _strip_the(self.x(node.cond))
        if value.startswith(("highest ", "lowest ")):     # not "with the highest highest value"
            return f"the player(s) {node.name} among {self.x(node.base)} for whom the {value} is the {which}"
        return f"the player(s) {node.name} among {self.x(node.base)} with the {which} {value}"

    def _action_label_by_name(self, name: str) -> str:
        for ph in self.game.phases:
            for a in ph.actions:
                if a.name == name:
                    return self.action_label(a)
        return _quote(words(name))

    # ------------------------------------------------------------ cards and zones
    def zone(self, ref) -> str:
        """A zone in words: ``your hand``, ``the stock``, ``p's cup``."""
        if not isinstance(ref, m.ZoneRef):
            return self.x(ref)
        name = words(ref.zone)
        if ref.yours:
            if self.mode == "you" and not self.in_template:
                return f"your {name}"
            return self._of_actor(name)
        if ref.seat is not None:
            return self.of_seat(name, ref.seat)
        return f"the {name}"

    def x_ZoneRef(self, node) -> str:
        return f"the {self.pieces} in {self.zone(node)}"

    def x_Chosen(self, node) -> str:
        return f"the chosen {self.piece}" if self.chosen_one else f"the chosen {self.pieces}"

    def x_Claimed(self, node) -> str:
        return f"the claimed {self.pieces}"

    def _every_zone(self, node) -> str:
        name = words(node.zone)
        # a zone named by what was done to its cards ('played', 'drawn'): "the played zones"
        plural = f"{name} zones" if name.endswith(("ed", "wn", "en")) else _plural(name)
        if node.seats is None:          # all of them together: "at least q of the dice in all the cups"
            return f"all the {plural}"
        return f"the {plural} of {self.x(node.seats)}"

    def x_EveryZone(self, node) -> str:
        return f"the {self.pieces} in {self._every_zone(node)}"

    def x_Portion(self, node) -> str:
        inner = node.cards
        literal = isinstance(node.count, m.Num)
        count = node.count.value if literal else None
        if node.random:
            source = self.zone(inner) if isinstance(inner, m.ZoneRef) else self.x(inner)
            many = _count(count, self.piece, self.pieces) if literal else f"{self.x(node.count)} {self.pieces}"
            return f"{many} picked at random from {source}"
        if not literal:         # a computed count: "as many of the top cards of X as N"
            where = self.zone(inner) if isinstance(inner, m.ZoneRef) else self.x(inner)
            return f"as many of the top {self.pieces} of {where} as {self.x(node.count)}"
        if isinstance(inner, m.ZoneRef):
            top = f"the top {self.piece}" if count == 1 else f"the top {count} {self.pieces}"
            return f"{top} of {self.zone(inner)}"
        top = "the topmost" if count == 1 else f"the {count} topmost"
        return f"{top} of {self.x(inner)}"

    def x_CardUnion(self, node) -> str:
        return _join([self.x(p) for p in node.parts], "and")

    def x_Where(self, node) -> str:
        return f"{self.x(node.cards)} that {self.p(node.pred, plural=True)}"

    def _card_place(self, cards) -> str:
        """Where cards are, after "every card" or "some card": ``claimed card``, ``card in your hand``."""
        if isinstance(cards, m.Claimed):
            return f"claimed {self.piece}"
        if isinstance(cards, m.Chosen):
            return f"chosen {self.piece}"
        if isinstance(cards, m.ZoneRef):
            return f"{self.piece} in {self.zone(cards)}"
        if isinstance(cards, m.EveryZone):
            return f"{self.piece} in {self._every_zone(cards)}"
        return f"one of {self.x(cards)}"

    # ------------------------------------------------------------ card conditions
    def p_CpName(self, node, plural: bool) -> str:
        name = node.name
        be = "are" if plural else "is"
        if name in self.kind_vars:
            return f"{be} of kind {name}"
        if name in self.flags and name not in self.card_names:
            return f"{be} {words(name)}"
        if name in self.card_names:
            label = self._card_label(name)
            return f"{be} {_plural(label)}" if plural else f"{be} {_article(label)}"
        if name in self.dice:
            return f"{be} {_plural(words(name)) if plural else _article(words(name))}"
        if name in self.symbol_values:
            if name in self.kind_labels:
                return f"{be} {_plural(name) if plural else _article(name)}"
            return f"{'picture' if plural else 'pictures'} {name}"
        if name in self.symbol_vars:
            symbols = self.symbol_sets.get(self.symbol_vars[name], ())
            if symbols and all(sym in self.kind_labels for sym in symbols):
                return f"{be} {name}"
            return f"{'picture' if plural else 'pictures'} {name}"
        return f"{be} {words(name)}"

    def _card_label(self, card: str) -> str:
        kinds = [k for k in self.card_kinds if k.card == card]
        if len(kinds) == 1:
            return kinds[0].label
        return words(card) + " " + self.piece if len(words(card).split()) == 1 and kinds else words(card)

    def p_CpCompare(self, node, plural: bool) -> str:
        value = self.x(node.value, nested=True)
        if node.attr == "face":
            verb = "show" if plural else "shows"
            op = _CARD_OPS.get(node.op, node.op + " ")
            return f"{verb} {op}{value}" if node.op == "=" else f"{verb} a face {op}{value}"
        verb = "have" if plural else "has"
        return f"{verb} {words(node.attr)} {_CARD_OPS.get(node.op, node.op + ' ')}{value}"

    def p_CpLogic(self, node, plural: bool) -> str:
        if node.op == "not" or node.right is None:
            inner = self.p(node.left, plural)
            for be in ("is ", "are "):
                if inner.startswith(be):
                    return be + "not " + inner[len(be):]
            return ("do not " if plural else "does not ") + self._bare_verb(inner, plural)
        left, right = self.p(node.left, plural), self.p(node.right, plural)
        if isinstance(node.left, m.CpLogic) and node.left.op in _LOGIC and node.left.op != node.op:
            left = f"({left})"
        if isinstance(node.right, m.CpLogic) and node.right.op in _LOGIC and node.right.op != node.op:
            right = f"({right})"
        return f"{left} {node.op} {right}"

    @staticmethod
    def _bare_verb(phrase: str, plural: bool) -> str:
        if plural:
            return phrase
        head, _, rest = phrase.partition(" ")
        if head == "has":
            head = "have"
        elif head.endswith("es") and head[:-2].endswith(("sh", "ch", "x", "s")):
            head = head[:-2]
        elif head.endswith("s"):
            head = head[:-1]
        return f"{head} {rest}".strip()

    # ------------------------------------------------------------ values
    def x_Num(self, node) -> str:
        return str(node.value)

    def x_Bool(self, node) -> str:
        return "always" if node.value else "never"

    def x_ValueOf(self, node) -> str:
        return self.of_seat(words(node.name), node.seat)

    def x_CountOf(self, node) -> str:
        cards = node.cards
        if self.in_template and isinstance(cards, (m.Chosen, m.Claimed)):
            # a hole of a quoted text: “gives [how many cards were chosen] card(s) as v”
            return f"how many {self.pieces} {'were chosen' if isinstance(cards, m.Chosen) else 'are claimed'}"
        if isinstance(cards, m.EveryZone):
            return f"the total number of {self.pieces} in {self._every_zone(cards)}"
        if isinstance(cards, m.ZoneRef):
            return f"the number of {self.pieces} in {self.zone(cards)}"
        return "the number of " + _strip_the(self.x(cards))

    def x_CardExtreme(self, node) -> str:
        cards = _strip_the(self.x(node.cards))
        return f"the {'highest' if node.highest else 'lowest'} {words(node.attr)} among the {cards}"

    def x_TotalOf(self, node) -> str:
        cards = _strip_the(self.x(node.cards))
        if node.attr in self.symbol_values or node.attr in self.symbol_vars:
            return f"the number of times {node.attr} is pictured on the {cards}"
        return f"the total {words(node.attr)} of the {cards}"

    def x_CardQuantifier(self, node) -> str:
        cards = node.cards
        if isinstance(cards, m.Portion) and not cards.random and isinstance(cards.count, m.Num) \
                and cards.count.value == 1:             # one card: "the top card of the middle is …"
            return f"{self.x(cards)} {self.p(node.pred)}"
        place = self._card_place(cards)
        if place.startswith("one of ") and not node.every:
            return f"{place} {self.p(node.pred)}"          # "one of the cards in A and the cards in B is …"
        quant = "every" if node.every else "some"
        return f"{quant} {place} {self.p(node.pred)}"

    def x_Roll(self, node) -> str:
        return f"a roll of the {words(node.die)} die"

    def x_ClaimHolds(self, node) -> str:
        if node.cards is None:
            return "the claim is true"
        return f"the claim is true of {self.x(node.cards)} alone"

    def x_ClaimIs(self, node) -> str:
        claim = self.claims.get(node.claim)
        if claim is not None and not claim.params and claim.label is not None:
            return f"the claim is {self.template(claim.label)}"
        return f"the claim is {_article(words(node.claim))}"

    def x_NoClaim(self, node) -> str:
        return "no claim stands"

    def x_ClaimedField(self, node) -> str:
        """``the claimed v``; a symbol (or a combination) by what it is: ``the claimed body``
        for ``claimed b`` of ``claim bid(n, b: body)``, when every claim with that field says so."""
        kinds = {p.symbols for c in self.game.claims for p in c.params if p.name == node.field}
        if len(kinds) == 1 and next(iter(kinds)) not in (None, "seat", "seats"):
            return f"the claimed {words(next(iter(kinds)))}"
        return f"the claimed {words(node.field)}"

    def x_Beats(self, node) -> str:
        return f"{self.claim_text(node.claim, node.args)} beats the standing claim"

    def x_PlayerCount(self, node) -> str:
        return "the number of players"

    def x_TableValue(self, node) -> str:
        name = _quote(words(node.name))
        keyed = any(t.name == node.name and t.rows and t.rows[0][0] is not None for t in self.game.tables)
        if len(node.args) == 1 and keyed:       # one number a row: read by its key alone
            return f"the value of the table {name} for {self.x(node.args[0])}"
        if len(node.args) == 1:
            return f"the value of the table {name} at place {self.x(node.args[0])}"
        return f"the value of the table {name} for {self.x(node.args[0])}, at place {self.x(node.args[1])}"

    def x_HasCombination(self, node) -> str:
        value = node.value
        if isinstance(value, m.TableValue) and value.name in self.combinations:
            what = self.labelled(self.combinations[value.name], value.args)
        else:
            what = self.x(value, nested=True)
        return f"{what} can be made from {self.x(node.cards)}"

    def x_BestCombination(self, node) -> str:
        order = next((k for k in self.game.combination_kinds if k.name == node.order), None)
        attrs_ = []                     # the card attributes the values of the order range over
        for c in (self.combinations.get(name) for name in (order.combinations if order else ())):
            found = [p.symbols for p in c.params] + [p.attr for p in c.parts if isinstance(p, m.ComboRun)] if c else []
            attrs_ = list(dict.fromkeys(attrs_ + [a for a in found if a and a not in self.symbol_sets]))
        ties = f" (ties broken by the {words(attrs_[0])} of the {self.pieces}, highest first)" if attrs_ else ""
        return (f"the value of the best {_count(node.count, self.piece, self.pieces)} among {self.x(node.cards)} in "
                f"the order of {_quote(words(node.order))}{ties}")

    def x_Extreme(self, node) -> str:
        return f"the {'highest' if node.highest else 'lowest'} {words(node.name)} of any player"

    def x_IsNobody(self, node) -> str:
        return f"{node.name} is nobody (there was no player to choose)"

    def x_IsOut(self, node) -> str:
        seat = m.Name(node.seat)
        return f"{self.x(seat)} {self.verb(seat, 'is', 'are')} out of the match"

    def x_CountSeats(self, node) -> str:
        if node.seats.kind == "everyone":
            return "the number of players still in the match"
        return f"the number of players in {self.x(node.seats)}"

    def x_SeatQuantifier(self, node) -> str:
        quant = "every" if node.every else "some"
        return f"for {quant} player {node.var} among {self.x(node.seats)}, {self.x(node.cond)}"

    def x_OverSeats(self, node) -> str:
        how = {"highest": "the highest", "lowest": "the lowest", "total": "the sum"}.get(node.how, node.how)
        return f"{how} of {self.x(node.value, nested=True)} over every player {node.var} among {self.x(node.seats)}"

    def x_MinMax(self, node) -> str:
        args = [self.x(a, nested=True) for a in node.args]
        if len(args) == 2:
            return f"the {'larger' if node.highest else 'smaller'} of {args[0]} and {args[1]}"
        return f"the {'largest' if node.highest else 'smallest'} of {_join(args)}"

    def x_CondValue(self, node) -> str:
        return f"{self.x(node.then, nested=True)} if {self.x(node.cond)}, otherwise {self.x(node.orelse, nested=True)}"

    def _among(self, seats) -> str:
        text = self.x(seats)
        return ("in " if text.startswith("the group ") else "among ") + text

    def x_Member(self, node) -> str:
        seat = m.Name(node.seat)
        return f"{self.x(seat)} {self.verb(seat, 'is', 'are')} {self._among(node.seats)}"

    def x_Not(self, node) -> str:
        inner = node.operand
        said = self._negated(inner)
        if said is not None:
            return said
        return f"it is not the case that {self.x(inner)}"

    def _negated(self, inner) -> str | None:
        """``not INNER`` said without a negation in front (“a claim stands”, “t is still in
        the match”, “v is not 2 or your hand is empty”), or None when it cannot be."""
        if isinstance(inner, m.NoClaim):
            return "a claim stands"
        if isinstance(inner, m.ClaimHolds):
            return "the claim is false" if inner.cards is None else f"the claim is false of {self.x(inner.cards)} alone"
        if isinstance(inner, m.IsNobody):
            return f"{inner.name} is a player"
        if isinstance(inner, m.IsOut):
            seat = m.Name(inner.seat)
            return f"{self.x(seat)} {self.verb(seat, 'is', 'are')} still in the match"
        if isinstance(inner, m.Member):
            seat = m.Name(inner.seat)
            return f"{self.x(seat)} {self.verb(seat, 'is', 'are')} not {self._among(inner.seats)}"
        if isinstance(inner, m.BinOp) and inner.op in _NEGATED:
            return self.x_BinOp(m.BinOp(_NEGATED[inner.op], inner.left, inner.right, span=inner.span))
        if isinstance(inner, m.Bool):
            return self.x(m.Bool(not inner.value))
        if isinstance(inner, m.Not):
            return self.x(inner.operand)
        if isinstance(inner, m.ClaimIs):
            return self.x_ClaimIs(inner).replace("the claim is ", "the claim is not ", 1)
        if isinstance(inner, m.BinOp) and inner.op in _LOGIC:
            # not (A and B): not A or not B; not (A or B): not A and not B, when each side
            # can be said without a negation in front
            sides = [self._negated(side) if not isinstance(side, m.Not) else self.x(side.operand)
                     for side in (inner.left, inner.right)]
            if None in sides:
                return None
            op = "or" if inner.op == "and" else "and"
            parts = []
            for side, text in zip((inner.left, inner.right), sides):
                same = isinstance(side, m.BinOp) and side.op == inner.op
                if not same and (" and " in text or " or " in text):
                    text = f"({text})"
                parts.append(text)
            return f"{parts[0]} {op} {parts[1]}"
        if isinstance(inner, m.CardQuantifier):
            return f"{'not every' if inner.every else 'no'} {self._card_place(inner.cards)} {self.p(inner.pred)}"
        if isinstance(inner, m.HasCombination):
            return self.x_HasCombination(inner).replace(" can be made from ", " cannot be made from ", 1)
        return None

    def x_BinOp(self, node) -> str:
        op = node.op
        if op in _LOGIC:
            parts = []
            for side in (node.left, node.right):
                text = self.x(side)
                same = isinstance(side, m.BinOp) and side.op == op
                if not same and (" and " in text or " or " in text):
                    text = f"({text})"
                parts.append(text)
            return f"{parts[0]} {op} {parts[1]}"
        if op in _OPS:
            return self._compare(node)
        if op == "-" and isinstance(node.left, m.Num) and node.left.value == 0:
            return f"minus {self.x(node.right, nested=True)}"
        if op in _ARITH:
            # a product inside a sum needs no parentheses, nor the left side of a sum in a sum
            left = self.x(node.left, nested=not self._binds(node.left, op, left_side=True))
            right = self.x(node.right, nested=not self._binds(node.right, op, left_side=False))
            return f"{left} {_ARITH[op]} {right}"
        left, right = self.x(node.left, nested=True), self.x(node.right, nested=True)
        if op == "/":
            return f"{left} divided by {right}" + ("" if self.exact else ", rounded down")
        if op == "/^":
            return f"{left} divided by {right}, rounded up"
        if op == "mod":
            return f"the remainder of {left} divided by {right}"
        return f"{left} {op} {right}"

    @staticmethod
    def _binds(child, op: str, left_side: bool) -> bool:
        """Whether ``child`` reads right without parentheses as a side of ``op`` (+ - ×)."""
        if not isinstance(child, m.BinOp) or child.op not in _ARITH:
            return not isinstance(child, (m.BinOp, m.CondValue))
        if child.op == "-" and isinstance(child.left, m.Num) and child.left.value == 0:
            return False
        tight = {"*": 2, "+": 1, "-": 1}
        if tight[child.op] > tight[op]:
            return True
        return tight[child.op] == tight[op] and (left_side or op in "+*" and child.op == op)

    def _compare(self, node) -> str:
        op, left, right = node.op, node.left, node.right
        # "your hand is empty", "your hand holds more than 1 card"
        if isinstance(left, m.CountOf) and isinstance(left.cards, m.ZoneRef):
            zone = self.zone(left.cards)
            if isinstance(right, m.Num) and right.value == 0 and op in ("=", "<=", "!=", ">"):
                return f"{zone} is {'empty' if op in ('=', '<=') else 'not empty'}"
            amount = self.x(right, nested=True)
            noun = self.pieces if not (isinstance(right, m.Num) and right.value == 1) else self.piece
            return f"{zone} holds {_QUANT[op]} {amount} {noun}"
        # "at least q of the dice in every cup show f or are wild"
        if isinstance(left, m.CountOf) and isinstance(left.cards, m.Where):
            where = left.cards
            amount = self.x(right, nested=True)
            pool = self.x(where.cards)
            # "exactly 1 of the cards … has", "at least 2 of … show"
            one = isinstance(right, m.Num) and right.value == 1 and op in ("=", "<=")
            return f"{_QUANT[op]} {amount} of {pool} {self.p(where.pred, plural=not one)}"
        if isinstance(left, m.PlayerCount) and isinstance(right, m.Num):
            quant = "" if op == "=" else _QUANT[op] + " "
            return f"there {'is' if right.value == 1 and op == '=' else 'are'} {quant}{right.value} players"
        words_ = _OPS[op][1] if self._plural_subject(left) else _OPS[op][0]
        plain = (lambda side: not (isinstance(side, m.BinOp) and side.op in _ARITH
                                   and not (side.op == "-" and isinstance(side.left, m.Num) and side.left.value == 0)))
        return f"{self.x(left, nested=plain(left))} {words_} {self.x(right, nested=plain(right))}"

    def _range_end(self, expr, names: str | None) -> str:
        """An end of a range of numbers, with its name when ``names`` gives it one: "11
        (NAME)" (the number too: the names need not name every value between)."""
        if names and isinstance(expr, m.Num) and expr.value in self.value_names.get(names, {}):
            return f"{expr.value} ({self.value_names[names][expr.value]})"
        return self.x(expr)

    # ------------------------------------------------------------ texts with holes
    def template(self, t, subst: dict | None = None) -> str:
        """A quoted text of the file, each hole in words (a chosen value's or a seat's name as
        it is; anything else, a counter's value too, in [ ])."""
        if t is None:
            return ""
        if subst:
            self.subst.append(subst)
        was = self.in_template
        self.in_template = True
        try:
            out = ""
            for part in t.parts:
                if isinstance(part, str):
                    out += part
                    continue
                text = self._hole(part)
                if out.lower().endswith("the ") and text.startswith("the "):
                    text = text[4:]
                elif out.lower().endswith("the ") and text.startswith("[the "):
                    text = "[" + text[5:]
                out += text
            return _quote(out)
        finally:
            self.in_template = was
            if subst:
                self.subst.pop()

    def _hole(self, expr) -> str:
        if isinstance(expr, (m.Name, m.SeatName)):
            for frame in reversed(self.subst):
                if expr.name in frame:
                    return frame[expr.name]
        text = self.x(expr)
        if isinstance(expr, m.Name) and expr.name in self.counters and expr.name not in self.variables:
            return f"[{text}]"          # a counter's value: "mission [mission]", not "mission mission"
        if isinstance(expr, (m.Name, m.SeatName, m.Num, m.Neighbour, m.FirstOf)):
            return text
        if text.startswith("[") and text.endswith("]"):
            return text
        return f"[{text}]"

    def claim_text(self, name: str, args) -> str:
        """A claim as stated with those values: its label with the values put in."""
        claim = self.claims.get(name)
        if claim is None:
            return _quote(words(name))
        return self.labelled(claim, args)

    def labelled(self, claim, args) -> str:
        """A claim or a combination with those values: its label with the values put in."""
        name = claim.name
        if claim.label is None:
            values = ", ".join(self.x(a) for a in args)
            return _quote(words(name) + (f" {values}" if values else ""))
        subst = {}
        was = self.in_template
        self.in_template = True
        try:
            for param, arg in zip(claim.params, args):
                if isinstance(arg, (m.Name, m.SeatName)) and arg.name == param.name:
                    continue
                subst[param.name] = self._hole(arg)
        finally:
            self.in_template = was
        return self.template(claim.label, subst)

    def action_label(self, action) -> str:
        """An action's label; a hole that is a symbol the player chooses in the action (a
        label ``"blocks, claiming the {c}"`` of an action that does ``choose c in character``)
        is shown as what it stands for: “blocks, claiming the [character]”."""
        if action.label is None:
            return _quote(words(action.name))
        chosen = {}
        for stmt in action.body:
            for node in m.nodes(stmt):
                if isinstance(node, m.ChooseParam) and node.domain.kind == "symbols" and node.domain.name:
                    chosen.setdefault(node.name, f"[{words(node.domain.name)}]")
        return self.template(action.label, chosen or None)

    # ------------------------------------------------------------ phases referred to
    def phase_kind(self, phase) -> str:
        return {"turn": "turn", "first": "window", "each": "window", "vote": "vote"}.get(phase.kind, "phase")

    def phase_ref(self, name: str, with_labels: bool = False) -> str:
        phase = self.phases.get(name)
        if phase is None:
            return _quote(words(name))
        ref = f"the {self.phase_kind(phase)} {_quote(words(name))}"
        if with_labels and phase.actions and len(phase.actions) <= 2:
            ref += " (" + _join([self.action_label(a) for a in phase.actions], "or") + ")"
        return ref
