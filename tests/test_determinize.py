"""Determinization (rulekit.players.determinize): sampled states agree with the view; when
the seats start with their own cards and the rules never pass a card from one seat to
another (Skull), a sample never gives a seat more of a kind than it was dealt; games whose
cards pass between hands keep the pooled sampling."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import Engine, load, loads
from rulekit.players import determinize
from rulekit.players.base import random_legal
from rulekit.players.determinize import keeps_owners, sampler

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SKULL = (GAMES / "skull.rules").read_text()

_ENGINES: dict = {}


def engine_of(name: str) -> Engine:
    if name not in _ENGINES:
        _ENGINES[name] = Engine(load(str(GAMES / f"{name}.rules")))
    return _ENGINES[name]


def positions(engine: Engine, players: int, seed: int, every: int = 1):
    """Every ``every``-th state of a match of random legal choices (the match's end left out)."""
    rng = random.Random(seed)
    state, _ = engine.new_match(players, rng, False)
    step = 0
    while state.phase >= 0 and step < 400:
        if step % every == 0:
            yield state
        state, _ = engine.apply(state, random_legal(engine.decision(state, False), rng), rng, False, False)
        step += 1


def dealt_to_each(engine: Engine) -> Counter:
    """The cards each seat starts with (kind -> copies)."""
    return Counter({i: k.count for i, k in enumerate(engine.kinds) if k.start is not None})


def overdealt(engine: Engine, view, state) -> list:
    """(seat, kind, how many) for each kind some seat holds more of, in its own zones of
    ``state``, than it was dealt (zones named as ``view`` names them)."""
    dealt = dealt_to_each(engine)
    held = [Counter() for _ in range(state.n)]
    for (name, owner, _, _), cards in zip(view.zones, state.zones):
        if owner is not None:
            held[owner].update(cards)
    return [(s, k, c) for s, counts in enumerate(held) for k, c in counts.items() if c > dealt[k]]


def agrees(engine: Engine, view, state) -> None:
    """``state`` shows ``view``'s seat what the view shows: zone sizes, open cards, public
    counters, dice counts, and holds every card the seat knows to lie in a zone."""
    again = engine.view(state, view.seat, (), False)
    assert again.zones == view.zones
    assert again.dice == view.dice
    assert again.counters == view.counters
    assert (again.phase, again.seats, again.out, again.deal) == (view.phase, view.seats, view.out, view.deal)
    assert (again.claim is None) == (view.claim is None) and (view.claim is None or again.claim == view.claim)
    slot_of = {(z[0], z[1]): i for i, z in enumerate(view.zones)}
    for name, owner, cards in view.known:
        held = Counter(state.zones[slot_of[(name, owner)]])
        assert not Counter(cards) - held, (name, owner, cards)
    assert sorted(c for z in state.zones for c in z if engine.kinds[c].die is None) == \
        sorted(engine.cards_for(view.players))


# ---------------------------------------------------------------- which games keep owners
def test_only_skull_keeps_every_card_with_its_seat():
    """Skull's discs only move between one seat's zones (``your hand`` to ``your mat``, ``mat
    of p`` to ``shown of p``) or into the shared ``lost``, which gives none back. Every
    other shipped game passes cards between hands, or deals them from a shared deck."""
    for name in ("coup", "dtc", "liars_dice", "lugenbeutel", "nimms_leich", "skull"):
        engine = engine_of(name)
        assert (determinize._owned(engine) is not None) == (name == "skull"), name
    assert keeps_owners(engine_of("skull").game)
    for name in ("coup", "dtc", "lugenbeutel", "nimms_leich"):
        assert not keeps_owners(engine_of(name).game), name


@pytest.mark.parametrize("change", [
    # a disc passed to the next seat's hand
    ("turn lose_own: action lose \"loses a disc\" { move 1 of your choice from your hand to lost }",
     "turn lose_own: action lose \"loses a disc\" { move 1 of your choice from your hand to hand of left of actor }"),
    # the lost discs come back, to whoever fails
    ("    move random 1 of hand of challenger to lost\n",
     "    move random 1 of hand of challenger to lost\n    move lost to hand of owner\n"),
    # a seat turns up a disc of another seat into its own display
    ("  move top 1 of mat of p to shown of p\n", "  move top 1 of mat of p to your shown\n"),
    # a seat chosen by a variable that the action changes after choosing the cards
    ("turn name_first: action name \"names {p} to start\" {\n  choose p in seats in others \"who starts?\"\n"
     "  set leader = p\n}",
     "turn name_first: action name \"names {p} to start\" {\n  choose p in seats in others \"who starts?\"\n"
     "  choose 1 from hand of leader\n  set leader = p\n  move chosen to mat of leader\n}"),
])
def test_rules_that_pass_cards_between_seats_are_dealt_pooled(change):
    """Changing one statement of Skull so that a disc can reach another seat's zone (at
    once, or through the shared ``lost``) makes the check refuse it."""
    old, new = change
    assert old in SKULL
    game = loads(SKULL.replace(old, new))
    assert not keeps_owners(game)
    assert determinize._owned(Engine(game)) is None


# ---------------------------------------------------------------- per-seat cards in Skull
def check_skull(players: int, seed: int, samples: int = 4, every: int = 1) -> dict:
    """Every seat's view at every ``every``-th decision of a random match of Skull: each
    sample agrees with the view and gives no seat more of a kind than it was dealt. The
    views that knew cards in the shared ``lost`` are counted (they still deal by seat)."""
    engine = engine_of("skull")
    seen = Counter()
    for state in positions(engine, players, seed, every):
        for seat in range(players):
            view = engine.view(state, seat, (), False)
            draw = sampler(engine, view)
            seen["views"] += 1
            seen["lost known"] += any(name == "lost" for name, _, _ in view.known)
            for i in range(samples):
                sample = draw(random.Random(i))
                agrees(engine, view, sample)
                assert not overdealt(engine, view, sample), (seed, seat, overdealt(engine, view, sample))
            lost = [i for i, z in enumerate(view.zones) if z[1] is None]
            hidden = [i for i, z in enumerate(view.zones) if z[3] is None]
            for i in range(samples):
                dealt = draw.zones(random.Random(i), hidden)
                for slot in hidden:
                    if slot not in lost:
                        assert len(dealt[slot]) == view.zones[slot][2]
    return seen


@pytest.mark.parametrize("players,seed", [(4, 1), (4, 2), (5, 3), (5, 4), (3, 5), (6, 6)])
def test_skull_samples_give_no_seat_more_than_it_was_dealt(players, seed):
    """Each seat owns 3 flowers and 1 skull: no sample gives an opponent two skulls (the
    pooled deal of every unseen disc did), and the views where the seat lost a disc of
    its own (it knows that disc lies in ``lost``) are among those checked."""
    seen = check_skull(players, seed)
    assert seen["views"] > 50


def test_some_views_know_a_disc_in_lost():
    """The seeded matches above reach views that know a disc in ``lost`` (a seat that lost
    a disc of its own choice): those are dealt by seat too."""
    total = Counter()
    for players, seed in [(4, 1), (4, 2), (5, 3), (5, 4), (3, 5), (6, 6)]:
        engine = engine_of("skull")
        for state in positions(engine, players, seed):
            for seat in range(players):
                view = engine.view(state, seat, (), False)
                if any(name == "lost" for name, _, _ in view.known):
                    total["known"] += 1
                    draw = sampler(engine, view)
                    assert not overdealt(engine, view, draw(random.Random(0)))
    assert total["known"] > 0


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([4, 5]), seed=st.integers(0, 2**32))
def test_skull_samples_keep_owners_in_any_match(players, seed):
    check_skull(players, seed, samples=3, every=3)


def test_the_check_fails_with_pooled_sampling(monkeypatch):
    """The check above can fail: dealt pooled, as before (every unseen disc to any hidden
    zone), some sample gives a seat two skulls."""
    monkeypatch.setattr(determinize, "_owned", lambda engine: None)
    with pytest.raises(AssertionError):
        for players, seed in [(4, 1), (5, 3)]:
            check_skull(players, seed)


def test_skull_deals_some_zones_as_a_whole_state_would():
    """``zones(rng, slots, tops)`` deals a seat's zones from that seat's own discs with the
    same distribution as whole samples (mean count of each kind per zone over 3,000 deals
    of each), the top of a mat alone as the top of a whole deal, and the shared ``lost``
    with the seats' leftovers."""
    engine = engine_of("skull")
    view = None
    for state in positions(engine, 4, 11):
        v = engine.view(state, 0, (), False)
        lost = v.zone("lost")
        mats = [v.zone("mat", s)[0] for s in range(1, 4)]
        if sum(count for count, _ in (v.zone("hand", s) for s in range(4))) < 15 and max(mats) >= 2:
            view = v
            break
    assert view is not None, "no position with a lost disc and a stack of two"
    draw = sampler(engine, view)
    hidden = [i for i, z in enumerate(view.zones) if z[3] is None]
    mat = max((i for i, z in enumerate(view.zones) if z[0] == "mat" and z[1] != 0), key=lambda i: view.zones[i][2])
    rng = random.Random(5)
    whole, some, tops_whole, tops_some, lost_whole, lost_some = (Counter() for _ in range(6))
    own = [i for i in hidden if view.zones[i][1] is not None]
    lost = next(i for i, z in enumerate(view.zones) if z[0] == "lost")
    for _ in range(3000):
        full = draw(rng).zones
        dealt = draw.zones(rng, own)
        top = draw.zones(rng, [mat], {mat: 1})
        with_lost = draw.zones(rng, [lost] + own)
        for slot in own:
            whole.update((slot, k) for k in full[slot])
            some.update((slot, k) for k in dealt[slot])
        tops_whole.update(full[mat][-1:])
        tops_some.update(top[mat])
        lost_whole.update(full[lost])
        lost_some.update(with_lost[lost])
        assert len(top[mat]) == 1
    for a_counts, b_counts in ((whole, some), (tops_whole, tops_some), (lost_whole, lost_some)):
        for key in set(a_counts) | set(b_counts):
            a, b = a_counts[key] / 3000, b_counts[key] / 3000
            assert abs(a - b) < 0.05 + 0.1 * max(a, b), (key, a, b)


def test_the_exact_chance_of_some_zones_is_the_share_of_their_deals():
    """The pooled sampler's ``chance_at_least(slots, tops, good, need)`` is the share of
    ``zones(rng, slots, tops)`` deals whose cards hold ``need`` or more that ``good``
    accepts (4,000 deals each, within four standard errors), for the top cards of a table
    where the seat knows some of its cards (its own plays), a hand, and the two together;
    the sampler by seat leaves it to sampling (None)."""
    engine = engine_of("lugenbeutel")
    compared = 0
    for state in positions(engine, 4, 5, every=3):
        view = engine.view(state, 0, (), False)
        table = next(i for i, z in enumerate(view.zones) if z[0] == "table")
        if view.zones[table][2] < 6 or not any(name == "table" for name, _, _ in view.known):
            continue
        hand = next(i for i, z in enumerate(view.zones) if z[0] == "hand" and z[1] == 1)
        draw = sampler(engine, view)
        rng = random.Random(compared)
        good = [k % 3 == 0 for k in range(len(engine.kinds))].__getitem__
        for slots, top, need in (([table], 3, 1), ([table], 5, 2), ([hand], None, 3), ([table, hand], 2, 4)):
            tops = {table: top} if top else None
            exact = draw.chance_at_least(slots, tops, good, need)
            hits = 0
            for _ in range(4000):
                dealt = draw.zones(rng, slots, tops)
                hits += sum(good(k) for slot in slots for k in dealt[slot]) >= need
            error = 4 * (max(exact * (1 - exact), 0.01) / 4000) ** 0.5
            assert abs(hits / 4000 - exact) < error, (slots, top, need, exact, hits / 4000)
        compared += 1
        if compared == 3:
            break
    assert compared == 3, "no position where seat 0 knows cards on the table"
    skull = engine_of("skull")
    state = next(positions(skull, 4, 1))
    view = skull.view(state, 0, (), False)
    hidden = [i for i, z in enumerate(view.zones) if z[3] is None and z[1] is not None]
    assert sampler(skull, view).chance_at_least(hidden, None, bool, 1) is None


def test_a_top_with_too_many_known_cards_is_left_to_sampling():
    """Working out the top 250 of 500 cards, 250 of them known, would take about a minute:
    the zone's law is not worked out (None, the zone is sampled); a top of 40 known cards
    still is, its chances adding up to 1."""
    good = [True, False].__getitem__
    assert determinize._zone_parts([0, 1] * 125, 500, 250, good) is None
    parts = determinize._zone_parts([0, 1] * 20, 120, 40, good)
    assert parts is not None and abs(sum(parts.values()) - 1) < 1e-9


def test_an_opponent_holds_its_own_skull_exactly_once():
    """Early in a round every opponent still holds its four discs (hand and mat): every
    sample gives each exactly one skull, the chance of it lying on the mat is the mat's
    share of the discs."""
    engine = engine_of("skull")
    rng = random.Random(3)
    state, _ = engine.new_match(4, rng, False)
    for _ in range(4):              # every seat places a disc: the vote closes
        state, _ = engine.apply(state, random_legal(engine.decision(state, False), rng), rng, False, False)
    view = engine.view(state, 0, (), False)
    assert all(view.zone("mat", s)[0] == 1 and view.zone("hand", s)[0] == 3 for s in range(1, 4))
    skull = next(i for i, k in enumerate(engine.kinds) if k.card == "skull")
    draw = sampler(engine, view)
    on_mat = 0
    for i in range(2000):
        zones = draw(random.Random(i)).zones
        for s in range(1, 4):
            mine = zones[view.zones.index(("hand", s, 3, None))] + zones[view.zones.index(("mat", s, 1, None))]
            assert mine.count(skull) == 1
        on_mat += zones[view.zones.index(("mat", 1, 1, None))].count(skull)
    assert 0.19 < on_mat / 2000 < 0.31


# ---------------------------------------------------------------- every game: samples agree
@pytest.mark.parametrize("name,players", [("coup", 4), ("dtc", 4), ("liars_dice", 2), ("lugenbeutel", 4),
                                          ("nimms_leich", 4), ("skull", 4)])
def test_samples_agree_with_the_view(name, players):
    """In every shipped game, pooled or by seat: a sample shows the seat what its view
    shows and holds every card of the match once."""
    engine = engine_of(name)
    for state in positions(engine, players, 7, every=5):
        for seat in range(players):
            view = engine.view(state, seat, (), False)
            draw = sampler(engine, view)
            for i in range(3):
                agrees(engine, view, draw(random.Random(i)))


def test_hidden_counters_read_as_after_setup():
    """Nimm's Leich keeps the hand size in a counter nobody sees: a sample holds its value
    after the setup of a fresh match, not 0 (a round dealt with 0 would deal nothing)."""
    engine = engine_of("nimms_leich")
    state, _ = engine.new_match(4, random.Random(1), False)
    view = engine.view(state, 0, (), False)
    hidden = [i for i, v in enumerate(c for _, value in view.counters
                                      for c in (value if isinstance(value, tuple) else (value,))) if v is None]
    assert hidden
    sample = sampler(engine, view)(random.Random(2))
    fresh = engine.new_match(4, random.Random(0), False)[0].counters
    assert [sample.counters[i] for i in hidden] == [fresh[i] for i in hidden]
    assert any(fresh[i] for i in hidden)
