"""The ``rulekit`` command: run a match, check a file, simulate many matches.

``main`` (the click group, :mod:`rulekit.cli.main`) is the console script ``rulekit``;
the commands live in :mod:`rulekit.cli.play` (run, replay), :mod:`rulekit.cli.study`
(simulate, compare) and :mod:`rulekit.cli.main` (check, compile, explain), and what they
share in :mod:`rulekit.cli.common`.
"""

from .main import main

__all__ = ["main"]
