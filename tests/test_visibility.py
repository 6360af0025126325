"""Which checks read only what the deciding seat sees (``rulekit.sema.visibility``), and the
masked state the match answers such a seat's questions from (``observe.masked_state``).

The analysis is held to the rules two ways: on the shipped games, at every step of random
matches, a phase it calls public answers every tried action (and lists the same legal
actions) in the masked state as in the true one; and on small games, each construct that
reads something hidden makes a phase not public."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from rulekit import Engine, loads
from rulekit.engine.observe import masked_state, seat_masked_state
from rulekit.players.base import random_concrete
from rulekit.sema.visibility import public_checks

from strategies import COMBO_IDS, COMBOS, seeds, walk

FAST = settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
@FAST
@given(seed=seeds)
def test_a_public_check_answers_in_the_masked_state_as_in_the_true_one(combo, seed):
    engine, n = combo.engine, combo.players
    rng = random.Random(seed)
    compared = 0
    for step in walk(engine, n, seed, max_steps=120):
        state = step.after
        if state.is_terminal or not engine.public_checks[state.phase]:
            continue
        seat = engine.decider(state)
        masked = masked_state(engine, engine.view(state, seat))
        assert seat_masked_state(engine, state, seat) == masked      # made without the view
        assert engine.legal_actions(masked, 200) == engine.legal_actions(state, 200)
        options = engine.decision(state, False).options
        for _ in range(10):
            action = random_concrete(rng.choice(options), rng)
            assert engine.why_illegal(masked, action) == engine.why_illegal(state, action), action
            assert engine.is_legal(masked, action) == engine.is_legal(state, action), action
            compared += 1
    assert compared or not any(engine.public_checks)


def test_the_shipped_games_checks_are_public_but_a_proof_of_a_claim_and_a_blind_choice():
    """Coup's 'answer' requires that the claim holds; Lügenbeutel's single_card variant
    chooses a card of the play blind (the analysis does not look into what a blind choice
    reads); every other check reads only what its seat sees."""
    expected = {"bluff": set(), "coup": {"answer"}, "coyote": set(), "dtc": set(), "liars_dice": set(), "lugenbeutel": set(),
                "nimms_leich": set(), "skull": set()}
    seen = set()
    for combo in COMBOS:
        game = combo.engine.game
        hidden = {p.name for p, public in zip(game.phases, public_checks(game)) if not public}
        assert hidden == ({"liar"} if "single_card" in game.applied else expected[combo.game]), combo.game
        seen.add(combo.game)
    assert seen == set(expected)


GAME = """\
game "Peek"
players 2..3
deck {
  card number: rank 1..3, count 4
}
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
zone table: shared, seen by all
zone pit: shared, seen by nobody
counter score per player = 0
counter secret per player = 0, seen by owner
counter hidden = 0, seen by nobody
claim same(r): true when every card in claimed cards is (rank = r)
setup { deal 2 from stock to each hand  set current = P1  go to play }
turn play {
  action lay "lays" {
    %s
    choose 1 from your hand
    lay chosen on table
    claim same(1)
    set current = left of current
    go to play
  }
}
"""


@pytest.mark.parametrize("require, public", [
    ("", True),
    ("require count of your hand > 0", True),
    ("require count of hand of left of current > 0", True),           # sizes of hands are seen
    ("require count of pit >= 0", False),                               # the pit's size is not
    ("require some card in your hand is (rank = 1)", True),
    ("require some card in table is (rank = 1)", True),
    ("require some card in hand of left of current is (rank = 1)", False),
    ("require total rank of every hand > 0", False),
    ("require score > 0 or score of left of current >= 0", True),
    ("require secret >= 0", True),                                      # its own
    ("require secret of left of current >= 0", False),
    ("require hidden >= 0", False),
    ("require no claim or claim holds", False),
    ("require no claim or claimed r = 1", True),
    ("require count of top 1 of table >= 0", True),
    ("require some card in top 1 of table is (rank = 1)", False),       # the view does not order a pile
    ("require count of claimed cards >= 0", True),
    ("require no claim or some card in claimed cards is (rank = 1)", False),
])
def test_what_a_check_reads_decides_whether_it_is_public(require, public):
    game = loads(GAME % require)
    assert public_checks(game) == (public,)
    engine = Engine(game)
    assert engine.public_checks == (public,)
    if public:          # and it is: the masked state answers as the true one
        rng = random.Random(3)
        for seed in range(3):
            for step in walk(engine, 3, seed, max_steps=12):
                state = step.after
                options = () if state.is_terminal else engine.decision(state, False).options
                if not options:
                    break
                masked = masked_state(engine, engine.view(state, engine.decider(state)))
                for _ in range(6):
                    action = random_concrete(options[0], rng)
                    assert engine.why_illegal(masked, action) == engine.why_illegal(state, action)
