"""Skull (games/skull.rules) against shared/rules/more-games.md section 2 and its resolutions
S1..S3.

Scenarios either play a match from its start (the place vote, adds, bids) or rig a table at
the add-or-bid step with ``attrs.evolve``: each seat's stack on its mat, the rest of its
four discs in hand or lost (every disc stays somewhere), who leads, who is out. Then they
play bids, reveals, losses and the naming of the next first player.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

from rulekit import Action, IllegalAction
from rulekit.errors import OptionError

from strategies import (GAMES_DIR, cards_in_state, counter_value, engine_for, quick_bots, seat_value,
                        set_counter, walk, zone)

PATH = str(GAMES_DIR / "skull.rules")
E = engine_for(PATH)
F = E.kind_named("flower")
S = E.kind_named("skull")
DISCS = (F, F, F, S)                  # what each player owns at the start
PASS = Action("pass")


def PLACE(k):
    return Action("place", (k,))


def ADD(k):
    return Action("add", (k,))


def OPEN(n):
    return Action("open", (), (n,))


def RAISE(n):
    return Action("raise", (), (n,))


def TURN(p):
    return Action("turn_up", (), (p,))


def LOSE(k):
    return Action("lose", (k,))


def NAME(p):
    return Action("name", (), (p,))


# ---------------------------------------------------------------------------- helpers
def start(n: int = 3, seed: int = 0):
    return E.new_match(n, random.Random(seed))[0]


def act(state, *actions, seed: int = 0):
    """The state after ``actions`` in turn (chance drawn from ``random.Random(seed)``)."""
    rng = random.Random(seed)
    for a in actions:
        state, _ = E.apply(state, a, rng)
    return state


def hand(state, s):
    return zone(E, state, "hand", s)


def mat(state, s):
    return zone(E, state, "mat", s)


def shown(state, s):
    return zone(E, state, "shown", s)


def lost(state):
    return zone(E, state, "lost")


def successes(state, s):
    return counter_value(E, state, "successes", s)


def decider(state):
    d = E.decision(state)
    return None if d is None else (d.seat, d.phase)


def table(mats, hands=None, leader: int = 0, out=(), wins=None):
    """A match at the add-or-bid step, ``leader`` to act.

    ``mats``: each seat's stack, bottom first; ``hands``: each seat's hand (default: the rest
    of his four discs); discs of nobody's hand or mat are lost. ``out``: seats already out,
    in the order they went out; ``wins``: {seat: successes}.
    """
    n = len(mats)
    state = start(n)
    zones = list(state.zones)
    gone = []
    for s in range(n):
        m = tuple(mats[s])
        h = tuple((Counter(DISCS) - Counter(m)).elements()) if hands is None else tuple(hands[s])
        rest = Counter(DISCS) - Counter(m) - Counter(h)
        assert not Counter(m) + Counter(h) - Counter(DISCS), "more discs than a player owns"
        gone.extend(rest.elements())
        zones[E.zone_slot(state, "mat", s)] = m
        zones[E.zone_slot(state, "hand", s)] = h
    zones[E.zone_slot(state, "lost")] = tuple(gone)
    outs = [0] * n
    for k, s in enumerate(out, 1):
        outs[s] = k
    seats = list(state.seats)
    seats[E.cg.seat_names.index("current")] = leader
    seats[E.cg.seat_names.index("leader")] = leader
    state = state._replace(zones=tuple(zones), seats=tuple(seats), out=tuple(outs), poll=(),
                         votes=(None,) * n, phase=E.phase_index("add_or_bid"))
    for s, v in (wins or {}).items():
        state = set_counter(E, state, "successes", s, v)
    assert cards_in_state(state) == Counter(DISCS * n)
    assert decider(state) == (leader, "add_or_bid")
    return state


def challenge(state, n: int):
    """The seat to act opens at ``n`` and every other bidder passes."""
    state = act(state, OPEN(n))
    for _ in range(state.n):
        if decider(state) is None or decider(state)[1] != "bidding":
            return state
        state = act(state, PASS)
    raise AssertionError("the bidding goes on after everyone else passed")


def place_all(state, discs):
    """Every seat asked by the place vote places ``discs[seat]``."""
    for _ in range(state.n + 1):
        if decider(state) is None or decider(state)[1] != "place":
            return state
        state = act(state, PLACE(discs[E.decision(state).seat]))
    raise AssertionError("the place vote asks a seat twice")


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_player_starts_with_three_flowers_and_one_skull_in_hand(n):
    """Setup: 4 discs each, 3 flowers and 1 skull, all in hand; mats, shown and lost empty."""
    state = start(n, seed=n)
    assert [sorted(DISCS)] * n == [sorted(hand(state, s)) for s in range(n)]
    assert [()] * n == [mat(state, s) for s in range(n)]
    assert [()] * n == [shown(state, s) for s in range(n)]
    assert () == lost(state)
    assert [0] * n == [successes(state, s) for s in range(n)]


@pytest.mark.parametrize("n", [2, 7])
def test_player_count_is_3_to_6(n):
    """Skull is for 3 to 6 players."""
    with pytest.raises(OptionError):
        start(n)


def test_a_hand_is_seen_only_by_its_owner():
    """Every seat sees its own four discs; of the others' hands it sees only the count."""
    state = start(4)
    for viewer in range(4):
        view = E.view(state, viewer)
        for s in range(4):
            expected = (4, tuple(sorted(DISCS))) if s == viewer else (4, None)
            assert expected == view.zone("hand", s)


def test_the_first_round_first_player_is_random():
    """The first player of the first round varies with the seed, and every seat can be it."""
    firsts = set()
    for seed in range(40):
        state = place_all(start(4, seed), [F, F, F, F])
        firsts.add(decider(state))
    assert {(s, "add_or_bid") for s in range(4)} == firsts


# ---------------------------------------------------------------------------- 1. place
def test_everyone_places_one_disc_in_a_secret_simultaneous_vote():
    """S1: all seats are asked in one vote; nothing lands on a mat before every disc is chosen."""
    state = start(3)
    d = E.decision(state)
    assert ("place", "vote") == (d.phase, d.kind)
    assert (0, 1, 2) == state.poll
    state = act(state, PLACE(S))
    assert [()] * 3 == [mat(state, s) for s in range(3)]
    for viewer in (1, 2):
        view = E.view(state, viewer)
        assert (4, None) == view.zone("hand", 0)          # the chosen disc has not moved yet
        assert (0,) == view.voted
    state = act(state, PLACE(F), PLACE(F))
    assert [(S,), (F,), (F,)] == [mat(state, s) for s in range(3)]
    assert [3, 3, 3] == [len(hand(state, s)) for s in range(3)]


def test_a_placed_disc_is_seen_by_its_owner_only():
    """A stack is face down: its owner knows it, the others see only its height."""
    state = place_all(start(3), [S, F, F])
    assert (1, (S,)) == E.view(state, 0).zone("mat", 0)
    assert (1, None) == E.view(state, 1).zone("mat", 0)
    assert (1, None) == E.view(state, 2).zone("mat", 0)


def test_place_takes_exactly_one_disc_from_hand():
    """The place vote takes exactly one disc of one's own hand."""
    state = start(3)
    assert E.why_illegal(state, Action("place", (F, F))) is not None
    assert E.why_illegal(state, Action("place", ())) is not None
    assert E.why_illegal(state, PLACE(F)) is None


# ---------------------------------------------------------------------------- 2. add or bid
def test_add_or_bid_starts_with_the_round_first_player_and_goes_clockwise():
    """From the round's first player (here seat 2 of 4), adds go clockwise: 2, 3, 0, 1."""
    state = start(4)
    state = state._replace(seats=tuple(2 if name == "leader" else v
                                            for name, v in zip(E.cg.seat_names, state.seats)))
    state = place_all(state, [F, F, F, F])
    order = []
    for _ in range(4):
        order.append(decider(state))
        state = act(state, ADD(F))
    assert [(2, "add_or_bid"), (3, "add_or_bid"), (0, "add_or_bid"), (1, "add_or_bid")] == order
    assert [2, 2, 2, 2] == [len(mat(state, s)) for s in range(4)]


def test_add_puts_a_disc_from_hand_on_top_of_the_stack():
    """Adding moves one disc of one's hand onto the top of one's own stack."""
    state = table([[F], [F], [F]])
    state = act(state, ADD(S))
    assert (F, S) == mat(state, 0)
    assert (F, F) == hand(state, 0)
    assert (1, "add_or_bid") == decider(state)


def test_a_player_with_no_disc_in_hand_must_open_the_bidding():
    """With an empty hand, adding is not allowed: opening the bidding is the only choice."""
    state = table([[F, F, F, S], [F], [F]])
    assert {"open"} == {a.name for a in E.legal_actions(state)}
    assert E.why_illegal(state, ADD(F)) is not None


def test_a_player_with_discs_may_add_or_open():
    """With discs in hand, both adding and opening are allowed."""
    state = table([[F], [F], [F]])
    assert {"add", "open"} == {a.name for a in E.legal_actions(state)}


def test_knocked_out_players_are_skipped_clockwise():
    """A player who is out takes no turn: after seat 0 adds, seat 2 plays (seat 1 is out)."""
    state = table([[F], [], [F], [F]], hands=[[F, F, S], [], [F, F, S], [F, F, S]], out=[1])
    state = act(state, ADD(F))
    assert (2, "add_or_bid") == decider(state)


# ---------------------------------------------------------------------------- 3. bid
def test_opening_bid_is_between_1_and_the_discs_on_all_mats():
    """1 ≤ n ≤ total discs on mats (here 2 + 1 + 3 = 6)."""
    state = table([[F, F], [S], [F, F, S]])
    assert list(range(1, 7)) == sorted(a.params[0] for a in E.legal_actions(state) if a.name == "open")
    assert E.why_illegal(state, OPEN(0)) is not None
    assert E.why_illegal(state, OPEN(7)) is not None
    with pytest.raises(IllegalAction):
        act(state, OPEN(7))


def test_bidding_goes_clockwise_from_the_opener():
    """After the opener (seat 1 of 4), seats 2, 3 and 0 bid in turn."""
    state = table([[F], [F], [F], [F]], leader=1)
    state = act(state, OPEN(1))
    seen = []
    for n in (2, 3):
        seen.append(decider(state))
        state = act(state, RAISE(n))
    seen.append(decider(state))
    assert [(2, "bidding"), (3, "bidding"), (0, "bidding")] == seen


def test_a_raise_must_be_higher_and_at_most_the_total():
    """Raising to the standing bid or lower is illegal; above the total as well."""
    state = act(table([[F, F], [F], [F, F]]), OPEN(2))
    assert [3, 4, 5] == sorted(a.params[0] for a in E.legal_actions(state) if a.name == "raise")
    assert "a bid must be higher" == E.why_illegal(state, RAISE(2))
    assert "a bid must be higher" == E.why_illegal(state, RAISE(1))
    assert E.why_illegal(state, RAISE(6)) is not None
    assert E.why_illegal(state, RAISE(3)) is None


def test_a_player_who_passed_is_out_of_the_bidding():
    """Seat 1 passes; when the turn comes round again it is skipped (0 → 2)."""
    state = table([[F], [F], [F], [F]])
    state = act(state, OPEN(1), PASS, RAISE(2), RAISE(3))
    assert (0, "bidding") == decider(state)
    state = act(state, PASS)
    assert (2, "bidding") == decider(state)
    assert [2, 3] == list(dict(E.view(state, 0).groups)["bidders"])


def test_bidding_ends_when_all_but_one_passed_and_the_last_bidder_challenges():
    """Seat 1 raises to 2, the others pass: seat 1 is the challenger and reveals."""
    state = table([[F, F], [F], [F, F]])
    state = act(state, OPEN(1), RAISE(2), PASS)
    assert (0, "bidding") == decider(state)
    state = act(state, PASS)
    assert 1 == seat_value(E, state, "challenger")
    assert (1, "reveal") == decider(state)
    assert (F,) == shown(state, 1)


def test_a_bid_of_the_total_ends_the_bidding_at_once():
    """Opening at the total (2 + 1 + 2 = 5) goes straight to the reveal: nobody bids again."""
    state = table([[F, F], [F], [F, F]], leader=1)
    state = act(state, OPEN(5))
    assert (1, "reveal") == decider(state)
    assert 1 == seat_value(E, state, "challenger")


def test_a_raise_to_the_total_ends_the_bidding_at_once():
    """A raise to the total ends the bidding even with players who have not passed yet."""
    state = table([[F, F], [F], [F, F]])
    state = act(state, OPEN(1), RAISE(5))
    assert (1, "reveal") == decider(state)
    assert 1 == seat_value(E, state, "challenger")


# ---------------------------------------------------------------------------- 4. reveal
def test_the_challenger_turns_up_his_whole_stack_first():
    """All of the challenger's stack is turned up before he picks from others."""
    state = challenge(table([[F, F, F], [F], [F, F]]), 5)
    assert (F, F, F) == shown(state, 0)
    assert () == mat(state, 0)
    assert (0, "reveal") == decider(state)
    for viewer in (1, 2):
        assert (3, (F, F, F)) == E.view(state, viewer).zone("shown", 0)


def test_the_own_stack_is_turned_up_in_full_even_past_the_bid():
    """A bid of 1 with a skull at the bottom of his own 3-disc stack fails: all of it is turned up."""
    state = challenge(table([[S, F, F], [F], [F]]), 1)
    assert (0, "lose_own") == decider(state)
    assert 0 == successes(state, 0)


def test_enough_flowers_in_the_own_stack_succeed_at_once():
    """Own stack of 2 flowers, bid 2: success without turning up any other disc."""
    state = challenge(table([[F, F], [S], [S]]), 2)
    assert 1 == successes(state, 0)
    assert (0, "place") == decider(state)


def test_the_challenger_turns_up_the_top_disc_of_the_stack_he_chooses():
    """One disc at a time, from the top of the chosen stack (seat 1: skull below a flower)."""
    state = challenge(table([[F], [S, F], [F, F]]), 4)
    state = act(state, TURN(1))
    assert (F,) == shown(state, 1)
    assert (S,) == mat(state, 1)
    assert (0, "reveal") == decider(state)


def test_only_other_non_empty_stacks_can_be_turned_up():
    """Once seat 1's stack is all turned up, only seat 2 is legal; never the challenger's own."""
    state = challenge(table([[F], [F], [F, F]]), 4)
    assert [(1,), (2,)] == [a.params for a in E.legal_actions(state)]
    state = act(state, TURN(1))
    assert (0, "reveal") == decider(state)
    assert [(2,)] == [a.params for a in E.legal_actions(state)]
    assert "that stack is empty" == E.why_illegal(state, TURN(1))
    assert E.why_illegal(state, TURN(0)) is not None


def test_an_emptied_stack_is_not_offered():
    """The reveal's option offers only non-empty stacks (seat 2 once seat 1's stack is all up)."""
    state = challenge(table([[F], [F], [F, F]]), 4)
    state = act(state, TURN(1))
    option = E.decision(state).options[0]
    assert ("turn_up", (2,)) == (option.name, dict(option.params)["p"])


def test_the_reveal_stops_at_the_first_skull():
    """A skull ends the reveal before n discs are turned up: the round is over."""
    state = challenge(table([[F], [F, S], [F, F]]), 4)
    state, events = E.apply(state, TURN(1), random.Random(0))
    assert "place" == E.decision(state).phase      # the next round, no more turning up
    assert [] == [e for e in events if e.kind == "move" and e.data["to"] == E.zone_slot(state, "shown", 2)]
    assert (3, 1) == (len(hand(state, 0)), len(lost(state)))   # two of four discs up, and he failed
    assert all(() == mat(state, s) and () == shown(state, s) for s in range(3))


# ---------------------------------------------------------------------------- 5. success
def test_a_first_success_flips_the_mat_and_the_challenger_leads_next():
    """n flowers turned up: successes 0 → 1, discs back in hand, the challenger starts the next round."""
    state = challenge(table([[F], [F, F], [F]], leader=2), 3)
    assert (2, "reveal") == decider(state)        # seat 2 bid 3, one flower of his own
    state = act(state, TURN(0), TURN(1))
    assert [0, 0, 1] == [successes(state, s) for s in range(3)]
    assert ("successes", (0, 0, 1)) == E.view(state, 0).counters[0]   # the flowered mat is public
    assert not state.is_terminal
    assert [4, 4, 4] == [len(hand(state, s)) for s in range(3)]
    state = place_all(state, [F, F, F])
    assert (2, "add_or_bid") == decider(state)


def test_a_second_success_wins_the_game():
    """With his mat already flowered, a success ends the match and he is the only winner."""
    state = challenge(table([[F], [F], [F]], leader=1, wins={1: 1, 2: 1}), 2)
    state = act(state, TURN(2))
    assert state.is_terminal
    assert (1,) == state.winners
    assert (-1, 1, -1) == E.returns(state)
    assert 2 == successes(state, 1)


def test_a_first_success_does_not_win():
    """A success with a plain mat does not end the match, even if another seat has one already."""
    state = challenge(table([[F], [F], [F]], leader=1, wins={2: 1}), 2)
    state = act(state, TURN(2))
    assert not state.is_terminal
    assert [0, 1, 1] == [successes(state, s) for s in range(3)]


# ---------------------------------------------------------------------------- 6. failure
def test_another_players_skull_costs_a_disc_picked_at_random():
    """Failure on seat 1's skull: one of the challenger's four discs goes, at random (both kinds seen)."""
    kinds = set()
    for seed in range(40):
        state = challenge(table([[F], [S], [F]]), 3)
        state = act(state, TURN(1), seed=seed)
        assert 3 == len(hand(state, 0))
        assert 1 == len(lost(state))
        assert Counter(DISCS) == Counter(hand(state, 0)) + Counter(lost(state))
        assert [4, 4] == [len(hand(state, s)) for s in (1, 2)]
        assert "place" == E.decision(state).phase    # nobody chooses: the next round begins
        kinds.add(lost(state)[0])
    assert {F, S} == kinds


def test_the_random_loss_is_drawn_from_the_match_rng():
    """The disc lost to another's skull depends on the chance generator only (no seat decides)."""
    state = act(challenge(table([[F], [S], [F]]), 3), TURN(1), seed=5)
    again = act(challenge(table([[F], [S], [F]]), 3), TURN(1), seed=5)
    assert lost(state) == lost(again)


def test_after_another_players_skull_its_owner_starts_the_next_round():
    """Rule 7: the owner of the skull revealed is the next round's first player."""
    state = challenge(table([[F], [F], [F], [F, S]], leader=1), 4)
    state = act(state, TURN(3))
    state = place_all(state, [F, F, F, F])
    assert (3, "add_or_bid") == decider(state)


def test_own_skull_the_challenger_chooses_the_disc_he_loses():
    """S2: with his own skull, the challenger chooses among all his discs; he may drop the skull."""
    state = challenge(table([[S], [F], [F]], leader=0), 2)
    d = E.decision(state)
    assert (0, "lose_own") == (d.seat, d.phase)
    assert tuple(sorted(DISCS)) == d.options[0].cards
    state = act(state, LOSE(S))
    assert (S,) == lost(state)
    assert (F, F, F) == hand(state, 0)


def test_own_skull_the_challenger_may_keep_his_skull():
    """S2: he may as well lose a flower and keep the skull."""
    state = act(challenge(table([[S], [F], [F]]), 2), LOSE(F))
    assert (F,) == lost(state)
    assert [F, F, S] == sorted(hand(state, 0))


def test_own_skull_a_challenger_still_in_starts_the_next_round():
    """S3: after losing a disc to his own skull and staying in, the challenger starts."""
    state = act(challenge(table([[F], [F], [S]], leader=2), 2), LOSE(F))
    state = place_all(state, [F, F, F])
    assert (2, "add_or_bid") == decider(state)


def test_the_lost_disc_is_hidden_from_the_others_who_see_only_the_count():
    """S2: after he drops his skull the others see his disc count (3) but not which disc went."""
    state = act(challenge(table([[S], [F], [F]]), 2), LOSE(S))
    for viewer in (1, 2):
        view = E.view(state, viewer)
        assert (3, None) == view.zone("hand", 0)
        assert None is view.zone("lost")[1]
        assert () == view.known
    assert (3, (F, F, F)) == E.view(state, 0).zone("hand", 0)


def test_the_views_of_others_do_not_depend_on_which_disc_was_lost():
    """No leak: losing the skull or a flower gives the other seats the very same view."""
    base = challenge(table([[S], [F], [F]]), 2)
    skull_gone = act(base, LOSE(S))
    flower_gone = act(base, LOSE(F))
    assert lost(skull_gone) != lost(flower_gone)
    for viewer in (1, 2):
        assert E.view(skull_gone, viewer) == E.view(flower_gone, viewer)


def test_the_lost_zone_is_seen_by_nobody_during_whole_matches():
    """No leak: in random matches, no seat sees the lost zone; a seat knows only the discs
    it chose to lose itself (S2), never one lost at random."""
    losses = 0
    for seed in range(6):
        chose = [[] for _ in range(4)]             # the discs each seat chose to lose
        for step in walk(E, 4, seed, bots=quick_bots(4, seed), max_steps=400):
            state = step.after
            if step.action is not None and step.action.name == "lose":
                chose[step.decision.seat].extend(step.action.cards)
            losses += bool(lost(state))
            for viewer in range(4):
                view = E.view(state, viewer)
                assert None is view.zone("lost")[1]
                for name, _, cards in view.known:
                    if name == "lost":
                        assert not set(cards) - set(chose[viewer]), (viewer, cards)
    assert losses > 0                              # discs were lost along the way


# ---------------------------------------------------------------------------- out and the end
def test_a_player_with_no_discs_left_is_out():
    """A challenger down to one disc who loses it on another's skull is knocked out and skipped."""
    state = table([[F], [S], [F], [F]], hands=[[], [F, F, F], [F, F, S], [F, F, S]])
    state = challenge(state, 4)
    state = act(state, TURN(1))
    assert 0 != state.out[0]
    assert [0, 0, 0] == [state.out[s] for s in (1, 2, 3)]
    assert not state.is_terminal
    assert 0 not in state.poll                     # not asked to place a disc
    state = place_all(state, [None, F, F, F])
    assert (1, "add_or_bid") == decider(state)
    assert [1, 2, 3] == [a.params[0] for a in E.legal_actions(state) if a.name == "open"]


def test_own_skull_elimination_names_the_next_first_player():
    """S3: losing his last disc to his own skull, he is out and names the first player among those still in."""
    state = table([[S], [F], [F], []], hands=[[], [F, F, S], [F, F, S], []], out=[3])
    state = challenge(state, 3)
    assert (0, "lose_own") == decider(state)
    state = act(state, LOSE(S))
    assert 0 != state.out[0]
    d = E.decision(state)
    assert (0, "name_first") == (d.seat, d.phase)
    assert (1, 2) == dict(d.options[0].params)["p"]       # not himself, not seat 3 (out)
    assert E.why_illegal(state, NAME(3)) is not None
    assert E.why_illegal(state, NAME(0)) is not None
    state = act(state, NAME(2))
    state = place_all(state, [None, F, F, None])
    assert (2, "add_or_bid") == decider(state)


def test_the_last_player_with_discs_wins():
    """When the second-to-last player runs out of discs (another's skull), the one left wins."""
    state = table([[F], [S], []], hands=[[], [F, F, F], []], out=[2], wins={0: 1})
    state = challenge(state, 2)
    state = act(state, TURN(1))
    assert state.is_terminal
    assert (1,) == state.winners
    assert (-1, 1, -1) == E.returns(state)


def test_own_skull_elimination_of_the_second_to_last_player_ends_the_match():
    """Out on his own skull with one player left: no one to name, that player wins."""
    state = table([[S], [F], []], hands=[[], [F, F, S], []], out=[2])
    state = challenge(state, 2)
    state = act(state, LOSE(S))
    assert state.is_terminal
    assert (1,) == state.winners


def test_matches_between_random_players_end_with_one_winner():
    """Every random match ends: one winner, with two successes or as the last player in."""
    for seed in range(10):
        steps = list(walk(E, 3 + seed % 4, seed, max_steps=3000))
        state = steps[-1].after
        assert state.is_terminal
        assert 1 == len(state.winners)
        w = state.winners[0]
        assert 2 == successes(state, w) or sum(1 for o in state.out if not o) == 1
        assert Counter(DISCS * state.n) == cards_in_state(state)
