"""Studying a game by playing it many times: ``simulation`` plays many bot matches (in
processes or on Ray) and computes their figures, ``stats`` holds the few formulas behind
them (intervals, tests), ``plot`` draws them (``rulekit simulate`` and ``compare``)."""
