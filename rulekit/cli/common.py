"""What several commands of ``rulekit`` share: the --bots and --variant options, loading a
game, the number of seats, seeds and counted words."""

from __future__ import annotations

import sys

import click

# Only click is imported up front, so that `rulekit --help` starts quickly; each command
# imports what it uses (the parser, the engine, rich) when it runs.

from ..bots import bot_kind

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
    from ..bots import bot_kind
    if not any(k != "human" and bot_kind(k)[0] in ("auto", "solved") for k in kinds):
        return kinds
    from rich.console import Console

    from ..players import resolve_lineup
    try:
        # the first time, a small game is solved (up to a minute); a spinner says so
        with Console(stderr=True).status(f"solving {engine.game.title} for {n} players if it is small enough "
                                         f"(once: the answer is cached)"):
            return resolve_lineup(kinds, engine.game.source, engine.game.applied, n, otherwise, engine=engine)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--bots'") from None


def _variant_names(path: str) -> list[tuple[str, str | None]]:
    """The variants (name, label) of the file at ``path``, for shell completion: from its
    model when it parses, else from the lines that start with ``variant``; [] if unreadable."""
    from ..files import MAX_RULES_BYTES, read_regular

    try:
        text = read_regular(path, MAX_RULES_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    try:
        from ..lang import model
        from ..lang.transform import to_model

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
        path = path and path != "-" and rules_path(path)
        if path:
            for name, label in _variant_names(path):
                found.setdefault(name, label)
    return [CompletionItem(name, help=label) for name, label in found.items() if name.startswith(incomplete)]


def _variant_option(help_text: str):
    return click.option("--variant", "variants", multiple=True, metavar="NAME", shell_complete=_complete_variants,
                        help=help_text)


def no_rules_text(value: str) -> str:
    """The error for a FILE that is neither a file nor the name of a shipped game:
    "VALUE: error: no such file, and no shipped game of that name (shipped: bluff, …)"."""
    from ..catalog import shipped_names
    from ..errors import shown_text

    names = ", ".join(shipped_names()) or "none"
    return shown_text(f"{value}: error: no such file, and no shipped game of that name (shipped: {names})")


class _NoRulesFile(click.ClickException):
    """A FILE argument that names neither a file nor a shipped game: one line
    (:func:`no_rules_text`) and status 2, as a file that does not load."""

    exit_code = 2

    def __init__(self, value: str):
        super().__init__(no_rules_text(value))

    def show(self, file=None) -> None:
        click.echo(self.message, err=True)


def rules_path(value: str) -> str | None:
    """The rules file a FILE argument names: ``value`` itself when it is an existing path
    (a folder only when no shipped game has its name), else the installed file of the
    shipped game called ``value``, else None."""
    import os

    from ..catalog import shipped_path

    if os.path.lexists(value) and not os.path.isdir(value):
        return value
    shipped = shipped_path(value)
    return shipped if shipped is not None or not os.path.lexists(value) else value


class RulesFile(click.ParamType):
    """A FILE argument of rules: the path of a file, or the name of a shipped game
    (``rulekit games`` lists them), converted to the path of its installed file (what a
    log's header then records, so ``replay`` finds it).

    With ``must_exist`` (the default), a value that is neither fails with
    :class:`_NoRulesFile` (exit 2); without it (``check``, which reports each file in
    turn), it is passed on as given. ``allow_dash``: ``-`` (standard input) is kept.
    A directory is refused as :class:`click.Path` refuses it."""

    name = "file"

    def __init__(self, must_exist: bool = True, allow_dash: bool = False):
        self.must_exist = must_exist
        self.allow_dash = allow_dash
        self._path = click.Path(exists=must_exist, dir_okay=False, allow_dash=allow_dash)

    def convert(self, value, param, ctx):
        if self.allow_dash and value == "-":
            return value
        path = rules_path(value)
        if path is None:
            if self.must_exist:
                raise _NoRulesFile(value)
            return value
        return self._path.convert(path, param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        """The names of the shipped games that begin with ``incomplete``, and the shell's files."""
        from click.shell_completion import CompletionItem

        from ..catalog import shipped_names

        names = [CompletionItem(n) for n in shipped_names() if n.startswith(incomplete)]
        return names + [CompletionItem(incomplete, type="file")]


def _load(path: str, variants, runnable: bool = True) -> Engine:
    """The engine of the rules file ``path`` with ``variants``; ``runnable``: its module
    written now, so that a construct the engine cannot run is said before anything is
    played (not for a command that only reads the rules). A problem is printed, located,
    and the command exits with status 2."""
    from ..sema.load import load
    from ..engine import Engine
    from ..errors import OptionError, RulesError

    from ..errors import CannotRun

    try:
        engine = Engine(load(path, tuple(variants)))
        if runnable:
            engine.program(engine.game.players[0])      # a construct the engine cannot run: said now, located
        return engine
    except (RulesError, CannotRun) as exc:
        click.echo(exc.render(), err=True)
        sys.exit(2)
    except OSError as exc:
        from ..errors import shown_text
        click.echo(shown_text(f"{path}: error: cannot read the file ({exc.strerror or exc})"), err=True)
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
    """The game of the first argument that names a readable rules file or a shipped game,
    or None."""
    import os

    for arg in args:
        path = None if arg.startswith("-") else rules_path(arg)
        if path and os.path.isfile(path):
            try:
                from ..sema.load import load

                return load(path)
            except Exception:               # a broken file: the plain help will do
                return None
    return None


def _check_outputs(inputs, outputs) -> None:
    """A bad parameter, before anything is read or written, when an output file (a pair
    (path or None, its option) of ``outputs``) is one of the ``inputs`` (writing it would
    overwrite them) or the file of another output (one would overwrite the other).
    Paths are compared as files (:func:`rulekit.files.same_file`): a link or another
    spelling of an input is that input."""
    from ..files import same_file

    given = [(path, option) for path, option in outputs if path]
    for i, (path, option) in enumerate(given):
        for source in inputs:
            if source and source != "-" and same_file(path, source):
                which = "" if path == source else f" {source}"
                raise click.BadParameter(f"{path} is the rules file{which}: writing it would overwrite the rules "
                                         f"(name another file)", param_hint=f"'{option}'")
        for other, other_option in given[:i]:
            if same_file(path, other):
                raise click.BadParameter(f"{path} is written by {other_option} already: name another file",
                                         param_hint=f"'{option}'")


def _players_default(engine: Engine, players: int | None) -> int:
    low, high = engine.game.players
    if players is None:
        from ..tree import default_players
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
