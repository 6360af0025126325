"""Players: anything with ``choose(view, decision) -> Action``.

A player receives a :class:`~rulekit.engine.View` (what its seat may know) and a
:class:`~rulekit.engine.Decision` (its options); it never sees the state.
"""

from .base import Player, RandomBot
from .generic import GenericBot
from .human import HumanPlayer

__all__ = ["Player", "RandomBot", "GenericBot", "HumanPlayer"]
