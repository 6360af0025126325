"""Coup (games/coup.rules) against shared/rules/more-games.md section 3 and its resolutions
C1..C4.

Scenarios either start a match (setup, the first player, the variant) or rig a table at the
start of a turn with ``attrs.evolve``: each seat's face-down hand and face-up lost cards (the
court deck holds the rest of the 15 cards, in a given order or sorted), the coins, whose turn
it is and who is out. Then they play actions, challenges, the claimant's answer to a challenge (show the card
or concede), blocks and losses of influence.
Symbol-valued parameters are indices of ``character: duke < assassin < captain < ambassador
< contessa``.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

from rulekit import Action, IllegalAction, OptionError

from strategies import (GAMES_DIR, cards_in_state, counter_value, engine_for, seat_value, set_counter,
                        set_seat, set_zone, swap_hidden, walk, zone)

PATH = str(GAMES_DIR / "coup.rules")
E = engine_for(PATH)
V = engine_for(PATH, "first_player_one_coin")
DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    E.kind_named(label) for label in ("duke", "assassin", "captain", "ambassador", "contessa"))
DECK = Counter({DUKE: 3, ASSASSIN: 3, CAPTAIN: 3, AMBASSADOR: 3, CONTESSA: 3})
SYM_CAPTAIN, SYM_AMBASSADOR = 2, 3          # indices in the symbol set 'character'
SYM_DUKE, SYM_CONTESSA = 0, 4

INCOME = Action("income")
AID = Action("foreign_aid")
TAX = Action("tax")
EXCHANGE = Action("exchange")
CHALLENGE = Action("challenge")
DECLINE = Action("decline")
BLOCK = Action("block")
SHOW = Action("show")
CONCEDE = Action("concede")


def COUP(t):
    return Action("coup", (), (t,))


def ASSASSINATE(t):
    return Action("assassinate", (), (t,))


def STEAL(t):
    return Action("steal", (), (t,))


def BLOCK_AS(sym):
    return Action("block", (), (sym,))


def LOSE(k):
    return Action("lose", (k,))


def RETURN(*ks):
    return Action("return", tuple(sorted(ks)))


# ---------------------------------------------------------------------------- helpers
def start(n: int = 3, seed: int = 0, engine=E):
    return engine.new_match(n, random.Random(seed))[0]


def act(state, *actions, seed: int = 0):
    """The state after ``actions`` in turn (chance drawn from ``random.Random(seed)``)."""
    rng = random.Random(seed)
    for a in actions:
        state, _ = E.apply(state, a, rng)
    return state


def hand(state, s):
    """A seat's face-down cards, sorted (a draw puts cards on top, unsorted)."""
    return tuple(sorted(zone(E, state, "hand", s)))


def lost(state, s):
    """A seat's face-up cards, sorted."""
    return tuple(sorted(zone(E, state, "lost", s)))


def court(state):
    return zone(E, state, "court")


def coins(state):
    return [counter_value(E, state, "coins", s) for s in range(state.n)]


def decider(state):
    d = E.decision(state)
    return None if d is None else (d.seat, d.phase)


def table(hands, lost=None, coins=None, current: int = 0, court=None, out=()):
    """A match at the start of ``current``'s turn.

    ``hands``: each seat's face-down cards; ``lost``: each seat's face-up cards (default
    none); ``coins``: each seat's coins (default 2); ``court``: the court deck, bottom first
    (default: the rest of the 15 cards, sorted); ``out``: seats already out, in the order
    they went out (their hands must be empty).
    """
    n = len(hands)
    state = start(n)
    lost = lost or [()] * n
    rest = DECK.copy()
    for s in range(n):
        rest.subtract(Counter(hands[s]) + Counter(lost[s]))
        state = set_zone(E, state, "hand", s, sorted(hands[s]))
        state = set_zone(E, state, "lost", s, tuple(lost[s]))
        state = set_counter(E, state, "coins", s, 2 if coins is None else coins[s])
    assert all(v >= 0 for v in rest.values()), "more cards than the deck holds"
    rest = +rest
    if court is None:
        court = sorted(rest.elements())
    assert Counter(court) == rest, "the court must hold the rest of the deck"
    state = set_zone(E, state, "court", None, tuple(court))
    outs = [0] * n
    for k, s in enumerate(out, 1):
        assert not hands[s]
        outs[s] = k
    state = set_seat(E, state, "current", current)
    state = state._replace(out=tuple(outs), phase=E.phase_index("act"), poll=(), stack=(),
                         claim=None, claimed=None)
    assert DECK == cards_in_state(state)
    assert (current, "act") == decider(state)
    return state


def decline_while(state, phase: str):
    """Every seat asked in the running window ``phase`` declines."""
    for _ in range(state.n + 1):
        if decider(state) is None or decider(state)[1] != phase:
            return state
        state = act(state, DECLINE)
    raise AssertionError(f"the window {phase} asks a seat twice")


def asked(state, phase: str) -> list:
    """The seats asked, in order, by the running window ``phase`` when they all decline."""
    seats = []
    for _ in range(state.n + 1):
        if decider(state) is None or decider(state)[1] != phase:
            return seats
        seats.append(decider(state)[0])
        state = act(state, DECLINE)
    raise AssertionError(f"the window {phase} asks a seat twice")


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_two_cards_and_two_coins_each_and_the_rest_is_the_court(n):
    """Setup: 2 cards face down and 2 coins each, nothing face up, the other 15 - 2n cards in the court."""
    state = start(n, seed=n)
    assert [2] * n == [len(hand(state, s)) for s in range(n)]
    assert [()] * n == [lost(state, s) for s in range(n)]
    assert 15 - 2 * n == len(court(state))
    assert [2] * n == coins(state)
    assert DECK == cards_in_state(state)
    assert (0,) * n == state.out


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_is_2_to_6(n):
    """Coup is for 2 to 6 players."""
    with pytest.raises(OptionError):
        start(n)


def test_a_hand_is_seen_by_its_owner_only():
    """Each seat sees its own two cards; of another seat's hand it sees only the count."""
    state = start(4, seed=3)
    for viewer in range(4):
        view = E.view(state, viewer)
        for s in range(4):
            expected = (2, hand(state, s)) if s == viewer else (2, None)
            assert expected == view.zone("hand", s)


def test_the_court_deck_is_face_down_and_only_its_count_is_seen():
    """Nobody sees the cards of the court deck, everybody sees how many there are."""
    state = start(3, seed=1)
    for viewer in range(3):
        assert (9, None) == E.view(state, viewer).zone("court")


def test_coin_counts_are_public():
    """Every seat sees every seat's coins."""
    state = set_counter(E, start(3), "coins", 1, 5)
    for viewer in range(3):
        assert ("coins", (2, 5, 2)) == E.view(state, viewer).counters[0]


def test_the_first_player_is_random():
    """The first player varies with the seed and every seat can be it; he is the 'starter'."""
    firsts = set()
    for seed in range(60):
        state = start(4, seed)
        assert (seat_value(E, state, "starter"), "act") == decider(state)
        firsts.add(decider(state)[0])
    assert {0, 1, 2, 3} == firsts


def test_turns_go_clockwise():
    """From seat 1 of 4, turns go to seats 2, 3, 0 and 1."""
    state = table([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [ASSASSIN, ASSASSIN]], current=1)
    order = []
    for _ in range(4):
        state = act(state, INCOME)
        order.append(decider(state))
    assert [(2, "act"), (3, "act"), (0, "act"), (1, "act")] == order


# ---------------------------------------------------------------------------- actions
def test_the_actions_of_a_turn():
    """With 2 coins a player may take income, foreign aid, tax, steal or exchange; coup and assassinate cost more."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]])
    assert ["income", "foreign_aid", "tax", "steal", "exchange"] == [o.name for o in E.decision(state).options]


def test_income_gives_one_coin_and_nobody_may_challenge_or_block_it():
    """Income: +1 coin, no claim, no window: the next player's turn at once."""
    state = act(table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]]), INCOME)
    assert [3, 2, 2] == coins(state)
    assert (1, "act") == decider(state)
    assert None is state.claim


def test_foreign_aid_gives_two_coins_when_nobody_blocks():
    """Foreign aid makes no claim (no challenge window) and gives +2 when every other player declines to block."""
    state = act(table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]]), AID)
    assert (1, "block_aid") == decider(state)
    assert None is state.claim
    state = decline_while(state, "block_aid")
    assert [4, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_coup_costs_seven_and_the_target_loses_an_influence_unchallenged():
    """Coup: pay 7; the target at once chooses a card to lose (no challenge, no block)."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[8, 2, 2])
    state = act(state, COUP(1))
    assert [1, 2, 2] == coins(state)
    assert (1, "lose_influence") == decider(state)
    assert None is state.claim
    state = act(state, LOSE(ASSASSIN))
    assert (ASSASSIN,) == lost(state, 1)
    assert (CONTESSA,) == hand(state, 1)
    assert (1, "act") == decider(state)


def test_coup_needs_seven_coins():
    """With 6 coins a coup is not allowed; with 7 it is."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[6, 2, 2])
    assert "a coup costs 7 coins" == E.why_illegal(state, COUP(1))
    with pytest.raises(IllegalAction):
        act(state, COUP(1))
    assert None is E.why_illegal(set_counter(E, state, "coins", 0, 7), COUP(1))


def test_tax_gives_three_coins_and_cannot_be_blocked():
    """Tax (a Duke claim): unchallenged, +3 coins and no block window: the next turn."""
    state = act(table([[CAPTAIN, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]]), TAX)
    assert (1, "challenge") == decider(state)
    state = decline_while(state, "challenge")
    assert [5, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_assassination_costs_three_and_the_target_loses_an_influence():
    """Assassinate: pay 3; unchallenged and unblocked, the target loses an influence."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[4, 2, 2])
    state = act(state, ASSASSINATE(2))
    assert [1, 2, 2] == coins(state)
    state = decline_while(state, "challenge")
    assert (2, "block_assassination") == decider(state)
    state = act(state, DECLINE)
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(AMBASSADOR))
    assert ((AMBASSADOR,), (AMBASSADOR,)) == (hand(state, 2), lost(state, 2))
    assert [1, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_assassination_needs_three_coins():
    """With 2 coins assassinating is not allowed; with 3 it is."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[2, 2, 2])
    assert E.why_illegal(state, ASSASSINATE(1)) is not None
    assert None is E.why_illegal(set_counter(E, state, "coins", 0, 3), ASSASSINATE(1))


def test_steal_takes_two_coins_from_the_target():
    """Steal (a Captain claim): unchallenged and unblocked, 2 coins go from the target to the thief."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[2, 5, 2])
    state = act(state, STEAL(1))
    state = decline_while(state, "challenge")
    assert (1, "block_steal") == decider(state)
    state = act(state, DECLINE)
    assert [4, 3, 2] == coins(state)
    assert (1, "act") == decider(state)


@pytest.mark.parametrize("has, taken", [(1, 1), (0, 0)])
def test_steal_takes_up_to_two_coins(has, taken):
    """A target with fewer than 2 coins loses what he has, never goes below 0."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[2, has, 2])
    state = decline_while(decline_while(act(state, STEAL(1)), "challenge"), "block_steal")
    assert [2 + taken, has - taken, 2] == coins(state)
    assert (1, "act") == decider(state)


@pytest.mark.parametrize("action", [COUP, ASSASSINATE, STEAL])
def test_targets_must_be_other_players_still_in(action):
    """Coup, assassinate and steal may aim only at another player still in the match."""
    state = table([[DUKE, CAPTAIN], [], [AMBASSADOR, AMBASSADOR], [CONTESSA, CAPTAIN]],
                  lost=[(), (ASSASSIN, ASSASSIN), (), ()], coins=[7, 2, 2, 2], out=[1])
    option = next(o for o in E.decision(state).options if o.name == action(0).name)
    assert (2, 3) == dict(option.params)["t"]
    assert E.why_illegal(state, action(1)) is not None
    assert E.why_illegal(state, action(0)) is not None
    assert None is E.why_illegal(state, action(3))


def test_exchange_draws_two_then_returns_any_two():
    """Exchange: the 2 top cards of the court join the hand; the player keeps any 2 of the 4 (here both drawn)."""
    court_order = (DUKE, DUKE, ASSASSIN, ASSASSIN, ASSASSIN, CAPTAIN, CAPTAIN, DUKE, CONTESSA)
    state = table([[AMBASSADOR, CAPTAIN], [CONTESSA, AMBASSADOR], [AMBASSADOR, CONTESSA]], court=court_order)
    state = decline_while(act(state, EXCHANGE), "challenge")
    assert (0, "return_two") == decider(state)
    assert tuple(sorted((AMBASSADOR, CAPTAIN, DUKE, CONTESSA))) == hand(state, 0)
    assert 7 == len(court(state))
    assert tuple(sorted((AMBASSADOR, CAPTAIN, DUKE, CONTESSA))) == E.decision(state).options[0].cards
    state, events = E.apply(state, RETURN(AMBASSADOR, CAPTAIN), random.Random(0))
    assert tuple(sorted((DUKE, CONTESSA))) == hand(state, 0)
    assert 9 == len(court(state))
    assert Counter(court_order) - Counter([DUKE, CONTESSA]) + Counter([AMBASSADOR, CAPTAIN]) == Counter(court(state))
    assert 1 == sum(e.kind == "shuffle" for e in events)      # the deck is shuffled
    assert (1, "act") == decider(state)


def test_exchange_returns_exactly_two_cards():
    """Returning 1 or 3 cards is not allowed; the exchange cannot be blocked (no block window)."""
    state = table([[AMBASSADOR, CAPTAIN], [CONTESSA, AMBASSADOR], [AMBASSADOR, CONTESSA]])
    state = decline_while(act(state, EXCHANGE), "challenge")
    assert (0, "return_two") == decider(state)
    mine = hand(state, 0)
    assert "choose exactly 2 card(s)" == E.why_illegal(state, Action("return", mine[:1]))
    assert "choose exactly 2 card(s)" == E.why_illegal(state, Action("return", mine[:3]))
    assert None is E.why_illegal(state, Action("return", mine[:2]))


def test_exchange_with_one_influence_keeps_one_card():
    """With one face-down card, he draws 2, holds 3 and returns 2: still one influence."""
    state = table([[AMBASSADOR], [CONTESSA, AMBASSADOR], [AMBASSADOR, CONTESSA]], lost=[(DUKE,), (), ()])
    state = decline_while(act(state, EXCHANGE), "challenge")
    assert 3 == len(hand(state, 0))
    state = act(state, Action("return", hand(state, 0)[:2]))
    assert 1 == len(hand(state, 0))
    assert (DUKE,) == lost(state, 0)


# ---------------------------------------------------------------------------- 10 coins
def test_with_ten_coins_the_player_must_coup():
    """With 10 coins or more the only legal actions are coups."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, AMBASSADOR]], coins=[10, 2, 2])
    assert {"coup"} == {a.name for a in E.legal_actions(state)}
    for a in (INCOME, AID, TAX, EXCHANGE, ASSASSINATE(1), STEAL(1)):
        assert E.why_illegal(state, a).endswith("you must coup")
    state = act(set_counter(E, state, "coins", 0, 12), COUP(2))
    assert [5, 2, 2] == coins(state)


def test_with_nine_coins_the_player_may_do_anything():
    """Below 10 coins the coup is not forced."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, AMBASSADOR]], coins=[9, 2, 2])
    assert {"income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange"} == {
        a.name for a in E.legal_actions(state)}


# ---------------------------------------------------------------------------- challenge
def test_any_other_player_still_in_may_challenge_clockwise_from_the_claimant():
    """A claim by seat 1 of 5 (seat 4 out) is offered to 2, 3 and 0, in that order; not to the claimant."""
    state = table([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR], []],
                  lost=[(), (), (), (), (ASSASSIN, ASSASSIN)], current=1, out=[4])
    assert [2, 3, 0] == asked(act(state, TAX), "challenge")


def test_the_first_clockwise_challenger_challenges():
    """C1: when seat 2 (first after the claimant) challenges, seats 3 and 0 are not asked."""
    state = table([[DUKE, ASSASSIN], [DUKE, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]], current=1)
    state = act(state, TAX, CHALLENGE)
    assert (1, "answer") == decider(state)
    state = act(state, SHOW)
    assert (2, "lose_influence") == decider(state)      # seat 1 had the Duke
    state = act(state, LOSE(CONTESSA))
    assert (2, "act") == decider(state)


def test_a_later_player_challenges_when_the_earlier_ones_decline():
    """Seat 2 declines, seat 3 challenges a bluff: the claimant loses an influence."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [CONTESSA, DUKE], [AMBASSADOR, AMBASSADOR]], current=1)
    state = act(state, TAX, DECLINE, CHALLENGE)
    assert (1, "answer") == decider(state)
    state = act(state, CONCEDE)
    assert (1, "lose_influence") == decider(state)


def test_a_claimant_with_the_card_shows_it_and_draws_a_replacement():
    """The shown Duke goes into the court and a replacement is drawn from it; the other card stays."""
    replacements = set()
    for seed in range(30):
        state = table([[DUKE, ASSASSIN], [CONTESSA, DUKE], [DUKE, CONTESSA]])
        before = Counter(court(state)) + Counter(hand(state, 0))
        state = act(state, TAX, CHALLENGE, SHOW, seed=seed)
        assert 2 == len(hand(state, 0))
        assert ASSASSIN in hand(state, 0)
        assert 9 == len(court(state))
        assert before == Counter(court(state)) + Counter(hand(state, 0))
        replacements.add(tuple(sorted((Counter(hand(state, 0)) - Counter([ASSASSIN])).elements())))
    assert (DUKE,) in replacements                 # the court had no Duke: the shown one went in and may come back…
    assert len(replacements) > 2                   # …or any other card of the court


def test_a_wrong_challenger_loses_an_influence_and_the_action_goes_on():
    """The claimant has the Duke: the challenger chooses a card to turn up, then the tax is paid."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, TAX, CHALLENGE, SHOW)
    assert (1, "lose_influence") == decider(state)
    state = act(state, LOSE(CAPTAIN))
    assert (CAPTAIN,) == lost(state, 1)
    assert [5, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_claimant_without_the_card_loses_an_influence_and_the_action_fails():
    """A bluffed tax challenged: the claimant turns up a card of his choice and gets no coins."""
    state = table([[CAPTAIN, ASSASSIN], [CONTESSA, DUKE], [AMBASSADOR, CONTESSA]])
    state = act(state, TAX, CHALLENGE, CONCEDE)
    assert (0, "lose_influence") == decider(state)
    state = act(state, LOSE(ASSASSIN))
    assert ((CAPTAIN,), (ASSASSIN,)) == (hand(state, 0), lost(state, 0))
    assert [(DUKE, CONTESSA), ()] == [hand(state, 1), lost(state, 1)]
    assert [2, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_failed_assassination_returns_its_coins():
    """C2: an assassination lost to a challenge gives the 3 coins back; no block, the target keeps his cards."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, DUKE], [AMBASSADOR, CONTESSA]], coins=[3, 2, 2])
    state = act(state, ASSASSINATE(2))
    assert [0, 2, 2] == coins(state)
    state = act(state, DECLINE, CHALLENGE, CONCEDE)   # seat 1 declines, the target challenges
    assert (0, "lose_influence") == decider(state)
    state = act(state, LOSE(DUKE))
    assert [3, 2, 2] == coins(state)
    assert (AMBASSADOR, CONTESSA) == hand(state, 2)
    assert (1, "act") == decider(state)


def test_a_failed_steal_takes_nothing_and_offers_no_block():
    """A bluffed steal challenged: the bluffer loses an influence, no coins move, no block window."""
    state = table([[DUKE, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, STEAL(1), CHALLENGE, CONCEDE, LOSE(DUKE))
    assert [2, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_failed_exchange_draws_nothing():
    """A bluffed exchange challenged: no card is drawn, the turn passes."""
    state = table([[DUKE, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, EXCHANGE, CHALLENGE, CONCEDE, LOSE(DUKE))
    assert (DUKE,) == hand(state, 0)
    assert 9 == len(court(state))
    assert (1, "act") == decider(state)


def test_a_challenged_exchange_with_the_ambassador_goes_on():
    """The exchanger shows the Ambassador, the challenger loses an influence, then he draws 2 and returns 2."""
    state = table([[AMBASSADOR, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, EXCHANGE, CHALLENGE, SHOW)
    assert (1, "lose_influence") == decider(state)
    state = act(state, LOSE(CAPTAIN))
    assert (0, "return_two") == decider(state)
    assert 4 == len(hand(state, 0))


def test_a_claimant_holding_the_card_may_refuse_to_show_it():
    """Digest: the claimant shows the card 'or cannot (or will not)': holding it, he still chooses."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, TAX, CHALLENGE)
    assert 0 == E.decision(state).seat              # the claimant decides: show the Duke or not
    state = act(state, CONCEDE)                     # he will not: he loses an influence, the tax fails
    assert (0, "lose_influence") == decider(state)
    state = act(state, LOSE(ASSASSIN))
    assert ((DUKE,), (ASSASSIN,)) == (hand(state, 0), lost(state, 0))
    assert [(CAPTAIN, CONTESSA), ()] == [hand(state, 1), lost(state, 1)]
    assert [2, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_claimant_without_the_card_is_offered_only_to_concede():
    """Challenged without the claimed Duke, the claimant may not show it: his only answer is to concede."""
    state = table([[CAPTAIN, ASSASSIN], [CONTESSA, DUKE], [AMBASSADOR, CONTESSA]])
    state = act(state, TAX, CHALLENGE)
    assert (0, "answer") == decider(state)
    assert ["concede"] == [o.name for o in E.decision(state).options]
    assert "you do not have that card" == E.why_illegal(state, SHOW)
    with pytest.raises(IllegalAction):
        act(state, SHOW)


def test_a_claimant_holding_the_card_is_offered_to_show_it_or_concede():
    """Challenged while holding the claimed Duke, the claimant is offered both answers, show and concede."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, TAX, CHALLENGE)
    assert (0, "answer") == decider(state)
    assert ["show", "concede"] == [o.name for o in E.decision(state).options]
    assert None is E.why_illegal(state, SHOW)
    assert None is E.why_illegal(state, CONCEDE)


# ---------------------------------------------------------------------------- blocks
def test_foreign_aid_may_be_blocked_by_any_other_player_clockwise_from_the_actor():
    """Foreign aid by seat 1 of 4 is offered for a block to 2, 3 and 0 in turn."""
    state = table([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]], current=1)
    assert [2, 3, 0] == asked(act(state, AID), "block_aid")


def test_a_duke_block_that_stands_stops_foreign_aid():
    """Seat 2 blocks claiming the Duke, nobody challenges: no coins."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, AID, DECLINE, BLOCK)
    assert (SYM_DUKE,) == state.claim[1]
    assert (0, "challenge") == decider(state)        # the block is a claim
    state = decline_while(state, "challenge")
    assert [2, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_block_may_be_challenged_by_anyone_but_the_blocker_including_the_actor():
    """The block of seat 1 is offered for a challenge to 2 and then to the actor 0, never to 1."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, AID, BLOCK)
    assert [2, 0] == asked(state, "challenge")


def test_a_bluffed_block_challenged_by_the_actor_fails_and_the_action_goes_on():
    """The actor challenges a Duke block by a seat without a Duke: the blocker loses an influence, the aid is paid."""
    state = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, AID, BLOCK, DECLINE, CHALLENGE, CONCEDE)
    assert (1, "lose_influence") == decider(state)
    state = act(state, LOSE(CAPTAIN))
    assert (CAPTAIN,) == lost(state, 1)
    assert [4, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_a_true_block_challenged_by_the_actor_stands():
    """The blocker shows the Duke: the challenging actor loses an influence and gets no coins."""
    state = table([[CAPTAIN, ASSASSIN], [CONTESSA, DUKE], [AMBASSADOR, CONTESSA]])
    state = act(state, AID, BLOCK, DECLINE, CHALLENGE, SHOW)
    assert (0, "lose_influence") == decider(state)
    state = act(state, LOSE(ASSASSIN))
    assert [2, 2, 2] == coins(state)
    assert 2 == len(hand(state, 1))
    assert (1, "act") == decider(state)


def test_only_the_target_may_block_an_assassination_claiming_the_contessa():
    """The block window of an assassination of seat 2 asks seat 2 only; the block claims the Contessa."""
    state = table([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[3, 2, 2])
    state = decline_while(act(state, ASSASSINATE(2)), "challenge")
    assert [2] == asked(state, "block_assassination")
    state = act(state, BLOCK)
    assert ((SYM_CONTESSA,), 2) == (state.claim[1], state.claim[2])


def test_a_contessa_block_that_stands_stops_the_assassination_and_the_coins_stay_spent():
    """C3: the target blocks, nobody challenges: he keeps both cards and the assassin's 3 coins are gone."""
    state = table([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[5, 2, 2])
    state = decline_while(act(state, ASSASSINATE(2)), "challenge")
    state = decline_while(act(state, BLOCK), "challenge")
    assert [2, 2, 2] == coins(state)
    assert (2, ()) == (len(hand(state, 2)), lost(state, 2))
    assert (1, "act") == decider(state)


def test_a_bluffed_contessa_costs_the_target_both_influences():
    """A bluffed Contessa block, challenged: one card for the challenge, the other to the assassination."""
    state = table([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, DUKE], [CAPTAIN, AMBASSADOR]],
                  coins=[3, 2, 2, 2])
    state = decline_while(act(state, ASSASSINATE(2)), "challenge")
    state = act(state, BLOCK, CHALLENGE, CONCEDE)      # seat 3, first after the blocker, challenges
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(DUKE))
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(AMBASSADOR))
    assert 0 != state.out[2]
    assert (1, "act") == decider(state)
    assert [0, 2, 2, 2] == coins(state)


def test_only_the_target_may_block_a_steal_claiming_captain_or_ambassador():
    """A steal from seat 2 is offered for a block to seat 2 only, claiming the Captain or the Ambassador."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = decline_while(act(state, STEAL(2)), "challenge")
    assert [2] == asked(state, "block_steal")
    option = E.decision(state).options[0]
    assert ("block", (SYM_CAPTAIN, SYM_AMBASSADOR)) == (option.name, dict(option.params)["c"])
    assert E.why_illegal(state, BLOCK_AS(SYM_DUKE)) is not None
    assert E.why_illegal(state, BLOCK_AS(SYM_CONTESSA)) is not None


@pytest.mark.parametrize("sym", [SYM_CAPTAIN, SYM_AMBASSADOR])
def test_a_steal_block_that_stands_stops_the_steal(sym):
    """The target blocks claiming the Captain or the Ambassador, unchallenged: no coins move."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[2, 2, 4])
    state = decline_while(act(state, STEAL(2)), "challenge")
    state = act(state, BLOCK_AS(sym))
    assert ((sym,), 2) == (state.claim[1], state.claim[2])
    state = decline_while(state, "challenge")
    assert [2, 2, 4] == coins(state)
    assert (1, "act") == decider(state)


def test_a_true_ambassador_block_challenged_by_the_thief_stands():
    """The target shows the Ambassador: the thief loses an influence, the blocker's card is replaced, no coins move."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[2, 2, 4])
    state = decline_while(act(state, STEAL(2)), "challenge")
    state = act(state, BLOCK_AS(SYM_AMBASSADOR), CHALLENGE, SHOW)   # seat 0, first after the blocker
    assert (0, "lose_influence") == decider(state)
    state = act(state, LOSE(DUKE))
    assert [2, 2, 4] == coins(state)
    assert 2 == len(hand(state, 2))
    assert CONTESSA in hand(state, 2)
    assert (1, "act") == decider(state)


def test_a_block_claiming_the_wrong_character_fails_when_challenged():
    """A target holding the Ambassador who claims the Captain loses the challenge; the steal goes on."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[2, 2, 4])
    state = decline_while(act(state, STEAL(2)), "challenge")
    state = act(state, BLOCK_AS(SYM_CAPTAIN), CHALLENGE)
    assert ["concede"] == [o.name for o in E.decision(state).options]
    state = act(state, CONCEDE)
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(CONTESSA))
    assert [4, 2, 2] == coins(state)
    assert (1, "act") == decider(state)


def test_tax_income_coup_and_exchange_offer_no_block():
    """Only foreign aid, assassination and steal have a block window."""
    base = table([[AMBASSADOR, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[7, 2, 2])
    assert (1, "act") == decider(decline_while(act(base, TAX), "challenge"))
    assert (1, "act") == decider(act(base, INCOME))
    assert (1, "act") == decider(act(base, COUP(1), LOSE(CAPTAIN)))
    assert (0, "return_two") == decider(decline_while(act(base, EXCHANGE), "challenge"))


def test_the_action_challenge_is_settled_before_blocks():
    """C3: a steal is first offered for a challenge, then the target may block, then the block may be challenged."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    state = act(state, STEAL(2))
    assert ((SYM_CAPTAIN,), 0) == (state.claim[1], state.claim[2])
    phases = []
    for a in (DECLINE, DECLINE, BLOCK_AS(SYM_AMBASSADOR), DECLINE, DECLINE):
        phases.append(decider(state))
        state = act(state, a)
    assert [(1, "challenge"), (2, "challenge"), (2, "block_steal"), (0, "challenge"), (1, "challenge")] == phases


def test_an_action_that_survives_a_challenge_is_then_offered_to_the_blocker():
    """Seat 1 challenges a true assassination and loses an influence; then the target may still block."""
    state = table([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]], coins=[3, 2, 2])
    state = act(state, ASSASSINATE(2), CHALLENGE, SHOW)
    assert (1, "lose_influence") == decider(state)
    state = act(state, LOSE(CAPTAIN))
    assert (2, "block_assassination") == decider(state)
    assert [0, 2, 2] == coins(state)


# ---------------------------------------------------------------------------- losing influence
def test_the_player_chooses_which_card_to_lose():
    """Losing an influence offers the player's own face-down cards; either may be turned up."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[7, 2, 2])
    state = act(state, COUP(1))
    d = E.decision(state)
    assert (1, "lose_influence", (ASSASSIN, CONTESSA)) == (d.seat, d.phase, d.options[0].cards)
    assert E.why_illegal(state, LOSE(DUKE)) is not None            # not his card
    for k, kept in ((CONTESSA, ASSASSIN), (ASSASSIN, CONTESSA)):
        after = act(state, LOSE(k))
        assert ((k,), (kept,)) == (lost(after, 1), hand(after, 1))


def test_a_lost_card_is_face_up_and_known_to_all():
    """Every seat sees the card turned up; the card still face down stays hidden from the others."""
    state = table([[DUKE, CAPTAIN], [CONTESSA, ASSASSIN], [AMBASSADOR, AMBASSADOR]], coins=[7, 2, 2])
    state = act(state, COUP(1), LOSE(CONTESSA))
    for viewer in range(3):
        view = E.view(state, viewer)
        assert (1, (CONTESSA,)) == view.zone("lost", 1)
        assert (1, (ASSASSIN,) if viewer == 1 else None) == view.zone("hand", 1)


def test_a_player_with_no_face_down_card_is_out_and_skipped():
    """Seat 1 loses his last influence to a coup: he is out and the turn goes from 0 to 2, then back to 0."""
    state = table([[DUKE, CAPTAIN], [CONTESSA], [AMBASSADOR, AMBASSADOR]], lost=[(), (ASSASSIN,), ()],
                  coins=[7, 2, 2])
    state = act(state, COUP(1), LOSE(CONTESSA))
    assert (0, 1, 0) == state.out
    assert ((), (ASSASSIN, CONTESSA)) == (hand(state, 1), lost(state, 1))
    assert not state.is_terminal
    assert (2, "act") == decider(state)
    state = act(state, INCOME)
    assert (0, "act") == decider(state)


def test_turns_skip_players_who_are_out():
    """With seats 1 and 2 of 4 out, seat 0's turn is followed by seat 3's, then seat 0's."""
    state = table([[DUKE, CAPTAIN], [], [], [CONTESSA, ASSASSIN]],
                  lost=[(), (AMBASSADOR, AMBASSADOR), (DUKE, ASSASSIN), ()], out=[2, 1])
    state = act(state, INCOME)
    assert (3, "act") == decider(state)
    state = act(state, INCOME)
    assert (0, "act") == decider(state)


def test_players_who_are_out_are_asked_nothing():
    """Seat 1 (out) is offered neither a challenge nor a block of foreign aid."""
    state = table([[DUKE, CAPTAIN], [], [CONTESSA, ASSASSIN], [AMBASSADOR, CAPTAIN]],
                  lost=[(), (AMBASSADOR, DUKE), (), ()], out=[1])
    assert [2, 3] == asked(act(state, TAX), "challenge")
    assert [2, 3] == asked(act(state, AID), "block_aid")


def test_a_bluffer_who_loses_his_last_influence_is_out_and_the_turn_moves_on():
    """Seat 1, with one card and no Duke, is caught on a tax: he is out and seat 2 plays next."""
    state = table([[DUKE, CAPTAIN], [CONTESSA], [CONTESSA, ASSASSIN], [AMBASSADOR, CAPTAIN]],
                  lost=[(), (DUKE,), (), ()], current=1)
    state = act(state, TAX, CHALLENGE, CONCEDE, LOSE(CONTESSA))
    assert (0, 1, 0, 0) == state.out
    assert [2, 2, 2, 2] == coins(state)
    assert (2, "act") == decider(state)


def test_an_assassination_whose_target_is_out_after_a_challenge_does_nothing_more():
    """The target, with one influence, challenges a true assassination and loses it: out; no block, no second loss."""
    state = table([[ASSASSIN, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA], [AMBASSADOR, AMBASSADOR]],
                  lost=[(), (), (DUKE,), ()], coins=[3, 2, 2, 2])
    state = act(state, ASSASSINATE(2), DECLINE, CHALLENGE, SHOW)   # seat 1 declines, the target challenges
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(CONTESSA))
    assert 0 != state.out[2]
    assert (1, "act") == decider(state)
    assert [0, 2, 2, 2] == coins(state)
    assert [(), (CAPTAIN, CAPTAIN), (AMBASSADOR, AMBASSADOR)] == [lost(state, 1), hand(state, 1), hand(state, 3)]


def test_a_steal_whose_target_is_out_after_a_challenge_takes_nothing():
    """The target, with one influence and 5 coins, challenges a true steal and loses it: out; no block, no coins move."""
    state = table([[CAPTAIN, DUKE], [CONTESSA, CAPTAIN], [AMBASSADOR]], lost=[(), (), (DUKE,)], coins=[2, 2, 5])
    state = act(state, STEAL(2), DECLINE, CHALLENGE, SHOW)      # seat 1 declines, the target challenges
    assert (2, "lose_influence") == decider(state)
    state = act(state, LOSE(AMBASSADOR))
    assert 0 != state.out[2]
    assert not state.is_terminal
    assert (1, "act") == decider(state)
    assert [2, 2, 5] == coins(state)


# ---------------------------------------------------------------------------- end
def test_the_last_player_with_influence_wins():
    """Two players: a coup takes the other's last influence; the match ends, +1 for the winner, -1 for the other."""
    state = table([[DUKE, CAPTAIN], [CONTESSA]], lost=[(), (ASSASSIN,)], coins=[7, 2])
    state = act(state, COUP(1), LOSE(CONTESSA))
    assert state.is_terminal
    assert (0,) == state.winners
    assert (1, -1) == E.returns(state)
    assert None is decider(state)


def test_a_lost_challenge_can_end_the_match():
    """Three players, one out: the challenger loses his last influence, the claimant is the last one in."""
    state = table([[DUKE, CAPTAIN], [], [CONTESSA]], lost=[(), (ASSASSIN, AMBASSADOR), (DUKE,)], out=[1])
    state = act(state, TAX, CHALLENGE, SHOW, LOSE(CONTESSA))
    assert state.is_terminal
    assert (0,) == state.winners
    assert (1, -1, -1) == E.returns(state)


def test_the_match_goes_on_while_two_players_have_influence():
    """Three players: knocking one out leaves two, and the match goes on."""
    state = table([[DUKE, CAPTAIN], [CONTESSA], [AMBASSADOR]], lost=[(), (ASSASSIN,), (DUKE,)], coins=[7, 2, 2])
    state = act(state, COUP(1), LOSE(CONTESSA))
    assert not state.is_terminal
    assert () == state.winners


def test_random_matches_end_with_the_last_player_in_as_the_only_winner():
    """Random matches of 2 to 6 players end; the winner is the only seat with a face-down card; cards are conserved."""
    for seed in range(25):
        n = 2 + seed % 5
        state = list(walk(E, n, seed, max_steps=3000))[-1].after
        assert state.is_terminal
        assert 1 == len(state.winners)
        w = state.winners[0]
        assert [s != w for s in range(n)] == [bool(state.out[s]) for s in range(n)]
        assert [s == w for s in range(n)] == [bool(hand(state, s)) for s in range(n)]
        assert tuple(1 if s == w else -1 for s in range(n)) == E.returns(state)
        assert DECK == cards_in_state(state)


# ---------------------------------------------------------------------------- variant (C4)
def test_variant_first_player_starts_with_one_coin():
    """C4: with first_player_one_coin the first player has 1 coin and the other 2, whoever starts."""
    starters = set()
    for seed in range(20):
        state = start(2, seed, engine=V)
        first = V.decider(state)
        starters.add(first)
        assert [1 if s == first else 2 for s in range(2)] == [counter_value(V, state, "coins", s) for s in range(2)]
    assert {0, 1} == starters


def test_variant_first_player_one_coin_is_for_two_players_only():
    """C4: the variant is a two-player rule."""
    with pytest.raises(OptionError):
        start(3, engine=V)


def test_without_the_variant_the_first_player_has_two_coins():
    """C4 is only a variant: the base game gives both of two players 2 coins."""
    for seed in range(10):
        assert [2, 2] == coins(start(2, seed))


# ---------------------------------------------------------------------------- views
def test_the_views_never_show_another_seats_face_down_cards():
    """In random matches, no view shows another seat's hand or the court, and swapping hidden cards changes no view."""
    swapped = 0
    for seed in range(20):
        n = 2 + seed % 5
        rng = random.Random(seed)
        for step in walk(E, n, seed, max_steps=150):
            state = step.after
            if state.is_terminal:
                continue
            for viewer in range(n):
                view = E.view(state, viewer)
                assert [s == viewer for s in range(n)] == [view.zone("hand", s)[1] is not None for s in range(n)]
                assert None is view.zone("court")[1]
                assert [] == [k for k in view.known if k[0] in ("hand", "court") and k[1] != viewer]
                other = swap_hidden(E, state, viewer, rng)
                if other is not None:
                    assert view == E.view(other, viewer)
                    swapped += 1
    assert swapped > 100


def test_the_cards_drawn_in_an_exchange_are_seen_by_the_exchanger_only():
    """During the exchange the others see a hand of 4 cards, not which."""
    state = table([[AMBASSADOR, CAPTAIN], [CONTESSA, AMBASSADOR], [AMBASSADOR, CONTESSA]])
    state = decline_while(act(state, EXCHANGE), "challenge")
    assert (4, hand(state, 0)) == E.view(state, 0).zone("hand", 0)
    for viewer in (1, 2):
        assert (4, None) == E.view(state, viewer).zone("hand", 0)


def test_the_replacement_after_a_shown_card_is_hidden_from_the_others():
    """Two different replacements of the shown Duke give the other seats the very same view."""
    base = table([[DUKE, ASSASSIN], [CONTESSA, CAPTAIN], [AMBASSADOR, CONTESSA]])
    after = {}
    for seed in range(30):
        state = act(base, TAX, CHALLENGE, SHOW, seed=seed)
        after.setdefault(hand(state, 0), state)
    assert len(after) > 1
    first, second = list(after.values())[:2]
    for viewer in (1, 2):
        assert E.view(first, viewer).zone("hand", 0) == E.view(second, viewer).zone("hand", 0) == (2, None)
        assert E.view(first, viewer).known == E.view(second, viewer).known == ()
