"""rulekit: bluffing card games written as plain text, played by one generic interpreter.

The small public API: ``load``/``loads`` read a game (and raise ``RulesError`` with every
problem of the file), ``Engine`` runs it, ``play_match`` plays a whole match with player
objects (``rulekit.players``); ``shipped_games()`` lists the games installed with rulekit
(name, title, players, variants and the path ``load`` reads: ``rulekit.catalog``). Run
from the top directory of the repository::

    import random

    from rulekit import Engine, load, play_match
    from rulekit.players import RandomBot

    game = load("docs/examples/coin_bluff.rules")      # any .rules file; variants=[NAME, …] applies variants
    engine = Engine(game)
    record = play_match(engine, [RandomBot(random.Random(i)) for i in range(4)], 4, seed=7)
    print(record.winners, record.steps)     # seat indices (P1 is 0), number of decisions
"""

# The names below are imported when first used (PEP 562), so that importing the package,
# or running `rulekit --help`, does not load the parser and the engine.
_EXPORTS = {
    "load": ".sema.load", "loads": ".sema.load",
    "Engine": ".engine", "Chance": ".engine", "ChanceEvent": ".engine", "Action": ".engine",
    "Decision": ".engine", "Event": ".engine", "Option": ".engine", "State": ".engine", "View": ".engine",
    "RulesError": ".errors", "IllegalAction": ".errors", "OptionError": ".errors",
    "play_match": ".play.match", "MatchRecord": ".play.match",
    "shipped_games": ".catalog", "ShippedGame": ".catalog",
}

__all__ = list(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    if name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rulekit' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
