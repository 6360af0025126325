"""What players and tools ask of the rules about a state, as part of
:class:`~.core.Engine` (its base class :class:`RulesQueries`): whether a claim holds or
would hold, its place in its order and its words; the names of cards, phases, zone
instances and combinations. Each answer is read through the game's generated module
(``program``, ``pieces``) on a context that only reads the state (``_read_ctx``).
"""

from __future__ import annotations

from typing import Callable

from .runtime import CLAIMANT
from .state import State


class RulesQueries:
    """See the module docstring."""

    def claim_text(self, state: State) -> str | None:
        """The standing claim as its label reads (its name and values without a label)."""
        if state.claim is None:
            return None
        c = self.cg.claim_list[state.claim[0]]
        label = self.pieces(state.n).claim_labels[c.index]
        if label is None:
            return f"{c.name} {' '.join(map(str, state.claim[1]))}"
        return label(self._read_ctx(state), state.claim[1])

    def phase_index(self, name: str) -> int:
        """The index of a phase by name (-1 for "over")."""
        return self.cg.phases[name].index if name in self.cg.phases else -1

    def claim_rank(self, state: State):
        """The standing claim's place in its declared order (comparable within one claim
        kind: larger is higher), or None without a claim or an order."""
        if state.claim is None:
            return None
        return self.pieces(state.n).ranks[state.claim[0]](self._read_ctx(state), state.claim[1])

    def claim_order(self, state: State, name: str, values: tuple):
        """The place of the claim ``name(values)`` in its declared order, read in ``state``
        (as :meth:`claim_rank` of that claim standing), or None when it has no order.

        Raises:
            KeyError: no claim is named ``name``.
        """
        return self.pieces(state.n).ranks[self.cg.claims[name].index](self._read_ctx(state), tuple(values))

    def claim_holds_in(self, state: State, zones: tuple | None = None) -> bool:
        """Whether the standing claim is true in ``state`` (for tests and determinized bots);
        ``zones``: as if the zones were these instead (no state is made for them)."""
        if state.claim is None:
            return False
        prog = self.program(state.n)
        if zones is None and prog.holds_of is not None:
            return prog.holds_of(state)         # over the state's fields (see rulekit.engine.stepgen)
        ctx = self._read_ctx(state)
        if zones is not None:
            ctx.zones = zones
        return prog.holds(ctx)

    def claim_holds_in_place(self, ctx) -> bool:
        """:meth:`claim_holds_in` of the state a working copy (see :meth:`working_copy`)
        stands for, or of the ``state`` of what a match played by steps gives ``on_step``
        (``rulekit.play.match.Progress``)."""
        return self.claim_holds_in(ctx.state)

    def claim_test(self, state: State) -> Callable[[tuple], bool]:
        """A function of ``zones`` (a tuple of card tuples, one per zone of ``state``):
        whether the standing claim of ``state`` would be true were those its zones (as
        :meth:`claim_holds_in` with ``zones``; one reading of the state for every test)."""
        if state.claim is None:
            return lambda zones: False
        ctx = self._read_ctx(state)
        holds = self.program(state.n).holds

        def test(zones: tuple) -> bool:
            ctx.zones = zones
            return holds(ctx)
        return test

    def claim_would_hold(self, state: State, name: str, args: tuple, seat: int) -> bool:
        """Whether the claim ``name(args)``, made by ``seat``, would be true in ``state``
        (a bot weighing what the claims it heard say about hidden cards).

        Raises:
            KeyError: no claim is named ``name``.
        """
        return self.claims_would_hold(state, ((name, args, seat),))[0]

    def claims_would_hold(self, state: State, claims) -> list[bool]:
        """For each claim ``(name, args, seat)`` of ``claims``, whether it would be true in
        ``state`` (as :meth:`claim_would_hold`; one reading of the state for them all).

        Raises:
            KeyError: no claim is named one of the names.
        """
        table = self.cg.claims
        ctx = self._read_ctx(state)
        seats = ctx.seats
        truths = self.program(state.n).truths
        out = []
        for name, args, seat in claims:
            seats[CLAIMANT] = seat
            out.append(truths[table[name].index](ctx, tuple(args)))
        return out

    def zone_slot(self, state: State, zone: str, owner: int | None = None) -> int:
        """The index in ``state.zones`` of a zone instance, by zone name and owner."""
        zi = self.cg.zone_index[zone]
        return self.cg.zone_slot(zi, owner or 0, state.n)

    def combination_values(self, name: str) -> tuple[str, ...]:
        """The values of the order of combinations ``name`` (``combinations NAME: A < B < …``),
        lowest first, in words: value ``i`` of a claim or a choice of that kind is the
        ``i``-th.

        Raises:
            KeyError: no order of combinations is named ``name``.
        """
        order = self.pieces(self.game.players[0]).combinations[self.cg.combination_kinds[name]]
        return tuple(order.text(i) for i in order.indices)

    def kind_label(self, kind: int) -> str:
        """What players call a card kind: its label, e.g. "7"."""
        return self.kinds[kind].label

    def kind_named(self, label: str) -> int:
        """The kind index of the card players call ``label``.

        Raises:
            KeyError: no card kind has that label.
        """
        for i, k in enumerate(self.kinds):
            if k.label == label:
                return i
        raise KeyError(label)
