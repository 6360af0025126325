"""The rulebook writer: the sections of a game's rulebook in their order, from its model
(``rulekit explain``).

:func:`explain` is the entry point. :class:`_Rulebook` writes the sections (components,
claims, setup, play, shared steps, the end of a deal and of the match, variants) and lays
them out; the values, seats and cards in them are put into words by a
:class:`~rulekit.explain.phrases._Phrases`, the statements by a
:class:`~rulekit.explain.steps._Steps`, and what applied variants change by
:class:`~rulekit.explain.variants._Differences`.
"""

from __future__ import annotations

import re

from ..lang import model as m
from .phrases import _Phrases
from .steps import _Steps
from .variants import _Differences
from .walk import all_nodes, bodies, flow_order
from .words import _article, _count, _join, _nest, _plural, _quote, _strip_the, words

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
        game: a checked game, as :func:`rulekit.sema.load.load` returns it (variants applied or not).

    Returns:
        The rulebook, several lines of text.

    Raises:
        Nothing for a checked game: a construct without its own wording is written as the
        text of the file at its place. A ``TypeError`` only if ``game`` is not a
        :class:`~rulekit.lang.model.Game`.
    """
    if not isinstance(game, m.Game):
        raise TypeError(f"explain() needs a checked Game, not {type(game).__name__}")
    return _Rulebook(game).render()


def _cycles(values: list) -> bool:
    """Whether ``values`` are one run of consecutive numbers, repeated."""
    run = sorted(set(values))
    return len(run) > 1 and run == list(range(run[0], run[-1] + 1)) and len(values) % len(run) == 0 \
        and values == run * (len(values) // len(run))


class _Rulebook:
    """Puts one game into words; :meth:`render` gives the whole rulebook."""

    def __init__(self, game: m.Game):
        self.game = game
        self.say = _Phrases(game)             # values, seats, cards and conditions in words
        self.steps = _Steps(self.say)         # statements as lines

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
        phases, procs = flow_order(self.game)
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
        elif "the player who acts" in text:
            lines.append("The player who acts is the player doing what is described.")
        known = (("the current player", "The current player is the player whose turn it is."),
                 ("the claimant", "The claimant is the player who made the standing claim."),
                 ("the standing claim", "The standing claim is the last claim made, until it is cleared."),
                 (f"the claimed {self.say.piece}", f"The claimed {self.say.pieces} are the {self.say.pieces} laid "
                                                   "face down with the standing claim."),
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
            each = sum(k.count for k in self.say.card_kinds if k.start)
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
            ordered = self.ordered_symbols()
            out += [f"- {words(sym.name)}: {' < '.join(sym.symbols)} (from lowest to highest)." if sym.name in ordered
                    else f"- {words(sym.name)}: {_join(sym.symbols)}." for sym in g.symbols]
        if g.names:
            out += ["", "### Names of values", ""]
            for n in g.names:
                pairs = ", ".join(f"{v} is called {_quote(label)}" for v, label in n.pairs)
                out.append(f"- {words(n.name)}: {pairs}.")
        if g.tables:
            out += ["", "### Tables", ""]
            out += [f"- {self.line(*self.table_parts(t))}" for t in g.tables]
        if g.combinations:
            out += ["", "### Combinations", "", f"A combination is found among {self.say.pieces} when each of its "
                    f"parts can be given {self.say.pieces} of its own.", ""]
            out += [f"- {self.line(*self.combination_parts(c))}" for c in g.combinations]
            out += [f"- {self.line(*self.combination_order_parts(k))}" for k in g.combination_kinds]
        if g.zones:
            out += ["", f"### Zones (where the {self.say.pieces} lie)", ""]
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

    def ordered_symbols(self) -> set[str]:
        """The symbol sets whose order the rules use: a claim or an order of combinations
        ordered by one of its symbols, a claim's own ``higher`` rule over one, a comparison
        (< <= > >=) of its symbols, the highest or lowest of a card attribute it names, a run
        or a range over it. The others are told as a list of symbols, with no order."""
        g, say = self.game, self.say
        sets = set(say.symbol_sets)
        fields = {p.name: p.symbols for c in g.claims for p in c.params if p.symbols in sets}
        used = set()

        def of(expr) -> str | None:
            """The symbol set a value is one of, if it is one."""
            if isinstance(expr, (m.Name, m.SeatName)):
                return say.symbol_values.get(expr.name) or say.symbol_vars.get(expr.name)
            if isinstance(expr, m.ClaimedField):
                return fields.get(expr.field)
            return None

        for c in g.claims:
            kinds = {p.name: p.symbols for p in c.params if p.symbols in sets}
            if c.higher is not None:
                used.update(kinds.values())
            for key in c.ordering:
                used.update(kinds[n.name] for n in m.nodes(key) if isinstance(n, m.Name) and n.name in kinds)
        in_order = {name for k in g.combination_kinds for name in k.combinations}
        for c in g.combinations:
            if c.name in in_order:
                used.update(p.symbols for p in c.params if p.symbols in sets)
        nodes = list(all_nodes(g)) + [n for c in g.combinations for n in m.nodes(c)]
        for node in nodes:
            found: list = []
            if isinstance(node, m.BinOp) and node.op in ("<", "<=", ">", ">="):
                found = [of(node.left), of(node.right)]
            elif isinstance(node, m.CpCompare) and node.op in ("<", "<=", ">", ">="):
                found = [node.attr if node.attr in sets else None, of(node.value)]
            elif isinstance(node, (m.CardExtreme, m.ComboRun)):
                found = [node.attr if node.attr in sets else None]
            elif isinstance(node, m.Domain) and node.kind == "range":
                found = [of(node.low), of(node.high)]
            elif isinstance(node, m.MinMax):
                found = [of(a) for a in node.args]
            elif isinstance(node, m.OverSeats) and node.how in ("highest", "lowest"):
                found = [of(node.value)]
            used.update(f for f in found if f)
        return used - {s.name for s in g.symbols if not s.ordered}      # listed with commas: no order

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
            if key in self.say.symbol_values:
                present = [(k, v) for k, v in zip(kinds, values) if v is not None]
                if all((k.label == key or len(kinds) > 1 and k.label.split()[-1] == key) and v == 1
                       for k, v in present):
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
                elif _cycles(values):           # a range for each symbol ('ATTR LO..HI, each SYMBOLS')
                    sets = {self.say.symbol_values[n] for n in names if n in self.say.symbol_values}
                    each = f" in each {words(sets.pop())}" if len(sets) == 1 else ""
                    out.append(f"{words(key)} {min(values)} to {max(values)}{each}")
                else:
                    out.append(f"{words(key)} " + ", ".join(str(v) for v in values))
        if pictures:
            out.insert(0, "pictures " + ", ".join(pictures))
        return out

    def combination_parts(self, c) -> tuple[str, list[str]]:
        """A combination: its name and words, for which values, and the cards of each part."""
        say = self.say
        name = _quote(words(c.name)) + (f" ({say.template(c.label)})" if c.label is not None else "")
        values = _join([f"{_article(words(p.symbols or 'number'))} {p.name}" for p in c.params])
        when = f" when {say.x(c.when)}" if c.when is not None else ""
        parts = [f"for {values}{when}" if values else when.strip()]
        for part in c.parts:
            if isinstance(part, m.ComboRun):
                text = (f"{_count(part.length, say.piece, say.pieces)} with {words(part.attr)} in a row up to "
                        f"{say.x(part.top)}, one of each")
                if part.pred is not None:
                    text += f", that {say.p(part.pred, plural=True)}"
                text += "".join(f" ({words(part.attr)} {v} also counts as {w})" for v, w in part.also)
            else:
                text = f"{_count(part.count, say.piece, say.pieces)} that {say.p(part.pred, plural=part.count != 1)}"
            parts.append(text)
        return name, parts

    def combination_order_parts(self, k) -> tuple[str, list[str]]:
        """An order of combinations: the combinations from lowest to highest."""
        order = " < ".join(words(name) for name in k.combinations)
        return (f"the values of {_quote(words(k.name))}", [
            f"from lowest to highest, {order}, each with its values; of one combination, the higher values "
            "(the first first) are higher"])

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
                parts.append(f"{d.count} {'lies' if d.count == 1 else 'lie'} in the {words(d.zone)} "
                             "from the start of the match")
        else:
            parts.append("it lies nowhere: it is thrown in the open when the rules say")
        return words(d.name), parts

    @staticmethod
    def table_parts(t) -> tuple[str, list[str]]:
        """(the table's name, its rows in words: one part a row, read by place)."""
        rows = [", ".join(map(str, values)) if key is None else f"for {key}: {', '.join(map(str, values))}"
                for key, values in t.rows]
        return f"{_quote(words(t.name))}, by place (1 first)", rows

    def zone_parts(self, z) -> tuple[str, list[str]]:
        what = self.say.pieces
        if z.per_player:
            where = "one for each player"
            seen = {"owner": f"its owner sees the {what} in it, the others only how many there are",
                    "others": f"everyone but its owner sees the {what} in it (held to the forehead); "
                              "its owner sees only how many there are",
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
            parts.append(f"when a draw or a deal finds it empty, the {what} of the {words(z.refill_from)} are first "
                         f"shuffled into it")
        return words(z.name), parts

    def counter_parts(self, c) -> tuple[str, list[str]]:
        was = self.say.mode
        self.say.mode = "each" if c.per_player else was
        try:
            if c.names and isinstance(c.initial, m.Num):
                start = self.say._range_end(c.initial, c.names)
            else:
                start = self.say.x(c.initial)
        finally:
            self.say.mode = was
        parts = [("one for each player" if c.per_player else "one for the table") + f", starting at {start}"]
        seen = {"owner": "only its owner sees it", "nobody": "no player sees it (the rules keep it)"}
        parts.append(seen.get(c.seen, ""))
        return words(c.name), parts

    def seat_parts(self, s) -> tuple[str, list[str]]:
        if s.random:
            how = "a player drawn at random at the start of the match"
        elif s.initial is not None:
            how = f"at the start of the match, {self.say.x(s.initial)}"
        else:
            how = "set by the rules during play (P1 until then)"
        return f"the {words(s.name)}", [how]

    # ------------------------------------------------------------ claims
    def claims_section(self) -> list[str]:
        g = self.game
        if not g.claims:
            return []
        out = ["", "## Claims", "", "A player makes a claim with the words in quotes; it is judged only when "
               f"the rules ask whether it is true, on the {self.say.pieces} as they are then."]
        for c in g.claims:
            label = f": {self.say.template(c.label)}" if c.label else ""
            out += ["", f"### {words(c.name).capitalize()}{label}", ""]
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
            out.append(f"It is true when {self.say.x(c.truth)}.")
        order = self.claim_order(c)
        if order:
            out.append(order)
        return out

    def _param_kind(self, p) -> str:
        if p.symbols == "seats":
            return "a set of players"
        if p.symbols == "seat":
            return "a player"
        return _article(words(p.symbols)) if p.symbols else "a number"

    def claim_order(self, c) -> str:
        if c.ordering:
            kinds = {p.name: p.symbols for p in c.params if p.symbols and p.symbols not in ("seat", "seats")}
            keys = []
            for k in c.ordering:
                text = _strip_the(self.say.x(k))
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
            named = self.say.value_names
            for row in c.table:
                # a value the file names ('names NAME: 21 "TEXT"') by its name
                subst = {param.name: named[param.symbols][atom.value]
                         if isinstance(atom, m.Num) and atom.value in named.get(param.symbols, {})
                         else self.say.x(atom) for param, atom in zip(c.params, row)}
                values.append(self.say.template(c.label, subst) if c.label else
                              "(" + ", ".join(self.say.x(a) for a in row) + ")")
            return ("From lowest to highest, the claims of this kind that may be made are " + " < ".join(values)
                    + "; a claim beats another when it comes later.")
        if c.higher is not None:
            return f"A claim of this kind beats the standing one when {self.say.x(c.higher)}."
        return ""

    # ------------------------------------------------------------ flow
    def setup_section(self) -> list[str]:
        until = self.game.match.until
        several = until is not None and not (isinstance(until, m.Bool) and until.value)
        head = "## Setup (at the start of every deal)" if several else "## Setup"
        return ["", head, ""] + self.numbered(self.steps.block(self.game.setup))

    def action_block(self, action) -> list:
        """The lines of an action; "the chosen card" when it chooses exactly one."""
        was = self.say.chosen_one
        self.say.chosen_one = any(isinstance(st, m.ChooseCards) and st.low == st.high == 1 for st in action.body)
        try:
            return self.steps.block(action.body)
        finally:
            self.say.chosen_one = was

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
            out += self.phase_section(self.say.phases[name])
        return out

    def phase_intro(self, phase) -> str:
        seats = self.say.x(phase.seats) if phase.seats is not None else ""
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
        if phase.kind == "vote" and phase.anonymous:
            return (f"These players vote: {seats}. Each chooses one of the following in secret; the votes are "
                    f"never revealed (only what they do shows), and take effect together once all are cast:")
        if phase.kind == "vote":
            return (f"These players vote: {seats}. Each chooses one of the following in secret; the votes are "
                    f"revealed together once all are cast, then take effect together:")
        return f"{seats}:"

    def phase_section(self, phase) -> list[str]:
        kind = self.say.phase_kind(phase).capitalize()
        out = ["", f"### {kind}: {words(phase.name)}", "", self.phase_intro(phase), ""]
        for i, action in enumerate(phase.actions, 1):
            head = f"{i}. {self.say.action_label(action)}"
            if action.forced is not None:
                head += f" — while {self.say.x(action.forced)}, this is the only action allowed"
            out.append(head)
            out += self.bulleted(self.action_block(action), "   ")
        if phase.after is not None:
            closing = self.bulleted(self.steps.block(phase.after))
            if not closing and phase.kind != "turn":    # an asked window's empty block: back to the ask
                closing = [f"- Play goes back to what opened this {self.say.phase_kind(phase)}."]
            if closing:
                out += ["", self.after_intro(phase)] + closing
        if phase.rotation is not None:
            out += ["", self.rotation_text(phase)]
        return out

    def _reached_by(self, name: str) -> str:
        """How play comes to a turn: "goto" (the current player takes it), "ask" (only asked of a
        named player) or "both"."""
        ways = set()
        for body in bodies(self.game):
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
        among = f" among {self.say.x(phase.rotation.among)}" if phase.rotation.among is not None else ""
        return (f"Unless play went elsewhere, the turn then passes clockwise to the next player still in{among}, "
                f"who takes this same turn.")

    def procedures_section(self, order: list[str]) -> list[str]:
        shown = [name for name in order if name not in self.steps.inline]
        if not shown:
            return []
        out = ["", "## Steps referred to above"]
        for name in shown:
            proc = self.say.procedures[name]
            head = f"### {_quote(words(name))}"
            if proc.params:
                head += " (given " + _join([f"{p.name}, {self._param_kind(p)}" for p in proc.params]) + ")"
            out += ["", head, ""] + self.numbered(self.steps.block(proc.body))
        return out

    # ------------------------------------------------------------ the end
    def match_lines(self) -> list[str]:
        """The end of a deal and of the match, and how it is scored, as bullets."""
        match = self.game.match
        out = []
        until = match.until
        ends_deals = any(isinstance(s, m.EndDeal) for body in bodies(self.game) for s in m.walk(body))
        goes_on = until is not None and not (isinstance(until, m.Bool) and until.value)
        if until is None:
            if ends_deals or match.remain is None:
                out.append("- The match is a single deal: when the deal ends, the match is over.")
        elif isinstance(until, m.Bool) and not until.value:
            out.append("- When a deal ends, a new deal begins: only players leaving the match can end it.")
        elif isinstance(until, m.Bool):
            out.append("- The match is over when the first deal ends.")
        else:
            out.append(f"- When a deal ends, the match is over if {self.say.x(until)}.")
        if match.between and goes_on:
            out.append("- " + ("Otherwise, before" if not isinstance(until, m.Bool) else "Before") + " the next deal:")
            out += self.bulleted(_nest(self.steps.block(match.between)))
        if goes_on:
            out.append("- Each new deal begins with the setup again; cards stay where they are until it moves them.")
        if match.remain is not None:
            n = match.remain
            out.append(f"- The match ends at once when only {_count(n, 'player')} {'is' if n == 1 else 'are'} "
                       f"left in it.")
        was = self.say.mode
        self.say.mode = "each"
        try:
            out += self._scoring(match)
        finally:
            self.say.mode = was
        return out

    def _scoring(self, match) -> list[str]:
        out = []
        knocks = match.remain is not None or self._knocks_out()
        if match.winners:
            keys = []
            for key in match.winners:
                text = self.say.x(key.expr)
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
            self.say.exact = True           # a division in 'returns' is exact (a fraction)
            try:
                out.append(f"- Each player's result is {self.say.x(match.returns)}.")
            finally:
                self.say.exact = False
        else:
            out.append("- Each winner scores +1 and every other player -1.")
        return out

    def match_section(self) -> list[str]:
        return ["", "## End of the deal and of the match", ""] + self.match_lines()

    def _knocks_out(self) -> bool:
        return any(isinstance(s, m.KnockOut) for body in bodies(self.game) for s in m.walk(body))

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
            from ..lang.transform import to_model

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
            from ..sema.load import loads

            base = loads(g.source, g.path, ())
        except Exception as exc:            # the base game alone does not load: say so, do not fail
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return out + [f"- (the base game could not be read to compare: {reason})"]
        changes = _Differences(base, self, _Rulebook(base)).lines()
        return out + (changes or ["- nothing: the rules are those of the base game."])

