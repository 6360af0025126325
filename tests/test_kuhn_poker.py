"""docs/examples/kuhn_poker.rules, a betting game, against OpenSpiel's ``kuhn_poker``: the
same cards (fed through ``rulekit.Chance``), the same uniformly random actions, and at every
step the same player to move, the same legal actions and, at the end, the same returns."""

from __future__ import annotations

import random

import pytest

from rulekit import Chance, Engine, load
from strategies import ROOT

ENGINE = Engine(load(str(ROOT / "docs" / "examples" / "kuhn_poker.rules")))
PASS = {"check": 0, "fold": 0, "bet": 1, "call": 1}   # OpenSpiel: 0 pass, 1 bet


def deal(cards: list):
    """A Chance that deals ``cards[0]`` to P1 and ``cards[1]`` to P2 (ranks 1..3).

    The shuffle is drawn from the top card down and each hand gets the top card, P1 first."""
    left = [r for r in (1, 2, 3) if r not in cards]
    order = [cards[0], cards[1], left[0]]            # top … bottom
    return Chance(lambda event: ENGINE.kind_named(("J", "Q", "K")[order.pop(0) - 1]))


def test_the_rules_file_checks():
    """The example loads: 2 players, 3 cards, one betting turn."""
    assert (2, 2) == ENGINE.game.players and 3 == ENGINE.game.deck_size


def test_openspiel_cross_check():
    """500 games with random actions agree with OpenSpiel's kuhn_poker step by step."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker")
    rng = random.Random(5)
    steps = 0
    for _ in range(500):
        os_state = game.new_initial_state()
        cards = []
        while os_state.is_chance_node():
            outcome = rng.choice([o for o, _ in os_state.chance_outcomes()])
            cards.append(outcome + 1)
            os_state.apply_action(outcome)
        chance = deal(cards)
        state, _ = ENGINE.new_match(2, chance)
        assert [ENGINE.kind_label(k) for k in (state.zones[ENGINE.zone_slot(state, "hand", s)][0]
                                               for s in range(2))] == [("J", "Q", "K")[c - 1] for c in cards]
        while not os_state.is_terminal():
            assert ENGINE.decider(state) == os_state.current_player()
            ours = {PASS[a.name]: a for a in ENGINE.legal_actions(state)}
            assert sorted(ours) == sorted(os_state.legal_actions())
            number = rng.choice(os_state.legal_actions())
            os_state.apply_action(number)
            state, _ = ENGINE.apply(state, ours[number], chance)
            steps += 1
        assert state.is_terminal
        assert ENGINE.returns(state) == tuple(int(r) for r in os_state.returns())
    assert steps >= 1000
