"""The ``rulekit`` command: run a match, check a file, simulate many matches."""

from __future__ import annotations

import sys

import click

from .bounds import MAX_DECISIONS

# Only click is imported up front, so that `rulekit --help` starts quickly; each command
# imports what it uses (the parser, the engine, rich) when it runs.

BOTS = ("generic", "random")


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
        raise click.BadParameter(f"{engine.game.title} is for {low} to {high} players, not {players}",
                                 param_hint="'--players'")
    return players


def fresh_seed() -> int:
    """A seed of 128 bits from the operating system: too many for a bot to find by trying
    seeds until one deals the cards it holds."""
    import random

    return random.SystemRandom().getrandbits(128)


def _make_players(engine, n, seed, humans, bots, console):
    from .match import seat_rng
    from .players import GenericBot, HumanPlayer, RandomBot

    players = []
    for seat in range(n):
        if seat + 1 in humans:
            players.append(HumanPlayer(engine, console, lambda text: click.prompt(text, prompt_suffix=": ")))
        elif bots == "random":
            players.append(RandomBot(seat_rng(seed, seat)))
        else:
            players.append(GenericBot(engine, seat_rng(seed, seat)))
    return players


@click.group()
@click.version_option(package_name="rulekit")
def main() -> None:
    """Write bluffing card games as plain text, then play, simulate and study them."""


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help="Number of seats (default: 4, or the nearest the game allows).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of chance; the same seed plays the same match (default: a fresh 128-bit seed, printed).")
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME",
              help="Apply a variant of the game (repeatable, applied in order).")
@click.option("--human", "humans", multiple=True, type=click.IntRange(min=1), metavar="SEAT",
              help="Seat (1 = P1) played by you at the terminal (repeatable).")
@click.option("--bots", type=click.Choice(BOTS), default="generic", show_default=True,
              help="Which bot plays the other seats.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE.jsonl", help="Write every decision and event as JSON lines.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final standings.")
@click.option("--max-decisions", type=click.IntRange(min=1), default=MAX_DECISIONS, show_default=True,
              help="Stop a match that has not ended after this many decisions.")
def run(file, players, seed, variants, humans, bots, log_path, quiet, max_decisions):
    """Play one match of the game in FILE and print the play-by-play."""
    from rich.console import Console
    from rich.markup import escape

    from .engine.compile import RulesRuntimeError
    from .match import MatchTooLong, play_match

    engine = _load(file, variants)
    n = _players_default(engine, players)
    for h in humans:
        if h > n:
            raise click.BadParameter(f"seat {h} does not exist in a {n}-player match (seats are 1..{n})",
                                     param_hint="'--human'")
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
    console.print(f"[bold]{escape(title)}[/bold] — {n} players, seed {seed}", soft_wrap=True)
    human_seats = {h - 1 for h in humans}

    def on_events(state, events):
        if quiet:
            return
        for ev in events:
            if ev.seat is not None and human_seats and ev.seat not in human_seats:
                continue
            if ev.kind == "deal_end":
                console.print(_deal_summary(engine, state.n, ev.data), markup=False)
                continue
            line = engine.describe_event(ev, state.n)
            if line:
                console.print(line, markup=False)

    record = None
    try:
        record = play_match(engine, _make_players(engine, n, seed, set(humans), bots, console), n, seed, on_events,
                            max_steps=max_decisions, keep_log=log_path is not None)
        _standings(console, engine, record.state)
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
    import json

    if log_path:
        with open(log_path, "w", encoding="utf-8") as fh:
            for row in log:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        console.print(f"log written to {log_path} ({len(log)} lines)", markup=False)


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
    parts = [f"{low} players" if low == high else f"{low}-{high} players", f"{game.deck_size} cards"]
    each = sum(k.count for k in game.kinds if k.start is not None)
    if each:
        parts.append(f"{each} cards for each seat")
    dice = [d for d in game.dice if d.count]
    if dice:
        parts.append(", ".join(f"{d.count} {d.name} " + ("in each " if d.each else "in ") + str(d.zone)
                               for d in dice))
    parts.append(f"{len(game.phases)} phase" + ("" if len(game.phases) == 1 else "s"))
    return ", ".join(parts)


def _expr_text(engine: Engine, key) -> str:
    span = key.expr.span
    lines = engine.game.source.splitlines()
    if span.line and span.line == span.end_line and span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "value"


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME", help="Also check with this variant.")
def check(file, variants):
    """Parse and check FILE (and each of its variants); report every problem."""
    from .check import check_file
    from .errors import RulesError

    if variants:
        game = _load(file, variants).game
        click.echo(f"{file}: ok — {game.title}, {_summary(game)}")
        return
    try:
        rows = check_file(file)
    except RulesError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(2)
    failed = False
    for name, label, result in rows:
        if isinstance(result, RulesError):
            failed = True
            if name is not None:
                click.echo(f"  variant {name}: error", err=True)
            click.echo(result.render(), err=True)
        elif name is None:
            click.echo(f"{file}: ok — {result.title}, {_summary(result)}")
        else:
            click.echo(f"  variant {name}: ok" + (f" — {label}" if label else ""))
    if failed:
        sys.exit(2)


@main.command(name="compile")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help="Number of seats the module is written for (default: 4, or the game's nearest count).")
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME", help="Apply a variant.")
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
    click.echo(f"{file}: compiled for {n} players — {made} of {total} actions enumerated by generated code, "
               f"{len(program.source.splitlines())} lines (--emit prints them)")


def _cores() -> int:
    """The cores this process may run on (the default of `simulate --workers`)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on every system
        return os.cpu_count() or 1


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many matches to play.")
@click.option("--players", "-n", type=click.IntRange(min=1), default=None, help="Number of seats.")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of the first match (default: a fresh 128-bit seed, printed); match k plays seed + k - 1.")
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME", help="Apply a variant.")
@click.option("--bots", type=click.Choice(BOTS), default="random", show_default=True)
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
    console = Console(highlight=False)
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    spec = SimulationSpec(engine.game.source, file, tuple(variants), n, bots, seed, max_decisions)
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
            label = "playing on Ray" if ray is not None else f"playing ({min(workers, games)} workers)"
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
    table = Table(title=f"{escape(engine.game.title)}: {games} matches, {n} players, {bots} bots")
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
        console.print(f"unfinished: {summary.unfinished} of {games} matches did not end within {max_decisions} "
                      f"decisions (--max-decisions); the figures above are of the {finished} that did",
                      markup=False)

if __name__ == "__main__":
    main()
