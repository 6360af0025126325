"""Coyote (games/coyote.rules) against shared/rules/more-games.md section 5 and its resolutions
Y1..Y16.

Scenarios play from a match's start, or rig a table at the start of the bidding: the card
on each head, the deck (its top card last) and the discards, every one of the 36 cards
somewhere. Then they bid, call "Coyote!" and read the count, the lost life, the cleanup
and who starts the next round.
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

PATH = str(GAMES_DIR / "coyote.rules")
E = engine_for(PATH)
K = {E.kind_label(i): i for i in range(len(E.kinds))}
# Y1: the Kidult Game 2003 deck
DECK = Counter({**{str(v): 4 for v in range(1, 6)}, "10": 3, "15": 2, "20": 1, "0": 3, "-5": 2, "-10": 1,
                "Night": 1, "×2": 1, "Max→0": 1, "?": 1})
CALL = Action("coyote")


def BID(n):
    return Action("bid", (), (n,))


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


def head(state, s):
    return tuple(E.kind_label(k) for k in zone(E, state, "head", s))


def lives(state, s):
    return counter_value(E, state, "lives", s)


def table(heads, top=(), discard=(), starter: int = 0, seed: int = 0, lives_left=None):
    """A match at the start of a round's bidding, ``starter`` to bid: ``heads`` the label of
    each seat's card, ``top`` the deck's top cards (the topmost last), ``discard`` the
    discards; every other card lies in the deck below ``top``, shuffled by ``seed``."""
    n = len(heads)
    state = start(n, seed)
    rest = DECK - Counter(heads) - Counter(top) - Counter(discard)
    assert not (Counter(heads) + Counter(top) + Counter(discard)) - DECK, "more cards than the deck has"
    below = [K[label] for label in rest.elements()]
    random.Random(seed).shuffle(below)
    zones = list(state.zones)
    for s, label in enumerate(heads):
        zones[E.zone_slot(state, "head", s)] = (K[label],)
    zones[E.zone_slot(state, "deck")] = tuple(below) + tuple(K[label] for label in top)
    zones[E.zone_slot(state, "discard")] = tuple(K[label] for label in discard)
    seats = list(state.seats)
    seats[E.cg.seat_names.index("current")] = starter
    seats[E.cg.seat_names.index("starter")] = starter
    state = state._replace(zones=tuple(zones), seats=tuple(seats))
    for s, v in (lives_left or {}).items():
        state = set_counter(E, state, "lives", s, v)
    assert cards_in_state(state, E) == Counter({K[label]: c for label, c in DECK.items()})
    return state


def called(heads, bid: int, **kw):
    """The state after the starter (P1) bids ``bid`` and P2 calls "Coyote!" on it."""
    return act(table(heads, **kw), BID(bid), CALL)


def total_of(heads, **kw) -> int:
    """The count of the cards in play (digest §5, Count), read from the rules: the highest
    bid that is still safe (Y12: a bid equal to the total is safe)."""
    for bid in range(1, 142):
        after = called(heads, bid, **kw)
        if lives(after, 0) < 3:                 # the bidder lost: the bid was above the total
            return bid - 1
    return 141


# ---------------------------------------------------------------------------- components, setup
def test_the_deck_has_the_36_cards_of_the_kidult_edition():
    """Y1: 1-5 four each, 10 ×3, 15 ×2, 20, 0 ×3, -5 ×2, -10, Night, ×2, Max→0 and ?."""
    state = start(4)
    assert Counter(E.kind_label(k) for k in cards_in_state(state, E).elements()) == DECK


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_one_card_to_each_head_and_three_lives(n):
    """Setup, Round 1, Y3: one card on each head, the rest in the deck, no discards, 3 lives
    each, P1 (seat 0) bids first."""
    state = start(n, seed=n)
    assert [1] * n == [len(head(state, s)) for s in range(n)]
    assert 36 - n == len(zone(E, state, "deck"))
    assert () == zone(E, state, "discard")
    assert [3] * n == [lives(state, s) for s in range(n)]
    assert 0 == decider(state)


@pytest.mark.parametrize("n", [1, 7])
def test_two_to_six_players(n):
    """Y2: 2 to 6 players."""
    with pytest.raises(OptionError):
        start(n)


def test_each_seat_sees_every_head_but_its_own_and_the_discards():
    """Round 2, Y14: all cards on heads but one's own; the discards face up; the deck's
    order hidden (only how many)."""
    state = table(["5", "10", "-5"], discard=["20", "?"])
    for viewer in range(3):
        view = E.view(state, viewer)
        for s in range(3):
            count, cards = view.zone("head", s)
            assert 1 == count
            assert (cards is None) == (s == viewer)
        assert ("20", "?") == tuple(sorted(E.kind_label(k) for k in view.zone("discard")[1]))
        assert (36 - 5, None) == view.zone("deck")


def test_the_starters_own_card_is_hidden_from_it_in_the_log_it_may_read():
    """The deal as each seat perceives it: the others' cards, not its own."""
    state, events = E.new_match(3, random.Random(5))
    deal = next(ev for ev in events if ev.kind == "deal")
    for seat in range(3):
        seen = E.observe(deal, seat, 3)
        for slot, cards in seen.data["dealt"]:
            owner = E.cg.zone_owner(slot, 3)[1]
            assert (cards == (None,)) == (owner == seat)


# ---------------------------------------------------------------------------- bidding
def test_the_starter_must_bid_at_least_one():
    """Round 3: no call before a bid; the lowest bid is 1."""
    state = table(["5", "10", "-5"])
    with pytest.raises(IllegalAction):
        act(state, CALL)
    with pytest.raises(IllegalAction):
        act(state, BID(0))
    assert 1 == decider(act(state, BID(1)))


def test_each_bid_must_be_higher_and_141_is_the_highest():
    """Y11: each later bid at least the previous one plus 1; 141 is the largest bid offered."""
    state = act(table(["5", "10", "-5"]), BID(7))
    for low in (6, 7):
        with pytest.raises(IllegalAction):
            act(state, BID(low))
    assert 2 == decider(act(state, BID(8)))
    top = act(state, BID(141))
    with pytest.raises(IllegalAction):
        act(top, BID(142))
    assert ["coyote"] == [a.name for a in E.legal_actions(top)]


def test_only_the_next_player_calls_and_nobody_passes():
    """Y13: after a bid the next player in turn decides, to bid higher or call; there is no pass."""
    state = act(table(["5", "10", "-5", "1"]), BID(3))
    assert 1 == decider(state)
    assert {"bid", "coyote"} == {a.name for a in E.legal_actions(state)}
    assert 2 == decider(act(state, BID(4)))


# ---------------------------------------------------------------------------- the count
@pytest.mark.parametrize("heads, top, total", [
    (["5", "10", "-5", "×2"], (), 20),            # 5, 10, -5 and ×2 give 20
    (["20", "4", "3", "Max→0"], (), 7),           # 20, 4, 3 and Max→0 give 7
    (["?", "3", "3"], ("15",), 21),               # ?, 3 and 3 with a 15 drawn give 21
    (["Max→0", "5", "5", "1"], (), 6),            # Max→0, 5, 5 and 1 give 6
    (["?", "10", "4"], ("×2",), 28),              # ?, 10 and 4 with ×2 drawn give 28
    (["Night", "10", "-10"], (), 0),              # Night counts 0 (Y10)
    (["Max→0", "-5", "-10", "3"], (), -12),       # only a positive card is zeroed (Y8)
    (["×2", "-5", "1"], (), -8),                  # ×2 doubles a negative total too (Y9)
    (["?", "Max→0", "15"], ("20",), 15),          # the drawn card is the one zeroed (Y5, Y6)
])
def test_the_count_follows_the_digest_examples(heads, top, total):
    """Count steps 1-4 and Y5, Y6, Y8-Y10, with the digest's own examples."""
    assert max(total, 0) == total_of(heads, top=top)


def test_when_nothing_counts_positive_every_bid_fails():
    """-10, 0 and Max→0 give -10, so every possible bid fails: the bidder of 1 loses."""
    state = called(["-10", "0", "Max→0"], 1)
    assert (2, 3, 3) == tuple(lives(state, s) for s in range(3))


def test_a_bid_equal_to_the_total_is_safe():
    """Y12: the bid equal to the total stands and the caller loses; one more and the bidder loses."""
    heads = ["5", "10", "-5"]
    safe = called(heads, 10)
    assert (3, 2, 3) == tuple(lives(safe, s) for s in range(3))
    high = called(heads, 11)
    assert (2, 3, 3) == tuple(lives(high, s) for s in range(3))


def test_the_question_mark_draws_the_top_card_and_it_is_discarded():
    """Count 1 and cleanup: the ? takes the deck's top card, which joins the discards with
    the cards on heads."""
    state = called(["?", "3", "3"], 30, top=("15",))
    assert {"?", "3", "15"} == set(E.kind_label(k) for k in zone(E, state, "discard"))
    assert 4 == len(zone(E, state, "discard"))


def test_the_question_mark_reshuffles_the_discards_when_the_deck_is_empty():
    """Y7: with an empty deck the discards (not the cards on heads) become the deck, then the
    ? draws."""
    heads = ["?", "3", "4"]
    state = table(heads)
    rest = (DECK - Counter(heads))
    zones = list(state.zones)
    zones[E.zone_slot(state, "discard")] = zones[E.zone_slot(state, "deck")]
    zones[E.zone_slot(state, "deck")] = ()
    state = state._replace(zones=tuple(zones))
    state = act(state, BID(5), CALL)
    assert sum(rest.values()) + len(heads) == len(zone(E, state, "discard")) + len(zone(E, state, "deck")) + 3


# ---------------------------------------------------------------------------- after the call
def test_the_loser_loses_a_life_and_starts_the_next_round():
    """Challenge, Y4: the loser takes a marker and starts the next round."""
    state = called(["5", "10", "-5"], 11)        # too high: P1 loses
    assert (2, 3, 3) == tuple(lives(state, s) for s in range(3))
    assert 0 == decider(state) == seat_value(E, state, "starter")
    state = called(["5", "10", "-5"], 10)        # safe: the caller P2 loses
    assert 1 == decider(state) == seat_value(E, state, "starter")


def test_cards_in_play_go_to_the_discards_and_a_new_card_is_dealt():
    """Cleanup, Round 1: the cards on heads go face up to the discards; each player still in
    gets a new card from the deck."""
    state = called(["5", "10", "-5"], 11, discard=["20"])
    assert Counter(["5", "10", "-5", "20"]) == Counter(E.kind_label(k) for k in zone(E, state, "discard"))
    assert [1, 1, 1] == [len(head(state, s)) for s in range(3)]
    assert 36 - 4 - 3 == len(zone(E, state, "deck"))


@pytest.mark.parametrize("top", [(), ("Night",)])
def test_the_night_gathers_all_cards_into_a_fresh_deck(top):
    """Y10, Y6: with the Night in play, worn or drawn for the ?, all 36 cards are shuffled
    into a new deck and the discards are left empty."""
    heads = ["Night", "3", "4"] if not top else ["?", "3", "4"]
    state = called(heads, 50, top=top, discard=["20", "15"])
    assert () == zone(E, state, "discard")
    assert 36 - 3 == len(zone(E, state, "deck"))


def test_a_deal_from_an_empty_deck_first_shuffles_the_discards_into_it():
    """Round 1, Y15: the discards become the deck when a card must be dealt from an empty one."""
    heads = ["1", "2", "3"]
    state = table(heads)
    zones = list(state.zones)
    zones[E.zone_slot(state, "discard")] = zones[E.zone_slot(state, "deck")][1:]
    zones[E.zone_slot(state, "deck")] = zones[E.zone_slot(state, "deck")][:1]
    state = state._replace(zones=tuple(zones))
    state = act(state, BID(1), CALL)             # 6 >= 1: the caller loses
    assert [1, 1, 1] == [len(head(state, s)) for s in range(3)]
    # the deck's last card went to P1, then all 35 discards (the 3 just played too) became
    # the deck, from which P2 and P3 got theirs
    assert (36 - 3, ()) == (len(zone(E, state, "deck")), zone(E, state, "discard"))


def test_the_third_lost_life_puts_a_player_out_and_the_next_one_starts():
    """Y3, Y4: a player at 0 lives is out; the next player still in, clockwise from him, starts."""
    state = called(["5", "10", "-5"], 11, lives_left={0: 1})
    assert state.out[0]
    assert 1 == decider(state) == seat_value(E, state, "starter")
    assert [0, 1, 1] == [len(head(state, s)) for s in range(3)]


def test_the_last_player_left_wins():
    """End: with two players, the other wins when one is out."""
    state = called(["5", "10"], 16, lives_left={0: 1})
    assert state.is_terminal
    assert (-1, 1) == tuple(E.returns(state))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_match_lasts_at_most_3p_minus_1_rounds(n):
    """End: each eliminated player loses exactly 3 times, the winner at most twice."""
    for seed in range(4):
        bots = [GenericBot(E, seat_rng(seed, s)) if s % 2 else RandomBot(seat_rng(seed, s)) for s in range(n)]
        calls = []
        record = play_match(E, bots, n, seed, on_events=lambda state, events: calls.extend(
            ev for ev in events if ev.kind == "action" and ev.data["action"] == "coyote"))
        assert len(calls) <= 3 * n - 1
        assert 1 == len(record.winners)


# ---------------------------------------------------------------------------- a card held to the forehead
def test_a_bot_samples_its_own_card_and_keeps_the_others():
    """The bots' sampling: in every state drawn from P1's view the other heads are as P1
    sees them, and P1's own card varies over the cards it cannot see."""
    from rulekit.players.determinize import sampler

    state = table(["5", "10", "-5"], discard=["20"])
    draw = sampler(E, E.view(state, 0))
    rng = random.Random(1)
    own = set()
    for _ in range(200):
        sample = draw(rng)
        assert (("10",), ("-5",)) == (head(sample, 1), head(sample, 2))
        assert "20" not in head(sample, 0)
        own.update(head(sample, 0))
    assert len(own) > 8 and {"5", "Night", "?"} <= own


def test_the_human_screen_shows_the_other_heads_and_only_a_count_of_ones_own():
    """The human seat's screen: 'your head: 1 card', the others' cards by name."""
    from rich.console import Console

    from rulekit.players.human import HumanPlayer

    state = table(["5", "10", "-5"])
    lines = HumanPlayer(E, Console(), input).screen(E.view(state, 0))
    assert "your head: 1 card" in lines
    assert "P2: head [10] · lives 3" in lines and "P3: head [-5] · lives 3" in lines


def test_the_play_by_play_names_the_cards_dealt_to_heads_but_ones_own():
    """The deal's line in the play-by-play, as a whole table and as P1 perceives it."""
    _, events = E.new_match(3, random.Random(5))
    deal = next(ev for ev in events if ev.kind == "deal")
    labels = ["; ".join(f"P{s + 1} {E.kind_label(k)}" for s, k in enumerate(c for _, (c,) in deal.data["dealt"]))]
    assert f"  dealt for the others to see: {labels[0]}" == E.describe_event(deal, 3)
    mine = E.describe_event(E.observe(deal, 0, 3), 3)
    assert mine.startswith("  dealt for the others to see: P1 1 card; P2 ")
