"""Builds the Lark parser once and turns every Lark error into a :class:`RulesError`.

This module and :mod:`rulekit.transform` are the only ones that import lark.
"""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Problem, RulesError, Span

# How terminals are named to a user: never a Lark terminal name.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": 'a quoted text',
    "INT": "a whole number",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "ADD_OP": "'+' or '-'",
    "STAR": "'*'",
    "LESSTHAN": "'<'",
    "MORETHAN": "'>'",
    "$END": "the end of the file",
}


def grammar_text() -> str:
    """The text of the grammar: from the installed package ``rulekit.grammars``, or, when
    rulekit is imported from a source checkout, from ``grammar/`` beside the package."""
    try:
        return importlib.resources.files("rulekit.grammars").joinpath("rulekit.lark").read_text("utf-8")
    except ModuleNotFoundError:
        source = Path(__file__).resolve().parent.parent / "grammar" / "rulekit.lark"
        return source.read_text("utf-8")


@functools.cache
def parser() -> Lark:
    """The LALR parser of the rulekit language, built once from the packaged grammar."""
    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True, start=["start", "expr"])
    try:
        # Lark keeps the built tables in the temporary folder, keyed by the grammar's hash
        return Lark(grammar_text(), cache=True, **options)
    except OSError:
        return Lark(grammar_text(), **options)


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    term = parser().get_terminal(terminal)
    pattern = term.pattern
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _expected(names) -> str:
    words = sorted({_describe(n) for n in names if not n.startswith("__")})
    if not words:
        return "something else"
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    return f"'{token}'"


def parse(source: str, path: str = "<rules>", start: str = "start") -> Tree:
    """Parse a ``.rules`` text into a Lark tree.

    Raises:
        RulesError: with the location of the first syntax error, what was found and
            what would have been accepted there.
    """
    try:
        return parser().parse(source, start=start)
    except UnexpectedInput as exc:
        raise RulesError(path, source, [_problem(exc, source)]) from None


def _problem(exc: UnexpectedInput, source: str) -> Problem:
    line = getattr(exc, "line", 0) or 0
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedCharacters):
        char = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        hint = None
        if char == "'":
            hint = 'texts are written in double quotes: "like this"'
        return Problem(f"unexpected character '{char}'", Span(line, col, line, col + 1), hint)
    if isinstance(exc, UnexpectedEOF):
        lines = source.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        return Problem(f"the file ends too early; expected {_expected(exc.expected)}",
                       Span(line, col), _open_brace_hint(source))
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    if token.type == "$END":
        lines = source.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        return Problem(f"the file ends too early; expected {_expected(exc.expected)}",
                       Span(line, col), _open_brace_hint(source))
    end = col + len(str(token))
    expected = _expected(exc.expected)
    hint = None
    if token.type == "NAME" and exc.expected == {"NAME"} - {"NAME"}:
        hint = None
    if str(token) in _keywords() and "NAME" in exc.expected:
        hint = f"'{token}' is a reserved word of the language; choose another name"
    return Problem(f"unexpected {_token_text(token)}; expected {expected}", Span(line, col, line, end), hint)


@functools.cache
def _keywords() -> frozenset[str]:
    words = set()
    for term in parser().terminals:
        if term.pattern.type == "str" and term.pattern.value.isalpha():
            words.add(term.pattern.value)
    return frozenset(words)


def keywords() -> frozenset[str]:
    """The reserved words of the language (they cannot be used as names)."""
    return _keywords()


def _open_brace_hint(source: str) -> str | None:
    depth = 0
    opened: list[int] = []
    for n, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        in_str = False
        for ch in code:
            if ch == '"':
                in_str = not in_str
            elif not in_str and ch == "{":
                opened.append(n)
            elif not in_str and ch == "}" and opened:
                opened.pop()
    if opened:
        return f"the block opened with '{{' on line {opened[-1]} is still open"
    return None
