"""Players: anything with ``choose(view, decision) -> Action``.

A player receives a :class:`~rulekit.engine.View` (what its seat may know) and a
:class:`~rulekit.engine.Decision` (its options); it never sees the state.
"""

from .base import Player, RandomBot
from .generic import GenericBot
from .human import HumanPlayer



def make_bot(kind: str, engine, seed: int | None, seat: int):
    """The bot ``kind`` ("random" or "generic") for seat ``seat`` (0 for P1) of the match of
    ``seed``, with the generator ``rulekit run`` gives that seat (:func:`rulekit.match.seat_rng`).

    Raises:
        ValueError: an unknown kind.
    """
    from ..match import seat_rng
    if kind == "random":
        return RandomBot(seat_rng(seed, seat))
    if kind == "generic":
        return GenericBot(engine, seat_rng(seed, seat))
    raise ValueError(f"{kind!r} is not a bot (the bots are: generic, random)")


__all__ = ["Player", "RandomBot", "GenericBot", "HumanPlayer", "make_bot"]
