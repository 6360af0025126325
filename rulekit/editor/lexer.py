"""A Pygments lexer for ``.rules`` files: ``pygmentize -l rules FILE``, or ```` ```rules ````
blocks in any tool that highlights with Pygments (Sphinx, MkDocs, …).

Installed as the Pygments plugin ``rules`` (aliases ``rules``, ``rulekit``; files
``*.rules``) by the ``pygments.lexers`` entry point of rulekit's pyproject.toml. Its
keywords are the grammar's (:func:`~rulekit.editor.words.grammar_keywords`); the name that
follows a declaring keyword is marked by what it names: ``zone hand`` makes ``hand`` a
``Name.Variable``, ``procedure score`` makes ``score`` a ``Name.Function``.
"""

from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

from .words import CLAIM_AFTER, NAME, declaration_pattern, grammar_keywords

#: how the name a declaring keyword introduces is shown
_NAME_TOKENS = {
    "zone": Name.Variable, "counter": Name.Variable, "seat": Name.Variable, "group": Name.Variable,
    "procedure": Name.Function, "claim": Name.Class, "variant": Name.Namespace,
    "turn": Name.Label, "window": Name.Label, "vote": Name.Label, "action": Name.Label,
    "table": Name.Constant, "symbols": Name.Constant, "names": Name.Constant, "die": Name.Constant,
    "card": Name.Constant,
}


def _declaration(keyword: str) -> tuple:
    """The rule that reads ``KEYWORD NAME`` as a declaration (or use) of a name of its kind."""
    return declaration_pattern(keyword), bygroups(Keyword.Declaration, Whitespace, _NAME_TOKENS[keyword])


class RulesLexer(RegexLexer):
    """Lexer for rulekit's ``.rules`` language of bluffing card games."""

    name = "rulekit"
    aliases = ["rules", "rulekit"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulekit"]
    flags = re.MULTILINE | re.UNICODE

    tokens = {
        "root": [
            # 'claim' after these words is the keyword, not a claim's name
            (CLAIM_AFTER, bygroups(Keyword, Whitespace, Keyword)),
            *(_declaration(keyword) for keyword in _NAME_TOKENS),
            include("value"),
        ],
        "value": [
            (r"\s+", Whitespace),
            (r"#.*$", Comment.Single),
            (r"…", Comment.Special),        # what an example in the documentation leaves out
            (r'"', String.Double, "text"),
            (r"\d+", Number.Integer),
            (r"\.\.|<=|>=|!=|[=<>+\-*/]", Operator),
            (r"[{}():,]", Punctuation),
            (words(("true", "false"), prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(grammar_keywords(), prefix=r"\b", suffix=r"\b"), Keyword),
            (NAME, Name),
        ],
        # a quoted text: one line, no escapes; '{EXPR}' is a hole (a lone '{' is text)
        "text": [
            (r'[^"{\n]+', String.Double),
            (r'\{(?=[^{}"#\n]*\})', String.Interpol, "hole"),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),
        ],
        "hole": [
            (r"\}", String.Interpol, "#pop"),
            include("value"),
        ],
    }
