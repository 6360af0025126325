"""The language, from text to syntax tree: ``syntax`` builds the parser once from the grammar
(``rulekit.grammars``) and turns every Lark error into a ``RulesError``, ``transform`` turns
the parse tree into the frozen ``model`` of a file (declarations with their source spans).
The only modules that import Lark."""
