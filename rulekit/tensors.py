"""Observation and information-state tensors of a fixed shape for any game (docs/rl.md,
"Tensors").

Both are made from what one seat may know and nothing else: its :class:`~rulekit.View`,
the action it is choosing, and (for the information state) the public part of the last
decisions of the match. Every piece has a name and a shape, so that a learner may read
them apart (OpenSpiel's ``observation.dict``); the flat tensor is the pieces in order.

Pieces of an observation, for ``n`` seats, ``K`` card kinds and ``Z`` zone instances:

==================  =========  ==================================================================
piece               shape      holds
==================  =========  ==================================================================
``seat``            n          1 at the observing seat
``phase``           phases+1   1 at the phase now (the last: the match is over)
``decider``         n          1 at the seat to decide
``cards``           Z × K      the cards of each zone the seat sees, counted by kind
``counts``          Z          how many cards each zone holds, where that is shown (else 0)
``count_shown``     Z          1 where the number of cards is shown
``known``           Z × K      the cards the seat knows to be in a zone it cannot see
``counters``        C          each counter's value (a value it may not see reads 0)
``counter_shown``   C          1 where the seat sees the counter
``seats``           S × n      1 at the seat each seat name (current, actor, …) stands for
``claim``           claims+1   1 at the standing claim (the last: none)
``claim_values``    V          the standing claim's values
``claimant``        n          1 at the claimant
``claimed``         1          how many cards the claim covers
``out``             n          1 for each seat knocked out
``poll``            n          1 for each seat still to be asked in a window or vote
``voted``           n          1 for each seat that voted in the running vote
``groups``          G × n      1 for each member of each group
``deal``            1          the number of the deal
``choosing``        heads+1    the action the seat is choosing in several decisions (the last: none)
``chosen_cards``    K          the cards it has chosen so far, by kind
``chosen_values``   P          the values it has chosen so far
==================  =========  ==================================================================

An information state adds ``history`` (T × (n + names + 2 + P)): for each of the last T
decisions of the match, oldest first, the seat that decided, which action it took (the
last name: a secret vote), how many cards it chose and the values its action's label shows
(those are public at the table; a vote's are not). A value is its number: a seat its
index, a group the sum of 2**seat of its seats, a place its first place.
"""

from __future__ import annotations

from .engine.compile import DECLINE
from .tree import _same_head
from .lang import model as m

#: how many of the last decisions an information-state tensor holds
HISTORY = 32


class Layout:
    """The pieces of the tensors of one game tree (see the module's docstring).

    Attributes:
        observation: ((name, shape), …) of an observation tensor; ``observation_size`` its length.
        information: the same for an information-state tensor; ``information_size``.
    """

    def __init__(self, tree, history: int = HISTORY):
        engine, n, space = tree.engine, tree.n, tree.space
        cg = engine.cg
        self.tree = tree
        self.n = n
        self.history = history
        K, Z = len(engine.kinds), cg.zone_count(n)
        self.phases = {p.name: i for i, p in enumerate(cg.phase_list)}
        self.claims = {c.name: i for i, c in enumerate(cg.claim_list)}
        self.claim_width = max((len(c.params) for c in cg.claim_list), default=0)
        self.counter_width = sum(n if c.per_player else 1 for c in engine.game.counters)
        self.seat_names = len(cg.seat_names)
        self.groups = len(engine.game.groups)
        self.heads = {h: i for i, h in enumerate(space.heads)}
        self.values = max((len(h.params) for h in space.heads), default=0)
        names = sorted({h.name for h in space.heads} | ({DECLINE} if space.decline >= 0 else set()))
        self.names = {name: i for i, name in enumerate(names)}
        self.vote_phases = {p.index for p in cg.phase_list if p.kind == "vote"}
        # which values each action's label shows (an action without a label shows none)
        decls = {(p.name, a.name): a for p in engine.game.phases for a in p.actions}
        self.shown: dict = {}
        for phase in cg.phase_list:
            for a in phase.actions:
                decl = decls[(phase.name, a.name)]
                said = set()
                if decl.label is not None:
                    for part in getattr(decl.label, "parts", ()):
                        if not isinstance(part, str):
                            said |= {x.name for x in m.nodes(part) if isinstance(x, m.Name)}
                head = space.head_of[(phase.index, a.name)]
                self.shown[(phase.index, a.name)] = tuple(p.name in said for p in head.params)
        self.observation = (("seat", (n,)), ("phase", (len(self.phases) + 1,)), ("decider", (n,)),
                            ("cards", (Z, K)), ("counts", (Z,)), ("count_shown", (Z,)), ("known", (Z, K)),
                            ("counters", (self.counter_width,)), ("counter_shown", (self.counter_width,)),
                            ("seats", (self.seat_names, n)), ("claim", (len(self.claims) + 1,)),
                            ("claim_values", (self.claim_width,)), ("claimant", (n,)), ("claimed", (1,)),
                            ("out", (n,)), ("poll", (n,)), ("voted", (n,)), ("groups", (self.groups, n)),
                            ("deal", (1,)), ("choosing", (len(self.heads) + 1,)), ("chosen_cards", (K,)),
                            ("chosen_values", (self.values,)))
        self.row = n + len(self.names) + 2 + self.values
        self.information = self.observation + (("history", (history, self.row)),)
        self.observation_size = sum(_size(s) for _, s in self.observation)
        self.information_size = self.observation_size + history * self.row
        self._kinds = K

    # ------------------------------------------------------------------ filling
    def fill(self, out, node, seat: int, information: bool) -> None:
        """Write the tensor of ``seat`` at ``node`` into ``out`` (a flat sequence of at
        least ``observation_size`` or ``information_size`` numbers, all zero before);
        ``seat`` -1: what every seat sees (the public observation)."""
        tree = self.tree
        engine = tree.engine
        n = self.n
        if seat >= 0:              # (-1: the public observation, of no seat)
            out[seat] = 1
        if node.state is None:     # before the first deal: nothing is known yet
            return
        view = engine.view(node.state, seat, texts=False)
        at = n
        out[at + (self.phases[view.phase] if view.phase in self.phases else len(self.phases))] = 1
        at += len(self.phases) + 1
        if view.decider is not None and not tree.is_terminal(node) and node.pending is None:
            out[at + view.decider] = 1
        at = self._fill_zones(out, at + n, view)
        c = 0
        for _, value in view.counters:
            for v in (value if isinstance(value, tuple) else (value,)):
                if v is not None:
                    out[at + c] = v
                    out[at + self.counter_width + c] = 1
                c += 1
        at += 2 * self.counter_width
        for i, (_, s) in enumerate(view.seats):
            if 0 <= s < n:
                out[at + i * n + s] = 1
        at = self._fill_claim(out, at + self.seat_names * n, view)
        for s in range(n):
            if view.out and view.out[s]:
                out[at + s] = 1
        at += n
        for s in view.poll:
            out[at + s] = 1
        at += n
        for s in view.voted:
            out[at + s] = 1
        at += n
        for g, (_, members) in enumerate(view.groups):
            for s in members:
                out[at + g * n + s] = 1
        at += self.groups * n
        out[at] = view.deal
        at = self._fill_choosing(out, at + 1, node, seat)
        if information:
            self._history(out, at, node)

    def _fill_zones(self, out, at: int, view) -> int:
        """Write the ``cards`` (zones × kinds: the cards the view shows), ``counts``,
        ``count_shown`` and ``known`` (zones × kinds) fields from ``at``; the index after them."""
        K = self._kinds
        Z = len(view.zones)
        for z, (_, _, count, cards) in enumerate(view.zones):
            if cards is not None:
                for k in cards:
                    out[at + z * K + k] += 1
            if count is not None:
                out[at + Z * K + z] = count
                out[at + Z * K + Z + z] = 1
        at += Z * K + 2 * Z
        slots = {place: i for i, place in enumerate((name, owner) for name, owner, _, _ in view.zones)}
        for name, owner, cards in view.known:
            z = slots[(name, owner)]
            for k in cards:
                out[at + z * K + k] += 1
        return at + Z * K

    def _fill_claim(self, out, at: int, view) -> int:
        """Write the ``claim`` (one-hot, the last for none), ``claim_values``, ``claimant``
        and ``claimed`` (its number of cards) fields from ``at``; the index after them."""
        n = self.n
        if view.claim is not None:
            name, values, claimant, count, _ = view.claim
            out[at + self.claims[name]] = 1
            for j, v in enumerate(values):
                out[at + len(self.claims) + 1 + j] = _number(v)
            if 0 <= claimant < n:
                out[at + len(self.claims) + 1 + self.claim_width + claimant] = 1
            out[at + len(self.claims) + 1 + self.claim_width + n] = count
        else:
            out[at + len(self.claims)] = 1
        return at + len(self.claims) + 1 + self.claim_width + n + 1

    def _fill_choosing(self, out, at: int, node, seat: int) -> int:
        """Write the ``choosing`` (the action ``seat`` is choosing, one-hot, the last for
        none), ``chosen_cards`` (per kind) and ``chosen_values`` fields from ``at``; the
        index after them."""
        tree, K = self.tree, self._kinds
        p = node.partial
        if p is not None and tree.player(node) == seat:
            out[at + self.heads[_same_head(tree.space, p.head)]] = 1
            for k in ((p.card,) if p.card is not None else p.cards):
                out[at + len(self.heads) + 1 + k] += 1
            for j, (v, space) in enumerate(zip(p.params, p.head.params)):
                out[at + len(self.heads) + 1 + K + j] = _number(v, space.kind)
        else:
            out[at + len(self.heads)] = 1
        return at + len(self.heads) + 1 + K + self.values

    def _history(self, out, at: int, node) -> None:
        """The public part of the last decisions (see the module's docstring)."""
        steps = []
        step = node.trace
        while step is not None and len(steps) < self.history:
            if getattr(step, "action", None) is not None:
                steps.append(step)
            step = step.prev
        n, row = self.n, self.row
        votes = len(self.names)
        for i, step in enumerate(reversed(steps)):
            base = at + i * row
            out[base + step.seat] = 1
            phase = step.base.phase
            action = step.action
            if phase in self.vote_phases:
                out[base + n + votes] = 1           # a vote: which action is secret
                continue
            out[base + n + self.names[action.name]] += 1
            if action.name == DECLINE:
                continue
            out[base + n + votes + 1] = len(action.cards)
            shown = self.shown[(phase, action.name)]
            spaces = self.tree.space.head_of[(phase, action.name)].params
            for j, (v, said, space) in enumerate(zip(action.params, shown, spaces)):
                if said:
                    out[base + n + votes + 2 + j] = _number(v, space.kind)


def _number(value, kind: str = "range") -> float:
    """A chosen value as one number: a group of seats as the sum of 2**seat, places as the
    first place."""
    if isinstance(value, tuple):
        if kind == "place":
            return float(value[0])
        return float(sum(1 << v for v in value))
    return float(value)


def _size(shape: tuple) -> int:
    size = 1
    for d in shape:
        size *= d
    return size


__all__ = ["HISTORY", "Layout"]
