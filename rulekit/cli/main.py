"""The ``rulekit`` command: run a match, check a file, simulate many matches.

The group and the small commands (check, compile, explain); `run` and `replay` are in
:mod:`rulekit.cli.play`, `simulate` and `compare` in :mod:`rulekit.cli.study`.
"""

from __future__ import annotations

import errno
import sys

import click

# Only click is imported up front, so that `rulekit --help` starts quickly; each command
# imports what it uses (the parser, the engine, rich) when it runs.

from .common import (CONTEXT, PLAYERS_HELP, RulesFile, _count, _GameCommand, _load, _players_default, _variant_option,
                     no_rules_text)
from .play import replay, run
from .study import compare, simulate


class _Main(click.Group):
    """The ``rulekit`` group: Ctrl-C in any command stops it with one line and status 130;
    a file that cannot be written (:class:`rulekit.files.OutputError`), or standard output
    on a full disk, is one line ``PATH: error: …`` and status 1; standard output closed by
    its reader (``rulekit run … | head``) ends the command quietly, status 1; a failure of a
    game's generated code is one line naming the line of the rules, status 2."""

    def invoke(self, ctx: click.Context):
        from ..files import OutputError

        try:
            result = super().invoke(ctx)
            sys.stdout.flush()              # what is still buffered fails here, not at exit
            return result
        except KeyboardInterrupt:
            click.echo("stopped: interrupted (Ctrl-C)", err=True)
            ctx.exit(130)
        except OutputError as exc:
            _quiet_stdout()
            click.echo(str(exc), err=True)
            ctx.exit(1)
        except BrokenPipeError:
            _quiet_stdout()
            ctx.exit(1)
        except OSError as exc:
            if exc.filename is not None or exc.errno not in _FULL:
                raise _located(exc)
            _quiet_stdout()
            click.echo(str(OutputError("<stdout>", exc)), err=True)
            ctx.exit(1)
        except Exception as exc:
            raise _located(exc)


def _located(exc: Exception) -> Exception:
    """``exc`` itself, unless it was raised in a game's generated code (a defect of rulekit,
    as when a bot solving a game before the match runs it): then it is said in one line
    that names the line of the rules, and the command exits with status 2."""
    from ..engine.codegen import defect_at_line

    defect = defect_at_line(exc)
    if defect is None:
        return exc
    click.echo(f"error: {defect}", err=True)
    return click.exceptions.Exit(2)


def _quiet_stdout() -> None:
    """After standard output failed (a closed pipe, a full disk): point it at the null
    device, so that the interpreter's last flush at exit fails no more."""
    import os

    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):     # no file behind it (a test's capture)
        pass


#: the errors of a write that finds no room: disk full, quota, file too large, a device error
_FULL = {getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, name)}


@click.group(cls=_Main, context_settings=CONTEXT, epilog="""\b
Shell completion of commands, options, files and variant names (bash; for
zsh or fish, write zsh_source or fish_source), e.g. in ~/.bashrc:
  eval "$(_RULEKIT_COMPLETE=bash_source rulekit)"
""")
@click.version_option(package_name="rulekit")
def main() -> None:
    """Write bluffing card games as plain text, then play, simulate and study them."""


main.add_command(run)
main.add_command(replay)
main.add_command(simulate)
main.add_command(compare)


def _summary(game) -> str:
    """Players, cards, dice and phases of a checked game, in a few words."""
    low, high = game.players
    parts = [_count(low, "player") if low == high else f"{low}-{high} players", _count(game.deck_size, "card")]
    each = sum(k.count for k in game.kinds if k.start is not None)
    if each:
        parts.append(_count(each, "card") + " for each seat")
    dice = [d for d in game.dice if d.count]
    if dice:
        parts.append(", ".join(f"{_count(d.count, 'die', 'dice')} {d.name!r} " + ("in each " if d.each else "in ")
                               + str(d.zone) for d in dice))
    parts.append(_count(len(game.phases), "phase"))
    return ", ".join(parts)


@main.command(context_settings=CONTEXT, short_help="Check each FILE (- for standard input) and its variants.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=RulesFile(must_exist=False, allow_dash=True))
@_variant_option("Check the game with this variant applied instead of every variant (repeatable, applied in "
                 "order, to each FILE).")
def check(files, variants):
    """Parse and check each FILE (- reads standard input) and every variant of it;
    report every problem.

    A FILE is a regular file (or standard input) of at most 1 MiB of UTF-8 text
    without control characters (tab and line ends aside), or the name of a shipped
    game (`rulekit games` lists them). The status is 2 if any
    file has a problem, 0 if all are fine.
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
    from ..engine.core import cannot_run
    from ..sema.load import check_text, decode, loads
    from ..errors import OptionError, RulesError
    from ..errors import shown_text
    from ..files import MAX_RULES_BYTES, Refused, read_regular, read_stream

    shown = "<stdin>" if path == "-" else shown_text(path)
    try:
        if path == "-":
            if not stdin:
                stream = sys.stdin
                binary = stream.buffer if hasattr(stream, "buffer") else None
                stdin.append(read_stream(binary, MAX_RULES_BYTES, shown, "rules file") if binary is not None
                             else stream.read(MAX_RULES_BYTES + 1).encode("utf-8")[:MAX_RULES_BYTES + 1])
            raw = stdin[0]
        else:
            raw = read_regular(path, MAX_RULES_BYTES, "rules file")
    except Refused as exc:
        click.echo(f"{shown}: error: {exc.strerror}", err=True)
        return False
    except FileNotFoundError:
        click.echo(no_rules_text(path), err=True)
        return False
    except OSError as exc:
        click.echo(f"{shown}: error: cannot read the file ({exc.strerror or exc})", err=True)
        return False
    try:
        text = decode(raw, shown)
        if variants:
            game = loads(text, shown, variants)
            refused = cannot_run(game)
            if refused is not None:
                click.echo(refused.render(), err=True)
                return False
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
        refused = None if isinstance(result, RulesError) else cannot_run(result)
        if refused is not None:
            fine = False
            if name is not None:
                click.echo(f"  variant {name}: error", err=True)
            click.echo(refused.render(), err=True)
        elif isinstance(result, RulesError):
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
@click.argument("file", type=RulesFile())
@click.option("--players", "-n", type=click.IntRange(min=1), default=None,
              help=f"Number of seats the module is written for ({PLAYERS_HELP}).")
@_variant_option("Apply a variant (repeatable, applied in order).")
@click.option("--emit", is_flag=True, help="Print the generated Python module.")
def compile_(file, players, variants, emit):
    """Compile FILE to Python, as the engine runs it; --emit prints the module.

    FILE is a rules file or the name of a shipped game (`rulekit games` lists them).
    """
    engine = _load(file, variants)
    n = _players_default(engine, players)
    program = engine.program(n)
    if emit:
        click.echo(program.source, nl=False)
        return
    actions = sum(len(phase.actions) for phase in engine.cg.phase_list)
    from ..errors import shown_text
    click.echo(f"{shown_text(file)}: compiled for {_count(n, 'player')} — {_count(actions, 'action')} in "
               f"{_count(len(engine.cg.phase_list), 'phase')}, each a step of generated code, "
               f"{_count(len(program.source.splitlines()), 'line')} (--emit prints them)")


@main.command(context_settings=CONTEXT, short_help="Write the rulebook of FILE in plain language.")
@click.argument("file", type=RulesFile())
@_variant_option("Apply a variant (repeatable, applied in order); the rulebook then says what it changes.")
def explain(file, variants):
    """Write the rulebook of the game in FILE in plain language: its components, setup,
    turns, claims, what others may do in between, and how the match ends and is scored.

    It is written from the rules themselves, not from the comments of the file; with
    --variant, it starts with what the variant changes from the base game. FILE is a
    rules file or the name of a shipped game (`rulekit games` lists them).
    """
    from ..explain import explain as rulebook

    click.echo(rulebook(_load(file, variants, runnable=False).game), nl=False)


@main.command(context_settings=CONTEXT, short_help="List the games shipped with rulekit.")
def games():
    """List the games shipped with rulekit: name, title, players and variants.

    A name stands for the game's file in every command that takes a FILE
    (`rulekit run NAME`, `rulekit explain NAME --variant
    VARIANT`). On a terminal, a table; piped, one line per game,
    its fields separated by tabs, after a header line (variants separated by
    commas).
    """
    from rich.console import Console

    from ..catalog import shipped_games

    console = Console(highlight=False)
    found = shipped_games()
    rows = [(g.name, g.title, _players_text(g.players), ", ".join(v for v, _ in g.variants)) for g in found]
    if not console.is_terminal:
        for row in [("name", "title", "players", "variants"), *rows]:
            click.echo("\t".join(row))
        return
    _games_table(console, rows)


def _players_text(players: tuple[int, int]) -> str:
    """A game's seat counts as "2-8", or "2" when it is for one count only."""
    low, high = players
    return str(low) if low == high else f"{low}-{high}"


def _games_table(console, rows) -> None:
    """Print the rows (name, title, players, variants) of `rulekit games` as a rich table."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Shipped games", caption="rulekit run NAME plays one; --variant NAME applies a variant")
    for column in ("name", "title", "players", "variants"):
        table.add_column(column, justify="right" if column == "players" else "left")
    for name, title, players, variants in rows:
        table.add_row(escape(name), escape(title), players, escape(variants) or "—")
    console.print(table)
