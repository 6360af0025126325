"""``python -m rulekit.cli``: the command line, as ``rulekit``."""

from .main import main

main()
