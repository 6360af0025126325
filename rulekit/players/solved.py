"""A bot that plays a solved policy: for a small two-seat game, an approximate Nash
equilibrium found by CFR+ over the game's whole tree, kept in a disk cache.

How it is made (nothing here knows a game):

1. **Size.** The tree of :class:`rulekit.tree.GameTree` is first measured by Knuth's
   estimator (random paths from the root; each path's estimate is 1 + b1 + b1·b2 + …, b
   the branching along it; the paths' mean is an unbiased estimate of the number of
   nodes). A game estimated above half the node budget is given up at once; else the tree
   is enumerated, and given up as soon as it holds more nodes than the budget.
2. **Information sets** are what a player holds in a match: the view of the deciding seat
   (``Engine.view(state, seat, history, texts=False)``), the events of its public history
   (:meth:`GameTree.perceived`, the ``View.history`` a player with ``uses_history``
   receives) and, within an action chosen in several decisions, the ids chosen so far
   (:meth:`GameTree.chosen_ids`). The texts of events (an action's label, a claim's
   words, a log line) are left out: a match renders them only when something reads
   texts, so the same position must give the same key with or without them. The key of
   the start of an action is :func:`info_key`, 16 bytes.
3. **CFR+** (regret matching+, alternating updates, the average weighted by the iteration
   number) runs over the flattened tree with numpy, one depth level per call; it stops
   once the average policy's exploitability is at most ``target`` or after
   ``iterations``.
4. The average policy over ids becomes, for each information set at the start of an
   action, a distribution over complete :class:`~rulekit.engine.Action` s (the product of
   the probabilities of its decisions): the table :class:`SolvedBot` draws from.
5. **Cache.** The table, or the finding that the game is too big (or cannot be solved),
   is kept on disk under ``platformdirs.user_cache_dir("rulekit")/solved`` (or the
   directory named by the environment variable ``RULEKIT_CACHE``), keyed by the SHA-256 of
   the rules file's text, the variants, the player count, the solver's settings and
   :data:`FORMAT`; written atomically, and a file that cannot be read is ignored and made
   again. Solutions are also kept in memory for the process (:func:`clear_memo`).

>>> bot = solved_bot(engine, random.Random(1), "my_game.rules")  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import abc
import io
import json
import math
import os
import pickle
import random
import tempfile
import time
import warnings
from array import array
from dataclasses import dataclass
from typing import Mapping

import attrs
import numpy as np

from ..engine import Action, Engine, View
from ..engine.state import _freeze
from ..errors import RulesError
from ..tree import CHANCE, TERMINAL, GameTree

#: the version of the cache's files (a new one makes every cached solution obsolete)
FORMAT = 1
#: the environment variable that names the cache directory
CACHE_ENV = "RULEKIT_CACHE"

_VIEW_FIELDS = tuple(f.name for f in attrs.fields(View) if f.name not in ("history", "claim_text"))
_ZERO = bytes(16)
#: how many events' bytes an enumeration keeps (the events of the paths it is on)
_MEMO_EVENTS = 100_000


# ---------------------------------------------------------------------------- keys
def _default(value):
    """How :data:`_encode` writes what JSON has no form for: a set as its sorted members,
    another mapping as a dict, another sequence as a list, anything else as its ``repr``."""
    if isinstance(value, (set, frozenset)):
        return sorted(_dumps(v) for v in value)
    if isinstance(value, abc.Mapping):
        return dict(value)
    if isinstance(value, abc.Sequence):
        return list(value)
    return repr(value)


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=_default).encode


def _dumps(value) -> str:
    """``value`` as canonical text (dicts by sorted keys; lists and tuples alike)."""
    try:
        return _encode(value)
    except (TypeError, ValueError):          # keys JSON cannot sort: the frozen form's repr
        return repr(_freeze(value))


def _event_bytes(event) -> bytes:
    """An event of a history as canonical bytes, its text (if any) left out."""
    data = event.data
    if isinstance(data, dict) and data.get("text") is not None:
        data = dict(data)
        data["text"] = None
    return _dumps((event.kind, event.seat, data)).encode()


def _chain(digest: bytes, events, memo: dict | None = None) -> bytes:
    """The digest of a history: each event hashed into the digest of those before it.
    ``memo``: id(event) -> (event, its bytes), for events met again (a tree's nodes share
    the events of their common history)."""
    blake = hashlib.blake2b
    for e in events:
        if memo is None:
            data = _event_bytes(e)
        else:
            kept = memo.get(id(e))
            if kept is None or kept[0] is not e:
                if len(memo) >= _MEMO_EVENTS:
                    memo.clear()
                kept = memo[id(e)] = (e, _event_bytes(e))
            data = kept[1]
        digest = blake(digest + data, digest_size=16).digest()
    return digest


def _view_bytes(view: View) -> bytes:
    return _dumps(tuple(getattr(view, name) for name in _VIEW_FIELDS)).encode()


def _key(view_bytes: bytes, history_digest: bytes) -> bytes:
    return hashlib.blake2b(view_bytes + history_digest, digest_size=16).digest()


def info_key(view: View) -> bytes:
    """The key (16 bytes) of the information set of the seat of ``view`` at the start of an
    action: every field of the view but the claim's text, and the events of
    ``view.history`` without their texts (a view from a match for a player with
    ``uses_history``, or ``Engine.view(state, seat, GameTree.perceived(node, seat))``)."""
    return _key(_view_bytes(view), _chain(_ZERO, view.history))


# ---------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class SolverSettings:
    """What the solver does (every field is part of the cache's key).

    Attributes:
        budget: the most nodes (decisions, chance nodes and ends of matches) of a tree
            that is solved; a bigger game is given up.
        probes: random paths of the size estimate (Knuth's estimator).
        iterations: the most CFR+ iterations (one iteration updates both seats).
        target: CFR+ stops once the exploitability of the average policy (NashConv / 2,
            in the units of the game's returns) is at most this.
        check_every: iterations between two measures of the exploitability.
        seed: the seed of the size estimate's random paths.
    """

    budget: int = 2_000_000
    probes: int = 32
    iterations: int = 3000
    target: float = 0.001
    check_every: int = 25
    seed: int = 0

    def __post_init__(self):
        for name in ("budget", "probes", "iterations", "check_every"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        if not isinstance(self.target, (int, float)) or not self.target >= 0:
            raise ValueError(f"target must be a number >= 0, not {self.target!r}")


# ---------------------------------------------------------------------------- the policy
@dataclass(frozen=True)
class SolvedPolicy:
    """A solved policy of a game for ``players`` seats.

    Attributes:
        table: :func:`info_key` of an information set at the start of an action ->
            ((action, probability), …), the probabilities summing to 1, the actions in
            the order of their ids.
        players: the player count.
        nodes: the nodes of the tree (decisions, chance nodes, ends of matches).
        infosets: the information sets of the tree, those within an action included.
        iterations: the CFR+ iterations run.
        exploitability: the average policy's exploitability when CFR+ stopped, in the
            units of the game's returns: NashConv / 2, what a best response to the
            policy gains over the policy's own value, averaged over the two seats (0 at a
            Nash equilibrium).
        seconds: the time it took to estimate, enumerate and solve the tree, when it was
            made (a solution read from the cache keeps it).
    """

    table: Mapping[bytes, tuple]
    players: int
    nodes: int
    infosets: int
    iterations: int
    exploitability: float
    seconds: float

    def distribution(self, view: View) -> tuple | None:
        """((action, probability), …) for the seat of ``view`` (a view with its history), or
        None when its information set is not in the table."""
        return self.table.get(info_key(view))


class _Rejected:
    """A game that is not solved, and why (kept in the caches like a solution)."""

    def __init__(self, reason: str):
        self.reason = reason


# ---------------------------------------------------------------------------- size
#: a random path longer than this (nodes) makes a game too big to solve at once
PROBE_DEPTH = 10_000


def estimate_nodes(tree: GameTree, probes: int, rng: random.Random, cap: float = math.inf) -> float:
    """Knuth's estimate of the number of nodes of ``tree``: the mean over ``probes`` random
    paths (each choice uniform among the legal ids or chance outcomes) of 1 + b1 + b1·b2
    + …, the b the branching factors along the path. Stops early, giving ``inf``, once
    the estimate cannot stay at or below ``cap``, or a path is longer than
    :data:`PROBE_DEPTH` nodes (a match that may go on that long is no small game)."""
    total = 0.0
    bound = cap * probes
    draw = rng.random
    for _ in range(probes):
        node = tree.root()
        width = 1.0
        total += 1.0
        depth = 0
        while not tree.is_terminal(node):
            depth += 1
            if depth > PROBE_DEPTH:
                return math.inf
            legal = tree.legal(node)
            width *= len(legal)
            total += width
            if total > bound:
                return math.inf
            node = tree.apply(node, legal[int(draw() * len(legal))])
    return total / probes


# ---------------------------------------------------------------------------- enumeration
class _TooBig(Exception):
    pass


class _Unsolvable(Exception):
    pass


class _Flat:
    """The tree as arrays, nodes by depth (children of a node consecutive, in its ids'
    order): ``parent``, ``kind`` (seat 0 or 1, 2 chance, 3 end), ``slot`` (for a child of
    a decision: its (information set, id) slot, else -1), ``prob`` (for a child of a
    chance node: its probability), ``u`` (2 × nodes: the returns at the ends), and per
    information set its seat, first slot, size, own-decision count, key, legal ids and
    what each id completes."""


def _enumerate(tree: GameTree, budget: int) -> _Flat:
    """The flattened tree (raises :class:`_TooBig` past ``budget`` nodes, :class:`_Unsolvable`
    when one information set has different legal ids at two nodes)."""
    engine = tree.engine
    parent, kind, slot, depth = array("q"), array("b"), array("q"), array("q")
    prob, u0, u1 = array("d"), array("d"), array("d")
    infos = _InfoSets()
    memo: dict = {}                # see _chain
    # (node, parent, slot, probability, depth, (count, digest) per seat, start key, own decisions per seat)
    stack = [(tree.root(), -1, -1, 0.0, 0, ((0, _ZERO),) * tree.n, None, (0,) * tree.n)]
    count = 0
    while stack:
        node, up, edge, p, d, hist, start, own = stack.pop()
        i = count
        count += 1
        if count > budget:
            raise _TooBig(f"more than {budget:,} nodes")
        parent.append(up)
        slot.append(edge)
        prob.append(p)
        depth.append(d)
        who = tree.player(node)
        if who == TERMINAL:
            kind.append(3)
            r = tree.returns(node)
            u0.append(r[0])
            u1.append(r[1])
            continue
        u0.append(0.0)
        u1.append(0.0)
        if who == CHANCE:
            kind.append(2)
            for a, q in reversed(tree.chance_outcomes(node)):
                stack.append((tree.apply(node, a), i, -1, q, d + 1, hist, None, own))
            continue
        kind.append(who)
        if node.partial is None:
            seen, digest = hist[who]
            events = tree.perceived(node, who)
            digest = _chain(digest, events[seen:], memo)
            hist = hist[:who] + ((len(events), digest),) + hist[who + 1:]
            start = _key(_view_bytes(engine.view(node.state, who, (), texts=False)), digest)
            chosen = ()
        else:
            chosen = tree.chosen_ids(node)
        legal = tree.legal(node)
        children = [tree.apply(node, a) for a in legal]
        base = infos.offset[infos.index((start, chosen), who, legal, children, own[who])]
        own = own[:who] + (own[who] + 1,) + own[who + 1:]
        for k in range(len(legal) - 1, -1, -1):
            stack.append((children[k], i, base + k, 0.0, d + 1, hist, start, own))
    return _flatten(infos, parent, kind, slot, depth, prob, u0, u1)


class _InfoSets:
    """The information sets met while enumerating a tree, in the order met: per set its
    seat, first slot, size, own-decision count, legal ids and what each id completes."""

    def __init__(self) -> None:
        self.keys: dict = {}        # (start key, chosen ids) -> index
        self.seat: list = []
        self.offset: list = []
        self.size: list = []
        self.count: list = []
        self.legal: list = []
        self.done: list = []
        self.slots = 0

    def index(self, key: tuple, who: int, legal, children: list, own: int) -> int:
        """The index of the information set ``key`` of seat ``who``, added when new (its
        ids ``legal``, leading to ``children``; ``own``: the seat's decisions before it).

        Raises:
            _Unsolvable: the set was met before with other legal ids.
        """
        at = self.keys.get(key)
        if at is None:
            at = self.keys[key] = len(self.seat)
            self.seat.append(who)
            self.offset.append(self.slots)
            self.size.append(len(legal))
            self.count.append(own)
            self.legal.append(tuple(legal))
            self.done.append(tuple(_completed(child) for child in children))
            self.slots += len(legal)
        elif self.legal[at] != tuple(legal):
            raise _Unsolvable("a seat's legal actions depend on what it cannot see")
        return at


def _flatten(infos: _InfoSets, parent, kind, slot, depth, prob, u0, u1) -> _Flat:
    """The :class:`_Flat` of a tree enumerated depth first: its nodes' columns (arrays,
    in the order met) sorted by depth, stably, parents renumbered to match."""
    flat = _Flat()
    depths = np.frombuffer(depth, dtype=np.int64)
    order = np.argsort(depths, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    old_parent = np.frombuffer(parent, dtype=np.int64)[order]
    flat.parent = np.where(old_parent >= 0, rank[np.maximum(old_parent, 0)], -1)
    flat.kind = np.frombuffer(kind, dtype=np.int8)[order]
    flat.slot = np.frombuffer(slot, dtype=np.int64)[order]
    flat.prob = np.frombuffer(prob, dtype=np.float64)[order]
    flat.u = np.stack([np.frombuffer(u0, dtype=np.float64)[order], np.frombuffer(u1, dtype=np.float64)[order]])
    flat.depth = depths[order]
    flat.info_seat = np.array(infos.seat, dtype=np.int64)
    flat.info_offset = np.array(infos.offset, dtype=np.int64)
    flat.info_size = np.array(infos.size, dtype=np.int64)
    flat.info_count = np.array(infos.count, dtype=np.int64)
    flat.info_keys = list(infos.keys)
    flat.info_legal = infos.legal
    flat.info_done = infos.done
    flat.slots = infos.slots
    return flat


def _completed(child) -> Action | None:
    """The action a decision completed, from the node it led to (None: the action goes
    on, the seat still choosing)."""
    if child.partial is not None:
        return None
    if child.pending is not None:          # a chance node within the action's transition
        return child.pending[0]
    return child.trace.action


# ---------------------------------------------------------------------------- CFR+
class _Solver:
    """CFR+ over a :class:`_Flat` tree (see the module's docstring)."""

    def __init__(self, flat: _Flat):
        self.flat = flat
        n = len(flat.kind)
        self.n = n
        self.S = flat.slots
        parent = flat.parent
        ends = np.searchsorted(flat.depth, np.arange(flat.depth[-1] + 2))
        self.levels = []              # per depth below the root: (first, end, each node's parent,
                                      # the parents in order, where each one's children start)
        for d in range(1, len(ends) - 1):
            a, b = int(ends[d]), int(ends[d + 1])
            if a == b:
                continue
            ups, starts = np.unique(parent[a:b], return_index=True)
            self.levels.append((a, b, parent[a:b], ups, starts))
        owner = np.full(n, 3, dtype=np.int8)
        owner[1:] = flat.kind[parent[1:]]
        self.owner = owner
        self.chance_edges = np.nonzero(owner == 2)[0]
        self.decision_edges = np.nonzero(owner <= 1)[0]
        self.edges = []               # per seat: (children of its decisions, their parents, slots)
        for p in (0, 1):
            e = np.nonzero(owner == p)[0]
            self.edges.append((e, parent[e], flat.slot[e]))
        self.own = [owner == p for p in (0, 1)]
        self.slot_info = np.repeat(np.arange(len(flat.info_size)), flat.info_size)
        self.uniform = 1.0 / flat.info_size[self.slot_info]
        self.seat_slots = [flat.info_seat[self.slot_info] == p for p in (0, 1)]
        self.base = np.zeros(n)
        self.base[self.chance_edges] = flat.prob[self.chance_edges]
        self.regret = np.zeros(self.S)
        self.average = np.zeros(self.S)
        self.sigma = self.uniform.copy()
        self.arange = np.arange(self.S)

    # -- passes
    def _factors(self, policy):
        f = self.base.copy()
        e = self.decision_edges
        f[e] = policy[self.flat.slot[e]]
        return f

    def _reach(self, f, p: int, own: bool):
        """Per node: the product of the factors of the edges not of seat ``p`` (and, with
        ``own``, of those of ``p``)."""
        mask = self.own[p]
        other = np.where(mask, 1.0, f)
        r = np.empty(self.n)
        r[0] = 1.0
        mine = None
        if own:
            g = np.where(mask, f, 1.0)
            mine = np.empty(self.n)
            mine[0] = 1.0
        for a, b, up, _, _ in self.levels:
            r[a:b] = r[up] * other[a:b]
            if own:
                mine[a:b] = mine[up] * g[a:b]
        return r, mine

    def _values(self, f, p: int):
        v = self.flat.u[p].copy()
        for a, b, _, parents, starts in reversed(self.levels):
            v[parents] = np.add.reduceat(f[a:b] * v[a:b], starts)
        return v

    def _matched(self, regret):
        total = np.add.reduceat(regret, self.flat.info_offset)[self.slot_info]
        return np.where(total > 0, regret / np.where(total > 0, total, 1.0), self.uniform)

    # -- iterations
    def iterate(self, t: int) -> None:
        """One CFR+ iteration (seat 0, then seat 1 against seat 0's new policy)."""
        for p in (0, 1):
            f = self._factors(self.sigma)
            reach, mine = self._reach(f, p, True)
            v = self._values(f, p)
            e, up, sl = self.edges[p]
            self.regret += np.bincount(sl, weights=reach[up] * (v[e] - v[up]), minlength=self.S)
            np.maximum(self.regret, 0.0, out=self.regret)
            self.average += t * np.bincount(sl, weights=mine[up] * f[e], minlength=self.S)
            self.sigma = self._matched(self.regret)

    def policy(self):
        """The average policy per slot (uniform in an information set never reached)."""
        return self._matched(self.average)

    def exploitability(self, policy) -> float:
        """NashConv / 2 of ``policy`` (exact under perfect recall; else a lower bound)."""
        f = self._factors(policy)
        gain = 0.0
        for p in (0, 1):
            gain += self._best(policy, f, p) - self._values(f, p)[0]
        return gain / 2

    def _best(self, policy, f, p: int) -> float:
        """The value of a best response of seat ``p`` to ``policy``: decided from the
        information sets with most own decisions before them upwards, one pass each."""
        flat = self.flat
        reach, _ = self._reach(f, p, False)
        e, up, sl = self.edges[p]
        mine = self.seat_slots[p]
        counts = flat.info_count[flat.info_seat == p]
        passes = int(counts.max()) + 1 if len(counts) else 0
        best = policy.copy()
        f = f.copy()
        for _ in range(passes):
            f[e] = best[sl]
            v = self._values(f, p)
            q = np.bincount(sl, weights=reach[up] * v[e], minlength=self.S)
            top = np.maximum.reduceat(q, flat.info_offset)[self.slot_info]
            first = np.minimum.reduceat(np.where(q >= top, self.arange, self.S), flat.info_offset)
            best[mine] = 0.0
            chosen = first[flat.info_seat == p]
            best[chosen] = 1.0
        f[e] = best[sl]
        return float(self._values(f, p)[0])


def _table(flat: _Flat, policy) -> dict:
    """The distributions over complete actions at the start of each action."""
    index = {key: i for i, key in enumerate(flat.info_keys)}
    table = {}

    def walk(start, chosen, mass, out):
        at = index.get((start, chosen))
        if at is None:                       # (an action cut off by max_decisions)
            return
        off = flat.info_offset[at]
        for k, (a, done) in enumerate(zip(flat.info_legal[at], flat.info_done[at])):
            q = mass * float(policy[off + k])
            if q <= 0.0:
                continue
            if done is not None:
                out.append((done, q))
            else:
                walk(start, chosen + (a,), q, out)

    for start, chosen in flat.info_keys:
        if chosen:
            continue
        out: list = []
        walk(start, (), 1.0, out)
        total = sum(q for _, q in out)
        if total > 0:
            table[start] = tuple((a, q / total) for a, q in out)
    return table


def _solve_tree(tree: GameTree, settings: SolverSettings):
    """A :class:`SolvedPolicy` of ``tree``, or a :class:`_Rejected`."""
    began = time.perf_counter()
    rng = random.Random(settings.seed)
    estimate = estimate_nodes(tree, settings.probes, rng, settings.budget / 2)
    if estimate > settings.budget / 2:
        return _Rejected(f"too big: about {estimate:,.0f} nodes by estimate, more than half the budget of "
                         f"{settings.budget:,}" if estimate < math.inf
                         else f"too big: far more than {settings.budget:,} nodes by estimate")
    try:
        flat = _enumerate(tree, settings.budget)
    except _TooBig as exc:
        return _Rejected(f"too big: {exc}")
    except _Unsolvable as exc:
        return _Rejected(str(exc))
    if not flat.slots:                   # nobody ever decides: nothing to solve
        return SolvedPolicy({}, tree.n, len(flat.kind), 0, 0, 0.0, time.perf_counter() - began)
    solver = _Solver(flat)
    done = 0
    exploit = math.inf
    while done < settings.iterations:
        step = min(settings.check_every, settings.iterations - done)
        for _ in range(step):
            done += 1
            solver.iterate(done)
        exploit = solver.exploitability(solver.policy())
        if exploit <= settings.target:
            break
    policy = solver.policy()
    return SolvedPolicy(_table(flat, policy), tree.n, len(flat.kind), len(flat.info_keys), done, float(exploit),
                        time.perf_counter() - began)


# ---------------------------------------------------------------------------- the cache
def cache_dir() -> str:
    """The directory of cached solutions: ``$RULEKIT_CACHE`` when set, else
    ``platformdirs.user_cache_dir("rulekit")/solved``."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return named
    try:
        import platformdirs
    except ImportError:         # (a dependency; without it, the usual place on Linux)
        root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(root, "rulekit", "solved")
    return os.path.join(platformdirs.user_cache_dir("rulekit"), "solved")


def cache_key(text: str, variants, n: int, settings: SolverSettings) -> str:
    """The key (64 hex digits) of a solution: the SHA-256 of a record of the rules text's
    SHA-256, the variants (in order), the player count, the settings and :data:`FORMAT`."""
    record = {"format": FORMAT, "rules": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
              "variants": list(variants), "players": n, "settings": dataclasses.asdict(settings)}
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


class _PlainUnpickler(pickle.Unpickler):
    """Reads plain data only (tuples, lists, dicts, numbers, strings, bytes)."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")


def _read(key: str):
    path = os.path.join(cache_dir(), key + ".pickle")
    try:
        with open(path, "rb") as fh:
            data = _PlainUnpickler(io.BytesIO(fh.read())).load()
        if data["format"] != FORMAT or data["key"] != key:
            return None
        if data["status"] != "solved":
            return _Rejected(str(data["reason"]))
        table = {k: tuple((Action(name, tuple(cards), tuple(params)), float(q)) for (name, cards, params), q in dist)
                 for k, dist in data["table"].items()}
        s = data["stats"]
        return SolvedPolicy(table, int(s["players"]), int(s["nodes"]), int(s["infosets"]), int(s["iterations"]),
                            float(s["exploitability"]), float(s["seconds"]))
    except Exception:        # noqa: BLE001 (missing, unreadable or corrupt: made again)
        return None


def _write(key: str, made) -> None:
    data = {"format": FORMAT, "key": key}
    if isinstance(made, _Rejected):
        data.update(status="rejected", reason=made.reason)
    else:
        data.update(status="solved",
                    table={k: tuple(((a.name, tuple(a.cards), tuple(a.params)), q) for a, q in dist)
                           for k, dist in made.table.items()},
                    stats={"players": made.players, "nodes": made.nodes, "infosets": made.infosets,
                           "iterations": made.iterations, "exploitability": made.exploitability,
                           "seconds": made.seconds})
    folder = cache_dir()
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".pickle", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, os.path.join(folder, key + ".pickle"))
        tmp = None
    except (OSError, pickle.PicklingError, TypeError, ValueError):
        pass                    # a cache that cannot be written: solved again next time
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


_MEMO: dict = {}        # cache key -> SolvedPolicy or _Rejected, for this process


def clear_memo() -> None:
    """Forget the solutions kept in memory (the disk cache stays)."""
    _MEMO.clear()


# ---------------------------------------------------------------------------- solving
def _source(source) -> tuple[str, str]:
    """(text, path) of a rules file given as a path or as its text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source):
        path = os.fspath(source)
        from ..sema.load import _read as read_rules
        return read_rules(path), path
    if isinstance(source, str):
        return source, "<rules>"
    raise TypeError(f"a rules file is given as a path or its text, not {type(source).__name__}")


def _variants(variants) -> tuple:
    if isinstance(variants, str):
        return tuple(v for v in variants.split(",") if v)
    return tuple(variants)


def solve(source, variants=(), n: int = 2, *, engine: Engine | None = None,
          settings: SolverSettings = SolverSettings(), cache: bool = True) -> SolvedPolicy | None:
    """The solved policy of a game for ``n`` seats, from the cache or made (see the
    module's docstring), or None when the game is not solved: not for two seats, bigger
    than ``settings.budget`` nodes, or a seat's legal actions depend on what it cannot see
    (the answer is cached too).

    Args:
        source: the ``.rules`` file: a path (a ``str`` without a newline, or a path
            object) or its text (a ``str`` with newlines).
        variants: names of the file's variants, applied in order (or one string,
            separated by commas).
        n: the player count.
        engine: the game's engine, when the caller has one (it must be that of
            ``source`` and ``variants``); else it is made from them.
        settings: the solver's settings.
        cache: read and write the disk cache (and the memory of this process).

    Raises:
        OSError: the file cannot be read.
        RulesError: the file has problems (or is not UTF-8).
        OptionError: an unknown variant, or ``n`` does not fit the game.
        RulesRuntimeError: the rules reach a state they do not say how to leave.
        TypeError: ``source`` is neither a path nor a text.
    """
    text, path = _source(source)
    variants = _variants(variants)
    key = cache_key(text, variants, n, settings)
    made = _MEMO.get(key) if cache else None
    if made is None and cache:
        made = _read(key)
    if made is None:
        made = _make(text, path, variants, n, engine, settings)
        if cache:
            _write(key, made)
    if cache:
        _MEMO[key] = made
    return made if isinstance(made, SolvedPolicy) else None


def why_unsolved(source, variants=(), n: int = 2, *, settings: SolverSettings = SolverSettings()) -> str | None:
    """Why :func:`solve` gave None for the same arguments (after it was called with the
    cache on), or None when it gave a policy or was not asked yet."""
    text, _ = _source(source)
    made = _MEMO.get(cache_key(text, _variants(variants), n, settings))
    return made.reason if isinstance(made, _Rejected) else None


def _make(text: str, path: str, variants: tuple, n: int, engine: Engine | None, settings: SolverSettings):
    if engine is None:
        from ..sema.load import loads
        engine = Engine(loads(text, path, variants))
    low, high = engine.game.players
    if not low <= n <= high:
        from ..errors import OptionError
        raise OptionError(f"players must be between {low} and {high} for {engine.game.title}, not {n}")
    if n != 2:
        return _Rejected(f"only two-seat games are solved, not {n} seats")
    try:
        tree = GameTree(engine, n, max_decisions=settings.budget)
    except RulesError as exc:
        return _Rejected(f"its actions cannot be given ids: {exc}")
    return _solve_tree(tree, settings)


# ---------------------------------------------------------------------------- the bot
class SolvedBot:
    """Plays a :class:`SolvedPolicy`: at each decision it draws an action from the
    distribution of its information set (:func:`info_key` of its view) with its
    generator; when the information set is not in the table (another player count, an
    answer the match rejected) it asks ``fallback`` (counted in ``misses``)."""

    uses_history = True
    uses_texts = False

    def __init__(self, policy: SolvedPolicy, rng: random.Random, fallback):
        self.policy = policy
        self.rng = rng
        self.fallback = fallback
        self.misses = 0
        self.warned = False         # warned once of views without their history

    def choose(self, view: View, decision) -> Action:
        dist = None
        if view is not None and decision.rejected is None:
            if not view.history and not self.warned:
                # a match's history begins with the deal: none at all is a view made without it
                self.warned = True
                warnings.warn("SolvedBot was given a view without its history, so it cannot find its "
                              "information sets and plays its fallback: a player that wraps it must "
                              "declare uses_history = True (see docs/bots.md)", RuntimeWarning, stacklevel=2)
            dist = self.policy.table.get(info_key(view))
        if not dist:
            self.misses += 1
            return self.fallback.choose(view, decision)
        r = self.rng.random()
        for action, q in dist:
            r -= q
            if r < 0:
                return action
        return dist[-1][0]


def solved_bot(engine: Engine, rng: random.Random, source, variants=(), n: int = 2, fallback=None,
               settings: SolverSettings = SolverSettings()) -> SolvedBot | None:
    """A :class:`SolvedBot` for a seat of a match of ``n`` seats of ``engine`` (the game
    of ``source`` with ``variants``; see :func:`solve`), or None when the game is not
    solved. ``fallback`` (default ``GenericBot(engine, rng)``) answers where the table
    has no answer.

    Raises:
        as :func:`solve`.
    """
    policy = solve(source, variants, n, engine=engine, settings=settings)
    if policy is None:
        return None
    if fallback is None:
        from .generic import GenericBot
        fallback = GenericBot(engine, rng)
    return SolvedBot(policy, rng, fallback)


__all__ = ["CACHE_ENV", "FORMAT", "SolvedBot", "SolvedPolicy", "SolverSettings", "cache_dir", "cache_key",
           "clear_memo", "estimate_nodes", "info_key", "solve", "solved_bot", "why_unsolved"]
