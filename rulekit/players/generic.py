"""A simple bot for any game: honest when it can, bluffs sometimes, doubts unlikely claims.

It knows nothing of any particular game. From the compiled rules it learns which actions
make a claim and which put the standing claim to the test (an action whose effects, or the
window or vote it leads to, ask whether the claim holds). It estimates how likely a claim is
by sampling states consistent with its view (:mod:`.determinize`): the declared deck minus
what it can see, dealt into the hidden zones.

* Facing a claim of another seat that looks unlikely (estimated truth below ``doubt``), it
  takes an action that tests the claim.
* When it must claim, it builds honest choices greedily (adding cards while the claim stays
  true, lowest values first) and prefers the honest choice that sheds most cards, or for a
  claim without cards the lowest one likely to be true. With probability ``bluff`` it bluffs:
  one card too many, or a claim only somewhat likely. When no honest choice exists it
  prefers an action that makes no claim (such as passing), else it tells a small lie.
* It reads its public history (``View.history``): the claims other seats made earlier in
  the deal (without cards) say something about their hidden cards, so a sampled state in
  which such a claim would be true counts ``trust / (1 - trust)`` times as much as one in
  which it would be a lie.
* In a vote it picks the choice that, over sampled states, leaves it holding fewest cards.
* Other optional window actions (for example looking at cards) it takes now and then, when
  it knows no card of another seat's hand yet.
"""

from __future__ import annotations

import itertools
import random


from .. import model as m
from ..engine import DECLINE_ACTION, Action, Decision, Engine, View
from ..engine.core import option_reason
from .base import random_concrete, random_legal, unchecked_choice
from .determinize import sampler


_mentions = m.mentions


def _legal(decision: Decision, option, action: Action) -> bool:
    """Whether ``action``, a choice of ``option``, is legal: for an ``exact`` option,
    whether it lies within the option (no check of the rules needed), else the decision's
    check says."""
    if option.exact:
        return option_reason(option, action) is None
    return decision.check(action) is None


def _mentions_truth(node) -> bool:
    return _mentions(node, m.ClaimHolds)


class _Analysis:
    """What the bot reads from the rules once: which actions claim, which test claims."""

    def __init__(self, game: m.Game):
        procs = {p.name: p.body for p in game.procedures}
        phases = {p.name: p for p in game.phases}
        self.claims: set[tuple[str, str]] = set()
        self.private_zones = {z.name for z in game.zones if z.per_player and z.seen == "owner"}
        self.tests: set[tuple[str, str]] = set()

        def tests(stmts, seen) -> bool:
            for s in m.walk(stmts):
                if _mentions_truth(s):
                    return True
                if isinstance(s, m.Do) and s.procedure not in seen and s.procedure in procs:
                    if tests(procs[s.procedure], seen | {s.procedure}):
                        return True
                if isinstance(s, m.GoTo) and s.phase in phases and s.phase not in seen:
                    target = phases[s.phase]
                    if target.kind == "vote" and target.after and tests(target.after, seen | {s.phase}):
                        return True
            return False

        # a claim is "about its cards" when its truth reads only the claimed cards: then one
        # card at a time can be tested, and the claimant's whole hand tells what he could claim
        self.about_cards = {c.name for c in game.claims
                            if _mentions(c.truth, m.Claimed)
                            and not _mentions(c.truth, (m.ZoneRef, m.EveryZone, m.Portion))}
        for p in game.phases:
            for a in p.actions:
                if any(isinstance(s, m.MakeClaim) for s in m.walk(a.body)):
                    self.claims.add((p.name, a.name))
                if tests(a.body, frozenset()):
                    self.tests.add((p.name, a.name))


class GenericBot:
    """See the module docstring. ``samples`` states are drawn per estimate."""

    uses_history = True
    uses_texts = False      # it never reads option labels or value names

    def __init__(self, engine: Engine, rng: random.Random, samples: int = 10, bluff: float = 0.15,
                 doubt: float = 0.3, curiosity: float = 0.15, trust: float = 0.8):
        self.engine = engine
        self.rng = rng
        self.samples = samples
        self.bluff = bluff
        self.doubt = doubt
        self.curiosity = curiosity
        self.trust = trust
        self.analysis = _Analysis(engine.game)
        self._kinds_holding: dict = {}       # see _honest_share

    # -- estimates
    def _states(self, view: View, count: int | None = None):
        """``count`` (default ``samples``) states sampled from ``view``."""
        draw = sampler(self.engine, view)
        return [draw(self.rng) for _ in range(self.samples if count is None else count)]

    def p_claim(self, view: View) -> float | None:
        """Estimated chance that the standing claim is true, or None without a claim.

        For a claim about the claimed cards, the claimant chose them from his hand: the bot
        estimates the chance that his hand allowed an honest claim, times ``trust`` (the
        chance that he then told the truth). Otherwise it is the share of sampled states in
        which the claim holds.
        """
        if view.claim is None:
            return None
        name, values, claimant, count, slot = view.claim
        hand_slots = [i for i, (zname, owner, _, _) in enumerate(view.zones)
                      if owner == claimant and i != slot]
        draw = sampler(self.engine, view)
        if name in self.analysis.about_cards and slot >= 0 and count > 0:
            # only the claimed cards and the claimant's hand matter: deal those zones alone
            # of the claimed zone, only the claimed cards on its top
            dealt = [draw.zones(self.rng, [slot] + hand_slots, {slot: count}) for _ in range(self.samples)]
            if all(d is not None for d in dealt):
                return self.trust * self._honest_share(view, dealt, slot, count, hand_slots)
        states = [draw(self.rng) for _ in range(self.samples)]
        if name not in self.analysis.about_cards or slot < 0 or count == 0:
            heard = self._heard(view)
            if not heard:
                return sum(self.engine.claim_holds_in(s) for s in states) / len(states)
            weight = total = 0.0
            for s in states:
                w = 1.0
                for past, args, seat in heard:
                    w *= self.trust if self.engine.claim_would_hold(s, past, args, seat) else 1 - self.trust
                total += w
                weight += w * self.engine.claim_holds_in(s)
            return weight / total if total else 0.0
        return self.trust * self._honest_share(view, [s.zones for s in states], slot, count, hand_slots)

    def _honest_share(self, view: View, dealt: list, slot: int, count: int, hand_slots: list) -> float:
        """The share of the deals (each zones by slot) in which the claimant's hand, with
        the ``count`` claimed cards on top of zone ``slot``, held enough cards to make the
        claim honestly."""
        from ..match import view_state

        # the claim reads only the claimed cards: whether it holds of `count` cards of one
        # kind is the same in every deal, so it is asked once per kind (of any state that
        # agrees with the view)
        # what decides it besides the kind: the claim (name, values, claimant), where the
        # claimed cards lie and how many, and the counters, seats, groups and knock-outs
        # the claim may read; kept from one decision to the next (a claim is heard again
        # and again)
        key = (view.claim[:3], slot, count, view.counters, view.seats, view.groups, view.out)
        holds = self._kinds_holding.get(key)
        if holds is None:
            if len(self._kinds_holding) > 4096:
                self._kinds_holding.clear()
            holds = self._kinds_holding[key] = {}
        base = None
        possible = 0
        for zones in dealt:
            pool = list(zones[slot][len(zones[slot]) - count:])
            for i in hand_slots:
                pool.extend(zones[i])
            good = 0
            for kind in set(pool):
                ok = holds.get(kind)
                if ok is None:
                    if base is None:
                        base = view_state(self.engine, view)
                    ok = holds[kind] = self._single_holds(base, slot, count, kind)
                if ok:
                    good += pool.count(kind)
            possible += good >= count
        return possible / len(dealt)

    def _heard(self, view: View) -> list:
        """The claims without cards that other seats made earlier in this deal, from the
        public history, as (claim name, values, seat); the standing claim left out."""
        heard = []
        for event in view.history:
            if event.kind == "deal_start":
                heard = []
            elif event.kind == "claim" and event.data["claim"] not in self.analysis.about_cards:
                heard.append((event.data["claim"], event.data["args"], event.data["seat"]))
        if heard and view.claim is not None and heard[-1] == view.claim[:3]:
            heard.pop()
        return [h for h in heard if h[2] != view.seat]

    def _single_holds(self, state, slot: int, count: int, kind: int) -> bool:
        """Whether the standing claim would hold if every claimed card were of ``kind``."""
        zones = list(state.zones)
        zone = zones[slot]
        zones[slot] = zone[:len(zone) - count] + (kind,) * count
        return self.engine.claim_holds_in(state, tuple(zones))

    def _p_after(self, states, action: Action) -> float:
        """Chance that the claim made by ``action`` is true, over sampled states."""
        hits = 0
        for s in states:
            try:
                nxt, _ = self.engine.apply(s, action, self.rng, False, False)
            except Exception:
                return 0.0
            if nxt.is_terminal or nxt.claim is None:
                hits += 1
            else:
                hits += self.engine.claim_holds_in(nxt)
        return hits / len(states)

    # -- decisions
    def choose(self, view: View, decision: Decision) -> Action:
        if decision.rejected is not None:     # its check misjudged: let the match judge random choices
            return unchecked_choice(decision, self.rng)
        if decision.kind == "vote":
            return self._vote(view, decision)
        phase = decision.phase
        options = [o for o in decision.options if o.name != DECLINE_ACTION.name]
        testing = [o for o in options if (phase, o.name) in self.analysis.tests]
        if testing and view.claim is not None and view.claim[2] != view.seat:
            p = self.p_claim(view)
            if p is not None and p < self.doubt:
                return random_legal(decision, self.rng, testing)
        rest = [o for o in options if o not in testing]
        claiming = [o for o in rest if (phase, o.name) in self.analysis.claims]
        plain = [o for o in rest if o not in claiming]
        if decision.kind in ("first", "each"):
            # optional actions (such as looking at cards) now and then, not when it already knows some
            if plain and not self._knows_a_hand(view) and self.rng.random() < self.curiosity:
                return random_legal(decision, self.rng, plain)
            return DECLINE_ACTION
        if claiming:
            bluffing = self.rng.random() < self.bluff
            honest = self._honest(view, decision, claiming, 0.25 if bluffing else 0.6)
            if honest is not None and bluffing and honest.cards is not None and honest.cards:
                honest = self._pad(decision, claiming, honest) or honest
            if honest is not None:
                return honest
            if plain and not bluffing:
                return random_legal(decision, self.rng, plain)
            return self._small_bluff(decision, claiming)
        if testing and not plain:
            return random_legal(decision, self.rng, testing)
        return random_legal(decision, self.rng, plain or options)

    def _knows_a_hand(self, view: View) -> bool:
        """Whether it knows a card of another seat's private zone (a hand): then looking
        at more cards is worth less."""
        private = self.analysis.private_zones
        return any(owner is not None and owner != view.seat and name in private for name, owner, _ in view.known)

    def _pad(self, decision: Decision, options, honest: Action) -> Action | None:
        """A bluff: the honest choice with one more card that does not fit it."""
        option = next(o for o in options if o.name == honest.name)
        spare = list(option.cards)
        for k in honest.cards:
            spare.remove(k)
        if not spare:
            return None
        padded = Action(honest.name, tuple(sorted(honest.cards + (self.rng.choice(spare),))), honest.params)
        return padded if _legal(decision, option, padded) else None

    def _small_bluff(self, decision: Decision, options) -> Action:
        """A lie that is not absurd: as few cards as allowed, the lowest values that are legal."""
        for option in options:
            sizes = [0] if option.cards is None else range(max(1, option.low), len(option.cards) + 1)
            if option.high is not None and option.cards is not None:
                sizes = [s for s in sizes if s <= option.high]
            for size in sizes:
                cards = () if option.cards is None else tuple(sorted(self.rng.sample(option.cards, size)))
                for values in itertools.islice(itertools.product(*[v for _, v in option.params]), 400):
                    action = Action(option.name, cards, tuple(values))
                    if _legal(decision, option, action):
                        return action
        return random_legal(decision, self.rng, options)

    def _honest(self, view: View, decision: Decision, options, threshold: float = 0.6) -> Action | None:
        local = all(c.name in self.analysis.about_cards for c in self.engine.game.claims)
        states = self._states(view, 1 if local else max(1, self.samples // 2))
        best: tuple | None = None
        for option in options:
            combos = list(itertools.islice(itertools.product(*[v for _, v in option.params]), 60))
            if option.cards is None:
                # the lowest claim (in the claim's declared order) that is likely enough
                for action in self._by_rank(states[0], decision, option, combos):
                    if self._p_after(states, action) >= threshold:
                        return action
                continue
            for values in combos:
                cards = self._grow(states, decision, option, tuple(values))
                if cards:
                    key = (len(cards), -sum(values) if values else 0)
                    if best is None or key > best[0]:
                        best = (key, Action(option.name, cards, tuple(values)))
        return best[1] if best else None

    def _by_rank(self, state, decision: Decision, option, combos) -> list:
        """The legal actions of a cardless option, lowest resulting claim first."""
        ranked = []
        for i, values in enumerate(combos):
            action = Action(option.name, (), tuple(values))
            if not _legal(decision, option, action):
                continue
            try:
                after, _ = self.engine.apply(state, action, self.rng, False, False)
                rank = self.engine.claim_rank(after)
            except Exception:
                rank = None
            ranked.append(((0, rank, i) if rank is not None else (1, 0, i), action))
        try:
            ranked.sort(key=lambda r: r[0])
        except TypeError:         # ranks of different claims do not compare: keep the listed order
            ranked.sort(key=lambda r: r[0][2])
        return [a for _, a in ranked]

    def _grow(self, states, decision: Decision, option, values) -> tuple:
        """Greedily the largest choice of cards that keeps the claim true."""
        pool = list(option.cards)
        chosen: list = []
        top = len(pool) if option.high is None else option.high
        improved = True
        while improved and len(chosen) < top:
            improved = False
            for kind in sorted(set(pool)):
                trial = tuple(sorted(chosen + [kind]))
                action = Action(option.name, trial, values)
                if len(trial) < option.low:
                    chosen.append(kind)
                    pool.remove(kind)
                    improved = True
                    break
                if _legal(decision, option, action) and self._p_after(states, action) >= 0.99:
                    chosen.append(kind)
                    pool.remove(kind)
                    improved = True
                    break
        result = tuple(sorted(chosen))
        if len(result) < option.low or not _legal(decision, option, Action(option.name, result, values)):
            return ()
        if self._p_after(states, Action(option.name, result, values)) < 0.99:
            return ()
        return result

    def _vote(self, view: View, decision: Decision) -> Action:
        states = self._states(view)
        best = None
        for option in decision.options:
            action = random_concrete(option, self.rng)
            if decision.check(action) is not None:
                try:
                    action = random_legal(decision, self.rng, [option])
                except (IndexError, ValueError):
                    continue
            held = 0.0
            for s in states:
                held += self._held_after(s, action, view.seat)
            if best is None or held < best[0]:
                best = (held, action)
        return best[1] if best else random_legal(decision, self.rng)

    def _held_after(self, state, action: Action, seat: int) -> int:
        """Cards ``seat`` holds after ``action`` and random choices of the others in the vote."""
        engine = self.engine
        try:
            state, _ = engine.apply(state, action, self.rng, False, False)
            guard = 0
            while not state.is_terminal and engine.decision(state, False).kind == "vote" and guard < 20:
                d = engine.decision(state, False)
                state, _ = engine.apply(state, random_legal(d, self.rng), self.rng, False, False)
                guard += 1
        except Exception:
            return 10**6
        cg = engine.cg
        held = 0
        for slot, cards in enumerate(state.zones):
            zi, owner = cg.zone_owner(slot, state.n)
            if owner == seat:
                held += len(cards)
        return held
