"""Checks over the model: ``check`` applies the chosen variants and collects every problem
of a file at once (names resolved by compiling the game), ``load`` is the way from a
``.rules`` text to a checked game (``rulekit.load`` and ``loads``, ``rulekit check``)."""
