"""Every example of the documentation works as written: README.md, docs/*.md and the
example in the docstring of rulekit/__init__.py.

What is checked, and how a block says what it is (the comment at the top of
docs/language.md repeats this for writers):

* **```python blocks** run. The blocks of one file run in order, in one namespace (a block
  may use what an earlier one made), in a temporary directory where ``games/`` and
  ``docs/`` lead to the repository's, so that paths read as from its top directory, and
  where ``tall_tales.rules`` holds the finished game of the tutorial (its Python example
  reads it). The docstring's example (the literal block after ``::``) runs likewise. A
  block marked ``<!-- slow -->`` (a minute or more: solving Liar's Dice) is whole by itself
  and runs alone, with ``pytest -m slow``.
* **```rules blocks that are a whole file** (the first line that is neither blank nor a
  comment starts with ``game "``) must load with ``rulekit.loads``. A comment on the line
  right before the block says otherwise:

  * ``<!-- error: FRAGMENT -->``: a deliberately broken file; loading it must raise a
    ``RulesError`` whose text contains FRAGMENT (the marker docs/tutorial.md uses);
  * ``<!-- fragment -->``: a piece of a file that happens to start with ``game``; not loaded.

  Other ```rules blocks are pieces of files and are not loaded. A piece quoted from shipped
  files is marked ``<!-- from: games/dtc.rules[, OTHER.rules] -->``: each of its lines must
  be a line of one of those files (indentation and comments aside), so that the quote
  cannot drift from the game it quotes. The tutorial's blocks are left to
  tests/test_tutorial.py, which checks them step by step.
* **Commands** in ```sh, ```console and ```text blocks: a line ``rulekit …`` or ``$ rulekit
  …`` runs through click's ``CliRunner`` in that temporary directory. The lines after it,
  up to the next ``$`` line, are what it prints: each must be printed, in that order (a
  line ``…`` stands for lines left out). It must exit with status 0, or 2 when what it shows
  is an error (``error:``). A file it names that the repository lacks (and that is no
  shipped game's name, such as ``lugenbeutel``) is either the whole file shown last
  before it (``eof.rules``) or one of the broken copies of a shipped game that
  docs/language.md describes in words (built in ``BROKEN_COPIES`` below).

  Not run: synopses (``FILE``, ``[--option …]``); the tutorial's commands (checked by
  tests/test_tutorial.py); ``--ray`` (it needs Ray and starts or joins a cluster, seconds
  to minutes; tests/test_simulation.py covers it); and the install lines of the README,
  which only start with ``python3`` (``bash .ci/run`` and tests/test_install.py cover them).
  ``--games N`` is cut to ``--games 4``: ``simulate``'s figures do not depend on how many
  matches it plays, and 400 Lügenbeutel matches take half a minute.
* **Links**: every relative link of README.md and docs/ leads to a file of the repository
  (and, for a ``#heading``, to a heading it has); no text points at ``../shared/`` or at a
  path of one machine.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekit
from rulekit.catalog import shipped_path
from rulekit.cli import main
from test_tutorial import PLAYED, STEPS, _anchors

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
TUTORIAL = ROOT / "docs" / "tutorial.md"
GAMES_CAP = 4                       # --games N is run as --games min(N, GAMES_CAP)

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"<!--\s*(?P<marker>[^>]*?)\s*-->[ \t]*\n[ \t]*\Z")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(path: Path) -> list[tuple[str, str, str | None, int]]:
    """Every fenced block of a Markdown file: (language, text, marker or None, line)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = m["indent"]
        body = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                       for line in m["body"].splitlines(keepends=True))
        before = MARKER.search(text, 0, m.start())
        found.append((m["lang"], body, before["marker"] if before else None, text.count("\n", 0, m.start()) + 1))
    return found


def _is_whole_file(rules: str) -> bool:
    """A rules text whose first item is `game "…"`."""
    for line in rules.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line.lstrip().startswith('game "')
    return False


def _docstring_example() -> str:
    """The literal block after '::' in the docstring of rulekit/__init__.py."""
    found = re.search(r"::\n\n((?:[ ]{4}.*\n|\n)+)", rulekit.__doc__)
    assert found, "rulekit/__init__.py's docstring has no '::' example"
    return textwrap.dedent(found[1])


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory that reads like the top of the repository (games/, docs/), plus the
    tutorial's finished game as tall_tales.rules; the current directory while a test runs."""
    for name in ("games", "docs"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    (tmp_path / "tall_tales.rules").write_text(STEPS[PLAYED[-1]][0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- Python ------------------------------------------------------------------------------

def _python_sources(slow: bool = False) -> list:
    """The Python blocks of each file (``slow``: those marked ``<!-- slow -->``, each one
    whole by itself, which run with ``-m slow``)."""
    sources = []
    for path in DOCS:
        blocks = [text for lang, text, marker, _ in _blocks(path) if lang == "python" and (marker == "slow") == slow]
        if blocks:
            sources.append(pytest.param(_name(path), blocks, id=_name(path)))
    if not slow:
        sources.append(pytest.param("rulekit/__init__.py", [_docstring_example()], id="rulekit/__init__.py"))
    return sources


PYTHON = _python_sources()
SLOW_PYTHON = _python_sources(slow=True)


def test_python_examples_are_found():
    """The README, the reference, the tutorial, the API page and the docstring each show Python."""
    assert {p.values[0] for p in PYTHON} >= {"README.md", "docs/language.md", "docs/tutorial.md", "docs/api.md",
                                              "rulekit/__init__.py"}


@pytest.mark.parametrize("name,blocks", PYTHON)
def test_python_examples_run(name, blocks, workdir):
    """A file's Python blocks run, in order, in one namespace."""
    namespace = {"__name__": "__docs__"}
    for i, code in enumerate(blocks, 1):
        exec(compile(code, f"{name} (python block {i})", "exec"), namespace)


@pytest.mark.slow
@pytest.mark.parametrize("name,blocks", SLOW_PYTHON)
def test_slow_python_examples_run(name, blocks, workdir):
    """A block marked ``<!-- slow -->`` (a minute or more) runs by itself."""
    for i, code in enumerate(blocks, 1):
        exec(compile(code, f"{name} (slow python block {i})", "exec"), {"__name__": "__docs__"})


# --- Whole .rules files ------------------------------------------------------------------

def _rules_files() -> list:
    files = []
    for path in DOCS:
        if path == TUTORIAL:            # tests/test_tutorial.py checks every step
            continue
        for lang, text, marker, line in _blocks(path):
            if lang != "rules" or not _is_whole_file(text):
                continue
            if marker == "fragment":
                continue
            error = None
            if marker is not None:
                found = re.fullmatch(r"error:\s*(.+)", marker)
                assert found, f"{_name(path)}:{line}: unknown marker <!-- {marker} -->"
                error = found[1]
            files.append(pytest.param(text, error, id=f"{_name(path)}:{line}"))
    return files


RULES = _rules_files()


def test_rules_examples_are_found():
    """The reference shows whole games, and at least one broken file."""
    assert len(RULES) >= 3
    assert any(p.values[1] for p in RULES)


@pytest.mark.parametrize("text,error", RULES)
def test_whole_rules_file_loads_or_fails_as_shown(text, error):
    """A whole file shown in the docs loads; one marked as an error fails with its message."""
    if error is None:
        rulekit.loads(text, "example.rules")
        return
    with pytest.raises(rulekit.RulesError) as caught:
        rulekit.loads(text, "example.rules")
    assert error in str(caught.value)


def _code(line: str) -> str:
    """A line of a rules file without its indentation and comment (a text holds no '"', so
    a '#' outside quotes starts the comment)."""
    parts = line.split('"')
    for i in range(0, len(parts), 2):
        if "#" in parts[i]:
            parts = parts[:i] + [parts[i].split("#", 1)[0]]
            break
    return '"'.join(parts).strip()


def _quotes() -> list:
    quotes = []
    for path in DOCS:
        for lang, text, marker, line in _blocks(path):
            if lang == "rules" and marker and marker.startswith("from:"):
                sources = [s.strip() for s in marker[len("from:"):].split(",")]
                quotes.append(pytest.param(text, sources, id=f"{_name(path)}:{line}"))
    return quotes


QUOTES = _quotes()


def test_quotes_are_found():
    """The reference marks the pieces it quotes from the shipped games."""
    assert len(QUOTES) >= 10


@pytest.mark.parametrize("text,sources", QUOTES)
def test_quoted_piece_is_in_its_source(text, sources):
    """Each line of a piece marked `from: FILE` is a line of FILE (or of one of the files named)."""
    known = set()
    for source in sources:
        assert (ROOT / source).is_file(), f"no file {source}"
        known |= {_code(line) for line in (ROOT / source).read_text(encoding="utf-8").splitlines()}
    missing = [line for line in text.splitlines() if _code(line) and _code(line) not in known]
    assert not missing, f"not lines of {', '.join(sources)}: {missing}"


# --- Commands ----------------------------------------------------------------------------

def _replaced(source: str, *changes: tuple[str, str]):
    def build() -> str:
        text = (ROOT / source).read_text(encoding="utf-8")
        for old, new in changes:
            assert text.count(old) == 1, f"{source} no longer holds {old!r} once"
            text = text.replace(old, new)
        return text
    return build


# The broken copies docs/language.md ("Errors") describes in words, made as it says.
BROKEN_COPIES = {
    # "a copy of games/lugenbeutel.rules with two names misspelt"
    "broken_sem.rules": _replaced("games/lugenbeutel.rules",
                                  ("move your drawn to your hand", "move your drawn to your hnd"),
                                  ("set required = required + 1", "set requird = required + 1")),
    # "a copy of games/dtc.rules with a text in single quotes"
    "broken_syn.rules": _replaced("games/dtc.rules",
                                  ('log "the offer was true: {actor} takes the cards"', "log 'the offer was true'")),
    # "the } closing the window doubt of Coin bluff was deleted"
    "broken_eof2.rules": _replaced("docs/examples/coin_bluff.rules",
                                   ("    do next_turn\n  }\n}\n\nprocedure next_turn", "    do next_turn\n  }\n\nprocedure next_turn")),
}

SYNOPSIS = re.compile(r"\bFILE\b|\[")


def _commands() -> list:
    """(args, shown output, text of the file it needs or None) per runnable command."""
    commands = []
    for path in DOCS:
        if path == TUTORIAL:            # tests/test_tutorial.py runs the tutorial's commands
            continue
        last_file = None
        for lang, text, _, line in _blocks(path):
            if lang == "rules" and _is_whole_file(text):
                last_file = text
            if lang not in ("sh", "console", "text"):
                continue
            lines = text.splitlines()
            for i, command in enumerate(lines):
                bare = command[2:] if command.startswith("$ ") else command
                if not bare.startswith("rulekit ") or SYNOPSIS.search(bare):
                    continue
                shown = []
                if command.startswith("$ "):
                    for later in lines[i + 1:]:
                        if later.startswith("$ "):
                            break
                        shown.append(later)
                args = shlex.split(bare, comments=True)[1:]
                marks = []
                if "--ray" in args or any(a.startswith("--ray=") for a in args):
                    marks.append(pytest.mark.skip(reason="--ray needs Ray and a cluster (tests/test_simulation.py)"))
                if "--games" in args:
                    at = args.index("--games") + 1
                    args[at] = str(min(int(args[at]), GAMES_CAP))
                commands.append(pytest.param(args, shown, last_file, marks=marks,
                                             id=f"{_name(path)}:{line + 1 + i}:{' '.join(args[:2])}"))
    return commands


COMMANDS = _commands()


def test_commands_are_found():
    """The reference's check and run, its error examples and simulate.md's commands are found."""
    found = {tuple(p.values[0][:2]) for p in COMMANDS}
    assert ("run", "docs/examples/coin_bluff.rules") in found
    assert ("check", "broken_sem.rules") in found
    assert ("simulate", "games/lugenbeutel.rules") in found


@pytest.mark.parametrize("args,shown,last_file", COMMANDS)
def test_command_runs_as_shown(args, shown, last_file, workdir):
    """A command of the docs exits as expected and prints what is shown, in that order."""
    target = args[1] if len(args) > 1 else None          # `rulekit games` names no file
    if target is not None and not (workdir / target).exists() and shipped_path(target) is None:
        if target in BROKEN_COPIES:
            text = BROKEN_COPIES[target]()
        else:
            assert last_file is not None, f"{target} is not in the repository and no whole file is shown before"
            text = last_file
        (workdir / target).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, args)
    expected = 2 if any("error:" in line for line in shown) else 0
    assert result.exit_code == expected, result.output
    printed = [line.rstrip() for line in result.output.splitlines()]     # stdout and stderr
    at = 0
    for line in shown:
        if line.strip() == "…":
            continue
        assert line.rstrip() in printed[at:], \
            f"not printed by rulekit {' '.join(args)} after line {at}: {line!r}\n{result.output}"
        at = printed.index(line.rstrip(), at) + 1


# --- Links -------------------------------------------------------------------------------

LINKED = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def _outside_code(text: str) -> str:
    """The text of a Markdown file without its fenced blocks."""
    return FENCE.sub("", text)


@pytest.mark.parametrize("path", LINKED, ids=_name)
def test_relative_links_lead_somewhere(path):
    """Every relative link leads to a file or folder of the repository, and a link to a
    heading names one the file has."""
    text = _outside_code(path.read_text(encoding="utf-8"))
    for m in LINK.finditer(text):
        target = m["target"]
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{_name(path)}: the link {target} leads nowhere"
        assert linked.is_relative_to(ROOT), f"{_name(path)}: the link {target} leaves the repository"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked.read_text(encoding="utf-8")), \
                f"{_name(path)}: {_name(linked)} has no heading #{anchor}"


@pytest.mark.parametrize("path", [*LINKED, ROOT / "rulekit" / "__init__.py"], ids=_name)
def test_no_paths_outside_the_repository(path):
    """No text sends a reader to ../shared (not in a clone) or to one machine's folders."""
    text = path.read_text(encoding="utf-8")
    for pattern in (r"\.\./shared/", r"/work/", r"/tmp/rk/"):
        assert not re.search(pattern, text), f"{_name(path)} mentions {pattern}"
