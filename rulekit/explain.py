"""A plain-language rulebook of a game, written from its model (``rulekit explain``).

:func:`explain` reads only the checked :class:`~rulekit.model.Game`: its components, zones,
counters, claims, setup, phases, procedures and match, never the comments of the file. Every
node of the model is put into words by one method named after its class (``x_`` for values,
seats and cards, ``p_`` for card conditions, ``s_`` for statements); a node without such a
method falls back to the text of the file at its place, so a new construct still reads.

The rulebook is plain text laid out as Markdown: headings, numbered options and bulleted
steps, one sentence per line, never wrapped (a terminal wraps long lines itself).
"""

from __future__ import annotations

import re

from . import model as m

__all__ = ["explain"]


def explain(game: m.Game) -> str:
    """The rulebook of ``game``, as plain text (Markdown layout), ending with a new line.

    It names the components (cards by kind and copies, dice, zones and who sees them,
    counters, seats and groups), the claims (when each is true, how they are ordered), the
    setup, every phase with its actions (their choices, requirements with the file's own
    reasons, and effects), the shared procedures and how a deal and the match end and are
    scored. When variants are applied (``game.applied``), a section lists what they change
    from the base game, which is read again from ``game.source``; the base game's variants
    are listed at the end.

    Args:
        game: a checked game, as :func:`rulekit.check.load` returns it (variants applied or not).

    Returns:
        The rulebook, several lines of text.

    Raises:
        Nothing for a checked game: a construct without its own wording is written as the
        text of the file at its place. A ``TypeError`` only if ``game`` is not a
        :class:`~rulekit.model.Game`.
    """
    if not isinstance(game, m.Game):
        raise TypeError(f"explain() needs a checked Game, not {type(game).__name__}")
    return _Rulebook(game).render()


# ---------------------------------------------------------------------------- words
def words(name: str) -> str:
    """A name as words: ``add_or_bid`` → ``add or bid``."""
    text = name.replace("_", " ").strip()
    return re.sub(r"\s+", " ", text) or name


def _plural(noun: str) -> str:
    """A naive English plural: card → cards, box → boxes, cards → cards."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun if noun.endswith("s") else noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _looks_plural(noun: str) -> bool:
    last = noun.split()[-1] if noun.split() else noun
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _count(k: int, noun: str, plural: str | None = None) -> str:
    return f"{k} {noun if k == 1 else plural or _plural(noun)}"


def _join(items, last: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _quote(text: str) -> str:
    return f"“{text}”"


def _strip_the(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


_OPS = {"=": ("is", "are"), "!=": ("is not", "are not"), "<": ("is less than", "are less than"),
        "<=": ("is at most", "are at most"), ">": ("is more than", "are more than"),
        ">=": ("is at least", "are at least")}
_NEGATED = {"=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_QUANT = {">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "=": "exactly",
          "!=": "other than"}
_CARD_OPS = {"=": "", "!=": "other than ", "<": "less than ", "<=": "at most ", ">": "more than ",
             ">=": "at least "}
_LOGIC = ("and", "or")
_ARITH = {"+": "+", "-": "-", "*": "×"}


class _Line:
    """One line of a block: its depth below the block, its text, and whether it goes on the
    step above it (an "Otherwise:") rather than starting a step of its own."""

    __slots__ = ("depth", "text", "goes_on")

    def __init__(self, depth: int, text: str, goes_on: bool = False):
        self.depth = depth
        self.text = text
        self.goes_on = goes_on


def _nest(lines, by: int = 1) -> list:
    return [_Line(line.depth + by, line.text, line.goes_on) for line in lines]


def _sentence(text: str, keep: frozenset = frozenset()) -> str:
    """``text`` with a capital letter (unless it starts with a name that must stay as it is)
    and a full stop (unless it ends with ':' or another stop)."""
    text = text.strip()
    if not text:
        return text
    first = re.match(r"[\w']+", text)
    if text[0].islower() and not (first and (first.group(0) in keep or first.group(0).split("'")[0] in keep)):
        text = text[0].upper() + text[1:]
    if not text.endswith((".", ":", "!", "?", "”.", "”")):
        text += "."
    elif text.endswith("”") and not text.endswith((".”", "!”", "?”")):
        text += "."
    return text


# ---------------------------------------------------------------------------- the rulebook
class _Rulebook:
    """Puts one game into words; :meth:`render` gives the whole rulebook."""

    def __init__(self, game: m.Game):
        self.game = game
        self.lines_of_source = game.source.splitlines() if game.source else []
        g = game
        self.counters = {c.name: c for c in g.counters}
        self.seat_vars = {s.name: s for s in g.seats}
        self.groups = {gr.name for gr in g.groups}
        self.symbol_sets = {s.name: s.symbols for s in g.symbols}
        self.symbol_values = {sym: s.name for s in g.symbols for sym in s.symbols}
        self.value_names = {n.name: dict(n.pairs) for n in g.names}
        self.zones = {z.name: z for z in g.zones}
        self.claims = {c.name: c for c in g.claims}
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
        self.symbol_vars: dict[str, str] = {}
        self.kind_vars: set[str] = set()
        for node in self._all_nodes():
            self._note_variable(node)
        self.keep = frozenset(self.variables | {f"P{i}" for i in range(1, 65)})
        # how a seat acting now is called: "you" in the rules of an action, "the player" when
        # each seat is ranked or scored at the end
        self.mode = "you"
        self.in_template = False
        self.chosen_one = False         # the action being told chooses exactly one card
        self.subst: list[dict] = []
        self.calls = self._count_calls()
        self.inline = {name for name, k in self.calls.items()
                       if k == 1 and name in self.procedures and not self.procedures[name].params
                       and not self._calls_itself(name)}

    # ------------------------------------------------------------ model walking
    def _bodies(self):
        """Every block of statements of the game, with where it is."""
        g = self.game
        yield g.setup
        for p in g.procedures:
            yield p.body
        for ph in g.phases:
            for a in ph.actions:
                yield a.body
            if ph.after:
                yield ph.after
        yield g.match.between

    def _all_nodes(self):
        g = self.game
        for body in self._bodies():
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

    def _note_variable(self, node) -> None:
        if isinstance(node, m.Param):
            self.variables.add(node.name)
            if node.symbols and node.symbols != "seat":
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

    def _count_calls(self) -> dict:
        calls: dict = {}
        for body in self._bodies():
            for stmt in m.walk(body):
                if isinstance(stmt, m.Do):
                    calls[stmt.procedure] = calls.get(stmt.procedure, 0) + 1
        return calls

    def _calls_itself(self, name: str) -> bool:
        seen, todo = set(), [name]
        while todo:
            proc = self.procedures.get(todo.pop())
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

    def _flow_order(self):
        """The phases and procedures in the order play first reaches them from the setup;
        those never reached follow in the order of the file."""
        phases: list[str] = []
        procs: list[str] = []
        todo: list = [self.game.setup]

        def visit(body):
            for stmt in m.walk(body):
                if isinstance(stmt, (m.GoTo, m.Ask)) and stmt.phase in self.phases and stmt.phase not in phases:
                    phases.append(stmt.phase)
                    phase = self.phases[stmt.phase]
                    todo.extend(a.body for a in phase.actions)
                    if phase.after:
                        todo.append(phase.after)
                elif isinstance(stmt, m.Do) and stmt.procedure in self.procedures and stmt.procedure not in procs:
                    procs.append(stmt.procedure)
                    todo.append(self.procedures[stmt.procedure].body)

        while todo:
            visit(todo.pop(0))
        todo = [self.game.match.between]            # what runs between deals comes last
        while todo:
            visit(todo.pop(0))
        phases += [p.name for p in self.game.phases if p.name not in phases]
        procs += [p.name for p in self.game.procedures if p.name not in procs]
        return phases, procs

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

    def s(self, stmt) -> list:
        """A statement as lines (sentences, nested blocks one level deeper)."""
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None:
            return [_Line(0, self.sentence(f"do as the rules say: {self.fallback(stmt)}"))]
        return method(stmt)

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

    def block(self, stmts) -> list:
        """A block of statements as lines; a choice of cards that the next statement moves is
        told as one step ("move 1 card of your choice …"), as the file wrote it."""
        out: list = []
        stmts = tuple(stmts)
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            nxt = stmts[i + 1] if i + 1 < len(stmts) else None
            if (isinstance(stmt, m.ChooseCards) and not stmt.blind and nxt is not None
                    and isinstance(nxt, (m.Move, m.Shuffle)) and isinstance(getattr(nxt, "cards", None), m.Chosen)):
                out.extend(self._choice_moved(stmt, nxt))
                i += 2
                continue
            out.extend(self.s(stmt))
            i += 1
        return out

    # ------------------------------------------------------------ seats
    def _name(self, name: str) -> str:
        for frame in reversed(self.subst):
            if name in frame:
                return frame[name]
        if name == "actor":
            if self.in_template:
                return "the acting player"
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
                return f"{self._actor_poss()} {words(name)}"
            return words(name)
        if name in self.seat_vars:
            return "the " + words(name)
        if name in self.groups:
            return self._group(name)
        return words(name) if name not in self.symbol_values else name

    def _actor_poss(self) -> str:
        return "your" if self.mode == "you" and not self.in_template else "their" if not self.in_template \
            else "the acting player's"

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

    def _seats_others(self, node) -> str:
        return "the other players" if self.mode == "you" else "the players other than the acting player"

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
        return self._name(node.name)

    def _seats_except(self, node) -> str:
        return f"{self.x(node.base)} except {self.x(node.other)}"

    def _seats_where(self, node) -> str:
        return f"the players {node.name} among {self.x(node.base)} for whom {self.x(node.cond)}"

    def _seats_highest(self, node) -> str:
        return f"the player(s) {node.name} among {self.x(node.base)} with the highest {_strip_the(self.x(node.cond))}"

    def _seats_lowest(self, node) -> str:
        return f"the player(s) {node.name} among {self.x(node.base)} with the lowest {_strip_the(self.x(node.cond))}"

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
            return f"{self._actor_poss()} {name}"
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
        if node.seats is None:
            return f"every {name}"
        return f"the {name} of each of {self.x(node.seats)}"

    def x_EveryZone(self, node) -> str:
        return f"the {self.pieces} in {self._every_zone(node)}"

    def x_Portion(self, node) -> str:
        inner = node.cards
        if node.random:
            source = self.zone(inner) if isinstance(inner, m.ZoneRef) else self.x(inner)
            return f"{_count(node.count, self.piece, self.pieces)} picked at random from {source}"
        if isinstance(inner, m.ZoneRef):
            top = f"the top {self.piece}" if node.count == 1 else f"the top {node.count} {self.pieces}"
            return f"{top} of {self.zone(inner)}"
        top = "the topmost" if node.count == 1 else f"the {node.count} topmost"
        return f"{top} of {self.x(inner)}"

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
        if isinstance(cards, m.EveryZone):
            return f"the total number of {self.pieces} in {self._every_zone(cards)}"
        if isinstance(cards, m.ZoneRef):
            return f"the number of {self.pieces} in {self.zone(cards)}"
        return "the number of " + _strip_the(self.x(cards))

    def x_TotalOf(self, node) -> str:
        cards = _strip_the(self.x(node.cards))
        if node.attr in self.symbol_values or node.attr in self.symbol_vars:
            return f"the number of times {node.attr} is pictured on the {cards}"
        return f"the total {words(node.attr)} of the {cards}"

    def x_CardQuantifier(self, node) -> str:
        place = self._card_place(node.cards)
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
        return f"the claimed {words(node.field)}"

    def x_Beats(self, node) -> str:
        return f"{self.claim_text(node.claim, node.args)} beats the standing claim"

    def x_PlayerCount(self, node) -> str:
        return "the number of players"

    def x_Extreme(self, node) -> str:
        return f"the {'highest' if node.highest else 'lowest'} {words(node.name)} of any player"

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
        if isinstance(inner, m.NoClaim):
            return "a claim stands"
        if isinstance(inner, m.ClaimHolds):
            return "the claim is false" if inner.cards is None else f"the claim is false of {self.x(inner.cards)} alone"
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
        return f"it is not so that {self.x(inner)}"

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
            return f"{left} divided by {right}, rounded down"
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
            return f"{_QUANT[op]} {amount} of {pool} {self.p(where.pred, plural=True)}"
        if isinstance(left, m.PlayerCount) and isinstance(right, m.Num):
            quant = "" if op == "=" else _QUANT[op] + " "
            return f"there {'is' if right.value == 1 and op == '=' else 'are'} {quant}{right.value} players"
        words_ = _OPS[op][1] if self._plural_subject(left) else _OPS[op][0]
        plain = (lambda side: not (isinstance(side, m.BinOp) and side.op in _ARITH
                                   and not (side.op == "-" and isinstance(side.left, m.Num) and side.left.value == 0)))
        return f"{self.x(left, nested=plain(left))} {words_} {self.x(right, nested=plain(right))}"

    # ------------------------------------------------------------ texts with holes
    def template(self, t, subst: dict | None = None) -> str:
        """A quoted text of the file, each hole in words (a name as it is; anything else in [ ])."""
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
        if action.label is None:
            return _quote(words(action.name))
        return self.template(action.label)

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

    # ------------------------------------------------------------ statements
    def _one(self, text: str) -> list:
        return [_Line(0, self.sentence(text))]

    def s_Require(self, stmt) -> list:
        cond = self.x(stmt.cond)
        if isinstance(stmt.cond, m.Bool):
            return self._one("always allowed" if stmt.cond.value else "never allowed")
        reason = f" ({_quote(stmt.message)})" if stmt.message else ""
        return self._one(f"only if {cond}{reason}")

    def _how_many(self, low: int, high: int | None) -> str:
        if high is None:
            return f"{low} or more {self.pieces}"
        if high == low:
            return _count(low, self.piece, self.pieces)
        return f"{low} to {high} {self.pieces}"

    def s_ChooseCards(self, stmt) -> list:
        if stmt.blind:
            source = self.x(stmt.source)
            k = _count(stmt.low, self.piece, self.pieces)
            return self._one(f"choose {k} of {source} blind, by place from the top, without seeing "
                             f"{'it' if stmt.low == 1 else 'them'}")
        source = self.zone(stmt.source) if isinstance(stmt.source, m.ZoneRef) else self.x(stmt.source)
        return self._one(f"choose {self._how_many(stmt.low, stmt.high)} from {source}")

    def _choice_moved(self, choose, move) -> list:
        """``choose N from X`` and the move of the chosen cards right after it, in one sentence:
        "move 1 card of your choice from your hand to your mat" when the file wrote it so,
        else "choose … and lay them face down on …"."""
        source = self.zone(choose.source) if isinstance(choose.source, m.ZoneRef) else self.x(choose.source)
        amount = self._how_many(choose.low, choose.high)
        one = choose.low == choose.high == 1
        if isinstance(move, m.Shuffle):
            if choose.span.line and choose.span == move.span:
                return self._one(f"shuffle {amount} of your choice from {source} into {self.zone(move.zone)}")
            return self._one(f"choose {amount} from {source} and shuffle {'it' if one else 'them'} into "
                             f"{self.zone(move.zone)}")
        where = f"the bottom of {self.zone(move.dest)}" if move.bottom else self.zone(move.dest)
        if move.lay:
            claimed = f"it is the claimed {self.piece}" if one else f"they are the claimed {self.pieces}"
            return self._one(f"choose {amount} from {source} and lay {'it' if one else 'them'} face down on "
                             f"{self.zone(move.dest)}; {claimed}")
        if choose.span.line and choose.span == move.span:
            return self._one(f"move {amount} of your choice from {source} to {where}")
        return self._one(f"choose {amount} from {source} and move {'it' if one else 'them'} to {where}")

    def _range_end(self, expr, names: str | None) -> str:
        if names and isinstance(expr, m.Num) and expr.value in self.value_names.get(names, {}):
            return self.value_names[names][expr.value]
        return self.x(expr)

    def s_ChooseParam(self, stmt) -> list:
        d = stmt.domain
        name = stmt.name
        if d.kind == "range":
            what = f"a {words(stmt.names)}" if stmt.names else "a number"
            return self._one(f"choose {what} {name} from {self._range_end(d.low, stmt.names)} "
                             f"to {self._range_end(d.high, stmt.names)}")
        if d.kind == "symbols":
            symbols = self.symbol_sets.get(d.name, ())
            listed = _join(symbols, "or") if len(symbols) <= 8 else f"{symbols[0]} to {symbols[-1]}"
            return self._one(f"choose {_article(words(d.name))} {name}: {listed}")
        if d.kind == "seats":
            return self._one(f"choose a player {name} among {self.x(d.seats)}")
        if d.kind == "group":
            return self._one(f"choose {d.size} different players among {self.x(d.seats)}; they are {name}")
        return self._one(f"choose {name}: {self.fallback(d)}")

    def s_Move(self, stmt) -> list:
        cards = self.x(stmt.cards)
        if isinstance(stmt.cards, m.ZoneRef) and not stmt.lay:
            cards = f"the {self.pieces} in {self.zone(stmt.cards)}"
        if stmt.lay:
            return self._one(f"lay {cards} face down on {self.zone(stmt.dest)}; they are the claimed {self.pieces}")
        where = f"the bottom of {self.zone(stmt.dest)}" if stmt.bottom else self.zone(stmt.dest)
        return self._one(f"move {cards} to {where}")

    def s_Draw(self, stmt) -> list:
        src, dest = self.zone(stmt.source), self.zone(stmt.dest)
        count = stmt.count
        if isinstance(count, m.Roll):
            return self._one(f"roll the {words(count.die)} die and draw that many {self.pieces} from {src} "
                             f"into {dest}")
        if isinstance(count, m.Num):
            amount = _count(count.value, self.piece, self.pieces)
        else:
            amount = f"{self.x(count, nested=True)} {self.pieces}"
        return self._one(f"draw {amount} from {src} into {dest}")

    def s_Deal(self, stmt) -> list:
        count = stmt.count
        amount = (_count(count.value, self.piece, self.pieces) if isinstance(count, m.Num)
                  else f"{self.x(count, nested=True)} {self.pieces}")
        return self._one(f"deal {amount} from {self.zone(stmt.source)} to each player's {words(stmt.zone)}, "
                         f"one at a time, starting with P1")

    def s_Shuffle(self, stmt) -> list:
        if stmt.cards is None:
            return self._one(f"shuffle {self.zone(stmt.zone)}")
        cards = self.x(stmt.cards)
        return self._one(f"shuffle {cards} into {self.zone(stmt.zone)}")

    def s_Gather(self, stmt) -> list:
        dice = " (dice stay where they are)" if any(d.count for d in self.game.dice) and self.card_kinds else ""
        return self._one(f"gather all {self.pieces} into {self.zone(stmt.zone)}{dice}")

    def s_Reveal(self, stmt) -> list:
        cards = self.x(stmt.cards)
        if stmt.to is None:
            return self._one(f"reveal {cards} to everyone")
        if self._is_you(stmt.to):
            return self._one(f"you secretly look at {cards}")
        return self._one(f"show {cards} to {self.x(stmt.to)} alone")

    def s_Assign(self, stmt) -> list:
        target, value = stmt.target, stmt.value
        name = target.name
        if name in self.groups and target.seat is None and stmt.op in "+-":
            who = self.x(value)
            if stmt.op == "+":
                return self._one(f"{who} {self.verb(value, 'joins', 'join')} {self._group(name)}")
            return self._one(f"{who} {self.verb(value, 'leaves', 'leave')} {self._group(name)}")
        if stmt.op == "=" and target.seat is None and self._is_seat_name(name):
            seat = self.x(value)
            if name == "current":
                if self._is_you(value):
                    return self._one("it is now your turn")
                p = self.poss(value)
                return self._one(f"it is now {p} turn" if p else f"it is now the turn of {seat}")
            role = {"claimant": "the claimant", "actor": "the acting player"}.get(name, "the " + words(name))
            return self._one(f"{seat} {self.verb(value, 'becomes', 'become')} {role}")
        what = self._target(target)
        amount = self.x(value, nested=True)
        if stmt.op == "+":
            return self._one(f"add {amount} to {what}")
        if stmt.op == "-":
            return self._one(f"subtract {amount} from {what}")
        if (isinstance(value, m.BinOp) and value.op in "+-" and self._same_target(value.left, target)):
            by = self.x(value.right, nested=True)
            return self._one(f"{'increase' if value.op == '+' else 'decrease'} {what} by {by}")
        return self._one(f"set {what} to {self.x(value)}")

    def _is_seat_name(self, name: str) -> bool:
        return name in ("current", "claimant", "actor") or name in self.seat_vars

    def _target(self, target) -> str:
        if target.seat is not None:
            return self.of_seat(words(target.name), target.seat)
        return self._name(target.name)

    @staticmethod
    def _same_target(expr, target) -> bool:
        if target.seat is None:
            return isinstance(expr, m.Name) and expr.name == target.name
        return isinstance(expr, m.ValueOf) and expr.name == target.name and expr.seat == target.seat

    def s_MakeClaim(self, stmt) -> list:
        return self._one(f"claim {self.claim_text(stmt.claim, stmt.args)}")

    def s_ClearClaim(self, stmt) -> list:
        return self._one("clear the claim: no claim stands any more")

    def s_If(self, stmt) -> list:
        if isinstance(stmt.cond, m.Bool):           # a branch the file fixed: only one runs
            return self.block(stmt.then if stmt.cond.value else stmt.orelse)
        out = [_Line(0, self.sentence(f"if {self.x(stmt.cond)}:"))]
        out += _nest(self.block(stmt.then))
        orelse = stmt.orelse
        while len(orelse) == 1 and isinstance(orelse[0], m.If):
            inner = orelse[0]
            out.append(_Line(0, self.sentence(f"otherwise, if {self.x(inner.cond)}:"), goes_on=True))
            out += _nest(self.block(inner.then))
            orelse = inner.orelse
        if orelse:
            out.append(_Line(0, "Otherwise:", goes_on=True))
            out += _nest(self.block(orelse))
        return out

    def s_ForEach(self, stmt) -> list:
        seats = stmt.seats
        if seats.kind == "var" and seats.name in self.symbol_sets:
            head = f"for each {words(seats.name)} {stmt.var}, from {self.symbol_sets[seats.name][0]} up:"
        else:
            head = f"for each player {stmt.var} among {self.x(seats)}, in order:"
        return [_Line(0, self.sentence(head))] + _nest(self.block(stmt.body))

    def s_ForKinds(self, stmt) -> list:
        return [_Line(0, self.sentence(f"for each kind of {self.piece} {stmt.var} of the deck:"))] + \
            _nest(self.block(stmt.body))

    def s_ForRange(self, stmt) -> list:
        head = f"for each number {stmt.var} from {self.x(stmt.low)} to {self.x(stmt.high)}:"
        return [_Line(0, self.sentence(head))] + _nest(self.block(stmt.body))

    def s_Repeat(self, stmt) -> list:
        count = stmt.count
        times = "once" if isinstance(count, m.Num) and count.value == 1 else f"{self.x(count, nested=True)} times"
        return [_Line(0, self.sentence(f"repeat {times}:"))] + _nest(self.block(stmt.body))

    def s_GoTo(self, stmt) -> list:
        ref = self.phase_ref(stmt.phase, with_labels=self._is_window(stmt.phase))
        if stmt.start is not None:
            return self._one(f"go on to {ref}, starting with {self.x(stmt.start)}")
        return self._one(f"go on to {ref}")

    def _is_window(self, name: str) -> bool:
        phase = self.phases.get(name)
        return phase is not None and phase.kind != "turn"

    def s_Ask(self, stmt) -> list:
        phase = self.phases.get(stmt.phase)
        ref = self.phase_ref(stmt.phase, with_labels=True)
        if phase is not None and phase.kind == "turn":
            seat = stmt.seat
            if seat is None:
                text = f"the current player then takes {ref}"
            else:
                text = f"{self.x(seat)} then {self.verb(seat, 'takes', 'take')} {ref}"
        elif phase is not None and phase.kind == "vote":
            text = f"hold {ref}"
        else:
            text = f"open {ref}"
        if stmt.then:
            return [_Line(0, self.sentence(text + "; when it is over:"))] + _nest(self.block(stmt.then))
        return self._one(text)

    def s_Do(self, stmt) -> list:
        proc = self.procedures.get(stmt.procedure)
        name = _quote(words(stmt.procedure))
        if proc is not None and stmt.procedure in self.inline and not stmt.args:
            return [_Line(0, self.sentence(f"{words(stmt.procedure)}:"))] + _nest(self.block(proc.body))
        if stmt.args and proc is not None:
            values = _join([f"{param.name} = {self.x(arg)}" for param, arg in zip(proc.params, stmt.args)
                            if not (isinstance(arg, (m.Name, m.SeatName)) and arg.name == param.name)])
            return self._one(f"follow the steps {name}" + (f", with {values}" if values else ""))
        if stmt.args:
            return self._one(f"follow the steps {name}, with {_join([self.x(a) for a in stmt.args])}")
        return self._one(f"follow the steps {name}")

    def s_LetValue(self, stmt) -> list:
        return self._one(f"let {stmt.name} be {self.x(stmt.value)}")

    def s_LetGroup(self, stmt) -> list:
        group = self._group(stmt.name)
        return self._one(f"{group} {'is' if group.startswith('the group ') else 'are'} now {self.x(stmt.seats)}")

    def s_RemoveSeat(self, stmt) -> list:
        return self._one(f"{self.x(stmt.seat)} {self.verb(stmt.seat, 'leaves', 'leave')} {self._group(stmt.group)}")

    def s_KnockOut(self, stmt) -> list:
        remain = self.game.match.remain
        tail = f" (the match ends if only {_count(remain, 'player')} {'is' if remain == 1 else 'are'} left)" \
            if remain else ""
        return self._one(f"{self.x(stmt.seat)} {self.verb(stmt.seat, 'is', 'are')} out of the match{tail}")

    def s_RollDice(self, stmt) -> list:
        cards = stmt.cards
        if isinstance(cards, m.EveryZone):
            return self._one(f"roll the dice in {self._every_zone(cards)}, where they lie")
        if isinstance(cards, m.ZoneRef):
            return self._one(f"roll the dice in {self.zone(cards)}, where they lie")
        return self._one(f"roll the dice among {self.x(cards)}, where they lie")

    def s_EndDeal(self, stmt) -> list:
        return self._one("the deal ends")

    def s_EndTurn(self, stmt) -> list:
        return self._one("the turn ends here: the rest of its action is skipped")

    def s_Log(self, stmt) -> list:
        return self._one(f"announce {self.template(stmt.text)}")

    # ------------------------------------------------------------ sections
    def render(self) -> str:
        g = self.game
        low, high = g.players
        players = _count(low, "player") if low == high else f"{low} to {high} players"
        intro = f"A game for {players}."
        if g.applied:
            intro += f" These are its rules with the variant{'s' if len(g.applied) > 1 else ''} " + \
                _join([_quote(v) for v in g.applied]) + " applied."
        head = [f"# {g.title or 'Untitled game'}", "", intro]
        if g.applied:
            head += self.variant_section()
        body: list[str] = []
        body += self.components()
        body += self.claims_section()
        body += self.setup_section()
        phases, procs = self._flow_order()
        body += self.play_section(phases)
        body += self.procedures_section(procs)
        body += self.match_section()
        body += self.variants_list()
        out = head + self.terms("\n".join(head + body)) + body
        return "\n".join(out).rstrip("\n") + "\n"

    def terms(self, text: str) -> list[str]:
        """How to read the words the rulebook uses, for those it uses."""
        lines = []
        if re.search(r"\b[Yy]ou(r)?\b", text):
            lines.append("“You” is the player doing what is described: the player who acts.")
        known = (("the current player", "The current player is the player whose turn it is."),
                 ("the claimant", "The claimant is the player who made the standing claim."),
                 ("the standing claim", "The standing claim is the last claim made, until it is cleared."),
                 (f"the claimed {self.piece}", f"The claimed {self.pieces} are the {self.pieces} laid face down "
                                               "with the standing claim."),
                 ("out of the match", "A player out of the match takes no further part: play and every count "
                                      "of players pass over them."))
        lowered = text.lower()
        for phrase, line in known:
            if phrase in lowered:
                lines.append(line)
        if re.search(r"\bP\d+\b", text) or "to the left" in text or "to your left" in text or "clockwise" in text:
            lines.append("The players are P1, P2, … in seating order; clockwise is to the left: P2 sits to the "
                         "left of P1, and P1 to the left of the last player.")
        if not lines:
            return []
        return ["", "## How to read these rules", ""] + [f"- {line}" for line in lines]

    # ------------------------------------------------------------ components
    def components(self) -> list[str]:
        g = self.game
        out = ["", "## Components"]
        groups = self.card_groups(g)
        if groups:
            deck = g.deck_size
            each = sum(k.count for k in self.card_kinds if k.start)
            head = []
            if deck:
                head.append(f"the deck has {_count(deck, 'card')}")
            if each:
                head.append(f"each player has {_count(each, 'card')} of their own")
            out += ["", f"### Cards ({'; '.join(head)})" if head else "### Cards", ""]
            out += [f"- {self.line(*self.card_parts(card, kinds))}" for card, kinds in groups.items()]
        if g.dice:
            out += ["", "### Dice", ""] + [f"- {self.line(*self.die_parts(d))}" for d in g.dice]
        if g.symbols:
            out += ["", "### Symbols", ""]
            out += [f"- {words(sym.name)}: {' < '.join(sym.symbols)} (from lowest to highest)." for sym in g.symbols]
        if g.names:
            out += ["", "### Names of values", ""]
            for n in g.names:
                pairs = ", ".join(f"{v} is called {_quote(label)}" for v, label in n.pairs)
                out.append(f"- {words(n.name)}: {pairs}.")
        if g.zones:
            out += ["", f"### Zones (where the {self.pieces} lie)", ""]
            out += [f"- {self.line(*self.zone_parts(z))}" for z in g.zones]
        if g.counters:
            out += ["", "### Counters (they keep their values from deal to deal)", ""]
            out += [f"- {self.line(*self.counter_parts(c))}" for c in g.counters]
        if g.seats:
            out += ["", "### Players the rules name", ""]
            out += [f"- {self.line(*self.seat_parts(s))}" for s in g.seats]
        if g.groups:
            out += ["", "### Groups of players", ""]
            out += [f"- {words(gr.name)}: a group of players, empty until the rules fill it." for gr in g.groups]
        return out

    @staticmethod
    def line(name: str, parts: list[str]) -> str:
        return f"{name}: " + "; ".join(p for p in parts if p) + "."

    @staticmethod
    def card_groups(game) -> dict:
        """The kinds of cards (not dice) of ``game`` by the card declaration that made them."""
        groups: dict = {}
        for k in game.kinds:
            if k.die is None:
                groups.setdefault(k.card, []).append(k)
        return groups

    def card_parts(self, card: str, kinds: list) -> tuple[str, list[str]]:
        first = kinds[0]
        total = sum(k.count for k in kinds)
        if len(kinds) == 1:
            name = first.label
            if first.start:
                amount = f"{first.count} in each player's {words(first.start)} at the start of the match"
            else:
                amount = _count(first.count, "card")
        else:
            name = words(card)
            labels = [k.label for k in kinds]
            listed = ", ".join(labels) if len(labels) <= 13 else f"{labels[0]}, {labels[1]}, … {labels[-1]}"
            if first.start:
                amount = (f"{first.count} of each of {listed} in each player's {words(first.start)} at the start "
                          f"of the match")
            else:
                amount = f"{_count(total, 'card')}, {first.count} of each of {listed}"
        parts = [amount]
        if all(k.flags == first.flags for k in kinds):
            parts += sorted(words(f) for f in first.flags)
        else:
            for flag in sorted(set().union(*(k.flags for k in kinds))):
                parts.append(f"{words(flag)}: " + ", ".join(k.label for k in kinds if flag in k.flags))
        parts += self.attribute_words(kinds)
        return name, parts

    def attribute_words(self, kinds: list) -> list[str]:
        names: list[str] = []
        for k in kinds:
            for key, _ in k.attrs:
                if key not in names:
                    names.append(key)
        out: list[str] = []
        pictures: list[str] = []
        values_of = {key: [dict(k.attrs).get(key) for k in kinds] for key in names}
        for key in names:
            values = values_of[key]
            if key in self.symbol_values:
                present = [(k, v) for k, v in zip(kinds, values) if v is not None]
                if all(k.label == key and v == 1 for k, v in present):
                    continue            # a kind made from a symbol shows it once: its label says it
                if len(kinds) == 1:
                    pictures.append(key if values[0] == 1 else f"{key} ×{values[0]}")
                    continue
            if any(v is None for v in values):
                listed = ", ".join(f"{k.label}: {v}" for k, v in zip(kinds, values) if v is not None)
                out.append(f"{words(key)} ({listed})")
            elif len(set(values)) == 1:
                out.append(f"{words(key)} {values[0]}")
            else:
                same = next((other for other in names[:names.index(key)] if values_of[other] == values), None)
                if same is not None:
                    out.append(f"{words(key)} equal to the {words(same)}")
                elif values == list(range(values[0], values[0] + len(values))):
                    out.append(f"{words(key)} {values[0]} to {values[-1]}")
                else:
                    out.append(f"{words(key)} " + ", ".join(str(v) for v in values))
        if pictures:
            out.insert(0, "pictures " + ", ".join(pictures))
        return out

    def die_parts(self, d) -> tuple[str, list[str]]:
        parts = [f"a {d.sides}-sided die, faces 1 to {d.sides}"]
        if d.wild:
            parts.append(f"{_join([str(f) for f in d.wild])} {'is' if len(d.wild) == 1 else 'are'} wild")
        if d.names:
            parts.append(", ".join(f"{face} is called {_quote(label)}" for face, label in d.names))
        if d.count and d.zone:
            if d.each:
                parts.append(f"each player has {d.count} in their {words(d.zone)} from the start of the match")
            else:
                parts.append(f"{d.count} lie in the {words(d.zone)} from the start of the match")
        else:
            parts.append("it lies nowhere: it is thrown in the open when the rules say")
        return words(d.name), parts

    def zone_parts(self, z) -> tuple[str, list[str]]:
        what = self.pieces
        if z.per_player:
            where = "one for each player"
            seen = {"owner": f"its owner sees the {what} in it, the others only how many there are",
                    "all": f"the {what} lie face up",
                    "count": f"the {what} lie face down: everyone, its owner too, sees only how many there are",
                    "nobody": f"nobody sees the {what} in it, nor how many there are"}
        else:
            where = "on the table, shared"
            seen = {"owner": f"the {what} lie face down: everyone sees only how many there are",
                    "all": f"the {what} lie face up",
                    "count": f"the {what} lie face down: everyone sees only how many there are",
                    "nobody": f"nobody sees the {what} in it, nor how many there are"}
        parts = [where, seen.get(z.seen, words(z.seen))]
        if z.holds_deck:
            parts.append("all cards of the deck start here")
        if z.refill_from:
            parts.append(f"when a draw finds it empty, the {what} of the {words(z.refill_from)} are first "
                         f"shuffled into it")
        return words(z.name), parts

    def counter_parts(self, c) -> tuple[str, list[str]]:
        was = self.mode
        self.mode = "each" if c.per_player else was
        try:
            if c.names and isinstance(c.initial, m.Num):
                start = self._range_end(c.initial, c.names)
            else:
                start = self.x(c.initial)
        finally:
            self.mode = was
        parts = [("one for each player" if c.per_player else "one for the table") + f", starting at {start}"]
        seen = {"owner": "only its owner sees it", "nobody": "no player sees it (the rules keep it)"}
        parts.append(seen.get(c.seen, ""))
        return words(c.name), parts

    def seat_parts(self, s) -> tuple[str, list[str]]:
        if s.random:
            how = "a player drawn at random at the start of the match"
        elif s.initial is not None:
            how = f"at the start of the match, {self.x(s.initial)}"
        else:
            how = "set by the rules during play (P1 until then)"
        return f"the {words(s.name)}", [how]

    # ------------------------------------------------------------ claims
    def claims_section(self) -> list[str]:
        g = self.game
        if not g.claims:
            return []
        out = ["", "## Claims", "", "A player makes a claim with the words in quotes; it is judged only when "
               f"the rules ask whether it is true, on the {self.pieces} as they are then."]
        for c in g.claims:
            out += ["", f"### {words(c.name).capitalize()}" + (f": {self.template(c.label)}" if c.label else ""), ""]
            out += [f"- {line}" for line in self.claim_parts(c)]
        return out

    def claim_parts(self, c) -> list[str]:
        out = []
        if c.params:
            values = [f"{p.name} ({self._param_kind(p)})" for p in c.params]
            out.append(f"It states {_join(values)}.")
        if isinstance(c.truth, m.Bool):
            out.append(f"It is {'always' if c.truth.value else 'never'} true.")
        else:
            out.append(f"It is true when {self.x(c.truth)}.")
        order = self.claim_order(c)
        if order:
            out.append(order)
        return out

    def _param_kind(self, p) -> str:
        if p.symbols == "seat":
            return "a player"
        return _article(words(p.symbols)) if p.symbols else "a number"

    def claim_order(self, c) -> str:
        if c.ordering:
            kinds = {p.name: p.symbols for p in c.params if p.symbols and p.symbols != "seat"}
            keys = []
            for k in c.ordering:
                text = _strip_the(self.x(k))
                if isinstance(k, m.Name) and k.name in kinds:
                    text += f" (in the order of the {_plural(words(kinds[k.name]))})"
                keys.append(text)
            if len(keys) == 1:
                return f"A claim of this kind beats another when its {keys[0]} is higher."
            parts = [f"a higher {keys[0]}"]
            for i in range(1, len(keys)):
                parts.append(f"the same {_join(keys[:i])} and a higher {keys[i]}")
            return "A claim of this kind beats another when it has " + ", or ".join(parts) + "."
        if c.table:
            values = []
            for row in c.table:
                subst = {param.name: self.x(atom) for param, atom in zip(c.params, row)}
                values.append(self.template(c.label, subst) if c.label else
                              "(" + ", ".join(self.x(a) for a in row) + ")")
            return ("From lowest to highest, the claims of this kind that may be made are " + " < ".join(values)
                    + "; a claim beats another when it comes later.")
        if c.higher is not None:
            return f"A claim of this kind beats the standing one when {self.x(c.higher)}."
        return ""

    # ------------------------------------------------------------ flow
    def setup_section(self) -> list[str]:
        until = self.game.match.until
        several = until is not None and not (isinstance(until, m.Bool) and until.value)
        head = "## Setup (at the start of every deal)" if several else "## Setup"
        return ["", head, ""] + self.numbered(self.block(self.game.setup))

    def action_block(self, action) -> list:
        """The lines of an action; "the chosen card" when it chooses exactly one."""
        was = self.chosen_one
        self.chosen_one = any(isinstance(st, m.ChooseCards) and st.low == st.high == 1 for st in action.body)
        try:
            return self.block(action.body)
        finally:
            self.chosen_one = was

    def numbered(self, lines, indent: str = "") -> list[str]:
        """Lines as a numbered list (depth 0) with bullets below."""
        out = []
        k = 0
        for line in lines:
            if line.depth == 0 and line.goes_on and k:
                out.append(f"{indent}   {line.text}")
            elif line.depth == 0:
                k += 1
                out.append(f"{indent}{k}. {line.text}")
            else:
                out.append(f"{indent}{'   ' if k else ''}{'  ' * (line.depth - 1)}- {line.text}")
        return out

    @staticmethod
    def bulleted(lines, indent: str = "") -> list[str]:
        return [f"{indent}{'  ' * line.depth}- {line.text}" for line in lines]

    def play_section(self, order: list[str]) -> list[str]:
        out = ["", "## Play"]
        for name in order:
            out += self.phase_section(self.phases[name])
        return out

    def phase_intro(self, phase) -> str:
        seats = self.x(phase.seats) if phase.seats is not None else ""
        one = len(phase.actions) == 1
        if phase.kind == "turn":
            who = {"goto": "The current player", "ask": "The player asked to take this turn",
                   "both": "The current player, or the player asked to take this turn,"}[self._reached_by(phase.name)]
            return f"{who} does this:" if one else f"{who} does one of the following:"
        if phase.kind == "first":
            what = "the following" if one else "one of the following"
            return (f"These players are asked one at a time: {seats}. Each may decline or do {what}; the first who "
                    f"does takes the window, and the players after them are not asked:")
        if phase.kind == "each":
            return (f"These players are asked one at a time: {seats}. Each may decline or do "
                    f"{'this' if one else 'one of the following'}, once:")
        if phase.kind == "vote":
            return (f"These players vote: {seats}. Each chooses one of the following in secret; the votes are "
                    f"revealed together once all are cast, then take effect together:")
        return f"{seats}:"

    def phase_section(self, phase) -> list[str]:
        out = ["", f"### {self.phase_kind(phase).capitalize()}: {words(phase.name)}", "", self.phase_intro(phase), ""]
        for i, action in enumerate(phase.actions, 1):
            head = f"{i}. {self.action_label(action)}"
            if action.forced is not None:
                head += f" — while {self.x(action.forced)}, this is the only action allowed"
            out.append(head)
            out += self.bulleted(self.action_block(action), "   ")
        if phase.after is not None:
            out += ["", self.after_intro(phase)] + self.bulleted(self.block(phase.after))
        if phase.rotation is not None:
            out += ["", self.rotation_text(phase)]
        return out

    def _reached_by(self, name: str) -> str:
        """How play comes to a turn: "goto" (the current player takes it), "ask" (only asked of a
        named player) or "both"."""
        ways = set()
        for body in self._bodies():
            for stmt in m.walk(body):
                if isinstance(stmt, m.GoTo) and stmt.phase == name:
                    ways.add("goto")
                elif isinstance(stmt, m.Ask) and stmt.phase == name:
                    ways.add("ask" if stmt.seat is not None else "goto")
        if self.game.phases and any(ph.name == name and ph.rotation is not None for ph in self.game.phases):
            ways.add("goto")
        return "both" if len(ways) == 2 else ways.pop() if ways else "goto"

    @staticmethod
    def after_intro(phase) -> str:
        return {"turn": "After any of these actions (and whatever it leads to):",
                "first": "If nobody does:",
                "each": "When every player has been asked:",
                "vote": "Once the votes have taken effect:"}.get(phase.kind, "Afterwards:")

    def rotation_text(self, phase) -> str:
        among = f" among {self.x(phase.rotation.among)}" if phase.rotation.among is not None else ""
        return (f"Unless play went elsewhere, the turn then passes clockwise to the next player still in{among}, "
                f"who takes this same turn.")

    def procedures_section(self, order: list[str]) -> list[str]:
        shown = [name for name in order if name not in self.inline]
        if not shown:
            return []
        out = ["", "## Steps referred to above"]
        for name in shown:
            proc = self.procedures[name]
            head = f"### {_quote(words(name))}"
            if proc.params:
                head += " (given " + _join([f"{p.name}, {self._param_kind(p)}" for p in proc.params]) + ")"
            out += ["", head, ""] + self.numbered(self.block(proc.body))
        return out

    # ------------------------------------------------------------ the end
    def match_lines(self) -> list[str]:
        """The end of a deal and of the match, and how it is scored, as bullets."""
        match = self.game.match
        out = []
        until = match.until
        ends_deals = any(isinstance(s, m.EndDeal) for body in self._bodies() for s in m.walk(body))
        goes_on = until is not None and not (isinstance(until, m.Bool) and until.value)
        if until is None:
            if ends_deals or match.remain is None:
                out.append("- The match is a single deal: when the deal ends, the match is over.")
        elif isinstance(until, m.Bool) and not until.value:
            out.append("- When a deal ends, a new deal begins: only players leaving the match can end it.")
        elif isinstance(until, m.Bool):
            out.append("- The match is over when the first deal ends.")
        else:
            out.append(f"- When a deal ends, the match is over if {self.x(until)}.")
        if match.between and goes_on:
            out.append("- " + ("Otherwise, before" if not isinstance(until, m.Bool) else "Before") + " the next deal:")
            out += self.bulleted(_nest(self.block(match.between)))
        if goes_on:
            out.append("- Each new deal begins with the setup again; cards stay where they are until it moves them.")
        if match.remain is not None:
            n = match.remain
            out.append(f"- The match ends at once when only {_count(n, 'player')} {'is' if n == 1 else 'are'} "
                       f"left in it.")
        was = self.mode
        self.mode = "each"
        try:
            out += self._scoring(match)
        finally:
            self.mode = was
        return out

    def _scoring(self, match) -> list[str]:
        out = []
        knocks = match.remain is not None or self._knocks_out()
        if match.winners:
            keys = []
            for key in match.winners:
                text = self.x(key.expr)
                if text.startswith("their "):
                    text = text[len("their "):]
                keys.append(f"the {'highest' if key.highest else 'lowest'} {_strip_the(text)}")
            still = " still in the match" if knocks else ""
            line = f"- The winners are the players{still} with {keys[0]}"
            for key in keys[1:]:
                line += f"; among those tied, those with {key}"
            out.append(line + "; players tied on everything share the win.")
        elif match.remain == 1:
            out.append("- The last player left in the match wins.")
        elif knocks:
            out.append("- Every player still in the match at the end wins.")
        else:
            out.append("- Every player shares the win.")
        if match.returns is not None:
            out.append(f"- Each player's result is {self.x(match.returns)}.")
        else:
            out.append("- Each winner scores +1 and every other player -1.")
        return out

    def match_section(self) -> list[str]:
        return ["", "## End of the deal and of the match", ""] + self.match_lines()

    def _knocks_out(self) -> bool:
        return any(isinstance(s, m.KnockOut) for body in self._bodies() for s in m.walk(body))

    def variants_list(self) -> list[str]:
        g = self.game
        if not g.variants:
            return []
        out = ["", "## Variants", ""]
        for name, label in g.variants:
            mark = " (applied here)" if name in g.applied else ""
            out.append(f"- {name}{mark}" + (f": {label}" if label else "") + ".")
        out += ["", "`rulekit explain FILE --variant NAME` gives the rules with a variant and what it changes."]
        return out

    # ------------------------------------------------------------ variants
    def variant_section(self) -> list[str]:
        """What the applied variants change from the base game (read again from the source)."""
        g = self.game
        labels = dict(g.variants)
        extends: dict = {}
        try:
            from .transform import to_model

            extends = {i.name: i.extends for i in to_model(g.source, g.path).items if isinstance(i, m.VariantDecl)}
        except Exception:                   # the source is not at hand: every applied variant is named
            pass
        built_on = {base for name in g.applied for base in extends.get(name, ())}
        chosen = [name for name in g.applied if name not in built_on] or list(g.applied)
        names = ", ".join(chosen)
        out = ["", f"## Variant {names}", ""]
        for name in chosen:
            line = f"{name}: {labels[name]}." if labels.get(name) else f"{name}."
            bases = [b for b in g.applied if b in extends.get(name, ())]
            if bases:
                line += f" It builds on {_join(bases)}."
            out.append(line)
        out += ["", f"Variant {names} changes:", ""]
        try:
            from .check import loads

            base = loads(g.source, g.path, ())
        except Exception as exc:            # the base game alone does not load: say so, do not fail
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return out + [f"- (the base game could not be read to compare: {reason})"]
        changes = _Differences(base, self, _Rulebook(base)).lines()
        return out + (changes or ["- nothing: the rules are those of the base game."])


def _changed(name: str, new: list[str], old: list[str]) -> str:
    """``name: what is new (instead of: what was)`` from two lists of parts."""
    added = [p for p in new if p and p not in old]
    removed = [p for p in old if p and p not in new]
    if added and removed:
        return f"{name}: {'; '.join(added)} (instead of: {'; '.join(removed)})."
    if added:
        return f"{name}: now also {'; '.join(added)}."
    if removed:
        return f"{name}: no longer {'; '.join(removed)}."
    return f"{name}: changed."


class _Differences:
    """What a game with variants applied changes from its base game, in words."""

    def __init__(self, base: m.Game, new: _Rulebook, old: _Rulebook):
        self.base = base
        self.game = new.game
        self.new = new
        self.old = old

    def lines(self) -> list[str]:
        out: list[str] = []
        g, b = self.game, self.base
        if g.title != b.title:
            out.append(f"- The game is called {_quote(g.title)} (instead of {_quote(b.title)}).")
        if g.players != b.players:
            out.append(f"- It is for {self._players(g.players)} (instead of {self._players(b.players)}).")
        out += self._cards()
        out += self._named("die", g.dice, b.dice, lambda r, d: r.die_parts(d))
        out += self._named("symbol set", g.symbols, b.symbols, lambda r, sym: (words(sym.name), [" < ".join(sym.symbols)]))
        out += self._named("name of values", g.names, b.names,
                           lambda r, n: (words(n.name), [", ".join(f"{v} is called {_quote(t)}" for v, t in n.pairs)]))
        out += self._named("zone", g.zones, b.zones, lambda r, z: r.zone_parts(z))
        out += self._named("counter", g.counters, b.counters, lambda r, c: r.counter_parts(c))
        out += self._named("named player", g.seats, b.seats, lambda r, s: r.seat_parts(s))
        out += self._named("group", g.groups, b.groups, lambda r, gr: (words(gr.name), ["a group of players"]))
        out += self._claims()
        if g.setup != b.setup:
            out.append("- The setup becomes:")
            out += self.new.bulleted(self.new.block(g.setup), "  ")
        out += self._procedures()
        out += self._phases()
        if g.match != b.match:
            old = self.old.match_lines()
            changed = [line for line in self.new.match_lines() if line not in old]
            out.append("- At the end of the deal and of the match:")
            out += ["  " + line for line in changed] or ["  - (the same, written otherwise)"]
        return out

    @staticmethod
    def _players(pair) -> str:
        low, high = pair
        return _count(low, "player") if low == high else f"{low} to {high} players"

    def _cards(self) -> list[str]:
        new, old = self.new.card_groups(self.game), self.old.card_groups(self.base)
        out = []
        for card, kinds in new.items():
            if card not in old:
                out.append(f"- New cards: {self.new.line(*self.new.card_parts(card, kinds))}")
            elif kinds != old[card]:
                name, parts = self.new.card_parts(card, kinds)
                out.append("- " + _changed(name, parts, self.old.card_parts(card, old[card])[1]))
        for card, kinds in old.items():
            if card not in new:
                out.append(f"- No more {self.old.line(*self.old.card_parts(card, kinds))}")
        if self.game.deck_size != self.base.deck_size:
            out.append(f"- The deck has {_count(self.game.deck_size, 'card')} (instead of {self.base.deck_size}).")
        return out

    def _named(self, what: str, new_items, old_items, parts) -> list[str]:
        old = {i.name: i for i in old_items}
        new = {i.name: i for i in new_items}
        out = []
        for name, item in new.items():
            if name not in old:
                out.append(f"- A new {what}: {self.new.line(*parts(self.new, item))}")
            elif item != old[name]:
                label, now = parts(self.new, item)
                out.append(f"- The {what} " + _changed(label, now, parts(self.old, old[name])[1]))
        for name in old:
            if name not in new:
                out.append(f"- No more {what} {words(name)}.")
        return out

    def _claims(self) -> list[str]:
        old = {c.name: c for c in self.base.claims}
        out = []
        for c in self.game.claims:
            before = old.get(c.name)
            label = self.new.template(c.label) if c.label else _quote(words(c.name))
            if before is None:
                out.append(f"- A new claim, {words(c.name)} {label}:")
                out += [f"  - {line}" for line in self.new.claim_parts(c)]
                continue
            if c == before:
                continue
            if c.truth != before.truth:
                out.append(f"- The claim {words(c.name)} {label} is true when {self.new.x(c.truth)} (instead of: "
                           f"when {self.old.x(before.truth)}).")
            if (c.ordering, c.table, c.higher) != (before.ordering, before.table, before.higher):
                out.append(f"- Claims {words(c.name)}: {self.new.claim_order(c) or 'they are no longer ordered.'}")
            if c.label != before.label or c.params != before.params:
                out.append(f"- The claim {words(c.name)} is now announced as {label}.")
        names = {c.name for c in self.game.claims}
        out += [f"- No more claim {words(name)}." for name in old if name not in names]
        return out

    def _procedures(self) -> list[str]:
        old = {p.name: p for p in self.base.procedures}
        out = []
        for p in self.game.procedures:
            before = old.get(p.name)
            if before is not None and before == p:
                continue
            if before is None:
                out.append(f"- New steps {_quote(words(p.name))}:")
            else:
                out.append(f"- The steps {_quote(words(p.name))} become:")
            out += self.new.bulleted(self.new.block(p.body), "  ")
        names = {p.name for p in self.game.procedures}
        out += [f"- No more steps {_quote(words(name))}." for name in old if name not in names]
        return out

    def _phases(self) -> list[str]:
        old = {p.name: p for p in self.base.phases}
        out = []
        for phase in self.game.phases:
            before = old.get(phase.name)
            ref = self.new.phase_ref(phase.name)
            if before is None:
                out.append(f"- A new {self.new.phase_kind(phase)} {_quote(words(phase.name))}: see below.")
                continue
            if before == phase:
                continue
            if (before.kind, before.seats) != (phase.kind, phase.seats):
                out.append(f"- {ref[0].upper()}{ref[1:]}: {self.new.phase_intro(phase)[:-1]}.")
            olds = {a.name: a for a in before.actions}
            for a in phase.actions:
                was = olds.get(a.name)
                if was == a:
                    continue
                label = self.new.action_label(a)
                if was is None:
                    out.append(f"- In {ref}, a new action {label}:")
                else:
                    old_label = self.old.action_label(was)
                    renamed = f" (instead of {old_label})" if label != old_label else ""
                    out.append(f"- In {ref}, the action {label}{renamed} becomes:")
                if a.forced is not None:
                    out.append(f"  - While {self.new.x(a.forced)}, this is the only action allowed.")
                out += self.new.bulleted(self.new.action_block(a), "  ")
            names = {a.name for a in phase.actions}
            out += [f"- In {ref}, no more action {self.old.action_label(a)}." for n, a in olds.items() if n not in names]
            if before.after != phase.after:
                if phase.after is None:
                    out.append(f"- In {ref}, nothing more happens afterwards.")
                else:
                    out.append(f"- In {ref}, {self.new.after_intro(phase)[0].lower()}{self.new.after_intro(phase)[1:]}")
                    out += self.new.bulleted(self.new.block(phase.after), "  ")
            if before.rotation != phase.rotation:
                out.append(f"- In {ref}: " + (self.new.rotation_text(phase) if phase.rotation else
                                             "the turn no longer passes on by itself."))
        names = {p.name for p in self.game.phases}
        out += [f"- No more {self.old.phase_ref(name)}." for name in old if name not in names]
        return out
