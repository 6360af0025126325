"""The statements of a game in words: each statement of the model becomes lines, sentences
with the blocks it holds one level deeper, by one method named after its class (``s_``); a
statement without its method is written as the text of the file at its place. The values,
seats and cards in them are put into words by a :class:`~rulekit.explain.phrases._Phrases`.
"""

from __future__ import annotations

from ..lang import model as m
from .phrases import ACTOR, _Phrases
from .walk import calls_itself, count_calls
from .words import _Line, _article, _count, _join, _nest, _quote, words


class _Steps:
    """Puts the statements of one game into lines, with the words of its :class:`_Phrases`."""

    def __init__(self, say: _Phrases):
        self.say = say
        game = say.game
        # a procedure without values called once (and not by itself) is told where it is called
        self.inline = {name for name, k in count_calls(game).items()
                       if k == 1 and name in say.procedures and not say.procedures[name].params
                       and not calls_itself(game, name)}

    # ------------------------------------------------------------ dispatch
    def s(self, stmt) -> list:
        """A statement as lines (sentences, nested blocks one level deeper)."""
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None:
            return [_Line(0, self.say.sentence(f"do as the rules say: {self.say.fallback(stmt)}"))]
        return method(stmt)

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

    # ------------------------------------------------------------ statements
    def _one(self, text: str) -> list:
        return [_Line(0, self.say.sentence(text))]

    def s_Require(self, stmt) -> list:
        cond = self.say.x(stmt.cond)
        if isinstance(stmt.cond, m.Bool):
            return self._one("always allowed" if stmt.cond.value else "never allowed")
        reason = f" ({_quote(stmt.message)})" if stmt.message else ""
        return self._one(f"only if {cond}{reason}")

    def _how_many(self, low: int, high: int | None) -> str:
        if high is None:
            return f"{low} or more {self.say.pieces}"
        if high == low:
            return _count(low, self.say.piece, self.say.pieces)
        return f"{low} to {high} {self.say.pieces}"

    def s_ChooseCards(self, stmt) -> list:
        if stmt.blind:
            source = self.say.x(stmt.source)
            k = _count(stmt.low, self.say.piece, self.say.pieces)
            return self._one(f"choose {k} of {source} blind, by place from the top, without seeing "
                             f"{'it' if stmt.low == 1 else 'them'}")
        source = self.say.zone(stmt.source) if isinstance(stmt.source, m.ZoneRef) else self.say.x(stmt.source)
        return self._one(f"choose {self._how_many(stmt.low, stmt.high)} from {source}")

    def _choice_moved(self, choose, move) -> list:
        """``choose N from X`` and the move of the chosen cards right after it, in one sentence:
        "move 1 card of your choice from your hand to your mat" when the file wrote it so,
        else "choose … and lay them face down on …"."""
        source = self.say.zone(choose.source) if isinstance(choose.source, m.ZoneRef) else self.say.x(choose.source)
        amount = self._how_many(choose.low, choose.high)
        one = choose.low == choose.high == 1
        if isinstance(move, m.Shuffle):
            if choose.span.line and choose.span == move.span:
                return self._one(f"shuffle {amount} of your choice from {source} into {self.say.zone(move.zone)}")
            return self._one(f"choose {amount} from {source} and shuffle {'it' if one else 'them'} into "
                             f"{self.say.zone(move.zone)}")
        where = f"the bottom of {self.say.zone(move.dest)}" if move.bottom else self.say.zone(move.dest)
        if move.lay:
            claimed = f"it is the claimed {self.say.piece}" if one else f"they are the claimed {self.say.pieces}"
            return self._one(f"choose {amount} from {source} and lay {'it' if one else 'them'} face down on "
                             f"{self.say.zone(move.dest)}; {claimed}")
        if choose.span.line and choose.span == move.span:
            return self._one(f"move {amount} of your choice from {source} to {where}")
        return self._one(f"choose {amount} from {source} and move {'it' if one else 'them'} to {where}")

    def s_ChooseParam(self, stmt) -> list:
        d = stmt.domain
        name = stmt.name
        if d.kind == "range":
            what = f"a {words(stmt.names)}" if stmt.names else "a number"
            return self._one(f"choose {what} {name} from {self.say._range_end(d.low, stmt.names)} "
                             f"to {self.say._range_end(d.high, stmt.names)}")
        if d.kind == "symbols" and any(k.name == d.name for k in self.say.game.combination_kinds):
            return self._one(f"choose {_article(words(d.name))} {name}, one of the values of {_quote(words(d.name))} "
                             "(see Combinations)")
        if d.kind == "symbols":
            symbols = self.say.symbol_sets.get(d.name, ())
            listed = _join(symbols, "or") if len(symbols) <= 8 else f"{symbols[0]} to {symbols[-1]}"
            return self._one(f"choose {_article(words(d.name))} {name}: {listed}")
        if d.kind == "seats" and d.or_nobody:
            return self._one(f"choose a player {name} among {self.say.x(d.seats)}; if there is none, "
                             f"{name} is nobody")
        if d.kind == "seats":
            return self._one(f"choose a player {name} among {self.say.x(d.seats)}")
        if d.kind == "group":
            size = d.size.value if isinstance(d.size, m.Num) else self.say.x(d.size)
            return self._one(f"choose {size} different players among {self.say.x(d.seats)}; they are {name}")
        return self._one(f"choose {name}: {self.say.fallback(d)}")

    def s_Move(self, stmt) -> list:
        cards = self.say.x(stmt.cards)
        if isinstance(stmt.cards, m.ZoneRef) and not stmt.lay:
            cards = f"the {self.say.pieces} in {self.say.zone(stmt.cards)}"
        if stmt.lay:
            return self._one(f"lay {cards} face down on {self.say.zone(stmt.dest)}; "
                             f"they are the claimed {self.say.pieces}")
        where = f"the bottom of {self.say.zone(stmt.dest)}" if stmt.bottom else self.say.zone(stmt.dest)
        return self._one(f"move {cards} to {where}")

    def s_Swap(self, stmt) -> list:
        return self._one(f"swap the {self.say.pieces} of {self.say.zone(stmt.first)} with those of "
                         f"{self.say.zone(stmt.second)}")

    def s_Draw(self, stmt) -> list:
        src, dest = self.say.zone(stmt.source), self.say.zone(stmt.dest)
        count = stmt.count
        if isinstance(count, m.Roll):
            return self._one(f"roll the {words(count.die)} die and draw that many {self.say.pieces} from {src} "
                             f"into {dest}")
        if isinstance(count, m.Num):
            amount = _count(count.value, self.say.piece, self.say.pieces)
        else:
            amount = f"{self.say.x(count, nested=True)} {self.say.pieces}"
        return self._one(f"draw {amount} from {src} into {dest}")

    def s_Deal(self, stmt) -> list:
        count = stmt.count
        amount = (_count(count.value, self.say.piece, self.say.pieces) if isinstance(count, m.Num)
                  else f"{self.say.x(count, nested=True)} {self.say.pieces}")
        return self._one(f"deal {amount} from {self.say.zone(stmt.source)} to each player's {words(stmt.zone)}, "
                         f"one at a time, starting with P1")

    def s_Shuffle(self, stmt) -> list:
        if stmt.cards is None:
            return self._one(f"shuffle {self.say.zone(stmt.zone)}")
        cards = self.say.x(stmt.cards)
        return self._one(f"shuffle {cards} into {self.say.zone(stmt.zone)}")

    def s_Gather(self, stmt) -> list:
        dice = " (dice stay where they are)" if any(d.count for d in self.say.game.dice) and self.say.card_kinds else ""
        return self._one(f"gather all {self.say.pieces} into {self.say.zone(stmt.zone)}{dice}")

    def s_Reveal(self, stmt) -> list:
        cards = self.say.x(stmt.cards)
        if stmt.to is None:
            return self._one(f"reveal {cards} to everyone")
        if self.say._is_you(stmt.to):
            return self._one(f"you secretly look at {cards}")
        return self._one(f"show {cards} to {self.say.x(stmt.to)} alone")

    def s_RevealCounter(self, stmt) -> list:
        if stmt.seat is None and not stmt.yours:
            what = f"the {words(stmt.counter)}"
        else:
            what = "your " + words(stmt.counter) if stmt.yours else self.say.of_seat(words(stmt.counter), stmt.seat)
        if stmt.to is None:
            return self._one(f"tell everyone {what} (its value now)")
        if self.say._is_you(stmt.to):
            return self._one(f"you secretly learn {what}")
        return self._one(f"tell {self.say.x(stmt.to)} alone {what} (its value now)")

    def s_Assign(self, stmt) -> list:
        target, value = stmt.target, stmt.value
        name = target.name
        if name in self.say.groups and target.seat is None and stmt.op in "+-":
            who = self.say.x(value)
            if stmt.op == "+":
                return self._one(f"{who} {self.say.verb(value, 'joins', 'join')} {self.say._group(name)}")
            return self._one(f"{who} {self.say.verb(value, 'leaves', 'leave')} {self.say._group(name)}")
        if stmt.op == "=" and target.seat is None and self._is_seat_name(name):
            seat = self.say.x(value)
            if name == "current":
                if self.say._is_you(value):
                    return self._one("it is now your turn")
                p = self.say.poss(value)
                return self._one(f"it is now {p} turn" if p else f"it is now the turn of {seat}")
            role = {"claimant": "the claimant", "actor": ACTOR}.get(name, "the " + words(name))
            return self._one(f"{seat} {self.say.verb(value, 'becomes', 'become')} {role}")
        what = self._target(target)
        amount = self.say.x(value, nested=True)
        if stmt.op == "+":
            return self._one(f"add {amount} to {what}")
        if stmt.op == "-":
            return self._one(f"subtract {amount} from {what}")
        if (isinstance(value, m.BinOp) and value.op in "+-" and self._same_target(value.left, target)):
            by = self.say.x(value.right, nested=True)
            return self._one(f"{'increase' if value.op == '+' else 'decrease'} {what} by {by}")
        return self._one(f"set {what} to {self.say.x(value)}")

    def _is_seat_name(self, name: str) -> bool:
        return name in ("current", "claimant", "actor") or name in self.say.seat_vars

    def _target(self, target) -> str:
        if target.seat is not None:
            return self.say.of_seat(words(target.name), target.seat)
        return self.say._name(target.name)

    @staticmethod
    def _same_target(expr, target) -> bool:
        if target.seat is None:
            return isinstance(expr, m.Name) and expr.name == target.name
        return isinstance(expr, m.ValueOf) and expr.name == target.name and expr.seat == target.seat

    def s_MakeClaim(self, stmt) -> list:
        return self._one(f"claim {self.say.claim_text(stmt.claim, stmt.args)}")

    def s_ClearClaim(self, stmt) -> list:
        return self._one("clear the claim: no claim stands any more")

    def s_If(self, stmt) -> list:
        if isinstance(stmt.cond, m.Bool):           # a branch the file fixed: only one runs
            return self.block(stmt.then if stmt.cond.value else stmt.orelse)
        out = [_Line(0, self.say.sentence(f"if {self.say.x(stmt.cond)}:"))]
        out += _nest(self.block(stmt.then))
        orelse = stmt.orelse
        while len(orelse) == 1 and isinstance(orelse[0], m.If):
            inner = orelse[0]
            out.append(_Line(0, self.say.sentence(f"otherwise, if {self.say.x(inner.cond)}:"), goes_on=True))
            out += _nest(self.block(inner.then))
            orelse = inner.orelse
        if orelse:
            out.append(_Line(0, "Otherwise:", goes_on=True))
            out += _nest(self.block(orelse))
        return out

    def s_ForEach(self, stmt) -> list:
        seats = stmt.seats
        if seats.kind == "var" and seats.name in self.say.symbol_sets:
            head = f"for each {words(seats.name)} {stmt.var}, from {self.say.symbol_sets[seats.name][0]} up:"
        else:
            head = f"for each player {stmt.var} among {self.say.x(seats)}, in order:"
        return [_Line(0, self.say.sentence(head))] + _nest(self.block(stmt.body))

    def s_ForKinds(self, stmt) -> list:
        return [_Line(0, self.say.sentence(f"for each kind of {self.say.piece} {stmt.var} of the deck:"))] + \
            _nest(self.block(stmt.body))

    def s_ForRange(self, stmt) -> list:
        head = f"for each number {stmt.var} from {self.say.x(stmt.low)} to {self.say.x(stmt.high)}:"
        return [_Line(0, self.say.sentence(head))] + _nest(self.block(stmt.body))

    def s_Repeat(self, stmt) -> list:
        count = stmt.count
        times = "once" if isinstance(count, m.Num) and count.value == 1 else f"{self.say.x(count, nested=True)} times"
        return [_Line(0, self.say.sentence(f"repeat {times}:"))] + _nest(self.block(stmt.body))

    def s_GoTo(self, stmt) -> list:
        ref = self.say.phase_ref(stmt.phase, with_labels=self._is_window(stmt.phase))
        if stmt.start is not None:
            return self._one(f"go on to {ref}, starting with {self.say.x(stmt.start)}")
        return self._one(f"go on to {ref}")

    def _is_window(self, name: str) -> bool:
        phase = self.say.phases.get(name)
        return phase is not None and phase.kind != "turn"

    def s_Ask(self, stmt) -> list:
        phase = self.say.phases.get(stmt.phase)
        ref = self.say.phase_ref(stmt.phase, with_labels=True)
        if phase is not None and phase.kind == "turn":
            seat = stmt.seat
            if seat is None:
                text = f"the current player then takes {ref}"
            else:
                text = f"{self.say.x(seat)} then {self.say.verb(seat, 'takes', 'take')} {ref}"
        elif phase is not None and phase.kind == "vote":
            text = f"hold {ref}"
        else:
            text = f"open {ref}"
        if stmt.then:
            return [_Line(0, self.say.sentence(text + "; when it is over:"))] + _nest(self.block(stmt.then))
        return self._one(text)

    def s_Do(self, stmt) -> list:
        proc = self.say.procedures.get(stmt.procedure)
        name = _quote(words(stmt.procedure))
        if proc is not None and stmt.procedure in self.inline and not stmt.args:
            return [_Line(0, self.say.sentence(f"{words(stmt.procedure)}:"))] + _nest(self.block(proc.body))
        if stmt.args and proc is not None:
            values = _join([f"{param.name} = {self.say.x(arg)}" for param, arg in zip(proc.params, stmt.args)
                            if not (isinstance(arg, (m.Name, m.SeatName)) and arg.name == param.name)])
            return self._one(f"follow the steps {name}" + (f", with {values}" if values else ""))
        if stmt.args:
            return self._one(f"follow the steps {name}, with {_join([self.say.x(a) for a in stmt.args])}")
        return self._one(f"follow the steps {name}")

    def s_LetValue(self, stmt) -> list:
        # "named is the claimed b": a name for a value, as it is now ("let b be …" reads as algebra)
        return self._one(f"{stmt.name} is {self.say.x(stmt.value)}")

    def s_LetGroup(self, stmt) -> list:
        group = self.say._group(stmt.name)
        if stmt.seats.kind == "nobody":
            return self._one(f"{group} is now empty" if group.startswith("the group ")
                             else f"nobody is among {group} any more")
        return self._one(f"{group} {'is' if group.startswith('the group ') else 'are'} now {self.say.x(stmt.seats)}")

    def s_RemoveSeat(self, stmt) -> list:
        return self._one(f"{self.say.x(stmt.seat)} {self.say.verb(stmt.seat, 'leaves', 'leave')} "
                         f"{self.say._group(stmt.group)}")

    def s_KnockOut(self, stmt) -> list:
        remain = self.say.game.match.remain
        tail = f" (the match ends if only {_count(remain, 'player')} {'is' if remain == 1 else 'are'} left)" \
            if remain else ""
        return self._one(f"{self.say.x(stmt.seat)} {self.say.verb(stmt.seat, 'is', 'are')} out of the match{tail}")

    def s_RollDice(self, stmt) -> list:
        cards = stmt.cards
        if isinstance(cards, m.EveryZone):
            return self._one(f"roll the dice in {self.say._every_zone(cards)}, where they lie")
        if isinstance(cards, m.ZoneRef):
            return self._one(f"roll the dice in {self.say.zone(cards)}, where they lie")
        return self._one(f"roll the dice among {self.say.x(cards)}, where they lie")

    def s_EndDeal(self, stmt) -> list:
        return self._one("the deal ends")

    def s_EndTurn(self, stmt) -> list:
        return self._one("the turn ends here: the rest of its action is skipped")

    def s_Log(self, stmt) -> list:
        return self._one(f"announce {self.say.template(stmt.text)}")
