"""What an editor asks about a ``.rules`` text, answered with plain values (no editor
protocol): its problems, the names it declares, the word at a place, and the hover text,
completions and declarations for that place. :mod:`rulekit.editor.server` speaks the
Language Server Protocol on top of these.

Places are 0-based lines and columns counted in characters (code points), lines ended by
``\\n`` alone, as the parser counts them.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re

import attrs

from ..errors import Problem, RulesError
from ..lang import model as m
from ..lang.transform import to_model
from ..sema.load import check_text
from .words import DECLARING, NAME, grammar_keywords

#: the seats every game has (docs/language.md, "Seats")
BUILTIN_SEATS = ("current", "actor", "claimant")


@attrs.frozen
class Diagnostic:
    """One problem of a text: its range (0-based, the end column excluded), message and hint."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    hint: str | None = None


@attrs.frozen
class Declaration:
    """A name a text declares: its kind (``zone``, ``counter``, ``phase``, ``symbol``…) and
    where the name stands (0-based line, first column and the column after it)."""

    kind: str
    name: str
    line: int
    column: int
    end_column: int


# ------------------------------------------------------------------ diagnostics
def diagnostics(text: str, path: str = "<rules>") -> list[Diagnostic]:
    """Every problem ``rulekit check`` finds in ``text`` and in each of its variants (a
    variant's own problems are named ``variant NAME: …``), each once, in source order."""
    try:
        rows = check_text(_same_places(text), path)
    except RulesError as exc:
        return [_diagnostic(problem) for problem in exc.problems]
    from ..engine.core import cannot_run

    found: dict[tuple, Diagnostic] = {}
    for variant, _label, result in rows:
        problems = result.problems if isinstance(result, RulesError) else ()
        if not problems:
            refused = cannot_run(result)          # a construct the engine cannot write, as check says
            problems = () if refused is None else (refused.problem,)
        for problem in problems:
            found.setdefault((problem.span, problem.message), _diagnostic(problem, variant))
    return sorted(found.values(), key=lambda d: (d.line, d.column))


def _same_places(text: str) -> str:
    """``text`` with a byte-order mark that begins it made a space: the parser leaves the
    mark out, which would move every place of the first line one column to the left."""
    return " " + text[1:] if text.startswith("\ufeff") else text


def _diagnostic(problem: Problem, variant: str | None = None) -> Diagnostic:
    """``problem`` with its 1-based span made 0-based; a span without an end covers one
    character, one of the whole file (line 0) the file's first place."""
    span = problem.span
    line, column = max(span.line - 1, 0), max(span.column - 1, 0)
    end_line, end_column = line, column + (1 if span.line else 0)
    if (span.end_line, span.end_column) > (span.line, span.column):
        end_line, end_column = span.end_line - 1, span.end_column - 1
    message = f"variant {variant}: {problem.message}" if variant else problem.message
    return Diagnostic(line, column, end_line, end_column, message, problem.hint)


# ------------------------------------------------------------------ declared names
_KINDS = {m.ZoneDecl: "zone", m.CounterDecl: "counter", m.SeatDecl: "seat", m.GroupDecl: "group",
          m.ClaimDecl: "claim", m.ProcedureDecl: "procedure", m.PhaseDecl: "phase", m.TableDecl: "table",
          m.SymbolsDecl: "symbols", m.NamesDecl: "names", m.DieDecl: "die", m.CardDecl: "card",
          m.Action: "action", m.VariantDecl: "variant"}


def declarations(text: str) -> tuple[list[Declaration], bool]:
    """The names ``text`` declares, and whether it parses: read from its model when it
    parses, else found by :func:`scan_declarations`."""
    try:
        items = to_model(_same_places(text)).items
    except RulesError:
        return scan_declarations(text), False
    lines = text.split("\n")
    found: list[Declaration] = []
    for item in _declared_items(items):
        found.extend(_located(item, lines))
    return found, True


def _declared_items(items) -> list:
    """The items that declare a name, in source order: those of ``items``, the cards of a
    deck, the actions of a phase and the items of a variant."""
    out = []
    for item in items:
        if type(item) in _KINDS:
            out.append(item)
        if isinstance(item, m.DeckDecl):
            out.extend(item.cards)
        elif isinstance(item, m.PhaseDecl):
            out.extend(item.actions)
        elif isinstance(item, m.VariantDecl):
            out.extend(_declared_items(item.items))
    return out


def _located(item, lines: list[str]) -> list[Declaration]:
    """Where the name of ``item`` (and, for a symbol set, each symbol) stands: the first
    time it is written after the item's keyword."""
    line, column = item.span.line - 1, item.span.column - 1
    if not 0 <= line < len(lines):
        return []
    names = [(_KINDS[type(item)], item.name)]
    if isinstance(item, m.SymbolsDecl):
        names += [("symbol", symbol) for symbol in item.symbols]
    keyword = re.match(NAME, lines[line][column:])
    at = (line, column + (keyword.end() if keyword else 0))
    found = []
    for kind, name in names:
        place = _find_word(lines, name, at)
        if place is None:
            break
        found.append(Declaration(kind, name, place[0], place[1], place[1] + len(name)))
        at = (place[0], place[1] + len(name))
    return found


def _find_word(lines: list[str], word: str, start: tuple[int, int]) -> tuple[int, int] | None:
    """The first place at or after ``start`` where ``word`` stands as a whole word."""
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    line, column = start
    while line < len(lines):
        found = pattern.search(lines[line], column)
        if found:
            return line, found.start()
        line, column = line + 1, 0
    return None


_DECLARED = re.compile(rf"^[ \t]*({'|'.join(DECLARING)})[ \t]+({NAME})", re.M)


def scan_declarations(text: str) -> list[Declaration]:
    """The names a text that does not parse seems to declare: each line that begins with a
    declaring keyword and a name (``zone NAME``, ``  card NAME``), but a ``claim NAME``
    without a ``:`` further on its line (the statement that makes a claim); and on the same
    line, the symbols of ``symbols NAME: A < B`` and the action of ``turn NAME: action A``."""
    found = []
    for line_no, line in enumerate(text.split("\n")):
        hit = _DECLARED.match(line)
        if hit is None or hit[1] == "claim" and ":" not in line[hit.end():]:
            continue
        kind = DECLARING[hit[1]]
        found.append(Declaration(kind, hit[2], line_no, hit.start(2), hit.end(2)))
        rest = line[hit.end():].split("#", 1)[0]
        for extra_kind, start, end in _on_the_line(kind, rest):
            found.append(Declaration(extra_kind, rest[start:end], line_no, hit.end() + start, hit.end() + end))
    return found


_ONE_ACTION = re.compile(rf"^[^:]*:[ \t]*action[ \t]+({NAME})")


def _on_the_line(kind: str, rest: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of the names declared in ``rest``, the line after ``KIND NAME``."""
    if kind == "symbols" and rest.lstrip().startswith(":"):
        return [("symbol", found.start(), found.end()) for found in re.finditer(NAME, rest)]
    one_action = _ONE_ACTION.match(rest) if kind == "phase" else None
    return [("action", one_action.start(1), one_action.end(1))] if one_action else []


# ------------------------------------------------------------------ a place of the text
def word_at(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The name or keyword at (or just before) a place: (word, first column, column after
    it), or None (a space, a number, a symbol, or past the end)."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for found in re.finditer(NAME, lines[line]):
        if found.start() <= column <= found.end():
            return found[0], found.start(), found.end()
    return None


def definition(text: str, line: int, column: int) -> list[Declaration]:
    """Where the name at a place is declared (several places when it names several things:
    a claim and a phase may share a name, and variants declare again)."""
    word = word_at(text, line, column)
    if word is None:
        return []
    found, _parsed = declarations(text)
    return [d for d in found if d.name == word[0]]


@functools.cache
def hover_texts() -> dict[str, str]:
    """Per keyword, a Markdown text from docs/language.md: the heading of the section about
    it and its first paragraph (``hover.json``, which ``editors/build.py`` writes)."""
    try:
        data = importlib.resources.files("rulekit.editor").joinpath("hover.json").read_text("utf-8")
        return dict(json.loads(data))
    except (OSError, ValueError):
        return {}


def hover(text: str, line: int, column: int) -> str | None:
    """The Markdown text shown for the word at a place: what the reference says of a
    keyword, and the line that declares a name; None for anything else."""
    word = word_at(text, line, column)
    if word is None:
        return None
    parts = []
    if word[0] in grammar_keywords() and word[0] in hover_texts():
        parts.append(hover_texts()[word[0]])
    lines = text.split("\n")
    for found in definition(text, line, column):
        source = lines[found.line].strip()
        parts.append(f"{found.kind} `{found.name}`, line {found.line + 1}:\n\n```rules\n{source}\n```")
    return "\n\n---\n\n".join(parts) or None


def completions(text: str, known: tuple | list = ()) -> list[tuple[str, str]]:
    """What may be typed: (word, kind) for every name ``text`` declares (and those in
    ``known``, the names of the last text that parsed, while this one does not), the
    built-in seats and every keyword (kind ``keyword``); each word once, a name before a
    keyword of the same spelling."""
    found, parsed = declarations(text)
    names = found if parsed else [*found, *known]
    items: dict[str, str] = {}
    for declared in names:
        items.setdefault(declared.name, declared.kind)
    for seat in BUILTIN_SEATS:
        items.setdefault(seat, "seat")
    for keyword in grammar_keywords():
        items.setdefault(keyword, "keyword")
    return list(items.items())
