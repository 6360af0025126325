"""rulekit: bluffing card games written as plain text, played by one generic interpreter.

The small public API::

    from rulekit import load, Engine, Action, play_match, RulesError

    game = load("games/some_game.rules", variants=["some_variant"])
    engine = Engine(game)
    record = play_match(engine, [RandomBot(random.Random(i)) for i in range(4)], 4, seed=7)
"""

from .check import load, loads
from .engine import Action, Chance, ChanceEvent, Decision, Engine, Event, Option, State, View
from .errors import IllegalAction, OptionError, RulesError
from .match import MatchRecord, play_match

__all__ = ["load", "loads", "Engine", "Chance", "ChanceEvent", "Action", "Decision", "Event", "Option", "State", "View",
           "RulesError", "IllegalAction", "OptionError", "play_match", "MatchRecord"]
__version__ = "0.1.0"
