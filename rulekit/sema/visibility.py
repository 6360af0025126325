"""Which checks read only what the deciding seat may see.

An action's check is what runs before its effects: its leading ``choose`` and ``require``
statements, and the ``forced when`` conditions of its phase. When every part of it reads
only what the deciding seat sees at the table (its own hand, public zones and counters, the
standing claim's words, the seats, the choices it makes), the check answers the same in
the true state as in any state that agrees with the seat's view: the match may then answer
a seat's questions about its own decision from a state with everything else blanked
(:func:`rulekit.engine.observe.masked_state`), instead of dealing one from the view.

The analysis is conservative: a construct it does not know reads something hidden.
"""

from __future__ import annotations

from ..ir.names import PLAYER_NAME
from ..lang import model as m

#: expressions that read nothing of the state a seat could not see, whatever they hold
#: (what they hold is judged on its own)
_PUBLIC = (m.Num, m.Bool, m.ClaimIs, m.NoClaim, m.ClaimedField, m.PlayerCount, m.IsOut, m.IsNobody, m.SeatName,
           m.CpName, m.BinOp, m.Not, m.MinMax, m.CondValue, m.Neighbour, m.FirstOf, m.CountSeats,
           m.Member, m.CpCompare, m.CpLogic)


def public_checks(game: m.Game) -> tuple:
    """For each phase of ``game``, in order: whether the check of every one of its actions
    (and its ``forced when`` conditions) reads only what the deciding seat may see."""
    return tuple(_Reader(game).phase(p) for p in game.phases)


def seen_by_decider(game: m.Game):
    """``seen(cond, names) -> bool``: whether a condition reads only what the deciding seat
    may see (``names``: the names bound to its choices), as :func:`public_checks` judges."""
    reader = _Reader(game)
    return lambda cond, names: reader.expr(cond, frozenset(names))


def bookkeeping_counters(game: m.Game) -> frozenset:
    """The counters ``seen by nobody`` that hold nothing a seat could not see: every
    ``set``, ``add`` or ``subtract`` of one writes a value, under ``if`` conditions, that
    read only what every seat sees (which seats went out, once their hands are empty).
    Shown at the end of a match, they tell no hidden card; any other counter seen by
    nobody may (one set from a hand)."""
    reader = _Reader(game, public=True)
    candidates = {c.name for c in game.counters if c.seen == "nobody"}
    spoiled: set = set()

    def walk(stmts, names: frozenset, guarded: bool) -> None:
        for st in stmts:
            if isinstance(st, m.Assign) and st.target.name in candidates:
                if not guarded or not reader.expr(st.value, names) or \
                        st.target.seat is not None and not reader.expr(st.target.seat, names):
                    spoiled.add(st.target.name)
            elif isinstance(st, m.If):
                ok = guarded and reader.expr(st.cond, names)
                walk(st.then, names, ok)
                walk(st.orelse, names, ok)
            elif isinstance(st, m.ForEach):
                walk(st.body, names | {st.var} if reader.expr(st.seats, names) else names, guarded)
            elif isinstance(st, (m.Repeat, m.ForRange, m.ForKinds)):
                walk(st.body, names, guarded)
            elif isinstance(st, m.Ask):
                walk(st.then, names, guarded)
    blocks = [game.setup, game.match.between, *(p.body for p in game.procedures),
              *(b for p in game.phases for b in [a.body for a in p.actions] + [p.after or ()])]
    for block in blocks:
        walk(block, frozenset(), True)
    return frozenset(candidates - spoiled)


class _Reader:
    def __init__(self, game: m.Game, public: bool = False):
        """``public``: what every seat sees, not what the deciding seat sees (its own hand,
        its own counters, its choices are not public then)."""
        self.game = game
        self.public = public
        self.zones = {z.name: z for z in game.zones}
        self.counters = {c.name: c for c in game.counters}
        self.claims = {c.name: c for c in game.claims}
        self.fixed = {s.name for s in game.seats} | {"current", "actor", "claimant"}
        self.fixed |= {s for decl in game.symbols for s in decl.symbols}

    def phase(self, p: m.PhaseDecl) -> bool:
        return all(self.action(a) for a in p.actions) and \
            all(a.forced is None or self.expr(a.forced, frozenset()) for a in p.actions)

    def action(self, a: m.Action) -> bool:
        names: set = set()
        for s in a.body:
            if isinstance(s, m.Require):
                if not self.expr(s.cond, names):
                    return False
            elif isinstance(s, m.ChooseCards):
                if s.blind or not self.cards(s.source, names, faces=True):
                    return False
            elif isinstance(s, m.ChooseParam):
                d = s.domain
                if not all(self.expr(x, names) for x in (d.low, d.high, d.seats) if x is not None):
                    return False
                names.add(s.name)
            else:
                break           # the effects begin
        return True

    def name(self, name: str, names) -> bool:
        if name in names or name in self.fixed or PLAYER_NAME.match(name):
            return True
        counter = self.counters.get(name)
        # a bare per-player counter is the deciding seat's own
        return counter is not None and (counter.seen == "all" or counter.per_player and counter.seen == "owner"
                                        and not self.public)

    def expr(self, node, names) -> bool:
        """Whether ``node`` (an expression, a seat or a seat set, a card predicate) reads
        only what the deciding seat may see; ``names``: the names bound to its choices."""
        if isinstance(node, m.Name):
            return self.name(node.name, names)
        if isinstance(node, m.ValueOf):
            counter = self.counters.get(node.name)
            return counter is not None and counter.seen == "all" and self.expr(node.seat, names)
        if isinstance(node, m.TableValue):
            return all(self.expr(a, names) for a in node.args)
        if isinstance(node, m.Extreme):
            counter = self.counters.get(node.name)
            return counter is not None and counter.seen == "all"
        if isinstance(node, m.CountOf):
            return self.cards(node.cards, names, faces=False)
        if isinstance(node, m.CardExtreme):
            return self.cards(node.cards, names, faces=True)
        if isinstance(node, m.TotalOf):
            return self.cards(node.cards, names, faces=True) and \
                (node.attr not in self.counters or self.name(node.attr, names))
        if isinstance(node, m.CardQuantifier):
            return self.cards(node.cards, names, faces=True) and self.expr(node.pred, names)
        if isinstance(node, m.HasCombination):      # a combination reads only its own values
            return self.cards(node.cards, names, faces=True) and self.expr(node.value, names)
        if isinstance(node, m.BestCombination):
            return self.cards(node.cards, names, faces=True)
        if isinstance(node, m.Beats):
            return all(self.expr(a, names) for a in node.args) and self.order(node.claim)
        if isinstance(node, m.SeatQuantifier):
            return self.expr(node.seats, names) and self.expr(node.cond, names | {node.var})
        if isinstance(node, m.OverSeats):
            return self.expr(node.seats, names) and self.expr(node.value, names | {node.var})
        if isinstance(node, m.SeatSet):
            if node.kind == "voters":
                return False    # votes are secret until the vote closes
            inner = names | {node.name} if node.name is not None else names
            return all(self.expr(x, names) for x in (node.seat, node.base, node.other) if x is not None) and \
                (node.cond is None or self.expr(node.cond, inner))
        if isinstance(node, _PUBLIC):
            return all(self.expr(child, names) for child in m.children(node))
        return False            # a roll, the truth of the claim, anything not known to be public

    def order(self, claim: str) -> bool:
        """Whether comparing two claims ``claim`` reads only their values."""
        decl = self.claims.get(claim)
        if decl is None:
            return False
        params = frozenset(p.name for p in decl.params)
        if decl.higher is not None:
            return self.expr(decl.higher, params)
        return all(self.expr(k, params) for k in decl.ordering)

    def cards(self, node, names, faces: bool) -> bool:
        """Whether the deciding seat sees how many cards ``node`` selects or, with
        ``faces``, which (as a multiset: their order is not read)."""
        if isinstance(node, m.ZoneRef):
            zone = self.zones.get(node.zone)
            if zone is None or node.seat is not None and not self.expr(node.seat, names):
                return False
            if not faces:
                return zone.seen != "nobody"
            return zone.seen == "all" or zone.seen == "owner" and node.yours and not self.public
        if isinstance(node, m.Chosen):
            return not faces or not self.public     # chosen from a zone the seat sees (see ``action``)
        if isinstance(node, m.Claimed):
            return not faces    # how many cards were claimed is public, not their faces
        if isinstance(node, m.EveryZone):
            zone = self.zones.get(node.zone)
            if zone is None or node.seats is not None and not self.expr(node.seats, names):
                return False
            return zone.seen == "all" or not faces and zone.seen != "nobody"
        if isinstance(node, m.Portion):
            return not faces and not node.random and self.cards(node.cards, names, faces=False) and \
                self.expr(node.count, names)
        if isinstance(node, m.CardUnion):
            return all(self.cards(part, names, faces) for part in node.parts)
        if isinstance(node, m.Where):
            return self.cards(node.cards, names, faces=True) and self.expr(node.pred, names)
        return False
