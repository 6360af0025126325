"""rulekit.openspiel: every game file as an OpenSpiel game (docs/rl.md).

OpenSpiel's own random simulation test on every game, variant and several player counts;
Kuhn poker and Liar's Dice node for node against OpenSpiel's native games (player to move,
chance probabilities, legal actions, information-state partition, returns), with the same
NashConv for the uniform policy and for OpenSpiel's CFR; ISMCTS on every game through
``resample_from_infostate``; the game's type and parameters."""

from __future__ import annotations

import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from rulekit.openspiel import load_game  # noqa: E402
from strategies import COMBOS, ROOT  # noqa: E402

KUHN = str(ROOT / "docs" / "examples" / "kuhn_poker.rules")
LIARS_DICE = str(ROOT / "games" / "liars_dice.rules")
#: a bound on decisions for the default run: Lügenbeutel's random matches run to thousands
SHORT = 400
#: a bound on decisions for the slow run. OpenSpiel's random simulation keeps a clone of
#: every node and each clone copies the history, so its memory grows with the square of a
#: match's length: random Lügenbeutel matches at 7 or 8 players run to 60,000 nodes (tens
#: of GB). The other games' random matches end well within it, whole.
LONG = 2_000


def _few_combos():
    """Every game and variant at its fewest and most players (the default run)."""
    out = {}
    for c in COMBOS:
        key = (c.path, c.variant)
        low, high = out.get(key, (c.players, c.players))
        out[key] = (min(low, c.players), max(high, c.players))
    return [(path, variant, n) for (path, variant), (low, high) in out.items() for n in sorted({low, high})]


FEW = _few_combos()


def _id(combo):
    path, variant, n = combo
    return f"{path.rsplit('/', 1)[-1][:-6]}[{variant or 'base'}]-{n}p"


@pytest.mark.parametrize("combo", FEW, ids=[_id(c) for c in FEW])
def test_openspiel_random_simulation(combo):
    """pyspiel.random_sim_test (legal actions sorted and empty for others, masks, clones,
    serialization, observations and information states of every seat at every node,
    returns within the utilities and summing as the type says) passes."""
    path, variant, n = combo
    game = load_game(path, players=n, variants=[variant] if variant else [], max_decisions=SHORT)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("combo", COMBOS, ids=[c.id for c in COMBOS])
def test_openspiel_random_simulation_every_player_count(combo):
    """The same at every player count, with whole matches (cut after :data:`LONG` decisions)."""
    game = load_game(combo.path, players=combo.players, variants=[combo.variant] if combo.variant else [],
                     max_decisions=LONG)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_examples_pass_the_random_simulation():
    """docs/examples' Kuhn poker and coin bluff pass it too."""
    for path in (KUHN, str(ROOT / "docs" / "examples" / "coin_bluff.rules")):
        pyspiel.random_sim_test(load_game(path), num_sims=5, serialize=True, verbose=False)


# ---------------------------------------------------------------------------- against OpenSpiel
KUHN_ACTIONS = {0: 0, 1: 1, 2: 1, 3: 0}       # check, bet, call, fold -> pass 0, bet 1


def same_tree(ours, native, mapping=None, follow=None) -> tuple[int, list[int]]:
    """Walk both trees together: at every node the same player to move, the same chance
    outcomes and probabilities, the same legal actions (ours through ``mapping``), the
    same returns at the end, and information states that partition the nodes alike (each
    of ours stands for one of theirs and the other way round). ``follow(outcomes)``: whether
    to go on below the chance outcomes met so far (None: always). Returns the number of
    nodes and of information states per player."""
    mapping = mapping or (lambda a: a)
    forward = [{}, {}]
    backward = [{}, {}]
    count = 0
    todo = [(ours.new_initial_state(), native.new_initial_state(), ())]
    while todo:
        a, b, chance = todo.pop()
        count += 1
        assert a.current_player() == b.current_player()
        if a.is_terminal():
            assert a.returns() == pytest.approx(b.returns())
            continue
        if a.is_chance_node():
            ca, cb = a.chance_outcomes(), b.chance_outcomes()
            assert [x for x, _ in ca] == [x for x, _ in cb]
            assert [p for _, p in ca] == pytest.approx([p for _, p in cb], abs=1e-12)
            for x, _ in a.chance_outcomes():
                if follow is None or follow(chance + (x,)):
                    todo.append((a.child(x), b.child(x), chance + (x,)))
            continue
        p = a.current_player()
        sa, sb = a.information_state_string(), b.information_state_string()
        assert forward[p].setdefault(sa, sb) == sb, "one of our information states is two of theirs"
        assert backward[p].setdefault(sb, sa) == sa, "one of their information states is two of ours"
        assert sorted(mapping(x) for x in a.legal_actions()) == sorted(b.legal_actions())
        for x in a.legal_actions():
            todo.append((a.child(x), b.child(mapping(x)), chance))
    return count, [len(f) for f in forward]


def test_kuhn_poker_is_openspiels_node_for_node():
    """docs/examples/kuhn_poker.rules is kuhn_poker: 58 nodes, 6 information states each."""
    assert (58, [6, 6]) == same_tree(load_game(KUHN), pyspiel.load_game("kuhn_poker"), KUHN_ACTIONS.get)


def test_kuhn_poker_nash_conv_and_cfr_agree_with_openspiel():
    """NashConv of the uniform policy, and of 50 iterations of OpenSpiel's CFR, are those
    of the native game to 1e-6; the game is zero-sum, so exploitability works too."""
    ours, native = load_game(KUHN), pyspiel.load_game("kuhn_poker")
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    values = []
    for game in (ours, native):
        uniform = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
        solver = cfr.CFRSolver(game)
        for _ in range(50):
            solver.evaluate_and_update_policy()
        values.append((uniform, exploitability.nash_conv(game, solver.average_policy()),
                       exploitability.exploitability(game, solver.average_policy())))
    assert values[0] == pytest.approx(values[1], abs=1e-6)
    assert values[0][0] == pytest.approx(11 / 12, abs=1e-9)


def test_liars_dice_is_openspiels_node_for_node():
    """games/liars_dice.rules is liars_dice (numdice 1) node for node, its whole tree:
    294,883 nodes, 12,288 information states per player."""
    ours = load_game(LIARS_DICE)
    native = pyspiel.load_game("liars_dice", {"numdice": 1})
    assert (294_883, [12_288, 12_288]) == same_tree(ours, native)


@pytest.mark.slow
def test_liars_dice_nash_conv_and_cfr_agree_with_openspiel():
    """NashConv of the uniform policy (OpenSpiel's Python best response) and of 50
    iterations of OpenSpiel's CFR (its C++ solver, on our Python game) are the native
    game's to 1e-6."""
    ours = load_game(LIARS_DICE)
    native = pyspiel.load_game("liars_dice", {"numdice": 1})
    values = []
    for game in (ours, native):
        uniform = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
        solver = pyspiel.CFRSolver(game)
        for _ in range(50):
            solver.evaluate_and_update_policy()
        values.append((uniform, pyspiel.nash_conv(game, solver.average_policy())))
    assert values[0] == pytest.approx(values[1], abs=1e-6)


# ---------------------------------------------------------------------------- ISMCTS
@pytest.mark.parametrize("combo", FEW[::2], ids=[_id(c) for c in FEW[::2]])
def test_ismcts_runs_on_every_game(combo):
    """OpenSpiel's ISMCTS bot (it resamples the state from the information state at every
    simulation) chooses legal actions at the first decisions of a match, and a resampled
    state keeps the seat's information state."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    path, variant, n = combo
    game = load_game(path, players=n, variants=[variant] if variant else [], max_decisions=200)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8,
                           random_state=rng)
    state = game.new_initial_state()
    decided = 0
    while not state.is_terminal() and decided < 3:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decided += 1
    assert decided > 0


# ---------------------------------------------------------------------------- the game itself
LAST_CHIP = """\
game "Last chip"
players 2
deck { card chip: count 7 }
zone pile: shared, seen by all, holds the deck
zone taken: per player, seen by all
counter last per player = 0
setup { set current = P1  go to take }
turn take clockwise {
  action one "takes 1" { move top 1 of pile to your taken  do check }
  action two "takes 2" { require count of pile >= 2  move top 2 of pile to your taken  do check }
}
procedure check { if count of pile = 0 { set last = 1  end deal } }
match { winners: highest last }
"""


def test_the_game_type_says_what_the_file_is(tmp_path):
    """Flags true for the file: Liar's Dice is sequential, explicitly stochastic, imperfect
    information and zero-sum; Coup for 3 is general-sum; a game with no chance and nothing
    hidden is deterministic with perfect information and no chance outcomes (and, its
    whole tree explored, zero-sum)."""
    T = pyspiel.GameType
    ld = load_game(LIARS_DICE).get_type()
    assert (ld.dynamics, ld.chance_mode, ld.information, ld.utility) == (
        T.Dynamics.SEQUENTIAL, T.ChanceMode.EXPLICIT_STOCHASTIC, T.Information.IMPERFECT_INFORMATION,
        T.Utility.ZERO_SUM)
    assert load_game(str(ROOT / "games" / "coup.rules"), players=3).get_type().utility == T.Utility.GENERAL_SUM
    path = tmp_path / "last_chip.rules"
    path.write_text(LAST_CHIP, encoding="utf-8")
    game = load_game(str(path))
    t = game.get_type()
    assert (t.chance_mode, t.information, t.utility) == (T.ChanceMode.DETERMINISTIC,
                                                        T.Information.PERFECT_INFORMATION, T.Utility.ZERO_SUM)
    assert game.max_chance_outcomes() == 0
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_loads_again_from_its_name():
    """str(game) names the registered game with its parameters; pyspiel.load_game of it
    gives the same game (what OpenSpiel's serialization needs)."""
    game = load_game(LIARS_DICE, variants=["five_dice"], max_decisions=500)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions() == 61
    assert again.max_game_length() == 500
    assert re.match(r"rulekit_liars_dice(_\d+)?\(", str(game))


def test_information_state_strings_spell_out_a_short_history():
    """P1's information state in Liar's Dice after rolling a 3 and bidding 1 × 2: its own
    roll, the other's hidden, its bid, and its view now."""
    state = load_game(LIARS_DICE).new_initial_state()
    state.apply_action(2)          # P1's die shows 3
    state.apply_action(4)          # P2's die shows 5
    state.apply_action(1)          # P1 bids 1 × 2
    text = state.information_state_string(0)
    assert text.startswith("P1\n")
    assert '"cards":["3"],"zone":"cup of P1"' in text and '"cards":[null],"zone":"cup of P2"' in text
    assert 'you {"action":"bid","cards":[],"params":[1,2]}' in text
    assert '"5"' not in text
    assert state.information_state_string(1).count('"5"') >= 1


def test_a_node_keeps_no_texts_once_another_is_asked():
    """The information state and observation strings of a node are kept only until another
    node's are asked for: OpenSpiel's tests and searches hold thousands of nodes, and a
    Lügenbeutel string is about 20 KB per seat. Asked again, a string is the same."""
    game = load_game(str(ROOT / "games" / "lugenbeutel.rules"), players=4, max_decisions=200)
    state = game.new_initial_state()
    held = []
    while not state.is_terminal() and len(held) < 300:
        if not state.is_chance_node():
            held.append((state.clone(), [state.information_state_string(p) for p in range(4)],
                         state.observation_string(1)))
        state.apply_action(state.legal_actions()[len(held) % len(state.legal_actions())])
    assert len(held) >= 100
    for node in {id(s._node): s._node for s, _, _ in held}.values():
        assert not any(isinstance(k, tuple) and k[0] in ("info", "obs") for k in (node.memo or {}))
    for s, texts, seen in held[::17]:
        assert [s.information_state_string(p) for p in range(4)] == texts
        assert s.observation_string(1) == seen
    assert sum(len(t) for _, texts, _ in held for t in texts) > 1_000_000     # what was not kept


def test_only_the_last_game_trees_are_kept():
    """A process that loads many games keeps the trees of the last KEPT_TREES only; a game
    whose tree was dropped makes it again, the same, when its states are deserialized."""
    from rulekit import openspiel as rk_openspiel
    first = load_game(LIARS_DICE, max_decisions=300)
    state = first.new_initial_state()
    for action in (2, 4, 1):
        state.apply_action(action)
    text = state.information_state_string(0)
    for decisions in range(301, 301 + 2 * rk_openspiel.KEPT_TREES):
        load_game(LIARS_DICE, max_decisions=decisions)
    assert len(rk_openspiel._TREES) == rk_openspiel.KEPT_TREES
    assert all(key[2] != 300 for key in rk_openspiel._TREES)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(first, state))[1]
    assert again.information_state_string(0) == text and again.history() == state.history()
    assert any(key[2] == 300 for key in rk_openspiel._TREES)


def test_unknown_parameters_are_refused():
    """A keyword load_game does not take is a TypeError naming it."""
    with pytest.raises(TypeError, match="unknown parameter.*colour"):
        load_game(LIARS_DICE, colour="red")


def test_bad_options_are_named():
    """An unknown variant or a player count the game does not allow is an OptionError that
    names what the game accepts."""
    from rulekit.errors import OptionError
    with pytest.raises(OptionError, match="unknown variant 'nope' \\(this game has: five_dice\\)"):
        load_game(LIARS_DICE, variants=["nope"])
    with pytest.raises(OptionError, match="players must be between 2 and 2 for Liar's Dice, not 9"):
        load_game(LIARS_DICE, players=9)
