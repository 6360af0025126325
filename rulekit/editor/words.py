"""The words of the language an editor highlights and completes, read from the grammar.

The keywords are the quoted words of ``grammar/rulekit.lark`` (the ones docs/language.md
lists under "Reserved words"), found when this module is imported, so that no list kept
by hand can drift from the grammar.
"""

from __future__ import annotations

import functools
import re

from ..lang.syntax import grammar_text

#: the keyword that declares a name, and the kind of thing it names
DECLARING = {
    "zone": "zone", "counter": "counter", "seat": "seat", "group": "group", "claim": "claim",
    "procedure": "procedure", "turn": "phase", "window": "phase", "vote": "phase", "table": "table",
    "symbols": "symbols", "names": "names", "die": "die", "card": "card", "action": "action",
    "variant": "variant",
}

#: a name of the language (grammar terminal NAME)
NAME = r"[^\W\d]\w*"

#: what must follow the declared name where its keyword also begins other constructs
#: (``end turn``, ``every card in``, ``move chosen to table``), and the words that are no
#: name after a keyword (``1 seat remains``, ``claim holds``); a lookahead within one line
_AFTER_NAME = {
    "turn": r"(?=\s*(?:clockwise\b|\{|:))",
    "card": r'(?=\s*(?:"[^"\n]*"\s*)?:)',
    **{keyword: r"(?=\s*:)" for keyword in ("table", "symbols", "names", "die", "window", "vote", "zone")},
}
_NOT_A_NAME = {"seat": r"(?!remains\b)", "claim": r"(?!holds\b|stands\b|is\b)"}

#: the words before ``claim`` that make it a keyword, not the start of a claim's name
CLAIM_AFTER = r"\b(clear|no|beats)([ \t]+)(claim)\b"


def declaration_pattern(keyword: str) -> str:
    """A regular expression (Python's and Oniguruma's alike) for ``KEYWORD NAME``, a
    declaration or use of a name of the kind the keyword declares; groups: the keyword,
    the space, the name."""
    return rf"\b({keyword})([ \t]+){_NOT_A_NAME.get(keyword, '')}({NAME})\b{_AFTER_NAME.get(keyword, '')}"


_QUOTED_WORD = re.compile(r'"(' + NAME + r')"')
_LINE_COMMENT = re.compile(r"//[^\n]*")


@functools.cache
def grammar_keywords() -> tuple[str, ...]:
    """Every keyword of the language, sorted: each quoted word of the grammar (``"zone"``,
    ``"of"``…), its ``//`` comments left out."""
    grammar = _LINE_COMMENT.sub("", grammar_text())
    return tuple(sorted(set(_QUOTED_WORD.findall(grammar))))
