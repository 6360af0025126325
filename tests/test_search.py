"""The search bot (rulekit.players.search): legal, reproducible, blind to the state, and it
searches: it finds a sure win a random choice would miss and it maximizes the returns."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import random
import subprocess
import sys
import types
from pathlib import Path

import pytest

from rulekit import Engine, load, loads
from rulekit.engine import Action, Decision, Option
from rulekit.play.match import play_match, player_decision, seat_rng
from rulekit.players import GenericBot, RandomBot
from rulekit.players.search import SearchBot

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

_ENGINES: dict = {}


def engine_of(path: Path, variants=()) -> Engine:
    key = (str(path), tuple(variants))
    if key not in _ENGINES:
        _ENGINES[key] = Engine(load(str(path), variants=list(variants)))
    return _ENGINES[key]


class Strict:
    """A player that fails the test when the match rejects one of the bot's answers."""

    uses_texts = False

    def __init__(self, bot):
        self.bot = bot
        self.searched = 0

    def choose(self, view, decision):
        assert decision.rejected is None, f"the match rejected {decision.rejected}"
        action = self.bot.choose(view, decision)
        self.searched += bool(self.bot.last.get("iterations"))
        return action


SMALL = dict(iterations=6, max_steps=400, horizon=30)


@pytest.mark.parametrize("path,players,variants", [
    (GAMES / "coup.rules", 4, ()),
    (GAMES / "skull.rules", 3, ()),
    (GAMES / "dtc.rules", 3, ()),
    (GAMES / "liars_dice.rules", 2, ("five_dice",)),
    (ROOT / "docs" / "examples" / "kuhn_poker.rules", 2, ()),
])
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])
def test_whole_matches_are_legal(path, players, variants, seed):
    """Search bots in every seat play whole matches without one illegal answer."""
    engine = engine_of(path, variants)
    bots = [Strict(SearchBot(engine, seat_rng(seed, s), **SMALL)) for s in range(players)]
    record = play_match(engine, bots, players, seed, keep_log=False)
    assert record.state.is_terminal
    assert sum(b.searched for b in bots) > 0         # it did search, not only answer forced moves


@pytest.mark.slow
@pytest.mark.parametrize("name,players", [("lugenbeutel", 4), ("nimms_leich", 4), ("nimms_leich", 3),
                                          ("skull", 4), ("coup", 2)])
def test_whole_matches_are_legal_in_the_long_games(name, players):
    engine = engine_of(GAMES / f"{name}.rules")
    bots = [Strict(SearchBot(engine, seat_rng(3, 0), **SMALL))] + \
        [RandomBot(seat_rng(3, s)) for s in range(1, players)]
    record = play_match(engine, bots, players, 3, keep_log=False)
    assert record.state.is_terminal


def test_same_seed_same_match():
    engine = engine_of(GAMES / "coup.rules")

    def log(seed):
        bots = [SearchBot(engine, seat_rng(seed, s), **SMALL) for s in range(3)]
        return play_match(engine, bots, 3, seed).log
    assert log(5) == log(5)
    assert log(5) != log(6)


_HASH_SCRIPT = """
import hashlib, json, sys
from rulekit import Engine, load
from rulekit.play.match import play_match, seat_rng
from rulekit.players.search import SearchBot
engine = Engine(load(sys.argv[1]))
bots = [SearchBot(engine, seat_rng(4, s), iterations=6, max_steps=400, horizon=30) for s in range(3)]
print(hashlib.sha256(json.dumps(play_match(engine, bots, 3, 4).log).encode()).hexdigest())
"""


def test_same_match_whatever_the_hash_seed():
    """Nothing depends on the order of a set of strings (it changes with PYTHONHASHSEED): a
    match played here and one played by another process with another hash seed agree."""
    engine = engine_of(GAMES / "skull.rules")
    bots = [SearchBot(engine, seat_rng(4, s), iterations=6, max_steps=400, horizon=30) for s in range(3)]
    here = hashlib.sha256(json.dumps(play_match(engine, bots, 3, 4).log).encode()).hexdigest()
    hash_seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    out = subprocess.run([sys.executable, "-c", _HASH_SCRIPT, str(GAMES / "skull.rules")], check=True,
                         capture_output=True, text=True, env={"PYTHONHASHSEED": hash_seed, "PATH": ""}, cwd=ROOT)
    assert out.stdout.strip() == here


def _decision(options, check=lambda a: None, actions=None, rejected=None) -> Decision:
    return Decision(0, "p", "turn", tuple(options), check, actions or (lambda *a, **k: []), rejected)


def test_one_choice_is_answered_without_search():
    engine = engine_of(GAMES / "coup.rules")
    bot = SearchBot(engine, random.Random(1))
    bot._search = None           # any search would fail
    only = Option("lose", "lose", (3,), 1, 1, (), (), True)
    assert bot.choose(None, _decision([only])) == Action("lose", (3,))
    values = Option("pick", "pick", None, 0, 0, (("t", (2,)),), (), True)
    assert bot.choose(None, _decision([values])) == Action("pick", (), (2,))
    # one option that needs a check, with one legal choice: the decision lists it
    checked = Option("name", "name", None, 0, 0, (("p", (1,)),), (), False)
    assert bot.choose(None, _decision([checked], actions=lambda *a, **k: [Action("name", (), (1,))])) == \
        Action("name", (), (1,))
    assert bot.last["iterations"] == 0


def test_a_real_forced_decision_is_answered_without_search():
    """Coup: a player with one card left loses it without searching."""
    engine = engine_of(GAMES / "coup.rules")
    state, _ = engine.new_match(2, random.Random(1), False)
    hand = engine.zone_slot(state, "hand", 0)
    zones = list(state.zones)
    zones[hand] = zones[hand][:1]
    phase = engine.phase_index("lose_influence")
    state = state._replace(zones=tuple(zones), phase=phase, seats=(0,) + state.seats[1:])
    decision = engine.decision(state, False)
    assert decision.seat == 0
    bot = SearchBot(engine, random.Random(1))
    bot._search = None
    view = engine.view(state, 0, (), False)
    action = bot.choose(view, player_decision(engine, view, decision))
    assert engine.is_legal(state, action)


def test_after_a_rejection_it_answers_like_the_other_bots():
    engine = engine_of(GAMES / "coup.rules")
    bot = SearchBot(engine, random.Random(1))
    bot._search = None
    options = [Option("a", "a", None, 0, 0, (), (), True), Option("b", "b", None, 0, 0, (), (), True)]
    action = bot.choose(None, _decision(options, rejected=(Action("c"), "no")))
    assert action in (Action("a"), Action("b"))


def _facing(seed: int, sure: bool):
    """Liar's Dice, one die each, P2 to answer P1's bid. ``sure`` False: P1 bid "2 × 5"
    and P2's die shows neither 5 nor 6 (the wild face), so the bid cannot hold: calling
    "liar" wins for sure (the only higher bid, "2 × 6", cannot hold either). ``sure``
    True: P1 bid "1 × f" where f is P2's own face, so the bid holds: calling loses for
    sure, raising may not."""
    engine = engine_of(GAMES / "liars_dice.rules")
    rng = random.Random(seed)
    while True:
        state, _ = engine.new_match(2, rng, False)
        mine = engine.kind_label(state.zones[engine.zone_slot(state, "cup", 1)][0])
        if sure or mine not in ("5", "6"):
            break
    bid = (1, int(mine)) if sure else (2, 5)
    state, _ = engine.apply(state, Action("bid", (), bid), rng, False, False)
    view = engine.view(state, 1, (), False)
    return engine, state, view, player_decision(engine, view, engine.decision(state, False))


@pytest.mark.parametrize("seed", range(5))
def test_it_calls_an_impossible_bid_and_never_a_sure_one(seed):
    engine, state, view, decision = _facing(seed, False)
    bot = SearchBot(engine, random.Random(seed), iterations=60, suggest=0)
    assert bot.choose(view, decision) == Action("liar")
    engine, state, view, decision = _facing(seed, True)
    bot = SearchBot(engine, random.Random(seed), iterations=60, suggest=0)
    assert bot.choose(view, decision).name == "bid"


def test_a_random_choice_would_miss_it():
    """The scenarios are not trivial: a random bot calls in both alike (it is right about
    half the time)."""
    right = 0
    for seed in range(40):
        sure = seed % 2 == 0
        engine, state, view, decision = _facing(seed % 10, sure)
        called = RandomBot(random.Random(seed)).choose(view, decision) == Action("liar")
        right += called != sure
    assert 8 < right < 32


_RETURNS = """
game "Returns"
players 2
deck { card coin: count 2 }
zone stock: shared, count only, holds the deck
counter points per player = 0
setup { go to pick from P1 }
turn pick {
  action small "takes 1" {
    add 1 to points
    end deal
  }
  action big "takes 3" {
    add 3 to points
    end deal
  }
}
match {
  winners: lowest points
  returns: points
}
"""


@pytest.mark.parametrize("seed", range(4))
def test_it_maximizes_the_returns_not_the_wins(seed):
    """Both choices lose the match (the fewest points win) but 'big' returns 3, not 1: a
    search that ignored the returns' values (or counted wins) could not tell them apart."""
    engine = Engine(loads(_RETURNS))
    state, _ = engine.new_match(2, random.Random(seed), False)
    view = engine.view(state, 0, (), False)
    decision = player_decision(engine, view, engine.decision(state, False))
    bot = SearchBot(engine, random.Random(seed), iterations=20, suggest=0)
    assert bot.choose(view, decision) == Action("big")


def test_a_choice_among_many_sets_of_cards_is_not_enumerated():
    """Lügenbeutel's first turn lets a player lay any of the subsets of ten cards: the root
    considers a few candidates, grown with its visits."""
    engine = engine_of(GAMES / "lugenbeutel.rules")
    state, _ = engine.new_match(4, random.Random(2), False)
    seat = engine.decider(state)
    view = engine.view(state, seat, (), False)
    decision = player_decision(engine, view, engine.decision(state, False))
    bot = SearchBot(engine, random.Random(2), iterations=30, max_steps=3000, horizon=40)
    action = bot.choose(view, decision)
    assert engine.is_legal(state, action)
    assert bot.last["candidates"] <= 1 + 2 * 30 ** 0.5 + bot.suggest
    assert len(engine.legal_actions(state)) > 100


def _reachable(root, skip) -> list:
    """Every object reachable from ``root`` by attributes, items and closures (not through
    modules, classes or a function's globals), ``skip`` (ids) left out."""
    seen = set(skip)
    out = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type, str, bytes, int, float)):
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, types.FunctionType):
            todo.extend(c.cell_contents for c in (obj.__closure__ or ()) if c.cell_contents is not None)
            todo.extend(obj.__defaults__ or ())
            continue
        todo.extend(r for r in gc.get_referents(obj) if not (isinstance(r, dict) and "__builtins__" in r))
    return out


def test_it_never_reaches_the_state():
    """The bot answers from the view and the decision alone: nothing reachable from it (or
    from what it was given) after its decisions is a state of the match or its generator."""
    engine = engine_of(GAMES / "coup.rules")
    states: list = []

    def keep(state, events):
        states.append(state)
    bot = SearchBot(engine, seat_rng(9, 0), **SMALL)
    given: list = []

    class Watch:
        uses_texts = False

        def choose(self, view, decision):
            given.append((view, decision))
            return bot.choose(view, decision)
    players = [Watch()] + [RandomBot(seat_rng(9, s)) for s in range(1, 3)]
    play_match(engine, players, 3, 9, on_events=keep, keep_log=False)
    match_states = {id(s) for s in states}
    zones = {id(s.zones) for s in states}
    assert match_states
    found = _reachable((bot, given), skip=set())
    assert not [o for o in found if id(o) in match_states]
    assert not [o for o in found if id(o) in zones]
    assert not [o for o in found if isinstance(o, random.Random) and o is not bot.rng]


def test_think_and_budget_arguments():
    engine = engine_of(GAMES / "liars_dice.rules")
    state, _ = engine.new_match(2, random.Random(1), False)
    view = engine.view(state, 0, (), False)
    decision = player_decision(engine, view, engine.decision(state, False))
    bot = SearchBot(engine, random.Random(1), think=0.01)
    assert engine.is_legal(state, bot.choose(view, decision))
    assert bot.last["iterations"] >= 1
    bot = SearchBot(engine, random.Random(1), iterations=1000, max_steps=50)
    bot.choose(view, decision)
    assert bot.last["steps"] < 50 + bot.horizon and bot.last["iterations"] < 1000
    with pytest.raises(ValueError):
        SearchBot(engine, random.Random(1), rollout="smart")
    with pytest.raises(ValueError):
        SearchBot(engine, random.Random(1), iterations=-1)


def _after(name: str, players: int, steps: int, seed: int = 4):
    """(engine, view, decision) after ``steps`` random decisions of a match."""
    from rulekit.players.base import random_legal
    engine = engine_of(GAMES / f"{name}.rules")
    rng = random.Random(seed)
    state, _ = engine.new_match(players, rng, False)
    for _ in range(steps):
        state, _ = engine.apply(state, random_legal(engine.decision(state, False), rng), rng, False, False)
    view = engine.view(state, engine.decider(state), (), False)
    return engine, state, view, player_decision(engine, view, engine.decision(state, False))


def test_hidden_counters_are_sampled_as_after_setup():
    """Nimm's Leich keeps the hand size in a counter nobody sees: sampled as 0, every new
    round would deal no card and the rules could not go on; the bot's samples keep its
    value after the setup, so its play-outs go on."""
    engine, state, view, decision = _after("nimms_leich", 4, 0)
    bot = SearchBot(engine, random.Random(2), iterations=20, horizon=60)
    bot.choose(view, decision)
    assert bot.last["stuck"] == 0 and bot.last["steps"] > 20 * 20


def test_the_votes_already_cast_are_sampled():
    """Skull's discs are placed by a secret vote: in the bot's samples each seat that has
    voted has a vote, a legal one, so its disc is placed when the vote closes."""
    engine, state, view, decision = _after("skull", 4, 3)
    assert view.phase == "place" and len(view.voted) == 3
    from rulekit.players.determinize import sampler
    draw = sampler(engine, view)         # the bot's samples: determinize casts those votes
    for i in range(5):
        sample = draw(random.Random(i))
        for seat in view.voted:
            vote = sample.votes[seat]
            assert vote is not None
            assert engine.is_legal(sample._replace(poll=(seat,)), vote)


def test_other_policies_play_legal_matches():
    engine = engine_of(ROOT / "docs" / "examples" / "kuhn_poker.rules")
    for kwargs in ({"rollout": "generic"}, {"opponents": "policy"}):
        bots = [Strict(SearchBot(engine, seat_rng(1, s), **SMALL, **kwargs)) for s in range(2)]
        assert play_match(engine, bots, 2, 1, keep_log=False).state.is_terminal


def test_the_step_cap_follows_the_iterations():
    engine = engine_of(GAMES / "coup.rules")
    assert SearchBot(engine, random.Random(1)).max_steps == 12_000
    assert SearchBot(engine, random.Random(1), iterations=800).max_steps == 24_000
    assert SearchBot(engine, random.Random(1), iterations=800, max_steps=5).max_steps == 5


def _reference_play_out(bot: SearchBot, state, left: int):
    """The play-out of ``SearchBot._play_out`` made state after state, as an iteration made
    it before: the policy's random legal choice (or the one exact choice) of each decision,
    applied with ``Engine.apply``; (result or None, the state reached, stuck, cut). The
    state reached is given as a play-out reaches it, tracking nothing of what the seats
    know (its ``known`` None; see ``Engine.working_copy``)."""
    from rulekit.errors import IllegalAction, RulesRuntimeError
    from rulekit.players.search import _only

    engine = bot.engine
    untracked = lambda state: state._replace(known=None)     # noqa: E731
    for _ in range(left):
        if state.phase < 0:
            break
        try:
            seat, _, options = engine.decide(state, False)
        except RulesRuntimeError:
            options = ()
        if not options:
            return None, untracked(state), 1, 0
        action = _only(options) or bot._policy(state, seat)
        try:
            state = engine.apply(state, action, bot.rng, False, False)[0]
        except (IllegalAction, RulesRuntimeError):
            return None, untracked(state), 1, 0
    if state.phase < 0:
        return engine.returns(state), untracked(state), 0, 0
    return None, untracked(state), 0, 1


#: a game whose third coin in the pot stops the rules half-way through a step (after the move)
HALF_DONE = """\
game "Half done"
players 2
deck { card coin: count 8 }
zone stock: shared, holds the deck
zone hand: per player, seen by owner
zone pot: shared
counter a = 0
setup {
  deal 4 from stock to each hand
  go to play from P1
}
turn play clockwise {
  action play "plays a coin" {
    choose 1 from your hand
    move chosen to pot
    set a = 7 / (count of pot - 3)
  }
  action pass "passes" {
    set a = a + 1
    end deal
  }
}
match {
  deals until a > 5
}
"""


@pytest.mark.parametrize("name,players", [("lugenbeutel", 3), ("dtc", 4), ("skull", 3), ("coup", 4),
                                          ("nimms_leich", 3), ("coyote", 3), ("bluff", 3), ("liars_dice", 2),
                                          ("half done", 2)])
def test_an_in_place_play_out_is_the_play_out_made_state_after_state(name, players):
    """The random play-out played on a working copy draws what the play-out made state after
    state draws, one for one: the same result, the same state reached (also where the rules
    stop half-way through a step), the same counts of stuck and cut play-outs, and the
    generator left in the same state, from states met in random matches and with horizons
    that cut some play-outs short."""
    from rulekit.errors import RulesRuntimeError
    from rulekit.players.base import random_legal

    engine = Engine(loads(HALF_DONE)) if name == "half done" else engine_of(GAMES / f"{name}.rules")
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        state, _ = engine.new_match(players, random.Random(seed))
        while state.phase >= 0 and checked < 40:
            for left in (3, 200):
                one, other = SearchBot(engine, random.Random(seed * 1000 + checked)), \
                    SearchBot(engine, random.Random(seed * 1000 + checked))
                one._stats = {"stuck": 0, "cut": 0, "steps": 0}
                values, reached = one._play_out(state, left)
                expected = _reference_play_out(other, state, left)
                assert (values, reached, one._stats["stuck"], one._stats["cut"]) == expected
                assert one.rng.getstate() == other.rng.getstate()
                checked += 1
            try:
                state = engine.apply(state, random_legal(engine.decision(state, False), rng), rng, False, False)[0]
            except RulesRuntimeError:
                break
    assert checked >= 20


# ---------------------------------------------------------------------------- the choice
def _root(rows, squares):
    """A root node whose candidates are ``rows`` ((action, visits, sum of results)), the
    first of them the generic bot's suggestion, with these sums of squared results."""
    from rulekit.players.search import _Node
    root = _Node(True)
    for action, visits, total in rows:
        root.stats[action] = [visits, total, visits]
        root.cands.append(action)
    return root, dict(squares)


def _chosen(rows, squares):
    engine = engine_of(GAMES / "liars_dice.rules")
    bot = SearchBot(engine, random.Random(0))
    root, bot._squares = _root(rows, squares)
    bot._suggested = rows[0][0]
    decision = types.SimpleNamespace(is_legal=lambda a: True)
    return bot._best(root, decision)


def test_the_suggestion_stands_unless_the_search_is_sure():
    """Results of +1 and -1: a lead of 0.4 with 20 and 10 visits is within the noise of
    three candidates (below √(2 ln 3) standard errors of the difference), so the generic bot's
    suggestion is played; a lead of 1.6 with 40 visits each is not, so the search's."""
    a, b, c = Action("bid", (), (1,)), Action("bid", (), (108,)), Action("bid", (), (50,))
    rows = [(a, 10, -6.0), (b, 20, -4.0), (c, 5, -5.0)]       # b leads: -0.2 against -0.6
    squares = {a: 10.0, b: 20.0, c: 5.0}
    assert _chosen(rows, squares) == a
    rows = [(a, 40, -32.0), (b, 40, 32.0), (c, 5, -5.0)]      # b leads: 0.8 against -0.8
    squares = {a: 40.0, b: 40.0, c: 5.0}
    assert _chosen(rows, squares) == b
    rows = [(a, 0, 0.0), (b, 40, 32.0)]                        # no result for the suggestion
    assert _chosen(rows, {b: 40.0}) == a


@pytest.mark.slow
def test_a_search_bot_wins_some_matches_of_a_long_game_against_generic_bots():
    """Coyote, three lives each: one round's loss moves the final result little, so among
    many candidates the most visited one often led by luck (an opening bid of 108 over the
    generic bot's 1); played, it lost all of 16 matches against three generic bots."""
    engine = engine_of(GAMES / "coyote.rules")
    wins = 0.0
    for i in range(12):
        seat = i % 4
        players = [GenericBot(engine, seat_rng(i, s)) for s in range(4)]
        players[seat] = SearchBot(engine, seat_rng(i, seat))
        record = play_match(engine, players, 4, i, keep_log=False, max_steps=20_000)
        if seat in record.state.winners:
            wins += 1 / len(record.state.winners)
    assert wins >= 1
