"""A person at the terminal: sees its seat's view and options, types a choice, is asked again
after a bad entry (with the reason)."""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.markup import escape

from ..errors import shown_text
from ..engine import DECLINE_ACTION, Action, Decision, Engine, View
from ..engine.narrate import seat_name

#: what a person types at a window's prompt to let it pass (Enter is the empty line)
DECLINE_WORDS = ("", "n", "no", "decline", "pass")
COMMANDS = ("Type an option's number or name. Other commands: history (everything you have seen this "
            "match) · rules (the rulebook of the game) · help (this list).")
WINDOW_HELP = "Enter: decline · never: not again this deal · only N: only for claims of N+ cards · always"
#: the same, for a game whose claims lay no cards ('only N' counts the claimed cards)
WINDOW_HELP_NO_CARDS = "Enter: decline · never: not again this deal · always"


class HotSeat:
    """Several people at one keyboard: before a seat's decision that follows another seat's,
    the screen is cleared and the keyboard passed, so that no seat sees another's hand."""

    def __init__(self):
        self.last: int | None = None

    def hand_over(self, player: "HumanPlayer", seat: int) -> None:
        if self.last is not None and self.last != seat:
            player.console.clear()
            player.ask(f"pass the keyboard to {seat_name(seat)} and press Enter")
            player.console.clear()
        self.last = seat


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
    """

    #: the match runner gives this player its public history (View.history)
    uses_history = True
    #: at most this many of the events since the last decision are printed
    recent = 12

    def __init__(self, engine: Engine, console: Console, ask: Callable[[str], str],
                 hot_seat: HotSeat | None = None, recap: bool = True):
        self.engine = engine
        self.console = console
        self.ask = ask
        self.hot_seat = hot_seat       # shared by the people at one keyboard, or None
        self.recap = recap             # show the events since the last decision (False: a narrator shows them)
        self._seen = 0                 # events of the history already shown
        # per window (phase name): None, "never", or the fewest claimed cards worth asking
        # about, for the rest of the deal ``self._deal``
        self._filters: dict = {}
        self._deal = None
        #: what Tab completes at this player's prompts now (see :func:`tab_completion`)
        self.words: tuple = ()
        from ..lang import model as m

        # whether a claim ever covers cards (a 'lay'): only then does 'only N' mean anything
        self._lays = any(isinstance(node, m.Move) and node.lay for node in m.nodes(engine.game))

    # -- display
    def show(self, view: View, decision: Decision) -> None:
        c = self.console
        c.print()
        news = [line for line in (self.engine.describe_event(e, view.players)
                                  for e in view.history[self._seen:]) if line]
        self._seen = len(view.history)
        if news and self.recap:
            c.rule("since your last decision")
            if len(news) > self.recent:
                c.print(f"… ({len(news) - self.recent} earlier)", markup=False)
            for line in news[-self.recent:]:
                c.print(line, markup=False, highlight=False)
        what = {"turn": "your turn", "vote": "your vote"}.get(decision.kind, "your call")
        c.rule(f"{seat_name(view.seat)}, your decision: {what}")
        for line in self.screen(view):
            c.print(line, markup=False, highlight=False)

    def screen(self, view: View) -> list[str]:
        """The state as this seat sees it, compactly: its own zones (cards grouped and
        sorted), the shared zones, one line per other seat (its zones, the counters anyone
        may see, whether it is out), the counters of the table, the standing claim in its
        words and what the seat knows of hidden cards."""
        me = view.seat
        lines = []
        per_seat: dict = {s: [] for s in range(view.players)}
        shared = []
        for slot, (name, owner, count, cards) in enumerate(view.zones):
            # a zone that holds only dice counts dice
            dice = view.dice[slot] if view.dice and view.dice[slot] is not None else ()
            shown = self.grouped(cards) if cards is not None else _count(count, count and sum(dice) == count)
            if owner == me:
                lines.append(f"your {name}: {shown}")
            elif owner is None:
                shared.append(f"{name} {shown}")
            else:
                per_seat[owner].append(f"{name} {shown}")
        table_counters = []
        for name, value in view.counters:
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
        if view.claim is not None:
            claimant, count = view.claim[2], view.claim[3]
            cards = f" ({_count(count)})" if count else ""
            lines.append(f"standing claim of {seat_name(claimant)}: {view.claim_text}{cards}")
        known: dict = {}                # what the seat knows of each zone, one line a zone
        for name, owner, cards in view.known:
            known.setdefault((name, owner), []).append(self.cards_text(cards))
        for (name, owner), texts in known.items():
            who = "" if owner is None else f" of {seat_name(owner)}"
            lines.append(f"you know the {name}{who} holds: {', '.join(texts)}")
        return lines

    def grouped(self, cards) -> str:
        """Cards grouped by kind, in kind order: '3×A, B' (three of A, one B); '(empty)' for none."""
        if not cards:
            return "(empty)"
        counts: dict = {}
        for k in sorted(cards):
            counts[k] = counts.get(k, 0) + 1
        label = self.engine.kind_label
        return ", ".join(f"{n}×{label(k)}" if n > 1 else label(k) for k, n in counts.items())

    def cards_text(self, cards) -> str:
        return ", ".join(self.engine.kind_label(k) for k in cards)

    # -- input
    def choose(self, view: View, decision: Decision) -> Action:
        """The action typed for ``decision``.

        A typed action is first tried on ``decision.check``, which answers from a state
        sampled from the seat's view; the match judges the answer on the true state. When it
        rejected this seat's previous answer (``decision.rejected``), its reason is printed
        and the next typed action goes to the match unchecked (the sample misjudged).
        """
        rejected = getattr(decision, "rejected", None)
        window = decision.kind in ("first", "each") and any(o.name == DECLINE_ACTION.name for o in decision.options)
        if view.deal != self._deal:             # the filters last for one deal
            self._deal = view.deal
            self._filters.clear()
        if window and rejected is None and self._skip(view, decision):
            return DECLINE_ACTION
        if rejected is None:
            if self.hot_seat is not None:
                self.hot_seat.hand_over(self, view.seat)
            self.show(view, decision)
        else:       # the same decision again: the view was just shown
            self.console.print(f"[red]Not allowed: {escape(str(rejected[1]))}.[/red] Try again.")
        options = decision.options
        self.words = self.completions(decision, window)
        for i, o in enumerate(options, 1):
            self.console.print(f"  [bold]{i}[/bold]. {escape(o.name)}: {escape(o.label)}")
        if window:
            self.console.print(f"  [dim]{escape(WINDOW_HELP if self._lays else WINDOW_HELP_NO_CARDS)}[/dim]")
        else:
            self.console.print("  [dim]help · history · rules[/dim]")
        while True:
            try:
                action = self._read(options, decision.phase if window else None, view, decision)
            except ValueError as exc:
                self.console.print(f"[red]{escape(shown_text(str(exc)))}[/red] — try again.")
                continue
            reason = None if rejected is not None else decision.check(action)
            if reason is None:
                return action
            self.console.print(f"[red]Not allowed: {escape(reason)}.[/red] Try again.")

    def completions(self, decision: Decision, window: bool = False) -> tuple:
        """What may be typed at this decision's prompts, for Tab: the commands, the options'
        names, the names of the cards they choose from and of their values (lower case, as
        typed; a name of several words is one completion)."""
        words = ["help", "history", "rules"] + (["never", "always"] + ["only"] * self._lays if window else [])
        for o in decision.options:
            words.append(o.name.lower())
            if o.cards is not None:
                words.extend(self.engine.kind_label(k).lower() for k in o.cards)
            for names in o.shown:
                words.extend(str(v).lower() for v in names)
        return tuple(dict.fromkeys(words))

    def _command(self, word: str, view: View | None) -> bool:
        """Answer ``help``, ``history`` or ``rules``; False for anything else."""
        c = self.console
        if word in ("help", "?"):
            c.print(COMMANDS, markup=False)
        elif word == "history" and view is not None:
            lines = [line for line in (self.engine.describe_event(e, view.players) for e in view.history) if line]
            for line in lines or ["(nothing yet)"]:
                c.print(line, markup=False, highlight=False)
        elif word == "rules":
            from ..explain import explain        # the rulebook written from the rules (rulekit explain)

            c.print(explain(self.engine.game), markup=False, highlight=False, soft_wrap=True)
        else:
            return False
        return True

    def _skip(self, view: View, decision: Decision) -> bool:
        """Whether this window is declined without asking, by the filter the person set."""
        rule = self._filters.get(decision.phase)
        if rule is None:
            return False
        if rule == "never":
            return True
        covered = view.claim[3] if view.claim is not None else 0
        return covered < rule

    def _read(self, options, window: str | None = None, view: View | None = None,
              decision: Decision | None = None) -> Action:
        while True:
            text = self.ask("choose an option by number or name").strip()
            if not self._command(text.lower(), view):
                break
        if window is not None:
            word = text.lower()
            if word in DECLINE_WORDS:
                return DECLINE_ACTION
            if word == "never":
                self._filters[window] = "never"
                self.console.print(f"  you will not be asked in '{window}' again this deal", markup=False)
                return DECLINE_ACTION
            if word == "always":
                self._filters.pop(window, None)
                self.console.print(f"  you will be asked in '{window}' again", markup=False)
                raise ValueError("choose an option")
            if word.startswith("only"):
                if not self._lays:
                    raise ValueError("'only N' counts the cards a claim covers, and no claim of this game covers "
                                     "cards: use 'never' or Enter")
                count = _number(word[4:].strip())
                if count is None:
                    raise ValueError("write 'only N' with a number of cards, e.g. 'only 3'")
                self._filters[window] = count
                self.console.print(f"  this deal you will be asked in '{window}' only when the claim covers "
                                   f"{count} card{'s' if count != 1 else ''} or more", markup=False)
                covered = view.claim[3] if view is not None and view.claim is not None else 0
                if covered < count:
                    return DECLINE_ACTION
                raise ValueError("this claim covers enough cards: choose an option")
        tokens = text.split()
        first = tokens[0] if tokens else ""
        option = None
        number = _number(first)
        if number is not None and 1 <= number <= len(options):
            option = options[number - 1]
        else:
            option = next((o for o in options if o.name.lower() == first.lower()), None)
        if option is None:
            why = self._not_offered(first, decision)
            if why is not None:
                raise ValueError(why)
            raise ValueError(f"'{shown_text(text)}' is not one of the options 1..{len(options)}")
        rest = tokens[1:]
        nvalues = len(option.params)
        grouped_values = any(" " in name for shown in option.shown for name in shown)
        one_line = bool(rest) and not grouped_values and (option.cards is not None or len(rest) == nvalues)
        if rest and not one_line:
            raise ValueError(f"'{option.name}' takes {nvalues} value{'' if nvalues == 1 else 's'} after it"
                             if option.cards is None else f"type the values of '{option.name}' when asked")
        card_tokens = rest[:len(rest) - nvalues] if one_line else []
        value_tokens = rest[len(rest) - nvalues:] if one_line and nvalues else []
        if one_line and nvalues and len(rest) < nvalues:
            raise ValueError(f"'{option.name}' takes {nvalues} value{'' if nvalues == 1 else 's'}")
        cards: tuple = ()
        if option.cards is not None:
            pool = list(option.cards)
            if not card_tokens:
                listing = "  ".join(f"{i}:{self.engine.kind_label(k)}" for i, k in enumerate(pool, 1))
                self.console.print(f"  cards: {listing}", markup=False)
                high = "any number" if option.high is None else str(option.high)
                card_tokens = self.ask(f"which cards? their names (2x for two alike) or numbers "
                                       f"({option.low} to {high})").split()
            cards = self._parse_cards(card_tokens, pool)
        params = []
        for i, (name, values) in enumerate(option.params):
            names = option.shown[i] if i < len(option.shown) else tuple(map(str, values))
            shown = self._values_text(values, names)
            question = option.prompts[i] if i < len(option.prompts) and option.prompts[i] else f"{name}?"
            raw = value_tokens[i] if value_tokens else self.ask(f"{question} one of {shown}").strip()
            value = self._parse_value(raw, values, names)
            if value is None:
                raise ValueError(f"'{shown_text(raw)}' is not one of {shown}")
            params.append(value)
        return Action(option.name, cards, tuple(params))

    def _not_offered(self, name: str, decision: Decision | None) -> str | None:
        """Why an action of this phase that is not among the options cannot be taken now
        (its ``require`` message), or None when ``name`` is no action of the phase."""
        if decision is None or not name:
            return None
        phase = self.engine.cg.phases.get(decision.phase)
        action = phase.by_name.get(name.lower()) if phase is not None else None
        if action is None:
            return None
        reason = decision.check(Action(action.name))
        return f"'{action.name}' is not possible now" + (f": {reason}" if reason else "")

    def _parse_cards(self, tokens: list, pool: list) -> tuple:
        """The cards typed: by their names ('A A B', '2xA', several-word names too), or
        by their numbers in the listing; each card at most as often as the pool holds it."""
        by_label: dict = {}
        for k in pool:
            by_label.setdefault(self.engine.kind_label(k).lower(), k)
        words = []
        for token in tokens:          # '2x7' / '2×7': that card twice
            low = token.lower()
            head, sep, tail = low.partition("x") if "x" in low else low.partition("×")
            count = _number(head) if sep else None
            if count is not None and tail and (tail in by_label or any(lb.startswith(tail) for lb in by_label)):
                words.extend([tail] * min(count, len(pool) + 1))
            else:
                words.append(low)
        picked = self._cards_by_name(words, by_label, pool)
        if picked is not None:
            return picked
        numbers = []
        for token in tokens:
            number = _number(token)
            if number is None or not 1 <= number <= len(pool):
                raise ValueError(f"'{token}' is not a card number 1..{len(pool)} or the name of a card you may choose")
            if number in numbers:
                raise ValueError(f"card {token} is chosen twice")
            numbers.append(number)
        return tuple(sorted(pool[i - 1] for i in numbers))

    @staticmethod
    def _cards_by_name(words: list, by_label: dict, pool: list) -> tuple | None:
        """The kinds the words name (longest names first, so a two-word name is one card),
        or None when a word names no card of the pool or a card is named more often than it
        is there."""
        left = {}
        for k in pool:
            left[k] = left.get(k, 0) + 1
        picked = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + 4), i, -1):
                k = by_label.get(" ".join(words[i:j]))
                if k is not None:
                    break
            else:
                return None
            if left[k] == 0:
                return None
            left[k] -= 1
            picked.append(k)
            i = j
        return tuple(sorted(picked))

    def _values_text(self, values, names) -> str:
        vals = list(values)
        if len(vals) > 12 and all(isinstance(v, int) for v in vals) and vals == list(range(vals[0], vals[-1] + 1)) \
                and list(names) == [str(v) for v in vals]:
            return f"{vals[0]}..{vals[-1]}"
        return ", ".join(names)

    def _parse_value(self, raw: str, values, names):
        """The value whose name is ``raw`` (seat groups in any order, names in any case)."""
        wanted = " ".join(sorted(raw.replace(",", " ").upper().split()))
        for value, name in zip(values, names):
            if " ".join(sorted(name.upper().split())) == wanted:
                return value
        return None


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


def _number(text: str) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits (at most 9), else None
    ('²' and '٣' are digits to Python, not to a person at a prompt)."""
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None
