"""Liar's Dice (shared/rules/more-games.md §1): scenario tests of each rule, and a cross-check
against OpenSpiel's ``liars_dice`` fed the same dice and the same actions."""

from __future__ import annotations

import random

import pytest

from rulekit import Action, Chance, Engine, IllegalAction
from strategies import ROOT, load_game

PATH = str(ROOT / "games" / "liars_dice.rules")


def engine_for(variant=None) -> Engine:
    return Engine(load_game(PATH, variant))


def start(engine: Engine, faces):
    """A new match whose dice show ``faces`` (player 0's dice first, as OpenSpiel rolls)."""
    faces = list(faces)
    return engine.new_match(2, Chance(lambda event: faces.pop(0)))[0]


def bid(q, f):
    return Action("bid", (), (q, f))


LIAR = Action("liar")


def play(engine, state, *actions):
    for a in actions:
        state, _ = engine.apply(state, a, random.Random(0))
    return state


# ---------------------------------------------------------------------------- rules
def test_each_player_sees_only_his_own_die():
    """Setup: each die is rolled under its owner's cup; the other seat sees only the count."""
    engine = engine_for()
    state = start(engine, [3, 5])
    mine = engine.view(state, 0).zone("cup", 0)
    theirs = engine.view(state, 0).zone("cup", 1)
    assert mine == (1, (engine.kinds.index(next(k for k in engine.kinds if k.label == "3")),))
    assert theirs == (1, None)


def test_player_0_opens_and_must_bid():
    """Player 0 moves first; with no bid standing, calling liar is not allowed (LD1)."""
    engine = engine_for()
    state = start(engine, [1, 1])
    assert engine.decider(state) == 0
    assert engine.why_illegal(state, LIAR) == "the opener must bid"
    assert {a.name for a in engine.legal_actions(state)} == {"bid"}


def test_bids_rise_quantity_first_then_face():
    """A bid must have a larger action number (q-1)·6 + (f-1): a higher face at the same
    quantity, or any face at a higher quantity (reset-face)."""
    engine = engine_for("five_dice")
    state = play(engine, start(engine, [1] * 10), bid(3, 4))
    legal = {a.params for a in engine.legal_actions(state) if a.name == "bid"}
    assert (3, 5) in legal and (4, 1) in legal
    assert (3, 4) not in legal and (3, 3) not in legal and (2, 6) not in legal
    with pytest.raises(IllegalAction):
        engine.apply(state, bid(2, 6), random.Random(0))


def test_quantity_is_at_most_the_dice_in_play():
    """1 ≤ q ≤ the total number of dice."""
    engine = engine_for()
    state = start(engine, [2, 2])
    assert max(a.params[0] for a in engine.legal_actions(state)) == 2


@pytest.mark.parametrize("faces, claim, caller_loses", [
    ([4, 6], (2, 4), True),      # a 6 is wild for a bid on 4: two 4s, the bid holds
    ([4, 5], (2, 4), False),     # only one 4: the bid fails
    ([6, 4], (2, 6), False),     # a bid on 6 counts only 6s
    ([6, 6], (2, 6), True),
])
def test_liar_reveals_and_the_loser_is_out(faces, claim, caller_loses):
    """Calling liar reveals all dice; the 6 is wild except for a bid on 6; the loser gets −1."""
    engine = engine_for()
    state = play(engine, start(engine, faces), bid(*claim))
    state = play(engine, state, LIAR)
    assert state.is_terminal
    loser = 1 if caller_loses else 0
    assert state.winners == (1 - loser,)
    expected = [1, 1]
    expected[loser] = -1
    assert engine.returns(state) == tuple(expected)


def test_the_highest_bid_leaves_only_liar():
    """After the highest possible bid (total × 6) the only legal action is liar."""
    engine = engine_for()
    state = play(engine, start(engine, [1, 2]), bid(2, 6))
    assert engine.legal_actions(state) == [LIAR]


def test_the_dice_are_conserved_and_revealed_to_all_on_a_call():
    """After a call both dice are known to both seats."""
    engine = engine_for()
    state = play(engine, start(engine, [2, 5]), bid(1, 2), LIAR)
    labels = sorted(engine.kind_label(k) for _, _, cards in engine.view(state, 1).known for k in cards)
    assert labels == ["2", "5"]


# ---------------------------------------------------------------------------- OpenSpiel
def _rulekit_action_number(action: Action, total: int) -> int:
    if action.name == "liar":
        return 6 * total
    q, f = action.params
    return (q - 1) * 6 + (f - 1)


def cross_check(numdice: int, games: int, seed: int) -> int:
    """Play ``games`` games side by side; returns the number of steps compared."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("liars_dice", {"numdice": numdice})
    engine = engine_for(None if numdice == 1 else "five_dice")
    rng = random.Random(seed)
    total = 2 * numdice
    compared = 0
    for _ in range(games):
        os_state = game.new_initial_state()
        faces = []
        while os_state.is_chance_node():
            outcomes, probs = zip(*os_state.chance_outcomes())
            assert probs == (1 / 6,) * 6
            outcome = rng.choice(outcomes)
            faces.append(outcome + 1)
            os_state.apply_action(outcome)
        chance = Chance(lambda event: (faces.pop(0) if event.kind == "die" else pytest.fail(event)))
        state, _ = engine.new_match(2, chance)
        assert not faces and all(e.probabilities == (1 / 6,) * 6 for e, _ in chance.history)
        while not os_state.is_terminal():
            assert not state.is_terminal
            assert engine.decider(state) == os_state.current_player()
            ours = {_rulekit_action_number(a, total): a for a in engine.legal_actions(state)}
            assert sorted(ours) == sorted(os_state.legal_actions())
            number = rng.choice(os_state.legal_actions())
            os_state.apply_action(number)
            state, _ = engine.apply(state, ours[number], chance)
            compared += 1
        assert state.is_terminal
        assert engine.returns(state) == tuple(int(r) for r in os_state.returns())
    return compared


def test_openspiel_cross_check_one_die():
    """1,000 games with uniformly random actions: at every step the same player to move,
    the same legal actions (mapped to OpenSpiel's numbers) and the same returns."""
    assert cross_check(1, 1000, seed=1) >= 1000


def test_openspiel_cross_check_five_dice():
    """The five-dice variant against OpenSpiel's numdice = 5."""
    assert cross_check(5, 200, seed=2) >= 200
