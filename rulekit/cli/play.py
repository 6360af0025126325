"""``rulekit run`` and ``rulekit replay``: play one match, or a logged match again, and
print the play-by-play and the final standings."""

from __future__ import annotations

import contextlib
import sys
from typing import Callable

import click

from ..bounds import MAX_DECISIONS
from ..bots import BOTS
from .common import (CONTEXT, PLAYERS_HELP, RulesFile, _Bots, _check_outputs, _count, _GameCommand, _load,
                     _players_default, _resolve_bots, _seat_kinds, _variant_option, fresh_seed)


def _seats_text(kinds: tuple[str, ...]) -> str:
    """"bots: search", or "P1 human, P2 search, P3 generic" when the seats differ."""
    if len(set(kinds)) == 1:
        return f"bots: {kinds[0]}"
    return ", ".join(f"P{s + 1} {k}" for s, k in enumerate(kinds))


def _ask(text: str) -> str:
    """A line typed at the prompt. click.prompt turns both Ctrl-C and the end of input into
    click.Abort; they are told apart again here: KeyboardInterrupt and EOFError."""
    try:
        # an empty line is an answer (Enter declines a window, hands the keyboard over)
        return click.prompt(text, prompt_suffix=": ", default="", show_default=False)
    except click.Abort as exc:
        stop = EOFError("end of input") if isinstance(exc.__context__, EOFError) else KeyboardInterrupt()
        stop.at_prompt = True           # the line of the prompt is not finished
        raise stop from None


class _Seats(click.ParamType):
    """--human: a seat number, or several separated by commas ('1,2'), as --bots takes kinds."""

    name = "seats"

    def get_metavar(self, param, ctx=None) -> str:
        return "SEAT[,SEAT...]"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        seats = []
        for part in str(value).split(","):
            part = part.strip()
            if not (part.isascii() and part.isdigit() and 1 <= len(part) <= 9 and int(part) >= 1):
                self.fail(f"{part!r} is not a seat number (1 = P1); give one, or several separated by commas "
                          f"(e.g. 1,2)", param, ctx)
            seats.append(int(part))
        return tuple(seats)


def _make_players(engine, n, seed, kinds, console, think=None, ask_always=False, hot_seat=None):
    """The players of ``kinds``; ``hot_seat``: the :class:`HotSeat` of several people at
    one keyboard (the screen is cleared between them), else None."""
    from ..players import HumanPlayer, make_bot

    players = []
    for seat in range(n):
        kind = kinds[seat]
        if kind == "human":
            # the play-by-play prints every step; after a hand-over cleared it, the seat's recap
            players.append(HumanPlayer(engine, console, _ask, hot_seat, recap=hot_seat is not None,
                                       ask_always=ask_always))
        else:
            players.append(make_bot(kind, engine, seed, seat, source=engine.game.source,
                                    variants=engine.game.applied, players=n, think=think))
    if hot_seat is not None or "human" in kinds:
        if sys.stdin.isatty():
            from ..players.human import tab_completion
            tab_completion(players)
    return players


@click.command(cls=_GameCommand, context_settings=CONTEXT)
@click.argument("file", type=RulesFile())
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats ({PLAYERS_HELP}).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of chance; the same seed plays the same match (default: a fresh 128-bit seed, printed).")
@_variant_option("Apply a variant of the game (repeatable, applied in order).")
@click.option("--human", "humans", multiple=True, type=_Seats(), metavar="SEAT[,SEAT...]",
              help="Seat (1 = P1) played by you at the terminal (repeatable, or several separated by commas: "
                   "1,2 for two people at one keyboard).")
@click.option("--ask-always", is_flag=True,
              help="Ask every decision of --human, also one with a single possible action (by default that "
                   "action is taken for you and told: '(only one choice: …)').")
@click.option("--bots", type=_Bots(BOTS + ("human",)), default="auto", show_default=True,
              help="Who plays the seats: one kind for all (seats of --human excepted), or one per seat separated "
                   "by commas, human for yours (e.g. human,search,generic,random). Kinds: auto (solved when the "
                   "game is small enough to solve, else search against a person and generic for bots alone), "
                   "search or search:N (tree search, N iterations a decision), solved, generic (fast), random.")
@click.option("--think", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Let the search bots search this many seconds a decision instead of their iterations "
                   "(their play then depends on the machine: the same seed may play another match).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE.jsonl", help="Write every decision and event as JSON lines after a header (rules file "
                                         "and its SHA-256, variants, seed, players), as the match goes (flushed "
                                         "after each decision): a match stopped or killed leaves what was played "
                                         "so far. `rulekit replay` plays it again.")
@click.option("--log-for", "log_for", multiple=True, nargs=2, type=(click.IntRange(min=1), click.Path(dir_okay=False)),
              metavar="SEAT FILE.jsonl",
              help="Write what seat SEAT (1 = P1) saw, and nothing more, as JSON lines: a header without the seed, "
                   "then per decision of that seat its view, the events it perceived and the action it chose "
                   "(repeatable).")
@click.option("--verbose", "-v", is_flag=True,
              help="Print every step of the match (the default when a person plays; bots alone get a "
                   "summary per deal).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result (the final standings).")
@click.option("--max-decisions", type=click.IntRange(min=1), default=MAX_DECISIONS, show_default=True,
              help="Stop a match that has not ended after this many decisions.")
def run(file, players, seed, variants, humans, ask_always, bots, think, log_path, log_for, verbose, quiet,
        max_decisions):
    """Play one match of the game in FILE and print the play-by-play.

    Ctrl-C stops the match (status 130), and so do SIGTERM and SIGHUP (143,
    129) and the end of input at a prompt of --human (status 1); --log then
    holds what was played so far. `rulekit replay FILE.jsonl` plays a --log
    again and checks every event. FILE is a regular file of at most 1 MiB, or the
    name of a shipped game (`rulekit games` lists them; `rulekit run NAME`);
    no output may be FILE itself.
    """
    from rich.console import Console
    from rich.markup import escape

    from ..play.match import play_match

    if verbose and quiet:
        raise click.UsageError("--verbose and --quiet do not go together")
    _check_outputs([file], [(log_path, "--log")] + [(path, "--log-for") for _, path in log_for])
    engine = _load(file, variants)
    n = _players_default(engine, players)
    humans = tuple(dict.fromkeys(seat for seats in humans for seat in seats))
    for h in humans:
        if h > n:
            raise click.BadParameter(f"seat {h} does not exist in a {n}-player match (seats are 1..{n})",
                                     param_hint="'--human'")
    kinds = _seat_kinds(bots, n, humans)
    # auto: against a person, the search bot; bots alone, the fast one (a long match of
    # search bots would take hours)
    kinds = _resolve_bots(kinds, engine, n, "search" if "human" in kinds else "generic")
    for seat, _ in log_for:
        if seat > n:
            raise click.BadParameter(f"seat {seat} does not exist in a {n}-player match (seats are 1..{n})",
                                     param_hint="'--log-for'")
    for path, option in [(log_path, "'--log'")] + [(path, "'--log-for'") for _, path in log_for]:
        if path:
            try:                            # say so now, not after the whole match
                open(path, "w", encoding="utf-8").close()
            except OSError as exc:
                raise click.BadParameter(f"cannot write {path}: {exc.strerror}", param_hint=option) from None
    if seed is None:
        seed = fresh_seed()
    logs = _Logs(file, engine, n, seed, kinds, log_path, log_for)   # the header of --log is written now
    console = Console(highlight=False)
    game = engine.game
    title = game.title + (f" ({', '.join(game.applied)})" if game.applied else "")
    human_seats = {s for s, kind in enumerate(kinds) if kind == "human"}
    hot_seat = None
    if len(human_seats) > 1:
        from ..players.human import HotSeat

        hot_seat = HotSeat()
    # bots alone: a summary per deal, every step with --verbose; with a person: every step
    on_events = _narrator(console, engine, human_seats, verbose or bool(human_seats), quiet,
                          None if hot_seat is None else (lambda: hot_seat.last))
    record = None
    try:
        with _signals_stop():
            console.print(f"[bold]{escape(title)}[/bold] — {_count(n, 'player')}, seed {seed}, "
                          f"{escape(_seats_text(kinds))}", soft_wrap=True)
            seats = _make_players(engine, n, seed, kinds, console, think, ask_always, hot_seat)
            record = play_match(engine, seats, n, seed, on_events, max_steps=max_decisions, keep_log=logs.wanted, log=logs.records)
            _standings(console, engine, record.state, sorted(human_seats))
    except BaseException as exc:
        _stopped(console, file, logs, getattr(exc, "record", None) or record, exc, max_decisions)
        raise
    _write_log(console, logs)


def _stopped(console: Console, file: str, logs: "_Logs", played, exc: BaseException, max_decisions: int) -> None:
    """A match that did not end as the rules say: keep its logs (``played``: the
    MatchRecord of what was played, or None), say why it stopped and exit with its status:
    Ctrl-C 130, SIGTERM 143 and SIGHUP 129 (128 + the signal), the end of input at a prompt
    1, a runtime error of the rules (or a failure of their generated code, named by its
    line) or --max-decisions 2. Anything else (an output that
    cannot be written: a full disk, a closed pipe) is left to the caller once the logs
    are kept."""
    from ..errors import RulesRuntimeError
    from ..files import OutputError
    from ..play.match import MatchTooLong

    log = played.log if played is not None else None
    if not isinstance(exc, (RulesRuntimeError, MatchTooLong)):
        from ..engine.codegen import defect_at_line

        exc = defect_at_line(exc) or exc      # generated code failed (a bot's set-up too): at which line
    if isinstance(exc, (KeyboardInterrupt, EOFError, click.Abort, _Terminated)):
        # Ctrl-C (click.prompt's Abort is told apart by _ask), SIGTERM, SIGHUP, or no more input at a prompt
        end_of_input = isinstance(exc, EOFError) or isinstance(exc.__context__, EOFError)
        why = ("end of input at the prompt" if end_of_input else f"terminated ({exc.name})"
               if isinstance(exc, _Terminated) else "interrupted (Ctrl-C)")
        if played is not None:
            why += f" after {_count(played.steps, 'decision')}"
        try:
            for what, path, lines in _dump_log(logs, log):
                why += f"; {'what was played' if what is None else f'what {what} saw'} is in {path} " \
                       f"({_count(lines, 'line')})"
        except OutputError as failed:
            click.echo(str(failed), err=True)
        _flush_quietly(console)
        if getattr(exc, "at_prompt", False):
            click.echo(err=True)
        click.echo(f"stopped: {why}", err=True)
        sys.exit(1 if end_of_input else 128 + exc.signum if isinstance(exc, _Terminated) else 130)
    if isinstance(exc, (RulesRuntimeError, MatchTooLong)):
        _write_log(console, logs, log)
        bound = f" (--max-decisions {max_decisions})" if isinstance(exc, MatchTooLong) else ""
        from ..errors import shown_text
        click.echo(shown_text(f"{file}: error: {exc}{bound}", lines=True), err=True)
        sys.exit(2)
    # a full disk, a closed pipe (rich exits with status 1 when standard output's reader is
    # gone)…: the logs are kept, and the caller reports it
    _dump_log(logs, log)


def _flush_quietly(console: Console) -> None:
    """Flush standard output; a closed pipe or a full disk is no reason to stop saying why
    the match stopped."""
    try:
        console.file.flush()
    except OSError:
        pass


class _Terminated(BaseException):
    """SIGTERM or SIGHUP while a match is played: it stops as Ctrl-C stops it (the logs
    are kept; the status is 128 + the signal). Not a KeyboardInterrupt, so that
    click.prompt lets it through untouched."""

    def __init__(self, signum: int):
        import signal

        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


@contextlib.contextmanager
def _signals_stop():
    """While the block runs, SIGTERM and SIGHUP raise :class:`_Terminated` (in the main
    thread, where Python runs signal handlers); the handlers before are restored after."""
    import signal

    def stop(signum, frame):
        raise _Terminated(signum)

    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            saved[number] = signal.signal(number, stop)
        except ValueError:                  # not the main thread: leave the signal alone
            pass
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


class _Logs:
    """The log files `run` writes: --log (the header, then every decision and event,
    written as the match goes: :class:`rulekit.play.replay.LogFile`) and each --log-for
    (what one seat saw: :func:`rulekit.play.replay.seat_log`, written when the match
    ends or stops).

    Raises:
        rulekit.files.OutputError: the header of --log cannot be written.
    """

    def __init__(self, file: str, engine: Engine, n: int, seed: int, kinds, log_path: str | None, log_for):
        from ..play.match import log_header
        from ..play.replay import LogFile

        self.file, self.engine, self.n, self.seed, self.kinds = file, engine, n, seed, kinds
        self.log_path = log_path
        self.log_for = tuple(log_for)
        self.header = log_header(engine, file, n, seed, kinds) if self.wanted else None
        #: the records of the match (play_match's ``log``): written to --log as they come
        self.records = LogFile(log_path, [self.header]) if log_path else [] if log_for else None
        self.done = False

    @property
    def wanted(self) -> bool:
        """Whether the match must keep its log (play_match's keep_log)."""
        return self.log_path is not None or bool(self.log_for)


def _write_log(console: Console, logs: _Logs, log: list | None = None) -> None:
    """Close the logs of ``logs`` and say where they are."""
    from ..errors import shown_text
    for what, path, lines in _dump_log(logs, log):
        console.print(f"{'log' if what is None else f'what {what} saw'} written to {shown_text(path)} ({_count(lines, 'line')})",
                      markup=False, soft_wrap=True)


def _dump_log(logs: _Logs, log: list | None = None) -> list[tuple[str | None, str, int]]:
    """Close --log (written as the match went) and write each --log-for from the records
    ``log`` (``logs.records`` when None); once only. (None for --log or the seat "P1" for
    --log-for, path, number of lines) of each file.

    Raises:
        rulekit.files.OutputError: a file cannot be written (each other one is written).
    """
    from ..engine.narrate import seat_name
    from ..files import OutputError
    from ..play.replay import ReplayError, seat_log, write_log

    if not logs.wanted or logs.done:
        return []
    logs.done = True
    log = logs.records if log is None else log
    written, failed = [], None
    if logs.log_path:
        try:
            logs.records.close()
            written.append((None, logs.log_path, logs.records.lines))
        except OutputError as exc:
            failed = exc
    for seat, path in logs.log_for:
        try:
            records = seat_log(logs.engine, logs.header, log, seat - 1)
            written.append((seat_name(seat - 1), path, write_log(path, records)))
        except ReplayError as exc:         # the match as logged does not play again: a bug
            click.echo(f"{path}: error: what {seat_name(seat - 1)} saw could not be written: {exc}", err=True)
        except OutputError as exc:
            failed = failed or exc
    if failed is not None:
        raise failed
    return written


def _narrator(console: Console, engine: Engine, human_seats=frozenset(), every_step: bool = True,
              quiet: bool = False, keyboard: Callable[[], int | None] | None = None):
    """The play-by-play of `run` and `replay`: ``on_events(state, events)`` prints a line
    per event worth telling (``every_step``), or only each deal's start and result; a
    private ``show`` to a seat no person plays is only counted (and with people playing, not
    told at all: their seats do not see it). After a step of a seat a
    person plays, the cards it put into that seat's zones ('  you get …'); with one person,
    its seat is marked '(you)'. With people playing, each event is told as all their seats
    perceive it (``Engine.observe_common``): nothing a person's seat may not see.
    ``keyboard``: with several people at one keyboard, the seat that holds it now (None
    before the first decision); what is private to another seat (a show, the cards it got
    in a step taken for it) is left to that seat's recap after the hand-over."""
    from ..engine.narrate import pieces_text, seat_name
    from ..players.human import received_lines, yours

    alone = next(iter(human_seats)) if len(human_seats) == 1 else None

    def on_events(state, events):
        if quiet:
            return
        for ev in events:
            if ev.seat is not None and keyboard is not None and ev.seat in human_seats and ev.seat != keyboard():
                continue            # told to that seat once the keyboard is passed to it
            if ev.seat is not None and ev.seat not in human_seats:
                # a private result (an inspection) is for the seat that saw it alone: with
                # people playing, not even who was shown something is told (no other seat's
                # view has it: a role shown to each of a hidden team would name the team)
                if every_step and not human_seats:
                    seen = (pieces_text(engine, ev.data["cards"]) if "cards" in ev.data
                            else f"a {ev.data.get('counter', 'value').replace('_', ' ')}")
                    console.print(f"  ({seat_name(ev.seat)} is shown {seen})", markup=False, soft_wrap=True)
                continue
            if ev.kind == "deal_end":
                console.print(_deal_summary(engine, state.n, ev.data), markup=False, soft_wrap=True)
                continue
            if not every_step and ev.kind not in ("deal_start", "match_end", "out"):
                continue
            if human_seats and ev.seat is None:
                # the people at the screen are told what each of their seats may see
                ev = engine.observe_common(ev, sorted(human_seats), state.n)
                if ev is None:
                    continue
            line = engine.describe_event(ev, state.n)
            if line:
                console.print(line if alone is None else yours(line, alone), markup=False, soft_wrap=True)
            if ev.kind == "deal_start" and every_step and not state.is_terminal:
                # the deal begins: who holds the seats the rules name (the dealer…), before its setup is told
                cg = engine.cg
                for name, init, seat in zip(cg.seat_names[3:], cg.seat_inits, state.seats[3:]):
                    if init is not None:
                        console.print(f"  {name.replace('_', ' ')}: {seat_name(seat)}", markup=False, soft_wrap=True)
        actor = next((ev.data["seat"] for ev in events if ev.kind == "action"), None)
        if every_step and actor in human_seats and (keyboard is None or actor == keyboard()):
            for line in received_lines(engine, events, actor, state.n):
                console.print(line, markup=False, soft_wrap=True)
        if every_step and not state.is_terminal and any(ev.kind == "deal_start" for ev in events):
            # the deal is set up: whose decision opens it (a vote's seats all vote, unseen)
            kind = engine.cg.phase_list[state.phase].kind
            opening = {"vote": "votes first", "first": "is asked first", "each": "is asked first"}.get(kind, "starts")
            console.print(f"  {seat_name(engine.decider(state))} {opening}", markup=False, soft_wrap=True)

    return on_events


@click.command(context_settings=CONTEXT, short_help="Play a --log again, checking every event.")
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--rules", type=RulesFile(), default=None, metavar="FILE",
              help="The rules file (or shipped game) to use instead of the one the log's header names (it must be the "
                   "same bytes).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the last line (the verdict).")
def replay(log, rules, quiet):
    """Play the match of LOG (written by `rulekit run --log`) again and check it.

    The header names the rules file, its SHA-256, the variants, the number of seats and
    the seed: the match starts again from them, each recorded decision is applied in
    turn, and every event the engine gives must equal the log's. It prints the
    play-by-play (as `run -v` does) and "replayed N decisions: every event matches";
    the first difference, or a rules file that changed since the log was written, is
    reported as LOG:LINE: error: … with status 2.

    LOG is a regular file of at most 256 MiB, with lines of at most 16 MiB; a log
    cut short (a match stopped or killed) replays up to its last whole record and
    says so.
    """
    from rich.console import Console
    from rich.markup import escape

    from ..play.replay import ReplayError, load_rules, read_log, replay_records

    from ..errors import shown_text

    console = Console(highlight=False)
    try:
        header, records = read_log(log)
        engine = load_rules(header, log, rules)
        game = engine.game
        if not quiet:
            title = game.title + (f" ({', '.join(game.applied)})" if game.applied else "")
            console.print(f"[bold]{escape(title)}[/bold] — {_count(header['players'], 'player')}, seed "
                          f"{header['seed']} (replaying {escape(shown_text(log))})", soft_wrap=True)
        done = replay_records(engine, header, records, log, _narrator(console, engine, quiet=quiet))
    except ReplayError as exc:
        console.file.flush()
        click.echo(shown_text(str(exc), lines=True), err=True)     # it may quote the log
        sys.exit(2)
    if done.finished and not quiet:
        _standings(console, engine, done.state)
    ended = f" ({done.incomplete})" if done.incomplete else ""
    console.print(f"replayed {_count(done.decisions, 'decision')}: every event matches{ended}", markup=False,
                  soft_wrap=True)


def _deal_summary(engine: Engine, n: int, data) -> str:
    from ..engine.narrate import seat_name

    parts = []
    counters = data["counters"]
    bases = engine.cg.counter_base(n)
    for ci, decl in enumerate(engine.game.counters):
        if decl.per_player and decl.seen == "all":
            values = counters[bases[ci]:bases[ci] + n]
            parts.append(f"{decl.name.replace('_', ' ')}: " + ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(values)))
    extra = ("; " + "; ".join(parts)) if parts else ""
    return f"end of deal {data['deal']}{extra}"


def _standings(console: Console, engine: Engine, state, viewers=()) -> None:
    """The final standings table; ``viewers``: the seats of the people at the table, who
    are not shown a value they could not know ("?": a folded hand's), nor an order that
    would tell one (the winners first, then the seats by number, knocked-out seats last)."""
    from rich.markup import escape
    from rich.table import Table

    from ..engine.narrate import number_text, seat_name
    from ..errors import shown_text

    table = Table(title="Final standings")
    table.add_column("place")
    table.add_column("seat")
    keys = engine.game.match.winners
    for key in keys:
        table.add_column(escape(shown_text(key.label) if key.label is not None
                                else ("highest " if key.highest else "lowest ") + _expr_text(engine, key)))
    out = state.out or (0,) * state.n
    if any(out):
        table.add_column("out")
    table.add_column("result", justify="right")
    table.add_column("")
    rows = engine.standings(state, viewers)     # in an order the people know, if anything is hidden
    returns = engine.returns(state)
    hidden = set().union(*(engine.unseen_standing(state, v) for v in viewers))
    place = 0
    previous = None
    for i, (seat, values) in enumerate(rows, 1):
        if hidden:
            shown_place = "1" if seat in state.winners else "-"
        else:
            if (out[seat], values) != previous:
                place = i
                previous = (out[seat], values)
            shown_place = str(place)
        cells = ["?" if (seat, k) in hidden else str(v) for k, v in enumerate(values)]
        result = "?" if (seat, len(keys)) in hidden else number_text(returns[seat], sign=True)
        went = [f"{_ordinal(out[seat])} out" if out[seat] else ""] if any(out) else []
        table.add_row(shown_place, seat_name(seat), *cells, *went, result, "winner" if seat in state.winners else "")
    console.print(table)
    if hidden:
        console.print("? not shown, and the seats not ranked: they read cards (or a counter) you have not seen",
                      markup=False)


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _expr_text(engine: Engine, key) -> str:
    span = key.expr.span
    lines = engine.game.source.split("\n")        # only \n ends a line, as the parser counts
    if span.line and span.line == span.end_line and span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "value"
