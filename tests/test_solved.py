"""rulekit.players.solved: a bot that plays a CFR+ solution of a small two-seat game.

Kuhn poker solved to OpenSpiel's exploitability (the bot's exact policy measured by
OpenSpiel's best response), Liar's Dice 1 die (slow); the disk cache (read again without
solving, keyed by the rules text, variants, player count and settings, rebuilt when
corrupt, rejections cached); big games given up; information sets found in real matches;
the same seed gives the same match. Every test points ``RULEKIT_CACHE`` at a temporary
folder."""

from __future__ import annotations

import os
import pickle
import random
import warnings
from pathlib import Path

import pytest

from rulekit import Engine, load
from rulekit.play.match import play_match
from rulekit.players import GenericBot, RandomBot
from rulekit.players import solved
from rulekit.players.solved import (SolvedBot, SolvedPolicy, SolverSettings, cache_dir, cache_key, clear_memo,
                                    info_key, solve, solved_bot, why_unsolved)
from rulekit.tree import GameTree, Node

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "docs" / "examples" / "kuhn_poker.rules")
LIARS_DICE = str(ROOT / "games" / "liars_dice.rules")
COUP = str(ROOT / "games" / "coup.rules")
SKULL = str(ROOT / "games" / "skull.rules")
LUGENBEUTEL = str(ROOT / "games" / "lugenbeutel.rules")
COIN_BLUFF = str(ROOT / "docs" / "examples" / "coin_bluff.rules")

#: a two-seat game whose claim is chosen in several decisions (1 or 2 cards, then done),
#: with log lines and labels (texts that a match renders only when something reads them)
TINY = """\
game "Tiny bluff"
players 2

deck {
  card ace "ace": count 2
  card two "two": count 2
}
zone deck: shared, count only, holds the deck
zone hand: per player, seen by owner
zone pile: shared, count only

claim aces "all aces": true when every card in claimed cards is ace

setup {
  shuffle deck
  deal 2 from deck to each hand
  set current = P1
  go to play
}

turn play {
  action play "plays {count of chosen} and says aces" {
    choose 1..2 from your hand
    lay chosen on pile
    claim aces
    go to doubt
  }
}

window doubt: first of everyone after claimant {
  action doubt "doubts it" {
    reveal claimed cards
    if claim holds {
      log "it was true: {actor} loses"
      knock out actor
    } else {
      log "it was a lie: {claimant} loses"
      knock out claimant
    }
  }
  otherwise {
    log "nobody doubts: {claimant} wins"
    knock out left of claimant
  }
}

match {
  ends when 1 seat remains
}
"""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Every test's own cache folder, and nothing kept in memory from another test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEKIT_CACHE", str(folder))
    clear_memo()
    yield folder
    clear_memo()


class Refuses:
    """A fallback that must never be asked."""

    def choose(self, view, decision):
        raise AssertionError(f"the table has no answer for seat {decision.seat} in {decision.phase}")


def _tiny_path(tmp_path) -> str:
    path = tmp_path / "tiny.rules"
    path.write_text(TINY, encoding="utf-8")
    return str(path)


def _bot_policy(game, policy: SolvedPolicy):
    """SolvedBot's policy as an OpenSpiel policy, exactly: at each node the distribution
    the bot draws from (its view as ``GameTree.choose`` gives it), each action's ids
    (``ActionSpace.encode``) marginalised to the next id given those already chosen."""
    from open_spiel.python import policy as os_policy
    tree = game.tree

    class BotPolicy(os_policy.Policy):
        def __init__(self):
            super().__init__(game, [0, 1])

        def action_probabilities(self, state, player_id=None):
            node = state._node
            start = node if node.partial is None else Node(node.state, None, None, node.trace, node.decisions)
            seat = tree.player(start)
            view = tree.engine.view(start.state, seat, tree.perceived(start, seat), texts=False)
            dist = policy.distribution(view)
            assert dist is not None, "an information state missing from the table"
            chosen = tree.chosen_ids(node)
            mass: dict = {}
            for action, q in dist:
                ids = tree.space.encode(start.state.phase, action)
                if ids[:len(chosen)] == chosen:
                    mass[ids[len(chosen)]] = mass.get(ids[len(chosen)], 0.0) + q
            total = sum(mass.values())
            return {a: mass.get(a, 0.0) / total for a in state.legal_actions()}

    return BotPolicy()


def _exploitability(path: str, policy: SolvedPolicy) -> float:
    from open_spiel.python.algorithms import exploitability
    from rulekit.openspiel import load_game
    game = load_game(path, players=2)
    return exploitability.exploitability(game, _bot_policy(game, policy))


# ---------------------------------------------------------------------------- solving
def test_kuhn_poker_is_solved_to_a_low_exploitability():
    """Kuhn poker: 58 nodes, 12 information sets; OpenSpiel's best response gains at most
    0.02 against the bot's policy, as much as the solver measured itself; the first
    seat's value is the game's, -1/18."""
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.expected_game_score import policy_value
    from rulekit.openspiel import load_game
    policy = solve(KUHN)
    assert policy is not None
    assert (policy.nodes, policy.infosets, len(policy.table), policy.players) == (58, 12, 12, 2)
    measured = _exploitability(KUHN, policy)
    assert measured <= 0.02
    assert measured == pytest.approx(policy.exploitability, abs=1e-9)
    game = load_game(KUHN, players=2)
    values = policy_value(game.new_initial_state(), [_bot_policy(game, policy)] * 2)
    assert values[0] == pytest.approx(-1 / 18, abs=0.01)
    for dist in policy.table.values():
        assert sum(q for _, q in dist) == pytest.approx(1.0)
        assert all(q > 0 for _, q in dist)


def test_an_action_chosen_in_several_decisions_is_solved(tmp_path):
    """A claim of 1 or 2 cards (card ids, then done): the table holds whole actions, and
    OpenSpiel measures the bot's exact policy as the solver did."""
    pytest.importorskip("pyspiel")
    path = _tiny_path(tmp_path)
    policy = solve(path)
    assert policy is not None and policy.infosets > len(policy.table)     # decisions within actions
    sizes = {len(a.cards) for dist in policy.table.values() for a, _ in dist if a.name == "play"}
    assert sizes == {1, 2}
    measured = _exploitability(path, policy)
    assert measured <= 0.01
    assert measured == pytest.approx(policy.exploitability, abs=1e-9)


def test_the_solver_stops_at_its_target_or_its_iterations():
    """A looser target stops sooner; a cap on iterations is kept."""
    loose = solve(KUHN, settings=SolverSettings(target=0.05))
    assert loose is not None and loose.exploitability <= 0.05
    capped = solve(KUHN, settings=SolverSettings(iterations=3, target=0.0))
    assert capped is not None and capped.iterations == 3
    assert capped.exploitability > loose.exploitability or loose.iterations <= 3


@pytest.mark.slow
def test_liars_dice_is_solved_to_a_low_exploitability():
    """Liar's Dice, one die each: OpenSpiel's best response gains at most 0.05 (about 2
    minutes: OpenSpiel's Python best response walks the whole tree)."""
    pytest.importorskip("pyspiel")
    policy = solve(LIARS_DICE)
    assert policy is not None and policy.nodes > 100_000
    assert policy.exploitability <= 0.01
    measured = _exploitability(LIARS_DICE, policy)
    assert measured <= 0.05
    assert measured == pytest.approx(policy.exploitability, abs=1e-6)


# ---------------------------------------------------------------------------- what is given up
@pytest.mark.parametrize("path, n", [(COUP, None), (COUP, 2), (SKULL, None), (LUGENBEUTEL, None),
                                     (LUGENBEUTEL, 2), (COIN_BLUFF, 2), (LIARS_DICE + "#five_dice", 2)])
def test_big_games_are_given_up(path, n):
    """Games too big for the budget (and games of more than two seats) give None, and
    say why."""
    from rulekit.tree import default_players
    variants = ()
    if "#" in path:
        path, variant = path.split("#")
        variants = (variant,)
    if n is None:
        n = default_players(load(path))
    assert solve(path, variants, n) is None
    reason = why_unsolved(path, variants, n)
    assert reason.startswith("too big") if n == 2 else "only two-seat games" in reason
    assert solved_bot(Engine(load(path, variants)), random.Random(1), path, variants, n) is None


def test_the_enumeration_stops_at_the_budget(monkeypatch):
    """An estimate that misses the size (forced here) is caught by the enumeration, which
    stops once the tree holds more nodes than the budget."""
    monkeypatch.setattr(solved, "estimate_nodes", lambda *args, **kwargs: 0.0)
    seen = []
    real = solved._enumerate

    def counting(tree, budget):
        seen.append(budget)
        return real(tree, budget)
    monkeypatch.setattr(solved, "_enumerate", counting)
    assert solve(KUHN, settings=SolverSettings(budget=57)) is None
    assert "more than 57 nodes" in why_unsolved(KUHN, settings=SolverSettings(budget=57))
    assert solve(KUHN, settings=SolverSettings(budget=58)) is not None
    assert seen == [57, 58]


def test_knuths_estimate_is_exact_on_a_tree_of_equal_branching():
    """A tree whose every path branches alike is counted exactly; a cap stops early."""
    tree = GameTree(Engine(load(KUHN)), 2)
    estimate = solved.estimate_nodes(tree, 200, random.Random(3))
    assert 30 < estimate < 100                    # 58 nodes; paths end after 2 or 3 bets
    assert solved.estimate_nodes(tree, 10, random.Random(3), cap=5) == float("inf")


# ---------------------------------------------------------------------------- the cache
def test_a_solution_is_read_again_from_the_cache(monkeypatch, cache):
    """The second call reads the file (nothing solved again), with the same table."""
    first = solve(KUHN)
    files = list(cache.glob("*.pickle"))
    assert len(files) == 1
    assert solve(KUHN) is first                    # kept in memory
    clear_memo()

    def refuse(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(solved, "_solve_tree", refuse)
    again = solve(KUHN)
    assert again is not first and again.table == first.table
    assert (again.nodes, again.infosets, again.iterations) == (first.nodes, first.infosets, first.iterations)
    # the text of the file is what counts, not its path
    assert solve(Path(KUHN).read_text(encoding="utf-8")).table == first.table


def test_the_key_tells_files_variants_player_counts_and_settings_apart():
    text = Path(LIARS_DICE).read_text(encoding="utf-8")
    base = cache_key(text, (), 2, SolverSettings())
    assert base == cache_key(text, (), 2, SolverSettings())
    others = [cache_key(text, ("five_dice",), 2, SolverSettings()), cache_key(text, (), 3, SolverSettings()),
              cache_key(text, (), 2, SolverSettings(target=0.01)), cache_key(text + "\n", (), 2, SolverSettings()),
              cache_key(text, ("a", "b"), 2, SolverSettings()), cache_key(text, ("b", "a"), 2, SolverSettings())]
    assert len({base, *others}) == len(others) + 1


def test_different_variants_and_player_counts_are_cached_apart(cache):
    """Two player counts, two variants: four files."""
    for variants in ((), ("five_dice",)):
        solve(LIARS_DICE, variants, 2, settings=SolverSettings(budget=1000))
    for n in (2, 3):
        solve(COIN_BLUFF, (), n)
    assert len(list(cache.glob("*.pickle"))) == 4


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "foreign class", "other key"])
def test_a_corrupt_cache_file_is_made_again(cache, damage):
    """A file that cannot be read (or holds anything but plain data, or another key) is
    ignored and written anew; no traceback."""
    first = solve(KUHN)
    (path,) = cache.glob("*.pickle")
    raw = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"\x00not a pickle at all")
    elif damage == "truncated":
        path.write_bytes(raw[:len(raw) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "foreign class":
        path.write_bytes(pickle.dumps({"format": solved.FORMAT, "key": path.stem, "status": "solved",
                                       "table": {}, "stats": random.Random(1)}))
    else:
        data = pickle.loads(raw)
        data["key"] = "0" * 64
        path.write_bytes(pickle.dumps(data))
    clear_memo()
    again = solve(KUHN)
    assert again is not None and again.table == first.table
    assert solved._read(path.stem) is not None            # written anew, readable
    assert not [p for p in cache.iterdir() if p.name.startswith(".tmp")]


def test_a_game_found_too_big_is_cached_as_such(monkeypatch, cache):
    assert solve(COUP, (), 2) is None
    assert len(list(cache.glob("*.pickle"))) == 1
    clear_memo()

    def refuse(*args, **kwargs):
        raise AssertionError("estimated again")
    monkeypatch.setattr(solved, "estimate_nodes", refuse)
    assert solve(COUP, (), 2) is None
    assert why_unsolved(COUP, (), 2).startswith("too big")


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    """RULEKIT_CACHE naming a file: every call solves, nothing fails."""
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("RULEKIT_CACHE", str(blocker))
    assert cache_dir() == str(blocker)
    assert solve(KUHN) is not None
    clear_memo()
    assert solve(KUHN) is not None


def test_the_default_cache_folder_is_the_users(monkeypatch):
    import platformdirs
    monkeypatch.delenv("RULEKIT_CACHE")
    assert cache_dir() == os.path.join(platformdirs.user_cache_dir("rulekit"), "solved")


def test_bad_input_gives_clear_errors(tmp_path):
    with pytest.raises(TypeError, match="path or its text"):
        solve(42)
    with pytest.raises(FileNotFoundError):
        solve(str(tmp_path / "missing.rules"))
    with pytest.raises(ValueError, match="budget must be a positive integer"):
        SolverSettings(budget=0)
    with pytest.raises(ValueError, match="target"):
        SolverSettings(target=-1)
    from rulekit import OptionError, RulesError
    with pytest.raises(OptionError):
        solve(KUHN, ("no_such_variant",))
    with pytest.raises(OptionError):
        solve(KUHN, (), 3)
    with pytest.raises(RulesError):
        solve('game "broken"\nplayers 2\nthis is not a rule\n')


# ---------------------------------------------------------------------------- the bot in matches
def _bots(engine, policy, seed, seats=(0, 1), other=None):
    out = []
    for s in range(2):
        rng = random.Random(f"{seed}/{s}")
        if s in seats:
            out.append(SolvedBot(policy, rng, Refuses()))
        else:
            out.append(other(engine, rng))
    return out


@pytest.mark.parametrize("keep_log", [True, False])
def test_the_bot_finds_its_information_set_in_real_matches(tmp_path, keep_log):
    """In real matches (with texts rendered for a log, and without), against itself, a
    random bot and the generic bot, every decision of the bot is in the table: its
    fallback, which raises, is never asked."""
    for path in (KUHN, _tiny_path(tmp_path)):
        engine = Engine(load(path))
        policy = solve(path)
        for seed in range(60):
            for seats, other in (((0, 1), None), ((0,), lambda e, r: RandomBot(r)), ((1,), GenericBot)):
                bots = _bots(engine, policy, seed, seats, other)
                play_match(engine, bots, 2, seed, keep_log=keep_log)
                assert all(b.misses == 0 for b in bots if isinstance(b, SolvedBot))


def test_the_key_of_a_tree_node_is_that_of_a_match(tmp_path):
    """GameTree.choose gives the bot the view it keys (the view and history a match gives)."""
    path = _tiny_path(tmp_path)
    engine = Engine(load(path))
    policy = solve(path)
    tree = GameTree(engine, 2)
    rng = random.Random(5)
    for _ in range(30):
        node = tree.settle(tree.root(), rng)
        while not tree.is_terminal(node):
            bot = SolvedBot(policy, rng, Refuses())
            node = tree.settle(tree.play(node, bot), rng)
            assert bot.misses == 0


def test_the_bot_draws_from_its_distribution():
    """A draw r picks the first action whose cumulative probability passes r."""
    policy = solve(KUHN)
    engine = Engine(load(KUHN))
    tree = GameTree(engine, 2)
    node = tree.settle(tree.root(), random.Random(0))
    seat = tree.player(node)
    view = engine.view(node.state, seat, tree.perceived(node, seat), texts=False)
    dist = policy.distribution(view)
    assert dist is not None and info_key(view) in policy.table
    decision = engine.decision(node.state, texts=False)

    class Fixed(random.Random):
        def __init__(self, r):
            super().__init__(0)
            self.r = r

        def random(self):
            return self.r
    assert SolvedBot(policy, Fixed(0.0), Refuses()).choose(view, decision) == dist[0][0]
    assert SolvedBot(policy, Fixed(0.999999999), Refuses()).choose(view, decision) == dist[-1][0]
    cut = dist[0][1]
    assert SolvedBot(policy, Fixed(cut + 1e-9), Refuses()).choose(view, decision) == dist[1][0]


def test_the_fallback_answers_where_the_table_has_nothing():
    """A Kuhn policy in a Liar's Dice match: every decision goes to the fallback."""
    policy = solve(KUHN)
    engine = Engine(load(LIARS_DICE))
    bots = [SolvedBot(policy, random.Random(s), RandomBot(random.Random(10 + s))) for s in range(2)]
    record = play_match(engine, bots, 2, 3)
    assert record.winners and sum(b.misses for b in bots) == record.steps


def test_solved_bot_makes_a_bot_with_the_generic_fallback():
    engine = Engine(load(KUHN))
    bot = solved_bot(engine, random.Random(1), KUHN)
    assert isinstance(bot, SolvedBot) and isinstance(bot.fallback, GenericBot)
    assert bot.uses_history and not bot.uses_texts
    assert solved_bot(engine, random.Random(1), KUHN, fallback=Refuses()).fallback.__class__ is Refuses


def test_the_same_seed_gives_the_same_match(tmp_path):
    """Two runs of the same seeds play the same matches; other seeds play others."""
    path = _tiny_path(tmp_path)
    engine = Engine(load(path))
    policy = solve(path)

    def logs(seeds):
        return [play_match(engine, _bots(engine, policy, seed), 2, seed).log for seed in seeds]
    first = logs(range(20))
    assert first == logs(range(20))
    assert first != logs(range(100, 120))


@pytest.mark.slow
def test_liars_dice_bot_finds_its_information_sets_in_real_matches():
    engine = Engine(load(LIARS_DICE))
    policy = solve(LIARS_DICE)
    for seed in range(100):
        bots = _bots(engine, policy, seed, (0,) if seed % 2 else (0, 1), GenericBot)
        play_match(engine, bots, 2, seed, keep_log=bool(seed % 3))


def test_a_wrapper_that_hides_the_history_is_warned_of_once():
    """A player that wraps the solved bot without declaring ``uses_history`` gets views
    without their history: the bot can find none of its information sets and plays its
    fallback at every decision. It warns once, naming the fix (helper-31 lost an analysis
    to the silent fallback)."""
    policy = solve(KUHN)
    engine = Engine(load(KUHN))

    class Wrapper:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view, decision):
            return self.bot.choose(view, decision)
    bots = [SolvedBot(policy, random.Random(s), RandomBot(random.Random(s))) for s in range(2)]
    with pytest.warns(RuntimeWarning, match="uses_history = True") as caught:
        play_match(engine, [Wrapper(b) for b in bots], 2, 1)
    assert sum(issubclass(w.category, RuntimeWarning) for w in caught) <= 2 and bots[0].misses >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # declared: no warning
        for b in bots:
            b.warned = False
        play_match(engine, bots, 2, 1)
