"""rulekit.tree and rulekit.encoding: any game as an explicit tree of chance nodes and
decisions of fixed ids, on every game file, variant and player count (docs/rl.md).

The properties: the ids of a decision are exactly the engine's legal actions (each legal
action one path of ids, each path a legal action); chance nodes have exact probabilities;
the same outcomes and ids give the same match; what a seat's information state and tensors
hold depends only on what that seat may know; a resampled node is one the seat cannot tell
from the true one, and play goes on from it; a match stops at ``max_decisions``."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import Action, Engine, RulesError, loads
from rulekit.engine import count_multisets
from rulekit.tensors import Layout
from rulekit.tree import CHANCE, TERMINAL, GameTree
from strategies import COMBOS, ROOT, Combo, engine_for, seeds

EXAMPLES = [Combo(str(ROOT / "docs" / "examples" / name), None, n)
            for name, n in (("kuhn_poker.rules", 2), ("coin_bluff.rules", 3))]
ALL = COMBOS + EXAMPLES
#: per combination, one tree (trees hold no match: nodes are values)
_TREES: dict = {}
#: a bound on the decisions of the random matches of these tests (Lügenbeutel's run long)
STEPS = 400


def tree_of(combo: Combo, max_decisions: int = 200_000) -> GameTree:
    key = (combo, max_decisions)
    if key not in _TREES:
        _TREES[key] = GameTree(engine_for(combo.path, combo.variant), combo.players, max_decisions)
    return _TREES[key]


def walk(tree: GameTree, rng: random.Random, steps: int = STEPS, node=None):
    """The nodes of a random match from ``node`` (default: the start; chance by its
    probabilities, uniformly random ids), at most ``steps`` of them."""
    node = tree.root() if node is None else node
    for _ in range(steps):
        yield node
        if tree.is_terminal(node):
            return
        if tree.player(node) == CHANCE:
            ids, probs = zip(*tree.chance_outcomes(node))
            node = tree.apply(node, rng.choices(ids, probs)[0])
        else:
            node = tree.apply(node, rng.choice(tree.legal(node)))


def paths(tree: GameTree, node, budget: int = 20_000, skip=frozenset()) -> dict:
    """Every way to complete the decision at ``node`` but by the first ids ``skip``:
    {action: its ids}."""
    out = {}
    todo = [(node, ())]
    while todo:
        at, ids = todo.pop()
        budget -= 1
        assert budget > 0, "too many paths"
        for i in tree.legal(at):
            if not ids and i in skip:
                continue
            child = tree.apply(at, i)
            if child.partial is None:
                action = _last_action(tree, at, i, child)
                assert action not in out, f"two paths make {action}"
                out[action] = ids + (i,)
            else:
                todo.append((child, ids + (i,)))
    return out


def _last_action(tree, at, i, child) -> Action:
    """The action a completed path made (the child's last step holds it)."""
    if child.pending is not None:
        return child.pending[0]
    return child.trace.action


@pytest.mark.parametrize("combo", ALL, ids=[c.id for c in ALL])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_the_ids_of_a_decision_are_its_legal_actions(combo, seed):
    """At decisions of random matches, the complete paths of ids are one to one with the
    engine's legal actions, each path is what ActionSpace.encode gives, and every id is
    below num_distinct_actions."""
    tree = tree_of(combo)
    engine = tree.engine
    rng = random.Random(seed)
    checked = 0
    for node in walk(tree, rng, 600):
        if tree.player(node) < 0 or node.partial is not None:
            continue
        state = node.state
        big = {o.name for o in engine.decision(state, False).options if o.cards is not None and
               count_multisets(o.cards, o.low, len(o.cards) if o.high is None else o.high) > 300}
        made = paths(tree, node, skip={tree.space.head(state.phase, name).base for name in big})
        made = {a: ids for a, ids in made.items() if a.name not in big}
        assert sorted(made) == sorted(a for a in engine.legal_actions(state) if a.name not in big)
        for action, ids in made.items():
            assert tree.space.encode(state.phase, action) == ids
            assert all(0 <= i < tree.space.size for i in ids)
        checked += 1
        if checked == 12:
            break
    assert checked > 0


@pytest.mark.parametrize("combo", ALL, ids=[c.id for c in ALL])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_chance_nodes_have_exact_probabilities(combo, seed):
    """Each chance node offers at least two outcomes, ids below max_chance_outcomes, with
    probabilities summing to 1; a game without chance has none."""
    tree = tree_of(combo)
    met = 0
    for node in walk(tree, random.Random(seed)):
        if tree.player(node) == CHANCE:
            outcomes = tree.chance_outcomes(node)
            assert len(outcomes) >= 2
            assert all(0 <= i < tree.max_chance_outcomes for i, _ in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert [i for i, _ in outcomes] == tree.legal(node)
            met += 1
    assert (met > 0) == tree.has_chance or not tree.has_chance


@pytest.mark.parametrize("combo", ALL, ids=[c.id for c in ALL])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_the_same_outcomes_and_ids_give_the_same_match(combo, seed):
    """Two walks of the same seed reach the same nodes (states, players, legal ids,
    information states), with or without the kept transitions."""
    first = list(walk(tree_of(combo), random.Random(seed), 120))
    fresh = GameTree(engine_for(combo.path, combo.variant), combo.players, cache_size=0)
    second = list(walk(fresh, random.Random(seed), 120))
    assert [n.state for n in first] == [n.state for n in second]
    for a, b in zip(first[::10], second[::10]):
        assert tree_of(combo).legal(a) == fresh.legal(b)
        for s in range(combo.players):
            assert tree_of(combo).information_state_string(a, s) == fresh.information_state_string(b, s)


def test_a_shuffle_is_dealt_from_the_top_with_its_probabilities():
    """Kuhn poker: the first chance node deals P1's card (J, Q, K, each 1/3), the second
    P2's among the two left (1/2 each); the third card is forced and is no node."""
    tree = tree_of(EXAMPLES[0])
    root = tree.root()
    assert [(i, pytest.approx(1 / 3)) for i in range(3)] == tree.chance_outcomes(root)
    second = tree.apply(root, 2)
    assert [(0, 0.5), (1, 0.5)] == tree.chance_outcomes(second)
    first = tree.apply(second, 0)
    assert tree.player(first) == 0
    engine = tree.engine
    assert ["K", "J"] == [engine.kind_label(first.state.zones[engine.zone_slot(first.state, "hand", s)][0])
                          for s in range(2)]


# ---------------------------------------------------------------------------- what a seat knows
def _chance_path(tree, rng, steps):
    """A random start of a match: the chance outcomes in order, and the ids of decisions."""
    out = []
    node = tree.root()
    for _ in range(steps):
        if tree.is_terminal(node):
            break
        if tree.player(node) == CHANCE:
            ids, probs = zip(*tree.chance_outcomes(node))
            a = rng.choices(ids, probs)[0]
        else:
            a = rng.choice(tree.legal(node))
        out.append((tree.player(node), a))
        node = tree.apply(node, a)
    return out


def _replay(tree, moves):
    """The nodes of a match played with ``moves`` ((player, id)), while each is legal."""
    node = tree.root()
    nodes = [node]
    for player, a in moves:
        if tree.is_terminal(node) or tree.player(node) != player or a not in tree.legal(node):
            break
        node = tree.apply(node, a)
        nodes.append(node)
    return nodes


def _perceived(tree, node, seat):
    """What ``seat`` perceived, read from the engine alone: the events as Engine.observe
    gives them, its own actions, its view and the action it is choosing."""
    events = [(e.kind, repr(sorted(e.data.items()))) for e in tree.perceived(node, seat)]
    steps = []
    step = node.trace
    while step is not None:
        if step.action is not None and step.seat == seat:
            steps.append(step.action)
        step = step.prev
    view = tree.engine.view(node.state, seat) if node.state is not None else None
    choosing = tree.decider_action(node) if tree.player(node) == seat else None
    return events, steps, view, choosing


@pytest.mark.parametrize("combo", ALL, ids=[c.id for c in ALL])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, data=st.data())
def test_information_states_depend_only_on_what_the_seat_knows(combo, seed, data):
    """Swap two chance outcomes of a match's start (the same actions after, while legal):
    for each seat, when what it perceived (events as Engine.observe gives them, its own
    actions, its view) is the same, its information-state and observation strings and
    tensors are the same; when its own view differs (other cards of its own), they differ."""
    tree = tree_of(combo)
    rng = random.Random(seed)
    moves = _chance_path(tree, rng, 60)
    chances = [i for i, (player, _) in enumerate(moves) if player == CHANCE]
    if len(chances) < 2:
        return
    i, j = sorted(data.draw(st.sampled_from([(a, b) for a in chances for b in chances if a < b][:400])))
    swapped = list(moves)
    swapped[i], swapped[j] = moves[j], moves[i]
    first, second = _replay(tree, moves), _replay(tree, swapped)
    layout = Layout(tree)
    for a, b in zip(first[1:], second[1:]):
        for seat in range(tree.n):
            pa, pb = _perceived(tree, a, seat), _perceived(tree, b, seat)
            texts = (tree.information_state_string(a, seat), tree.observation_string(a, seat))
            others = (tree.information_state_string(b, seat), tree.observation_string(b, seat))
            ta, tb = [0.0] * layout.information_size, [0.0] * layout.information_size
            layout.fill(ta, a, seat, True)
            layout.fill(tb, b, seat, True)
            if pa == pb:
                assert texts == others
                assert ta == tb
            elif pa[2] is not None and pb[2] is not None and pa[2].zones != pb[2].zones:
                assert texts[0] != others[0] and texts[1] != others[1]
                assert ta != tb


def test_a_later_voter_does_not_see_an_earlier_vote():
    """Votes are hidden sequential moves: the second voter's information state is the same
    whichever action the first chose (it shows only that the first has voted)."""
    engine = Engine(loads(VOTE))
    tree = GameTree(engine, 2)
    root = tree.root()
    assert tree.player(root) == 0
    after = {tree.space.text(i): tree.apply(root, i) for i in tree.legal(root)}
    assert set(after) == {"fist", "thumb"}
    assert all(tree.player(node) == 1 for node in after.values())
    texts = {tree.information_state_string(node, 1) for node in after.values()}
    assert len(texts) == 1 and "voted" in texts.pop()
    assert len({tree.information_state_string(node, 0) for node in after.values()}) == 2


VOTE = """\
game "Vote"
players 2
deck { card coin: count 2 }
zone purse: shared, seen by all, holds the deck
counter fists = 0
setup { go to show }
vote show: each of everyone {
  action fist "shows a fist" { add 1 to fists }
  action thumb "shows a thumb" { }
  then { end deal }
}
match { winners: highest fists }
"""


@pytest.mark.parametrize("combo", ALL, ids=[c.id for c in ALL])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_a_resampled_node_is_one_the_seat_cannot_tell_apart(combo, seed):
    """At decisions of random matches, a node resampled for the deciding seat gives that
    seat the same information-state string and legal ids, keeps its own cards, holds every
    card of the match, and a random match goes on from it to its end (or the bound)."""
    tree = tree_of(combo)
    engine = tree.engine
    rng = random.Random(seed)
    done = 0
    for node in walk(tree, rng, 200):
        if tree.player(node) < 0 or rng.random() < 0.8:
            continue
        seat = tree.player(node)
        other = tree.resample(node, seat, random.Random(seed + done))
        assert tree.information_state_string(other, seat) == tree.information_state_string(node, seat)
        assert tree.legal(other) == tree.legal(node)
        assert engine.view(other.state, seat).zones == engine.view(node.state, seat).zones
        cards = [Counter(k for z in n.state.zones for k in z if engine.kinds[k].die is None) for n in (node, other)]
        assert cards[0] == cards[1]
        later = list(walk(tree, rng, 40, other))[-1]
        for s in range(tree.n):
            tree.information_state_string(later, s)
        done += 1
        if done == 3:
            break


def test_resampling_hides_what_the_seat_cannot_see():
    """Liar's Dice: resampled for P1, P2's die takes every face over many draws while P1's
    stays; P2's information state starts from the public history, not its true die."""
    tree = tree_of(Combo(str(ROOT / "games" / "liars_dice.rules"), None, 2))
    node = tree.apply(tree.apply(tree.root(), 2), 4)          # P1 rolls 3, P2 rolls 5
    engine = tree.engine
    faces = set()
    for k in range(60):
        other = tree.resample(node, 0, random.Random(k))
        assert engine.kind_label(other.state.zones[engine.zone_slot(other.state, "cup", 0)][0]) == "3"
        faces.add(engine.kind_label(other.state.zones[engine.zone_slot(other.state, "cup", 1)][0]))
        assert '"5"' not in tree.information_state_string(other, 1).split("now")[0]
    assert faces == {"1", "2", "3", "4", "5", "6"}


def test_a_match_stops_after_max_decisions():
    """With max_decisions 5, a Lügenbeutel match stops after 5 decisions: terminal, every
    return 0, no legal id."""
    tree = tree_of(Combo(str(ROOT / "games" / "lugenbeutel.rules"), None, 3), max_decisions=5)
    node = list(walk(tree, random.Random(3), 1000))[-1]
    assert tree.is_terminal(node) and node.cut and node.decisions == 5
    assert tree.player(node) == TERMINAL
    assert tree.returns(node) == [0.0, 0.0, 0.0]
    assert tree.legal(node) == []


@pytest.mark.parametrize("name, players, expected", [
    ("games/liars_dice.rules", 2, (-1.0, 1.0, 0.0)),          # one seat remains: zero-sum
    ("docs/examples/kuhn_poker.rules", 2, (-2.0, 2.0, 0.0)),  # explored: the pot changes hands
    ("games/coup.rules", 3, (-1.0, 1.0, None)),               # one winner, two losers
    ("docs/examples/coin_bluff.rules", 2, (-1.0, 1.0, None)),  # ties share the win
])
def test_utilities_are_those_of_the_file(name, players, expected):
    """Lowest and highest return and the sum of returns (None: not always the same)."""
    assert expected == tree_of(Combo(str(ROOT / name), None, players)).utilities()


def test_an_unbounded_choice_is_a_located_error():
    """A choice whose range no analysis can bound (a counter's value at both ends) cannot
    be given ids: a RulesError at the range, with a hint."""
    engine = Engine(loads(UNBOUNDED, "unbounded.rules"))
    with pytest.raises(RulesError) as exc:
        GameTree(engine, 2)
    text = str(exc.value)
    assert text.startswith("unbounded.rules:9:17:")
    assert "the values of 'x' have no bound an adapter can find" in text and "hint:" in text


UNBOUNDED = """\
game "Unbounded"
players 2
deck { card coin: count 2 }
zone purse: shared, seen by all, holds the deck
counter score per player = 0
setup { go to play }
turn play {
  action pick "picks {x}" {
    choose x in score..score + 3
    add x to score
    end deal
  }
}
match { winners: highest score }
"""


def test_a_range_bounded_by_a_count_of_cards_is_bounded():
    """'choose q in 1..count of every cup' in Liar's Dice is given 1..2 for one die each:
    the bid ids are (q - 1) × 6 + (f - 1), liar 12, as OpenSpiel numbers them."""
    tree = tree_of(Combo(str(ROOT / "games" / "liars_dice.rules"), None, 2))
    assert tree.space.size == 13
    assert [tree.space.text(i) for i in (0, 5, 6, 11, 12)] == ["bid q=1 f=1", "bid q=1 f=6", "bid q=2 f=1",
                                                               "bid q=2 f=6", "liar"]


def test_a_view_has_a_hashable_information_state_key():
    """View.key() is hashable; two views of states that differ only in what the seat cannot
    see have the same key; the seat's own cards and its history change it."""
    import attrs
    combo = Combo(str(ROOT / "games" / "liars_dice.rules"), None, 2)
    tree = tree_of(combo)
    engine = tree.engine
    node = tree.apply(tree.apply(tree.root(), 2), 4)          # P1 rolls 3, P2 rolls 5
    other = tree.apply(tree.apply(tree.root(), 2), 0)         # P1 rolls 3, P2 rolls 1
    mine = tree.apply(tree.apply(tree.root(), 1), 4)          # P1 rolls 2
    keys = [engine.view(n.state, 0, tree.perceived(n, 0)).key() for n in (node, other, mine)]
    assert len({hash(k) for k in keys}) >= 2
    assert keys[0] == keys[1] and keys[0] != keys[2]
    view = engine.view(node.state, 0, tree.perceived(node, 0))
    assert attrs.evolve(view, history=view.history[:-1]).key() != view.key()
