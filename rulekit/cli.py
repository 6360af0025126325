"""The ``rulekit`` command: run a match, check a file, simulate many matches."""

from __future__ import annotations

import sys

import click

from .bounds import MAX_DECISIONS

# Only click is imported up front, so that `rulekit --help` starts quickly; each command
# imports what it uses (the parser, the engine, rich) when it runs.

from .bots import BOTS, bot_kind

#: -h is --help, for the group and every command
CONTEXT = {"help_option_names": ["-h", "--help"]}

PLAYERS_HELP = "default: 4, or the nearest count the game allows"


def _count(k: int, word: str, plural: str | None = None) -> str:
    """``k`` and ``word``, singular or plural as ``k`` asks: "1 card", "2 cards"."""
    return f"{k} {word if k == 1 else plural or word + 's'}"


class _Bots(click.ParamType):
    """--bots: one kind of player for every seat, or a comma-separated list with one per seat
    (checked against the number of seats once the game is known, by :func:`_seat_kinds`)."""

    name = "bots"

    def __init__(self, kinds: tuple[str, ...]):
        self.kinds = kinds

    def get_metavar(self, param, ctx=None) -> str:
        return "KIND[,KIND...]"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        kinds = tuple(k.strip().lower() for k in str(value).split(","))
        for k in kinds:
            if k in self.kinds:
                continue
            if k.partition(":")[0] not in self.kinds:
                self.fail(f"{k!r} is not a kind of player; give one of {', '.join(self.kinds)} (search:N for N "
                          f"iterations a decision) for every seat, or one per seat separated by commas "
                          f"(e.g. search,generic,random,random)", param, ctx)
            try:
                bot_kind(k)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return kinds

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        head, _, last = incomplete.rpartition(",")
        prefix = head + "," if head else ""
        return [CompletionItem(prefix + k) for k in self.kinds if k.startswith(last)]


def _seat_kinds(bots: tuple[str, ...], n: int, humans=()) -> tuple[str, ...]:
    """Who plays each of the ``n`` seats: ``bots`` (one kind, or one per seat) with the seats
    of ``humans`` (1-based, from --human) played by a person."""
    if len(bots) == 1:
        kinds = list(bots * n)
    elif len(bots) == n:
        kinds = list(bots)
    else:
        example = ",".join(("generic",) + ("random",) * (n - 1))
        raise click.BadParameter(f"{_count(len(bots), 'kind')} of player for {_count(n, 'seat')}: give one kind "
                                 f"for every seat, or exactly one per seat separated by commas (e.g. {example})",
                                 param_hint="'--bots'")
    for h in humans:
        if kinds[h - 1] != "human":
            if len(bots) > 1:
                raise click.BadParameter(f"seat {h} is yours (--human {h}), but the list gives it to a "
                                         f"{kinds[h - 1]} bot: write human in its place", param_hint="'--bots'")
            kinds[h - 1] = "human"
    return tuple(kinds)


def _resolve_bots(kinds: tuple[str, ...], engine, n: int, otherwise: str) -> tuple[str, ...]:
    """``kinds`` with ``auto`` made ``solved`` when the game can be solved (solving it
    the first time: up to a minute, then cached), else ``otherwise``; a usage error when
    ``solved`` is asked of a game that cannot be solved."""
    from .bots import bot_kind
    if not any(k != "human" and bot_kind(k)[0] in ("auto", "solved") for k in kinds):
        return kinds
    from rich.console import Console

    from .players import resolve_lineup
    try:
        # the first time, a small game is solved (up to a minute); a spinner says so
        with Console(stderr=True).status(f"solving {engine.game.title} for {n} players if it is small enough "
                                         f"(once: the answer is cached)"):
            return resolve_lineup(kinds, engine.game.source, engine.game.applied, n, otherwise, engine=engine)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--bots'") from None


def _seats_text(kinds: tuple[str, ...]) -> str:
    """"bots: search", or "P1 human, P2 search, P3 generic" when the seats differ."""
    if len(set(kinds)) == 1:
        return f"bots: {kinds[0]}"
    return ", ".join(f"P{s + 1} {k}" for s, k in enumerate(kinds))


def _bots_text(kinds: tuple[str, ...]) -> str:
    """"random bots", or "bots generic,random,random" when the seats differ."""
    return f"{kinds[0]} bots" if len(set(kinds)) == 1 else "bots " + ",".join(kinds)


def _variant_names(path: str) -> list[tuple[str, str | None]]:
    """The variants (name, label) of the file at ``path``, for shell completion: from its
    model when it parses, else from the lines that start with ``variant``; [] if unreadable."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    try:
        from . import model
        from .transform import to_model

        return [(i.name, i.label) for i in to_model(text, path).items if isinstance(i, model.VariantDecl)]
    except Exception:                       # a broken file: still offer what looks like a variant
        import re

        return [(name, None) for name in re.findall(r"^\s*variant\s+([A-Za-z_]\w*)", text, re.M)]


def _complete_variants(ctx: click.Context, param, incomplete: str):
    """Shell completion of --variant: the variant names of the FILE argument(s) given so far."""
    from click.shell_completion import CompletionItem

    paths = ctx.params.get("file") or ctx.params.get("files") or ()
    if isinstance(paths, str):
        paths = (paths,)
    # while --variant waits for its value, click parses no argument: they are left in ctx.args
    paths = (*paths, *ctx.args)
    found: dict = {}
    for path in paths:
        if path and path != "-":
            for name, label in _variant_names(path):
                found.setdefault(name, label)
    return [CompletionItem(name, help=label) for name, label in found.items() if name.startswith(incomplete)]


def _variant_option(help_text: str):
    return click.option("--variant", "variants", multiple=True, metavar="NAME", shell_complete=_complete_variants,
                        help=help_text)


def _load(path: str, variants) -> Engine:
    from .check import load
    from .engine import Engine
    from .errors import OptionError, RulesError

    try:
        return Engine(load(path, tuple(variants)))
    except RulesError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(2)
    except OptionError as exc:
        raise click.BadParameter(str(exc), param_hint="'--variant'") from None


class _GameCommand(click.Command):
    """A command on a FILE of rules: its ``--help`` names that game's own player counts when
    FILE is given and loads (``rulekit run FILE -h``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["rulekit.args"] = tuple(args)          # read by format_options, if --help
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter) -> None:
        players = next((p for p in self.params if p.name == "players"), None)
        game = _game_of(ctx.meta.get("rulekit.args", ()))
        if players is None or game is None:
            return super().format_options(ctx, formatter)
        low, high = game.players
        default = min(max(4, low), high)
        counts = f"{low}" if low == high else f"{low} to {high}"
        saved = players.help
        players.help = f"Number of seats: {counts} for {game.title} (default: {default})."
        try:
            super().format_options(ctx, formatter)
        finally:
            players.help = saved


def _game_of(args) -> "object | None":
    """The game of the first argument that names a readable rules file, or None."""
    import os

    for arg in args:
        if not arg.startswith("-") and os.path.isfile(arg):
            try:
                from .check import load

                return load(arg)
            except Exception:               # a broken file: the plain help will do
                return None
    return None


def _players_default(engine: Engine, players: int | None) -> int:
    low, high = engine.game.players
    if players is None:
        from .tree import default_players
        return default_players(engine.game)
    if not low <= players <= high:
        allowed = _count(low, "player") + " only" if low == high else f"{low} to {high} players"
        raise click.BadParameter(f"{engine.game.title} is for {allowed}, not {players}", param_hint="'--players'")
    return players


def fresh_seed() -> int:
    """A seed of 128 bits from the operating system: too many for a bot to find by trying
    seeds until one deals the cards it holds."""
    import random

    return random.SystemRandom().getrandbits(128)


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


def _make_players(engine, n, seed, kinds, console, think=None):
    from .players import HumanPlayer, make_bot
    from .players.human import HotSeat

    # several people at one keyboard: the screen is cleared between them
    hot_seat = HotSeat() if list(kinds).count("human") > 1 else None
    players = []
    for seat in range(n):
        kind = kinds[seat]
        if kind == "human":
            # the play-by-play prints every step; after a hand-over cleared it, the seat's recap
            players.append(HumanPlayer(engine, console, _ask, hot_seat, recap=hot_seat is not None))
        else:
            players.append(make_bot(kind, engine, seed, seat, source=engine.game.source,
                                    variants=engine.game.applied, players=n, think=think))
    if hot_seat is not None or "human" in kinds:
        if sys.stdin.isatty():
            from .players.human import tab_completion
            tab_completion(players)
    return players


class _Main(click.Group):
    """The ``rulekit`` group: Ctrl-C in any command stops it with one line and status 130."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("stopped: interrupted (Ctrl-C)", err=True)
            ctx.exit(130)


@click.group(cls=_Main, context_settings=CONTEXT, epilog="""\b
Shell completion of commands, options, files and variant names (bash; for
zsh or fish, write zsh_source or fish_source), e.g. in ~/.bashrc:
  eval "$(_RULEKIT_COMPLETE=bash_source rulekit)"
""")
@click.version_option(package_name="rulekit")
def main() -> None:
    """Write bluffing card games as plain text, then play, simulate and study them."""


@main.command(cls=_GameCommand, context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats ({PLAYERS_HELP}).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of chance; the same seed plays the same match (default: a fresh 128-bit seed, printed).")
@_variant_option("Apply a variant of the game (repeatable, applied in order).")
@click.option("--human", "humans", multiple=True, type=click.IntRange(min=1), metavar="SEAT",
              help="Seat (1 = P1) played by you at the terminal (repeatable).")
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
                                         "and its SHA-256, variants, seed, players), also when the match is "
                                         "stopped: what was played so far. `rulekit replay` plays it again.")
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
def run(file, players, seed, variants, humans, bots, think, log_path, log_for, verbose, quiet, max_decisions):
    """Play one match of the game in FILE and print the play-by-play.

    Ctrl-C stops the match (status 130), and so does the end of input at a
    prompt of --human (status 1); --log then holds what was played so far.
    `rulekit replay FILE.jsonl` plays a --log again and checks every event.
    """
    from rich.console import Console
    from rich.markup import escape

    from .errors import RulesRuntimeError
    from .match import MatchTooLong, play_match

    if verbose and quiet:
        raise click.UsageError("--verbose and --quiet do not go together")
    engine = _load(file, variants)
    n = _players_default(engine, players)
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
    logs = _Logs(file, engine, n, seed, kinds, log_path, log_for)
    console = Console(highlight=False)
    game = engine.game
    title = game.title + (f" ({', '.join(game.applied)})" if game.applied else "")
    console.print(f"[bold]{escape(title)}[/bold] — {_count(n, 'player')}, seed {seed}, "
                  f"{escape(_seats_text(kinds))}", soft_wrap=True)
    human_seats = {s for s, kind in enumerate(kinds) if kind == "human"}
    # bots alone: a summary per deal, every step with --verbose; with a person: every step
    on_events = _narrator(console, engine, human_seats, verbose or bool(human_seats), quiet)

    record = None
    try:
        record = play_match(engine, _make_players(engine, n, seed, kinds, console, think), n, seed, on_events,
                            max_steps=max_decisions, keep_log=logs.wanted)
        _standings(console, engine, record.state)
    except (KeyboardInterrupt, EOFError, click.Abort) as exc:
        # Ctrl-C (click.prompt's Abort is told apart by _ask), or no more input at a prompt
        end_of_input = isinstance(exc, EOFError) or isinstance(exc.__context__, EOFError)
        played = getattr(exc, "record", None) or record
        why = "end of input at the prompt" if end_of_input else "interrupted (Ctrl-C)"
        if played is not None:
            why += f" after {_count(played.steps, 'decision')}"
            for what, path, lines in _dump_log(logs, played.log):
                why += f"; {'what was played' if what is None else f'what {what} saw'} is in {path} " \
                       f"({_count(lines, 'line')})"
        console.file.flush()
        if getattr(exc, "at_prompt", False):
            click.echo(err=True)
        click.echo(f"stopped: {why}", err=True)
        sys.exit(1 if end_of_input else 130)
    except RulesRuntimeError as exc:
        played = getattr(exc, "record", None) or record       # what was played, up to the error
        if played is not None:
            _write_log(console, logs, played.log)
        click.echo(f"{file}: error: {exc}", err=True)
        sys.exit(2)
    except MatchTooLong as exc:
        _write_log(console, logs, exc.record.log)
        click.echo(f"{file}: error: {exc} (--max-decisions {max_decisions})", err=True)
        sys.exit(2)
    _write_log(console, logs, record.log)


class _Logs:
    """The log files `run` writes: --log (the header, then every decision and event) and
    each --log-for (what one seat saw: :func:`rulekit.replay.seat_log`)."""

    def __init__(self, file: str, engine: Engine, n: int, seed: int, kinds, log_path: str | None, log_for):
        self.file, self.engine, self.n, self.seed, self.kinds = file, engine, n, seed, kinds
        self.log_path = log_path
        self.log_for = tuple(log_for)

    @property
    def wanted(self) -> bool:
        """Whether the match must keep its log (play_match's keep_log)."""
        return self.log_path is not None or bool(self.log_for)


def _write_log(console: Console, logs: _Logs, log: list) -> None:
    for what, path, lines in _dump_log(logs, log):
        console.print(f"{'log' if what is None else f'what {what} saw'} written to {path} ({_count(lines, 'line')})",
                      markup=False, soft_wrap=True)


def _dump_log(logs: _Logs, log: list) -> list[tuple[str | None, str, int]]:
    """Write the log files of ``logs`` for the records ``log``: (None for --log or the seat
    "P1" for --log-for, path, number of lines) of each file written."""
    from .engine.narrate import seat_name
    from .match import log_header
    from .replay import ReplayError, seat_log, write_log

    if not logs.wanted:
        return []
    header = log_header(logs.engine, logs.file, logs.n, logs.seed, logs.kinds)
    written = []
    if logs.log_path:
        written.append((None, logs.log_path, write_log(logs.log_path, [header, *log])))
    for seat, path in logs.log_for:
        try:
            records = seat_log(logs.engine, header, log, seat - 1)
        except ReplayError as exc:         # the match as logged does not play again: a bug
            click.echo(f"{path}: error: what {seat_name(seat - 1)} saw could not be written: {exc}", err=True)
            continue
        written.append((seat_name(seat - 1), path, write_log(path, records)))
    return written


def _narrator(console: Console, engine: Engine, human_seats=frozenset(), every_step: bool = True,
              quiet: bool = False):
    """The play-by-play of `run` and `replay`: ``on_events(state, events)`` prints a line
    per event worth telling (``every_step``), or only each deal's start and result; a
    private ``show`` to a seat no person plays is only counted."""
    from .engine.narrate import seat_name

    def on_events(state, events):
        if quiet:
            return
        for ev in events:
            if ev.seat is not None and ev.seat not in human_seats:
                # a private result (an inspection) is for the seat that saw it alone
                if every_step:
                    seen = len(ev.data.get("cards", ()))
                    console.print(f"  ({seat_name(ev.seat)} is shown {_count(seen, 'card')})", markup=False,
                                  soft_wrap=True)
                continue
            if ev.kind == "deal_end":
                console.print(_deal_summary(engine, state.n, ev.data), markup=False, soft_wrap=True)
                continue
            if not every_step and ev.kind not in ("deal_start", "match_end", "out"):
                continue
            line = engine.describe_event(ev, state.n)
            if line:
                console.print(line, markup=False, soft_wrap=True)
        if every_step and not state.is_terminal and any(ev.kind == "deal_start" for ev in events):
            # the deal is set up: say who holds the seats the rules name (the dealer…) and
            # whose decision opens it
            cg = engine.cg
            for name, init, seat in zip(cg.seat_names[3:], cg.seat_inits, state.seats[3:]):
                if init is not None:
                    console.print(f"  {name.replace('_', ' ')}: {seat_name(seat)}", markup=False, soft_wrap=True)
            console.print(f"  {seat_name(engine.decider(state))} starts", markup=False, soft_wrap=True)

    return on_events


@main.command(context_settings=CONTEXT, short_help="Play a --log again, checking every event.")
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--rules", type=click.Path(exists=True, dir_okay=False), default=None, metavar="FILE",
              help="The rules file to use instead of the one the log's header names (it must be the same bytes).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the last line (the verdict).")
def replay(log, rules, quiet):
    """Play the match of LOG (written by `rulekit run --log`) again and check it.

    The header names the rules file, its SHA-256, the variants, the number of seats and
    the seed: the match starts again from them, each recorded decision is applied in
    turn, and every event the engine gives must equal the log's. It prints the
    play-by-play (as `run -v` does) and "replayed N decisions: every event matches";
    the first difference, or a rules file that changed since the log was written, is
    reported as LOG:LINE: error: … with status 2.
    """
    from rich.console import Console
    from rich.markup import escape

    from .replay import ReplayError, load_rules, read_log, replay_records

    console = Console(highlight=False)
    try:
        header, records = read_log(log)
        engine = load_rules(header, log, rules)
        game = engine.game
        if not quiet:
            title = game.title + (f" ({', '.join(game.applied)})" if game.applied else "")
            console.print(f"[bold]{escape(title)}[/bold] — {_count(header['players'], 'player')}, seed "
                          f"{header['seed']} (replaying {escape(log)})", soft_wrap=True)
        done = replay_records(engine, header, records, log, _narrator(console, engine, quiet=quiet))
    except ReplayError as exc:
        console.file.flush()
        click.echo(str(exc), err=True)
        sys.exit(2)
    if done.finished and not quiet:
        _standings(console, engine, done.state)
    ended = "" if done.finished else " (the log stops before the match ends)"
    console.print(f"replayed {_count(done.decisions, 'decision')}: every event matches{ended}", markup=False,
                  soft_wrap=True)


def _deal_summary(engine: Engine, n: int, data) -> str:
    from .engine.narrate import seat_name

    parts = []
    counters = data["counters"]
    bases = engine.cg.counter_base(n)
    for ci, decl in enumerate(engine.game.counters):
        if decl.per_player and decl.seen == "all":
            values = counters[bases[ci]:bases[ci] + n]
            parts.append(f"{decl.name}: " + ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(values)))
    extra = ("; " + "; ".join(parts)) if parts else ""
    return f"end of deal {data['deal']}{extra}"


def _standings(console: Console, engine: Engine, state) -> None:
    from rich.markup import escape
    from rich.table import Table

    from .engine.narrate import seat_name

    table = Table(title="Final standings")
    table.add_column("place")
    table.add_column("seat")
    keys = engine.game.match.winners
    for key in keys:
        table.add_column(escape(("highest " if key.highest else "lowest ") + _expr_text(engine, key)))
    out = state.out or (0,) * state.n
    if any(out):
        table.add_column("out")
    table.add_column("result", justify="right")
    table.add_column("")
    rows = engine.standings(state)
    returns = engine.returns(state)
    place = 0
    previous = None
    for i, (seat, values) in enumerate(rows, 1):
        if (out[seat], values) != previous:
            place = i
            previous = (out[seat], values)
        went = [f"{_ordinal(out[seat])} out" if out[seat] else ""] if any(out) else []
        table.add_row(str(place), seat_name(seat), *map(str, values), *went, f"{returns[seat]:+g}",
                      "winner" if seat in state.winners else "")
    console.print(table)


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _summary(game) -> str:
    """Players, cards, dice and phases of a checked game, in a few words."""
    low, high = game.players
    parts = [_count(low, "player") if low == high else f"{low}-{high} players", _count(game.deck_size, "card")]
    each = sum(k.count for k in game.kinds if k.start is not None)
    if each:
        parts.append(_count(each, "card") + " for each seat")
    dice = [d for d in game.dice if d.count]
    if dice:
        parts.append(", ".join(f"{d.count} {d.name} " + ("in each " if d.each else "in ") + str(d.zone)
                               for d in dice))
    parts.append(_count(len(game.phases), "phase"))
    return ", ".join(parts)


def _expr_text(engine: Engine, key) -> str:
    span = key.expr.span
    lines = engine.game.source.splitlines()
    if span.line and span.line == span.end_line and span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "value"


@main.command(context_settings=CONTEXT, short_help="Check each FILE (- for standard input) and its variants.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(dir_okay=False, allow_dash=True))
@_variant_option("Check the game with this variant applied instead of every variant (repeatable, applied in "
                 "order, to each FILE).")
def check(files, variants):
    """Parse and check each FILE (- reads standard input) and every variant of it;
    report every problem.

    The status is 2 if any file has a problem, 0 if all are fine.
    """
    stdin: list = []                    # standard input, read once however often - is given
    failed = False
    for path in files:
        if not _check_one(path, variants, stdin):
            failed = True
    if failed:
        sys.exit(2)


def _check_one(path: str, variants, stdin: list) -> bool:
    """Check one file (``-``: standard input, shown as ``<stdin>``); print what is found.
    True if it is fine."""
    from .check import check_text, decode, loads
    from .errors import OptionError, RulesError

    shown = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            if not stdin:
                stream = sys.stdin
                stdin.append(stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode("utf-8"))
            raw = stdin[0]
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
    except OSError as exc:
        click.echo(f"{shown}: error: cannot read the file ({exc.strerror or exc})", err=True)
        return False
    try:
        text = decode(raw, shown)
        if variants:
            game = loads(text, shown, variants)
            click.echo(f"{shown}: ok — {game.title} ({', '.join(game.applied)}), {_summary(game)}")
            return True
        rows = check_text(text, shown)
    except RulesError as exc:
        click.echo(exc.render(), err=True)
        return False
    except OptionError as exc:
        click.echo(f"{shown}: error: {exc} (--variant)", err=True)
        return False
    fine = True
    for name, label, result in rows:
        if isinstance(result, RulesError):
            fine = False
            if name is not None:
                click.echo(f"  variant {name}: error", err=True)
            click.echo(result.render(), err=True)
        elif name is None:
            click.echo(f"{shown}: ok — {result.title}, {_summary(result)}")
        else:
            click.echo(f"  variant {name}: ok" + (f" — {label}" if label else ""))
    return fine


@main.command(cls=_GameCommand, name="compile", context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats the module is written for ({PLAYERS_HELP}).")
@_variant_option("Apply a variant (repeatable, applied in order).")
@click.option("--emit", is_flag=True, help="Print the generated Python module.")
def compile_(file, players, variants, emit):
    """Compile FILE to Python, as the engine runs it; --emit prints the module."""
    engine = _load(file, variants)
    n = _players_default(engine, players)
    program = engine.program(n)
    if emit:
        click.echo(program.source, nl=False)
        return
    made = sum(1 for row in program.enumerators for e in row if e is not None)
    total = sum(len(row) for row in program.enumerators)
    click.echo(f"{file}: compiled for {_count(n, 'player')} — {made} of {_count(total, 'action')} enumerated by "
               f"generated code, {_count(len(program.source.splitlines()), 'line')} (--emit prints them)")


@main.command(context_settings=CONTEXT, short_help="Write the rulebook of FILE in plain language.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@_variant_option("Apply a variant (repeatable, applied in order); the rulebook then says what it changes.")
def explain(file, variants):
    """Write the rulebook of the game in FILE in plain language: its components, setup,
    turns, claims, what others may do in between, and how the match ends and is scored.

    It is written from the rules themselves, not from the comments of the file; with
    --variant, it starts with what the variant changes from the base game.
    """
    from .explain import explain as rulebook

    click.echo(rulebook(_load(file, variants).game), nl=False)


def _cores() -> int:
    """The cores this process may run on (the default of `simulate --workers`)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on every system
        return os.cpu_count() or 1


def _simulation_options(command):
    """The options of `simulate` that `compare` shares: what to play and where."""
    options = [
        click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
                     help="How many matches to play."),
        click.option("--players", "-n", type=click.IntRange(min=1), default=None,
                     help=f"Number of seats ({PLAYERS_HELP})."),
        click.option("--seed", "-s", type=int, default=None,
                     help="Seed of the first match (default: a fresh 128-bit seed, printed); match k plays "
                          "seed + k - 1."),
        click.option("--bots", type=_Bots(BOTS), default="auto", show_default=True,
                     help="Which bots play: one kind for all seats, or one per seat separated by commas (e.g. "
                          "search,generic,generic,generic). Kinds: auto (solved when the game is small enough to "
                          "solve, else generic), generic (fast), search or search:N (tree search, N iterations a "
                          "decision: slow), solved, random (figures then describe random play)."),
        click.option("--rotate", is_flag=True,
                     help="Rotate the line-up of --bots over the seats: each match seats it one place further on "
                          "(P1's bot plays P2 in the next match), so that the seats and the bots do not mix up; "
                          "the figures by bot kind add up every seat it had."),
        click.option("--max-decisions", type=click.IntRange(min=1), default=MAX_DECISIONS, show_default=True,
                     help="Count a match that has not ended after this many decisions as unfinished."),
        click.option("--workers", "-w", type=click.IntRange(min=1), default=_cores, show_default="all cores",
                     help="Processes that play the matches (1: in this process). The results do not depend on it."),
        click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
                     help="Play the matches on Ray: a local Ray, or the cluster at ADDRESS (host:port); "
                          'needs pip install "rulekit[ray]".'),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _output_option(name: str, metavar: str, help_text: str):
    return click.option(f"--{name}", f"{name}_path", type=click.Path(dir_okay=False), default=None, metavar=metavar,
                        help=help_text)


@main.command(cls=_GameCommand, context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@_variant_option("Apply a variant (repeatable, applied in order).")
@_simulation_options
@_output_option("json", "FILE", "Write every figure, and one row per match, to FILE as JSON.")
@_output_option("csv", "FILE", "Write one row per match to FILE as CSV.")
@_output_option("plot", "FILE.png", "Draw the win shares, match lengths and bluffing figures into FILE.png; "
                                    'needs pip install "rulekit[plot]".')
@click.pass_context
def simulate(ctx, file, variants, games, players, seed, bots, rotate, max_decisions, workers, ray_address, json_path,
             csv_path, plot_path):
    """Play many bot matches of FILE and report win shares per seat, seat fairness, match
    lengths and bluffing (claims, false claims, challenges), per seat and per bot kind.

    docs/simulate.md defines every figure.
    """
    from rich.console import Console
    from rich.progress import Progress

    from . import simulation

    ray = _ray_module(ctx, ray_address)
    if plot_path:
        _need_plot()
    for path, option in ((json_path, "--json"), (csv_path, "--csv"), (plot_path, "--plot")):
        _check_writable(path, option)
    engine = _load(file, variants)
    n = _players_default(engine, players)
    kinds = _resolve_bots(_seat_kinds(bots, n), engine, n, "generic")
    console = Console(highlight=False)
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    spec = simulation.SimulationSpec(engine.game.source, file, tuple(variants), n, kinds, seed, max_decisions, rotate)
    rows: list | None = [] if json_path or csv_path else None
    started = _start_ray(ray, ray_address)
    try:
        with Progress(console=console, transient=True) as progress:
            summary = _play(progress, file, spec, games, workers, ray, engine, "playing",
                            None if rows is None else rows.append)
    finally:
        if started:
            ray.shutdown()
    figures = simulation.figures(summary)
    challengers = simulation.challenge_actions(engine.game)
    _print_simulation(console, engine, spec, games, summary, figures, challengers)
    title = f"{engine.game.title}: {_lineup_text(spec, games)}"
    if json_path:
        _write_json(json_path, file, engine, spec, games, figures, challengers, rows)
        console.print(f"figures and {_count(len(rows), 'match', 'matches')} written to {json_path}", markup=False)
    if csv_path:
        _write_csv(csv_path, n, rows)
        console.print(f"{_count(len(rows), 'match', 'matches')} written to {csv_path}", markup=False)
    if plot_path:
        from .plot import render

        render(plot_path, title, figures, summary)
        console.print(f"plot drawn into {plot_path}", markup=False)


def _ray_module(ctx: click.Context, ray_address: str | None):
    """The ray module when --ray is given (None otherwise); a usage error with --workers or
    when Ray is not installed."""
    if ray_address is None:
        return None
    if ctx.get_parameter_source("workers") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--workers and --ray do not go together: on Ray, every CPU of the cluster "
                               "plays matches")
    try:
        import ray
    except ImportError:
        raise click.UsageError('--ray needs Ray, which is not installed here: pip install "rulekit[ray]"') from None
    return ray


def _start_ray(ray, ray_address: str | None) -> bool:
    """Connect to the Ray of --ray unless this process is connected already; True if it
    was started here (and is to be shut down)."""
    if ray is None or ray.is_initialized():
        return False
    if ray_address and "://" not in ray_address and ray_address not in ("auto", "local"):
        import socket

        host, _, port = ray_address.rpartition(":")
        try:                            # Ray itself retries a wrong address for minutes
            socket.create_connection((host, int(port)), timeout=10).close()
        except ValueError:
            raise click.BadParameter(f"{ray_address!r} is not HOST:PORT (e.g. head:6379)",
                                     param_hint="'--ray'") from None
        except OSError as exc:
            raise click.BadParameter(f"no Ray cluster answers at {ray_address} ({exc.strerror or exc})",
                                     param_hint="'--ray'") from None
    try:
        ray.init(address=ray_address or None)
    except Exception as exc:            # Ray raises ConnectionError, ValueError, RuntimeError...
        where = f"the Ray cluster at {ray_address}" if ray_address else "a local Ray"
        chain = [exc]
        while chain[-1].__cause__ is not None:      # the reason lies below "Failed to connect"
            chain.append(chain[-1].__cause__)
        if any("InvalidAuthToken" in str(e) for e in chain):
            why = (" (the cluster asks for its authentication token: set RAY_AUTH_MODE=token and give "
                   "this machine the cluster's token, see docs/simulate.md)")
        else:
            why = "" if len(chain) == 1 else f" ({str(chain[-1]).splitlines()[0].split('. ')[0]})"
        raise click.BadParameter(f"cannot start or reach {where}: {exc}{why}", param_hint="'--ray'") from None
    return True


def _need_plot() -> None:
    """A usage error naming the extra when --plot cannot draw (matplotlib is missing)."""
    from .plot import PlotUnavailable, require

    try:
        require()
    except PlotUnavailable as exc:
        raise click.UsageError(f"--plot {exc}") from None


def _check_writable(path: str | None, option: str) -> None:
    """A bad parameter now, not after the matches, if ``path`` cannot be written."""
    import os

    if not path:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise click.BadParameter(f"cannot write {path}: no folder {folder}", param_hint=f"'{option}'")
    if not os.access(folder, os.W_OK) or os.path.exists(path) and not os.access(path, os.W_OK):
        raise click.BadParameter(f"cannot write {path}: permission denied", param_hint=f"'{option}'")


def _play(progress, file: str, spec, games: int, workers: int, ray, engine, label: str, on_outcome=None):
    """Play the matches of ``spec`` with a bar of the rich ``progress``; a runtime error of
    the rules stops the command (status 2) naming the lowest failing match."""
    from .simulation import MatchFailed, simulate as run_simulation

    where = "on Ray" if ray is not None else f"({_count(min(workers, games), 'worker')})"
    task = progress.add_task(f"{label} {where}", total=games)
    try:
        return run_simulation(spec, games, workers, ray=ray is not None, engine=engine,
                              on_progress=lambda k: progress.advance(task, k), on_outcome=on_outcome)
    except MatchFailed as exc:
        progress.stop()
        click.echo(f"{file}: error: {exc}", err=True)
        sys.exit(2)


def _lineup_text(spec, games: int) -> str:
    """"24 matches, 2 players, random bots", with ", rotated over the seats" for --rotate."""
    text = f"{_count(games, 'match', 'matches')}, {_count(spec.players, 'player')}, {_bots_text(spec.bots)}"
    return text + (", rotated over the seats" if spec.rotate and len(set(spec.bots)) > 1 else "")


def _pct(share) -> str:
    """A share as a percentage with one decimal, "—" when there is none."""
    return "—" if share is None else f"{share:.1%}"


def _pct_interval(interval) -> str:
    """An interval of shares as "20.6–30.4%"."""
    return "—" if interval is None else f"{interval[0] * 100:.1f}–{interval[1] * 100:.1f}%"


def _num(x) -> str:
    """A count or a mean: whole numbers as such, others with one decimal; "—" for None."""
    if x is None:
        return "—"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def _challenge_text(engine, challengers) -> str:
    """The challenge actions, as "NAME (in PHASE), …"."""
    return ", ".join(f"{action} (in {phase})" for phase, action in
                     sorted(challengers, key=lambda pa: (engine.cg.phases[pa[0]].index, pa[1])))


def _print_simulation(console, engine, spec, games: int, summary, figures: dict, challengers) -> None:
    from rich.markup import escape
    from rich.table import Table

    from .engine.narrate import seat_name

    n = spec.players
    finished = summary.finished
    several = len(figures["kinds"]) > 1
    table = Table(title=f"{escape(engine.game.title)}: {escape(_lineup_text(spec, games))}")
    table.add_column("seat")
    table.add_column("wins¹", justify="right")
    table.add_column("win share", justify="right")
    table.add_column("95 % interval", justify="right")
    table.add_column("mean result", justify="right")
    rows = [(seat_name(s), f) for s, f in enumerate(figures["seats"])]
    if several:
        rows += [(f"{f['kind']} ({_count(f['seats_per_match'], 'seat')})", f) for f in figures["kinds"]]
    for i, (name, f) in enumerate(rows):
        mean = f["mean_result"]
        table.add_row(name, _num(f["wins"]), _pct(f["win_share"]), _pct_interval(f["win_interval"]),
                      "—" if mean is None else f"{mean:+.3f}", end_section=several and i == n - 1)
    console.print(table)
    notes = ["¹ a win shared by k seats counts 1/k to each seat"]
    if summary.shared:
        notes[0] += f" ({_count(summary.shared, 'match', 'matches')} ended in a shared win)"
    if several:
        notes.append("  a bot kind's win share is per seat it had; its interval counts matches, not seats")
    if spec.rotate and several:
        notes.append("  --rotate: each match seats the line-up one place further on")
    if set(spec.bots) == {"random"}:
        notes.append("  random bots: these figures describe random play, not how people play "
                     "(the default bots: --bots auto)")
    for line in notes:
        console.print(line, markup=False, soft_wrap=True)
    fair = figures["fairness"]
    if fair["p"] is None:
        console.print("seat fairness: " + ("one seat, nothing to compare" if n == 1 else "no finished match"),
                      markup=False)
    else:
        verdict = ("the seats' win shares differ more than chance would make them (p < 0.05)" if fair["p"] < 0.05
                   else "no evidence that the seats' win shares differ")
        console.print(f"seat fairness: chi-square {fair['statistic']:.2f} with {fair['df']} degrees of freedom, "
                      f"p = {fair['p']:.3g}: {verdict}", markup=False, soft_wrap=True)
    for name, label in (("decisions", "decisions"), ("turns", "turns"), ("deals", "deals")):
        got = figures["length"][name]
        if got is not None:
            console.print(f"{label} per match: min {_num(got['min'])}, lower quartile {_num(got['q1'])}, median "
                          f"{_num(got['median'])}, upper quartile {_num(got['q3'])}, max {_num(got['max'])}",
                          markup=False, soft_wrap=True)
    if summary.unfinished:
        console.print(f"unfinished: {summary.unfinished} of {_count(games, 'match', 'matches')} did not end "
                      f"within {_count(spec.max_decisions, 'decision')} (--max-decisions); the figures are of the "
                      f"{finished} that did", markup=False, soft_wrap=True)
    else:
        console.print(f"unfinished: 0 (every match ended within {_count(spec.max_decisions, 'decision')})",
                      markup=False)
    bluff = figures["bluffing"]
    if not engine.game.claims:
        console.print("bluffing: the rules declare no claim", markup=False)
        return
    table = Table(title="Bluffing")
    table.add_column("seat")
    for name in ("claims", "false", "challenges", "succeeded", "lies caught"):
        table.add_column(name, justify="right")
    rows.append(("all seats", bluff))
    for i, (name, f) in enumerate(rows):
        table.add_row(name, str(f["claims"]), _pct(f["false_share"]), str(f["challenges"]),
                      _pct(f["challenge_success"]), _pct(f["lies_caught_share"]),
                      end_section=i == n - 1 or i == len(rows) - 2)
    console.print(table)
    lines = [f"per match: {_num(bluff['claims_per_match'])} claims, {_num(bluff['challenges_per_match'])} challenges",
             "false: the claim was untrue right after the decision that made it",
             ("challenge: " + _challenge_text(engine, challengers) + ", taken against another seat's claim"
              if challengers else "challenge: none (no action of these rules tests a claim with 'claim holds')"),
             "succeeded: the challenged claim was false; lies caught: false claims challenged while they stood"]
    if bluff["unjudged_claims"]:
        lines.append(f"{_count(bluff['unjudged_claims'], 'claim')} no longer stood at the end of the decision that "
                     f"made it: not judged true or false")
    for line in lines:
        console.print(line, markup=False, soft_wrap=True)


def _write_json(path: str, file: str, engine, spec, games: int, figures: dict, challengers, rows) -> None:
    import json

    from .simulation import outcome_row

    data = {"file": file, "title": engine.game.title, "variants": list(spec.variants), "players": spec.players,
            "games": games, "seed": spec.seed, "bots": list(spec.bots), "rotate": spec.rotate,
            "max_decisions": spec.max_decisions,
            "challenge_actions": [{"phase": p, "action": a} for p, a in sorted(challengers)],
            "figures": figures, "matches": [outcome_row(o) for o in rows]}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1, allow_nan=False)
        fh.write("\n")


def _write_csv(path: str, n: int, rows) -> None:
    import csv

    from .simulation import COUNTS, outcome_row

    seats = [f"P{s + 1}" for s in range(n)]
    header = (["match", "seed", "lineup", "finished", "winners", *(f"returns_{p}" for p in seats),
               "decisions", "turns", "deals"] + [f"{name}_{p}" for name in COUNTS for p in seats])
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(header)
        for o in rows:
            row = outcome_row(o)
            returns = row["returns"] or [""] * n
            out.writerow([row["match"], row["seed"], " ".join(row["lineup"]), int(row["finished"]),
                          " ".join(f"P{s}" for s in row["winners"]), *returns, row["decisions"], row["turns"],
                          row["deals"], *(v for name in COUNTS for v in (row[name] or [""] * n))])


@main.command(cls=_GameCommand, context_settings=CONTEXT, short_help="Simulate the game and its variants side by side.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--variant", "variants", multiple=True, required=True, metavar="NAME",
              shell_complete=_complete_variants,
              help="A variant to compare with the base game (repeatable). Each --variant is an arm of its own, "
                   "played on the base game alone: unlike in the other commands, the variants are not applied one "
                   "on top of the other. 'base' names the base game itself (--variant base plays it twice: what "
                   "no difference looks like).")
@_simulation_options
@click.pass_context
def compare(ctx, file, variants, games, players, seed, bots, rotate, max_decisions, workers, ray_address):
    """Simulate the base game of FILE and each --variant with the same seeds, seats and
    bots, and print their figures side by side: win shares, seat fairness, match length
    and bluffing.

    A figure of a variant is marked ≠ when its 95 % interval does not overlap the base
    game's (a difference the matches show; overlapping intervals do not prove the arms
    alike).
    """
    from rich.console import Console
    from rich.progress import Progress

    from . import simulation

    ray = _ray_module(ctx, ray_address)
    arms = [("base", ())] + [(v, () if v == "base" else (v,)) for v in dict.fromkeys(variants)]
    engines = [_load(file, applied) for _, applied in arms]
    n = _players_default(engines[0], players)
    for (name, _), engine in zip(arms[1:], engines[1:]):
        low, high = engine.game.players
        if not low <= n <= high:
            raise click.BadParameter(f"variant {name} is for {low} to {high} players, not {n}", param_hint="'--players'")
    # one line-up for every arm: solved only when every arm can be solved
    kinds = _seat_kinds(bots, n)
    for engine in engines:
        kinds = _resolve_bots(kinds, engine, n, "generic")
    console = Console(highlight=False)
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    results = []
    started = _start_ray(ray, ray_address)
    try:
        with Progress(console=console, transient=True) as progress:
            for (name, applied), engine in zip(arms, engines):
                spec = simulation.SimulationSpec(engine.game.source, file, applied, n, kinds, seed, max_decisions,
                                                 rotate)
                summary = _play(progress, file, spec, games, workers, ray, engine, f"playing {name}")
                results.append((name, summary, simulation.figures(summary)))
    finally:
        if started:
            ray.shutdown()
    _print_comparison(console, engines[0], spec, games, results)


def _print_comparison(console, engine, spec, games: int, results) -> None:
    from rich.markup import escape
    from rich.table import Table

    from .engine.narrate import seat_name
    from .stats import overlap

    table = Table(title=f"{escape(engine.game.title)}: {escape(_lineup_text(spec, games))} in each arm")
    table.add_column("")
    for name, _, _ in results:
        table.add_column(escape(name), justify="right")
    marked = False

    def row(label: str, cell, end: bool = False) -> None:
        """``cell(figures) -> (text, interval or None)``; a variant's text is marked when its
        interval does not overlap the base game's."""
        nonlocal marked
        base = cell(results[0][2])
        texts = [base[0]]
        for _, _, figures in results[1:]:
            text, interval = cell(figures)
            if interval is not None and base[1] is not None and not overlap(interval, base[1]):
                text += " ≠"
                marked = True
            texts.append(text)
        table.add_row(label, *texts, end_section=end)

    def share(get):
        def cell(figures):
            value, interval = get(figures)
            if value is None:
                return "—", None
            return f"{_pct(value)} ({interval[0] * 100:.1f}–{interval[1] * 100:.1f})", interval
        return cell

    def count(get):
        def cell(figures):
            value, interval = get(figures)
            if value is None:
                return "—", None
            return (f"{_num(value)} ({_num(interval[0])}–{_num(interval[1])})" if interval else _num(value)), interval
        return cell

    n = spec.players
    for s in range(n):
        row(f"win share {seat_name(s)}", share(lambda f, s=s: (f["seats"][s]["win_share"], f["seats"][s]["win_interval"])),
            end=s == n - 1)
    kinds = results[0][2]["kinds"]
    if len(kinds) > 1:
        for k, kind in enumerate(kinds):
            row(f"win share {kind['kind']}", share(lambda f, k=k: (f["kinds"][k]["win_share"],
                                                                 f["kinds"][k]["win_interval"])),
                end=k == len(kinds) - 1)
    row("seat fairness p", lambda f: ("—" if f["fairness"]["p"] is None else f"{f['fairness']['p']:.3g}", None))
    row("unfinished", lambda f: (str(f["unfinished"]), None), end=True)
    for name in ("decisions", "turns", "deals"):
        row(f"median {name}", count(
            lambda f, name=name: (None, None) if f["length"][name] is None
            else (f["length"][name]["median"], f["length"][name]["median_interval"])), end=name == "deals")
    b = "bluffing"
    row("claims / match", count(lambda f: (f[b]["claims_per_match"], f[b]["claims_per_match_interval"])))
    row("false claims", share(lambda f: (f[b]["false_share"], f[b]["false_interval"])))
    row("challenges / match", count(lambda f: (f[b]["challenges_per_match"], f[b]["challenges_per_match_interval"])))
    row("successful challenges", share(lambda f: (f[b]["challenge_success"], f[b]["challenge_success_interval"])))
    row("lies caught", share(lambda f: (f[b]["lies_caught_share"], f[b]["lies_caught_interval"])))
    console.print(table)
    console.print("(…): 95 % interval; a win shared by k seats counts 1/k; medians per finished match; "
                  "docs/simulate.md defines each figure", markup=False, soft_wrap=True)
    if marked:
        console.print(f"≠: its 95 % interval does not overlap that of {results[0][0]}", markup=False, soft_wrap=True)
    else:
        console.print(f"no figure's 95 % interval lies apart from that of {results[0][0]}", markup=False,
                      soft_wrap=True)


if __name__ == "__main__":
    main()
