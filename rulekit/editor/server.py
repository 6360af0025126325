"""``rulekit-lsp``: a language server for ``.rules`` files, over standard input and output.

It answers with :mod:`rulekit.editor.features`: the problems ``rulekit check`` finds (as
errors, on opening, changing and saving a file), completion of keywords and declared
names, hover texts for keywords (from docs/language.md) and declared names, and go to
definition of a declared name. Any failure while answering a request is logged (standard
error and the client's log) and answered with nothing: no text makes the server stop.

Needs pygls 2 (``pip install "rulekit[editor]"``); start it as ``rulekit-lsp`` or
``python -m rulekit.editor.server``. editors/README.md says how each editor starts it.
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys

try:
    from lsprotocol import types as lsp
    from pygls.lsp.server import LanguageServer
    from pygls.uris import to_fs_path
except ImportError as exc:      # an install without the extra
    raise ImportError('the rulekit language server needs pygls 2: pip install "rulekit[editor]"') from exc

from .. import __version__
from . import features
from .features import Declaration

log = logging.getLogger("rulekit.editor.server")

#: how the client shows each kind of completion
_COMPLETION_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "zone": lsp.CompletionItemKind.Variable,
    "counter": lsp.CompletionItemKind.Variable, "seat": lsp.CompletionItemKind.Variable,
    "group": lsp.CompletionItemKind.Variable, "claim": lsp.CompletionItemKind.Class,
    "procedure": lsp.CompletionItemKind.Function, "phase": lsp.CompletionItemKind.Event,
    "action": lsp.CompletionItemKind.Method, "table": lsp.CompletionItemKind.Constant,
    "names": lsp.CompletionItemKind.Constant, "die": lsp.CompletionItemKind.Constant,
    "card": lsp.CompletionItemKind.Constant, "symbols": lsp.CompletionItemKind.Enum,
    "symbol": lsp.CompletionItemKind.EnumMember, "variant": lsp.CompletionItemKind.Module,
}


class RulesServer(LanguageServer):
    """The pygls server, with the names of each document's last text that parsed (for
    completion while the text is broken)."""

    def __init__(self):
        super().__init__("rulekit-lsp", __version__)
        self.known: dict[str, list[Declaration]] = {}


server = RulesServer()


def _guarded(default=None):
    """Run a handler so that any exception is logged and answered with ``default``."""
    def wrap(handler):
        @functools.wraps(handler)
        def guarded(ls: RulesServer, params):
            try:
                return handler(ls, params)
            except Exception as exc:  # noqa: BLE001 - a request must never stop the server
                log.exception("%s failed", handler.__name__)
                _tell(ls, f"rulekit-lsp: {handler.__name__} failed: {exc!r}")
                return default
        return guarded
    return wrap


def _tell(ls: RulesServer, message: str) -> None:
    """Write ``message`` to the client's log, if it can be written."""
    try:
        ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=message))
    except Exception:  # noqa: BLE001 - no client to tell
        log.exception("cannot write to the client's log")


# ------------------------------------------------------------------ places
def _lines(ls: RulesServer, uri: str) -> tuple[str, list[str]]:
    """The text of a document and its lines, as the parser counts them (ended by ``\\n``)."""
    text = ls.workspace.get_text_document(uri).source
    return text, text.split("\n")


def _from_client(ls: RulesServer, lines: list[str], position: lsp.Position) -> tuple[int, int]:
    """A client's position (its code units, UTF-16 by default) as (line, character)."""
    if position.line >= len(lines):
        return position.line, 0
    codec, units, column = ls.workspace.position_codec, 0, 0
    for char in lines[position.line]:
        if units >= position.character:
            break
        units += codec.client_num_units(char)
        column += 1
    return position.line, column


def _to_client(ls: RulesServer, lines: list[str], line: int, column: int) -> lsp.Position:
    """(line, character) as a client's position."""
    text = lines[line] if 0 <= line < len(lines) else ""
    return lsp.Position(line=line, character=ls.workspace.position_codec.client_num_units(text[:column]))


def _range(ls: RulesServer, lines: list[str], line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
    return lsp.Range(start=_to_client(ls, lines, line, column), end=_to_client(ls, lines, end_line, end_column))


# ------------------------------------------------------------------ diagnostics
@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@_guarded()
def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    """A file was opened: check it."""
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@_guarded()
def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """A file was changed: check it again."""
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@_guarded()
def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    """A file was saved: check it again."""
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@_guarded()
def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """A file was closed: forget its names and clear its problems."""
    ls.known.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def _publish(ls: RulesServer, uri: str) -> None:
    """Send the client every problem of the document (none: an empty list), and keep its
    names if it parses."""
    text, lines = _lines(ls, uri)
    try:
        found = [_diagnostic(ls, lines, problem) for problem in features.diagnostics(text, _path(uri))]
    except Exception as exc:  # noqa: BLE001 - a fault of the checker, not of the text
        log.exception("checking %s failed", uri)
        found = [lsp.Diagnostic(range=_range(ls, lines, 0, 0, 0, 0), severity=lsp.DiagnosticSeverity.Warning,
                                source="rulekit", message=f"rulekit could not check this text: {exc!r}")]
    version = ls.workspace.get_text_document(uri).version
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version))
    names, parsed = features.declarations(text)
    if parsed:
        ls.known[uri] = names


def _path(uri: str) -> str:
    """The file a URI names, for messages (the URI itself if it names no file)."""
    try:
        return to_fs_path(uri) or uri
    except Exception:  # noqa: BLE001 - an odd URI
        return uri


def _diagnostic(ls: RulesServer, lines: list[str], problem: features.Diagnostic) -> lsp.Diagnostic:
    """A problem as an LSP error, its hint on a line of its own."""
    message = problem.message + (f"\nhint: {problem.hint}" if problem.hint else "")
    return lsp.Diagnostic(range=_range(ls, lines, problem.line, problem.column, problem.end_line, problem.end_column),
                          message=message, severity=lsp.DiagnosticSeverity.Error, source="rulekit")


# ------------------------------------------------------------------ completion, hover, definition
@server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
@_guarded(default=None)
def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """Every keyword and every declared name (the client filters by what is typed)."""
    text, _ = _lines(ls, params.text_document.uri)
    known = ls.known.get(params.text_document.uri, [])
    # the declared names first, then the keywords
    items = [lsp.CompletionItem(label=word, kind=_COMPLETION_KINDS.get(kind), detail=kind,
                                sort_text=("1" if kind == "keyword" else "0") + word)
             for word, kind in features.completions(text, known)]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@_guarded(default=None)
def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """What the reference says of the keyword under the cursor, or where a name is declared."""
    text, lines = _lines(ls, params.text_document.uri)
    line, column = _from_client(ls, lines, params.position)
    shown = features.hover(text, line, column)
    word = features.word_at(text, line, column)
    if shown is None or word is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=shown),
                     range=_range(ls, lines, line, word[1], line, word[2]))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@_guarded(default=None)
def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    """Where the name under the cursor is declared."""
    uri = params.text_document.uri
    text, lines = _lines(ls, uri)
    line, column = _from_client(ls, lines, params.position)
    return [lsp.Location(uri=uri, range=_range(ls, lines, d.line, d.column, d.line, d.end_column))
            for d in features.definition(text, line, column)] or None


def main(argv: list[str] | None = None) -> None:
    """Serve one client over standard input and output (``rulekit-lsp``)."""
    parser = argparse.ArgumentParser(prog="rulekit-lsp", description="The language server of .rules files, "
                                     "over standard input and output (started by an editor).")
    parser.add_argument("--version", action="version", version=f"rulekit-lsp {__version__}")
    parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="rulekit-lsp: %(levelname)s: %(message)s")
    server.start_io()


if __name__ == "__main__":
    main()
