"""Any ``.rules`` file as an OpenSpiel game (docs/rl.md).

>>> from rulekit.openspiel import load_game                  # doctest: +SKIP
>>> game = load_game("my_game.rules")                # a pyspiel.Game
>>> state = game.new_initial_state()

The game is a Python game registered with ``pyspiel.register_game`` under the short name
``rulekit_<stem>`` (the file's name without ``.rules``, lower case, other characters as
``_``; a second file of the same stem loaded in the same process gets ``_2``, ``_3`` …), so
OpenSpiel's C++ and Python algorithms, ``pyspiel.load_game("rulekit_my_game(players=2)")``
once registered, and state serialization all work. Its parameters: ``path`` (the file),
``players``, ``variants`` (names separated by commas), ``max_decisions`` and ``cache_size``.

What each part is (:mod:`rulekit.tree` does the work):

* chance nodes: every shuffle (dealt card by card from the top), die roll and random pick
  or seat with more than one outcome, with exact probabilities;
* actions: :class:`rulekit.encoding.ActionSpace` (fixed ids per game and player count);
* information-state and observation strings and tensors: OpenSpiel's observer API,
  :meth:`rulekit.tree.GameTree.information_state_string` and :mod:`rulekit.tensors`;
* returns: the file's ``returns`` (else +1 / -1), at the end of the match only;
* ``resample_from_infostate``: :meth:`rulekit.tree.GameTree.resample`, so that OpenSpiel's
  ``open_spiel.python.algorithms.ismcts`` runs on any game;
* votes are hidden sequential moves (a voter's information state shows who has voted, not
  how), windows are sequential moves as the engine asks them (clockwise, each seat seeing
  what the previous did).

Needs ``pip install "rulekit[openspiel]"`` (imported only here).
"""

from __future__ import annotations

import os
import random
import re

try:
    import numpy as np
    import pyspiel
except ImportError as exc:          # an optional extra: say how to install it
    raise ImportError(f"{__name__} needs {exc.name}: pip install \"rulekit[openspiel]\"") from exc

from .bounds import MAX_DECISIONS
from .tensors import Layout
from .tree import CACHE_SIZE, CHANCE, GameTree, default_players

_SHORT = {}          # absolute path -> short name registered for it
_ENGINES: dict = {}  # (path, size, mtime, variants) -> Engine
_TREES: dict = {}    # (engine, players, max_decisions, cache_size) -> (GameTree, utilities, Layout)
#: how many game trees are kept (the most recently made or asked for): a tree keeps up to
#: ``cache_size`` transitions, decisions, views and lines, so one per game ever loaded in a
#: process would grow without bound (a test suite or a sweep over variants loads dozens)
KEPT_TREES = 4


def short_name(path: str) -> str:
    """The short name a file's game is registered under (see the module's docstring)."""
    full = os.path.realpath(path)
    name = _SHORT.get(full)
    if name is None:
        stem = re.sub(r"[^a-z0-9_]", "_", os.path.splitext(os.path.basename(full))[0].lower()) or "game"
        name = f"rulekit_{stem}"
        taken = set(_SHORT.values())
        k = 2
        while name in taken:
            name = f"rulekit_{stem}_{k}"
            k += 1
        _SHORT[full] = name
    return name


def load_game(path: str, players: int | None = None, variants=(), **params) -> pyspiel.Game:
    """The OpenSpiel game of a ``.rules`` file for ``players`` seats (default: as ``rulekit
    run``, 4 or the nearest the file allows) with ``variants`` applied.

    Args:
        path: the ``.rules`` file.
        players: the number of seats.
        variants: names of the file's variants, applied in order.
        max_decisions: (keyword) a match still running after this many decisions is
            stopped and scores 0 for every seat (default 200,000; it is the game's
            ``max_game_length``).
        cache_size: (keyword) how many transitions and decisions the game tree keeps
            (default 100,000; 0: none; see :class:`rulekit.tree.GameTree`).

    Raises:
        OSError: the file cannot be read.
        RulesError: the file has problems, or its actions cannot be given ids.
        OptionError: an unknown variant, or a player count the game does not allow.
        TypeError: an unknown keyword parameter.
    """
    unknown = set(params) - {"max_decisions", "cache_size"}
    if unknown:
        raise TypeError(f"unknown parameter(s) {', '.join(sorted(unknown))}: load_game takes max_decisions "
                        "and cache_size")
    if isinstance(variants, str):
        variants = tuple(v for v in variants.split(",") if v)
    name = _register(path)
    values = {"path": os.path.realpath(path), "variants": ",".join(variants),
              "max_decisions": int(params.get("max_decisions", MAX_DECISIONS)),
              "cache_size": int(params.get("cache_size", CACHE_SIZE))}
    if players is not None:
        values["players"] = int(players)
    return pyspiel.load_game(name, values)


def _register(path: str) -> str:
    name = short_name(path)
    if name not in _REGISTERED:
        engine = _engine(os.path.realpath(path), ())
        low, high = engine.game.players
        game_type = _game_type(name, engine.game.title, low, high, os.path.realpath(path),
                               default_players(engine.game))
        pyspiel.register_game(game_type, RulekitGame)
        _REGISTERED.add(name)
    return name


_REGISTERED: set = set()


def _engine(path: str, variants: tuple):
    from . import load
    from .engine import Engine
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns, variants)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = Engine(load(path, variants=list(variants)))
    return engine


def _game_type(name, title, low, high, path, players, tree: GameTree | None = None, utility_sum=None):
    """The GameType of a game; with ``tree``, its flags are those of that game (player
    count and variants), else those a registration needs."""
    T = pyspiel.GameType
    chance = T.ChanceMode.EXPLICIT_STOCHASTIC if tree is None or tree.has_chance else T.ChanceMode.DETERMINISTIC
    information = (T.Information.IMPERFECT_INFORMATION if tree is None or tree.imperfect
                   else T.Information.PERFECT_INFORMATION)
    utility = T.Utility.ZERO_SUM if utility_sum == 0.0 else T.Utility.GENERAL_SUM
    return T(short_name=name, long_name=f"rulekit: {title}", dynamics=T.Dynamics.SEQUENTIAL,
             chance_mode=chance, information=information, utility=utility, reward_model=T.RewardModel.TERMINAL,
             max_num_players=high, min_num_players=low, provides_information_state_string=True,
             provides_information_state_tensor=True, provides_observation_string=True,
             provides_observation_tensor=True,
             parameter_specification={"path": path, "players": players, "variants": "",
                                      "max_decisions": MAX_DECISIONS, "cache_size": CACHE_SIZE})


class RulekitGame(pyspiel.Game):
    """A ``.rules`` file as a ``pyspiel.Game`` (made by :func:`load_game` or by
    ``pyspiel.load_game`` with the registered short name)."""

    def __init__(self, params=None):
        params = dict(params or {})
        path = params["path"]
        variants = tuple(v for v in str(params.get("variants", "")).split(",") if v)
        engine = _engine(path, variants)
        n = int(params.get("players", default_players(engine.game)))
        # a game is made again for every state OpenSpiel deserializes: its tree is kept
        key = (engine, n, int(params.get("max_decisions", MAX_DECISIONS)), int(params.get("cache_size", CACHE_SIZE)))
        made = _TREES.pop(key, None)
        if made is None:
            tree = GameTree(engine, n, key[2], key[3])
            made = (tree, tree.utilities(), Layout(tree))
            while len(_TREES) >= KEPT_TREES:
                del _TREES[next(iter(_TREES))]          # the least recently asked for
        _TREES[key] = made
        tree, (low, high, total), layout = made
        name = short_name(path)
        game_type = _game_type(name, engine.game.title, engine.game.players[0], engine.game.players[1], path,
                               default_players(engine.game), tree, total)
        info = pyspiel.GameInfo(num_distinct_actions=tree.space.size, max_chance_outcomes=tree.max_chance_outcomes,
                                num_players=n, min_utility=low, max_utility=high, utility_sum=total,
                                max_game_length=tree.max_decisions)
        super().__init__(game_type, info, params)
        self.tree = tree
        self.layout = layout
        self._state = type("RulekitState", (RulekitState,), {"_tree": tree})

    def new_initial_state(self):
        """The start of a match (its first node: the first chance event or decision)."""
        return self._state(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer: information states (``perfect_recall``) or observations of one
        seat (``private_info`` single player), or the public observation (none)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return RulekitObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def __reduce__(self):
        return pyspiel.load_game, (str(self),)


class RulekitState(pyspiel.State):
    """A node of a rulekit game (the class of each game is made by :class:`RulekitGame`,
    with its tree as ``_tree``)."""

    _tree: GameTree

    def __init__(self, game):
        super().__init__(game)
        self._node = self._tree.root()

    def current_player(self):
        return self._tree.player(self._node)

    def _legal_actions(self, player):
        return self._tree.legal(self._node)

    def chance_outcomes(self):
        return self._tree.chance_outcomes(self._node)

    def _apply_action(self, action):
        self._node = self._tree.apply(self._node, action)

    def _action_to_string(self, player, action):
        if player != CHANCE:
            return self._tree.space.text(action)
        if self._node.pending is None:
            return f"chance {action}"          # (an outcome of a chance node already left)
        return self._tree.action_text(self._node, action)

    def is_terminal(self):
        return self._tree.is_terminal(self._node)

    def returns(self):
        return self._tree.returns(self._node)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one (:meth:`GameTree.resample`),
        drawn with a generator seeded from ``probability_sampler()``."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        state = self.clone()
        state._node = self._tree.resample(self._node, player_id, rng)
        return state

    def __str__(self):
        return self._tree.describe(self._node)


class RulekitObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, game: RulekitGame, iig_obs_type):
        T = pyspiel.PrivateInfoType
        self.tree = game.tree
        self.layout = game.layout
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.private_info == T.NONE
        if iig_obs_type.private_info == T.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("rulekit observes one seat's information (private_info single player) or the public "
                             "information (none), with public information")
        if self.public and self.perfect_recall:
            raise ValueError("the public information state is not provided: use the public observation "
                             "(perfect_recall=False)")
        pieces = self.layout.information if self.perfect_recall else self.layout.observation
        size = self.layout.information_size if self.perfect_recall else self.layout.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        at = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + length].reshape(shape)
            at += length

    def set_from(self, state, player):
        self.tensor.fill(0)
        self.layout.fill(self.tensor, state._node, -1 if self.public else player, self.perfect_recall)

    def string_from(self, state, player):
        if self.public:
            return self.tree.observation_string(state._node, -1)
        if self.perfect_recall:
            return self.tree.information_state_string(state._node, player)
        return self.tree.observation_string(state._node, player)


def player_policy(game: RulekitGame, make_player, samples: int = 64):
    """A rulekit player's policy as an OpenSpiel ``policy.Policy``, for OpenSpiel's best
    response, NashConv and exploitability (docs/rl.md).

    At each information state the player is asked ``samples`` times, each time a new
    player ``make_player(k)`` for k = 0, 1, … (give it a generator seeded with k): its
    policy there is how often it took each action (each id, given the ids it chose before
    in the same action). It is an estimate for a player that draws at random, exact for
    one that does not. Asked once per information state, kept.

    Args:
        game: a game of :func:`load_game`.
        make_player: ``k -> player`` (``choose(view, decision) -> Action``), e.g.
            ``lambda k: GenericBot(engine, random.Random(k))``.
        samples: how many times each information state is asked.
    """
    from open_spiel.python import policy as os_policy
    tree = game.tree

    class _PlayerPolicy(os_policy.Policy):
        def __init__(self):
            super().__init__(game, list(range(game.num_players())))
            self._answers: dict = {}

        def action_probabilities(self, state, player_id=None):
            node = state._node
            start = node if node.partial is None else type(node)(node.state, None, None, node.trace,
                                                                 node.decisions)
            key = tree.information_state_string(start, tree.player(start))
            answers = self._answers.get(key)
            if answers is None:
                answers = self._answers[key] = [tree.choose(start, make_player(k)) for k in range(samples)]
            chosen = tree.chosen_ids(node)
            at = len(chosen)
            counts: dict = {}
            for ids in answers:
                if ids[:at] == chosen and len(ids) > at:
                    counts[ids[at]] = counts.get(ids[at], 0) + 1
            total = sum(counts.values())
            legal = state.legal_actions()
            if not total:                   # never reached by the player: uniform
                return {a: 1 / len(legal) for a in legal}
            return {a: counts.get(a, 0) / total for a in legal}

    return _PlayerPolicy()


__all__ = ["RulekitGame", "RulekitObserver", "RulekitState", "load_game", "player_policy", "short_name"]
