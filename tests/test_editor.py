"""Editor support: the keywords read from the grammar, the Pygments lexer, the generated
editor files (editors/build.py), the answers of rulekit.editor.features, and the language
server rulekit-lsp driven over its protocol in a subprocess, as an editor drives it."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.editor import features
from rulekit.editor.words import grammar_keywords
from rulekit.lang.syntax import parser

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "docs" / "examples").glob("*.rules"))
FENCE = re.compile(r"^(?P<indent>[ \t]*)```rules[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)


def _doc_blocks() -> list[tuple[str, str]]:
    """(file:line, text) of every ```rules block of README.md and docs/**/*.md."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            where = f"{path.relative_to(ROOT).as_posix()}:{text.count(chr(10), 0, block.start()) + 1}"
            found.append((where, block["body"]))
    return found


def _build():
    """editors/build.py as a module."""
    spec = importlib.util.spec_from_file_location("editors_build", ROOT / "editors" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ keywords
def test_keywords_are_the_quoted_words_of_the_grammar():
    """The keywords read from the grammar's text are the keyword terminals of the parser."""
    terminals = {t.pattern.value for t in parser().terminals
                 if t.pattern.type == "str" and t.pattern.value.isalpha()}
    assert terminals == set(grammar_keywords())


def test_reserved_words_of_the_reference_are_the_keywords():
    """docs/language.md's list of keywords ("Reserved words") is the grammar's."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Reserved words"):]
    listed = re.search(r"```text\n(.*?)```", section, re.S)[1].split()
    assert sorted(listed) == list(grammar_keywords())
    assert f"are the {len(grammar_keywords())} quoted words" in section


# ------------------------------------------------------------------ Pygments
@pytest.fixture(scope="module")
def lexer():
    pytest.importorskip("pygments")
    from rulekit.editor.lexer import RulesLexer
    return RulesLexer()


def _tokens(lexer, text: str) -> list[tuple[str, str]]:
    """(token type as text, value) of ``text``, spaces left out."""
    return [(str(kind), value) for kind, value in lexer.get_tokens(text) if value.strip()]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_lexer_reads_every_game_without_an_error_token(lexer, path):
    """No part of a shipped game is an Error token."""
    from pygments.token import Error
    errors = [value for kind, value in lexer.get_tokens(path.read_text(encoding="utf-8")) if kind in Error]
    assert [] == errors


@pytest.mark.parametrize("where, text", _doc_blocks(), ids=[w for w, _ in _doc_blocks()])
def test_lexer_reads_every_rules_block_of_the_docs_without_an_error_token(lexer, where, text):
    """No part of a ```rules block of the documentation is an Error token."""
    from pygments.token import Error
    assert [] == [value for kind, value in lexer.get_tokens(text) if kind in Error]


def test_every_keyword_is_a_keyword_token(lexer):
    """Each keyword of the grammar, alone, is lexed as a Keyword."""
    from pygments.token import Keyword
    for word in grammar_keywords():
        (kind, value), *_ = lexer.get_tokens(word)
        assert (kind in Keyword, value) == (True, word)


def test_declared_names_are_marked_by_their_kind(lexer):
    """The name after a declaring keyword is marked by its kind; a keyword that only looks
    like one (end turn, every card in, 1 seat remains, claim holds) stays a keyword."""
    text = ('zone hand: per player\nprocedure score { end turn }\nturn bid clockwise { }\n'
            'claim gold "gold": true when every card in claimed cards is gold\n'
            'match { ends when 1 seat remains }\nif claim holds { clear claim }')
    tokens = _tokens(lexer, text)
    assert ("Token.Name.Variable", "hand") in tokens
    assert ("Token.Name.Function", "score") in tokens
    assert ("Token.Name.Label", "bid") in tokens
    assert ("Token.Name.Class", "gold") in tokens
    for word in ("turn", "in", "remains", "holds", "claim"):
        assert ("Token.Keyword", word) in tokens
    assert not any(kind.startswith("Token.Name.") and value in ("in", "remains", "holds") for kind, value in tokens)


def test_a_hole_in_a_text_is_an_expression(lexer):
    """A {…} hole of a quoted text is lexed as an expression; a lone '{' is text."""
    tokens = _tokens(lexer, 'log "{count of hand} left, a { alone"')
    assert ("Token.Literal.String.Interpol", "{") in tokens
    assert ("Token.Keyword", "count") in tokens
    assert ("Token.Literal.String.Double", "{") in tokens


def test_pygments_finds_the_lexer_by_name_and_file_name():
    """The installed entry point makes the lexer Pygments' 'rules' and 'rulekit', and of *.rules."""
    lexers = pytest.importorskip("pygments.lexers")
    found = {type(lexers.get_lexer_by_name(name)).__name__ for name in ("rules", "rulekit")}
    assert {"RulesLexer"} == found
    assert "RulesLexer" == type(lexers.get_lexer_for_filename("skull.rules")).__name__


# ------------------------------------------------------------------ generated files
def test_generated_editor_files_are_up_to_date():
    """The TextMate grammars and hover.json are what editors/build.py makes now (else: run it)."""
    assert [] == [p.relative_to(ROOT).as_posix() for p in _build().stale()]


def test_textmate_grammar_lists_the_keywords_of_the_grammar():
    """The keyword rule of the TextMate grammar holds the grammar's keywords, true and false
    its constants; every pattern compiles."""
    grammar = json.loads((ROOT / "editors" / "rulekit.tmLanguage.json").read_text(encoding="utf-8"))
    repository = grammar["repository"]
    words = re.fullmatch(r"\\b\(\?:(.*)\)\\b", repository["keyword"]["match"])[1].split("|")
    assert sorted(words + ["false", "true"]) == list(grammar_keywords())
    for pattern in re.findall(r'"(?:match|begin|end)": ("(?:[^"\\]|\\.)*")', json.dumps(grammar)):
        re.compile(json.loads(pattern))


def test_vscode_extension_names_its_files():
    """The VS Code extension's grammar and language configuration exist; '#' starts a comment."""
    folder = ROOT / "editors" / "vscode"
    contributes = json.loads((folder / "package.json").read_text(encoding="utf-8"))["contributes"]
    language, grammar = contributes["languages"][0], contributes["grammars"][0]
    assert (folder / grammar["path"]).is_file()
    configuration = json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))
    assert ("#", [".rules"]) == (configuration["comments"]["lineComment"], language["extensions"])


def test_hover_texts_are_the_first_paragraphs_of_the_reference():
    """A keyword's hover text is the heading and first paragraph of its section."""
    texts = features.hover_texts()
    assert texts["game"] == "**`game`**\n\nThe title of the game, shown by `rulekit run` and `rulekit check`."
    assert texts["go"].startswith("**`go to`**\n\n`go to PHASE` ends the running block")
    assert set(texts) <= set(grammar_keywords())


# ------------------------------------------------------------------ features
BROKEN = 'game "Broken"\nplayers 2\nzone hand: per player\n  oops\n'
SMALL = (ROOT / "docs" / "examples" / "coin_bluff.rules").read_text(encoding="utf-8")


def test_a_syntax_error_is_a_diagnostic_with_its_range():
    """A syntax error is one diagnostic, 0-based, covering the unexpected word."""
    (found,) = features.diagnostics(BROKEN)
    assert (3, 2, 3, 6) == (found.line, found.column, found.end_line, found.end_column)
    assert found.message.startswith("unexpected 'oops'; expected ")


def test_a_byte_order_mark_moves_no_place():
    """A byte-order mark that begins the text counts as a column, as it does in the editor."""
    (found,) = features.diagnostics('\ufeffgame "x" oops')
    assert (0, 10, 14) == (found.line, found.column, found.end_column)
    declared, _ = features.declarations("\ufeffzone hand: shared")
    assert [(0, 6)] == [(d.line, d.column) for d in declared]


def test_every_problem_of_the_checks_is_a_diagnostic_with_its_hint():
    """Each semantic problem is a diagnostic, with the hint of rulekit check."""
    text = SMALL.replace("lay chosen on pot", "lay chosen on pott")
    found = features.diagnostics(text)
    line = text.split("\n").index("    lay chosen on pott")
    assert [line] == [d.line for d in found]
    assert "did you mean 'pot'?" == found[0].hint
    assert [] == features.diagnostics(SMALL)


def test_a_problem_of_a_variant_names_the_variant():
    """A problem found only with a variant applied says which variant."""
    text = SMALL + "\nvariant rich {\n  counter extra = nothing\n}\n"
    assert [("variant rich: unknown name 'nothing'", len(SMALL.split("\n")) + 1)] == [
        (d.message, d.line) for d in features.diagnostics(text)]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_scanning_finds_the_names_the_model_declares(path):
    """On every game, the scan for a text that does not parse finds what the model holds."""
    text = path.read_text(encoding="utf-8")
    declared, parsed = features.declarations(text)
    assert parsed
    assert sorted(declared, key=repr) == sorted(features.scan_declarations(text), key=repr)


def test_names_of_a_text_that_does_not_parse_are_scanned():
    """A broken text still has its declared names; a claim made (not declared) is none."""
    declared, parsed = features.declarations(BROKEN + "procedure tidy {\n  claim gold\n")
    assert not parsed
    assert [("zone", "hand", 2, 5), ("procedure", "tidy", 4, 10)] == [
        (d.kind, d.name, d.line, d.column) for d in declared]


def test_definition_and_hover_of_a_name():
    """Go to definition leads to the declaration; hovering it shows that line."""
    lines = SMALL.split("\n")
    use = lines.index("    lay chosen on pot")
    (found,) = features.definition(SMALL, use, len(lines[use]) - 1)
    assert ("zone", "pot", lines[found.line][found.column:found.end_column]) == (found.kind, found.name, "pot")
    assert lines[found.line].startswith("zone pot:")
    assert "zone pot: shared" in features.hover(SMALL, use, len(lines[use]))


def test_completion_offers_names_keywords_and_the_last_names_that_parsed():
    """Completion holds the declared names, the built-in seats and the keywords; while the
    text is broken, also the names of its last text that parsed."""
    offered = dict(features.completions(SMALL))
    assert ("zone", "seat", "seat", "procedure", "keyword", "keyword") == (
        offered["pot"], offered["starter"], offered["current"], offered["next_turn"], offered["shuffle"],
        offered["zone"])
    known, _ = features.declarations(SMALL)
    assert "phase" == dict(features.completions(BROKEN, known))["play"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(['game "x"\n', "zone", "claim", "turn", "hand", "of", "1", "..", ":", "{", "}",
                                 "(", ")", '"', "#", " ", "\n", "\x00", "\u202e", "ü", "🃏"]), max_size=30).map("".join))
def test_no_text_makes_a_feature_fail(text):
    """Diagnostics, names, completion, hover and definition answer any text, anywhere."""
    features.diagnostics(text)
    features.completions(text)
    for line, row in enumerate(text.split("\n")):
        for column in range(len(row) + 1):
            features.hover(text, line, column)
            features.definition(text, line, column)


# ------------------------------------------------------------------ the server over its protocol
class Session:
    """A pygls client talking to ``python -m rulekit.editor.server`` over pipes, on an
    event loop of its own; it keeps every publishDiagnostics it receives."""

    def __init__(self):
        from lsprotocol import types as lsp
        from pygls.lsp.client import LanguageClient

        self.lsp = lsp
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulekit-tests", "1")
        self.published: list = []

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def keep(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.append(params)

        self.run(self.client.start_io(sys.executable, "-m", "rulekit.editor.server"))
        self.run(self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities())))
        self.client.initialized(lsp.InitializedParams())

    def run(self, coroutine, timeout: float = 60):
        """The result of ``coroutine``, run on the session's loop."""
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, timeout))

    def diagnostics(self, uri: str, version: int) -> list:
        """The diagnostics published for ``uri`` at ``version`` (waiting for them)."""
        async def wait():
            while True:
                for params in self.published:
                    if (params.uri, params.version) == (uri, version):
                        return list(params.diagnostics)
                await asyncio.sleep(0.02)
        return self.run(wait())

    def open(self, uri: str, text: str, version: int = 1) -> None:
        item = self.lsp.TextDocumentItem(uri=uri, language_id="rulekit", version=version, text=text)
        self.client.text_document_did_open(self.lsp.DidOpenTextDocumentParams(text_document=item))

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(self.lsp.DidChangeTextDocumentParams(
            text_document=self.lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[self.lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def at(self, uri: str, line: int, character: int) -> dict:
        """The arguments of a request about a place."""
        return dict(text_document=self.lsp.TextDocumentIdentifier(uri=uri),
                    position=self.lsp.Position(line=line, character=character))

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()


@pytest.fixture(scope="module")
def session():
    pytest.importorskip("pygls")
    pytest.importorskip("lsprotocol")
    session = Session()
    yield session
    session.close()


def test_server_publishes_the_problems_then_none_once_fixed(session):
    """didOpen of a broken file publishes its error with range, message and hint; didChange
    to a valid text publishes an empty list."""
    uri = "file:///tmp/broken.rules"
    session.open(uri, BROKEN)
    (found,) = session.diagnostics(uri, 1)
    assert ((3, 2), (3, 6)) == ((found.range.start.line, found.range.start.character),
                                (found.range.end.line, found.range.end.character))
    assert (found.message.startswith("unexpected 'oops'"), found.severity, found.source) == (
        True, session.lsp.DiagnosticSeverity.Error, "rulekit")
    session.change(uri, SMALL, 2)
    assert [] == session.diagnostics(uri, 2)


def test_server_counts_columns_in_utf16(session):
    """A problem after a character beyond the BMP is placed in UTF-16 units, as LSP says."""
    uri = "file:///tmp/cards.rules"
    session.open(uri, 'game "🂡 wins" oops\n')
    (found,) = session.diagnostics(uri, 1)
    assert (0, 15, 19) == (found.range.start.line, found.range.start.character, found.range.end.character)


def test_server_completes_names_and_keywords(session):
    """Completion offers a declared zone and the keywords."""
    uri = "file:///tmp/complete.rules"
    session.open(uri, SMALL)
    result = session.run(session.client.text_document_completion_async(
        session.lsp.CompletionParams(**session.at(uri, 20, 0))))
    labels = {item.label: item.detail for item in result.items}
    assert ("zone", "keyword") == (labels["pot"], labels["shuffle"])


def test_server_hovers_a_keyword(session):
    """Hovering 'shuffle' shows what the reference says of it."""
    uri = "file:///tmp/hover.rules"
    session.open(uri, SMALL)
    line = SMALL.split("\n").index("  shuffle stock")
    result = session.run(session.client.text_document_hover_async(session.lsp.HoverParams(**session.at(uri, line, 3))))
    assert result.contents.value.startswith("**`shuffle`**")
    assert (line, 2, 9) == (result.range.start.line, result.range.start.character, result.range.end.character)


def test_server_goes_to_the_definition_of_a_procedure(session):
    """Definition of a procedure's name, where it is done, is its declaration."""
    uri = "file:///tmp/definition.rules"
    session.open(uri, SMALL)
    lines = SMALL.split("\n")
    use = lines.index("    do next_turn")
    (found,) = session.run(session.client.text_document_definition_async(
        session.lsp.DefinitionParams(**session.at(uri, use, 9))))
    assert (uri, lines.index("procedure next_turn {"), 10, 19) == (
        found.uri, found.range.start.line, found.range.start.character, found.range.end.character)


def test_server_survives_any_text_and_request(session):
    """Odd texts and places far outside the text are answered, and the server goes on."""
    uri = "file:///tmp/odd.rules"
    session.open(uri, "\x00{\"\u202e zone")
    assert session.diagnostics(uri, 1)
    for line, character in ((0, 0), (0, 99), (50, 3)):
        session.run(session.client.text_document_hover_async(session.lsp.HoverParams(**session.at(uri, line, character))))
        session.run(session.client.text_document_definition_async(
            session.lsp.DefinitionParams(**session.at(uri, line, character))))
    session.change(uri, SMALL, 2)
    assert [] == session.diagnostics(uri, 2)


def test_a_failing_handler_is_logged_and_answered_with_nothing():
    """A handler that raises answers its default and writes the failure to the client's log."""
    pytest.importorskip("pygls")
    from rulekit.editor import server

    class Client:
        told: list = []

        def window_log_message(self, params):
            self.told.append(params.message)

    def broken(ls, params):
        raise ValueError("no such place")

    assert [] == server._guarded(default=[])(broken)(Client(), None)
    assert ["rulekit-lsp: broken failed: ValueError('no such place')"] == Client.told
