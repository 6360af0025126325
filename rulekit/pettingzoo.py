"""Any ``.rules`` file as a PettingZoo AEC environment (docs/rl.md).

>>> from rulekit.pettingzoo import env                     # doctest: +SKIP
>>> game = env("my_game.rules")
>>> game.reset(seed=7)
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     mask = observation["action_mask"]
...     game.step(None if terminated or truncated else int(mask.nonzero()[0][0]))

The agents are the seats ``"P1"`` … ``"Pn"``. Each observes a dict: ``"observation"``, its
information-state tensor (or its observation tensor with ``observation="observation"``:
:mod:`rulekit.tensors`), and ``"action_mask"``, 1 for each legal id of
:class:`rulekit.encoding.ActionSpace` when it is to act (all 0 otherwise). Chance is drawn
from the generator ``reset(seed=…)`` seeds; the same seed and the same actions give the
same match. An action that chooses several cards is a few steps of the same agent in a
row. Every agent is rewarded its return when the match ends (the file's ``returns``, else
+1 / -1) and is then terminated; a match still running after ``max_decisions`` decisions is
truncated, with a reward of 0.

Needs ``pip install "rulekit[pettingzoo]"``.
"""

from __future__ import annotations

import random

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:          # an optional extra: say how to install it
    raise ImportError(f"{__name__} needs {exc.name}: pip install \"rulekit[pettingzoo]\"") from exc

from .bounds import MAX_DECISIONS
from .engine.narrate import seat_name
from .tensors import Layout
from .tree import GameTree, default_players


def env(path: str, players: int | None = None, variants=(), max_decisions: int = MAX_DECISIONS,
        observation: str = "information", render_mode: str | None = None) -> "RulekitEnv":
    """The PettingZoo AEC environment of a ``.rules`` file.

    Args:
        path: the ``.rules`` file.
        players: the number of seats (default: as ``rulekit run``, 4 or the nearest the file allows).
        variants: names of the file's variants, applied in order.
        max_decisions: a match still running after this many decisions is truncated.
        observation: "information" (the information-state tensor) or "observation".
        render_mode: None, or "ansi" (``render()`` returns the whole table as text).

    Raises:
        OSError, RulesError, OptionError: as :func:`rulekit.load` and the player count.
        ValueError: an unknown ``observation`` or ``render_mode``.
    """
    from . import load
    from .engine import Engine
    engine = Engine(load(path, variants=list(variants)))
    n = default_players(engine.game) if players is None else players
    return RulekitEnv(GameTree(engine, n, max_decisions), observation, render_mode)


class RulekitEnv(AECEnv):
    """A game tree (:class:`rulekit.tree.GameTree`) as a PettingZoo AEC environment (see
    the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulekit", "is_parallelizable": False}

    def __init__(self, tree: GameTree, observation: str = "information", render_mode: str | None = None):
        super().__init__()
        if observation not in ("information", "observation"):
            raise ValueError(f"observation must be 'information' or 'observation', not {observation!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.tree = tree
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"rulekit_{tree.engine.game.title}")
        self.layout = Layout(tree)
        self._information = observation == "information"
        size = self.layout.information_size if self._information else self.layout.observation_size
        self.possible_agents = [seat_name(s) for s in range(tree.n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        actions = tree.space.size
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._size = size
        self._rng = random.Random()
        self.node = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new match; ``seed`` seeds its chance (None: a fresh seed)."""
        self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.node = self.tree.settle(self.tree.root(), self._rng)
        self._after_step()

    def observe(self, agent):
        seat = self._seat[agent]
        tensor = np.zeros(self._size, np.float32)
        self.layout.fill(tensor, self.node, seat, self._information)
        mask = np.zeros(self.tree.space.size, np.int8)
        if self.tree.player(self.node) == seat:
            mask[self.tree.legal(self.node)] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action) -> None:
        """The agent selected takes ``action`` (an id of its mask; None once it is done).

        Raises:
            ValueError: the action is not legal (the message lists the legal ids).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        from .errors import IllegalAction
        self._cumulative_rewards[agent] = 0.0
        try:
            node = self.tree.apply(self.node, int(action))
        except IllegalAction as exc:
            raise ValueError(f"{agent}: {exc}") from None
        self.node = self.tree.settle(node, self._rng)
        self._after_step()

    def _after_step(self) -> None:
        tree, node = self.tree, self.node
        if tree.is_terminal(node):
            returns = tree.returns(node)
            for agent in self.agents:
                self.rewards[agent] = returns[self._seat[agent]]
                if node.cut:
                    self.truncations[agent] = True
                else:
                    self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self.agent_selection = self.possible_agents[tree.player(node)]

    def render(self):
        """The whole table as text (``render_mode="ansi"``; it shows every hidden card)."""
        if self.render_mode is None:
            return None
        return self.tree.describe(self.node)

    def close(self) -> None:
        pass


__all__ = ["RulekitEnv", "env"]
