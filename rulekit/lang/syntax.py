"""Builds the Lark parser once and turns every Lark error into a :class:`RulesError`.

This module and :mod:`rulekit.lang.transform` are the only ones that import lark.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from pathlib import Path

from lark import Lark, Token, Tree
from lark.lark import PostLex
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from ..errors import Problem, RulesError, Span

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
    rulekit is imported from a source checkout, from ``grammar/`` beside the ``rulekit`` package."""
    try:
        return importlib.resources.files("rulekit.grammars").joinpath("rulekit.lark").read_text("utf-8")
    except ModuleNotFoundError:
        source = Path(__file__).resolve().parents[2] / "grammar" / "rulekit.lark"  # rulekit/lang/syntax.py
        return source.read_text("utf-8")


class _WholeWords(PostLex):
    """Lets the contextual lexer read a whole word everywhere: where only keywords can come,
    ``gototurn`` is one (unexpected) word, never the keyword ``go`` glued to ``toturn``."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@functools.cache
def parser() -> Lark:
    """The LALR parser of the rulekit language, built once from the packaged grammar."""
    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True, start=["start", "expr"],
                   postlex=_WholeWords())
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
    literal = re.sub(r"\\(.)", r"\1", pattern.value)
    if re.escape(literal) == pattern.value:         # a symbol Lark keeps as an escaped pattern: '..'
        return f"'{literal}'"
    return terminal.lower()


def _expected(names) -> str:
    """The acceptable tokens in words: keywords alphabetically (at most 8), then the rest."""
    described = {_describe(n) for n in names if not n.startswith("__") or n.startswith("__ANON")}
    keywords_ = sorted(w for w in described if w.startswith("'") and w[1:-1].isalpha())
    others = sorted(described - set(keywords_), key=lambda w: (w.startswith("'"), w))
    if len(keywords_) > 8:
        keywords_ = keywords_[:8] + ["…"]
    words = keywords_ + others
    return ", ".join(words) if words else "something else"


def _acceptable(exc) -> set:
    """The exact set of tokens the parser would have accepted where it stopped."""
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is not None:
        try:
            return set(interactive.accepts())
        except Exception:  # noqa: BLE001 - fall back to Lark's merged lookahead set
            pass
    return set(getattr(exc, "expected", ()) or ())


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    return f"'{token}'"


def parse(source: str, path: str = "<rules>", start: str = "start") -> Tree:
    """Parse a ``.rules`` text into a Lark tree.

    Raises:
        RulesError: with the location of the first syntax error, what was found and
            what would have been accepted there; or of the first control character
            (:func:`_odd_character`), before anything is parsed.
    """
    odd = _odd_character(source)
    if odd is not None:
        raise RulesError(path, source, [odd])
    try:
        tree = parser().parse(source, start=start)
    except UnexpectedInput as exc:
        raise RulesError(path, source, [_problem(exc, source)]) from None
    too_deep = _too_deep(tree)
    if too_deep is not None:
        raise RulesError(path, source, [too_deep])
    return tree


#: the control characters a rules text may not hold: C0 but tab and newline (a carriage
#: return only before a newline, as in a file saved with Windows line ends), DEL, C1 (a
#: terminal may read U+009B as the start of a command), the controls of bidirectional
#: text and the line and paragraph separators U+2028 and U+2029 (they can make a line read
#: otherwise than it runs: an editor may break a comment's line there, showing what follows
#: as rules that are not read)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]")
_CONTROL_NAMES = {0: "NUL", 7: "BEL", 8: "BS", 0x0b: "VT", 0x0c: "FF", 0x0d: "CR", 0x1b: "ESC", 0x7f: "DEL",
                  0x9b: "CSI", 0x9d: "OSC", 0x202e: "RIGHT-TO-LEFT OVERRIDE", 0x202d: "LEFT-TO-RIGHT OVERRIDE",
                  0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR", 0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE"}


def char_name(char: str) -> str:
    """How a character is shown in a message: ``'x'``, or ``U+001B (ESC)`` for one that
    cannot be seen (a control, a format character such as a byte-order mark, a space
    other than the plain one)."""
    if char.isprintable() and (char == " " or not char.isspace()) and not 0xfe00 <= ord(char) <= 0xfeff:
        return f"'{char}'"
    name = _CONTROL_NAMES.get(ord(char))
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _odd_character(source: str) -> Problem | None:
    """The first control character of ``source`` (but tab, newline, and a carriage return
    before a newline) as a located problem, or None: such a character is invisible in an
    editor and may end a C string (NUL) or drive a terminal (ESC)."""
    for found in _CONTROL.finditer(source):
        at = found.start()
        if source[at] == "\r" and source.startswith("\n", at + 1):
            continue
        line = source.count("\n", 0, at) + 1
        col = at - (source.rfind("\n", 0, at) + 1) + 1
        what = "a line break other than a newline" if source[at] in "\u2028\u2029" else "a control character"
        return Problem(f"{what}, {char_name(source[at])}, cannot appear in a rules file",
                       Span(line, col, line, col + 1),
                       "delete it (an editor may not show it); texts may hold any printable character")
    return None


MAX_NESTING = 200
"""How deeply constructs may nest (the depth of the parse tree): far beyond what a person
writes (the shipped games reach 16), and shallow enough for every later pass."""


def _too_deep(tree: Tree) -> Problem | None:
    """The place where ``tree`` nests deeper than :data:`MAX_NESTING`, found without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line, col = getattr(meta, "line", 1), getattr(meta, "column", 1)
            return Problem(f"this is nested more than {MAX_NESTING} levels deep", Span(line, col),
                           "split a long 'or' / 'and' chain or an 'else if' chain with 'let' or a procedure")
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def _problem(exc: UnexpectedInput, source: str) -> Problem:
    line = getattr(exc, "line", 0) or 0
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedCharacters):
        char = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        hint = None
        shown = char_name(char)
        if char == "'":
            hint = 'texts are written in double quotes: "like this"'
            shown = '"\'"'
        return Problem(f"unexpected character {shown}", Span(line, col, line, col + 1), hint)
    accepted = _acceptable(exc)
    if isinstance(exc, UnexpectedEOF) or exc.token.type == "$END":
        lines = source.rstrip("\n").split("\n")     # only \n ends a line, as the parser counts
        line, col = len(lines), len(lines[-1]) + 1
        return Problem(f"the file ends too early; expected {_expected(accepted)}",
                       Span(line, col), _open_brace_hint(source))
    token = exc.token
    end = col + len(str(token))
    hint = None
    if {_describe(n) for n in accepted} == {"'..'"}:
        # a value where a range LOW..HIGH was begun: the mistake is before the next token,
        # which may well be on the next line
        hint = ("a range is written LOW..HIGH, such as 'choose n in 1..count of your hand'; a choice may "
                "also take a symbol set, 'seats in SEATS' or 'N of SEATS'")
        last = _last_end(exc)
        if last is not None and last[0] < line:
            return Problem(f"expected '..' after this (a range LOW..HIGH), not {_token_text(token)} on line {line}",
                           Span(last[0], last[1]), hint)
    before = _last_token(exc)
    if str(token) in keywords() and "NAME" in accepted:
        hint = reserved_hint(str(token))
    elif before is not None and str(before) in keywords() and "NAME" not in accepted \
            and re.search(rf"\b(let|each|choose)\s+{re.escape(str(before))}\b", source):
        # a reserved word the file names something with (where only a name can stand, as
        # after 'let', it is read as a name), then reads: there it begins a construct
        hint = (f"'{before}' is a reserved word of the language and begins a construct here, although "
                f"the file names a value '{before}': choose another name")
    elif "'{'" in {_describe(n) for n in accepted} and str(token) in ("action", "}") and before is not None \
            and before.type in ("STRING", "NAME"):
        hint = "an action's steps are written in braces after its name and label; one that does nothing: { }"
    elif str(token) == "=" and exc.pos_in_stream and source[exc.pos_in_stream - 1] == "=":
        hint = "equality is a single '=': write 'x = 1', not 'x == 1'"
    elif str(token) in ("where", "with"):
        let = re.search(r"\blet\s+(\w+)\s*=\s*\(\s*\w+\s+in\b[^\n]*$", source[:exc.pos_in_stream or 0])
        if let is not None:       # 'let u = (p in everyone where …)': a set of seats is a group
            hint = (f"a set of seats is kept in a group: declare 'group {let[1]}' and write "
                    f"'let {let[1]} be (p in … {token} …)'")
    return Problem(f"unexpected {_token_text(token)}; expected {_expected(accepted)}",
                   Span(line, col, line, end), hint)


def _value_stack(exc) -> list | None:
    """What the parser had read before ``exc`` (its value stack), or None."""
    interactive = getattr(exc, "interactive_parser", None)
    return getattr(getattr(interactive, "parser_state", None), "value_stack", None)


def _last_token(exc) -> Token | None:
    """The token the parser read last before ``exc``, when it is a bare token, else None."""
    stack = _value_stack(exc)
    return stack[-1] if stack and isinstance(stack[-1], Token) else None


def _last_end(exc) -> tuple[int, int] | None:
    """(line, column) just after what the parser read last before ``exc``, or None."""
    stack = _value_stack(exc)
    if not stack:
        return None
    last = stack[-1]
    if isinstance(last, Token):
        return (last.end_line, last.end_column) if last.end_line is not None else None
    meta = getattr(last, "meta", None)
    if meta is None or getattr(meta, "empty", True):
        return None
    return meta.end_line, meta.end_column


def reserved_hint(word: str) -> str:
    """The hint for a reserved word used where a name was expected."""
    if word in ("everyone", "others", "voters"):
        return (f"'{word}' is a set of seats, not a name; to choose one of its seats write "
                f"'choose p in seats in {word}'")
    return f"'{word}' is a reserved word of the language; choose another name"


# the rules whose alternatives may start with a keyword where a name could also stand
_VALUE_RULES = {"atom", "cards", "zone_ref", "seat", "seat_basic", "seats", "seats_one", "not_expr", "unary",
                "expr", "cpred_simple", "cpred_atom", "cpred_not", "domain", "count_spec"}


@functools.cache
def keywords() -> frozenset[str]:
    """The reserved words: keywords that can begin a value (``count``, ``every``, ``left``…).

    Such a word cannot name a zone, counter, seat or anything else, because it would be read
    as the keyword where a value is expected. Other keywords (``turn``, ``window``…) only
    ever start a declaration or a statement, so they may also be used as names.
    """
    words = set()
    for rule in parser().rules:
        if rule.origin.name in _VALUE_RULES and rule.expansion:
            first = rule.expansion[0]
            if first.is_term:
                pattern = parser().get_terminal(first.name).pattern
                if pattern.type == "str" and pattern.value.isalpha():
                    words.add(pattern.value)
    return frozenset(words)


def _open_brace_hint(source: str) -> str | None:
    opened: list[int] = []
    for n, line in enumerate(source.split("\n"), 1):
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
