"""Players: anything with ``choose(view, decision) -> Action``.

A player receives a :class:`~rulekit.engine.View` (what its seat may know) and a
:class:`~rulekit.engine.Decision` (its options); it never sees the state.

The bots, by the name ``--bots`` and :func:`make_bot` know them by:

* ``random`` (:class:`RandomBot`): uniformly random legal play, a baseline;
* ``generic`` (:class:`GenericBot`): the fast bot, for mass simulation;
* ``search`` or ``search:N`` (:class:`~rulekit.players.search.SearchBot`): information-set
  Monte Carlo tree search, ``N`` iterations a decision (default
  :data:`~rulekit.players.search.ITERATIONS`);
* ``solved`` (:class:`~rulekit.players.solved.SolvedBot`): a CFR+ equilibrium of a small
  two-seat game, solved once and cached on disk;
* ``auto``: ``solved`` when the game can be solved, else the command's own choice
  (``search`` to play a match, ``generic`` to simulate many): see :func:`resolve_lineup`.
"""

from ..bots import BOTS, bot_kind
from .base import Player, RandomBot, seat_rng
from .generic import GenericBot
from .human import HumanPlayer

def resolve_lineup(kinds, source, variants, n: int, otherwise: str = "search", engine=None) -> tuple:
    """The line-up ``kinds`` (one bot name per seat; ``human`` passes through) with
    ``auto`` made ``solved`` when the game of ``source`` (a path, or the rules text) at
    ``n`` seats with ``variants`` can be solved (:func:`rulekit.players.solved.solve`:
    the first time this may take a minute; the answer is cached), else ``otherwise``.

    Raises:
        ValueError: ``solved`` was asked for a game that cannot be solved (the message says
            why), or a name is not a bot.
    """
    names = [k if k == "human" else bot_kind(k)[0] for k in kinds]
    if "solved" not in names and "auto" not in names:
        return tuple(kinds)
    from ..errors import RulesRuntimeError
    from .solved import solve, why_unsolved
    try:
        policy = solve(source, tuple(variants), n, engine=engine)
        reason = None if policy is not None else why_unsolved(source, tuple(variants), n)
    except RulesRuntimeError as exc:     # the rules fail somewhere in the tree: the match will say where
        policy, reason = None, f"the rules fail on the way ({exc})"
    if policy is None and "solved" in names:
        raise ValueError(f"the solved bot cannot play this game: {reason}")
    return tuple(("solved" if policy is not None else otherwise) if k == "auto" else k for k in kinds)


def make_bot(kind: str, engine, seed: int | None, seat: int, *, source=None, variants=(), players: int | None = None,
             think: float | None = None):
    """The bot ``kind`` (a name of :data:`BOTS`, ``search:N`` included) for seat ``seat``
    (0 for P1) of the match of ``seed``, with the generator ``rulekit run`` gives that seat
    (:func:`rulekit.players.seat_rng`). ``solved`` and ``auto`` need the game's ``source``
    (a path or the rules text), ``variants`` and ``players`` (the number of seats); ``auto``
    is :func:`resolve_lineup`'s, with ``search`` when the game cannot be solved. ``think``:
    seconds a search bot searches each decision instead of its iterations (its play then
    depends on the machine's speed: not reproducible).

    Raises:
        ValueError: an unknown kind, a bad budget, or ``solved``/``auto`` without ``source``
            and ``players``, or ``solved`` for a game that cannot be solved.
    """
    return bot_maker(kind, engine, source=source, variants=variants, players=players, think=think)(seed, seat)


def bot_maker(kind: str, engine, *, source=None, variants=(), players: int | None = None,
              think: float | None = None):
    """What :func:`make_bot` does for one kind, with what does not depend on the match done
    once (the name read, ``auto`` resolved): a function of (seed, seat) giving the bot
    ``make_bot(kind, engine, seed, seat, ...)`` gives, for the many matches of a simulation.

    Raises:
        ValueError: as :func:`make_bot`, when made (a ``solved`` bot for a game that cannot
            be solved: when the function is called).
    """
    name, budget = bot_kind(kind)
    if name == "random":
        return lambda seed, seat: RandomBot(seat_rng(seed, seat))
    if name == "generic":
        return lambda seed, seat: GenericBot(engine, seat_rng(seed, seat))
    if name == "search":
        from .search import SearchBot
        if think is not None:
            return lambda seed, seat: SearchBot(engine, seat_rng(seed, seat), think=think)
        if budget is None:
            return lambda seed, seat: SearchBot(engine, seat_rng(seed, seat))
        return lambda seed, seat: SearchBot(engine, seat_rng(seed, seat), iterations=budget)
    if source is None or players is None:
        raise ValueError(f"the {name} bot needs the game's source and player count")
    if name == "auto":
        name = resolve_lineup(("auto",), source, variants, players, engine=engine)[0]
        return bot_maker(name, engine, source=source, variants=variants, players=players, think=think)
    from .solved import solved_bot

    def solved(seed, seat):
        bot = solved_bot(engine, seat_rng(seed, seat), source, tuple(variants), players)
        if bot is None:
            resolve_lineup(("solved",), source, variants, players, engine=engine)       # raises, saying why
        return bot
    return solved


__all__ = ["Player", "RandomBot", "GenericBot", "HumanPlayer", "BOTS", "bot_kind", "make_bot", "bot_maker", "seat_rng",
           "resolve_lineup"]
