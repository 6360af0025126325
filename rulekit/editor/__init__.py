"""Editor support for ``.rules`` files: what an editor needs to know of the language.

* :mod:`.words`: the keywords, read from the grammar (never a hand-kept list);
* :mod:`.lexer`: a Pygments lexer (``pygmentize -l rules``), needs ``pygments``;
* :mod:`.features`: diagnostics, completion, hover and definition over a text, as plain
  values (no editor protocol);
* :mod:`.server`: the language server ``rulekit-lsp`` on top of them, needs ``pygls``.

``pip install "rulekit[editor]"`` installs Pygments and pygls; ``editors/`` in the source
tree holds a TextMate grammar and a VS Code extension (see ``editors/README.md``).
"""
