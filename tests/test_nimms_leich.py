"""Nimm's Leich (games/nimms_leich.rules) against docs/rules/digest.md section 1 and
Appendix A.

The deck is read from the parsed file. Scenarios start a match, rig hands and piles with
``attrs.evolve`` (every card stays somewhere, the rest goes to the undealt deck), and play
the decisions of a round: inspections, bids, the challenge, the vote and (3 players) the
give-up choices.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import Action, IllegalAction

from strategies import (GAMES_DIR, cards_in_state, counter_value, deck_counter, engine_for,
                        seat_value, set_counter, zone)

PATH = str(GAMES_DIR / "nimms_leich.rules")
ENGINE = engine_for(PATH)
KINDS = ENGINE.kinds
BODIES = ENGINE.cg.symbols["body"]          # ('B1', ..., 'B6'), lowest rank first
CARD = {k.card: i for i, k in enumerate(KINDS)}   # 'c1' -> kind index
DECLINE = Action("decline")
CHALLENGE = Action("challenge")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))

# Appendix A of the digest, the fallback when nimms_deck_check.py is not there.
APPENDIX_A = [
    (4, 1, 0, 1, 0, 0), (0, 4, 1, 0, 1, 0), (0, 0, 4, 1, 0, 1), (1, 0, 0, 4, 1, 0),
    (0, 1, 0, 0, 4, 1), (1, 0, 1, 0, 0, 4), (3, 3, 0, 0, 0, 0), (0, 3, 3, 0, 0, 0),
    (0, 0, 3, 3, 0, 0), (0, 0, 0, 3, 3, 0), (0, 0, 0, 0, 3, 3), (3, 0, 0, 0, 0, 3),
    (3, 1, 2, 0, 0, 0), (0, 3, 1, 2, 0, 0), (0, 0, 3, 1, 2, 0), (0, 0, 0, 3, 1, 2),
    (2, 0, 0, 0, 3, 1), (1, 2, 0, 0, 0, 3), (3, 0, 1, 1, 1, 0), (0, 3, 0, 1, 1, 1),
    (1, 0, 3, 0, 1, 1), (1, 1, 0, 3, 0, 1), (1, 1, 1, 0, 3, 0), (0, 1, 1, 1, 0, 3),
    (2, 2, 0, 2, 0, 0), (0, 2, 2, 0, 2, 0), (0, 0, 2, 2, 0, 2), (2, 0, 0, 2, 2, 0),
    (0, 2, 0, 0, 2, 2), (2, 0, 2, 0, 0, 2), (2, 1, 1, 0, 1, 1), (1, 2, 1, 1, 0, 1),
    (1, 1, 2, 1, 1, 0), (0, 1, 1, 2, 1, 1), (1, 0, 1, 1, 2, 1), (1, 1, 0, 1, 1, 2),
]


def appendix_a_deck() -> list[tuple]:
    """The Appendix A deck, built by docs/rules/nimms_deck_check.py (the digest's checker)."""
    script = GAMES_DIR.parent / "docs" / "rules" / "nimms_deck_check.py"
    if script.exists():
        spec = importlib.util.spec_from_file_location("nimms_deck_check", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return [tuple(card) for card in module.build_deck()]
    return list(APPENDIX_A)


def pictures(kind: int) -> tuple:
    """How many of each body (B1..B6) a card kind shows."""
    return tuple(KINDS[kind].attr(b) for b in BODIES)


DECK = [pictures(i) for i in range(len(KINDS)) for _ in range(KINDS[i].count)]


# ---------------------------------------------------------------------------- helpers
def start(n: int, seed: int = 0):
    """A new match and its rng."""
    rng = random.Random(seed)
    state, _ = ENGINE.new_match(n, rng)
    return state, rng


def decide(state):
    return ENGINE.decision(state)


def skip_inspections(state, rng):
    """Everyone declines the running inspection window (if one is running)."""
    while not state.is_terminal and decide(state).phase == "inspect":
        state, _ = ENGINE.apply(state, DECLINE, rng)
    return state


def raise_bid(n_pics: int, body: int) -> Action:
    return Action("raise", (), (n_pics, body))


def bid(state, rng, n_pics: int, body: int):
    """The decider bids, then the following inspection window is declined."""
    state, _ = ENGINE.apply(state, raise_bid(n_pics, body), rng)
    return skip_inspections(state, rng)


def vote(state, rng, choices: dict, default: str = "thumb_up"):
    """Cast the thumbs vote: ``choices`` seat -> action name, forced votes otherwise."""
    events = []
    while not state.is_terminal and decide(state).phase == "thumbs":
        d = decide(state)
        names = [o.name for o in d.options]
        name = choices.get(d.seat, default if default in names else names[0])
        state, ev = ENGINE.apply(state, Action(name), rng)
        events += ev
    return state, events


def layout(state, hands: dict, piles: dict | None = None, pile_size: int = 3, box=()):
    """A copy of ``state`` with the given hands and piles (bottom first, top last); the
    other piles get ``pile_size`` cards each, everything else goes to the undealt deck."""
    piles = dict(piles or {})
    used = [k for cards in hands.values() for k in cards] + [k for cards in piles.values() for k in cards]
    used += list(box)
    assert len(used) == len(set(used)), "a card is placed twice"
    pool = [k for k in range(len(KINDS)) if k not in set(used)]
    zones = list(state.zones)
    for s in range(state.n):
        zones[ENGINE.zone_slot(state, "hand", s)] = tuple(hands.get(s, ()))
        if s not in piles:
            piles[s], pool = pool[:pile_size], pool[pile_size:]
        zones[ENGINE.zone_slot(state, "pile", s)] = tuple(piles[s])
    zones[ENGINE.zone_slot(state, "box", None)] = tuple(box)
    zones[ENGINE.zone_slot(state, "undealt", None)] = tuple(pool)
    rigged = state._replace(zones=tuple(zones), known=())
    assert cards_in_state(rigged) == deck_counter(ENGINE)
    return rigged


def hand(state, seat):
    return zone(ENGINE, state, "hand", seat)


def pile(state, seat):
    return zone(ENGINE, state, "pile", seat)


def chips(state, seat):
    return counter_value(ENGINE, state, "chips", seat)


def in_hands(state, body: int) -> int:
    return sum(pictures(k)[body] for s in range(state.n) for k in hand(state, s))


def cards_with(body: int, count: int) -> list[int]:
    """The kinds that show exactly ``count`` of a body."""
    return [i for i in range(len(KINDS)) if pictures(i)[body] == count]


def opening(n: int, seed: int = 0):
    """State at the opener's first bid (inspections declined), with the opener's seat."""
    state, rng = start(n, seed)
    state = skip_inspections(state, rng)
    d = decide(state)
    assert d.phase == "bid"
    return state, rng, d.seat


# ---------------------------------------------------------------------------- the deck
def test_deck_has_36_cards_of_6_pictures():
    """The parsed deck has 36 distinct cards, each showing 6 body pictures in the six patterns."""
    assert ENGINE.game.deck_size == 36
    assert len(DECK) == 36 and len(set(DECK)) == 36
    assert all(sum(card) == 6 for card in DECK)
    patterns = Counter(tuple(sorted((c for c in card if c), reverse=True)) for card in DECK)
    assert patterns == {(4, 1, 1): 6, (3, 3): 6, (3, 2, 1): 6, (3, 1, 1, 1): 6, (2, 2, 2): 6,
                        (2, 1, 1, 1, 1): 6}


def test_each_body_is_pictured_36_times():
    """Every body appears 36 times over the deck."""
    assert BODIES == ("B1", "B2", "B3", "B4", "B5", "B6")
    for b in range(6):
        assert sum(card[b] for card in DECK) == 36, BODIES[b]


def test_exactly_one_card_shows_four_of_each_body():
    """For every body exactly one card shows it 4 times, and no card shows a body more often."""
    for b in range(6):
        assert sum(1 for card in DECK if card[b] == 4) == 1, BODIES[b]
    assert max(max(card) for card in DECK) == 4


def test_every_card_lacks_a_body():
    """Every card misses at least one body (R16)."""
    assert all(0 in card for card in DECK)


@pytest.mark.parametrize("body", range(6))
def test_maxima_on_one_to_six_cards(body):
    """The most pictures of a body on k = 1..6 cards are 4/7/10/13/16/18 (checked on every k-subset)."""
    counts = sorted((card[body] for card in DECK), reverse=True)
    assert [sum(counts[:k]) for k in range(1, 7)] == [4, 7, 10, 13, 16, 18]
    showing = [card[body] for card in DECK if card[body]]
    for k in range(1, 7):
        assert max(sum(c) for c in itertools.combinations(showing, k)) == [4, 7, 10, 13, 16, 18][k - 1]


def test_deck_equals_appendix_a():
    """The file's cards c1..c36 are the Appendix A cards 1..36, in order."""
    assert [KINDS[i].card for i in range(36)] == [f"c{j}" for j in range(1, 37)]
    assert DECK == appendix_a_deck()
    assert DECK == APPENDIX_A


# ---------------------------------------------------------------------------- set-up
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_deals_six_per_pile_and_hands(n):
    """Each player gets 6 cards (1 or, with 3 players, 2 in hand), 2 chips; the rest is undealt."""
    state, _ = start(n, seed=n)
    size = 2 if n == 3 else 1
    for s in range(n):
        assert len(hand(state, s)) == size
        assert len(pile(state, s)) == 6 - size
        assert chips(state, s) == 2
    assert len(zone(ENGINE, state, "undealt")) == 36 - 6 * n
    dealer = seat_value(ENGINE, state, "dealer")
    state = skip_inspections(state, random.Random(0))
    assert decide(state).seat == (dealer + 1) % n     # left of the dealer opens (R8)


# ---------------------------------------------------------------------------- bids
bids = st.tuples(st.integers(1, 24), st.integers(0, 5))


@SETTINGS
@given(first=bids, second=bids, seed=st.integers(0, 1000))
def test_raise_must_be_higher(first, second, seed):
    """A raise is legal iff it names more pictures, or as many of a higher-ranked body."""
    state, rng, opener = opening(4, seed)
    state = bid(state, rng, *first)
    d = decide(state)
    assert d.phase == "bid" and d.seat == (opener + 1) % 4
    legal = ENGINE.is_legal(state, raise_bid(*second))
    assert legal == (second[0] > first[0] or (second[0] == first[0] and second[1] > first[1]))


def test_bid_order_examples():
    """Equal count needs a higher body; a higher count may name any body."""
    state, rng, _ = opening(5, 3)
    state = bid(state, rng, 3, 2)                     # 3 × B3
    assert ENGINE.is_legal(state, raise_bid(3, 3))    # 3 × B4
    assert ENGINE.is_legal(state, raise_bid(4, 0))    # 4 × B1
    assert not ENGINE.is_legal(state, raise_bid(3, 2))
    assert not ENGINE.is_legal(state, raise_bid(3, 1))
    assert not ENGINE.is_legal(state, raise_bid(2, 5))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, raise_bid(3, 0), rng)


@SETTINGS
@given(n=st.integers(3, 6), seed=st.integers(0, 10**6), count=st.integers(1, 24), body=st.integers(0, 5),
       pile_heavy=st.booleans())
def test_bid_true_iff_hands_hold_enough(n, seed, count, body, pile_heavy):
    """A bid is true iff the pictures of its body on the cards in all hands (not piles) reach its count."""
    state, rng, opener = opening(n, seed)
    if pile_heavy:
        # every card showing 3 or 4 of the body goes to piles, where it must not count
        heavy = cards_with(body, 4) + cards_with(body, 3)
        hands = {s: [k for k in hand(state, s) if k not in heavy] for s in range(n)}
        spare = [k for k in range(36) if k not in heavy and all(k not in h for h in hands.values())]
        for s in range(n):
            while len(hands[s]) < len(hand(state, s)):
                hands[s].append(spare.pop())
        state = layout(state, hands, {opener: heavy})
    count = min(count, 6 * len(hand(state, 0)) * n)
    state, _ = ENGINE.apply(state, raise_bid(count, body), rng)
    assert state.claim[1] == (count, body)
    assert ENGINE.claim_holds_in(state) == (in_hands(state, body) >= count)


def test_piles_do_not_count():
    """Cards in piles and the undealt deck do not count towards a bid (R1)."""
    state, rng, opener = opening(4, 1)
    b1 = 0
    four, threes = cards_with(b1, 4), cards_with(b1, 3)
    no_b1 = cards_with(b1, 0)
    hands = {s: [no_b1[s]] for s in range(4)}
    hands[opener] = [threes[0]]                      # 3 × B1 in hands
    state = layout(state, hands, {(opener + 1) % 4: four + threes[1:3]})
    assert in_hands(state, b1) == 3
    s3, _ = ENGINE.apply(state, raise_bid(3, b1), rng)
    assert ENGINE.claim_holds_in(s3)
    s4, _ = ENGINE.apply(state, raise_bid(4, b1), rng)
    assert not ENGINE.claim_holds_in(s4)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_opener_cannot_challenge(n):
    """The opener of a round must bid: challenge is neither offered nor legal."""
    state, rng, _ = opening(n, 5)
    d = decide(state)
    assert [o.name for o in d.options] == ["raise"]
    assert not ENGINE.is_legal(state, CHALLENGE)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, CHALLENGE, rng)
    # after one bid the next player may challenge
    state = bid(state, rng, 1, 0)
    assert ENGINE.is_legal(state, CHALLENGE)


def test_new_round_opener_cannot_challenge_and_is_left_of_challenger():
    """The next round is opened by the player left of the challenger, who must bid again."""
    state, rng, opener = opening(5, 8)
    state = bid(state, rng, 1, 0)
    state = bid(state, rng, 2, 0)
    challenger = decide(state).seat
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    state, _ = vote(state, rng, {})
    assert not state.is_terminal
    state = skip_inspections(state, rng)
    d = decide(state)
    assert d.phase == "bid" and d.seat == (challenger + 1) % 5
    assert state.claim is None
    assert not ENGINE.is_legal(state, CHALLENGE)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_vote_forces_bidder_true_and_challenger_false(n):
    """In the vote the bidder can only show his thumb, the challenger only hide it, others choose."""
    state, rng, opener = opening(n, 2)
    state = bid(state, rng, 2, 3)
    challenger = decide(state).seat
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    seen = set()
    while decide(state).phase == "thumbs":
        d = decide(state)
        names = sorted(o.name for o in d.options)
        if d.seat == opener:
            assert names == ["thumb_up"]
            assert not ENGINE.is_legal(state, Action("fist"))
        elif d.seat == challenger:
            assert names == ["fist"]
            assert not ENGINE.is_legal(state, Action("thumb_up"))
        else:
            assert names == ["fist", "thumb_up"]
        seen.add(d.seat)
        state, _ = ENGINE.apply(state, Action(names[0]), rng)
    assert seen == set(range(n)), "every player votes, nobody abstains"


# ---------------------------------------------------------------------------- resolution
@SETTINGS
@given(n=st.integers(4, 6), seed=st.integers(0, 10**6), truth=st.booleans(), data=st.data())
def test_winners_discard_losers_put_card_under_pile(n, seed, truth, data):
    """4-6 players: vote winners put their hand card in the box, losers under their own pile."""
    state, rng, opener = opening(n, seed)
    held = {s: hand(state, s) for s in range(n)}
    body = max(range(6), key=lambda b: in_hands(state, b))
    total = in_hands(state, body)
    assert total >= 1
    count = total if truth else total + 1
    state = bid(state, rng, count, body)
    challenger = decide(state).seat
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    before = state
    choices = {s: data.draw(st.sampled_from(["thumb_up", "fist"]), label=f"vote of {s}")
               for s in range(n) if s not in (opener, challenger)}
    choices[opener], choices[challenger] = "thumb_up", "fist"
    assert ENGINE.claim_holds_in(before) == truth
    state, events = vote(state, rng, choices)
    winning = "thumb_up" if truth else "fist"
    winners = {s for s in range(n) if choices[s] == winning}
    assert winners, "one of bidder and challenger always wins"
    assert sorted(zone(ENGINE, state, "box")) == sorted(k for s in winners for k in held[s])
    for s in range(n):
        old_pile = pile(before, s)
        if s in winners:
            assert pile(state, s) == old_pile[:-1]
            assert hand(state, s) == old_pile[-1:]
        else:
            # the card goes to the bottom; the new hand card is the old top (R15)
            after = held[s] + old_pile
            assert pile(state, s) == after[:-1]
            assert hand(state, s) == after[-1:]
    assert [e for e in events if e.kind == "reveal"], "all hand cards are revealed"


def test_loser_with_empty_pile_takes_his_card_back():
    """4-6 players: a loser whose pile is empty draws back the card he put under it (R15)."""
    state, rng, opener = opening(4, 4)
    hands = {s: [s] for s in range(4)}              # c1..c4
    state = layout(state, hands, {s: [10 + s] for s in range(4)} | {(opener + 1) % 4: []})
    challenger = (opener + 1) % 4
    state = bid(state, rng, 1, 0)                   # 1 × B1: c1 shows four, true
    assert decide(state).seat == challenger
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    state, _ = vote(state, rng, {})
    assert hand(state, challenger) == (challenger,)
    assert pile(state, challenger) == ()


# ---------------------------------------------------------------------------- inspection
@pytest.mark.parametrize("n", [4, 5, 6])
def test_inspection_shows_two_hands_to_the_inspector_only(n):
    """An inspection shows exactly the two named opponents' hand cards, privately, for one chip."""
    state, rng = start(n, 11)
    d = decide(state)
    assert d.phase == "inspect"
    inspector = d.seat
    others = [s for s in range(n) if s != inspector]
    option = next(o for o in d.options if o.name == "inspect")
    assert sorted(option.params[0][1]) == sorted(itertools.combinations(others, 2))
    assert {o.name for o in d.options} == {"inspect", "decline"}
    a, b = others[0], others[-1]
    state, events = ENGINE.apply(state, Action("inspect", (), ((a, b),)), rng)
    assert chips(state, inspector) == 1
    assert all(chips(state, s) == 2 for s in others)
    assert sorted(ENGINE.view(state, inspector).known) == sorted(
        [("hand", a, tuple(sorted(hand(state, a)))), ("hand", b, tuple(sorted(hand(state, b))))])
    for s in others:
        assert ENGINE.view(state, s).known == ()
    shows = [e for e in events if e.kind == "show"]
    assert len(shows) == 1 and shows[0].seat == inspector
    assert sorted(shows[0].data["cards"]) == sorted(hand(state, a) + hand(state, b))
    public = [e for e in events if e.seat is None and e.kind in ("reveal", "show")]
    assert public == []
    # the knowledge lasts while the cards stay; once the hands go to the box or under the
    # piles, what is known of them (now revealed to all) goes with them, and holds there
    state = skip_inspections(state, rng)
    assert len(ENGINE.view(state, inspector).known) == 2
    state = bid(state, rng, 1, 0)
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    state, _ = vote(state, rng, {})
    known = ENGINE.view(state, inspector).known
    assert not any(name == "hand" for name, _, _ in known)
    for name, owner, cards in known:
        held = state.zones[ENGINE.zone_slot(state, name, owner)]
        assert not Counter(cards) - Counter(held), (name, owner, cards)


@pytest.mark.parametrize("n", [4, 6])
def test_inspection_needs_two_different_opponents(n):
    """Naming oneself, one opponent twice or a single opponent is illegal."""
    state, rng = start(n, 12)
    inspector = decide(state).seat
    o1, o2 = (inspector + 1) % n, (inspector + 2) % n
    for bad in [(tuple(sorted((inspector, o1))),), ((o1, o1),), (o1,), ((o1, o2, (inspector + 3) % n),)]:
        assert not ENGINE.is_legal(state, Action("inspect", (), bad)), bad
    assert ENGINE.is_legal(state, Action("inspect", (), (tuple(sorted((o1, o2))),)))


def test_inspection_impossible_without_chips():
    """With 0 chips a player cannot inspect, and after two inspections his chips are spent."""
    state, rng = start(4, 13)
    inspector = decide(state).seat
    a, b = sorted([(inspector + 1) % 4, (inspector + 2) % 4])
    look = Action("inspect", (), ((a, b),))
    broke = set_counter(ENGINE, state, "chips", inspector, 0)
    assert "inspect" not in [o.name for o in decide(broke).options]
    assert not ENGINE.is_legal(broke, look)
    with pytest.raises(IllegalAction):
        ENGINE.apply(broke, look, rng)
    # spend both chips across two windows, then the seat is no longer asked
    state, _ = ENGINE.apply(state, look, rng)
    state = skip_inspections(state, rng)
    state, _ = ENGINE.apply(state, raise_bid(1, 0), rng)
    while decide(state).phase != "inspect" or decide(state).seat != inspector:
        d = decide(state)
        if d.phase == "inspect":
            state, _ = ENGINE.apply(state, DECLINE, rng)
        else:
            state, _ = ENGINE.apply(state, raise_bid(state.claim[1][0] + 1 if state.claim else 1, 0), rng)
    state, _ = ENGINE.apply(state, look, rng)
    assert chips(state, inspector) == 0
    for _ in range(3):
        state = skip_inspections(state, rng)
        state, _ = ENGINE.apply(state, raise_bid(state.claim[1][0] + 1, 0), rng)
        while decide(state).phase == "inspect":
            assert decide(state).seat != inspector, "a seat without chips is not asked"
            state, _ = ENGINE.apply(state, DECLINE, rng)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_inspection_after_a_challenge(n):
    """Once a challenge is declared nobody may inspect until the next round."""
    state, rng, opener = opening(n, 14)
    state = bid(state, rng, 1, 0)
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    looks = [Action("inspect", (), (pair,)) for pair in itertools.combinations(range(n), 2)]
    looks += [Action("inspect_one", (), (s,)) for s in range(n)] + [Action("inspect_each")]
    while decide(state).phase in ("thumbs", "give_up"):
        d = decide(state)
        assert not {o.name for o in d.options} & {"inspect", "inspect_one", "inspect_each"}
        for look in looks:
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, look, rng)
        state, _ = ENGINE.apply(state, ENGINE.legal_actions(state, 1)[0], rng)


# ---------------------------------------------------------------------------- the end
def end_scenario(n: int, chips_of: dict, bidder_pile: int = 0, mate_pile: int = 0, seed: int = 20):
    """The bidder and one other player (the mate) vote true on a true bid, each holding one
    card and the given number of pile cards; everyone else votes false."""
    state, rng, opener = opening(n, seed)
    challenger = (opener + 1) % n
    mate = (opener + 2) % n
    hands = {(opener + s) % n: [s] for s in range(n)}   # the bidder holds c1 (B1×4)
    piles = {opener: list(range(20, 20 + bidder_pile)), mate: list(range(30, 30 + mate_pile))}
    state = layout(state, hands, piles)
    for s, c in chips_of.items():
        state = set_counter(ENGINE, state, "chips", (opener + s) % n, c)
    state = bid(state, rng, 1, 0)
    assert decide(state).seat == challenger
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    votes = {s: "fist" for s in range(n)}
    votes[opener] = votes[mate] = "thumb_up"
    state, _ = vote(state, rng, votes)
    return state, opener, mate


def test_game_ends_when_a_winner_discards_his_last_card():
    """A winner with hand and pile empty ends the game; the most unused chips wins (R7)."""
    state, opener, mate = end_scenario(4, {0: 2, 2: 1})
    assert state.is_terminal
    assert state.winners == (opener,)


def test_tie_on_chips_shares_the_win():
    """Two players out with as many chips share the win."""
    state, opener, mate = end_scenario(5, {0: 1, 2: 1})
    assert state.is_terminal
    assert state.winners == tuple(sorted((opener, mate)))


def test_winner_with_cards_in_his_pile_is_not_out():
    """A winner who still has pile cards is not out: only the winner who is out wins, whatever the chips."""
    state, opener, mate = end_scenario(6, {0: 2, 2: 0}, bidder_pile=2)
    assert state.is_terminal
    assert state.winners == (mate,)
    state, opener, mate = end_scenario(4, {}, bidder_pile=1, mate_pile=1)
    assert not state.is_terminal


def test_game_goes_on_when_nobody_is_out():
    """A round whose winners all still hold cards does not end the game."""
    state, rng, opener = opening(4, 21)
    state = bid(state, rng, 1, 0)
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    state, _ = vote(state, rng, {})
    assert not state.is_terminal
    assert counter_value(ENGINE, state, "out", 0) == 0


# ---------------------------------------------------------------------------- 3 players
def three_player_round(seed: int, hands: dict, piles: dict, truth_bid=(1, 0), votes=None):
    """Play a 3-player round to the give-up choices: opener bids, next challenges."""
    state, rng, opener = opening(3, seed)
    state = layout(state, {(opener + s) % 3: h for s, h in hands.items()},
                   {(opener + s) % 3: p for s, p in piles.items()})
    state = bid(state, rng, *truth_bid)
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    choices = {(opener + s) % 3: v for s, v in (votes or {}).items()}
    state, _ = vote(state, rng, choices)
    assert decide(state).phase == "give_up"
    return state, rng, opener


def give_up(state, rng, choices: dict, offered: dict | None = None, forbidden: dict | None = None):
    """Cast the give-up choices (seat -> Action); record each seat's options in ``offered``
    and check that the actions of ``forbidden`` (seat -> [Action]) are illegal on its turn."""
    while not state.is_terminal and decide(state).phase == "give_up":
        d = decide(state)
        if offered is not None:
            offered[d.seat] = {o.name for o in d.options}
        for action in (forbidden or {}).get(d.seat, []):
            assert not ENGINE.is_legal(state, action), action
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, action, rng)
        state, _ = ENGINE.apply(state, choices[d.seat], rng)
    return state


def test_three_players_hold_two_cards_and_bids_count_six():
    """With 3 players every hand holds 2 cards and a bid counts all 6 hand cards."""
    state, rng, opener = opening(3, 30)
    assert all(len(hand(state, s)) == 2 for s in range(3))
    d = decide(state)
    assert max(dict(d.options[0].params)["n"]) == 36        # 6 cards × 6 pictures
    b1 = 0
    state = layout(state, {opener: [0, 6], (opener + 1) % 3: [11, 12], (opener + 2) % 3: [3, 5]})
    assert in_hands(state, b1) == 4 + 3 + 3 + 3 + 1 + 1     # c1, c7, c12, c13, c4, c6
    s15, _ = ENGINE.apply(state, raise_bid(15, b1), rng)
    s16, _ = ENGINE.apply(state, raise_bid(16, b1), rng)
    assert ENGINE.claim_holds_in(s15) and not ENGINE.claim_holds_in(s16)


def test_three_players_winners_choose_discard_losers_choose_card_under_pile():
    """3 players: a winner discards the card he chooses, a loser puts the one he chooses under his pile."""
    # the opener bids 1 × B1 (true); seat +1 challenges (loses); seat +2 votes true (wins)
    hands = {0: [0, 1], 1: [2, 3], 2: [4, 5]}
    piles = {0: [20, 21], 1: [22, 23], 2: [24, 25]}
    state, rng, o = three_player_round(31, hands, piles, votes={2: "thumb_up"})
    seat = {r: (o + r) % 3 for r in range(3)}
    offered: dict = {}
    state = give_up(state, rng, {seat[0]: Action("discard", (1,)), seat[2]: Action("discard", (4,)),
                                 seat[1]: Action("keep_under", (3,))}, offered,
                    forbidden={seat[0]: [Action("keep_under", (0,)), Action("discard", (2,))],
                               seat[1]: [Action("discard", (2,)), Action("keep_under", (2, 3))]})
    assert offered == {seat[0]: {"discard"}, seat[1]: {"keep_under"}, seat[2]: {"discard"}}
    assert sorted(zone(ENGINE, state, "box")) == [1, 4]
    assert sorted(hand(state, seat[0])) == [0, 21]
    assert sorted(hand(state, seat[2])) == [5, 25]
    assert sorted(hand(state, seat[1])) == [2, 23]
    assert pile(state, seat[1]) == (3, 22)
    assert pile(state, seat[0]) == (20,)


def test_three_players_exchange_only_with_an_empty_pile():
    """3 players: a loser may exchange with the undealt deck only once his pile is empty."""
    hands = {0: [0, 1], 1: [2, 3], 2: [4, 5]}
    piles = {0: [20], 1: [], 2: [24]}
    state, rng, o = three_player_round(32, hands, piles, votes={2: "fist"})
    loser_empty, loser_full = (o + 1) % 3, (o + 2) % 3
    undealt_before = zone(ENGINE, state, "undealt")
    top = undealt_before[-1]
    offered: dict = {}
    state = give_up(state, rng, {o: Action("discard", (0,)), loser_full: Action("keep_under", (4,)),
                                 loser_empty: Action("exchange", (3,))}, offered,
                    forbidden={loser_full: [Action("exchange", (4,))], o: [Action("exchange", (0,))]})
    assert offered[loser_empty] == {"keep_under", "exchange"}
    assert offered[loser_full] == {"keep_under"}
    assert offered[o] == {"discard"}
    assert sorted(hand(state, loser_empty)) == sorted([2, top])
    assert pile(state, loser_empty) == ()
    assert Counter(zone(ENGINE, state, "undealt")) == Counter(undealt_before) - Counter([top]) + Counter([3])


def test_three_players_loser_without_exchange_draws_his_card_back():
    """3 players: a loser with an empty pile who does not exchange draws back the card he put under."""
    hands = {0: [0, 1], 1: [2, 3], 2: [4, 5]}
    state, rng, o = three_player_round(33, hands, {0: [20], 1: [], 2: [24]}, votes={2: "fist"})
    state = give_up(state, rng, {o: Action("discard", (0,)), (o + 2) % 3: Action("keep_under", (4,)),
                                 (o + 1) % 3: Action("keep_under", (3,))})
    assert sorted(hand(state, (o + 1) % 3)) == [2, 3]
    assert pile(state, (o + 1) % 3) == ()


def test_three_players_one_card_once_the_pile_is_empty():
    """3 players: a winner with an empty pile plays on with one card."""
    hands = {0: [0, 1], 1: [2, 3], 2: [4, 5]}
    state, rng, o = three_player_round(34, hands, {0: [], 1: [22], 2: [24, 25]}, votes={2: "fist"})
    state = give_up(state, rng, {o: Action("discard", (1,)), (o + 1) % 3: Action("keep_under", (3,)),
                                 (o + 2) % 3: Action("keep_under", (5,))})
    assert not state.is_terminal
    assert hand(state, o) == (0,)
    assert pile(state, o) == ()
    # the next round the single card is bid on; the others still hold two
    assert sorted(len(hand(state, s)) for s in range(3)) == [1, 2, 2]


def test_three_players_winner_with_last_card_ends_game():
    """3 players: a winner discarding his very last card ends the game and wins."""
    hands = {0: [0], 1: [2, 3], 2: [4, 5]}
    state, rng, o = three_player_round(35, hands, {0: [], 1: [22], 2: [24, 25]}, votes={2: "fist"})
    state = give_up(state, rng, {o: Action("discard", (0,)), (o + 1) % 3: Action("keep_under", (3,)),
                                 (o + 2) % 3: Action("keep_under", (5,))})
    assert state.is_terminal
    assert state.winners == (o,)


def test_three_player_inspection_variants():
    """3 players: a chip shows both cards of one opponent, or one random card of each; 'inspect' is absent."""
    state, rng = start(3, 36)
    d = decide(state)
    inspector = d.seat
    assert {o.name for o in d.options} == {"inspect_one", "inspect_each", "decline"}
    a, b = (inspector + 1) % 3, (inspector + 2) % 3
    one, events = ENGINE.apply(state, Action("inspect_one", (), (a,)), rng)
    assert chips(one, inspector) == 1
    assert ENGINE.view(one, inspector).known == (("hand", a, tuple(sorted(hand(state, a)))),)
    assert ENGINE.view(one, a).known == () and ENGINE.view(one, b).known == ()
    assert [e.seat for e in events if e.kind == "show"] == [inspector]
    assert not ENGINE.is_legal(state, Action("inspect_one", (), (inspector,)))
    each, events = ENGINE.apply(state, Action("inspect_each"), rng)
    assert chips(each, inspector) == 1
    known = ENGINE.view(each, inspector).known
    assert sorted(owner for _, owner, _ in known) == sorted([a, b])
    for name, owner, cards in known:
        assert name == "hand" and len(cards) == 1 and cards[0] in hand(state, owner)
    assert all(e.seat == inspector for e in events if e.kind == "show")
    assert ENGINE.view(each, a).known == () and ENGINE.view(each, b).known == ()


def test_three_player_inspect_each_shows_the_single_card():
    """3 players: 'one of each' shows an opponent's only card when he holds one (R13)."""
    state, rng = start(3, 37)
    inspector = decide(state).seat
    a, b = (inspector + 1) % 3, (inspector + 2) % 3
    state = layout(state, {inspector: [0, 1], a: [7], b: [8, 9]})
    for seed in range(5):
        after, _ = ENGINE.apply(state, Action("inspect_each"), random.Random(seed))
        known = dict((owner, cards) for _, owner, cards in ENGINE.view(after, inspector).known)
        assert known[a] == (7,)
        assert known[b] in ((8,), (9,))


def test_four_players_have_no_three_player_inspections():
    """With 4+ players only the two-opponent inspection exists."""
    state, rng = start(4, 38)
    assert {o.name for o in decide(state).options} == {"inspect", "decline"}
    assert not ENGINE.is_legal(state, Action("inspect_each"))


# ---------------------------------------------------------------------------- secrecy
@pytest.mark.parametrize("n", [3, 4, 6])
def test_votes_stay_secret_until_all_are_cast(n):
    """While the vote runs, no seat's view (nor any event) tells how a free voter voted."""
    state, rng, opener = opening(n, 50)
    state = bid(state, rng, 2, 2)
    challenger = decide(state).seat
    state, _ = ENGINE.apply(state, CHALLENGE, rng)
    # cast votes up to the first free voter, then branch on his vote
    while decide(state).seat in (opener, challenger):
        d = decide(state)
        state, _ = ENGINE.apply(state, Action(d.options[0].name), rng)
    voter = decide(state).seat
    up, ev_up = ENGINE.apply(state, Action("thumb_up"), random.Random(1))
    down, ev_down = ENGINE.apply(state, Action("fist"), random.Random(1))
    assert up.votes != down.votes
    assert not up.is_terminal and decide(up).phase == "thumbs", "the vote is still running"
    for s in range(n):
        assert ENGINE.view(up, s) == ENGINE.view(down, s), f"seat {s} can tell how seat {voter} voted"
    assert ev_up == ev_down


def test_which_card_a_three_player_winner_discards_stays_secret():
    """3 players: the other seats cannot tell which of his two cards a winner discarded (R12)."""
    hands = {0: [0, 1], 1: [2, 3], 2: [4, 5]}
    piles = {0: [20, 21], 1: [22, 23], 2: [24, 25]}
    views = []
    for discarded in (0, 1):
        state, rng, o = three_player_round(51, hands, piles, votes={2: "fist"})
        state = give_up(state, random.Random(2), {o: Action("discard", (discarded,)),
                                                   (o + 1) % 3: Action("keep_under", (2,)),
                                                   (o + 2) % 3: Action("keep_under", (4,))})
        assert not state.is_terminal
        views.append([ENGINE.view(state, s) for s in range(3)])
    for s in ((o + 1) % 3, (o + 2) % 3):
        assert views[0][s] == views[1][s]
    assert views[0][o] != views[1][o]
