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


def _played(*names: str) -> "object":
    """The end of a hand of K (P1) against J (P2) played by the actions ``names``."""
    chance = deal([3, 1])
    state, _ = ENGINE.new_match(2, chance)
    for name in names:
        action = next(a for a in ENGINE.legal_actions(state) if a.name == name)
        state, _ = ENGINE.apply(state, action, chance)
    assert state.is_terminal
    return state


def test_the_standings_shown_to_a_person_keep_a_folded_hand_hidden():
    """The winners key reads each hand ('highest total rank of your hand'): shown to P1,
    P2's folded J is None, and P1's K to P2; each sees its own; without viewers, all.
    (helper-31: the final standings of `rulekit run` told the person the folded card.)"""
    state = _played("bet", "fold")              # no card is shown
    assert dict(ENGINE.standings(state)) == {0: (3,), 1: (1,)}
    assert dict(ENGINE.standings(state, [0])) == {0: (3,), 1: (None,)}
    assert dict(ENGINE.standings(state, [1])) == {0: (None,), 1: (1,)}
    assert dict(ENGINE.standings(state, [0, 1])) == {0: (None,), 1: (None,)}


def test_the_standings_after_a_showdown_show_both_hands():
    """After 'reveal every hand' both values are known to both seats."""
    assert dict(ENGINE.standings(_played("bet", "call"), [0, 1])) == {0: (3,), 1: (1,)}


def test_run_prints_a_question_mark_for_a_hand_the_person_never_saw():
    """`rulekit run --human 2`: P2 folds to P1's bet (seed 3: the random bot bets); the
    table shows P1's value as '?' with its footnote, P2's own K as 3."""
    from click.testing import CliRunner

    from rulekit.cli import main

    path = str(ROOT / "docs" / "examples" / "kuhn_poker.rules")
    result = CliRunner().invoke(main, ["run", path, "--human", "2", "--bots", "random", "--seed", "3"],
                                input="fold\n")
    assert result.exit_code == 0 and "P1 bets 1" in result.output and "P2 (you) folds" in result.output, result.output
    rows = {line.split("│")[2].strip(): line.split("│")[3].strip()
            for line in result.output[result.output.index("Final standings"):].splitlines() if line.count("│") > 4}
    assert rows == {"P1": "?", "P2": "3"} and "? not shown" in result.output


def test_overlapping_facts_do_not_make_a_hand_known():
    """A seat that knows two facts of a three-card hand, one naming A and B and one A, knows
    two of its cards, not three: its value stays hidden (facts may name the same card)."""
    import attrs

    view = ENGINE.view(_played("bet", "fold"), 0)
    zones = tuple(("hand", 1, 3, None) if (z, owner) == ("hand", 1) else (z, owner, count, cards)
                  for z, owner, count, cards in view.zones)
    for facts, known in [((("hand", 1, (0, 1)), ("hand", 1, (0,))), 2), ((("hand", 1, (0, 1)), ("hand", 1, (2,))), 3)]:
        counts = ENGINE._known_counts(attrs.evolve(view, zones=zones, known=facts))
        assert counts[[(z, o) for z, o, _, _ in zones].index(("hand", 1))] == known
