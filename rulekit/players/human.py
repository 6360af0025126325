"""A person at the terminal: sees its seat's view and options, types a choice, is asked again
after a bad entry (with the reason)."""

from __future__ import annotations

import re
from typing import Callable

from rich.console import Console
from rich.markup import escape

from ..errors import RulesRuntimeError, shown_text
from ..engine import DECLINE_ACTION, Action, Decision, Engine, View
from ..engine.state import known_least
from ..engine.narrate import seat_name

#: what a person types at a window's prompt to let it pass (Enter is the empty line)
DECLINE_WORDS = ("", "n", "no", "decline", "pass")
#: what a person types at a question about cards or a value to choose another option
BACK_WORD = "back"
#: what a person types at any prompt to be asked at every window again
ALWAYS_WORDS = ("always", "windows")
#: what a person types at a question about a value to see every value it offers, when the
#: question names only some (more than ``LONGEST_LIST`` of them)
LIST_WORD = "list"
#: a question about a value names at most this many values; it names the first
#: ``LIST_HEAD`` (fewer when their names are longer than ``LIST_HEAD_WIDTH`` characters
#: together, at least 3) and the last of a longer list, and how many there are
LONGEST_LIST = 20
LIST_HEAD = 8
LIST_HEAD_WIDTH = 60
COMMANDS = ("Type an option's number or name, or a whole move on one line (the option, then its cards and values); at a "
            "question about cards or a value, 'back' returns to the options; a value is typed by its name or, "
            "where no name has a digit, its place among those offered (1 for the first), and 'list' shows every "
            "value when the question "
            "names only some (Tab completes a name). Other commands: history "
            "(everything you have seen this match) · rules (the rulebook of the game) · help (this list) · "
            "always (be asked at every window again).")
WINDOW_COMMANDS = ("In a window: Enter declines · never: not asked in that window again this deal · "
                   "only N: asked only about claims of N cards or more, this deal · "
                   "'… for the match' ('never for the match', 'only 3 for the match'): for the rest of the match.")
#: the same, for a game whose claims lay no cards
WINDOW_COMMANDS_NO_CARDS = ("In a window: Enter declines · never: not asked in that window again this deal · "
                            "never for the match: not asked in that window again this match.")
WINDOW_HELP = ("Enter: decline · never: not again this deal · only N: only for claims of N+ cards · "
               "… for the match · always")
#: the same, for a game whose claims lay no cards ('only N' counts the claimed cards)
WINDOW_HELP_NO_CARDS = "Enter: decline · never: not again this deal · never for the match · always"
#: the check's answers to an action cut short after a choice (rulekit.engine.codegen's
#: ``checker``): the choices still to come are missing, nothing is wrong with those made
_INCOMPLETE = ("this action takes a different number of values", "choose which card, counting from the top")
#: how seats and groups of seats are named (rulekit.engine.narrate.seat_name): 'P2', 'P2 P3'
_SEATS = re.compile(r"P\d+( P\d+)*")
#: a count typed before a card's name: '2x', '2×' (alone), or '2xCARD' (the name after it)
_TIMES = re.compile(r"^(\d{1,3})[x×](.*)$")
#: two numbers typed without spaces around the '×' a label writes between them: '4x3'
_BY = re.compile(r"^(\d{1,9})[x×](\d{1,9})$")


class _Back(Exception):
    """'back' typed at a question about cards or a value: the options are asked again."""


class _WholeLine(Exception):
    """A line naming the one option, typed at the first question asked straight away for
    it (the option's name, then its cards and values): it is read as a line typed at the
    options."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class HotSeat:
    """Several people at one keyboard: before a seat's decision that follows another seat's,
    the screen is cleared and the keyboard passed, so that no seat sees another's hand; the
    first decision's seat is asked for too (the public lines before it stay on the screen)."""

    def __init__(self):
        self.last: int | None = None

    def hand_over(self, player: "HumanPlayer", seat: int) -> None:
        if self.last is None:
            player.ask(f"give the keyboard to {seat_name(seat)} and press Enter")
        elif self.last != seat:
            clear_screen(player.console)
            player.ask(f"pass the keyboard to {seat_name(seat)} and press Enter")
            clear_screen(player.console)
        self.last = seat


def clear_screen(console: Console) -> None:
    """Clear the screen and, on a terminal, its scroll-back too (ESC[3J), so that the next
    person cannot scroll up to the previous one's hand."""
    console.clear()
    if console.is_terminal:
        console.file.write("\x1b[3J")
        console.file.flush()


def card_label(engine: Engine, kind: int) -> str:
    """A card's label as the human screen shows it: in brackets when it holds '×' (a card
    that pictures several symbols, 'B1×2 B2 B3', or a card named '×2'), so that it reads as
    one card next to the screen's '2×' counts and other cards."""
    label = engine.kind_label(kind)
    return f"[{label}]" if "×" in label else label


def grouped_text(engine: Engine, cards) -> str:
    """Cards grouped by kind, in kind order: '3×A, B' (three of A, one B); '(empty)' for none."""
    if not cards:
        return "(empty)"
    counts: dict = {}
    for k in sorted(cards):
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(f"{n}×{card_label(engine, k)}" if n > 1 else card_label(engine, k) for k, n in counts.items())


def received_lines(engine: Engine, events, seat: int, n: int) -> list[str]:
    """What ``events`` put into the zones of ``seat`` from zones not its own, as that seat
    sees it: '  you get CARD, 2×CARD in your hand' per zone (none for cards it may not see)."""
    got: dict = {}
    for event in events:
        if event.kind not in ("move", "draw"):
            continue
        data = engine.observe(event, seat, n).data
        zone, owner = engine.cg.zone_owner(data["to"], n)
        sources = data.get("from")
        sources = sources if isinstance(sources, (list, tuple)) else [sources]
        if owner != seat or not data["cards"] or None in data["cards"] \
                or all(engine.cg.zone_owner(s, n)[1] == seat for s in sources):
            continue
        got.setdefault(engine.cg.zones[zone].name, []).extend(data["cards"])
    return [f"  you get {grouped_text(engine, cards)} in your {name}" for name, cards in got.items()]


def yours(line: str, seat: int) -> str:
    """A line of play-by-play with ``seat`` marked as the reader's own: 'P1 (you) bids 3'."""
    name = seat_name(seat)
    body = line.lstrip(" ")
    if body.startswith(name + " "):
        return line[:len(line) - len(body)] + f"{name} (you)" + body[len(name):]
    return line


class HumanPlayer:
    """Reads choices from ``ask`` (a prompt function) and prints to ``console``.

    Args:
        engine: the engine of the game (for card names).
        console: where the view and the options are shown.
        ask: returns one line typed by the person for a prompt; raises EOFError at the end
            of input.
        hot_seat: shared by the people of one keyboard (see :class:`HotSeat`).
        recap: before each decision, print what happened since the last one (the events
            the seat perceived); False when a narrator already prints every step on the
            same screen.
        ask_always: ask every decision, also one with a single legal action (by default
            that action is taken and told: ``(only one choice: …)``).
    """

    #: the match runner gives this player its public history (View.history)
    uses_history = True
    #: at most this many of the events since the last decision are printed
    recent = 12

    def __init__(self, engine: Engine, console: Console, ask: Callable[[str], str],
                 hot_seat: HotSeat | None = None, recap: bool = True, ask_always: bool = False):
        self.engine = engine
        self.console = console
        self.ask = ask
        self.hot_seat = hot_seat       # shared by the people at one keyboard, or None
        self.recap = recap             # show the events since the last decision (False: a narrator shows them)
        self.ask_always = ask_always   # ask also a decision with one legal action
        self._seen = 0                 # events of the history already shown
        # per window (phase name): "never", or the fewest claimed cards worth asking about;
        # for the rest of the deal ``self._deal`` / of the match (the deal's rule first)
        self._filters: dict = {}
        self._match_filters: dict = {}
        self._deal = None
        # the actions with cards this seat took: (length of its history then, action)
        self._mine: list = []
        self._checking = True          # sub-answers are checked (not after the match refused one)
        # (the option's name, the decision, whether it is the one option asked straight away)
        # while the questions of an option are asked: a whole move typed there is read as such
        self._asking = None
        #: what Tab completes at this player's prompts now (see :func:`tab_completion`)
        self.words: tuple = ()
        from ..lang import model as m

        # whether a claim may cover several cards (an action that lays what it chooses, more
        # than one): only then does 'only N' mean anything
        self._lays = any(isinstance(node, m.Move) and node.lay for node in m.nodes(engine.game)) and any(
            isinstance(node, m.ChooseCards) and (node.high is None or node.high > 1)
            for p in engine.game.phases for a in p.actions for node in m.nodes(a))
        # the names of the game's cards, as typed; cards are typed by their place in the
        # listing too, unless a card's name is a number (a '10' typed would be the tenth
        # card or a 10): then only by name
        self._card_names = frozenset(engine.kind_label(k).lower() for k in range(len(engine.kinds)))
        self._cards_by_place = not any(_number(name) is not None for name in self._card_names)

    # -- display
    def show(self, view: View, decision: Decision) -> None:
        c = self.console
        c.print()
        news = self.history_lines(view, self._seen)
        self._seen = len(view.history)
        if news and self.recap:
            c.rule("since your last decision")
            if len(news) > self.recent:
                c.print(f"… ({len(news) - self.recent} earlier)", markup=False)
            for line in news[-self.recent:]:
                c.print(line, markup=False, highlight=False)
        called = _spoken(decision.phase)
        what = "your turn" if decision.kind == "turn" else \
            f"{called} (everyone chooses at once)" if decision.kind == "vote" else f"{called} (your call)"
        c.rule(f"{seat_name(view.seat)}, your decision: {what}")
        for line in self.screen(view):
            c.print(line, markup=False, highlight=False)

    def history_lines(self, view: View, start: int = 0) -> list[str]:
        """The lines of this seat's history from event ``start``: its own actions marked
        '(you)', each followed by the cards it chose ('  (you chose: CARD, CARD)'), which the
        others did not see but it did, or by what it voted for."""
        me, lines = view.seat, []
        mine = [(at, text) for at, text in self._mine if at >= start]
        for i in range(start, len(view.history)):
            event = view.history[i]
            line = self.engine.describe_event(event, view.players)
            if line:
                lines.append(yours(line, me))
            if mine and i >= mine[0][0] and event.kind in ("action", "voted") and event.data.get("seat") == me:
                lines.append(f"  (you chose: {mine.pop(0)[1]})")
        return lines

    def screen(self, view: View) -> list[str]:
        """The state as this seat sees it, compactly: its own zones (cards grouped and
        sorted), the shared zones (the cards of a zone the seat sees in brackets, else how many), one line per other seat (its zones, the counters anyone
        may see, whether it is out), the counters of the table, the groups of seats and who
        is in each, the standing claim in its words and what the seat knows of hidden cards."""
        me = view.seat
        lines = []
        per_seat: dict = {s: [] for s in range(view.players)}
        shared = []
        for slot, (name, owner, count, cards) in enumerate(view.zones):
            name = _spoken(name)
            # a zone that holds only dice counts dice
            dice = view.dice[slot] if view.dice and view.dice[slot] is not None else ()
            shown = self.grouped(cards) if cards is not None else _count(count, count and sum(dice) == count)
            if owner == me:
                lines.append(f"your {name}: {shown}")
                continue
            if cards:
                shown = f"[{shown}]"        # cards, not a count: 'NAME [CARD]' beside 'NAME 5 cards'
            if owner is None:
                shared.append(f"{name} {shown}")
            else:
                per_seat[owner].append(f"{name} {shown}")
        table_counters = []
        for name, value in view.counters:
            name = _spoken(name)
            if isinstance(value, tuple):
                for s, v in enumerate(value):
                    if v is not None:
                        if s == me:
                            lines.append(f"your {name}: {v}")
                        else:
                            per_seat[s].append(f"{name} {v}")
            elif value is not None:
                table_counters.append(f"{name} {value}")
        if shared or table_counters:
            lines.append("table: " + " · ".join(shared + table_counters))
        for s in range(view.players):
            if s == me:
                continue
            out = view.out[s] if view.out else 0
            mark = " (out)" if out else ""
            lines.append(f"{seat_name(s)}{mark}: " + (" · ".join(per_seat[s]) or "-"))
        # the groups of seats (who is still in the bidding, who has challenged)
        groups = [f"{_spoken(name)}: " + (", ".join(seat_name(s) + (" (you)" if s == me else "") for s in seats)
                                          or "nobody") for name, seats in view.groups]
        if groups:
            lines.append(" · ".join(groups))
        if view.claim is not None:
            claimant, count = view.claim[2], view.claim[3]
            cards = f" ({_count(count)})" if count else ""
            whose = "your standing claim" if claimant == me else f"standing claim of {seat_name(claimant)}"
            lines.append(f"{whose}: {view.claim_text}{cards}")
        # what the seat knows of each zone it does not see, one line a zone (see known_least)
        shown = {(name, owner) for name, owner, _, cards in view.zones if cards is not None}
        for (name, owner), least in known_least(view).items():
            if (name, owner) in shown:
                continue
            name = _spoken(name)
            where = f"the {name}" if owner is None else f"your {name}" if owner == me \
                else f"the {name} of {seat_name(owner)}"
            lines.append(f"you know {where} holds: {self.grouped(sorted(least.elements()))}")
        return lines

    def grouped(self, cards) -> str:
        """Cards grouped by kind, in kind order: '3×A, B' (three of A, one B); '(empty)' for none."""
        return grouped_text(self.engine, cards)

    def cards_text(self, cards) -> str:
        return ", ".join(card_label(self.engine, k) for k in cards)

    # -- input
    def choose(self, view: View, decision: Decision) -> Action:
        """The action typed for ``decision``.

        A decision with a single legal action is not asked (unless ``ask_always``): the
        action is taken and told. A typed action is first tried on ``decision.check``,
        which answers from a state sampled from the seat's view; the match judges the
        answer on the true state. When it rejected this seat's previous answer
        (``decision.rejected``), its reason is printed and the next typed action goes to
        the match unchecked (the sample misjudged).
        """
        rejected = getattr(decision, "rejected", None)
        window = decision.kind in ("first", "each") and any(o.name == DECLINE_ACTION.name for o in decision.options)
        if view.deal != self._deal:             # the filters of a deal last for that deal
            self._deal = view.deal
            self._filters.clear()
        if window and rejected is None and self._skip(view, decision):
            return DECLINE_ACTION
        if rejected is None and self.hot_seat is not None:
            # first, even for a decision with one possible action: that it has one may
            # follow from the seat's hidden cards, which the others must not learn
            self.hot_seat.hand_over(self, view.seat)
        only = None if rejected is not None or self.ask_always else self._only_action(decision)
        if only is not None:
            self._tell_only(view, decision, only)
            return self._remember(view, only, decision)
        if rejected is None:
            self.show(view, decision)
        else:       # the same decision again: the view was just shown
            self.console.print(f"[red]Not allowed: {escape(str(rejected[1]))}.[/red] Try again.")
        # sub-answers are checked, unless the match refused one or the checks are a guess
        self._checking = rejected is None and not decision.guessed
        self.words = self.completions(decision, window)
        self._list_options(decision.options, window, view.claim is not None)
        # one option (that takes cards or values): its questions are asked straight away,
        # until 'back' asks for the option (to type it with its cards on one line)
        straight = len(decision.options) == 1 and not window and not self.ask_always
        while True:
            try:
                action = self._read(decision.options, decision.phase if window else None, view, decision,
                                    straight=straight)
            except _Back:
                straight = False
                self._list_options(decision.options, window, view.claim is not None)
                continue
            except ValueError as exc:
                self._say(str(exc))
                continue
            reason = None if rejected is not None or decision.guessed else decision.check(action)
            if reason is None:
                return self._remember(view, action, decision)
            self.console.print(f"[red]Not allowed: {escape(reason)}.[/red] Try again.")

    def _list_options(self, options, window: bool, claim: bool = True) -> None:
        """The options, numbered, and a line of what else may be typed (in a window with
        no standing claim (``claim`` False), nothing about the cards claims cover)."""
        for i, o in enumerate(options, 1):
            self.console.print(f"  [bold]{i}[/bold]. {escape(_spoken(o.name))}: {escape(o.label)}")
        if window:
            shown = WINDOW_HELP if self._lays and claim else WINDOW_HELP_NO_CARDS
            self.console.print(f"  [dim]{escape(shown)}[/dim]")
        else:
            self.console.print("  [dim]help · history · rules[/dim]")

    def _say(self, message: str) -> None:
        """A bad entry, explained; the question is asked again."""
        self.console.print(f"[red]{escape(shown_text(message))}[/red] — try again.")

    def _only_action(self, decision: Decision) -> Action | None:
        """The one legal action of ``decision``, or None when it has several (or they cannot
        be listed). At one keyboard, a choice of cards or a vote is still asked: taking it
        unasked would show the others what the seat holds or votes."""
        if decision.actions is None or decision.guessed:
            return None
        try:
            actions = decision.actions(limit=2)
        except (ValueError, RulesRuntimeError):
            return None
        if len(actions) != 1:
            return None
        if self.hot_seat is not None and (actions[0].cards or decision.kind == "vote"):
            return None
        return actions[0]

    def _tell_only(self, view: View, decision: Decision, action: Action) -> None:
        """One line saying which action was taken for the seat, its only choice."""
        option = next((o for o in decision.options if o.name == action.name), None)
        what = action.name if option is None else self.action_text(option, action)
        who = f"{seat_name(view.seat)}: " if self.hot_seat is not None else ""
        self.console.print(f"({who}only one choice: {what})", markup=False, highlight=False)

    def action_text(self, option, action: Action) -> str:
        """A concrete action in words: its option's label, its holes ('…') filled with the
        values chosen where they fit, else the cards and values after it in brackets."""
        values = []
        for i, value in enumerate(action.params):
            allowed = list(option.params[i][1]) if i < len(option.params) else []
            names = option.shown[i] if i < len(option.shown) else ()
            values.append(names[allowed.index(value)] if value in allowed and len(names) == len(allowed)
                          else str(value))
        label = option.label
        if values and not action.cards and label.count("…") == len(values):
            for name in values:
                label = label.replace("…", name, 1)
            return label
        extra = ([self.cards_text(action.cards)] if action.cards and self.hot_seat is None else []) + values
        return f"{label} ({'; '.join(extra)})" if extra else label

    def _remember(self, view: View, action: Action, decision: Decision | None = None) -> Action:
        """``action``, noted for the history when it chose cards (the seat saw them) or is a
        vote's choice of values (the vote shows the others only its action)."""
        text = None
        if action.cards:
            text = self.cards_text(action.cards)
        elif decision is not None and decision.kind == "vote" and action.params:
            option = next((o for o in decision.options if o.name == action.name), None)
            text = None if option is None else self.action_text(option, action)
        if text:
            self._mine.append((len(view.history), text))
        return action

    def completions(self, decision: Decision, window: bool = False) -> tuple:
        """What may be typed at this decision's prompts, for Tab: the commands, the options'
        names, the names of the cards they choose from and of their values (lower case, as
        typed; a name of several words is one completion)."""
        words = ["help", "history", "rules", "always"] + (["never"] + ["only"] * self._lays if window else [])
        for o in decision.options:
            words.append(o.name.lower())
            if o.cards is not None:
                words.extend(self.engine.kind_label(k).lower() for k in o.cards)
            for names in o.shown:
                words.extend(str(v).lower() for v in names)
        return tuple(dict.fromkeys(words))

    def _command(self, word: str, view: View | None) -> bool:
        """Answer ``help``, ``history``, ``rules`` or ``always``; False for anything else."""
        c = self.console
        if word in ("help", "?"):
            c.print(COMMANDS, markup=False)
            c.print(WINDOW_COMMANDS if self._lays else WINDOW_COMMANDS_NO_CARDS, markup=False)
        elif word == "history" and view is not None:
            for line in self.history_lines(view) or ["(nothing yet)"]:
                c.print(line, markup=False, highlight=False)
        elif word == "rules":
            from ..explain import explain        # the rulebook written from the rules (rulekit explain)

            c.print(explain(self.engine.game), markup=False, highlight=False, soft_wrap=True)
        elif word in ALWAYS_WORDS:
            self._filters.clear()
            self._match_filters.clear()
            c.print("  you will be asked at every window again", markup=False)
        else:
            return False
        return True

    def _prompt(self, question: str, view: View | None) -> str:
        """The line typed for ``question``, once it is no command (commands are answered
        and the question asked again).

        Raises:
            _WholeLine: at a question asked straight away for the one option, the line
                begins with that option's name, or with an action of the phase not offered
                now (whose reason is then told).
        """
        while True:
            text = self.ask(question).strip()
            words = text.split()
            if self._asking is not None and words:
                asked, decision, straight = self._asking
                name, used = _option_name(words, {asked: None})     # 'NAME WITH SPACES P2', 'NAME!'
                # at the one option's question, its name alone or an action not offered; at
                # another option's, its name and more (a name alone may be a card's too)
                if (used and (straight or len(words) > used)) or (straight and self._not_offered(name, decision)):
                    raise _WholeLine(text)
            if not self._command(text.lower(), view):
                return text

    def _skip(self, view: View, decision: Decision) -> bool:
        """Whether this window is declined without asking, by the filter the person set
        (this deal's, else the match's)."""
        rule = self._filters.get(decision.phase, self._match_filters.get(decision.phase))
        if rule is None:
            return False
        if rule == "never":
            return True
        covered = view.claim[3] if view.claim is not None else 0
        return covered < rule

    def _window_word(self, text: str, window: str, view: View | None) -> Action | None:
        """Enter, ``never`` or ``only N`` (each optionally ``… for the match``) typed at a
        window: DECLINE_ACTION when it declines this one, None when ``text`` is none of them.

        Raises:
            ValueError: 'only' without a number, or where claims cover no cards; or this
                claim covers enough cards to be asked (the options are asked again).
        """
        word = text.lower()
        if word in DECLINE_WORDS:
            return DECLINE_ACTION
        words, match = _for_the_match(re.sub(r"^only(?=\d)", "only ", word).split())
        if not words or words[0] not in ("never", "only") or (words[0] == "never" and len(words) > 1):
            return None
        span = "this match" if match else "this deal"
        called = _spoken(window)
        if words[0] == "never":
            self._set_filter(window, "never", match)
            self.console.print(f"  you will not be asked in '{called}' again {span}", markup=False)
            return DECLINE_ACTION
        if not self._lays:
            raise ValueError("'only N' counts the cards a claim covers, and no claim of this game covers "
                             "more than one card: use 'never' or Enter")
        count = _number("".join(words[1:]))
        if count is None:
            raise ValueError("write 'only N' with a number of cards, e.g. 'only 3' (or 'only 3 for the match')")
        self._set_filter(window, count, match)
        self.console.print(f"  {span} you will be asked in '{called}' only when the claim covers "
                           f"{count} card{'s' if count != 1 else ''} or more", markup=False)
        covered = view.claim[3] if view is not None and view.claim is not None else 0
        if covered < count:
            return DECLINE_ACTION
        raise ValueError("this claim covers enough cards: choose an option")

    def _set_filter(self, window: str, rule, match: bool) -> None:
        """Set the filter of ``window`` for the deal, or for the match (then the deal's goes)."""
        if match:
            self._match_filters[window] = rule
            self._filters.pop(window, None)
        else:
            self._filters[window] = rule

    def _read(self, options, window: str | None = None, view: View | None = None,
              decision: Decision | None = None, straight: bool = False) -> Action:
        """One answer to the decision: an option, then its cards and values (typed on the
        same line or asked one question at a time; a bad sub-answer asks that question again);
        ``straight``: the one option is taken without asking, its questions asked at once.

        Raises:
            ValueError: the option is not one of ``options`` (or a window word was wrong).
            _Back: 'back' was typed at a question about cards or a value.
        """
        text = None
        while True:             # a whole move may be typed at any question of its option ('give 4 as 5')
            try:
                if text is None and straight:
                    option = options[0]
                    self._asking = (option.name.lower(), decision, True)
                    cards = self._cards(option, None, view, decision) if option.cards is not None else ()
                    return Action(option.name, cards, self._values(option, cards, None, view, decision))
                if text is None:
                    text = self._prompt("choose an option by number or name", view)
                return self._line_action(text, options, window, view, decision, straight)
            except _WholeLine as line:
                text = line.text
            finally:
                self._asking = None

    def _line_action(self, text: str, options, window: str | None, view: View | None,
                     decision: Decision | None, straight: bool = False) -> Action:
        """The action of a line typed at the options (its cards and values asked when left
        off): what :meth:`_read` does with it.

        Raises:
            as :meth:`_read`.
        """
        if window is not None:
            declined = self._window_word(text, window, view)
            if declined is not None:
                return declined
        option, rest = self._option(text, options, decision)
        self._asking = (option.name.lower(), decision, straight)
        card_tokens, value_tokens = self._split_line(option, rest)
        cards = self._cards(option, card_tokens, view, decision) if option.cards is not None else ()
        params = self._values(option, cards, value_tokens, view, decision)
        return Action(option.name, cards, params)

    def _option(self, text: str, options, decision: Decision | None) -> tuple:
        """(the option named or numbered by the first word of ``text``, the words after it);
        a line that names no action, or numbers one that takes nothing and has words after
        the number, is all of the values of the one option taking values (no cards) that
        reads it whole ('P2' for 'turn_up P2', '3 fives' or '2 fives' for 'bid 3 fives').

        Raises:
            ValueError: none is; the message says why an action of the phase is not offered.
        """
        tokens = text.split()
        if not tokens:
            raise ValueError(f"type an option's number 1..{len(options)} or its name ('help' says what else)")
        number = _number(tokens[0])
        if number is not None and 1 <= number <= len(options):
            valued = next((o for o in options if len(tokens) == 1 and o.cards is None and o.params
                           and tokens[0] in map(str, self._offered(decision, o, (), [], o.params[0][1],
                                                                   self._value_names(o, 0))[1])), None)
            if valued is not None and valued is not options[number - 1]:   # '2': option 2, or a value of another?
                picked, other = _spoken(options[number - 1].name), _spoken(valued.name)
                raise ValueError(f"'{tokens[0]}' is option {number} ({picked}) and also a value of '{other}': "
                                 f"type '{picked}' or '{other} {tokens[0]}'")
            numbered = options[number - 1]
            if len(tokens) > 1 and numbered.cards is None and not numbered.params:
                valued = self._all_values_of(tokens, options)      # '2 fives': not 'liar fives'
                if valued is not None:
                    return valued, tokens
            return numbered, tokens[1:]
        by_name = {o.name.lower(): o for o in options}
        name, used = _option_name(tokens, by_name)
        if used:
            return by_name[name], tokens[used:]
        why = self._not_offered(name, decision)
        if why is None:
            valued = self._all_values_of(tokens, options)
            if valued is not None:          # the words are the values of one option
                return valued, tokens
        if why is None and tokens[0].lower() == BACK_WORD:
            why = f"these are the options: type one's number 1..{len(options)} or its name"
        meant = _begun(name, [_spoken(o.name) for o in options]) if name else None
        hint = f" (did you mean {meant}?)" if meant else ""
        raise ValueError((why or f"'{shown_text(text)}' is not one of the options 1..{len(options)}") + hint)

    def _all_values_of(self, words: list, options):
        """The one option of ``options`` that takes values and no cards and of which
        ``words`` name values and nothing else (the first ones, the rest to be asked), else
        None (none does, or several do)."""
        fits = []
        for option in options:
            if option.cards is None and option.params:
                groups, named, left = self._value_groups(option, words)
                if named and groups and not left:       # values, not only words of the label
                    fits.append(option)
        return fits[0] if len(fits) == 1 else None

    def _split_line(self, option, rest: list) -> tuple[list | None, list | None]:
        """The words typed after the option's name on its line: (those naming cards, the
        values named, one text per value, the first ones only when the rest are to be
        asked); each None when it is to be asked. A value's name may have several words
        ('two pairs', 'P2 P3'), and words of the option's label between them are skipped
        (with a label 'gives … as …': 'give CARD as VALUE'); the values follow the cards.

        Raises:
            ValueError: the line holds more than the option takes.
        """
        nvalues = len(option.params)
        if not rest:
            return None, None
        if option.cards is None:
            if "×" in option.label:             # '4x3', '4×3': as the label writes '4 × 3'
                rest = [part for w in rest for part in (_BY.sub(r"\1 × \2", w).split())]
            groups, _, left = self._value_groups(option, rest)
            if left and not self._said(option, left):      # the label said again: 'NAME with the VALUE'
                raise ValueError(self._too_much(option, left))
            return None, groups
        if not nvalues:
            rest = self._before_cards(option, rest)     # 'NAME with a CARD'
            end = self._cards_end(option, rest)
            if end is None:
                return rest, None
            if not self._said(option, rest[end:]):        # 'give CARD as 3' when 'give' takes no value
                raise ValueError(self._too_much(option, rest[end:]))
            return rest[:end], None                       # the label said again: 'give CARD as 2' ('gives … as 2')
        fillers = self._fillers(option)
        for split in range(len(rest)):      # the fewest words naming the cards, then every value
            groups, named, left = self._value_groups(option, rest[split:])
            if named and not left and len(groups) == nvalues:
                # a value that could be a card's name too ('give 4 4') is one only after
                # a word of the label ('give 4 as 4'); else every word is a card
                if (not split or rest[split - 1].lower() not in fillers) and rest[split].lower() not in fillers \
                        and groups[0].split()[0].lower() in self._card_names:
                    continue
                return rest[:split] or None, groups
        end = self._cards_end(option, rest)
        if end is not None:                 # cards, a word of the label, then values not offered
            groups, _, left = self._value_groups(option, rest[end:])
            if left:
                raise ValueError(self._too_much(option, left))
            return rest[:end], groups
        return rest, None                   # no values after them: all cards, the values asked

    def _before_cards(self, option, words: list) -> list:
        """``words`` without the joining words or words of ``option``'s label before its
        cards ('with a 2' is '2'; 'a' stays where it names a card)."""
        fillers = self._fillers(option)
        at = 0
        while at < len(words) - 1 and words[at].lower() in fillers and words[at].lower() not in self._card_names:
            at += 1
        return words[at:]

    def _said(self, option, words: list) -> bool:
        """Whether ``words`` only say ``option``'s label again (its words, in any case and
        without their punctuation, its name, joining words): 'call NAME' for 'calls NAME!';
        or the words of its questions ('NAME 2 NOUNS' where it asks 'how many NOUNS?')."""
        label = {w.strip("!?.,:;()").lower() for w in option.label.replace("…", " ").split()}
        asked = {w.strip("!?.,:;()").lower() for q in option.prompts if q for w in q.split()}
        said = label | asked | self._fillers(option) | set(_spoken(option.name).lower().split())
        for word in words:
            word = word.strip("!?.,:;").lower()
            if word not in said and word + "s" not in asked:      # 'NOUN' where it asks 'how many NOUNS?'
                return False
        return True

    def _cards_end(self, option, words: list) -> int | None:
        """Where the cards typed among ``words`` end when a word of ``option``'s label
        follows them (the words before it name cards of the option, the word itself none;
        the most words that do): its place, else None (also when every word names cards)."""
        fillers = self._fillers(option)
        pool = list(option.cards)
        try:
            self._parse_cards(words, pool)
            return None                     # every word names cards ('CARD and a CARD')
        except ValueError:
            pass
        for end in range(len(words) - 1, 0, -1):
            if words[end].lower() in fillers and words[end].lower() not in self._card_names:
                try:
                    self._parse_cards(words[:end], pool)
                except ValueError:
                    continue
                return end
        return None

    @staticmethod
    def _fillers(option) -> set:
        """The words and signs of ``option``'s label that may be typed between its cards and
        values ('as', 'from', '×'), and the little words of English that join them ('NAME with
        the VALUE'), in lower case."""
        said = {w.lower() for w in option.label.replace("…", " ").split()
                if w.isalpha() or not any(c.isalnum() for c in w)}
        if "×" in said:
            said.add("x")                   # '2 x 3', as a keyboard types '2 × 3'
        return (said | _JOINING) - {option.name.lower()}

    def _value_groups(self, option, words: list, first: int = 0) -> tuple[list, bool, list]:
        """``words`` read as the values of ``option``'s choices from the ``first`` on:
        (one text per value, in order, as many as the words give; whether each names one
        of the values offered; the words left over). A value takes the most words that
        name one (else one word, or for the last choice the words left, to be refused
        with the reason); a word of the option's label that names no value is skipped
        before one."""
        fillers = self._fillers(option)
        groups: list = []
        named = True
        j = 0
        for i in range(first, len(option.params)):
            values = option.params[i][1]
            names = self._value_names(option, i)
            longest = max((len(str(n).split()) for n in names), default=1)

            def names_one(length: int) -> bool:
                raw = " ".join(words[j:j + length])
                return self._parse_value(raw, values, names) is not None or _by_place(raw, values, names) is not None
            while j < len(words) and words[j].lower() in fillers \
                    and not any(names_one(k) for k in range(min(longest, len(words) - j), 0, -1)):
                j += 1
            if j >= len(words):
                break
            length = next((k for k in range(min(longest, len(words) - j), 0, -1) if names_one(k)), None)
            if length is None:
                length, named = 1 if i + 1 < len(option.params) else len(words) - j, False
            groups.append(" ".join(words[j:j + length]))
            j += length
        return groups, named, words[j:]

    @staticmethod
    def _value_names(option, i: int) -> tuple:
        """How the values of ``option``'s choice ``i`` are named to people."""
        return option.shown[i] if i < len(option.shown) else tuple(map(str, option.params[i][1]))

    @staticmethod
    def _too_much(option, left: list) -> str:
        """Why words typed after ``option`` (``left`` of them over) are refused."""
        nvalues = len(option.params)
        questions = "; ".join(q for q in option.prompts if q)
        takes = (f"takes {nvalues} value{'' if nvalues == 1 else 's'}" + (f" ({questions})" if questions else "")
                 if nvalues else "takes no value")
        return f"'{_spoken(option.name)}' {takes}: '{shown_text(' '.join(left))}' is more than that"

    def _cards(self, option, tokens: list | None, view: View | None, decision: Decision | None) -> tuple:
        """The cards of ``option``: from ``tokens`` (typed after its name) or asked, and
        asked again until they parse and pass the check.

        Raises:
            _Back: 'back' was typed.
        """
        pool = list(option.cards)
        listed = False
        while True:
            asked = tokens is None
            if tokens is None:
                if not listed:
                    listing = ("  ".join(f"{i}:{card_label(self.engine, k)}" for i, k in enumerate(pool, 1))
                               if self._cards_by_place else self.grouped(pool))
                    self.console.print(f"  cards: {listing}", markup=False)
                    listed = True
                how = f"their names (2x for two alike) or numbers 1..{len(pool)}" if self._cards_by_place else \
                    "their names (2x for two alike)"
                tokens = self._prompt(f"which cards ({_how_many(option.low, option.high)})? {how}", view).split()
                tokens = self._before_cards(option, tokens)
            try:
                cards = self._parse_cards(tokens, pool)
                self._sub_check(decision, option, Action(option.name, cards, ()))
                why = self._no_value_fits(decision, option, cards)
                if why is not None:
                    raise ValueError(f"Not allowed with those cards: {why}")
                return cards
            except ValueError as exc:
                if asked:
                    self._other_option(tokens, decision)
                    self._cards_and_values(option, tokens)
                self._sub_wrong(tokens, exc)
                tokens = None

    def _no_value_fits(self, decision: Decision | None, option, cards: tuple) -> str | None:
        """Why no value of the first choice of ``option`` may follow ``cards`` (the reason
        the check gives the first of them), or None when one may, or the check cannot
        tell: the cards are then refused at once, not after every value was (a bid of one
        card that must beat one of two)."""
        if not option.params:
            return None
        reasons = self._reasons(decision, option, cards, [], option.params[0][1])
        return None if reasons is None or None in reasons else reasons[0]

    def _reasons(self, decision: Decision | None, option, cards: tuple, params: list, values) -> list | None:
        """Why each of ``values`` may not be the next choice of ``option`` after ``cards``
        and ``params`` (None where it may, or where only later choices are missing); None
        when nothing is checked (an exact option, or after the match refused an answer)."""
        if option.exact or decision is None or decision.check is None or not self._checking:
            return None
        given = len(params) + 1
        later = option.params[given][1] if given < len(option.params) else ()
        reasons = []
        for v in values:
            reason = decision.check(Action(option.name, cards, tuple(params) + (v,)))
            if reason is not None and _incomplete(reason, option, given):
                reason = None
                if later:       # a value no value of the next choice may follow is refused at once
                    nexts = [decision.check(Action(option.name, cards, tuple(params) + (v, w))) for w in later]
                    if not any(r is None or _incomplete(r, option, given + 1) for r in nexts):
                        reason = nexts[0]
            reasons.append(reason)
        return reasons

    def _values(self, option, cards: tuple, tokens: list | None, view: View | None,
                decision: Decision | None) -> tuple:
        """The values of ``option``, each from ``tokens`` or asked, and asked again until it
        is one of those offered and passes the check; a value the rules leave one choice
        for is taken and told, not asked (unless ``ask_always``).

        Raises:
            _Back: 'back' was typed.
        """
        params: list = []
        tokens = list(tokens or ())
        for i, (name, values) in enumerate(option.params):
            names = self._value_names(option, i)
            offered = self._offered(decision, option, cards, params, values, names)
            shown = self._values_text(*offered)
            question = option.prompts[i] if i < len(option.prompts) and option.prompts[i] else f"{name}?"
            raw = tokens[i] if i < len(tokens) else None
            if raw is None and len(offered[0]) == 1 and not self.ask_always:
                # the rules allow one value here: taken and told, not asked
                self.console.print(shown_text(f"(only one choice: {question} {offered[1][0]})"), markup=False,
                                   highlight=False)
                params.append(offered[0][0])
                continue
            while True:
                asked = raw is None
                if raw is None:
                    raw = self._prompt(f"{question} one of {shown}", view)
                    if self._parse_value(raw, values, names) is None:
                        # this value and the next ones typed together ('2 3': a count, then a
                        # face), or after joining words ('with the VALUE', 'x 3')
                        groups, named, left = self._value_groups(option, raw.split(), i)
                        if named and groups and (not left or self._said(option, left)):
                            tokens[i:] = groups
                            raw = groups[0]
                try:
                    value = self._parse_value(raw, values, names)
                    if value is None:
                        value = _by_place(raw, *offered)
                    if value is None and raw.strip().lower() == LIST_WORD and len(offered[1]) > LONGEST_LIST:
                        self._list_values(offered[1])
                        raw = None
                        continue
                    if value is None:
                        why = self._filtered_reason(raw, decision, option, cards, params)
                        among = shown if len(offered[1]) <= LONGEST_LIST else \
                            f"the {len(offered[1])} offered ('{LIST_WORD}' shows every one)"
                        meant = _begun(_as_seats(raw, offered[1]) or raw, offered[1])
                        hint = f": {why}" if why else f" (did you mean {meant}?)" if meant else ""
                        if not raw.strip():
                            raise ValueError(f"type one of {among}")
                        raise ValueError(f"'{shown_text(raw)}' is not one of {among}{hint}")
                    self._sub_check(decision, option, Action(option.name, cards, tuple(params) + (value,)))
                    if i + 1 < len(option.params):      # no value of the next choice may follow it
                        why = (self._reasons(decision, option, cards, params, (value,)) or (None,))[0]
                        if why is not None:
                            raise ValueError(f"Not allowed: {why}")
                    break
                except ValueError as exc:
                    if asked:
                        self._other_option(raw.split(), decision)
                    self._sub_wrong([raw], exc)
                    raw = None
                    del tokens[i:]
            params.append(value)
        return tuple(params)

    def _list_values(self, names) -> None:
        """Every value a question offers (``names``), in columns, for 'list': each after its
        place, which may be typed instead (see :func:`_by_place`), unless a name is a number."""
        from rich.columns import Columns
        from rich.text import Text

        placed = _placed(names)
        self.console.print(Columns([Text(f"{i}. {shown_text(str(n))}" if placed else shown_text(str(n)))
                                    for i, n in enumerate(names, 1)], padding=(0, 3)))

    def _cards_and_values(self, option, words: list) -> None:
        """An answer to the question about ``option``'s cards that is none, checked for its
        cards and then its values ('4 5 as 2'): the option's whole move.

        Raises:
            _WholeLine: ``words`` are cards of ``option`` and then values.
        """
        if not option.params or not words:
            return
        try:
            cards, values = self._split_line(option, words)
            self._parse_cards(cards or [], list(option.cards))
        except ValueError:
            return
        if cards and values:
            raise _WholeLine(" ".join([option.name] + words))

    def _other_option(self, words: list, decision: Decision | None) -> None:
        """An answer to a question about cards or a value that is none, checked for the name
        of an option of ``decision`` (another one, as 'decline' at a window's question) that
        names no card: a whole move.

        Raises:
            _WholeLine: ``words`` begin with an option's name.
        """
        if decision is None or not words or " ".join(words).lower() in self._card_names:
            return                          # a card's name is a card, held or not
        if _option_name(words, {o.name.lower(): o for o in decision.options})[1]:
            raise _WholeLine(" ".join(words))

    def _sub_wrong(self, tokens: list, exc: ValueError) -> None:
        """A bad answer to a question about cards or a value: 'back' goes back to the
        options; anything else is explained (the question is asked again).

        Raises:
            _Back: the answer was 'back'.
        """
        if [t.lower() for t in tokens] == [BACK_WORD]:
            raise _Back()
        self.console.print(f"[red]{escape(shown_text(str(exc)))}[/red] — try again ('back' for the options).")

    def _sub_check(self, decision: Decision | None, option, action: Action) -> None:
        """Check the choices of ``action`` made so far (the later ones missing): the check
        judges an action's steps in order, so a reason other than a missing choice is about
        these.

        Raises:
            ValueError: "Not allowed: REASON".
        """
        if decision is None or decision.check is None or not self._checking:
            return
        reason = decision.check(action)
        if reason is not None and not _incomplete(reason, option, len(action.params)):
            raise ValueError(f"Not allowed: {reason}")

    def _filtered_reason(self, raw: str, decision: Decision | None, option, cards: tuple, params: list) -> str | None:
        """Why a value typed for the next choice of ``option`` is not among those offered,
        when a ``require`` right after the ``choose`` filtered it out: that require's reason
        (the check of the action with that value), else None."""
        if decision is None or decision.check is None or not self._checking:
            return None
        phase = self.engine.cg.phases.get(decision.phase)
        action = phase.by_name.get(option.name) if phase is not None else None
        if action is None or len(params) >= len(action.choices):
            return None
        choice = action.choices[len(params)]
        if not getattr(choice, "guards", ()):
            return None
        value = self._raw_value(getattr(choice, "type", ""), raw)
        if value is None:
            return None
        reason = decision.check(Action(option.name, cards, tuple(params) + (value,)))
        if reason is None or _incomplete(reason, option, len(params) + 1) or reason.startswith(f"{choice.name} cannot"):
            return None
        return reason

    def _raw_value(self, typ: str, raw: str):
        """The value of type ``typ`` that ``raw`` names, whether it is offered or not
        (a seat 'P3', a symbol, a named or plain number), or None."""
        text = raw.strip()
        if typ == "seat":
            found = re.fullmatch(r"[pP](\d{1,3})", text)
            return int(found.group(1)) - 1 if found else None
        if typ.startswith("sym:"):
            symbols = [s.lower() for s in self.engine.cg.symbols.get(typ[4:], ())]
            return symbols.index(text.lower()) if text.lower() in symbols else None
        if typ.startswith("num"):
            names = self.engine.cg.value_names.get(typ[4:], {}) if typ.startswith("num:") else {}
            named = next((v for v, n in names.items() if str(n).lower() == text.lower()), None)
            if named is not None:
                return named
            number = _number(text.lstrip("-"))
            return None if number is None else -number if text.startswith("-") else number
        return None

    def _not_offered(self, name: str, decision: Decision | None) -> str | None:
        """Why an action of this phase that is not among the options cannot be taken now
        (its ``require`` message), or None when ``name`` is no action of the phase."""
        if decision is None or not name:
            return None
        phase = self.engine.cg.phases.get(decision.phase)
        action = phase.by_name.get(name.lower()) if phase is not None else None
        if action is None:
            return None
        # a guessed check's reason may be wrong (see Decision.guessed): not given
        reason = None if decision.guessed else decision.check(Action(action.name))
        return f"'{_spoken(action.name)}' is not possible now" + (f": {reason}" if reason else "")

    def _parse_cards(self, tokens: list, pool: list) -> tuple:
        """The cards typed: by their names ('A A B', '2x A, B', '2xA B', in
        any case, commas or spaces between, names of several words too, in brackets or not),
        or by their numbers in the listing; each card at most as often as the pool holds it.

        Raises:
            ValueError: a word names no card of the pool, or a card more often than it is there.
        """
        by_label: dict = {}
        for k in pool:
            by_label.setdefault(self.engine.kind_label(k).lower(), k)
        words = re.sub(r"[,\[\]]", " ", " ".join(tokens)).lower().split()
        firsts = {label.split()[0] for label in by_label if label}
        words = [w for w in words if w not in _BETWEEN_CARDS or w in firsts]     # 'a CARD', 'CARD and CARD'
        joined: list = []
        for w in words:             # '2 × 3', '2 x 3': two 3s, as the screen writes '2×3'
            if w in ("×", "x") and w not in by_label and joined and _number(joined[-1]) is not None:
                joined[-1] += "x"
            else:
                joined.append(w)
        words = joined
        picked = self._cards_by_name(_with_counts(words, by_label), by_label, pool)
        if isinstance(picked, tuple):
            return picked
        if picked is not None:
            raise ValueError(picked)
        numbers = []
        if not self._cards_by_place:
            parts = {p for label in by_label for p in label.split()} | {""}

            def names_none(word: str) -> bool:
                counted = _TIMES.fullmatch(word)        # '2x' or '2xCARD'
                return (counted.group(2) if counted else word) not in parts
            token = next(filter(names_none, words), words[0] if words else "")     # the first naming no card held
            raise ValueError(f"'{token}' is not the name of a card you may choose")
        for token in words:
            number = _number(token)
            if number is None or not 1 <= number <= len(pool):
                raise ValueError(f"'{token}' is not a card number 1..{len(pool)} or the name of a card you may choose")
            if number in numbers:
                raise ValueError(f"card {token} is chosen twice")
            numbers.append(number)
        return tuple(sorted(pool[i - 1] for i in numbers))

    @staticmethod
    def _cards_by_name(items: list, by_label: dict, pool: list) -> tuple | str | None:
        """The kinds that ``items`` (words, and counts to take the next name that many times)
        name, longest names first (so a name of several words is one card); None when a word
        names no card of the pool; why not when a card is named more often than it is there."""
        left: dict = {}
        for k in pool:
            left[k] = left.get(k, 0) + 1
        longest = max((label.count(" ") + 1 for label in by_label), default=1)
        picked: list = []
        times = None
        i = 0
        while i < len(items):
            if isinstance(items[i], int):
                if times is not None:
                    return None
                times, i = items[i], i + 1
                continue
            for j in range(min(len(items), i + longest), i, -1):
                if all(isinstance(w, str) for w in items[i:j]) and " ".join(items[i:j]) in by_label:
                    k = by_label[" ".join(items[i:j])]
                    break
            else:
                return None
            wanted = 1 if times is None else times
            if left[k] < wanted:
                held = pool.count(k)
                return f"there {'is' if held == 1 else 'are'} only {held} × {' '.join(items[i:j])} to choose"
            left[k] -= wanted
            picked.extend([k] * wanted)
            times, i = None, j
        return None if times is not None else tuple(sorted(picked))

    def _offered(self, decision: Decision | None, option, cards: tuple, params: list, values, names) -> tuple:
        """(values, names) of the next choice of ``option`` that the rules allow after the
        choices made so far: a bid must beat the standing claim, so 'one of 3, 4', not
        every number of the range (all of them when the check cannot tell, or allows none)."""
        reasons = self._reasons(decision, option, cards, params, values)
        if reasons is None:
            return values, names
        kept = [(v, n) for v, n, reason in zip(values, names, reasons) if reason is None]
        if not kept or len(kept) == len(values):
            return values, names
        return tuple(v for v, _ in kept), tuple(n for _, n in kept)

    def _values_text(self, values, names) -> str:
        """How a question names the values it offers: all of them, a range of numbers
        ('1..30'), or, past ``LONGEST_LIST``, the first few (as many of ``LIST_HEAD`` as
        ``LIST_HEAD_WIDTH`` characters hold), the last and how many there are ('list'
        shows them all)."""
        vals = list(values)
        if len(vals) > 12 and all(isinstance(v, int) for v in vals) and vals == list(range(vals[0], vals[-1] + 1)) \
                and list(names) == [str(v) for v in vals]:
            return f"{vals[0]}..{vals[-1]}"
        if len(names) > LONGEST_LIST:
            head = 3
            while head < LIST_HEAD and len(", ".join(names[:head + 1])) <= LIST_HEAD_WIDTH:
                head += 1
            return (", ".join(names[:head]) + f", …, {names[-1]} "
                    f"({len(names)} in all: '{LIST_WORD}' shows every one)")
        return ", ".join(names)

    def _parse_value(self, raw: str, values, names):
        """The value whose name is ``raw`` (seat groups in any order, names in any case, a
        leading 'a', 'an' or 'the' left out), or None."""
        wanted = _value_key(raw)
        for value, name in zip(values, names):
            if _value_key(str(name)) == wanted:
                return value
        for value, name in zip(values, names):      # 'pair of 2s' for 'a pair of 2s'
            article = str(name).split(" ", 1)
            if len(article) == 2 and article[0] in _ARTICLES and _value_key(article[1]) == wanted:
                return value
        typed = raw.split(None, 1)
        if len(typed) == 2 and typed[0].lower() in _ARTICLES:        # 'the VALUE' for 'VALUE'
            return self._parse_value(typed[1], values, names)
        if _number(raw.strip()) is not None and not raw.strip().startswith("#"):     # '2' for a blind card's '#2'
            return self._parse_value("#" + raw.strip(), values, names)
        plain = _singular_numbers(wanted)
        if plain != wanted:                 # '3s', "3's", 'sixes' for a value named '3' or '6'
            found = [value for value, name in zip(values, names) if _value_key(str(name)) == plain]
            if len(found) == 1:
                return found[0]
        return None


def _how_many(low: int, high: int | None) -> str:
    """How many cards a choice takes, as people say it: '1 card', '2 to 4 cards', '1 or more'."""
    if high is None:
        return "any number" if low == 0 else f"{low} or more"
    if low == high:
        return f"{low} card" + ("" if low == 1 else "s")
    return f"{low} to {high} cards"


def _for_the_match(words: list) -> tuple[list, bool]:
    """``words`` without a trailing 'match' / 'for the match' / 'for match', and whether
    they had one."""
    if not words or words[-1] != "match":
        return words, False
    words = words[:-1]
    for word in ("the", "for"):
        if words and words[-1] == word:
            words = words[:-1]
    return words, True


def _with_counts(words: list, labels) -> list:
    """The words of a card entry with each count written before a name ('2x', '2×', the
    '2x' of '2xCARD') as an int; a word that is itself a card's name stays a word."""
    out: list = []
    for word in words:
        found = _TIMES.match(word)
        if word in labels or found is None:
            out.append(word)
            continue
        out.append(int(found.group(1)))
        if found.group(2):
            out.append(found.group(2))
    return out


def _incomplete(reason: str, option, given: int) -> bool:
    """Whether the check's ``reason`` only says that choices after the first ``given``
    values of ``option`` are missing."""
    return reason in _INCOMPLETE or any(reason == f"choose a value for {name}" for name, _ in option.params[given:])


def tab_completion(players) -> bool:
    """Let Tab complete what the person typing may enter (:meth:`HumanPlayer.completions` of
    whichever of ``players`` is asking), where the terminal has GNU readline; False where
    it has none (the prompts work the same, without completion)."""
    try:
        import readline
    except ImportError:                 # e.g. Windows without pyreadline
        return False
    humans = [p for p in players if isinstance(p, HumanPlayer)]

    def complete(text: str, state: int):
        low = text.lower()
        words = [w for h in humans for w in h.words]
        found = [w for w in dict.fromkeys(words) if w.startswith(low)]
        return found[state] if state < len(found) else None
    readline.set_completer_delims(" \t")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return True


def _count(count: int | None, dice: bool = False) -> str:
    """How many cards (``dice``: dice) a zone holds, as people say it; '?' when nobody may know."""
    if count is None:
        return "?"
    if dice:
        return f"{count} die" if count == 1 else f"{count} dice"
    return f"{count} card" if count == 1 else f"{count} cards"


def _spoken(name: str) -> str:
    """A name of the rules (an action, phase, zone or counter) as people read it: underscores
    as spaces ('foreign_aid' is 'foreign aid'), which may be typed so too."""
    return name.replace("_", " ")


#: words that may stand between cards or seats typed ('CARD and CARD', 'P2 and P3')
_AND = ("and", "&")

#: words that may join an action's name, its cards and its values in a typed move ('NAME
#: from P2', 'NAME with the VALUE'), skipped where they name no card or value
_JOINING = frozenset({"a", "an", "the", "as", "with", "from", "to", "against", "on", "at", "for", "of", "by",
                      "into", "onto"})

#: words that may come before or between cards typed ('a CARD', '3 and CARD'), unless a
#: card's name begins with one
_BETWEEN_CARDS = frozenset({"a", "an", "the", "plus"} | set(_AND))

#: words a value's name may begin with that a person may leave out
_ARTICLES = ("a", "an", "the")


def _value_key(text: str) -> str:
    """A value's name as compared with one typed: in upper case, commas as spaces, and seats
    in order ('P3, p2' is 'P2 P3')."""
    words = text.replace(",", " ").upper().split()
    seats = [w for w in words if w.lower() not in _AND]
    if seats and all(_SEATS.fullmatch(w) for w in seats):
        return " ".join(sorted(seats))          # 'P3 and P2' is 'P2 P3'
    return " ".join(_NUMBER_WORDS.get(w, w) for w in words)      # 'four CARDs' is '4 CARDs'


def _singular_numbers(key: str) -> str:
    """A value's key (see :func:`_value_key`) with numbers in the plural as numbers ('3S'
    and "3'S" as '3', 'SIXES' as '6'): how a count of dice or cards showing one number is
    said."""
    words = []
    for w in key.split():
        bare = w[:-2] if w.endswith("'S") else w[:-1] if w.endswith("S") else w
        if w == "SIXES":
            bare = "6"
        words.append(_NUMBER_WORDS.get(bare, bare) if bare.isdigit() or bare in _NUMBER_WORDS else w)
    return " ".join(words)


#: numbers written in words, as a value's name or a person may write them
_NUMBER_WORDS = {w.upper(): str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


def _as_seats(raw: str, names) -> str | None:
    """``raw`` as the seats its numbers stand for where ``names`` are seats ('2 3' or '2 and 3'
    for 'P2 P3'), else None."""
    numbers = [_number(t) for t in raw.replace(",", " ").split() if t.lower() not in _AND]     # '2 and 3'
    if not numbers or None in numbers or not any(_SEATS.fullmatch(str(n)) for n in names):
        return None
    return " ".join(seat_name(k - 1) for k in numbers if k >= 1)


def _begun(raw: str, names) -> str | None:
    """The names of ``names`` (at most 5) whose first words are the words of ``raw``
    ('4' begins '4 high'), quoted and joined with 'or', or None."""
    start = raw.upper().split()
    found = [str(n) for n in names if str(n).upper().split()[:len(start)] == start and start]
    return " or ".join(f"'{shown_text(n)}'" for n in found) if 0 < len(found) <= 5 else None


def _option_name(tokens: list, by_name: dict) -> tuple[str, int]:
    """(the option's name the first words of ``tokens`` give, how many words give it: 0 when
    no option of ``by_name`` (by lower-case name) is named). A name with underscores may be
    typed with spaces ('take two' for take_two), and one ending in '!' or '?' is read without it."""
    for used in range(min(3, len(tokens)), 0, -1):
        name = "_".join(tokens[:used]).lower().rstrip("!?.,:")
        if name in by_name:
            return name, used
    return tokens[0].lower().rstrip("!?.,:"), 0


def _by_place(raw: str, values, names):
    """The value ``raw`` stands for when it is made of numbers and no name is a number:
    where the names are seats or groups of seats, the seats of those numbers ('2' for P2,
    '2 3' for P2 P3); else, for one number, the value at that place among those a question
    offers (``values``, named ``names`` in the order it names them; 1 for the first). None
    otherwise (a number typed for a die's face is the face)."""
    seats = _as_seats(raw, names)
    if seats is not None:
        wanted = sorted(seats.split())
        return next((v for v, n in zip(values, names) if sorted(str(n).split()) == wanted), None)
    place = _number(raw.replace(",", " ").strip())
    return values[place - 1] if place is not None and _placed(names) and 1 <= place <= len(values) else None


def _placed(names) -> bool:
    """Whether the values named ``names`` may be typed by their place (see :func:`_by_place`):
    not where a name has a digit ('4' may be meant as '4 high', '2' as 'B2', not as a place)."""
    return not any(c.isdigit() for n in names for c in str(n)) and not any(_SEATS.fullmatch(str(n)) for n in names)


def _number(text: str) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits (at most 9), else None
    ('²' and '٣' are digits to Python, not to a person at a prompt)."""
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None
