"""Properties every game file must have, for every variant and every player count.

The combinations come from :mod:`strategies` (a glob over ``games/*.rules``), the seeds from
Hypothesis. The default run keeps the example counts small so that the file runs in about a
minute on two cores; ``-m slow`` runs heavier versions of the same properties.

Whole matches are played by random bots: the shipped RandomBot where the shipped pipeline is
the point (the JSON log, the swap test, the hash-seed test), else ``QuickRandomBot`` (the
same choice, more random tries before RandomBot's slow fallback; see strategies.py).

Match lengths measured with RandomBot (60 seeds per combination; decisions of play_match,
window declines and votes included; median / 90th percentile / longest):

=============  =========================================================================
Lügenbeutel    base: 2p 310/665/1016, 3p 344/1217/1493, 4p 498/2630/3804,
               5p 990/2711/5927, 6p 1462/4250/6575, 7p 2322/7387/12886,
               8p 3408/9124/14158; the variants alike, longest 16701 (edition_b, 8p).
               With 4 or more random players one deal usually ends the match.
Nimm's Leich   3p 84/106/119, 4p 66/87/95, 5p 80/95/109, 6p 93/107/121.
DTC            2p 36/40/48, 3p 32/38/42, 4p 28/34/42, 5p 24/32/38, 6p 20/26/34
               (base); the variants alike, longest 56 (higher_counts, 2p).
=============  =========================================================================
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rulekit import Action, IllegalAction, play_match
from rulekit.engine import DECLINE_ACTION
from rulekit.play.match import MatchTooLong, seat_rng
from rulekit.players import GenericBot, RandomBot
from rulekit.players.base import random_legal, random_step

from strategies import (COMBO_IDS, COMBOS, Combo, QuickRandomBot, cards_in_state, combos, deck_counter,
                        enumeration_size, may_see, play_until, quick_bots, seeds, some_legal_action, swap_hidden, walk,
                        zone_visibility)

# Small example counts for the default run (45 combinations × each property).
FAST = settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

by_combo = pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)

# The declared deck of each known game (digest §1.1, §2.1, §3.1), every variant included.
DECK_SIZES = {"lugenbeutel": 112, "nimms_leich": 36, "dtc": 66, "liars_dice": 0, "skull": 0, "coyote": 36, "bluff": 52}
# The cards each seat starts with (Skull §2: 3 flowers and a skull).
EACH_SEAT = {"skull": 4}


# ---------------------------------------------------------------------------- step bounds
def step_bound(combo: Combo) -> int:
    """A generous bound on the decisions of a random-bot match (``MatchRecord.steps``).

    * Nimm's Leich (provable): every round ends with a vote in which the bidder (thumb up)
      and the challenger (fist) are on opposite sides, so at least one seat wins and
      discards a card to the box; only the 6n dealt cards are in play (the 3-player exchange
      swaps, never adds), so there are at most 6n rounds. In a round the bids strictly
      increase in (count, body) with count <= 6 × H and 6 bodies, H = cards in hands
      (hand_size × n), so at most B = 36 H bids, each preceded by an inspection window that
      asks each seat at most once, then n votes and (3 players) n give-up choices:
      steps <= 6n × ((B + 1)(n + 1) + 2n). Measured: 50-121.
    * DTC (provable, D8): a refusal puts at least one card on a penalty pile for good, so at
      most D = 66 refusals; between two refusals the offers (k, v) strictly increase with
      k <= D, v <= 6, each followed by one decision: steps <= D × 6D × 2 = 52 272.
      Measured: at most 56.
    * Lügenbeutel (empirical): a deal ends when a hand empties and its last play stands,
      the match at 500 points; caught lies and die draws can grow hands again, so nothing
      bounds a deal a priori. Over 60 seeds per combination the longest random-bot match
      was 16 701 decisions (edition B, 8 players; a standing play costs n - 1 window
      declines), median 3 400 at 8 players. We allow 10 000 decisions per seat.
    * Any other game file: 200 000 (add its own bound here).
    """
    n = combo.players
    game = combo.game
    if game == "nimms_leich":
        hand_size = 2 if n == 3 else 1
        bids = 36 * hand_size * n
        return 6 * n * ((bids + 1) * (n + 1) + 2 * n)
    if game == "dtc":
        d = combo.engine.game.deck_size
        return d * 6 * d * 2
    if game == "lugenbeutel":
        return 10_000 * n
    return 200_000


# ---------------------------------------------------------------------------- termination
@by_combo
@FAST
@given(seed=seeds)
def test_random_match_ends_within_bound(combo, seed):
    """A match of random bots ends, with winners, within the stated step bound."""
    check_termination(combo, seed)


def check_termination(combo, seed):
    engine, n = combo.engine, combo.players
    bound = step_bound(combo)
    record = play_match(engine, quick_bots(n, seed), n, seed, max_steps=bound)
    assert record.state.is_terminal
    assert record.steps <= bound
    assert record.winners and set(record.winners) <= set(range(n))


@pytest.mark.slow
@by_combo
@SLOW
@given(seed=seeds)
def test_random_match_ends_within_bound_slow(combo, seed):
    """(slow) A match of random bots ends, with winners, within the stated step bound."""
    check_termination(combo, seed)


# ---------------------------------------------------------------------------- conservation
@pytest.mark.parametrize("path", sorted({c.path for c in COMBOS}))
def test_declared_deck_size(path):
    """Every variant of a known game declares the deck size of the digest (112/36/66, 4 discs a seat)."""
    from strategies import variants_of, load_game
    name = path.rsplit("/", 1)[-1].removesuffix(".rules")
    for variant in variants_of(path):
        game = load_game(path, variant)
        assert sum(k.count for k in game.kinds if k.start is None and k.die is None) == game.deck_size
        if name in DECK_SIZES:
            assert game.deck_size == DECK_SIZES[name], (name, variant)
        if name in EACH_SEAT:
            assert game.pieces(3) - game.deck_size == 3 * EACH_SEAT[name], (name, variant)


def check_conservation(engine, state, deck):
    got = cards_in_state(state, engine)
    assert got == deck, f"cards gained {got - deck}, lost {deck - got}"


@by_combo
@FAST
@given(seed=seeds)
def test_cards_conserved_after_every_step(combo, seed):
    """After the set-up and after every step, all zones together hold exactly the declared deck."""
    engine = combo.engine
    deck = deck_counter(engine, combo.players)
    assert sum(v for k, v in deck.items() if not isinstance(k, tuple)) == engine.game.pieces(combo.players)
    for step in walk(engine, combo.players, seed, max_steps=step_bound(combo)):
        check_conservation(engine, step.after, deck)


@by_combo
@FAST
@given(seed=seeds)
def test_recording_no_events_changes_no_state(combo, seed):
    """``events=False`` (a look-ahead's loop) records nothing and reaches, step by step, the
    very states that the recorded match reaches, with the same use of chance."""
    engine, n = combo.engine, combo.players
    quiet = random.Random(seed)
    state, none = engine.new_match(n, quiet, events=False)
    assert none == ()
    steps = walk(engine, n, seed, max_steps=step_bound(combo))
    assert next(steps).after == state
    for step in steps:
        state, none = engine.apply(step.state, step.action, quiet, texts=False, events=False)
        assert none == ()
        assert state == step.after, step.index
    assert state.is_terminal


@by_combo
@FAST
@given(seed=seeds)
def test_a_match_without_log_played_in_place_ends_as_the_recorded_one(combo, seed):
    """Without a log, an ``on_events`` or a history reader, ``play_match`` plays on one
    working copy changed in place (a state is made only for a view): it reaches the very
    state, after as many decisions, as the recorded match. Random bots that read no view
    sit in odd seats, bots that read one in even seats; a match cut short by the bound
    compares the state it stopped at."""
    engine, n = combo.engine, combo.players
    ends = []
    for keep_log in (True, False):
        lineup = [RandomBot(seat_rng(seed, s)) if s % 2 else QuickRandomBot(seat_rng(seed, s)) for s in range(n)]
        try:
            record = play_match(engine, lineup, n, seed, max_steps=400, keep_log=keep_log)
        except MatchTooLong as exc:
            record = exc.record
        ends.append((record.state, record.steps, record.winners))
    assert ends[0] == ends[1]


@by_combo
@FAST
@given(seed=seeds)
def test_look_ahead_helpers_agree_with_the_state_api(combo, seed):
    """What a bot's look-ahead uses answers as the state API does, at every step of a match:
    ``random_step`` on a working copy takes the action ``random_legal`` picks with the same
    draws and reaches the state ``apply`` does; ``claim_test`` says what ``claim_holds_in``
    says, of the state's zones and of other zones; ``standing`` is the seat's row of
    ``standings``."""
    engine, n = combo.engine, combo.players
    quiet = (False,) * n
    for step in walk(engine, n, seed, max_steps=150):
        state = step.after
        if state.is_terminal:
            break
        rows = dict(engine.standings(state))
        assert all(engine.standing(state, s) == rows[s] for s in range(n))
        if state.claim is not None:
            test = engine.claim_test(state)
            shuffled = tuple(z[::-1] for z in state.zones)
            emptied = tuple(() for _ in state.zones)
            for zones in (state.zones, shuffled, emptied):
                try:
                    expected = engine.claim_holds_in(state, zones)
                except Exception as exc:        # a claim may refuse zones the match never makes
                    with pytest.raises(type(exc)):
                        test(zones)
                    continue
                assert test(zones) == expected
        mine, theirs = random.Random(seed + step.index), random.Random(seed + step.index)
        live = engine.working_copy(state)
        seat, phase, options = engine.decide_in_place(live, quiet)
        assert (seat, phase.name) == (engine.decider(state), engine.decision(state).phase)
        try:
            random_step(engine, live, options, mine)
        except IllegalAction:
            with pytest.raises(IllegalAction):
                engine.apply(state, random_legal(engine.decision(state, False), theirs), theirs)
            continue
        after, _ = engine.apply(state, random_legal(engine.decision(state, False), theirs), theirs, False, False)
        assert engine.snapshot(live) == after
        assert mine.getstate() == theirs.getstate()


# ---------------------------------------------------------------------------- legality
@by_combo
@FAST
@given(seed=seeds)
def test_bot_actions_are_legal(combo, seed):
    """Every bot action passes is_legal and is listed by legal_actions, whose actions all apply."""
    engine = combo.engine
    listed_checks = 0
    for step in walk(engine, combo.players, seed, max_steps=step_bound(combo)):
        if step.decision is None:
            continue
        assert step.decision.seat == engine.decider(step.state)
        assert engine.is_legal(step.state, step.action), engine.why_illegal(step.state, step.action)
        assert step.decision.check(step.action) is None
        if listed_checks < 150 and enumeration_size(step.decision) <= 400:
            listed_checks += 1
            legal = engine.legal_actions(step.state)
            assert step.action in legal
            assert len(set(legal)) == len(legal)
            assert {a.name for a in legal} == {o.name for o in step.decision.options}
            # every listed action can be applied (is_legal never promises too much)
            for other in random.Random(step.index).sample(legal, min(3, len(legal))):
                assert engine.is_legal(step.state, other)
                engine.apply(step.state, other, random.Random(step.index))


def illegal_variants(engine, state, decision, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions that must be illegal now, each with what is wrong with it."""
    out = [("unknown action name", Action("no_such_action_zz")),
           ("unknown action name with cards", Action("no_such_action_zz", (0,), (1,)))]
    legal = some_legal_action(engine, state, decision, rng)
    n_kinds = len(engine.kinds)
    for o in decision.options:
        if o.cards is not None:
            # one more card of some kind than the zone holds
            kind = rng.randrange(n_kinds)
            extra = tuple(sorted((kind,) * (o.cards.count(kind) + 1)))
            params = tuple(values[0] for _, values in o.params)
            out.append(("cards not there", Action(o.name, extra, params)))
        if o.params:
            i = rng.randrange(len(o.params))
            bad = list(values[0] for _, values in o.params)
            bad[i] = rng.choice([10**6, -7, "zz", (97, 98)])
            cards = tuple(o.cards[:o.low]) if o.cards is not None else ()
            out.append((f"bad value for {o.params[i][0]}", Action(o.name, cards, tuple(bad))))
    out.append(("one value too many", Action(legal.name, legal.cards, legal.params + (1,))))
    if legal.params:
        out.append(("a value missing", Action(legal.name, legal.cards, legal.params[:-1])))
    takes_cards = {o.name: o.cards is not None for o in decision.options}
    if not takes_cards.get(legal.name, False):
        out.append(("cards for an action that takes none",
                    Action(legal.name, (rng.randrange(n_kinds),), legal.params)))
    if decision.kind not in ("first", "each"):
        out.append(("decline outside a window", DECLINE_ACTION))
    return out


@by_combo
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds, steps=st.integers(0, 80), data=st.data())
def test_illegal_actions_raise_and_leave_state_unchanged(combo, seed, steps, data):
    """Illegal actions (unknown name, cards not there, bad or missing values) raise IllegalAction and change nothing."""
    engine = combo.engine
    state, rng = play_until(engine, combo.players, seed, steps)
    if state.is_terminal:
        with pytest.raises(IllegalAction):
            engine.apply(state, Action("decline"), rng)
        return
    decision = engine.decision(state)
    pristine = state._replace()
    views = [engine.view(state, s) for s in range(state.n)]
    pick = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for what, action in illegal_variants(engine, state, decision, pick):
        assert engine.why_illegal(state, action) is not None, what
        assert not engine.is_legal(state, action), what
        rng_state = rng.getstate()
        with pytest.raises(IllegalAction):
            engine.apply(state, action, rng)
        assert rng.getstate() == rng_state, f"{what}: the illegal action used chance"
        assert state == pristine, what
    assert engine.decision(state) == decision
    assert [engine.view(state, s) for s in range(state.n)] == views
    # the state still plays exactly like an untouched copy
    legal = some_legal_action(engine, state, decision, pick)
    r1, r2 = random.Random(7), random.Random(7)
    assert engine.apply(state, legal, r1) == engine.apply(pristine, legal, r2)


# ---------------------------------------------------------------------------- public history
@by_combo
@FAST
@given(seed=seeds)
def test_public_history_names_no_card_its_seat_could_not_see(combo, seed):
    """What a seat perceives of each event (View.history) names only cards it could see."""
    engine, n = combo.engine, combo.players
    for step in walk(engine, n, seed, max_steps=min(step_bound(combo), 2000)):
        for e in step.events:
            for seat in range(n):
                o = engine.observe(e, seat, n)
                if o is None:
                    assert ("show", True) == (e.kind, e.seat != seat)
                    continue
                assert "order" not in o.data
                if o.kind == "show":
                    assert seat == o.seat
                cards = o.data.get("cards") if o.kind in ("move", "draw", "pick", "roll_dice") else None
                if cards and any(c is not None for c in cards):
                    slot = o.data.get("to", o.data.get("zone"))
                    sources = o.data.get("from") if o.kind == "move" else ()
                    assert may_see(engine, step.after, slot, seat) or (
                        sources and all(may_see(engine, step.after, s, seat) for s in sources)), (o, seat)
                if o.kind == "deal_end":
                    hidden = [c for c in engine.game.counters if c.seen != "all"]
                    assert not hidden or None in o.data["counters"]


# ---------------------------------------------------------------------------- determinism
def log_of(combo: Combo, seed: int) -> str:
    engine, n = combo.engine, combo.players
    bots = [RandomBot(seat_rng(seed, s)) for s in range(n)]
    record = play_match(engine, bots, n, seed, max_steps=step_bound(combo))
    return json.dumps(record.log, ensure_ascii=False, sort_keys=True)


@by_combo
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds, other=seeds)
def test_same_seed_same_log_different_seed_different_log(combo, seed, other):
    """The same seed gives the identical JSON log; a different seed gives a different one."""
    check_determinism(combo, seed, other)


def check_determinism(combo, seed, other):
    others = [other + k for k in range(OTHER_SEEDS)]
    assume(seed not in others)
    first = log_of(combo, seed)
    assert log_of(combo, seed) == first
    # another seed gives another match; in a game of few outcomes two seeds may give the
    # same one (Liar's Dice with a die each: about 1 seed in 5 repeats an earlier match of
    # 600), but not every one of several in a row
    assert any(log_of(combo, s) != first for s in others)


#: the other seeds of which at least one must give another log than the first
OTHER_SEEDS = 5


HASHSEED_SCRIPT = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from strategies import COMBOS, random_bots, walk
from rulekit.play.match import action_record, event_record, seat_rng
from rulekit.players import GenericBot
seen = set()
for combo in COMBOS:
    if (combo.path, combo.variant) in seen:
        continue
    seen.add((combo.path, combo.variant))
    n, engine = combo.players, combo.engine
    for seed in (3, 4):
        bots = random_bots(n, seed) if seed == 3 else [GenericBot(engine, seat_rng(seed, s)) for s in range(n)]
        log = []
        for step in walk(engine, n, seed, bots, max_steps=300):
            if step.action is not None:
                log.append(action_record(engine, step.index, step.state, step.action, step.decision))
            log.extend(event_record(engine, e, n) for e in step.events)
        text = json.dumps(log, ensure_ascii=False, sort_keys=True)
        print(combo.id, seed, len(log), hashlib.sha256(text.encode()).hexdigest())
"""


def test_logs_do_not_depend_on_hash_randomization():
    """Two processes with different PYTHONHASHSEED give identical logs (RandomBot and GenericBot, every variant)."""
    import os
    import subprocess
    import sys
    from strategies import ROOT
    procs = []
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        procs.append(subprocess.Popen([sys.executable, "-c", HASHSEED_SCRIPT, str(ROOT / "tests")], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      cwd=str(ROOT)))
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]
        outs.append(out)
    assert outs[0].count("\n") == 2 * len({(c.path, c.variant) for c in COMBOS})
    assert outs[0] == outs[1]


@pytest.mark.slow
@by_combo
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds, other=seeds)
def test_same_seed_same_log_slow(combo, seed, other):
    """(slow) The same seed gives the identical JSON log; a different seed gives a different one."""
    check_determinism(combo, seed, other)


# ---------------------------------------------------------------------------- no leak
def check_views(engine, state):
    for seat in range(state.n):
        view = engine.view(state, seat)
        assert len(view.zones) == len(state.zones)
        for slot, (name, owner, count, cards) in enumerate(view.zones):
            zname, seen, zowner = zone_visibility(engine, state, slot)
            assert (name, owner) == (zname, zowner)
            if may_see(engine, state, slot, seat):
                assert cards == tuple(sorted(state.zones[slot]))
            else:
                assert cards is None, f"seat {seat} sees the cards of {name} of {owner}"
            assert count == (None if seen == "nobody" else len(state.zones[slot]))
        mine = list(dict.fromkeys(
            (zone_visibility(engine, state, slot)[0], zone_visibility(engine, state, slot)[2], tuple(sorted(cards)))
            for viewer, slot, cards, _ in state.known
            if viewer == seat or viewer < 0))              # shown to this seat, or revealed to all, once each
        assert list(view.known) == mine, "a view's known cards are not exactly what its seat was shown"


VIEW_PREFIX = 400     # decisions checked per match in the default run


@by_combo
@FAST
@given(seed=seeds)
def test_views_never_show_unseen_zones(combo, seed):
    """In every step, each seat's view holds cards only of open zones and its own owner-seen zones."""
    engine = combo.engine
    for step in walk(engine, combo.players, seed, max_steps=VIEW_PREFIX):
        check_views(engine, step.after)


def same_choice(bot_factory, engine, state, swapped, seat):
    """The action a bot (fresh, same rng state) picks in ``state`` and in ``swapped``."""
    d1, d2 = engine.decision(state), engine.decision(swapped)
    v1, v2 = engine.view(state, seat), engine.view(swapped, seat)
    a1 = bot_factory().choose(v1, d1)
    a2 = bot_factory().choose(v2, d2)
    return a1, a2


@by_combo
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds, steps=st.lists(st.integers(1, 150), min_size=1, max_size=3), swap_seed=seeds)
def test_hidden_cards_of_others_do_not_change_view_or_choice(combo, seed, steps, swap_seed):
    """Swapping cards a seat cannot see leaves its view, its options and the choice of Random/GenericBot unchanged."""
    engine = combo.engine
    for k in [0] + sorted(set(steps)):
        state, _ = play_until(engine, combo.players, seed, k)
        if state.is_terminal:
            continue
        rng = random.Random(swap_seed + k)
        for seat in range(state.n):
            swapped = swap_hidden(engine, state, seat, rng)
            if swapped is None:
                # right after the set-up every seat has hidden cards of others to swap
                assert k > 0, f"nothing hidden from seat {seat} after the set-up"
                continue
            assert swapped != state
            assert cards_in_state(swapped, engine) == cards_in_state(state, engine)
            assert engine.view(swapped, seat) == engine.view(state, seat)
        decider = engine.decider(state)
        swapped = swap_hidden(engine, state, decider, rng)
        if swapped is None:
            continue
        assert engine.decision(swapped) == engine.decision(state)
        bot_seed = rng.randrange(2**32)
        a1, a2 = same_choice(lambda: RandomBot(random.Random(bot_seed)), engine, state, swapped, decider)
        assert a1 == a2
        a1, a2 = same_choice(lambda: GenericBot(engine, random.Random(bot_seed)), engine, state, swapped,
                             decider)
        assert a1 == a2


@pytest.mark.slow
@by_combo
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds)
def test_views_never_show_unseen_zones_slow(combo, seed):
    """(slow) In every step of a whole match, no view holds cards of a zone its seat may not see."""
    engine = combo.engine
    for step in walk(engine, combo.players, seed, max_steps=step_bound(combo)):
        check_views(engine, step.after)


# ---------------------------------------------------------------------------- stateful
class MatchMachine(RuleBasedStateMachine):
    """Random legal actions on any game; invariants after every one."""

    @initialize(combo=combos, seed=seeds)
    def start(self, combo, seed):
        self.combo = combo
        self.engine = combo.engine
        self.deck = deck_counter(self.engine, combo.players)
        self.rng = random.Random(seed)
        self.state, _ = self.engine.new_match(combo.players, self.rng)

    @rule(pick=st.integers(0, 2**32 - 1))
    def act(self, pick):
        """Apply a random legal action (a new match once this one is over)."""
        if self.state.is_terminal:
            event("a match ended and a new one started")
            self.state, _ = self.engine.new_match(self.combo.players, self.rng)
            return
        decision = self.engine.decision(self.state)
        action = some_legal_action(self.engine, self.state, decision, random.Random(pick))
        self.state, _ = self.engine.apply(self.state, action, self.rng)

    @rule(pick=st.integers(0, 2**32 - 1))
    def act_listed(self, pick):
        """Apply an action drawn from the legal_actions of the decider (when they are few)."""
        if self.state.is_terminal or enumeration_size(self.engine.decision(self.state)) > 5000:
            return
        listed = self.engine.legal_actions(self.state)
        assert listed
        self.state, _ = self.engine.apply(self.state, random.Random(pick).choice(listed), self.rng)

    @invariant()
    def conservation(self):
        if hasattr(self, "state"):
            assert cards_in_state(self.state, self.engine) == self.deck

    @invariant()
    def decider_can_act(self):
        if not hasattr(self, "state") or self.state.is_terminal:
            return
        decision = self.engine.decision(self.state)
        assert 0 <= decision.seat < self.state.n
        assert decision.options
        # some concrete action is legal (listing all of them only when they are few)
        if enumeration_size(decision) <= 5000:
            assert self.engine.legal_actions(self.state, 1)
        else:
            action = some_legal_action(self.engine, self.state, decision, random.Random(0))
            assert self.engine.is_legal(self.state, action)

    @invariant()
    def terminal_has_winners(self):
        if hasattr(self, "state") and self.state.is_terminal:
            assert self.state.winners
            assert set(self.state.winners) <= set(range(self.state.n))
            assert self.engine.decision(self.state) is None
            assert self.engine.legal_actions(self.state) == []


MatchMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=120, deadline=None,
                                          suppress_health_check=list(HealthCheck))
test_match_machine = MatchMachine.TestCase
