"""``rulekit simulate`` and ``rulekit compare``: play many bot matches of a game (or of it and
its variants) and print their figures."""

from __future__ import annotations

import contextlib
import sys

import click

from ..bounds import MAX_DECISIONS
from ..bots import BOTS
from .play import _flush_quietly, _Terminated
from .common import (CONTEXT, PLAYERS_HELP, RulesFile, _Bots, _check_outputs, _complete_variants, _count,
                     _GameCommand, _load, _players_default, _resolve_bots, _seat_kinds, _variant_option, fresh_seed)


def _bots_text(kinds: tuple[str, ...]) -> str:
    """"random bots", or "bots generic,random,random" when the seats differ."""
    return f"{kinds[0]} bots" if len(set(kinds)) == 1 else "bots " + ",".join(kinds)


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


@click.command(cls=_GameCommand, context_settings=CONTEXT)
@click.argument("file", type=RulesFile())
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

    docs/simulate.md defines every figure. FILE is a rules file or the name of a
    shipped game (`rulekit games` lists them).
    """
    from ..analysis import simulation
    from ..errors import shown_text

    ray = _ray_module(ctx, ray_address)
    if plot_path:
        _need_plot()
    outputs = [(json_path, "--json"), (csv_path, "--csv"), (plot_path, "--plot")]
    _check_outputs([file], outputs)
    for path, option in outputs:
        _check_writable(path, option)
    engine = _load(file, variants)
    n = _players_default(engine, players)
    kinds = _resolve_bots(_seat_kinds(bots, n), engine, n, "generic")
    console = _console()
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    spec = simulation.SimulationSpec(engine.game.source, file, tuple(variants), n, kinds, seed, max_decisions, rotate)
    rows: list | None = [] if json_path or csv_path else None
    summary, stopped = _play_stoppable(file, spec, games, workers, ray, ray_address, engine, rows)
    played = summary.games
    if stopped is not None:
        console.print(f"stopped after {played:,} of {games:,} matches: the figures below are of those",
                      markup=False, soft_wrap=True)
    figures = simulation.figures(summary)
    challengers = simulation.challenge_actions(engine.game)
    _print_simulation(console, engine, spec, played, summary, figures, challengers)
    title = f"{engine.game.title}: {_lineup_text(spec, played)}"
    if json_path:
        with _writing(json_path):
            _write_json(json_path, file, engine, spec, games, figures, challengers, rows,
                        None if stopped is None else _stop_reason(stopped))
        console.print(f"figures and {_count(len(rows), 'match', 'matches')} written to {shown_text(json_path)}",
                      markup=False)
    if csv_path:
        with _writing(csv_path):
            _write_csv(csv_path, n, rows)
        console.print(f"{_count(len(rows), 'match', 'matches')} written to {shown_text(csv_path)}", markup=False)
    if plot_path:
        from ..analysis.plot import render

        with _writing(plot_path):
            render(plot_path, title, figures, summary)
        console.print(f"plot drawn into {plot_path}", markup=False)
    if stopped is not None:
        _flush_quietly(console)
        click.echo(f"stopped: {_stop_reason(stopped)} after {played:,} of {games:,} matches", err=True)
        sys.exit(128 + stopped.signum if isinstance(stopped, _Terminated) else 130)


def _play_stoppable(file: str, spec, games: int, workers: int, ray, ray_address: str | None, engine,
                    rows: list | None) -> tuple:
    """Play the matches of ``simulate`` (on Ray when ``ray``), their rows added to ``rows``
    (unless None): (their :class:`Summary`, the Ctrl-C or SIGTERM that stopped them or
    None). A stop before any match was played exits (SIGTERM) or passes through."""
    started = _start_ray(ray, ray_address)
    stopped = None
    try:
        with _progress() as progress, _Stop() as stop:
            summary = _play(progress, file, spec, games, workers, ray, engine, "playing",
                            None if rows is None else rows.append, stop)
    except BaseException as exc:
        # Ctrl-C or SIGTERM while the matches were played: the figures of those played so far
        summary = getattr(exc, "summary", None)
        if not isinstance(exc, (KeyboardInterrupt, _Terminated)) or summary is None or not summary.games:
            if isinstance(exc, _Terminated):
                click.echo(f"stopped: {_stop_reason(exc)} before any match was played", err=True)
                sys.exit(128 + exc.signum)
            raise
        stopped = exc
        if rows is not None:
            rows.extend(getattr(exc, "played", ()))    # the matches played besides, added up too
    else:
        stopped = stop.pending              # a stop after the last match was played: the figures are whole
    finally:
        if started:
            ray.shutdown()
    return summary, stopped


def _console():
    """The console of the figures, on standard output: as wide as the terminal, or, when
    the output goes to a file or a pipe, wide enough that no line of a table is wrapped."""
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = UNWRAPPED
    return console


#: the width of piped output: no table of simulate or compare is that wide
UNWRAPPED = 1000


def _title(console, text: str):
    """A table's title (plain text, no markup): on a terminal it wraps to the table's
    width; piped, it stays on one line however narrow the table."""
    from rich.text import Text

    piped = not console.is_terminal
    return Text(text, no_wrap=piped, overflow="ignore" if piped else None)


def _progress():
    """A rich progress bar on standard error when it is a terminal; a bar that shows
    nothing otherwise (piped, in a file)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    err = Console(stderr=True)
    return Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("matches"), TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("left"),
                    console=err, transient=True, disable=not err.is_terminal)


class _Stop:
    """While the matches are played: Ctrl-C (SIGINT) and SIGTERM stop them, and the
    figures of those played so far are printed. The interruption is raised at once while
    a match is played or waited for (:meth:`guard`'s draw of the next outcome: the
    outcomes added up before it make a whole :class:`~rulekit.analysis.simulation.Summary`,
    attached to it by ``summarize``), and held back while an outcome is added up, until the
    next draw (a stop after the last draw is left in :attr:`pending`). The handlers before
    are restored after the block."""

    def __init__(self):
        self.playing = False
        self.pending: BaseException | None = None
        self.saved: dict = {}

    def __enter__(self) -> "_Stop":
        import signal

        for name in ("SIGINT", "SIGTERM"):
            number = getattr(signal, name, None)
            if number is None:
                continue
            try:
                self.saved[number] = signal.signal(number, self._handle)
            except ValueError:              # not the main thread: leave the signal alone
                pass
        return self

    def __exit__(self, *exc) -> None:
        import signal

        for number, handler in self.saved.items():
            signal.signal(number, handler)

    def _handle(self, signum, frame) -> None:
        import signal

        stop = KeyboardInterrupt() if signum == signal.SIGINT else _Terminated(signum)
        if self.playing:
            raise stop
        if self.pending is None:
            self.pending = stop

    def guard(self, outcomes):
        """``outcomes`` (an iterator), the interruptions raised only while one is drawn."""
        while True:
            self.playing = True
            try:
                if self.pending is not None:
                    # into the generator, so that it hands over what was played besides
                    o = outcomes.throw(self.pending)
                else:
                    o = next(outcomes)
            except StopIteration:
                return
            finally:
                self.playing = False
            yield o


def _stop_reason(exc: BaseException) -> str:
    return f"terminated ({exc.name})" if isinstance(exc, _Terminated) else "interrupted (Ctrl-C)"


@contextlib.contextmanager
def _writing(path: str):
    """An OSError while the block writes ``path`` (a full disk…) is an
    :class:`rulekit.files.OutputError` naming it: ``PATH: error: …``, status 1 (what
    could be written stays)."""
    from ..files import OutputError

    try:
        yield
    except OSError as exc:
        raise OutputError(path, exc) from None


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
    from ..analysis.plot import PlotUnavailable, require

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


def _play(progress, file: str, spec, games: int, workers: int, ray, engine, label: str, on_outcome=None,
          stop: "_Stop | None" = None):
    """Play the matches of ``spec`` with a bar of the rich ``progress`` (it moves as chunks
    come back); a runtime error of the rules stops the command (status 2) naming the
    lowest failing match. With ``stop``, Ctrl-C and SIGTERM are raised only while a match
    is played, and carry the summary of the matches before it (see :class:`_Stop`)."""
    from ..analysis import simulation
    from ..analysis.simulation import MatchFailed

    where = "on Ray" if ray is not None else f"({_count(min(workers, games), 'worker')})"
    task = progress.add_task(f"{label} {where}", total=games)
    try:
        if stop is None:
            return simulation.simulate(spec, games, workers, ray=ray is not None, engine=engine,
                                       on_progress=lambda k: progress.advance(task, k), on_outcome=on_outcome,
                                       on_lost=lambda lost: _say_lost(progress, file, lost))
        played = simulation.outcomes(spec, games, workers, ray=ray is not None, engine=engine,
                                     on_progress=lambda k: progress.advance(task, k),
                                     on_lost=lambda lost: _say_lost(progress, file, lost))
        try:
            drawn = stop.guard(played)
            return simulation.summarize(drawn if on_outcome is None else _passing(drawn, on_outcome), spec.players)
        finally:
            played.close()
    except MatchFailed as exc:
        progress.stop()
        click.echo(f"{file}: error: {exc}", err=True)
        sys.exit(2)


def _passing(outcomes, on_outcome):
    """``outcomes``, each told to ``on_outcome`` before it is added up."""
    for o in outcomes:
        on_outcome(o)
        yield o


def _say_lost(progress, file: str, lost: list[tuple[int, int]]) -> None:
    """Say which matches a worker process that died took down (``lost``: (first match,
    count) pairs, 0-based); they are played again, so the figures do not change."""
    spans = [f"{first + 1}" if count == 1 else f"{first + 1}–{first + count}" for first, count in sorted(lost)]
    words = _count(sum(count for _, count in lost), "match", "matches")
    click.echo(f"{file}: warning: a worker process died; the {words} handed to its pool and not "
               f"returned ({', '.join(spans)}) are played again", err=True)


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
    """Print the figures of ``simulate``: the table of wins and its notes, seat fairness,
    match lengths, unfinished matches and the table of bluffing."""
    rows = _print_wins(console, engine, spec, games, summary, figures)
    _print_fairness(console, spec.players, figures["fairness"])
    _print_lengths(console, spec, games, summary, figures)
    bluff = figures["bluffing"]
    if not engine.game.claims:
        console.print("bluffing: the rules declare no claim", markup=False)
        return
    _print_bluffing(console, engine, spec.players, rows, bluff, challengers)


def _print_wins(console, engine, spec, games: int, summary, figures: dict) -> list:
    """Print the table of wins per seat (and per bot kind) and its notes; its rows, (label,
    figures) per seat then per bot kind when there are several."""
    from rich.table import Table

    from ..engine.narrate import seat_name

    n = spec.players
    several = len(figures["kinds"]) > 1
    table = Table(title=_title(console, f"{engine.game.title}: {_lineup_text(spec, games)}"))
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
    return rows


def _print_fairness(console, n: int, fair: dict) -> None:
    """Print the line of seat fairness (the chi-square test of ``fair``, for ``n`` seats)."""
    if fair["p"] is None:
        console.print("seat fairness: " + ("one seat, nothing to compare" if n == 1 else "no finished match"),
                      markup=False)
    else:
        verdict = ("the seats' win shares differ more than chance would make them (p < 0.05)" if fair["p"] < 0.05
                   else "no evidence that the seats' win shares differ")
        console.print(f"seat fairness: chi-square {fair['statistic']:.2f} with {fair['df']} degrees of freedom, "
                      f"p = {fair['p']:.3g}: {verdict}", markup=False, soft_wrap=True)


def _print_lengths(console, spec, games: int, summary, figures: dict) -> None:
    """Print the lines of match lengths (decisions, turns, deals) and of unfinished matches."""
    for name, label in (("decisions", "decisions"), ("turns", "turns"), ("deals", "deals")):
        got = figures["length"][name]
        if got is not None and not (name == "turns" and got["max"] == 0):     # no turn at all (a game of votes)
            console.print(f"{label} per match: min {_num(got['min'])}, lower quartile {_num(got['q1'])}, median "
                          f"{_num(got['median'])}, upper quartile {_num(got['q3'])}, max {_num(got['max'])}",
                          markup=False, soft_wrap=True)
    if summary.unfinished:
        console.print(f"unfinished: {summary.unfinished} of {_count(games, 'match', 'matches')} did not end "
                      f"within {_count(spec.max_decisions, 'decision')} (--max-decisions); the figures are of the "
                      f"{summary.finished} that did", markup=False, soft_wrap=True)
    else:
        console.print(f"unfinished: 0 (every match ended within {_count(spec.max_decisions, 'decision')})",
                      markup=False)


def _print_bluffing(console, engine, n: int, rows: list, bluff: dict, challengers) -> None:
    """Print the table of bluffing, per row of the table of wins and over all seats
    (``bluff``), and the lines that explain it."""
    from rich.table import Table

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
        k = bluff["unjudged_claims"]
        lines.append(f"{_count(k, 'claim')} no longer stood at the end of the decision that "
                     f"made {'it' if k == 1 else 'them'}: not judged true or false")
    for line in lines:
        console.print(line, markup=False, soft_wrap=True)


def _write_json(path: str, file: str, engine, spec, games: int, figures: dict, challengers, rows,
                stopped: str | None = None) -> None:
    """``games``: the matches asked for; when the simulation was ``stopped`` (its reason),
    the figures and rows are of the matches played before (``figures["games"]`` of them)."""
    import json

    from ..analysis.simulation import outcome_row

    data = {"file": file, "title": engine.game.title, "variants": list(spec.variants), "players": spec.players,
            "games": games, "stopped": stopped, "seed": spec.seed, "bots": list(spec.bots), "rotate": spec.rotate,
            "max_decisions": spec.max_decisions,
            "challenge_actions": [{"phase": p, "action": a} for p, a in sorted(challengers)],
            "figures": figures, "matches": [outcome_row(o) for o in rows]}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1, allow_nan=False)
        fh.write("\n")


def _write_csv(path: str, n: int, rows) -> None:
    import csv

    from ..analysis.simulation import COUNTS, outcome_row

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


@click.command(cls=_GameCommand, context_settings=CONTEXT, short_help="Simulate the game and its variants side by side.")
@click.argument("file", type=RulesFile())
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
    alike). FILE is a rules file or the name of a shipped game (`rulekit games` lists
    them).
    """
    from ..analysis import simulation

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
    console = _console()
    if seed is None:
        seed = fresh_seed()
        console.print(f"seed {seed} (--seed {seed} plays these matches again)", markup=False, soft_wrap=True)
    results = []
    started = _start_ray(ray, ray_address)
    try:
        with _progress() as progress:
            for (name, applied), engine in zip(arms, engines):
                spec = simulation.SimulationSpec(engine.game.source, file, applied, n, kinds, seed, max_decisions,
                                                 rotate)
                summary = _play(progress, file, spec, games, workers, ray, engine, f"playing {name}")
                results.append((name, summary, simulation.figures(summary)))
    finally:
        if started:
            ray.shutdown()
    _print_comparison(console, engines, spec, games, results)


def _print_comparison(console, engines, spec, games: int, results) -> None:
    """Print the table of ``compare``: one column per arm ((name, _, figures) of
    ``results``, the base game first; ``engines``: the arms' games, in that order), a
    variant's figure marked where its interval lies apart from the base game's, and the
    notes under it."""
    engine = engines[0]
    from rich.markup import escape
    from rich.table import Table

    from ..analysis.stats import overlap

    table = Table(title=_title(console, f"{engine.game.title}: {_lineup_text(spec, games)} in each arm"))
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

    _comparison_rows(row, spec, results, any(e.game.match.returns is not None for e in engines))
    console.print(table)
    console.print("(…): 95 % interval; a win shared by k seats counts 1/k; medians per finished match; "
                  "docs/simulate.md defines each figure", markup=False, soft_wrap=True)
    if marked:
        console.print(f"≠: its 95 % interval does not overlap that of {results[0][0]}", markup=False, soft_wrap=True)
    else:
        console.print(f"no figure's 95 % interval lies apart from that of {results[0][0]}", markup=False,
                      soft_wrap=True)


def _share_cell(get):
    """A cell of the comparison for a share: ``get(figures) -> (share, interval)`` made
    ``cell(figures) -> (text, interval)``, in percent ("—" for none)."""
    def cell(figures):
        value, interval = get(figures)
        if value is None:
            return "—", None
        return f"{_pct(value)} ({interval[0] * 100:.1f}–{interval[1] * 100:.1f})", interval
    return cell


def _count_cell(get):
    """A cell of the comparison for a number: ``get(figures) -> (value, interval or
    None)`` made ``cell(figures) -> (text, interval)`` ("—" for none)."""
    def cell(figures):
        value, interval = get(figures)
        if value is None:
            return "—", None
        return (f"{_num(value)} ({_num(interval[0])}–{_num(interval[1])})" if interval else _num(value)), interval
    return cell


def _result_cell(seat: int):
    """A cell of the comparison for ``seat``'s mean result: signed, two decimals, with its
    interval ("—" for none)."""
    def cell(figures):
        f = figures["seats"][seat]
        value, interval = f["mean_result"], f["result_interval"]
        if value is None:
            return "—", None
        if interval is None:
            return f"{value:+.2f}", None
        return f"{value:+.2f} ({interval[0]:+.2f}–{interval[1]:+.2f})", interval
    return cell


def _comparison_rows(row, spec, results, returns: bool = False) -> None:
    """Add the rows of the comparison by ``row(label, cell, end)``: win shares per seat and
    per bot kind, the mean result per seat (``returns``: where the file declares its
    ``returns``, chips or points a win share does not tell), fairness, unfinished matches,
    median lengths, then bluffing (when some arm made a claim)."""
    from ..engine.narrate import seat_name

    n = spec.players
    for s in range(n):
        row(f"win share {seat_name(s)}",
            _share_cell(lambda f, s=s: (f["seats"][s]["win_share"], f["seats"][s]["win_interval"])), end=s == n - 1)
    if returns:
        for s in range(n):
            row(f"mean result {seat_name(s)}", _result_cell(s), end=s == n - 1)
    kinds = results[0][2]["kinds"]
    if len(kinds) > 1:
        for k, kind in enumerate(kinds):
            row(f"win share {kind['kind']}", _share_cell(lambda f, k=k: (f["kinds"][k]["win_share"],
                                                                       f["kinds"][k]["win_interval"])),
                end=k == len(kinds) - 1)
    row("seat fairness p", lambda f: ("—" if f["fairness"]["p"] is None else f"{f['fairness']['p']:.3g}", None))
    row("unfinished", lambda f: (str(f["unfinished"]), None), end=True)
    for name in ("decisions", "turns", "deals"):
        row(f"median {name}", _count_cell(
            lambda f, name=name: (None, None) if f["length"][name] is None
            else (f["length"][name]["median"], f["length"][name]["median_interval"])), end=name == "deals")
    b = "bluffing"
    if not any(figures[b]["claims"] for *_, figures in results):
        return              # no arm made a claim (a betting game): no rows of "—"
    row("claims / match", _count_cell(lambda f: (f[b]["claims_per_match"], f[b]["claims_per_match_interval"])))
    row("false claims", _share_cell(lambda f: (f[b]["false_share"], f[b]["false_interval"])))
    row("challenges / match",
        _count_cell(lambda f: (f[b]["challenges_per_match"], f[b]["challenges_per_match_interval"])))
    row("successful challenges",
        _share_cell(lambda f: (f[b]["challenge_success"], f[b]["challenge_success_interval"])))
    row("lies caught", _share_cell(lambda f: (f[b]["lies_caught_share"], f[b]["lies_caught_interval"])))
