"""The ``rulekit`` command: run a match, check a file, simulate many matches."""

from __future__ import annotations

import sys

import click

from .bounds import MAX_DECISIONS

# Only click is imported up front, so that `rulekit --help` starts quickly; each command
# imports what it uses (the parser, the engine, rich) when it runs.

BOTS = ("generic", "random")

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
            if k not in self.kinds:
                self.fail(f"{k!r} is not a kind of player; give one of {', '.join(self.kinds)} for every seat, "
                          f"or one per seat separated by commas (e.g. generic,random,random,random)", param, ctx)
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


def _players_default(engine: Engine, players: int | None) -> int:
    low, high = engine.game.players
    if players is None:
        return min(max(4, low), high)
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


def _make_players(engine, n, seed, kinds, console):
    from .match import seat_rng
    from .players import GenericBot, HumanPlayer, RandomBot
    from .players.human import HotSeat

    # several people at one keyboard: the screen is cleared between them
    hot_seat = HotSeat() if list(kinds).count("human") > 1 else None
    players = []
    for seat in range(n):
        kind = kinds[seat]
        if kind == "human":
            players.append(HumanPlayer(engine, console, _ask, hot_seat))
        elif kind == "random":
            players.append(RandomBot(seat_rng(seed, seat)))
        else:
            players.append(GenericBot(engine, seat_rng(seed, seat)))
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


@main.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats ({PLAYERS_HELP}).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of chance; the same seed plays the same match (default: a fresh 128-bit seed, printed).")
@_variant_option("Apply a variant of the game (repeatable, applied in order).")
@click.option("--human", "humans", multiple=True, type=click.IntRange(min=1), metavar="SEAT",
              help="Seat (1 = P1) played by you at the terminal (repeatable).")
@click.option("--bots", type=_Bots(BOTS + ("human",)), default="generic", show_default=True,
              help="Who plays the seats: one kind for all (generic or random; seats of --human excepted), or one "
                   "per seat separated by commas, human for yours (e.g. human,generic,random,random).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE.jsonl", help="Write every decision and event as JSON lines (also when the match is "
                                         "stopped: what was played so far).")
@click.option("--verbose", "-v", is_flag=True,
              help="Print every step of the match (the default when a person plays; bots alone get a "
                   "summary per deal).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result (the final standings).")
@click.option("--max-decisions", type=click.IntRange(min=1), default=MAX_DECISIONS, show_default=True,
              help="Stop a match that has not ended after this many decisions.")
def run(file, players, seed, variants, humans, bots, log_path, verbose, quiet, max_decisions):
    """Play one match of the game in FILE and print the play-by-play.

    Ctrl-C stops the match (status 130), and so does the end of input at a
    prompt of --human (status 1); --log then holds what was played so far.
    """
    from rich.console import Console
    from rich.markup import escape

    from .engine.compile import RulesRuntimeError
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
    if log_path:
        try:                            # say so now, not after the whole match
            open(log_path, "w", encoding="utf-8").close()
        except OSError as exc:
            raise click.BadParameter(f"cannot write {log_path}: {exc.strerror}", param_hint="'--log'") from None
    if seed is None:
        seed = fresh_seed()
    console = Console(highlight=False)
    game = engine.game
    title = game.title + (f" ({', '.join(game.applied)})" if game.applied else "")
    console.print(f"[bold]{escape(title)}[/bold] — {_count(n, 'player')}, seed {seed}", soft_wrap=True)
    human_seats = {s for s, kind in enumerate(kinds) if kind == "human"}

    from .engine.narrate import seat_name

    # bots alone: a summary per deal, every step with --verbose; with a person: every step
    every_step = verbose or bool(human_seats)

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
            # the deal is set up: say whose decision opens it
            console.print(f"  {seat_name(engine.decider(state))} starts", markup=False, soft_wrap=True)

    record = None
    try:
        record = play_match(engine, _make_players(engine, n, seed, kinds, console), n, seed, on_events,
                            max_steps=max_decisions, keep_log=log_path is not None)
        _standings(console, engine, record.state)
    except (KeyboardInterrupt, EOFError, click.Abort) as exc:
        # Ctrl-C (click.prompt's Abort is told apart by _ask), or no more input at a prompt
        end_of_input = isinstance(exc, EOFError) or isinstance(exc.__context__, EOFError)
        played = getattr(exc, "record", None) or record
        why = "end of input at the prompt" if end_of_input else "interrupted (Ctrl-C)"
        if played is not None:
            why += f" after {_count(played.steps, 'decision')}"
            if log_path:
                _dump_log(log_path, played.log)
                why += f"; what was played is in {log_path} ({_count(len(played.log), 'line')})"
        console.file.flush()
        if getattr(exc, "at_prompt", False):
            click.echo(err=True)
        click.echo(f"stopped: {why}", err=True)
        sys.exit(1 if end_of_input else 130)
    except RulesRuntimeError as exc:
        played = getattr(exc, "record", None) or record       # what was played, up to the error
        if played is not None:
            _write_log(console, log_path, played.log)
        click.echo(f"{file}: error: {exc}", err=True)
        sys.exit(2)
    except MatchTooLong as exc:
        _write_log(console, log_path, exc.record.log)
        click.echo(f"{file}: error: {exc} (--max-decisions {max_decisions})", err=True)
        sys.exit(2)
    _write_log(console, log_path, record.log)


def _write_log(console: Console, log_path: str | None, log: list) -> None:
    if log_path:
        _dump_log(log_path, log)
        console.print(f"log written to {log_path} ({_count(len(log), 'line')})", markup=False)


def _dump_log(log_path: str, log: list) -> None:
    import json

    with open(log_path, "w", encoding="utf-8") as fh:
        for row in log:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


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


@main.command(name="compile", context_settings=CONTEXT)
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


def _cores() -> int:
    """The cores this process may run on (the default of `simulate --workers`)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on every system
        return os.cpu_count() or 1


@main.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many matches to play.")
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats ({PLAYERS_HELP}).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of the first match (default: a fresh 128-bit seed, printed); match k plays seed + k - 1.")
@_variant_option("Apply a variant (repeatable, applied in order).")
@click.option("--bots", type=_Bots(BOTS), default="random", show_default=True,
              help="Which bots play: one kind for all seats (generic or random), or one per seat separated by "
                   "commas (e.g. generic,random,random,random).")
@click.option("--max-decisions", type=click.IntRange(min=1), default=MAX_DECISIONS, show_default=True,
              help="Count a match that has not ended after this many decisions as unfinished.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=_cores, show_default="all cores",
              help="Processes that play the matches (1: in this process). The results do not depend on it.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Play the matches on Ray: a local Ray, or the cluster at ADDRESS (host:port); "
                   'needs pip install "rulekit[ray]".')
@click.pass_context
def simulate(ctx, file, games, players, seed, variants, bots, max_decisions, workers, ray_address):
    """Play many bot matches of FILE and report wins per seat and match lengths."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    from rich.table import Table

    from .engine.narrate import seat_name
    from .simulation import MatchFailed, SimulationSpec, simulate as run_simulation

    ray = None
    if ray_address is not None:
        if ctx.get_parameter_source("workers") is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--workers and --ray do not go together: on Ray, every CPU of the cluster "
                                   "plays matches")
        try:
            import ray
        except ImportError:
            raise click.UsageError('--ray needs Ray, which is not installed here: pip install "rulekit[ray]"') \
                from None
    engine = _load(file, variants)
    n = _players_default(engine, players)
    kinds = _seat_kinds(bots, n)
    console = Console(highlight=False)
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    spec = SimulationSpec(engine.game.source, file, tuple(variants), n, kinds, seed, max_decisions)
    started_ray = False
    if ray is not None and not ray.is_initialized():
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
        started_ray = True
    try:
        with Progress(console=console, transient=True) as progress:
            label = "playing on Ray" if ray is not None else f"playing ({_count(min(workers, games), 'worker')})"
            task = progress.add_task(label, total=games)
            summary = run_simulation(spec, games, workers, ray=ray is not None, engine=engine,
                                     on_progress=lambda k: progress.advance(task, k))
    except MatchFailed as exc:
        click.echo(f"{file}: error: {exc}", err=True)
        sys.exit(2)
    finally:
        if started_ray:
            ray.shutdown()
    wins, results, finished = summary.wins, summary.results, summary.finished
    table = Table(title=f"{escape(engine.game.title)}: {_count(games, 'match', 'matches')}, "
                        f"{_count(n, 'player')}, {_bots_text(kinds)}")
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("share", justify="right")
    table.add_column("mean result", justify="right")
    for s in range(n):
        table.add_row(seat_name(s), f"{wins[s]:.1f}", f"{wins[s] / max(1, finished):.1%}",
                      f"{results[s] / max(1, finished):+.3f}")
    console.print(table)
    steps = sorted(summary.decisions)
    if steps:
        console.print(f"decisions per match: min {steps[0]}, median {steps[len(steps) // 2]}, max {steps[-1]}")
    if summary.unfinished:
        console.print(f"unfinished: {summary.unfinished} of {_count(games, 'match', 'matches')} did not end "
                      f"within {_count(max_decisions, 'decision')} (--max-decisions); the figures above are of the "
                      f"{finished} that did", markup=False)

if __name__ == "__main__":
    main()
