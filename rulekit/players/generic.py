"""The fast bot for any game: honest when it can, bluffs sometimes, doubts unlikely claims.

It knows nothing of any particular game. From the compiled rules (:class:`_Analysis`) it
learns which actions make a claim (in their body or through a procedure: a block), which
put the standing claim to the test (their effects, or the windows, votes and turns they
``ask`` for or go to, read whether the claim holds: a challenge that asks the claimant to
answer), and which ``require`` the claim to hold (the claimant shows the card). It
estimates how likely a claim is by sampling states consistent with what it saw
(:mod:`.determinize`, plus its memory below): the declared deck minus what it can see,
dealt into the hidden zones. About 2,000 decisions a second or more in the shipped games.

* Its own claim put to the test, it defends it when it holds (shows the card).
* Facing a claim of another seat that looks unlikely (estimated truth below ``doubt``, or
  below ``STAKES_DOUBT`` when letting it stand would end the deal or the match), it tests
  it.
* When it must claim, it builds honest choices greedily (cards that keep the claim true,
  grown past sizes the rules do not allow yet) and prefers the honest choice that sheds
  most cards, or for a claim without cards the lowest one likely to be true; a claim the
  action resolves at once is judged by what it said, not by the claim being gone. With
  probability ``bluff`` it bluffs: one card too many (where none can be added, the cards
  named for what they are not), or a claim only somewhat likely. A seat the claim does
  not read (a seat to pass the cards to) is picked at random, not lowest first. Wild
  cards are kept for a play they finish, and so is the last card that can back a claim,
  when the honest play would leave only cards that never can (every claim always says the
  same): it lies with those first, since the hand's last claim is the one everybody tests.
  When no honest choice exists it tells a small lie
  if claims are seldom tested in this match (under ``CALLED``) and the lie, let stand, would
  not end the deal (the lie everybody tests), else it prefers an action that makes no claim
  (such as passing). In a window it blocks when its block would be honest.
* In a game whose rules never test a claim, a claim is a commitment the claimant must carry
  out (a bid to turn up so many cards, his own first): it is judged by play-outs of
  carrying it out (:meth:`GenericBot._p_fulfil`).
* Beliefs from the public history (``View.history``): the claims other seats made earlier
  in the deal weigh the sampled states; each seat's honesty is learnt from its claims seen
  revealed (a beta prior worth ``PRIOR_CLAIMS`` claims at ``trust``), and a claim the rules
  let it decline is judged with that model of its play (:meth:`GenericBot._honest_posterior`),
  corrected by how often the revealed claims of as many cards were true (the seats' choice
  of how many cards to lay says something the deal alone does not);
  cards seen going into another seat's hand (a revealed play a caller takes) are remembered
  until seen leaving, after ``View.known`` forgets them (:class:`_Record`).
* In a vote it picks the choice that, over sampled states, leaves it holding fewest cards;
  when every choice leaves it as many (a vote on a team, a mission's secret card), or the
  vote's one action plays cards in a game without claims (a bid card laid face down),
  the one with the best mean return over random play-outs.
* In a game that declares no claim (a betting game) it values each action by the mean
  return of a few random play-outs from sampled states, in which no seat drops out (a
  fold: ``knock out actor``, ``remove actor from GROUP``) while it may do anything else.
* Other optional window actions (for example looking at cards) it takes now and then, when
  it knows no card of another seat's hand yet.
"""

from __future__ import annotations

import itertools
import random
import weakref
from collections import Counter
from typing import Callable


import attrs

from ..lang import model as m
from ..engine import DECLINE_ACTION, Action, Decision, Engine, View
from ..sema.flow import challenge_actions
from ..sema.visibility import public_checks
from ..engine.core import option_reason
from ..engine.observe import multiset_union, view_state
from ..errors import IllegalAction
from .base import random_concrete, random_legal, random_stepper, unchecked_choice
from .determinize import sampler


_mentions = m.mentions


def _legal(decision: Decision, option, action: Action) -> bool:
    """Whether ``action``, a choice of ``option``, is legal: for an ``exact`` option,
    whether it lies within the option (no check of the rules needed), else the decision's
    check says."""
    if option.exact:
        return option_reason(option, action) is None
    return decision.is_legal(action)


def _mentions_truth(node) -> bool:
    return _mentions(node, m.ClaimHolds)


def _values_only_claimed(action: m.Action, made: m.MakeClaim, decl) -> tuple | None:
    """For an action making the claim ``made`` (of the declaration ``decl``): when its
    chosen values reach nothing but that claim, as its bare arguments, and ``NAME(…) beats
    claim`` tests (true where no claim stands, in a claim with no order table), the
    argument places taken by a value, as (place, parameter name) pairs; else None. Such an
    action does the same with any values but for the claim it makes."""
    if decl is None or decl.table:
        return None
    params = {s.name for s in m.walk(action.body) if isinstance(s, m.ChooseParam)}

    def reads(node) -> int:
        return sum(1 for n in m.nodes(node) if isinstance(n, m.Name) and n.name in params)

    places, allowed = [], 0
    for s in m.walk(action.body):
        if isinstance(s, m.Do):
            return None
        if s is made:
            for i, arg in enumerate(s.args):
                if isinstance(arg, m.Name) and arg.name in params:
                    places.append((i, arg.name))
                elif reads(arg):
                    return None
            allowed += len(places)
        elif isinstance(s, m.Require) and isinstance(s.cond, m.Beats):
            allowed += reads(s)
    if sum(reads(s) for s in action.body) != allowed:
        return None
    return tuple(places)


def _reads_name(node, name: str) -> bool:
    """Whether any node under ``node`` names ``name`` in any of its fields (a value, an
    attribute read through a value, a card condition…): erring towards "reads"."""
    return any(value == name for n in m.nodes(node) if attrs.has(type(n))
               for value in attrs.astuple(n, recurse=False))


def _falls_with(cond, name: str) -> bool:
    """Whether the condition ``cond`` can only turn from true to false as the value
    ``name`` grows, the others fixed: it does not read ``name``, or it is ``name <= E``,
    ``name < E``, ``E >= name`` or ``E > name`` with E not reading ``name``, or an ``and``
    / ``or`` of such conditions ("at least q dice show f" falls with q)."""
    if not _reads_name(cond, name):
        return True
    if not isinstance(cond, m.BinOp):
        return False
    if cond.op in ("and", "or"):
        return _falls_with(cond.left, name) and _falls_with(cond.right, name)
    if cond.op in ("<=", "<"):
        bound, other = cond.left, cond.right
    elif cond.op in (">=", ">"):
        bound, other = cond.right, cond.left
    else:
        return False
    return isinstance(bound, m.Name) and bound.name == name and not _reads_name(other, name)


def _falling_values(action: m.Action, places: tuple, decl) -> tuple:
    """The chosen values of ``action`` (by name) whose growth can only make the claim it
    makes false, the other values fixed: each reaches the claim only as arguments
    (``places``: (argument place, value name) pairs, see :func:`_values_only_claimed`)
    whose parameters the truth falls with (see :func:`_falls_with`)."""
    feeds: dict = {}
    for place, name in places:
        feeds.setdefault(name, []).append(decl.params[place].name)
    return tuple(name for name, params in feeds.items() if all(_falls_with(decl.truth, p) for p in params))


def _order_reads_params_only(decl) -> bool:
    """Whether a claim's declared order reads nothing but its parameters (and constants)."""
    if decl.higher is not None:
        return False
    if decl.table:
        return True
    if not decl.ordering:
        return False
    params = {p.name for p in decl.params}
    for node in m.nodes(decl.ordering):
        if isinstance(node, m.Name):
            if node.name not in params:
                return False
        elif not isinstance(node, (tuple, m.Span, m.Num, m.Bool, m.BinOp, m.Not, m.CondValue)):
            return False
    return True


def _blind_to_kinds(expr) -> bool:
    """Whether a claim argument reads no card's kind: numbers, names, arithmetic and
    ``count of chosen``."""
    for node in m.nodes(expr):
        if isinstance(node, m.CountOf):
            if not isinstance(node.cards, m.Chosen):
                return False
        elif not isinstance(node, (tuple, m.Span, m.Num, m.Bool, m.Name, m.BinOp, m.Not, m.CondValue, m.Chosen)):
            return False
    return True


class _Analysis:
    """What the bot reads from the rules once.

    * ``claims``: the (phase, action) pairs that make a claim, in their body or in a
      procedure they call (a block that claims a character through a procedure);
    * ``tests``: those that put the standing claim to the test without making one: the
      challenges of :func:`rulekit.sema.flow.challenge_actions` (what they do, or the
      phases they go to or ``ask`` for, reads whether the claim holds: a challenge that asks
      the claimant to answer; not an action that asks others whether they block it), the
      same analysis by which ``simulate`` counts challenges;
    * ``defends``: actions that ``require`` the standing claim to hold (the claimant shows
      the card): for their claimant, the way to win a test;
    * ``about_cards``: claims whose truth reads only the claimed cards;
    * ``optional``: claims made only where the rules offer an action that makes none;
    * ``falling``: bids whose higher values can only make their claim less likely.
    """

    def __init__(self, game: m.Game):
        procs = {p.name: p.body for p in game.procedures}
        self.claims: set[tuple[str, str]] = set()
        self.tests: set[tuple[str, str]] = set()
        self.defends: set[tuple[str, str]] = set()
        self.private_zones = {z.name for z in game.zones if z.per_player and z.seen == "owner"}
        self._read_claim_truths(game)
        self.kinds_holding: dict = {}     # see GenericBot._honest_share
        self.optional = _optional_claims(game, procs)
        # claims that no rule tests (nothing reads whether a claim holds): a claim is then a
        # commitment the rules make the claimant carry out (a bid to turn up so many cards of a kind)
        self.commitments = bool(game.claims) and not _mentions(game, m.ClaimHolds)
        self._read_claiming_actions(game)
        self._read_falling(game)
        self._read_tests(game, procs)
        self.test_names = {name for _, name in self.tests}
        # a match of several deals (a play-out of a game without claims stops at the end of
        # its deal); of those, the ones valued by their ranking keys (see GenericBot._worth)
        self.several_deals = game.match.until is not None
        self.by_keys = self.several_deals and bool(game.match.winners) and game.match.returns is None
        # actions by which their actor drops out, of the match or of a group of seats (a fold:
        # 'knock out actor', 'remove actor from active', in their own body): a play-out takes
        # them only when nothing else is offered
        self.leaving = {(pi, a.name) for pi, p in enumerate(game.phases) for a in p.actions
                        if any(isinstance(s, (m.KnockOut, m.RemoveSeat)) and isinstance(s.seat, m.SeatName)
                               and s.seat.name == "actor" for s in m.walk(a.body))}

    def _read_claim_truths(self, game: m.Game) -> None:
        """Set ``about_cards`` and ``cards_alone``: claims by what their truth reads."""
        # a claim is "about its cards" when its truth reads only the claimed cards: then one
        # card at a time can be tested, and the claimant's whole hand tells what he could claim
        self.about_cards = {c.name for c in game.claims
                            if _mentions(c.truth, m.Claimed)
                            and not _mentions(c.truth, (m.ZoneRef, m.EveryZone, m.Portion))}
        # of those, the claims whose truth reads nothing but the claimed cards' kinds and the
        # claim's own arguments (no counter, seat or zone): the same of the same cards in any state
        plain = (tuple, m.Span, m.Num, m.Bool, m.BinOp, m.Not, m.CardQuantifier, m.Claimed,
                 m.CpName, m.CpCompare, m.CpLogic)
        self.cards_alone = {
            c.name for c in game.claims if c.name in self.about_cards and all(
                isinstance(n, plain) or isinstance(n, m.Name) and n.name in {p.name for p in c.params}
                for n in m.nodes(c.truth))}

    def _read_claiming_actions(self, game: m.Game) -> None:
        """Set ``kind_blind``, ``values_only_claimed``, ``unclaimed`` and
        ``ranked_by_values``: actions by how the claim they make reads what they chose
        (needs ``about_cards``)."""
        # actions that make a claim about its cards whose arguments do not read which cards
        # were chosen (only how many): one kind stands for another in a trial (see
        # GenericBot._truth_of_cards)
        self.kind_blind: set = set()
        # of those, the ones whose chosen values reach nothing but the claim's arguments: one
        # run of the action stands for every choice of values (see _values_only_claimed)
        self.values_only_claimed: dict = {}
        # the seats and groups of seats a claiming action chooses that its claim's arguments
        # do not read (a seat to pass the cards to): {(phase, action): their names}; they are
        # chosen at random where the claim leaves the choice free, not lowest first (see
        # GenericBot._domains); a number (an amount offered) stays lowest first
        self.unclaimed: dict = {}
        claim_decls = {c.name: c for c in game.claims}
        for p in game.phases:
            for a in p.actions:
                made = [s for s in m.walk(a.body) if isinstance(s, m.MakeClaim)]
                if len(made) != 1:
                    continue
                if made[0].claim in self.about_cards and all(_blind_to_kinds(x) for x in made[0].args):
                    self.kind_blind.add((p.name, a.name))
                    places = _values_only_claimed(a, made[0], claim_decls.get(made[0].claim))
                    if places is not None:
                        self.values_only_claimed[(p.name, a.name)] = places
                chosen = {s.name for s in m.walk(a.body)
                          if isinstance(s, m.ChooseParam) and s.domain.kind in ("seats", "group")}
                read = {n.name for x in made[0].args for n in m.nodes(x) if isinstance(n, m.Name)}
                if chosen - read:
                    self.unclaimed[(p.name, a.name)] = frozenset(chosen - read)
        # actions whose claim is ranked by their chosen values alone: they make one claim,
        # its arguments their own chosen parameters, of a claim ordered by its parameters
        # only; {(phase, action): (claim, the argument names)}
        self.ranked_by_values: dict = {}
        for p in game.phases:
            for a in p.actions:
                made = [s for s in m.walk(a.body) if isinstance(s, m.MakeClaim)]
                if len(made) != 1 or not all(isinstance(x, m.Name) for x in made[0].args):
                    continue
                decl = claim_decls.get(made[0].claim)
                if decl is not None and _order_reads_params_only(decl):
                    self.ranked_by_values[(p.name, a.name)] = (decl.name, tuple(x.name for x in made[0].args))

    def _read_falling(self, game: m.Game) -> None:
        """Set ``falling``: the actions without cards whose values reach only the claim they
        make, in phases whose checks are public, {(phase, action): the values whose growth
        only makes the claim less likely} (see GenericBot._honest, which skips higher
        values once one is found unlikely)."""
        claim_decls = {c.name: c for c in game.claims}
        self.falling: dict = {}
        public = dict(zip((p.name for p in game.phases), public_checks(game)))
        for p in game.phases:
            for a in p.actions:
                made = [s for s in m.walk(a.body) if isinstance(s, m.MakeClaim)]
                decl = claim_decls.get(made[0].claim) if len(made) == 1 else None
                if decl is None or not public[p.name] or any(isinstance(s, m.ChooseCards) for s in m.walk(a.body)):
                    continue
                places = _values_only_claimed(a, made[0], decl)
                falling = _falling_values(a, places, decl) if places else ()
                if falling:
                    self.falling[(p.name, a.name)] = falling

    def _read_tests(self, game: m.Game, procs: dict) -> None:
        """Fill ``claims``, ``tests`` and ``defends`` (see the class docstring)."""
        challenges = challenge_actions(game)
        for p in game.phases:
            for a in p.actions:
                key = (p.name, a.name)
                if _makes_claim(a.body, procs, frozenset()):
                    self.claims.add(key)
                elif key in challenges:
                    self.tests.add(key)
                if any(isinstance(s, m.Require) and _mentions_truth(s.cond) and not _mentions(s.cond, m.Not)
                       for s in m.walk(a.body)):
                    self.defends.add(key)


def _makes_claim(stmts, procs: dict, seen) -> bool:
    """Whether ``stmts`` make a claim, themselves or in a procedure they call (``procs``:
    name -> body; ``seen``: the names of the procedures already followed)."""
    for s in m.walk(stmts):
        if isinstance(s, m.MakeClaim):
            return True
        if isinstance(s, m.Do) and s.procedure in procs and s.procedure not in seen:
            if _makes_claim(procs[s.procedure], procs, seen | {s.procedure}):
                return True
    return False


def _optional_claims(game: m.Game, procs: dict) -> set:
    """The claims made only where the rules offer an action that makes none."""
    # claims made where the rules offer something else to do (pass, draw): "optional"
    made_in: dict = {}
    for p in game.phases:
        for a in p.actions:
            for s in m.walk(a.body):
                if isinstance(s, m.MakeClaim):
                    made_in.setdefault(s.claim, []).append(
                        any(not _makes_claim(b.body, procs, frozenset()) for b in p.actions if b is not a))
    return {name for name, free in made_in.items() if all(free)}


_ANALYSES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _analysis(engine: Engine) -> _Analysis:
    """The analysis of ``engine``'s rules, made once per engine (a simulation makes new
    bots for every match)."""
    found = _ANALYSES.get(engine)
    if found is None:
        found = _ANALYSES[engine] = _Analysis(engine.game)
    return found


#: play-outs per candidate action, and their length in decisions, in a game without claims
ROLLOUTS = 16
ROLLOUT_DECISIONS = 200
#: play-outs per choice of the card to play in a vote (up to ``VALUE_CHOICES`` choices)
CARD_ROLLOUTS = 8
#: the most choices of values of one option weighed by play-outs (see GenericBot._value_choices)
VALUE_CHOICES = 8

#: the least chance of carrying out a commitment (see GenericBot._p_fulfil) at which the
#: bot makes it: carried out it scores; failed, it costs the claimant little more than the
#: round it would lose by letting another seat make its own
COMMIT = 0.2

#: the longest play-out of a commitment (see GenericBot._p_fulfil), in decisions
PLAYOUT_DECISIONS = 40

#: how many of the claims heard last in the deal weigh the sampled states (see GenericBot.p_claim)
HEARD = 8

#: how many claims the prior belief in a seat's honesty is worth (see GenericBot._trust)
PRIOR_CLAIMS = 5

#: a claim about its cards deals only the claimed cards and the claimant's hand: this many
#: times ``samples`` deals, so that a rare honest hand is not missed for lack of samples
DEALS = 2

#: the estimated truth below which it tests a claim that, let stand, ends the deal or the
#: match (see GenericBot._doubt_level)
STAKES_DOUBT = 0.5

#: with no honest claim to make, the bot lies anyway once it passed instead this many times
#: in the deal (see GenericBot.choose)
STUCK = 30

#: claims of this many cards or more are one class when the bot learns how often claims of
#: each size are true (see GenericBot._calibrated)
SIZES = 3

#: with no honest claim to make, the bot lies rather than take an action that makes no
#: claim (pass, draw) when fewer than this share of the claims get tested; its prior belief
#: in that share is PRIOR_CALLED (see GenericBot._called)
CALLED = 0.35
PRIOR_CALLED = 0.5


class _Record:
    """What a seat learnt of the others' honesty from its public history: for each
    claimant, (claims seen revealed, of them true). A claim about its cards (see
    :class:`_Analysis`) is judged when the cards laid with it are revealed before another
    claim is made: the revealed cards, laid as claimed cards on the zone they were
    revealed in, make the claim true or not. The history is read once, event by event,
    as it grows."""

    def __init__(self):
        self.read = 0             # events of the history read so far
        self.first = None         # the first event read (a new match starts another history)
        self.last = None          # the claim event standing, not yet judged
        self.seen: dict = {}      # seat -> (told, true)
        self.base = None          # a state that agrees with the view (made when first needed)
        self.held: dict = {}      # zone instance -> [cards seen going in, not seen leaving], oldest first
        self.heard: list = []     # (claim, values, seat) of the claims without cards made this deal
        self.shown = None         # (zone instance, cards) of the last reveal, until they move on
        self.sizes: dict = {}     # claimed cards (SIZES or more as SIZES) -> (claims seen revealed, of them true)
        self.claims = 0           # claims heard in the match
        self.called = 0           # of them, put to the test
        self.open = False         # whether the last claim heard has not been tested yet
        self.unions: dict = {}    # looks at one zone -> their multiset_union (see union)

    def update(self, bot: "GenericBot", view: View) -> dict:
        history = view.history
        if len(history) < self.read or (self.read and history[0] is not self.first):
            self.__init__()
        if len(history) == self.read:
            return self.seen
        about = bot.analysis.about_cards
        for i in range(self.read, len(history)):
            event = history[i]
            kind, data = event.kind, event.data
            if kind == "deal_start":
                self.heard, self.last, self.shown = [], None, None
                self.held.clear()
            elif kind == "claim":
                self.claims += 1
                self.open = True
                if data["claim"] in about:
                    self.last = data
                else:
                    self.heard.append((data["claim"], data["args"], data["seat"]))
                    self.last = None
            elif kind == "shuffle":
                self.held.pop(data.get("zone"), None)
            elif kind == "action" and self.open and data.get("action") in bot.analysis.test_names:
                self.called += 1              # the standing claim was put to the test
                self.open = False
            elif kind == "reveal":
                groups = data.get("groups") or ()
                self.shown = groups[0] if len(groups) == 1 else None
                if self.last is not None:
                    # the claimant's revealed play was seen leaving his zones
                    claimant = self.last["seat"]
                    for slot, zone in enumerate(view.zones):
                        if zone[1] == claimant and slot in self.held:
                            _forget(self.held[slot], data.get("cards", ()))
                    holds = self._judge(bot, view, self.last, data)
                    if holds is not None:
                        seat = self.last["seat"]
                        told, true = self.seen.get(seat, (0, 0))
                        self.seen[seat] = (told + 1, true + holds)
                        size = min(len(groups[0][1]), SIZES)
                        told, true = self.sizes.get(size, (0, 0))
                        self.sizes[size] = (told + 1, true + holds)
                    self.last = None
            elif kind == "move" and self.shown is not None:
                # the revealed cards moved on together (a caller takes the revealed play)
                slot, cards = self.shown
                if list(data.get("from") or ()) == [slot] and len(data.get("cards", ())) == len(cards):
                    to = data.get("to", -1)
                    if to >= 0:
                        self.held.setdefault(to, []).extend(cards)
                self.shown = None
        self.first = history[0] if len(history) else None
        self.read = len(history)
        return self.seen

    def union(self, looks: list) -> tuple:
        """:func:`multiset_union` of ``looks``, kept for the looks asked of again (the same
        facts stand in the view from one decision to the next)."""
        key = tuple(looks)
        got = self.unions.get(key)
        if got is None:
            if len(self.unions) > 1024:
                self.unions.clear()
            got = self.unions[key] = multiset_union(looks)
        return got

    def remember(self, view: View) -> None:
        """Keep what ``view.known`` says of the zones this seat cannot see: the engine
        forgets a hand's known cards once its owner plays any card from it face down,
        but a person at the table remembers the cards he saw going in until he sees them
        leave (see :meth:`GenericBot._belief`)."""
        slots = None
        for name, owner, cards in view.known:
            if owner is None or owner == view.seat:
                continue
            if slots is None:
                slots = {}
                for i, z in enumerate(view.zones):
                    slots.setdefault((z[0], z[1]), i)
            slot = slots.get((name, owner))
            # a hand: a zone of another seat, of known size, it cannot see
            if slot is not None and view.zones[slot][3] is None and view.zones[slot][2] is not None:
                held = self.held.setdefault(slot, [])
                if not held:
                    held.extend(multiset_union((cards,)))
                    continue
                have = Counter(held)
                for kind, k in Counter(cards).items():
                    held.extend([kind] * max(0, k - have[kind]))

    def _judge(self, bot: "GenericBot", view: View, claim: dict, reveal: dict) -> bool | None:
        """Whether the claim ``claim`` (a claim event's data) held of the cards of
        ``reveal`` (a reveal event's data): None when they were revealed from several zones."""
        groups = reveal.get("groups") or ()
        if len(groups) != 1 or not groups[0][1]:
            return None
        slot, cards = groups[0]
        engine = bot.engine
        if self.base is None:
            try:
                self.base = view_state(engine, view)
            except ValueError:
                return None
        base = self.base
        if slot >= len(base.zones):
            return None
        zones = list(base.zones)
        zones[slot] = tuple(cards)
        index = engine.cg.claims[claim["claim"]].index
        state = base._replace(zones=tuple(zones), claim=(index, tuple(claim["args"]), claim["seat"]),
                              claimed=(slot, len(cards)))
        try:
            return bool(engine.claim_holds_in(state))
        except Exception:
            return None


class _Freed(list):
    """Sampled states with no claim standing (a choice too small to beat the standing claim
    is tried as if none stood, so that it can grow into one that does), and, as
    ``standing``, the same states as they are: where the rules check the claim stands
    (``require claim stands or …``), a choice refused with none standing is tried there."""

    def __init__(self, states):
        super().__init__(s._replace(claim=None, claimed=None) for s in states)
        self.standing = list(states)


def _forget(held: list, cards) -> None:
    """Take ``cards`` out of the list ``held``, the latest of each kind first."""
    for kind in cards:
        for i in range(len(held) - 1, -1, -1):
            if held[i] == kind:
                del held[i]
                break


class GenericBot:
    """See the module docstring. ``samples`` states are drawn per estimate."""

    uses_history = True
    uses_texts = False      # it never reads option labels or value names

    def __init__(self, engine: Engine, rng: random.Random, samples: int = 10, bluff: float = 0.15,
                 doubt: float = 0.4, curiosity: float = 0.15, trust: float = 0.8):
        self.engine = engine
        self.rng = rng
        self.samples = samples
        self.bluff = bluff
        self.doubt = doubt
        self.curiosity = curiosity
        self.trust = trust
        self.analysis = _analysis(engine)
        self._kinds_holding: dict = {}       # see _honest_share
        self._record = _Record()             # see _trust
        self._avoided: dict = {}             # deal -> lies avoided in it since the last forced one (see STUCK)
        self._wild = frozenset(i for i, k in enumerate(engine.kinds) if "wild" in k.flags)
        self._last_sampler = None            # (view, its sampler), see _sampler
        self._ranks: dict = {}               # (claim, values) -> its place in the claim's order (see _by_rank)

    # -- estimates
    def _states(self, view: View, count: int | None = None):
        """``count`` (default ``samples``) states sampled from ``view``."""
        draw = self._sampler(view)
        return [draw(self.rng) for _ in range(self.samples if count is None else count)]

    def _sampler(self, view: View):
        """A sampler of states agreeing with ``view`` and with what this seat remembers
        (:meth:`_belief`); the view's own when the memory no longer fits. Made once per
        view (a decision asks for it more than once)."""
        last = self._last_sampler
        if last is not None and last[0] is view:
            return last[1]
        belief = self._belief(view)
        draw = None
        if belief is not view:
            try:
                draw = sampler(self.engine, belief)
            except ValueError:
                pass
        if draw is None:
            draw = sampler(self.engine, view)
        self._last_sampler = (view, draw)
        return draw

    def _belief(self, view: View) -> View:
        """``view`` with the cards it remembers seeing go into a hidden zone and not seen
        leave it added to ``known`` (as many as the zone still holds): they are probably
        still there (a caller who took a revealed play into his hand still holds it)."""
        record = self._record
        record.update(self, view)
        record.remember(view)
        if not record.held:
            return view
        extra = []
        looks: dict | None = None
        for slot, cards in list(record.held.items()):
            name, owner, count, shown = view.zones[slot]
            if count == 0:
                del record.held[slot]          # emptied: every card it held has left
                continue
            if owner is None or owner == view.seat or shown is not None or count is None:
                continue                       # only the hands of others it cannot see
            if looks is None:       # what the view knows, by zone
                looks = {}
                for fact in view.known:
                    looks.setdefault((fact[0], fact[1]), []).append(fact[2])
            seen = looks.get((name, owner))
            certain = record.union(seen) if seen else ()
            room = count - len(certain)
            more = []
            skip = Counter(certain)
            for kind in reversed(cards):         # the cards seen going in last first
                if len(more) >= room:
                    break
                if skip[kind] > 0:
                    skip[kind] -= 1
                else:
                    more.append(kind)
            if more:
                extra.append((name, owner, tuple(sorted(certain)) + tuple(more)))
        if not extra:
            return view
        known = tuple(view.known) + tuple(extra)
        return attrs.evolve(view, known=tuple(known))

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
        draw = self._sampler(view)
        if name in self.analysis.about_cards and slot >= 0 and count > 0:
            # only the claimed cards and the claimant's hand matter
            could = self._could_claim(view, draw, slot, count, hand_slots)
            if could is not None:
                return self._calibrated(self._honest_posterior(name, could, self._trust(view, claimant)), could, count)
        states = [draw(self.rng) for _ in range(self.samples)]
        if name not in self.analysis.about_cards or slot < 0 or count == 0:
            heard = self._heard(view)
            if not heard:
                return sum(self.engine.claim_holds_in(s) for s in states) / len(states)
            heard = heard[-HEARD:]
            trusts = {seat: self._trust(view, seat) for _, _, seat in heard}
            would = self.engine.claims_would_hold
            weight = total = 0.0
            for s in states:
                w = 1.0
                for (_, _, seat), true in zip(heard, would(s, heard)):
                    trust = trusts[seat]
                    w *= trust if true else 1 - trust
                total += w
                weight += w * self.engine.claim_holds_in(s)
            return weight / total if total else 0.0
        good = self._kind_holds(view, slot, count)
        could = self._honest_share([s.zones for s in states], slot, count, hand_slots, good)
        return self._calibrated(self._honest_posterior(name, could, self._trust(view, claimant)), could, count)

    def _calibrated(self, p: float, could: float, count: int) -> float:
        """The model's chance ``p`` that a claim of ``count`` cards is true, corrected by
        how often the claims of that many cards seen revealed in this match were true (the
        model's answer worth ``PRIOR_CLAIMS`` of them): the model knows which cards could
        be there, the record how the seats choose how many to lay. A claim the cards make
        impossible (``could`` 0) stays impossible."""
        if could <= 0:
            return 0.0
        told, true = self._record.sizes.get(min(count, SIZES), (0, 0))
        return (p * PRIOR_CLAIMS + true) / (PRIOR_CLAIMS + told)

    def _honest_posterior(self, claim: str, could: float, trust: float) -> float:
        """The chance that a claim about cards is true, given the chance ``could`` that the
        claimant's hand allowed an honest one and ``trust``. The model of his play: with an
        honest choice he claims, honestly with chance ``trust``; without one, he claims
        anyway (a bluff) with chance 1 - ``trust`` when the rules gave him something else
        to do (pass, draw), and always when they did not. So a claim he was free not to
        make is more likely honest than the cards alone say."""
        if claim in self.analysis.optional:
            made = could + (1 - could) * (1 - trust)
            return could * trust / made if made > 0 else 0.0
        return could * trust

    def _called(self, view: View) -> float:
        """The share of claims that get put to the test, from the claims heard in this match
        (a prior worth ``PRIOR_CLAIMS`` claims at ``PRIOR_CALLED``)."""
        record = self._record
        record.update(self, view)
        return (PRIOR_CALLED * PRIOR_CLAIMS + record.called) / (PRIOR_CLAIMS + record.claims)

    def _trust(self, view: View, seat: int) -> float:
        """The chance that ``seat`` tells the truth when it could: ``trust`` at first, then
        learnt from its claims it saw revealed in this match (a beta prior worth
        ``PRIOR_CLAIMS`` claims; see :class:`_Record`)."""
        told, true = self._record.update(self, view).get(seat, (0, 0))
        return (self.trust * PRIOR_CLAIMS + true) / (PRIOR_CLAIMS + told)

    def _could_claim(self, view: View, draw, slot: int, count: int, hand_slots: list) -> float | None:
        """The share of ``samples`` × ``DEALS`` deals of the claimed cards (``count`` on top
        of zone ``slot``) and the claimant's zones ``hand_slots`` in which those held
        enough cards to make the standing claim honestly (so that a rare honest hand is not
        missed for lack of samples); None when they cannot be dealt alone. Where the
        sampler works out the chance of such a deal (``chance_at_least``) each deal's
        outcome is drawn from it (the same law as dealing the cards, at a fraction of the
        cost); the estimate keeps its sampling noise, which makes the bot's tests of
        likely claims a mixed strategy, harder to exploit."""
        good = self._kind_holds(view, slot, count)
        slots, tops = [slot] + hand_slots, {slot: count}
        deals = self.samples * DEALS

        def could(draw) -> float | None:
            chance = draw.chance_at_least(slots, tops, good, count)
            if chance is not None:
                draw_one = self.rng.random
                return sum(draw_one() < chance for _ in range(deals)) / deals
            dealt = [draw.zones(self.rng, slots, tops) for _ in range(deals)]
            return None if any(d is None for d in dealt) else self._honest_share(dealt, slot, count, hand_slots, good)
        try:
            return could(draw)
        except ValueError:
            # what it remembers of the claimant's hand does not fit the claimed cards on
            # top of the pile (he may have played the remembered cards): forget it
            return could(sampler(self.engine, view))

    def _kind_holds(self, view: View, slot: int, count: int) -> Callable[[int], bool]:
        """``good(kind)``: whether the standing claim would hold if its ``count`` claimed
        cards, on top of zone ``slot``, were all of ``kind``."""
        # the claim reads only the claimed cards: whether it holds of `count` cards of one
        # kind is the same in every deal, so it is asked once per kind (of any state that
        # agrees with the view)
        # what decides it besides the kind: the claim (name, values, claimant), where the
        # claimed cards lie and how many, and the counters, seats, groups and knock-outs
        # the claim may read; kept from one decision to the next (a claim is heard again
        # and again). A claim about the cards alone needs only its name and values, where
        # and how many: kept for every bot of the rules
        if view.claim[0] in self.analysis.cards_alone:
            key = (view.claim[:2], view.players, slot, count)
            kept = self.analysis.kinds_holding
        else:
            key = (view.claim[:3], slot, count, view.counters, view.seats, view.groups, view.out)
            kept = self._kinds_holding
        holds = kept.get(key)
        if holds is None:
            if len(kept) > 4096:
                kept.clear()
            holds = kept[key] = {}
        base = None

        def good(kind: int) -> bool:
            nonlocal base
            ok = holds.get(kind)
            if ok is None:
                if base is None:
                    base = view_state(self.engine, view)
                ok = holds[kind] = self._single_holds(base, slot, count, kind)
            return ok
        return good

    def _honest_share(self, dealt: list, slot: int, count: int, hand_slots: list, good: Callable) -> float:
        """The share of the deals (each zones by slot) in which the claimant's hand, with
        the ``count`` claimed cards on top of zone ``slot``, held at least ``count`` cards
        ``good`` accepts (see :meth:`_kind_holds`): enough to make the claim honestly."""
        possible = 0
        for zones in dealt:
            top = zones[slot]
            held = sum(map(good, top[len(top) - count:]))
            for i in hand_slots:
                held += sum(map(good, zones[i]))
            possible += held >= count
        return possible / len(dealt)

    def _heard(self, view: View) -> list:
        """The claims without cards that other seats made earlier in this deal, from the
        public history, as (claim name, values, seat); the standing claim left out."""
        self._record.update(self, view)
        heard = list(self._record.heard)
        if heard and view.claim is not None and heard[-1] == view.claim[:3]:
            heard.pop()
        return [h for h in heard if h[2] != view.seat]

    def _single_holds(self, state, slot: int, count: int, kind: int) -> bool:
        """Whether the standing claim would hold if every claimed card were of ``kind``."""
        zones = list(state.zones)
        zone = zones[slot]
        zones[slot] = zone[:len(zone) - count] + (kind,) * count
        return self.engine.claim_holds_in(state, tuple(zones))

    def _p_after(self, states, action: Action, refused: float | None = 0.0) -> float | None:
        """Chance that the claim made by ``action`` is true, over sampled states. A claim
        the action resolves at once (it is gone when the action ends: the highest bid is
        checked on the spot) is judged by what it said, in the state before the action,
        not counted as true; an action that makes no claim counts as true. ``refused``:
        what an action a state refuses gives (0, as a claim never made)."""
        hits = 0
        engine = self.engine
        for s in states:
            try:
                nxt = engine.effects(s, action, self.rng)
            except Exception:
                return refused
            if not nxt.is_terminal and nxt.claim is not None:
                hits += engine.claim_holds_in(nxt)
                continue
            made = None
            try:
                _, events = engine.apply(s, action, random.Random(0), False, True)
            except Exception:
                events = ()
            for event in events:
                if event.kind == "claim":
                    made = event.data
            if made is None or made["claim"] in self.analysis.about_cards:
                hits += 1
            else:
                hits += engine.claim_would_hold(s, made["claim"], made["args"], made["seat"])
        return hits / len(states)

    def _p_fulfil(self, states, action: Action) -> float:
        """Chance that the claim made by ``action`` is carried out, in a game whose rules
        never test a claim but make the claimant carry it out: over play-outs from the
        sampled states in which the other seats make no claim of their own (they pass) and
        this seat plays at random, the share in which its ``winners`` keys are better when
        the claim is gone (or it won the match) than before. An illegal action scores 0."""
        engine, rng = self.engine, self.rng
        hits = 0
        claims = self.analysis.claims
        quiet = (False,) * (states[0].n if states else 0)
        for state in states:
            seat = engine.decider(state)
            try:
                live = engine.working_copy(state, knowledge=False)      # no view is made of it
                engine.apply_in_place(live, action, rng)
                step = random_stepper(engine, live, rng)
                for _ in range(PLAYOUT_DECISIONS):
                    if live.phase < 0 or live.claim is None:
                        break
                    who, phase, options = engine.decide_in_place(live, quiet)
                    if who != seat:
                        options = tuple([o for o in options if (phase.name, o.name) not in claims]) or options
                    step(options)
                s = engine.snapshot(live)
            except IllegalAction:
                return 0.0
            except Exception:
                continue
            if s.is_terminal:
                hits += seat in s.winners
            elif s.claim is None:
                hits += self._standing(s, seat) > self._standing(state, seat)
        return hits / len(states)

    def _standing(self, state, seat: int) -> tuple:
        """``seat``'s ``winners`` keys, each signed so that larger is better."""
        engine = self.engine
        return tuple([v if highest else -v for (highest, _), v in zip(engine.cg.rank_keys, engine.standing(state, seat))])

    # -- decisions
    def choose(self, view: View, decision: Decision) -> Action:
        if decision.rejected is not None:     # its check misjudged: let the match judge random choices
            return unchecked_choice(decision, self.rng)
        if decision.kind == "vote":
            return self._vote(view, decision)
        phase = decision.phase
        analysis = self.analysis
        if not analysis.claims:
            return self._by_returns(view, decision)
        options = [o for o in decision.options if o.name != DECLINE_ACTION.name]
        mine = view.claim is not None and view.claim[2] == view.seat
        defends = [o for o in options if (phase, o.name) in analysis.defends]
        if mine:
            # its own claim put to the test: defend it when it holds (show the card)
            for option in defends:
                action = self._legal_choice(decision, option)
                if action is not None:
                    return action
        testing = [o for o in options if (phase, o.name) in analysis.tests and o not in defends]
        if testing and view.claim is not None and not mine:
            p = self.p_claim(view)
            if p is not None and p < self._doubt_level(view, decision):
                return random_legal(decision, self.rng, testing)
        rest = [o for o in options if o not in testing and o not in defends]
        claiming = [o for o in rest if (phase, o.name) in analysis.claims]
        plain = [o for o in rest if o not in claiming]
        if decision.kind in ("first", "each"):
            if claiming:
                # a claim offered in a window (a block): made when honest, now and then as a bluff
                honest = self._honest(view, decision, claiming)
                if honest is not None:
                    return honest
                if self.rng.random() < self.bluff / 2:
                    return self._small_bluff(decision, claiming)
            # optional actions (such as looking at cards) now and then, not when it already knows some
            if plain and not self._knows_a_hand(view) and self.rng.random() < self.curiosity:
                return random_legal(decision, self.rng, plain)
            return DECLINE_ACTION
        if claiming:
            return self._claim_on_turn(view, decision, claiming, plain)
        if testing and not plain:
            return random_legal(decision, self.rng, testing)
        return random_legal(decision, self.rng, plain or options)

    def _claim_on_turn(self, view: View, decision: Decision, claiming: list, plain: list) -> Action:
        """The choice of a turn that offers the options ``claiming`` (that make a claim) and
        ``plain`` (that make none, not testing one): an honest claim, now and then padded
        with a bluff, else a pass or a lie."""
        bluffing = self.rng.random() < self.bluff
        honest = self._honest(view, decision, claiming, 0.25 if bluffing else 0.6)
        padded = None
        if honest is not None and bluffing and honest.cards is not None and honest.cards:
            padded = self._pad(decision, claiming, honest) or self._misnamed(view, decision, claiming, honest)
            if padded is not None and not self._decisive(view, padded):
                honest = padded
            else:
                padded = None
        if honest is not None and padded is None and honest.cards:
            honest = self._keeping_the_truth(view, decision, claiming, honest) or honest
        if honest is not None:
            return honest
        # with no honest claim it passes rather than lie when claims are often tested (a
        # commitment nobody tests it never fakes: the rules punish one not carried out),
        # or when the lie would end the deal if let stand (the lie everybody tests); but
        # every STUCK passes in a deal it lies anyway (a card that no honest play can
        # ever shed must go some day)
        lie = None
        if plain:
            avoided = self._avoided.get(view.deal, 0) + 1
            if avoided < STUCK:
                if not bluffing and (self.analysis.commitments or self._called(view) >= CALLED):
                    self._avoided = {view.deal: avoided}
                    return random_legal(decision, self.rng, plain)
                lie = self._small_bluff(decision, claiming)
                if self._decisive(view, lie):
                    self._avoided = {view.deal: avoided}
                    return random_legal(decision, self.rng, plain)
            else:
                self._avoided = {view.deal: 0}
        return lie or self._small_bluff(decision, claiming)

    def _by_returns(self, view: View, decision: Decision, rollouts: int = ROLLOUTS) -> Action:
        """In a game that declares no claim (a betting game): each candidate action (one
        legal choice per option, a window's decline among them; in a vote, up to
        ``VALUE_CHOICES`` choices of the cards to play) valued by its mean return
        for this seat over ``rollouts`` play-outs, each from a state sampled from the view
        with every later decision taken at random, up to ``ROLLOUT_DECISIONS`` decisions
        (a play-out cut there scores 0); an action by which its actor drops out (a fold)
        only when nothing else is offered. In a match of several deals a play-out stops at
        the end of the deal it starts in, valued by :meth:`_worth`: a random play-out of
        the deals after it would tell the actions apart by chance alone."""
        candidates = []
        for option in decision.options:
            if option.name == DECLINE_ACTION.name:
                choices = [DECLINE_ACTION]
            elif option.cards is None and option.params:
                choices = self._value_choices(decision, option)
            elif option.cards is not None and decision.kind == "vote":
                choices = self._card_choices(decision, option)
            else:
                choices = [self._legal_choice(decision, option)]
            for action in choices:
                if action is not None and action not in candidates:
                    candidates.append(action)
        if len(candidates) < 2:
            return candidates[0] if candidates else random_legal(decision, self.rng)
        engine, rng, seat = self.engine, self.rng, view.seat
        draw = self._sampler(view)
        best = None
        quiet = (False,) * view.players
        several, deal = self.analysis.several_deals, view.deal
        leaving = self.analysis.leaving
        for action in candidates:
            total = 0.0
            for _ in range(rollouts):
                live = engine.working_copy(draw(rng), knowledge=False)     # no view is made of it
                step = random_stepper(engine, live, rng)
                try:
                    engine.apply_in_place(live, action, rng)
                    for _ in range(ROLLOUT_DECISIONS):
                        if live.phase < 0 or several and live.deal != deal:
                            break
                        _, phase, options = engine.decide_in_place(live, quiet)
                        if leaving:
                            options = tuple(o for o in options if (phase.index, o.name) not in leaving) or options
                        step(options)
                    if live.phase < 0 or several and live.deal != deal:
                        total += self._worth(engine.snapshot(live), seat)
                except Exception:        # a sampled state the action does not fit: no value
                    pass
            if best is None or total > best[0]:
                best = (total, action)
        return best[1]

    def _value_choices(self, decision: Decision, option) -> list:
        """The legal choices of values of ``option`` (no cards) to weigh against each other:
        every one where they are few (``VALUE_CHOICES`` at most: whom to accuse, how much to
        bet), else that many drawn at random."""
        combos = 1
        for _, values in option.params:
            combos *= len(values)
        if combos <= VALUE_CHOICES:
            found = [Action(option.name, (), values) for values in itertools.product(*(v for _, v in option.params))]
            return [a for a in found if _legal(decision, option, a)]
        return [self._legal_choice(decision, option) for _ in range(VALUE_CHOICES)]

    def _card_choices(self, decision: Decision, option) -> list:
        """Legal choices of cards of ``option`` to weigh against each other (the card to
        play in a vote): up to ``VALUE_CHOICES`` different ones, drawn at random."""
        found: list = []
        for _ in range(4 * VALUE_CHOICES):
            action = random_concrete(option, self.rng)
            if action not in found and _legal(decision, option, action):
                found.append(action)
                if len(found) == VALUE_CHOICES:
                    break
        return found

    def _worth(self, state, seat: int) -> float:
        """What the end of a play-out (``state``: the match over, or in a match of several
        deals a deal over) is worth to ``seat``: its return (:meth:`Engine.returns_now`, the
        return it would get if the match ended there); but where the file ranks the seats by
        keys and declares no ``returns`` (a win is then +1 or -1 however close), in a match
        of several deals, how far its keys stand from the seats' mean, each signed so that
        larger is better (its chips or points against the table's)."""
        engine = self.engine
        if not self.analysis.by_keys:
            return engine.returns_now(state)[seat]
        rows = [self._standing(state, s) for s in range(state.n)]
        return sum(mine - sum(row[k] for row in rows) / state.n for k, mine in enumerate(rows[seat]))

    def _legal_choice(self, decision: Decision, option) -> Action | None:
        """A legal choice of ``option``, or None when it has none (a few random tries)."""
        for _ in range(8):
            action = random_concrete(option, self.rng)
            if _legal(decision, option, action):
                return action
        return None

    def _doubt_level(self, view: View, decision: Decision) -> float:
        """The estimated truth below which it tests the standing claim: ``doubt``, or
        ``STAKES_DOUBT`` when letting the claim stand would end the deal or the match."""
        if decision.kind not in ("first", "each") or not any(o.name == DECLINE_ACTION.name for o in decision.options):
            return self.doubt
        if self._ends_if_let_stand(self._states(view, 1)[0]):
            return max(self.doubt, STAKES_DOUBT)
        return self.doubt

    def _decisive(self, view: View, action: Action) -> bool:
        """Whether ``action``, let stand by every seat, would end the deal or the match (in
        a state sampled from ``view``)."""
        try:
            after, _ = self.engine.apply(self._states(view, 1)[0], action, self.rng, False, False)
        except Exception:
            return False
        return after.is_terminal or after.deal != view.deal or self._ends_if_let_stand(after)

    def _ends_if_let_stand(self, state) -> bool:
        """Whether, in ``state`` (a window about the standing claim), the deal or the match
        ends when every seat asked declines."""
        engine = self.engine
        phase, deal = state.phase, state.deal
        try:
            for _ in range(state.n + 1):
                if state.is_terminal or engine.decision(state, False).kind not in ("first", "each"):
                    return False
                state, _ = engine.apply(state, DECLINE_ACTION, self.rng, False, False)
                if state.is_terminal or state.deal != deal:
                    return True
                if state.phase != phase:
                    return False
        except Exception:
            pass
        return False

    def _knows_a_hand(self, view: View) -> bool:
        """Whether it knows a card of another seat's private zone (a hand): then looking
        at more cards is worth less."""
        private = self.analysis.private_zones
        return any(owner is not None and owner != view.seat and name in private for name, owner, _ in view.known)

    def _keeping_the_truth(self, view: View, decision: Decision, options, honest: Action) -> Action | None:
        """A lie instead of the ``honest`` play when that play would leave only cards that
        can never make a claim true (every claim of the game always says the same, and none
        holds of them): then the hand's last claim, the one every seat tests, would be a
        lie. It lays as many of those cards as the honest play would: a claim now is tested
        at most as often as that last one, and the cards that back a claim are kept for the
        end. None when a claim has arguments (its words change: any card may back it some
        day), a card left would back a claim, or the play or the lie would end the deal if
        let stand."""
        engine = self.engine
        claims = engine.cg.claim_list
        if any(c.params for c in claims):
            return None
        option = next(o for o in options if o.name == honest.name)
        spare = list(option.cards)
        for k in honest.cards:
            spare.remove(k)
        if len(spare) < len(honest.cards):
            return None
        try:
            after = engine.effects(self._states(view, 1)[0], honest, self.rng)
        except Exception:
            return None
        if after.is_terminal or after.claim is None or after.claimed is None:
            return None
        slot, count = after.claimed
        try:
            for kind in set(spare):
                for c in claims:
                    if self._single_holds(after._replace(claim=(c.index, (), view.seat)), slot, count, kind):
                        return None   # a card left backs a claim: the honest play keeps a truth
        except Exception:             # a claim that cannot be read of one card: keep the honest play
            return None
        lie = Action(honest.name, tuple(sorted(self.rng.sample(spare, len(honest.cards)))), honest.params)
        if not _legal(decision, option, lie) or self._decisive(view, honest) or self._decisive(view, lie):
            return None
        return lie

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

    def _misnamed(self, view: View, decision: Decision, options, honest: Action) -> Action | None:
        """A bluff where no card can be added (one card passed on its own): the honest
        choice of cards with another value of a choice the claim reads, one those cards do
        not back (the card called something it is not); None if no such value is legal (a
        few random tries)."""
        option = next(o for o in options if o.name == honest.name)
        loose = self._loose(decision, option)
        places = [i for i, (name, values) in enumerate(option.params) if name not in loose and len(values) > 1]
        if not places:
            return None
        free = _Freed(self._states(view, 1))
        for _ in range(8):
            i = self.rng.choice(places)
            values = list(honest.params)
            values[i] = self.rng.choice([v for v in option.params[i][1] if v != honest.params[i]])
            lie = Action(honest.name, honest.cards, tuple(values))
            if _legal(decision, option, lie) and \
                    not self._truth_of_cards(free, decision, option, lie.params)(honest.cards):
                return lie
        return None

    def _small_bluff(self, decision: Decision, options) -> Action:
        """A lie that is not absurd: as few cards as allowed, the lowest values that are
        legal (a seat the claim does not read at random, see :meth:`_domains`)."""
        for option in options:
            sizes = [0] if option.cards is None else range(max(1, option.low), len(option.cards) + 1)
            if option.high is not None and option.cards is not None:
                sizes = [s for s in sizes if s <= option.high]
            for size in sizes:
                cards = () if option.cards is None else tuple(sorted(self.rng.sample(option.cards, size)))
                for values in itertools.islice(itertools.product(*self._domains(decision, option)), 400):
                    action = Action(option.name, cards, tuple(values))
                    if _legal(decision, option, action):
                        return action
        return random_legal(decision, self.rng, options)

    def _honest(self, view: View, decision: Decision, options, threshold: float = 0.6) -> Action | None:
        local = all(c.name in self.analysis.about_cards for c in self.engine.game.claims)
        states = self._states(view, 1 if local else max(1, self.samples // 2))
        best: tuple | None = None
        free = None
        for option in options:
            loose = self._loose(decision, option)
            combos = list(itertools.islice(itertools.product(*self._domains(decision, option)), 60))
            if option.cards is None:
                # the lowest claim (in the claim's declared order) that is likely enough
                judge, bar = self._p_after, threshold
                falling = self._falling(decision, option)
                if self.analysis.commitments:
                    judge, bar, falling = self._p_fulfil, COMMIT, ()
                unlikely: dict = {}       # (value place, the other values): the least value found unlikely
                for action in self._by_rank(states[0], decision, option, combos):
                    values = action.params
                    if any(values[i] >= unlikely.get((i, values[:i] + values[i + 1:]), values[i] + 1)
                           for i in falling):
                        continue          # a higher value of a claim found unlikely with a lower one
                    if _legal(decision, option, action):
                        if judge(states, action) >= bar:
                            return action
                        for i in falling:
                            key = (i, values[:i] + values[i + 1:])
                            if values[i] < unlikely.get(key, values[i] + 1):
                                unlikely[key] = values[i]
                continue
            # the most cards, then the lowest values: each choice of values is grown only
            # while the cards that fit it could beat the best found so far
            if free is None:
                free = _Freed(states)
            top = len(option.cards) if option.high is None else min(option.high, len(option.cards))
            bounds = []
            shared: dict = {}         # the action's runs, by number of cards (see _truth_of_cards)
            for i, values in enumerate(combos):
                values = tuple(values)
                holds, pool = self._fitting(free, decision, option, values, shared)
                if min(top, len(pool)) >= max(1, option.low):
                    low = -sum(v for (name, _), v in zip(option.params, values) if name not in loose)
                    bounds.append(((min(top, len(pool)), low), i, values, holds, pool))
            bounds.sort(key=lambda b: (b[0][0], b[0][1], -b[1]), reverse=True)
            for bound, i, values, holds, pool in bounds:
                if best is not None and (bound < best[0] or bound == best[0] and i > best[1]):
                    break
                cards = self._grow(states, decision, option, values, holds, pool)
                if cards:
                    key = (len(cards), bound[1])
                    if best is None or key > best[0] or key == best[0] and i < best[1]:
                        best = (key, i, Action(option.name, cards, values))
        return best[2] if best else None

    def _loose(self, decision: Decision, option) -> frozenset:
        """The names of the choices of ``option`` its claim does not read (see
        ``_Analysis.unclaimed``)."""
        return self.analysis.unclaimed.get((decision.phase, option.name), frozenset())

    def _domains(self, decision: Decision, option) -> list:
        """The values of each choice of ``option``, those of the choices its claim does not
        read (:meth:`_loose`: a seat to pass the cards to) shuffled, so that the first
        likely claim found takes any of them, not always the lowest (a bias that would show
        in a simulation's seats)."""
        loose = self._loose(decision, option)
        if not loose:
            return [values for _, values in option.params]
        return [self.rng.sample(list(values), len(values)) if name in loose else values
                for name, values in option.params]

    def _falling(self, decision: Decision, option) -> tuple:
        """The places of ``option``'s values whose growth only makes the claim it makes less
        likely (see ``_Analysis.falling``): once a value is found unlikely, the same choice
        with a higher value there is skipped, as unlikely (numbers only)."""
        names = self.analysis.falling.get((decision.phase, option.name))
        if not names:
            return ()
        places = [i for i, (name, domain) in enumerate(option.params)
                  if name in names and all(type(v) is int for v in domain)]
        return tuple(places)

    def _by_rank(self, state, decision: Decision, option, combos) -> list:
        """The legal actions of a cardless option, lowest resulting claim first (an option
        whose claim is ranked by its chosen values alone: its choices in that order, legal
        or not; :meth:`_p_after` finds an illegal one unlikely)."""
        direct = self.analysis.ranked_by_values.get((decision.phase, option.name))
        names = [name for name, _ in option.params]
        if direct is not None and not all(a in names for a in direct[1]):
            direct = None
        ranks = self._ranks
        if len(ranks) > 65536:
            ranks.clear()
        ranked = []
        if direct is not None:
            claim, picks = direct[0], [names.index(a) for a in direct[1]]
        for i, values in enumerate(combos):
            action = Action(option.name, (), tuple(values))
            if direct is not None:
                key = (claim, tuple([values[j] for j in picks]))
                rank = ranks.get(key, ranks)
                if rank is ranks:
                    rank = ranks[key] = self.engine.claim_order(state, *key)
            else:
                if option.exact and option_reason(option, action) is not None:
                    continue
                try:     # running it checks it: an illegal choice raises (in the sampled state)
                    rank = self.engine.claim_rank(self.engine.effects(state, action, self.rng))
                except IllegalAction:
                    continue
                except Exception:
                    rank = None
            ranked.append(((0, rank, i) if rank is not None else (1, 0, i), action))
        try:
            ranked.sort(key=lambda r: r[0])
        except TypeError:         # ranks of different claims do not compare: keep the listed order
            ranked.sort(key=lambda r: r[0][2])
        return [a for _, a in ranked]

    def _fitting(self, free, decision: Decision, option, values, shared: dict | None = None) -> tuple:
        """(``holds``, the cards of ``option`` whose kind keeps the claim with ``values`` true
        on its own, wild cards last): a larger choice is made of them (see :meth:`_grow`).
        ``holds`` tests a choice of cards over the states ``free`` (no claim standing; see
        :meth:`_truth_of_cards`)."""
        holds = self._truth_of_cards(free, decision, option, values, shared)
        fits = {k for k in set(option.cards) if holds((k,))}
        wild = self._wild
        # wild cards last: kept for a play they finish (they fit any later claim)
        return holds, sorted((k for k in option.cards if k in fits), key=lambda k: (k in wild, k))

    def _grow(self, states, decision: Decision, option, values, holds, pool) -> tuple:
        """The largest legal choice of cards that keeps the claim true, grown greedily
        (lowest kinds first) from ``pool`` with ``holds`` (see :meth:`_fitting`). The truth
        of a choice is tested as if no claim stood, so that a choice too small to beat the
        standing claim still grows into one that does (an offer must hold more cards than
        the last one)."""
        name = option.name
        top = len(option.cards) if option.high is None else min(option.high, len(option.cards))
        wild = self._wild
        pool = list(pool)
        blind = (decision.phase, name) in self.analysis.kind_blind
        chosen: list = []
        good: list = []           # the choices that keep the claim true where it stands, smallest first
        while pool and len(chosen) < top:
            for kind in sorted(set(pool), key=lambda k: (k in wild, k)):
                trial = tuple(sorted(chosen + [kind]))
                if len(trial) == 1 or holds(trial):
                    chosen.append(kind)
                    pool.remove(kind)
                    break
            else:
                break
            if len(chosen) >= option.low:
                action = Action(name, tuple(sorted(chosen)), values)
                # true where no claim stands: of a claim about its cards that is all (legal
                # or not is the decision's check's to say, below); else tried where it stands
                # (an illegal choice scores 0 there)
                if blind or self._p_after(states, action) >= 0.99:
                    good.append(action)
        # the largest that the decision's own check finds legal (the sampled states may not
        # know all it knows), without wild cards unless they finish the hand or nothing else fits
        # (a few checks at most: the largest choices are the ones that beat a standing claim)
        legal = (a for a in reversed(good[-4:]) if _legal(decision, option, a))
        largest = next(legal, None)
        if largest is None:
            return ()
        if len(largest.cards) == len(option.cards) or not any(k in wild for k in largest.cards):
            return largest.cards
        smallest = largest
        for action in legal:
            if not any(k in wild for k in action.cards):
                return action.cards
            smallest = action
        return smallest.cards

    def _truth_of_cards(self, free, decision: Decision, option, values, shared: dict | None = None):
        """A test of whether a choice of cards of ``option``, with ``values``, keeps the
        claim true over the states ``free`` (no claim standing). For a claim about its cards
        whose arguments read only how many cards were chosen, the action runs once for each
        number of cards and the choice is tried in place of the laid cards; when its values
        reach nothing but the claim's arguments (see :func:`_values_only_claimed`), those
        runs are kept in ``shared`` for every choice of values, the claim's arguments put
        in."""
        name, engine, rng = option.name, self.engine, self.rng
        blind = (decision.phase, name) in self.analysis.kind_blind
        places = self.analysis.values_only_claimed.get((decision.phase, name)) if shared is not None else None
        if places:
            at = {pname: i for i, (pname, _) in enumerate(option.params)}
            places = [(i, values[at[pname]]) for i, pname in places]
        by_size: dict = {}

        def run(cards: tuple):
            try:
                after = engine.effects(free[0], Action(name, cards, values), rng)
            except Exception:
                try:                    # a check that needs the claim standing ('require claim stands')
                    after = engine.effects(free.standing[0], Action(name, cards, values), rng)
                except Exception:
                    return False
            if after.claim is None or after.claimed is None or after.is_terminal:
                return False
            return after

        def holds(cards: tuple) -> bool:
            if blind:
                got = by_size.get(len(cards))
                if got is None:
                    if places is None:
                        after = run(cards)
                    else:
                        after = shared.get(len(cards))
                        if after is None:
                            after = shared[len(cards)] = run(cards)
                        if after is not False and places:
                            index, args, claimant = after.claim
                            args = list(args)
                            for i, value in places:
                                args[i] = value
                            after = after._replace(claim=(index, tuple(args), claimant))
                    got = False
                    if after is not False:
                        slot, count = after.claimed
                        got = (engine.claim_test(after), list(after.zones), slot,
                               after.zones[slot][:len(after.zones[slot]) - count])
                    by_size[len(cards)] = got
                if got is not False:
                    test, zones, slot, below = got
                    zones[slot] = below + cards
                    return test(tuple(zones))
            action = Action(name, cards, values)
            p = self._p_after(free, action, None)
            if p is None:               # refused with no claim standing: tried where it stands
                p = self._p_after(free.standing, action)
            return p >= 0.99
        return holds

    def _vote(self, view: View, decision: Decision) -> Action:
        if len(decision.options) == 1:
            option = decision.options[0]
            if option.cards is None and option.params and len(self._value_choices(decision, option)) > 1:
                return self._by_returns(view, decision)     # whom to vote for: by the play-outs' returns
            if option.cards is not None and not self.analysis.claims:
                # which card to play, in a game without claims: by the play-outs' returns
                return self._by_returns(view, decision, CARD_ROLLOUTS)
            return random_legal(decision, self.rng)
        states = self._states(view, max(1, self.samples // 2))
        best = None
        found = set()
        for option in decision.options:
            action = random_concrete(option, self.rng)
            if not decision.is_legal(action):
                try:
                    action = random_legal(decision, self.rng, [option])
                except (IndexError, ValueError):
                    continue
            held = 0.0
            for s in states:
                held += self._held_after(s, action, view.seat)
            found.add(held)
            if best is None or held < best[0]:
                best = (held, action)
        if len(found) == 1 and len(decision.options) > 1:
            # the cards held do not tell the choices apart (a vote on a team, a mission's
            # secret card): judged by their returns over play-outs instead
            return self._by_returns(view, decision)
        return best[1] if best else random_legal(decision, self.rng)

    def _held_after(self, state, action: Action, seat: int) -> int:
        """Cards ``seat`` holds after ``action`` and random choices of the others in the vote."""
        engine, rng = self.engine, self.rng
        quiet = (False,) * state.n
        try:
            live = engine.working_copy(state, knowledge=False)      # no view is made of it
            engine.apply_in_place(live, action, rng)
            step = random_stepper(engine, live, rng)
            for _ in range(20):
                if live.phase < 0:
                    break
                _, phase, options = engine.decide_in_place(live, quiet)
                if phase.kind != "vote":
                    break
                step(options)
        except Exception:
            return 10**6
        cg = engine.cg
        held = 0
        for slot, cards in enumerate(live.zones):
            zi, owner = cg.zone_owner(slot, state.n)
            if owner == seat:
                held += len(cards)
        return held
