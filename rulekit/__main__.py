"""``python -m rulekit``: the command line, as ``rulekit``."""

from .cli import main

main(prog_name="rulekit")
