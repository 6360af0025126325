"""The games shipped with rulekit: the files of ``games/`` at the top of the repository,
installed as the package data ``rulekit.games`` (``rulekit/games/NAME.rules``).

A shipped game is known by its name, the stem of its file (``NAME`` for
``games/NAME.rules``): ``rulekit run NAME`` plays ``games/NAME.rules`` from
wherever rulekit is installed. Only ``importlib.resources`` finds the files, so an
installed wheel and a source checkout (an editable install, or ``rulekit`` imported from
the top of the repository) read them alike.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
from dataclasses import dataclass
from pathlib import Path

#: the package whose data the shipped games are
PACKAGE = "rulekit.games"
#: the suffix of a rules file
SUFFIX = ".rules"

# files extracted from an archive (a zipped install) to a temporary folder, removed at exit
_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


@dataclass(frozen=True)
class ShippedGame:
    """One shipped game, as its file declares it (before any variant is applied)."""

    #: the stem of its file, the name the commands take: "NAME" of "NAME.rules"
    name: str
    #: its ``game "TITLE"``: TITLE
    title: str
    #: its ``players LOW..HIGH`` (LOW = HIGH for ``players N``)
    players: tuple[int, int]
    #: its variants in file order, each (name, label or None)
    variants: tuple[tuple[str, str | None], ...]
    #: the installed file, a path :func:`rulekit.load` reads
    path: str


def _folder():
    """The folder of the shipped games: an ``importlib.resources`` Traversable (the installed
    ``rulekit/games/``, or ``games/`` beside the ``rulekit`` package of a source checkout
    whose install predates the games' mapping)."""
    try:
        return importlib.resources.files(PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "games"


def shipped_names() -> tuple[str, ...]:
    """The names of the shipped games, sorted: ``("NAME1", "NAME2", …)``; () when none is found.
    Reads no file (quick enough for an error message)."""
    folder = _folder()
    try:
        entries = list(folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return ()
    return tuple(sorted(e.name[:-len(SUFFIX)] for e in entries if e.name.endswith(SUFFIX) and e.is_file()))


def shipped_path(name: str) -> str | None:
    """The path of the shipped game called ``name`` (the stem of its file, exactly:
    ``"NAME"`` for ``NAME.rules``), or None when no shipped game has that name (a path such as
    ``games/x`` or ``x.rules`` never names one). From a zipped install, the file is first
    extracted to a temporary file that lasts until the interpreter exits."""
    if name not in shipped_names():
        return None
    resource = _folder().joinpath(name + SUFFIX)
    if isinstance(resource, Path):
        return str(resource)
    return str(_extracted.enter_context(importlib.resources.as_file(resource)))


def shipped_game(name: str) -> ShippedGame:
    """The shipped game called ``name``, read from its file.

    Raises:
        KeyError: no shipped game has that name.
        rulekit.errors.RulesError: its file does not parse (a broken install).
    """
    from .lang import model
    from .lang.transform import to_model

    path = shipped_path(name)
    if path is None:
        raise KeyError(name)
    text = _folder().joinpath(name + SUFFIX).read_text(encoding="utf-8")
    items = to_model(text, path).items
    title = next((i.title for i in items if isinstance(i, model.GameDecl)), name)
    players = next(((i.low, i.high) for i in items if isinstance(i, model.PlayersDecl)), (1, 1))
    variants = tuple((i.name, i.label) for i in items if isinstance(i, model.VariantDecl))
    return ShippedGame(name, title, players, variants, path)


def shipped_games() -> list[ShippedGame]:
    """Every shipped game (:class:`ShippedGame`), sorted by name.

    Raises:
        rulekit.errors.RulesError: a file does not parse (a broken install).
    """
    return [shipped_game(name) for name in shipped_names()]
