"""Source spans and the one error type that reaches a user.

Every message a user sees about a ``.rules`` file has the form::

    path:line:col: error: message
        the source line
            ^
    hint: what to do about it

Semantic checks collect all their problems and raise them together in one
:class:`RulesError`.
"""

from __future__ import annotations

import difflib

import attrs


@attrs.frozen
class Span:
    """A position in a source text: 1-based line and column of the start and end."""

    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    @classmethod
    def unknown(cls) -> "Span":
        return cls(0, 0, 0, 0)


@attrs.frozen
class Problem:
    """One located problem in a ``.rules`` file."""

    message: str
    span: Span
    hint: str | None = None

    def render(self, path: str, source: str) -> str:
        """The full text of this problem: location, message, source line, caret, hint."""
        line, col = self.span.line, self.span.column
        path = shown_text(path)
        if not line:                   # a problem of the whole file (it cannot be read as text)
            return f"{path}: error: {self.message}" + (f"\nhint: {self.hint}" if self.hint else "")
        out = [f"{path}:{line}:{col}: error: {self.message}"]
        lines = source.split("\n")          # lines as the parser counts them: only \n ends one
        if 1 <= line <= len(lines):
            text = lines[line - 1].removesuffix("\r")     # a Windows line end is no part of it
            width = 1
            if self.span.end_line == line and self.span.end_column > col:
                width = self.span.end_column - col
            start = 0
            if len(text) > _SHOWN:
                # a very long line: show the part around the caret
                start = max(0, min(col - 1 - _SHOWN // 2, len(text) - _SHOWN))
                shown = text[start:start + _SHOWN]
                text = ("…" if start else "") + shown + ("…" if start + _SHOWN < len(text) else "")
                start -= 1 if start else 0
                width = min(width, _SHOWN)
            out.append(f"    {shown_text(text)}")
            out.append("    " + " " * (col - 1 - start) + "^" * max(1, width))
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


_SHOWN = 100                      # characters of a source line shown around the caret
#: C0 controls (but tab) as their visible symbols (NUL as ␀, ESC as ␛, DEL as ␡), one
#: column each, so that a caret still points at them; C1 controls and the controls of
#: bidirectional text (which can make a line read otherwise than it runs) and the line
#: breaks U+2028 and U+2029 as ⟨U+202E⟩
_VISIBLE = {**{c: 0x2400 + c for c in range(0x20) if c != 0x09}, 0x7f: 0x2421,
            **{c: f"⟨U+{c:04X}⟩" for c in (*range(0x80, 0xa0), 0x061c, 0x200e, 0x200f, *range(0x202a, 0x202f),
                                          0x2028, 0x2029, *range(0x2066, 0x206a))}}
_VISIBLE_LINES = {k: v for k, v in _VISIBLE.items() if k != 0x0a}


def shown_text(text: str, lines: bool = False) -> str:
    """``text`` as it may reach a terminal: its control characters made visible (see
    ``_VISIBLE``), so that a text from a file, a log or a person can neither drive the
    terminal (clear it, set its title, write the clipboard, erase a line) nor reverse
    what is shown; ``lines``: newlines kept as they are."""
    return text.translate(_VISIBLE_LINES if lines else _VISIBLE)


class RulesError(Exception):
    """A ``.rules`` file is malformed or inconsistent.

    Attributes:
        path: the file name shown in messages.
        source: the text of the file.
        problems: every problem found, in source order.
    """

    def __init__(self, path: str, source: str, problems: list[Problem]):
        self.path = path
        self.source = source
        self.problems = sorted(problems, key=lambda p: (p.span.line, p.span.column))
        super().__init__(self.render())

    def render(self) -> str:
        """All problems, each as ``path:line:col: error: …`` with its source line and caret."""
        return "\n".join(p.render(self.path, self.source) for p in self.problems)


class CannotRun(RuntimeError):
    """The rules use a construct the engine's step writer does not write yet (a defect of
    rulekit, not of the file): located at the first phase (or the setup) it could not write.

    Attributes:
        path, source: the file's name and text.
        problem: the :class:`Problem` (message and place).
    """

    def __init__(self, path: str, source: str, problem: "Problem"):
        self.path, self.source, self.problem = path, source, problem
        super().__init__(problem.message)

    def render(self) -> str:
        """``path:line:col: error: …`` with the source line and a caret, as a RulesError."""
        return self.problem.render(self.path, self.source)


class IllegalAction(ValueError):
    """An action that is not legal in the current state was applied."""


class OptionError(ValueError):
    """A run-time option (player count, variant, seat) does not fit the game."""


class CompileError(Exception):
    """The model refers to things that do not exist or mixes kinds of values: its
    ``problems`` (:class:`Problem`), which the checks turn into a :class:`RulesError`."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


class RulesRuntimeError(RuntimeError):
    """The rules reached a state they do not say how to leave (reported with its location):
    a match raises it with its ``record`` of what was played."""


def suggest(name: str, candidates) -> str | None:
    """A "did you mean …?" hint for a misspelt name, or None."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
