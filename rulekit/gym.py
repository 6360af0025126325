"""Any ``.rules`` file as a Gymnasium environment for one seat (docs/rl.md).

>>> from rulekit.gym import make                         # doctest: +SKIP
>>> env = make("my_game.rules", seat=1, opponents="random")
>>> observation, info = env.reset(seed=7)
>>> legal = info["action_mask"].nonzero()[0]

The agent plays seat ``seat`` (1 for P1); the other seats are played by ``opponents``. An
observation is the seat's information-state tensor (or its observation tensor:
:mod:`rulekit.tensors`); an action is an id of :class:`rulekit.encoding.ActionSpace`, legal
where ``info["action_mask"]`` (also ``env.action_masks()``) is 1. The reward is the seat's
return when the match ends (the file's ``returns``, else +1 / -1), 0 before. An id that is
not legal ends the episode (``terminated``) with the game's lowest return and
``info["illegal"]`` set: use the mask. A match still running after ``max_decisions``
decisions is truncated.

Opponents: the name of a bot as ``--bots`` takes it ("random", "generic", "search",
"search:N", "solved", "auto": :func:`rulekit.players.make_bot`, each seeded from
``reset(seed=…)`` as ``rulekit run`` seeds them), a list with one kind or player per other seat, or a player object
(``choose(view, decision) -> Action``) for every other seat.

Needs ``pip install "rulekit[pettingzoo]"`` (Gymnasium and NumPy).
"""

from __future__ import annotations

import random

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:          # an optional extra: say how to install it
    raise ImportError(f"{__name__} needs {exc.name}: pip install \"rulekit[pettingzoo]\"") from exc

from .bounds import MAX_DECISIONS
from .errors import IllegalAction, OptionError
from .tensors import Layout
from .tree import GameTree, default_players


def make(path: str, seat: int = 1, opponents="random", players: int | None = None, variants=(),
         max_decisions: int = MAX_DECISIONS, observation: str = "information") -> "RulekitSeatEnv":
    """The Gymnasium environment of one seat of a ``.rules`` file.

    Args:
        path: the ``.rules`` file.
        seat: the agent's seat, 1 for P1.
        opponents: who plays the other seats (see the module's docstring).
        players: the number of seats (default: as ``rulekit run``, 4 or the nearest the file allows).
        variants: names of the file's variants, applied in order.
        max_decisions: a match still running after this many decisions is truncated.
        observation: "information" (the information-state tensor) or "observation".

    Raises:
        OSError, RulesError: as :func:`rulekit.load`.
        OptionError: a player count, seat or opponent kind the game does not allow.
        ValueError: an unknown ``observation``.
    """
    from . import load
    from .engine import Engine
    engine = Engine(load(path, variants=list(variants)))
    n = default_players(engine.game) if players is None else players
    return RulekitSeatEnv(GameTree(engine, n, max_decisions), seat, opponents, observation)


class RulekitSeatEnv(gymnasium.Env):
    """One seat of a game tree as a Gymnasium environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, tree: GameTree, seat: int = 1, opponents="random", observation: str = "information",
                 render_mode: str | None = None):
        if not 1 <= seat <= tree.n:
            raise OptionError(f"seat must be between 1 and {tree.n}, not {seat}")
        if observation not in ("information", "observation"):
            raise ValueError(f"observation must be 'information' or 'observation', not {observation!r}")
        self.tree = tree
        self.seat = seat - 1
        self.render_mode = render_mode
        self.layout = Layout(tree)
        self._information = observation == "information"
        self._size = self.layout.information_size if self._information else self.layout.observation_size
        self.observation_space = spaces.Box(-np.inf, np.inf, (self._size,), np.float32)
        self.action_space = spaces.Discrete(tree.space.size)
        self._opponents = opponents
        self._lowest = min(-1.0, tree.utilities()[0])
        self.node = None
        self.players: list = []

    def _players(self, seed) -> list:
        """The opponents for a match of ``seed`` (None at the agent's seat)."""
        from .players import make_bot
        n = self.tree.n
        chosen = self._opponents
        if isinstance(chosen, (str, bytes)) or not isinstance(chosen, (list, tuple)):
            chosen = [chosen] * (n - 1)
        if len(chosen) != n - 1:
            raise OptionError(f"opponents: {n - 1} needed (one per other seat), not {len(chosen)}")
        out = []
        others = iter(chosen)
        for s in range(n):
            if s == self.seat:
                out.append(None)
                continue
            kind = next(others)
            if hasattr(kind, "choose"):
                out.append(kind)
            elif isinstance(kind, str):
                engine = self.tree.engine
                try:
                    out.append(make_bot(kind, engine, seed, s, source=engine.game.source,
                                        variants=engine.game.applied, players=n))
                except ValueError as exc:
                    raise OptionError(f"opponents: {exc}") from None
            else:
                raise OptionError(f"opponents: {kind!r} is not a bot's name (random, generic, search, solved, "
                                  f"auto) or a player")
        return out

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new match: its chance and the opponents' generators come from ``seed``."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2 ** 63))
        self._rng = random.Random(seed)
        self.players = self._players(seed)
        self.node = self._advance(self.tree.root())
        return self._observation(), self._info()

    def _advance(self, node):
        """Chance and the opponents' decisions, until the agent decides or the match ends."""
        tree = self.tree
        while True:
            node = tree.settle(node, self._rng)
            if tree.is_terminal(node):
                return node
            seat = tree.player(node)
            if seat == self.seat:
                return node
            node = tree.play(node, self.players[seat])

    def step(self, action):
        """The agent takes ``action`` (an id); the opponents and chance play on."""
        tree = self.tree
        try:
            node = tree.apply(self.node, int(action))
        except IllegalAction as exc:
            info = self._info()
            info["illegal"] = str(exc)
            return self._observation(), self._lowest, True, False, info
        self.node = node = self._advance(node)
        terminated = tree.is_terminal(node) and not node.cut
        truncated = bool(node.cut)
        reward = tree.returns(node)[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _observation(self):
        tensor = np.zeros(self._size, np.float32)
        self.layout.fill(tensor, self.node, self.seat, self._information)
        return tensor

    def action_masks(self):
        """1 for each legal id of the agent now (all 0 once the match is over)."""
        mask = np.zeros(self.tree.space.size, np.int8)
        if self.tree.player(self.node) == self.seat:
            mask[self.tree.legal(self.node)] = 1
        return mask

    def _info(self) -> dict:
        return {"action_mask": self.action_masks()}

    def render(self):
        """The whole table as text (``render_mode="ansi"``; it shows every hidden card)."""
        if self.render_mode == "ansi":
            return self.tree.describe(self.node)
        return None


__all__ = ["RulekitSeatEnv", "make"]
