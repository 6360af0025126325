"""Bluff (games/bluff.rules) against shared/rules/more-games.md section 4 and its resolutions
B1..B15.

Scenarios play from a match's start, or rig a round at its first bid: each seat's hand (its
size is its public card count h), who opens, who is out; every other card lies in the
stock. Then they bid, call "Bluff!" and read who loses, the new counts, the next opener.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulekit import Action, IllegalAction, play_match
from rulekit.errors import OptionError
from rulekit.play.match import seat_rng
from rulekit.players import GenericBot, RandomBot

from strategies import GAMES_DIR, cards_in_state, counter_value, engine_for, seat_value, set_counter, zone

PATH = str(GAMES_DIR / "bluff.rules")
E = engine_for(PATH)
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("clubs", "diamonds", "hearts", "spades")
K = {E.kind_label(i): i for i in range(len(E.kinds))}
BIDS = E.combination_values("bid")          # the 372 bids in words, lowest first
CALL = Action("challenge")


def BID(words: str) -> Action:
    return Action("raise", (), (BIDS.index(words),))


def start(n: int = 3, seed: int = 0):
    return E.new_match(n, random.Random(seed))[0]


def act(state, *actions, seed: int = 0):
    rng = random.Random(seed)
    for a in actions:
        state, _ = E.apply(state, a, rng)
    return state


def decider(state):
    d = E.decision(state)
    return None if d is None else d.seat


def hand(state, s):
    return sorted(E.kind_label(k) for k in zone(E, state, "hand", s))


def cards(state, s):
    return counter_value(E, state, "hand_size", s)


def table(hands, opener: int = 0, out=()):
    """A round at its first bid, ``opener`` to bid: ``hands`` the labels of each seat's cards
    ('Q hearts'); seats in ``out`` are out (their hands empty, 5 cards counted)."""
    n = len(hands)
    state = start(n)
    zones = list(state.zones)
    for s, labels in enumerate(hands):
        zones[E.zone_slot(state, "hand", s)] = tuple(K[x] for x in labels)
        state = set_counter(E, state, "hand_size", s, len(labels) if s not in out else 5)
    held = Counter(x for labels in hands for x in labels)
    zones[E.zone_slot(state, "stock")] = tuple(k for k in range(len(E.kinds)) if E.kind_label(k) not in held)
    seats = list(state.seats)
    seats[E.cg.seat_names.index("current")] = opener
    seats[E.cg.seat_names.index("opener")] = opener
    outs = [0] * n
    for i, s in enumerate(out, 1):
        outs[s] = i
    state = state._replace(zones=tuple(zones), seats=tuple(seats), out=tuple(outs))
    assert cards_in_state(state, E) == Counter(range(len(E.kinds)))
    return state


def challenged(hands, bid: str, **kw):
    """After the opener (P1 unless told) bids ``bid`` and the next player calls "Bluff!"."""
    return act(table(hands, **kw), BID(bid), CALL)


def loser(before, after) -> int:
    """The one seat whose card count rose (or who went out) in a challenge."""
    changed = [s for s in range(before.n) if cards(after, s) != cards(before, s) or after.out[s] != before.out[s]]
    assert len(changed) == 1, changed
    return changed[0]


# ---------------------------------------------------------------------------- components, setup
def test_one_standard_pack_of_52_cards_without_jokers():
    """Components, B3: 13 ranks in 4 suits, no other card."""
    assert sorted(K) == sorted(f"{r} {s}" for r in RANKS for s in SUITS)
    assert 52 == sum(cards_in_state(start(4), E).values())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_everyone_starts_with_one_card_and_p1_opens(n):
    """Setup, B1: h = 1 for every player, public; seat 0 opens round 1."""
    state = start(n, seed=n)
    assert [1] * n == [len(hand(state, s)) for s in range(n)] == [cards(state, s) for s in range(n)]
    assert 0 == decider(state)
    assert 52 - n == len(zone(E, state, "stock"))


@pytest.mark.parametrize("n", [1, 7])
def test_two_to_six_players(n):
    """B2."""
    with pytest.raises(OptionError):
        start(n)


def test_a_hand_is_private_and_hand_sizes_are_public():
    """Round 3, B15: each sees only his own cards; every h is public."""
    state = table([["A spades", "2 clubs"], ["K hearts"], ["5 clubs"]])
    for viewer in range(3):
        view = E.view(state, viewer)
        for s in range(3):
            count, shown = view.zone("hand", s)
            assert (shown is None) == (s != viewer)
        assert (2, 1, 1) == dict(view.counters)["hand_size"]
    assert (48, None) == E.view(state, 0).zone("stock")


# ---------------------------------------------------------------------------- bids
def test_there_are_372_bids_and_the_opener_may_make_any():
    """Bids, B11: the 372 bids of the digest's table; the opener must bid, any bid."""
    assert 372 == len(BIDS)
    state = table([["A spades"], ["K hearts"], ["5 clubs"]])
    with pytest.raises(IllegalAction):
        act(state, CALL)
    for bid in ("2 high", "A high", "a spades straight flush to A"):
        assert 1 == decider(act(state, BID(bid)))


@pytest.mark.parametrize("low, high", [
    ("a pair of 9s", "a pair of 10s"), ("Ks over 4s", "Ks over 5s"), ("Qs over Js", "Ks over 2s"),
    ("As over Ks", "three 2s"), ("a straight to 5", "a straight to 6"), ("a spades flush to A", "3s full of As"),
    ("3s full of As", "4s full of 2s"), ("a clubs flush to 10", "a spades flush to 10"),
    ("a spades flush to 9", "a clubs flush to 10"),
])
def test_each_bid_must_beat_the_last_in_the_digests_order(low, high):
    """Bids, B4, B6, B9: the digest's examples, in both orders."""
    state = table([["A spades"], ["K hearts"], ["5 clubs"]])
    assert 2 == decider(act(state, BID(low), BID(high)))
    with pytest.raises(IllegalAction):
        act(state, BID(high), BID(low))
    with pytest.raises(IllegalAction):
        act(state, BID(low), BID(low))


def test_after_the_top_bid_only_the_call_is_left():
    """Challenge: over bid 371 nothing is higher."""
    state = act(table([["A spades"], ["K hearts"]]), BID("a spades straight flush to A"))
    assert ["challenge"] == [a.name for a in E.legal_actions(state)]


def test_only_the_next_player_may_challenge_and_nobody_passes():
    """B10, B14: after a bid, the next player bids higher or calls; no other action exists."""
    state = act(table([["A spades"], ["K hearts"], ["5 clubs"], ["7 clubs"]]), BID("2 high"))
    assert 1 == decider(state)
    assert {"raise", "challenge"} == {a.name for a in E.legal_actions(state)}


# ---------------------------------------------------------------------------- what makes a bid true
POOL = [["A spades", "2 hearts", "3 clubs", "9 diamonds", "9 clubs"], ["4 spades", "5 diamonds", "Q hearts"],
        ["K hearts", "6 hearts", "10 hearts", "J hearts"]]


@pytest.mark.parametrize("bid, true", [
    ("9 high", True),                            # B8: true with an ace present too
    ("7 high", False),
    ("a pair of 9s", True), ("a pair of As", False),
    ("a straight to 5", True),                   # B7: A-2-3-4-5 from three hands
    ("a straight to 6", True),
    ("a hearts flush to K", True),               # K plus 4 lower hearts: 2, 6, 10, J (Q is higher… also lower)
    ("a hearts flush to 10", False),             # 10 with only 2, 6 below it in hearts
    ("9s over 2s", False),
])
def test_a_bid_is_judged_on_all_hands_together(bid, true):
    """Bids, B8, B5, B7: a bid is true if some cards of the whole pool form it."""
    state = challenged(POOL, bid)
    assert loser(table(POOL), state) == (1 if true else 0)


def test_no_straight_wraps_round():
    """B7: Q-K-A-2-3 is no straight."""
    hands = [["Q clubs", "K clubs"], ["A hearts", "2 hearts", "3 spades"]]
    for top in ("a straight to 5", "a straight to A"):
        state = challenged(hands, top)
        assert 0 == loser(table(hands), state)


def test_a_six_high_flush_is_a_bid():
    """B5: a 6-high flush needs 2-6 of one suit; it is allowed although it is a straight flush."""
    hands = [["2 diamonds", "3 diamonds", "4 diamonds"], ["5 diamonds", "6 diamonds"]]
    assert 1 == loser(table(hands), challenged(hands, "a diamonds flush to 6"))
    assert 1 == loser(table(hands), challenged(hands, "a diamonds straight flush to 6"))


# ---------------------------------------------------------------------------- after the call
def test_the_loser_takes_a_card_more_and_opens_the_next_round():
    """Challenge, B12: exactly one loser, whose h rises; he opens the next round, in which
    every hand is dealt anew from all 52 cards (B13)."""
    hands = [["A spades"], ["K hearts"], ["5 clubs"]]
    state = challenged(hands, "a pair of As")               # false: the bidder P1 loses
    assert (2, 1, 1) == tuple(cards(state, s) for s in range(3))
    assert 0 == decider(state) == seat_value(E, state, "opener")
    assert [2, 1, 1] == [len(hand(state, s)) for s in range(3)]
    assert 52 - 4 == len(zone(E, state, "stock"))
    state = challenged(hands, "A high")                     # true: the caller P2 loses
    assert (1, 2, 1) == tuple(cards(state, s) for s in range(3))
    assert 1 == decider(state)


def test_a_loser_with_five_cards_is_out_and_the_next_player_opens():
    """Challenge, End, B1, B12: losing with h = 5 puts him out; his cards leave play; the
    next player still in, clockwise from him, opens."""
    hands = [["2 clubs", "3 clubs", "4 clubs", "5 clubs", "7 clubs"], ["K hearts"], ["5 hearts"]]
    state = challenged(hands, "four As")
    assert state.out[0]
    assert 1 == decider(state) == seat_value(E, state, "opener")
    assert [0, 1, 1] == [len(hand(state, s)) for s in range(3)]


def test_the_last_player_left_wins_and_the_others_rank_in_reverse_order_of_going_out():
    """End."""
    hands = [["K hearts"], ["2 clubs", "3 clubs", "4 clubs", "5 clubs", "7 clubs"], ["5 hearts"]]
    state = act(table(hands, opener=1, out=(0,)), BID("four As"), CALL)
    assert state.is_terminal
    assert (-1, -1, 1) == tuple(E.returns(state))
    assert [2, 1, 0] == [seat for seat, _ in E.standings(state)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_match_lasts_at_most_5p_minus_1_rounds(n):
    """End: each player out lost exactly 5 times, the winner at most 4 times."""
    for seed in range(3):
        bots = [GenericBot(E, seat_rng(seed, s)) if s % 2 else RandomBot(seat_rng(seed, s)) for s in range(n)]
        deals = []
        record = play_match(E, bots, n, seed, on_events=lambda state, events: deals.extend(
            ev for ev in events if ev.kind == "deal_start"))
        assert len(deals) <= 5 * n - 1
        assert 1 == len(record.winners)
