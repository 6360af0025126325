"""The names of the bots, as ``--bots`` and :func:`rulekit.players.make_bot` take them (a
module of its own, light to import: the command line checks names before loading a game).

* ``random``: uniformly random legal play, a baseline;
* ``generic``: the fast bot, for mass simulation;
* ``search`` or ``search:N``: information-set Monte Carlo tree search, N iterations a
  decision;
* ``solved``: a CFR+ equilibrium of a small two-seat game, solved once and cached;
* ``auto``: ``solved`` when the game can be solved, else the command's own choice
  (``search`` to play a match, ``generic`` to simulate many).
"""

from __future__ import annotations

#: the kinds of bot (``search:N`` gives the search bot a budget of N iterations)
BOTS = ("auto", "generic", "random", "search", "solved")


def bot_kind(text: str) -> tuple[str, int | None]:
    """(kind, budget) of a bot's name: ``"search:500"`` -> ("search", 500), ``"generic"``
    -> ("generic", None).

    Raises:
        ValueError: not a bot of :data:`BOTS`, or a budget that is not a whole number of
            at least 1 (only ``search`` takes one).
    """
    name, sep, budget = text.strip().lower().partition(":")
    if name not in BOTS:
        raise ValueError(f"{text!r} is not a bot (the bots are: {', '.join(BOTS)}; search:N for N iterations)")
    if not sep:
        return name, None
    if name != "search":
        raise ValueError(f"{text!r}: only search takes a budget (search:N, N iterations a decision)")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"{text!r}: the budget of search:N is a whole number of iterations, at least 1")
    return name, int(budget)
