"""The engine: compile a game, generate its module, then run it one decision at a time."""

from .chance import Chance, ChanceEvent
from .core import (DECLINE_ACTION, Action, Decision, Engine, Event, Option, State, View, count_multisets,
                   multisets)

__all__ = ["Chance", "ChanceEvent", "Action", "Decision", "Engine", "Event", "Option", "State", "View", "DECLINE_ACTION",
           "multisets", "count_multisets"]
