"""A search bot for any game: information-set Monte Carlo tree search over the compiled rules.

At each decision the bot runs many *iterations*. Each draws a state consistent with its
view (:mod:`.determinize`: the cards it cannot see dealt at random into the hidden zones),
then plays on from it with the rules' own transitions and chance (``Engine.apply`` with the
bot's generator as the chance source) to the end of the match or to a cut-off, and credits
every seat's result to the choices made on the way.

* **Nodes are information sets.** A decision node is keyed by the view of the seat that
  acts there, as it would see the sampled state (:meth:`Engine.view`, without history): so a
  seat's choices in the tree depend only on what that seat could know, every seat keeps
  its own statistics, and one seat's node is shared by all the samples it cannot tell
  apart (its own nodes after another seat's move are shared across every sample; another
  seat's node is split by the hidden cards of that seat). This is the information-set MCTS
  of OpenSpiel's ``ismcts`` (a table keyed by the acting seat's information) and of
  multiple-observer ISMCTS where every move is seen, with views in place of histories:
  two histories leading to the same view share a node.
* **Selection** is UCB1 over the choices legal in the sample (a subset-armed bandit: a
  choice's exploration term counts the visits in which it was *available*, not the
  node's visits), on the acting seat's own result, scaled by the spread of results seen.
* **Candidates, progressive widening.** A node considers at most ``1 + widen·√visits``
  choices. At the root the first are the choices of a :class:`.generic.GenericBot` asked
  ``suggest`` times (honest claims, doubts of unlikely claims: among the subsets of a hand
  a random choice is seldom an honest claim); elsewhere the first is the play-out
  policy's choice. Then, when the node's choices are few (``SMALL`` concrete actions at
  most), every legal choice in a random order; when they are many (choices among sets of
  cards: every subset could be an action), random legal choices
  (:func:`.base.random_legal`), a new one whenever the node may grow. So a decision over
  the subsets of a hand is never enumerated.
* **Expansion and play-outs.** Each iteration adds one node (the first it meets that is
  not in the table) and plays on from there with the play-out policy: ``"random"``
  (:class:`.base.RandomBot`'s choice: an option uniformly, then a random legal choice of
  it; the default: in the benchmark as strong and about ten times faster; played on a
  working copy of the state changed in place, with the draws of the same play-out made
  state after state) or ``"generic"`` (:class:`.generic.GenericBot`). A node another seat keeps apart by its
  hidden cards is met rarely, so that seat mostly plays as the policy there. With
  ``opponents="policy"`` the other seats have no nodes at all: they play as the policy
  throughout (a model of the opponents instead of a search of their choices).
* **Values.** A finished match scores the file's ``returns`` for each seat
  (``Engine.returns``: +1 for a winner and -1 for the others without ``returns``). An
  iteration still running after ``horizon`` decisions is cut off and scored as if the
  match ended there: the seats still in, ranked by the file's ``winners`` keys
  (``Engine.standings``), the best of them tied; each tied seat is taken to win alone with
  equal chance (so two tied seats get the average of the results of either winning).
  Seats knocked out score as losers. The same score ends an iteration whose sample leads
  to a state the rules cannot leave (a sample is only a guess).
* **The choice** is the root's most visited candidate, unless the generic bot's own choice
  (the first suggestion) is another one and the search is not sure: the most visited
  candidate's mean result must beat the suggestion's by √(2 ln k) standard errors of the
  difference (k candidates with results, the spread of results pooled over them: about
  how far the best of k draws of pure noise leads). Where the results
  lie far from the decision (a match of many rounds, where one round's loss moves the
  final result little), the most visited of many candidates often leads by luck alone: a
  search that played it lost every match of two such shipped games against generic bots
  (docs/bots.md).
* **Samples** are :mod:`.determinize`'s: besides the cards, a counter the seat may not see
  reads as after the setup of a fresh match, and in a running vote each secret vote already
  cast is a random legal choice of its seat.

The sampled states are the bot's own: it never sees the state of the match. What it reads
is the view, the decision and the rules (the engine).
"""

from __future__ import annotations

import math
import random
import time

from ..engine import Action, Decision, Engine, State, View
from ..errors import RulesRuntimeError
from ..engine.core import count_multisets, option_reason
from ..errors import IllegalAction
from .base import random_legal, random_stepper, unchecked_choice
from .determinize import sampler

#: the default number of iterations per decision
ITERATIONS = 400
#: the cap on engine steps (decisions played, in the tree and in play-outs) per decision at the
#: default iterations (in proportion for others)
MAX_STEPS = 12_000
#: the default number of decisions an iteration plays before it is cut off
HORIZON = 80
#: a node whose options hold at most this many concrete choices lists them all
SMALL = 120


#: what a decision took, as ``SearchBot.last`` tells it: iterations run, engine steps
#: played, nodes made, iterations cut off at the horizon, iterations stopped because the
#: sample led where the rules could not go on, and the root's candidate choices
_NO_SEARCH = {"iterations": 0, "steps": 0, "nodes": 0, "cut": 0, "stuck": 0, "candidates": 0}


class _Node:
    """One information set of one seat: ``stats`` maps each candidate choice to [visits,
    sum of the seat's results, times it was available]; ``cands`` lists the candidates in
    the order they were added, ``pool`` the choices still to add (a small node) or None."""

    __slots__ = ("visits", "stats", "cands", "pool", "small")

    def __init__(self, small: bool):
        self.visits = 0
        self.stats: dict = {}
        self.cands: list = []
        self.pool: list | None = None
        self.small = small


def _concrete(options: tuple, cap: int) -> int:
    """How many concrete choices the options hold (each option's values multiplied, times
    its choices of cards), counted up to ``cap`` (more: ``cap + 1``)."""
    total = 0
    for o in options:
        count = 1
        for _, values in o.params:
            count *= len(values)
        if o.cards is not None and count:
            high = len(o.cards) if o.high is None else min(o.high, len(o.cards))
            count *= count_multisets(o.cards, o.low, high) if high >= o.low else 0
        total += count
        if total > cap:
            return cap + 1
    return total


def _only(options: tuple) -> Action | None:
    """The one concrete choice of ``options`` when they hold exactly one and it needs no
    check (an ``exact`` option), else None."""
    if len(options) != 1:
        return None
    o = options[0]
    if not o.exact or any(len(values) != 1 for _, values in o.params):
        return None
    if o.cards is None:
        return Action(o.name, (), tuple(values[0] for _, values in o.params))
    high = len(o.cards) if o.high is None else min(o.high, len(o.cards))
    if o.low == high == len(o.cards):
        return Action(o.name, tuple(sorted(o.cards)), tuple(values[0] for _, values in o.params))
    if high == o.low == 0:
        return Action(o.name, (), tuple(values[0] for _, values in o.params))
    if len(set(o.cards)) == 1 and high == o.low:
        return Action(o.name, (o.cards[0],) * o.low, tuple(values[0] for _, values in o.params))
    return None


class SearchBot:
    """Information-set Monte Carlo tree search (see the module docstring).

    Args:
        engine: the game's engine (the rules; the bot never sees a match's state).
        rng: the bot's generator: samples, chance in its look-ahead, play-outs and ties
            all draw from it, so that with ``iterations`` the same generator state gives
            the same choices.
        iterations: iterations per decision (each one sample played to the end of the
            match or to the cut-off); default ``ITERATIONS`` (400).
        think: seconds of search per decision instead of ``iterations`` and
            ``max_steps`` (at least one iteration is run); the number of iterations
            then depends on the machine's speed and load, so choices are NOT
            reproducible. None (the default): count iterations.
        max_steps: a cap on engine steps (decisions played in the tree and in
            play-outs) per decision, reached by whole iterations: the search stops
            after the iteration that reaches it. None (the default): ``MAX_STEPS``
            (12,000) for the default ``iterations``, in proportion for others (30
            steps an iteration); it keeps decisions in long matches within about a
            second at the default budget.
        horizon: decisions an iteration plays before it is cut off and scored as if
            the match ended there; default ``HORIZON`` (80).
        rollout: the play-out policy, ``"random"`` (the default) or ``"generic"``.
        suggest: how many times a GenericBot is asked for a choice at the root, each a
            first candidate (duplicates and choices the decision rejects left out;
            a failure of that bot costs the suggestions, not the decision).
        opponents: ``"search"`` (the default): every seat's choices are searched at
            its own nodes; ``"policy"``: the other seats play as the play-out policy.
        c: the exploration constant of UCB1, on results scaled to 0..1.
        widen: progressive widening: a node considers at most ``1 + widen·√visits``
            choices.

    Raises:
        ValueError: an unknown ``rollout`` or ``opponents``, or a negative budget.
    """

    uses_history = True     # its suggester (a GenericBot) reads the history; the search does not
    uses_texts = False      # it never reads option labels or value names

    def __init__(self, engine: Engine, rng: random.Random, iterations: int = ITERATIONS,
                 think: float | None = None, max_steps: int | None = None, horizon: int = HORIZON,
                 rollout: str = "random", c: float = 0.7, widen: float = 2.0, suggest: int = 3,
                 opponents: str = "search"):
        if rollout not in ("random", "generic"):
            raise ValueError(f"rollout must be 'random' or 'generic', not {rollout!r}")
        if opponents not in ("search", "policy"):
            raise ValueError(f"opponents must be 'search' or 'policy', not {opponents!r}")
        if max_steps is None:
            max_steps = MAX_STEPS * iterations // ITERATIONS
        if iterations < 0 or max_steps < 0 or horizon < 0 or (think is not None and think < 0):
            raise ValueError("iterations, think, max_steps and horizon must not be negative")
        self.engine = engine
        self.rng = rng
        self.iterations = iterations
        self.think = think
        self.max_steps = max_steps
        self.horizon = horizon
        self.rollout = rollout
        self.c = c
        self.widen = widen
        self._generic = None
        self._suggested = None          # the root's first suggestion in the running search
        self._squares: dict = {}        # the root's candidates' sums of squared results
        self.suggest = suggest
        self.opponents = opponents
        self._me = None
        #: what the last decision took (see ``_NO_SEARCH``)
        self.last: dict = {}

    # ------------------------------------------------------------------ the player protocol
    def choose(self, view: View, decision: Decision) -> Action:
        """The choice with the most visits after the search, unless the search is not sure
        it beats the generic bot's choice (see the module docstring).

        A decision with one concrete choice is answered at once, without search; after a
        rejected answer (``decision.rejected``) the bot answers as the other bots do
        (:func:`.base.unchecked_choice`)."""
        if decision.rejected is not None:
            return unchecked_choice(decision, self.rng)
        only = _only(decision.options)
        if only is not None:
            self.last = dict(_NO_SEARCH)
            return only
        if _concrete(decision.options, 1) <= 1:
            listed = decision.actions(2)
            if len(listed) == 1:
                self.last = dict(_NO_SEARCH)
                return listed[0]
        return self._search(view, decision)

    # ------------------------------------------------------------------ the search
    def _search(self, view: View, decision: Decision) -> Action:
        rng = self.rng
        draw = sampler(self.engine, view)
        self._me = view.seat
        self._table: dict = {}
        self._lo = math.inf
        self._hi = -math.inf
        root = _Node(_concrete(decision.options, SMALL) <= SMALL)
        self._squares = {}
        for _ in range(self.suggest):
            try:
                a = self._suggester().choose(view, decision)
            except Exception:       # noqa: BLE001 (a helper's failure costs a suggestion, not the match)
                break
            if isinstance(a, Action) and a not in root.stats and decision.is_legal(a):
                root.stats[a] = [0, 0.0, 0]
                root.cands.append(a)
        self._suggested = root.cands[0] if root.cands else None      # the generic bot's choice
        stats = dict(_NO_SEARCH)
        self._stats = stats
        deadline = None if self.think is None else time.perf_counter() + self.think
        while True:
            if deadline is None:
                if stats["iterations"] >= self.iterations or stats["steps"] >= self.max_steps:
                    break
            elif stats["iterations"] and time.perf_counter() >= deadline:
                break
            self._iterate(draw(rng), root)
            stats["iterations"] += 1
        stats["nodes"] = len(self._table) + 1
        stats["candidates"] = len(root.cands)
        self.last = stats
        choice = self._best(root, decision)
        self._table = {}
        return choice

    def _suggester(self):
        """The bot whose choices at the root are the first candidates (a GenericBot)."""
        if self._generic is None:
            from .generic import GenericBot
            self._generic = GenericBot(self.engine, self.rng)
        return self._generic

    def _best(self, root: _Node | None, decision: Decision) -> Action:
        """The root's most visited candidate that the decision allows (the higher mean
        breaks a tie), else a random legal choice."""
        ranked = []
        if root is not None:
            for i, a in enumerate(root.cands):
                visits, total, _ = root.stats[a]
                if visits:
                    ranked.append((-visits, -total / visits, i, a))
        ranked.sort(key=lambda r: r[:3])
        for *_, a in ranked:
            if decision.is_legal(a):
                return self._kept(root, a, decision)
        return random_legal(decision, self.rng)

    def _kept(self, root: _Node, best: Action, decision: Decision) -> Action:
        """``best``, unless the root's first suggestion (the generic bot's choice) is another
        choice and ``best``'s mean result does not beat the suggestion's by √(2 ln k)
        standard errors of the difference (k the candidates with results, the spread of
        results pooled over them): then the suggestion. Among many candidates the most
        visited one often leads by luck alone, where the results are far from the decision
        (a match of many rounds): the generic bot's choice is kept unless the search is sure."""
        first = self._suggested
        if first is None or first == best or not decision.is_legal(first):
            return best
        seen = sum(st[0] for st in root.stats.values())
        vb, tb, _ = root.stats[best]
        vf, tf, _ = root.stats[first]
        if vf == 0 or seen < 2:
            return first          # no results for the suggestion: it stands
        mean = sum(st[1] for st in root.stats.values()) / seen
        var = max(sum(self._squares.values()) / seen - mean * mean, 0.0) * seen / (seen - 1)
        # the largest of k draws of pure noise lies about sqrt(2 ln k) standard errors up
        sure = math.sqrt(2 * math.log(max(2, sum(1 for st in root.stats.values() if st[0]))))
        return best if tb / vb - tf / vf > sure * math.sqrt(var / vb + var / vf) else first

    def _iterate(self, state: State, root: _Node) -> None:
        """One iteration from the sampled ``state``: down the tree, one new node, a play-out,
        and every seat's result credited on the way back."""
        engine = self.engine
        rng = self.rng
        table = self._table
        stats = self._stats
        path = []
        node = root
        in_tree = True
        values = None
        for step in range(self.horizon):
            if state.phase < 0:
                values = engine.returns(state)
                break
            if not in_tree and self.rollout == "random":
                values, state = self._play_out(state, self.horizon - step)
                break
            try:
                seat, phase, options = engine.decide(state, False)
            except RulesRuntimeError:
                options = ()
            if not options:
                stats["stuck"] += 1
                break
            action = _only(options)
            if action is None:
                if in_tree and self.opponents == "policy" and seat != self._me:
                    action = self._policy(state, seat)
                elif in_tree:
                    if node is None:
                        key = engine.view(state, seat, (), False)
                        node = table.get(key)
                        if node is None:
                            node = table[key] = _Node(_concrete(options, SMALL) <= SMALL)
                            in_tree = False     # the new node chooses, then the play-out goes on
                    action = self._select(node, state, seat, options)
                    path.append((node, action, seat))
                    node = None
                else:
                    action = self._policy(state, seat)
            try:
                state = engine.apply(state, action, rng, False, False)[0]
            except (IllegalAction, RulesRuntimeError):
                stats["stuck"] += 1
                break
            stats["steps"] += 1
        else:
            if state.phase < 0:
                values = engine.returns(state)
            else:
                stats["cut"] += 1
        if values is None:
            values = self._estimate(state)
        lo, hi = min(values), max(values)
        if lo < self._lo:
            self._lo = lo
        if hi > self._hi:
            self._hi = hi
        for node, action, seat in path:
            st = node.stats[action]
            st[0] += 1
            st[1] += values[seat]
        if path and path[0][0] is root:         # the root chose first: its spread, for _kept
            _, action, seat = path[0]
            self._squares[action] = self._squares.get(action, 0.0) + values[seat] * values[seat]

    def _play_out(self, state: State, left: int) -> tuple:
        """The random play-out of an iteration from ``state``, at most ``left`` decisions:
        (every seat's result, or None when it was cut off or stuck; the state it reached).
        Played on a working copy in place (:func:`.base.random_stepper`): the draws of
        :meth:`_policy` and ``Engine.apply`` one for one, so the same play-out as one made
        state after state, without a :class:`State` or a :class:`Decision` a step, and
        tracking nothing of what the seats know (no view is made of it)."""
        engine, rng, stats = self.engine, self.rng, self._stats
        live = engine.working_copy(state, knowledge=False)
        decide, apply, snapshot = engine.decide, engine.applier(live, rng), engine.snapshot
        step = random_stepper(engine, live, rng)
        steps = 0
        try:
            for _ in range(left):
                before = snapshot(live)     # a step the rules cannot finish leaves the copy half done
                if before.phase < 0:
                    break
                try:
                    options = decide(before, False)[2]
                except RulesRuntimeError:
                    options = ()
                if not options:
                    stats["stuck"] += 1
                    return None, before
                try:
                    action = _only(options)
                    if action is None:
                        step(options)
                    else:
                        apply(action)
                except (IllegalAction, RulesRuntimeError):
                    stats["stuck"] += 1
                    return None, before
                steps += 1
        finally:
            stats["steps"] += steps
        now = snapshot(live)
        if now.phase < 0:
            return engine.returns(now), now
        stats["cut"] += 1
        return None, now

    def _estimate(self, state: State) -> tuple:
        """Each seat's result as if the match ended in ``state`` (see the module docstring)."""
        engine = self.engine
        n = state.n
        if state.phase < 0:
            return engine.returns(state)
        out = state.out or (0,) * n
        rows = engine.standings(state)
        alive = [r for r in rows if not out[r[0]]] or rows
        best = alive[0][1]
        tied = [seat for seat, keys in alive if keys == best]
        if engine.cg.returns is None:
            win = 2.0 / len(tied) - 1.0
            return tuple(win if s in tied else -1.0 for s in range(n))
        total = [0.0] * n
        for t in tied:
            for s, v in enumerate(engine.returns(state._replace(phase=-1, winners=(t,)))):
                total[s] += v
        return tuple(v / len(tied) for v in total)

    def _policy(self, state: State, seat: int) -> Action:
        """The play-out policy's choice in ``state`` for the deciding ``seat``."""
        decision = self.engine.decision(state, False)
        if self.rollout == "generic":
            return self._suggester().choose(self.engine.view(state, seat, (), False), decision)
        return random_legal(decision, self.rng)

    def _select(self, node: _Node, state: State, seat: int, options: tuple) -> Action:
        """UCB1 among the node's candidates legal in ``state``, after widening the node."""
        engine = self.engine
        node.visits += 1
        stats = node.stats
        cands = node.cands
        listed = legal = None
        if node.small:
            listed = engine.legal_actions(state)
            legal = set(listed)
        if len(cands) < 1 + self.widen * math.sqrt(node.visits):
            self._grow(node, state, seat, listed)
        if node.small:
            available = [a for a in cands if a in legal]
        else:
            by_name = {o.name: o for o in options}
            available = []
            for a in cands:
                o = by_name.get(a.name)
                if o is not None and (option_reason(o, a) is None if o.exact
                                      else engine.is_legal(state, a)):
                    available.append(a)
        if not available:
            action = self._policy(state, seat)
            if action not in stats:
                stats[action] = [0, 0.0, 0]
                cands.append(action)
            stats[action][2] += 1
            return action
        spread = self._hi - self._lo
        scale = 1.0 / spread if spread > 0 else 0.0
        lo = self._lo if spread > 0 else 0.0
        c = self.c
        best = None
        best_value = -math.inf
        log = math.log
        sqrt = math.sqrt
        for a in available:
            st = stats[a]
            st[2] += 1
            if best is not None and best_value == math.inf:
                continue
            visits = st[0]
            if visits == 0:
                best, best_value = a, math.inf
                continue
            value = (st[1] / visits - lo) * scale + c * sqrt(log(st[2]) / visits)
            if value > best_value:
                best, best_value = a, value
        return best

    def _grow(self, node: _Node, state: State, seat: int, listed: list | None) -> None:
        """Add one candidate to ``node``: the policy's choice first (unless the node has
        suggestions already), then the next of its listed choices (a small node, listed
        from the first sample that widens it) or a new random legal choice."""
        stats = node.stats
        cands = node.cands
        if not cands:
            first = self._policy(state, seat)
            stats[first] = [0, 0.0, 0]
            cands.append(first)
            return
        if node.small:
            pool = node.pool
            if pool is None:
                pool = node.pool = [a for a in listed if a not in stats]
                self.rng.shuffle(pool)
            while pool:
                a = pool.pop()
                if a not in stats:
                    stats[a] = [0, 0.0, 0]
                    cands.append(a)
                    return
            for a in listed:
                if a not in stats:
                    stats[a] = [0, 0.0, 0]
                    cands.append(a)
                    return
            return
        decision = self.engine.decision(state, False)
        for _ in range(4):
            a = random_legal(decision, self.rng)
            if a not in stats:
                stats[a] = [0, 0.0, 0]
                cands.append(a)
                return
