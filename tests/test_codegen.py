"""The generated code (``rulekit/engine/codegen.py``) holds to itself and to the rules.

The engine runs one module generated per game, variant and player count: an action's legal
choices are listed by its ``enum_`` function, judged by its ``check_`` function, offered by
its ``option_`` function and done by its ``body_`` function. There is no second
implementation to compare them with (the interpreter they were once compared against is
gone); the scenario, conformance and OpenSpiel tests hold them to the rules, and this file
holds them to each other and to references written here:

* every game file (``games/*.rules``, and the ``docs/examples/*.rules`` that load), every
  variant and player count: seeded random matches, fast-forwarded a random number of
  decisions, then checked at every state (:func:`check_state`): the views of every seat
  against a reference view written here; the listing of legal actions, in both orders and
  with a limit, against every candidate the options allow judged by ``why_illegal`` (the
  order :meth:`Engine.legal_actions` documents, built here from the options); an option is
  offered exactly when one of its choices is legal; many illegal candidates each get a
  reason, and ``apply`` raises that reason; the standing claim judged two ways; the options
  with and without texts alike; ``apply`` deterministic and equal to ``apply_in_place`` on a
  working copy;
* the small games that ``test_constructs.py`` and ``test_constructs_more.py`` write inline
  (collected from their source with ``ast``), and the games of this file that exercise the
  constructs the shipped games leave out;
* ``rulekit compile`` (and ``--emit``, ``--players``, a broken file);
* the generated module holds no text of the rules file outside string literals;
* the checks notice a changed enumerator, check, option or view.

A failure names the game, the seat count, the seed, the decisions skipped and the step:
``play_and_check(engine, name, players, seed, skip)`` replays it.
"""

from __future__ import annotations

import ast
import functools
import io
import itertools
import random
import re
import tokenize
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import Action, Engine, IllegalAction, RulesError, load, loads
from rulekit.cli import main
from rulekit.engine import DECLINE_ACTION, codegen
from rulekit.engine.core import multisets
from rulekit.players.base import random_concrete

from strategies import ROOT, enumeration_size, game_paths, load_game, seeds

EXAMPLES_DIR = ROOT / "docs" / "examples"
TESTS_DIR = ROOT / "tests"

# Example counts of the default run; ``-m slow`` runs more of the same.
FAST = settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

FULL_LISTING = 5_000         # candidate choices up to which listings are checked against every candidate
LISTING_LIMIT = 150
LISTING_BUDGET = 20_000      # beyond, the listings (with a budget) are only checked to be legal
JUDGED_LEGAL = 25            # legal actions passed to why_illegal per state, at most


@functools.lru_cache(maxsize=None)
def engine_of_file(path: str, variant: str | None) -> Engine:
    return Engine(load_game(path, variant))


@functools.lru_cache(maxsize=None)
def engine_of_text(text: str) -> Engine:
    return Engine(loads(text))


def outcome(fn: Callable, *args, **kwargs) -> tuple:
    """``("ok", result)``, or ``("raise", exception type, message)``."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - what was raised is compared
        return ("raise", type(exc).__name__, str(exc))


# ---------------------------------------------------------------------------- references
def reference_view_parts(engine: Engine, state, seat: int) -> tuple[tuple, tuple]:
    """The zones and counters of ``View`` for ``seat`` as the interpreter computed them before
    the generated ``view_zones``/``view_counters``: a zone's cards for whoever may see them,
    its size unless nobody may; a counter's value by who sees it."""
    cg = engine.cg
    zones = []
    for slot, cards in enumerate(state.zones):
        zi, owner = cg.zone_owner(slot, state.n)
        decl = cg.zones[zi]
        visible = decl.seen == "all" or (decl.seen == "owner" and owner == seat) or \
            (decl.seen == "others" and 0 <= owner != seat)
        zones.append((decl.name, None if owner < 0 else owner, None if decl.seen == "nobody" else len(cards),
                      tuple(sorted(cards)) if visible else None))
    counters = []
    for ci, decl in enumerate(engine.game.counters):
        base = cg.counter_base(state.n)[ci]
        if decl.per_player:
            values = tuple(state.counters[base + s] for s in range(state.n))
            if decl.seen != "all":
                values = tuple(v if decl.seen == "owner" and s == seat else None for s, v in enumerate(values))
        else:
            values = state.counters[base] if decl.seen == "all" else None
        counters.append((decl.name, values))
    return tuple(zones), tuple(counters)


def candidates_of(option, largest_first: bool = False):
    """Every concrete choice an option allows, in the order :meth:`Engine.legal_actions`
    documents: by number of cards, fewest first (``largest_first``: most first, and each
    value from its highest), then the values in the order of their choices."""
    card_choices = [()]
    if option.cards is not None:
        high = len(option.cards) if option.high is None else option.high
        card_choices = multisets(option.cards, option.low, high, largest_first)
    domains = [tuple(reversed(v)) if largest_first else v for _, v in option.params]
    for cards in card_choices:
        for values in itertools.product(*domains):
            yield Action(option.name, cards, tuple(values))


def reference_listing(engine: Engine, state, decision, largest_first: bool = False) -> list[Action]:
    """The legal actions of ``state`` by brute force: every candidate of every option that
    ``why_illegal`` passes, then 'decline' where it is offered."""
    out = []
    for option in decision.options:
        if option.name == "decline":
            continue
        out.extend(a for a in candidates_of(option, largest_first) if engine.why_illegal(state, a) is None)
    if any(o.name == "decline" for o in decision.options):
        out.append(DECLINE_ACTION)
    return out


# ---------------------------------------------------------------------------- candidates
def nudged(value, pick: random.Random) -> list:
    """Values near a chosen one: one off, a seat group reordered or with a seat twice."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        return []
    if isinstance(value, int):
        return [value - 1, value + 1]
    return [tuple(reversed(value)), (value[0],) * len(value), value[:-1]] if value else []


def candidates(engine: Engine, decision, legal: list, pick: random.Random) -> list[Action]:
    """Actions to judge besides the legal ones: mostly illegal, built as test_conformance builds
    them (an unknown name, cards not there, bad values, a value too many or missing, cards
    for an action that takes none, decline where it is not offered) plus random choices of
    each option and legal actions nudged by one card or one value (the choices a ``require``
    tells apart)."""
    kinds = len(engine.kinds)
    out = [Action("no_such_action_zz"), Action("no_such_action_zz", (0,), (1,)),
           DECLINE_ACTION, Action("decline", (), (1,)), Action("decline", (0,))]
    for o in decision.options:
        if o.name == "decline":
            continue
        first = tuple(values[0] for _, values in o.params)
        some_cards = tuple(o.cards[:o.low]) if o.cards is not None else ()
        out.extend(random_concrete(o, pick) for _ in range(4))
        if o.cards is not None:
            kind = pick.randrange(kinds)
            out.append(Action(o.name, tuple(sorted((kind,) * (o.cards.count(kind) + 1))), first))
            out.append(Action(o.name, (kinds,), first))
            out.append(Action(o.name, (), first))
            out.append(Action(o.name, tuple(o.cards), first))
        else:
            out.append(Action(o.name, (pick.randrange(kinds),), first))
        if o.params:
            i = pick.randrange(len(o.params))
            for bad in (10**6, -7, 0, "zz", (97, 98), None, True, 1.0):
                values = list(first)
                values[i] = bad
                out.append(Action(o.name, some_cards, tuple(values)))
            out.append(Action(o.name, some_cards, first[:-1]))
            out.append(Action(o.name, some_cards, tuple(reversed(first))))
        out.append(Action(o.name, some_cards, first + (1,)))
    for a in pick.sample(legal, min(4, len(legal))):
        if a.name == "decline":
            continue
        for i, value in enumerate(a.params):
            for other in nudged(value, pick):
                out.append(Action(a.name, a.cards, a.params[:i] + (other,) + a.params[i + 1:]))
        if a.cards:
            out.append(Action(a.name, a.cards[:-1], a.params))
            out.append(Action(a.name, tuple(sorted(a.cards + (pick.randrange(kinds),))), a.params))
            out.append(Action(a.name, a.cards[1:] + a.cards[:1], a.params))      # not sorted
        out.append(Action(a.name, a.cards, a.params + (0,)))
    return out


# ---------------------------------------------------------------------------- one state
def check_claims(engine: Engine, state, where: str) -> None:
    """The standing claim judged by the module's ``holds`` and by its claim truths alike."""
    if state.claim is None:
        return
    index, values, claimant = state.claim[:3]
    name = engine.cg.claim_list[index].name
    holds = outcome(engine.claim_holds_in, state)
    would = outcome(lambda: engine.claims_would_hold(state, [(name, values, claimant)])[0])
    assert holds == would, f"{where}: the standing claim holds {holds}, its truth says {would}"
    outcome(engine.claim_rank, state)


def check_listings(engine: Engine, state, decision, where: str) -> tuple[list, bool]:
    """The listings in both orders and with a limit against the brute-force listing (when the
    options allow at most FULL_LISTING candidates), and an option offered exactly when one of
    its choices is legal; the legal actions found, and whether that list is whole."""
    size = enumeration_size(decision)
    if size > FULL_LISTING:
        legal = engine.legal_actions(state, LISTING_LIMIT, True, LISTING_BUDGET)
        legal += engine.legal_actions(state, LISTING_LIMIT, False, LISTING_BUDGET)
        for action in legal:
            assert engine.why_illegal(state, action) is None, f"{where}: listed {action} is illegal"
        return legal, False
    listed = outcome(engine.legal_actions, state)
    if listed[0] == "raise":
        return [], False
    legal = listed[1]
    assert legal == reference_listing(engine, state, decision), f"{where}: the listing differs from the candidates"
    assert engine.legal_actions(state, largest_first=True) == reference_listing(engine, state, decision, True), \
        f"{where}: the listing largest first differs from the candidates"
    assert engine.legal_actions(state, 3) == legal[:3], where
    assert engine.legal_actions(state, 3, True) == engine.legal_actions(state, largest_first=True)[:3], where
    offered = [o.name for o in decision.options]
    assert offered == list(dict.fromkeys(a.name for a in legal)), \
        f"{where}: offered {offered}, legal choices of {sorted({a.name for a in legal})}"
    return legal, True


def check_state(engine: Engine, state, pick: random.Random, where: str, applies: int = 2):
    """Check every answer of the engine about ``state`` (see the module docstring); return the
    next state (after a random legal action) or None when the match cannot go on."""
    for seat in range(state.n):
        view = outcome(engine.view, state, seat)
        if view[0] == "ok":
            assert (view[1].zones, view[1].counters) == reference_view_parts(engine, state, seat), \
                f"{where}: the view of seat {seat} differs from the reference view"
    check_claims(engine, state, where)
    if state.is_terminal:
        outcome(engine.returns, state)
        assert engine.legal_actions(state) == []
        assert engine.decision(state) is None
        return None
    d = outcome(engine.decision, state)
    if d[0] == "raise":
        return None
    decision = d[1]
    plain = engine.decision(state, False)
    assert [(o.name, o.cards, o.low, o.high, o.params, o.exact) for o in plain.options] == \
        [(o.name, o.cards, o.low, o.high, o.params, o.exact) for o in decision.options], \
        f"{where}: the options without texts differ from those with texts"
    assert all(len(o.shown) == len(o.params) for o in decision.options), where

    legal, complete = check_listings(engine, state, decision, where)
    judged = legal if len(legal) <= JUDGED_LEGAL else pick.sample(legal, JUDGED_LEGAL)
    for action in judged:
        assert engine.why_illegal(state, action) is None, f"{where}: listed {action} is illegal"
        assert engine.is_legal(state, action), f"{where}: listed {action} is not is_legal"
    others = candidates(engine, decision, legal, pick)
    listed_set = set(legal)
    for action in others:
        verdict = outcome(engine.why_illegal, state, action)
        if verdict[0] != "ok":
            continue
        assert verdict[1] is None or isinstance(verdict[1], str) and verdict[1], f"{where}: {action}: {verdict}"
        if verdict[1] is None and complete:
            assert Action(action.name, tuple(sorted(action.cards)), action.params) in listed_set, \
                f"{where}: legal {action} is not listed"

    action = pick.choice(legal) if legal else None
    if action is None:
        return None
    k = pick.randrange(2**32)
    after = outcome(engine.apply, state, action, random.Random(k))
    assert after == outcome(engine.apply, state, action, random.Random(k)), f"{where}: apply is not deterministic"
    if after[0] == "ok":
        live = engine.working_copy(state)
        engine.apply_in_place(live, action, random.Random(k))
        assert engine.snapshot(live) == engine.apply(state, action, random.Random(k), events=False)[0], \
            f"{where}: apply_in_place differs from apply"
    for extra in pick.sample(legal, min(applies, len(legal))):
        outcome(engine.apply, state, extra, random.Random(k))
    extra = pick.choice(others)
    result = outcome(engine.apply, state, extra, random.Random(k))
    verdict = outcome(engine.why_illegal, state, extra)
    if verdict[0] == "ok" and verdict[1] is not None:
        assert result == ("raise", IllegalAction.__name__, verdict[1]), f"{where}: {extra} applied: {result}"
    if after[0] == "raise":
        return None
    return after[1][0]


def quick_action(engine: Engine, state, rng: random.Random):
    """A random legal action, for fast-forwarding."""
    decision = engine.decision(state)
    options = list(decision.options)
    for _ in range(100 if options else 0):
        trial = random_concrete(rng.choice(options), rng)
        if engine.why_illegal(state, trial) is None:
            return trial
    listed = engine.legal_actions(state, 50) or engine.legal_actions(state, 50, True)
    return rng.choice(listed) if listed else None


def play_and_check(engine: Engine, name: str, players: int, seed: int, skip: int = 0, steps: int = 30,
                   applies: int = 2):
    """A match of ``players`` seats from ``seed``: ``skip`` decisions played fast, then
    ``steps`` decisions checked state by state."""
    where = f"{name} {players}p seed={seed} skip={skip}"
    rng = random.Random(seed)
    start = outcome(engine.new_match, players, random.Random(seed))
    if start[0] == "raise":
        return
    assert start == outcome(engine.new_match, players, random.Random(seed)), f"{where}: new_match is not deterministic"
    state, _ = engine.new_match(players, rng)
    for _ in range(skip):
        if state.is_terminal:
            break
        try:
            action = quick_action(engine, state, rng)
            if action is None:
                break
            state, _ = engine.apply(state, action, rng)
        except Exception:  # noqa: BLE001 - a match that stops: check from where it stopped
            break
    pick = random.Random(seed ^ 0x5EED)
    for i in range(steps):
        state = check_state(engine, state, pick, f"{where} step={i}", applies)
        if state is None:
            return


# ---------------------------------------------------------------------------- 1. the game files
def loadable_examples() -> list[Path]:
    """The docs/examples files that load (an example may show a fragment or an error)."""
    out = []
    for path in sorted(EXAMPLES_DIR.glob("*.rules")):
        try:
            load(str(path))
        except RulesError:
            continue
        out.append(path)
    return out


def file_combos() -> list[tuple[str, str | None, int]]:
    out = []
    for path in game_paths() + loadable_examples():
        variants = [None] + [name for name, _ in load_game(str(path)).variants]
        for variant in variants:
            low, high = load_game(str(path), variant).players
            out.extend((str(path), variant, n) for n in range(low, high + 1))
    return out


FILE_COMBOS = file_combos()
FILE_IDS = [f"{Path(p).stem}[{v or 'base'}]-{n}p" for p, v, n in FILE_COMBOS]


def test_every_game_file_and_example_is_covered():
    """The combinations include every game file and at least one example of the docs."""
    files = {Path(p).name for p, _, _ in FILE_COMBOS}
    assert {p.name for p in game_paths()} <= files
    assert any((EXAMPLES_DIR / f).exists() for f in files)


@pytest.mark.parametrize("path, variant, players", FILE_COMBOS, ids=FILE_IDS)
@FAST
@given(seed=seeds, skip=st.integers(0, 60))
def test_generated_engine_holds_on_game_files(path, variant, players, seed, skip):
    """Random matches of every game file, variant and player count: views, listings, options,
    verdicts and transitions hold at every state checked."""
    play_and_check(engine_of_file(path, variant), f"{Path(path).name}[{variant or 'base'}]", players, seed, skip,
                   steps=16)


@pytest.mark.slow
@pytest.mark.parametrize("path, variant, players", FILE_COMBOS, ids=FILE_IDS)
@SLOW
@given(seed=seeds, skip=st.integers(0, 400))
def test_generated_engine_holds_on_game_files_slow(path, variant, players, seed, skip):
    """(slow) The same, with more matches and longer stretches checked."""
    play_and_check(engine_of_file(path, variant), f"{Path(path).name}[{variant or 'base'}]", players, seed, skip,
                   steps=60)


@pytest.mark.parametrize("path", sorted({p for p, _, _ in FILE_COMBOS}), ids=lambda p: Path(p).stem)
def test_whole_matches_hold(path):
    """One whole match (up to 150 decisions) per game file, checked from the set-up on, at the
    player count the CLI defaults to: the end of deals and of the match included."""
    engine = engine_of_file(path, None)
    low, high = engine.game.players
    play_and_check(engine, Path(path).name, min(max(4, low), high), seed=2024, steps=150, applies=0)


# ---------------------------------------------------------------------------- 2. the language constructs
#: placeholders of the templates of test_constructs*.py, and what to put in them
FILL = {
    "CHOICES": [{"GUARD": g} for g in ("p != P2", "score of p = 0", "count of mat of p = 0", "p in team",
                                       "left of p = P1")],
    "DEPENDENT_SEAT": [{"RANGE": "(if p = P2 then 2 else 1)"}, {"RANGE": "count of mat of p"}],
    "BIDS": [{"CLAIM": "KEYED", "QMAX": "6", "FMAX": "6"}, {"CLAIM": "TABLE", "QMAX": "3", "FMAX": "3"},
             {"CLAIM": "PERUDO", "QMAX": "8", "FMAX": "6"},
             {"CLAIM": 'claim bid(q, f) "{q} × {f}" ordered by q, f: true when true', "QMAX": "5", "FMAX": "4"}],
    "BLIND": [{"COUNT": "1"}, {"COUNT": "2"}],
    "RESULTS": [{"RETURNS": "returns: chips - 10"}, {"RETURNS": ""}],
    "KNOCKOUT": [{}, {"1 seat remains": "2 seats remain"}],
    "ASK_IN_EACH": [{"ROOT": "doubts", "CLOSE": "end deal"}, {"ROOT": "opening", "CLOSE": 'log "closed"'}],
    "ASK_IN_CALLED": [{"ROOT": "opening", "AFTER": "end deal"}, {"ROOT": "doubts", "AFTER": ""}],
}


def test_no_game_of_the_construct_tests_hides_another():
    """Each module-level name of test_constructs*.py is assigned once: a second game text under
    the same name would silently replace the first, for its own tests and for this file's."""
    import collections
    for file in ("test_constructs.py", "test_constructs_more.py"):
        tree = ast.parse((TESTS_DIR / file).read_text(encoding="utf-8"))
        names = collections.Counter(target.id for node in tree.body if isinstance(node, ast.Assign)
                                    for target in node.targets if isinstance(target, ast.Name))
        assert [n for n, k in names.items() if k > 1] == [], file


def construct_games() -> list[tuple[str, str]]:
    """(name, rules text) of every game the construct tests write: module constants (the
    templates filled in as those tests fill them) and the texts inside test functions that
    start with ``game "``; only those that load are kept."""
    found: dict[str, str] = {}
    for file in ("test_constructs.py", "test_constructs_more.py"):
        tree = ast.parse((TESTS_DIR / file).read_text(encoding="utf-8"))
        constants = {node.targets[0].id: node.value.value for node in tree.body
                     if isinstance(node, ast.Assign) and len(node.targets) == 1
                     and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Constant)
                     and isinstance(node.value.value, str)}
        for name, template in constants.items():
            for i, fill in enumerate(FILL.get(name, [{}])):
                text = template
                for old, new in fill.items():
                    text = text.replace(old, constants.get(new, new))
                found[f"{file[5:-3]}.{name}{f'#{i}' if name in FILL else ''}"] = text
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lstrip().startswith('game "') and node.value not in constants.values():
                found[f"{file[5:-3]}.line{node.lineno}"] = node.value
    out = []
    for name, text in sorted(found.items()):
        try:
            loads(text)
        except RulesError:
            continue            # a fragment (PROCEDURES), a template left unfilled, an error case
        out.append((name, text))
    return out


# Small games for what the shipped games and the construct tests use little or not at all:
# cards and a value beating an 'ordered by' claim, division and 'mod' in requires, a window
# with decline and a forced action in it, 'left of actor' and 'right of actor', P3 in a game
# of 3..5, a group choice in a turn and in a vote, a claim 'ordered as' a symbol table,
# dependent ranges (one reading a seat), a choice of cards after a value, 'seen by nobody'.
OFFERS = """\
game "Offers"
players 2..4
deck {
  card number: value 1..4, count 4
  card joker: count 2, wild
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone table: shared, count only
zone pen: per player, seen by all
zone box: shared, seen by nobody
counter chips per player = 2
counter turns = 0, seen by nobody
seat opener = random
claim offer(k, v) "{k} × {v}" ordered by k, v: true when every card in claimed cards is (wild or value = v)
setup {
  shuffle stock
  deal 4 from stock to each hand
  set current = opener
  go to give
}
turn give {
  action offer "offers {count of chosen} as {v}" {
    choose 1..3 from your hand
    choose v in 1..4
    require offer(count of chosen, v) beats claim "the offer must be higher"
    require v >= (count of chosen + 1) / 2 "too many cards for so low a value"
    require (count of your hand - count of chosen) mod 3 != 2 or v != 2 "no 2 leaving two cards"
    lay chosen on table
    claim offer(count of chosen, v)
    add 1 to turns
    set current = left of actor
    go to doubt
  }
  action fold "folds to {right of actor}" {
    require not no claim "nothing to fold to"
    require chips > 0 "no chip left"
    subtract 1 from chips
    move table to hand of right of actor
    clear claim
    go to give
  }
  action bury "buries {count of chosen}" {
    require count of stock > 0 and 12 / count of stock < 4 "too late to bury"
    choose 1 from your hand
    move chosen to box
    draw 1 from stock to your hand
    set current = left of actor
    go to give
  }
  action stop "stops" {
    require chips = 0 or count of your hand < 2 or count of stock = 0
    end deal
  }
}
window doubt: first of everyone after claimant {
  action doubt "doubts" forced when chips = 0 and count of your hand > 5 {
    reveal claimed cards
    if claim holds {
      move table to your pen
      set current = claimant
    } else {
      move table to pen of claimant
      set current = actor
    }
    clear claim
    draw 1 from stock to hand of claimant
    go to give
  }
  action raise "raises the stakes" {
    require chips > 1 and chips of claimant > 0
    subtract 1 from chips of claimant
    go to give
  }
  otherwise { go to give }
}
match { winners: lowest count of your pen }
"""

COURT = """\
game "Court"
players 3..5
symbols role: duke < captain < contessa
deck { card role: each role, count 4 }
zone court: shared, count only, holds the deck
zone hand: per player, seen by owner
zone lost: per player, seen by all
counter coins per player = 1
counter marks per player = 0, seen by owner
counter grudge per player = 0, seen by nobody
group suspects
seat target
claim role(c: role) "the {c}" ordered as duke < captain < contessa: true when some card in hand of claimant is c
setup {
  shuffle court
  deal 2 from court to each hand
  set current = P3
  go to act
}
turn act {
  action income "takes income" {
    add 1 to coins
    go to react
  }
  action coup "coups {t}" forced when coins >= 5 {
    require coins >= 3 "a coup costs 3"
    choose t in seats in others
    require count of hand of t > 0 "nothing to lose"
    subtract 3 from coins
    move top 1 of hand of t to lost of t
    if count of hand of t = 0 { knock out t }
    go to react
  }
  action steal "steals {k} from {t}" {
    choose t in seats in everyone except actor
    choose k in 1..max(1, min(2, coins of t))
    require t != left of actor or k = 1 "only one from the left"
    require coins of t >= k "not that many"
    subtract k from coins of t
    add k to coins
    add 1 to grudge of t
    set target = t
    go to react
  }
  action name "names the {c}" {
    choose c in role
    require role(c) beats claim "name a higher role"
    require c != captain or actor = P3 "only P3 names the captain"
    require c != duke or right of actor != P1 "the duke is not named left of P1"
    claim role(c)
    go to react
  }
  action accuse "accuses {g}" {
    require players > 3 or coins > 1
    choose g in 2 of others
    require P3 in g or actor = P3 or target in g "P3 or the target must be involved"
    for each p in g { add 1 to marks of p }
    let suspects be g
    go to poll
  }
}
window react: each of others {
  action grumble "grumbles" forced when coins >= 3 { subtract 1 from coins }
  action cheer "cheers" {
    require coins < 2 and not current is out
    add 1 to coins of current
  }
  then {
    set current = left of current
    go to act
  }
}
vote poll: each of everyone {
  action pick "picks {g}" {
    choose g in 2 of everyone
    require not actor in g "not yourself"
    for each p in g { add 1 to marks of p }
  }
  action abstain "abstains" {
    require actor in suspects
    add 1 to coins
  }
  then {
    set current = left of current
    go to act
  }
}
match { ends when 1 seat remains }
"""

STEPS = """\
game "Steps"
players 2
deck { card number: value 1..3, count 3 }
zone stock: shared, holds the deck
zone hand: per player, seen by all
counter score per player = 0
counter rounds = 0
setup {
  deal 3 from stock to each hand
  go to play
}
turn play {
  action pick "picks {a}, {b}, {c}" {
    choose a in 1..count of your hand + 1
    choose b in 0..a / 2
    require (a + b) mod 3 != 1 "a bad sum"
    choose c in b..(a + 1) / 2 rounded up
    require c * 2 >= a or b = 0 "c too small"
    require score + a + b + c <= 40 / (rounds mod 3 + 1) "too much at once"
    add a + b + c to score
    do next
  }
  action swap "swaps {count of chosen} for {v}" {
    choose v in 1..2
    choose 1..2 from your hand
    require count of chosen = v or v = 2 "as many as said"
    require some card in chosen is (value >= v) "too small"
    move chosen to stock
    draw v from stock to your hand
    do next
  }
  action give "gives {k} to {p}" {
    choose p in seats in others
    choose k in 0..count of hand of p
    require k <= count of your hand "not that many"
    repeat k times { move top 1 of your hand to hand of p }
    do next
  }
}
procedure next {
  add 1 to rounds
  if rounds >= 14 { end deal }
  set current = left of current
  go to play
}
"""

RECURSION = """\
game "Recursion"
players 2..3
deck { card number: value 1..4, count 3 }
zone stock: shared, count only, holds the deck
zone pile: per player, seen by all
counter score per player = 0
counter rounds = 0
setup {
  shuffle stock
  set current = P1
  do take(2)
  go to play
}
turn play {
  action draw "draws {k}" {
    choose k in 1..3
    do take(k)
    do next
  }
  action chase "chases {k}" {
    choose k in 1..6
    do chase(k)
    do next
  }
}
window answer: first of others {
  action grab "grabs" {
    require count of stock > 0 "nothing to grab"
    do take(1)
    do next
  }
  then { do next }
}
procedure take(k) {
  if k > 0 and count of stock > 0 {
    move top 1 of stock to your pile
    add 1 to score
    do take(k - 1)
  }
}
procedure chase(k) {
  if k > 0 { add 1 to rounds  do chase(k - 1) }
  if k = 3 and count of stock > 0 { go to answer }
  add 1 to score
}
procedure next {
  add 1 to rounds
  if rounds >= 30 or count of stock = 0 { end deal }
  set current = left of current
  go to play
}
"""

VOTE_OUT = """\
game "Vote out"
players 3..5
deck { card coin: count 10 }
zone stock: shared, count only, holds the deck
zone purse: per player, seen by all
counter rounds = 0
setup {
  shuffle stock
  set current = P1
  go to play
}
turn play {
  action take "takes a coin" {
    require count of stock > 0 "the stock is empty"
    move top 1 of stock to your purse
    add 1 to rounds
  }
  action call "calls a vote" {
    require rounds >= 2 "not yet"
    set rounds = 0
    go to judge
  }
  then {
    set current = left of current
    go to play
  }
}
vote judge: each of everyone {
  action banish "banishes {p}" {
    choose p in seats in others
    knock out p
    add 1 to rounds
  }
  action spare "spares" { add 2 to rounds }
  then {
    set current = left of current
    go to play
  }
}
match { ends when 1 seat remains }
"""

ASKS_AROUND = """\
game "Asks around"
players 3..4
deck { card coin: count 8 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
counter score per player = 0
counter rounds = 0
setup {
  deal 1 from stock to each hand
  ask react then {
    add 1 to rounds
    go to play from P1
  }
}
turn play {
  action pass "passes" {
    add 1 to rounds
    if rounds > 14 { end deal }
  }
  action bet "bets" {
    require score < 3 "enough"
    add 1 to score
  }
  then {
    if rounds mod 3 = 0 { ask react then { add 1 to rounds  go to play } }
    if rounds mod 5 = 1 { ask judge then { add 2 to rounds  set current = left of current  go to play } }
    set current = left of current
    go to play
  }
}
window react: first of others {
  action nod "nods" {
    require score > 0 "nothing to nod with"
    subtract 1 from score
    go to play
  }
  then { add 1 to score of current }
}
vote judge: each of everyone {
  action fine "fines {p}" {
    choose p in seats in others
    add 1 to score of p
  }
  action pass "passes" { add 1 to rounds }
  then { add 1 to score of current }
}
match { deals until rounds > 40 }
"""

INLINE_GAMES = {"OFFERS": OFFERS, "COURT": COURT, "STEPS": STEPS, "RECURSION": RECURSION, "VOTE_OUT": VOTE_OUT,
                "ASKS_AROUND": ASKS_AROUND}


def construct_combos() -> list[tuple[str, str, int]]:
    out = []
    for name, text in construct_games() + sorted(INLINE_GAMES.items()):
        low, high = loads(text).players
        out.extend((name, text, n) for n in range(low, min(high, low + 2) + 1))
    return out


CONSTRUCT_COMBOS = construct_combos()


def test_the_construct_games_are_found():
    """Enough of the inline games of the construct tests load (templates filled in), and ours."""
    names = {name for name, _, _ in CONSTRUCT_COMBOS}
    assert len({n for n in names if n.startswith("constructs")}) >= 25, sorted(names)
    assert {"constructs.CHOICES#0", "constructs_more.FORCED", "constructs_more.SWAP",
            "constructs_more.BIDS#2", "constructs_more.SINGLE"} <= names
    assert set(INLINE_GAMES) <= names


@pytest.mark.parametrize("name, text, players", CONSTRUCT_COMBOS,
                         ids=[f"{name}-{n}p" for name, _, n in CONSTRUCT_COMBOS])
@settings(FAST, max_examples=6)
@given(seed=seeds, skip=st.integers(0, 6))
def test_generated_engine_holds_on_constructs(name, text, players, seed, skip):
    """The same checks on the small games of the construct tests and of this file (many of
    which stop after a few decisions: a bid that cannot be raised, the end of the deal)."""
    play_and_check(engine_of_text(text), name, players, seed, skip, steps=30)


@pytest.mark.parametrize("name", sorted(INLINE_GAMES))
def test_inline_games_play_their_constructs(name):
    """Our games are not dead: over a few whole matches, every action of every phase is
    taken at least once (the comparison then reaches each construct)."""
    engine = engine_of_text(INLINE_GAMES[name])
    low, high = engine.game.players
    taken = set()
    for seed in range(12):
        rng = random.Random(seed)
        state, _ = engine.new_match(low + seed % (high - low + 1), rng)
        for _ in range(120):
            if state.is_terminal:
                break
            action = quick_action(engine, state, rng)
            if action is None:
                break
            taken.add(action.name)
            state, _ = engine.apply(state, action, rng)
    every = {a.name for p in engine.game.phases for a in p.actions}
    assert every <= taken, every - taken


# ---------------------------------------------------------------------------- 3. rulekit compile
DTC = ROOT / "games" / "dtc.rules"


def test_cli_compile_reports_what_it_generated():
    result = CliRunner().invoke(main, ["compile", str(DTC)])
    assert 0 == result.exit_code, result.output
    assert result.stdout.startswith(f"{DTC}: compiled for 4 players")
    assert "actions in 2 phases, each a step of generated code" in result.stdout


def test_cli_compile_emit_prints_a_module_that_compiles():
    result = CliRunner().invoke(main, ["compile", "--emit", str(DTC)])
    assert 0 == result.exit_code, result.output
    source = result.stdout
    compile(source, "dtc_generated.py", "exec")
    assert "def step_" in source and "def legal_" in source and "def enum_" in source
    assert "for 4 players" in source.splitlines()[0]
    assert source == Engine(load(str(DTC))).program(4).source


@pytest.mark.parametrize("players", [2, 6])
def test_cli_compile_honours_players(players):
    result = CliRunner().invoke(main, ["compile", "--emit", "--players", str(players), str(DTC)])
    assert 0 == result.exit_code, result.output
    assert f"for {players} players" in result.stdout.splitlines()[0]
    short = CliRunner().invoke(main, ["compile", "-n", str(players), str(DTC)])
    assert short.stdout.startswith(f"{DTC}: compiled for {players} players")


def test_cli_compile_refuses_a_player_count_outside_the_range():
    result = CliRunner().invoke(main, ["compile", "--players", "7", str(DTC)])
    assert 2 == result.exit_code
    assert "DTC is for 2 to 6 players, not 7" in result.output


def test_cli_compile_of_a_broken_file_is_a_located_error(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(DTC.read_text(encoding="utf-8").replace("choose v in 1..6", "choose v in 1..six"),
                      encoding="utf-8")
    line = next(i for i, text in enumerate(broken.read_text().splitlines(), 1) if "1..six" in text)
    result = CliRunner().invoke(main, ["compile", "--emit", str(broken)])
    assert 2 == result.exit_code
    assert result.stdout == ""
    assert result.stderr.startswith(f"{broken}:{line}:"), result.stderr
    assert "error: unknown name 'six'" in result.stderr.splitlines()[0]
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------------- 3b. the source map
def test_the_source_map_follows_statements_blocks_and_functions():
    text = "\n".join([
        "def body_0_0(ctx):",
        "    # the effects of 'x' in 'p' (line 20)",
        "    a()",
        "    if b():  # line 21",
        "        c()  # line 22",
        "        d(",
        "            e)",
        "    else:",
        "        f()  # line 24",
        "    g()  # line 25",
        "    return True",
        "",
        "def setup(ctx):",
        "    # the setup of every deal",
        "    h()",
        "LABELS = ()"])
    assert codegen.rules_lines(text) == (0, 20, 20, 21, 22, 22, 22, 21, 24, 25, 25, 25, 0, 0, 0, 0)


def test_every_statement_of_every_game_is_mapped_to_its_rules_line():
    """In every generated module, a line tagged ``# line N`` maps to N, every line maps to a
    line of the file (or to none), every step's lines map to a line of the file, the
    first of them to its action's (a step runs the setups, 'then' blocks and procedures it
    leads to, wherever the file has them), and the tagged statement lines of Liar's Dice
    name what the file says there."""
    for path, variant, n in FILE_COMBOS[::3]:
        program = engine_of_file(path, variant).program(n)
        count = len(Path(path).read_text(encoding="utf-8").splitlines())
        mapped = program.namespace[codegen.SOURCE_MAP]
        lines = program.source.split("\n")
        assert len(mapped) == len(lines)
        step = None
        for text, line in zip(lines, mapped):
            tag = re.search(r"  # line (\d+)$", text)
            if tag:
                assert line == int(tag.group(1)), (path, text)
            assert 0 <= line <= count, (Path(path).name, n, text)
            header = re.match(r"    # the whole step of .*\(line (\d+)\)$", text)
            if text.startswith("def step_"):
                step = -1
            elif text.startswith("def "):
                step = None
            elif step == -1:           # an action's step (a decline's or a vote's says so otherwise)
                step = None if header is None else line
                assert header is None or line == int(header.group(1)), (Path(path).name, text)
            elif step is not None and text.strip():
                assert line > 0, (Path(path).name, n, text)
    program = engine_of_file(str(ROOT / "games" / "liars_dice.rules"), None).program(2)
    rules = (ROOT / "games" / "liars_dice.rules").read_text(encoding="utf-8").splitlines()
    said = {text.strip(): rules[line - 1].strip()
            for text, line in zip(program.source.split("\n"), program.namespace[codegen.SOURCE_MAP])
            if re.search(r"roll_dice_over|_values\d+ = |_seat\d+ = ", text)}
    assert sorted(set(said.values())) == ["claim bid(q, f)", "knock out actor", "knock out claimant",
                                          "roll every cup                                  # player 0's dice first, "
                                          "then player 1's"]


def test_a_failure_in_generated_code_names_its_rules_line(monkeypatch):
    """An exception no rule explains, raised while a game's generated code runs (a defect
    of rulekit), reaches the match's caller as a RulesRuntimeError naming the line of the
    ``.rules`` file being run, the original as its cause, and the command line says so in
    one line, without a traceback."""
    from rulekit.engine import runtime
    from rulekit.play.match import play_match
    from rulekit.players import RandomBot
    from rulekit.errors import RulesRuntimeError

    def broken(*args):
        raise ZeroDivisionError("on purpose")

    from rulekit.analysis import simulation

    monkeypatch.setattr(runtime, "knocked_out", broken)         # read when a module is generated (a knock-out)
    monkeypatch.setattr(simulation, "_ENGINES", {})             # simulate's engines made here stay here
    path = ROOT / "games" / "liars_dice.rules"
    rules = path.read_text(encoding="utf-8").splitlines()
    engine = Engine(load(str(path)))
    with pytest.raises(RulesRuntimeError) as caught:
        play_match(engine, [RandomBot(random.Random(1)), RandomBot(random.Random(2))], 2, 3, keep_log=False)
    line = int(re.search(r"failed running line (\d+) of the rules", str(caught.value)).group(1))
    assert rules[line - 1].strip().startswith("knock out")
    assert "ZeroDivisionError: on purpose" in str(caught.value)
    assert isinstance(caught.value.__cause__, ZeroDivisionError) and caught.value.record is not None
    for command, where in [(["run", str(path), "--seed", "3", "-q", "--bots", "random"], f"{path}: "),
                           (["simulate", str(path), "--games", "2", "--workers", "1", "--bots", "random"], f"{path}: "),
                           (["run", str(path), "--seed", "3", "-q"], "")]:      # the solved bot runs it first
        result = CliRunner().invoke(main, command)
        assert 2 == result.exit_code, result.output
        said = re.search(r"error: rulekit failed running line (\d+) of the rules \(ZeroDivisionError", result.stderr)
        assert said and result.stderr.startswith(where), result.stderr
        assert rules[int(said.group(1)) - 1].strip().startswith("knock out")     # whoever the match knocks out
        assert "Traceback" not in result.output


def test_a_players_own_exception_is_not_blamed_on_the_rules():
    """An exception raised by a player's own code passes through the match unchanged."""
    from rulekit.play.match import play_match

    class Failing:
        def choose(self, view, decision):
            raise ZeroDivisionError("the player's own")

    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    with pytest.raises(ZeroDivisionError):
        play_match(engine, [Failing(), Failing()], 2, 3, keep_log=False)


# ---------------------------------------------------------------------------- 4. no text of the file in the code
#: texts that would be code, or would end a literal or a comment, if copied into the module
HOSTILE = ["import os", "'); print(1); ('", "'''; print(2); '''", "\\n", "__import__('os')", "\u00a0",
           "\u200b", "{{"]   # (CR, FF, U+2028, U+2029 and other controls are refused when loading: test_hostile.py)

HOSTILE_GAME = """\
game "Hostile '''; import os; print(1); ''' \\\\ \u00a0 print(3) \u200b \u200b"
players 2..3
deck { card coin "coin\\\\n'); print(1); ('": count 4 }
zone stock: shared, holds the deck
zone hand: per player, seen by owner
counter a = 0
claim gold "'''; print(2); ''' __import__('os') \\\\": true when every card in claimed cards is coin
setup { deal 1 from stock to each hand  go to play }
turn play {
  action give "import os {a} '); print(1); ('\\\\n \u00a0 print(3)" {
    choose 1 from your hand
    choose v in 1..2
    require a < 3 "'''; print(2); '''; # \\\\x00 \u00a0 print(3)"
    require v != 2 or count of chosen = 1 "'); print(1); (' \u200b print(3)"
    lay chosen on stock
    claim gold
    log "\\\\n import os '); print(1); (' {{ \u00a0 print(3) \u200b"
    add 1 to a
    set current = left of current
    go to play
  }
  action stop "'); print(1); ('" { end deal }
}
"""


def code_outside_literals(source: str) -> list[str]:
    """The tokens of the source that are neither string literals nor comments."""
    return [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type not in (tokenize.STRING, tokenize.COMMENT)]


def test_the_hostile_game_holds_its_texts():
    """The game below really carries those texts (as labels, messages, logs, card and claim
    texts and its title), so that the next test means something."""
    game = loads(HOSTILE_GAME)
    assert "'''; import os; print(1); '''" in game.title and "\u00a0" in game.title
    engine = Engine(game)
    state, _ = engine.new_match(2, random.Random(0))
    state, events = engine.apply(state, Action("give", (0,), (1,)), random.Random(0))
    texts = " ".join(str(e.data.get("text")) for e in events)
    assert "import os 0 '); print(1); ('" in texts and "{{ \u00a0 print(3)" in texts


@pytest.mark.parametrize("players", [2, 3])
def test_generated_module_holds_no_text_of_the_file_outside_literals(players, capsys):
    """Titles, labels, logs, messages, card and claim texts with quotes, backslashes, carriage
    returns, form feeds and code in them: the module compiles, none of those texts is code
    (outside its string literals and comments), every literal is a plain constant, the title
    is in the docstring as written, and loading or running the module prints nothing."""
    game = loads(HOSTILE_GAME)
    program = Engine(game).program(players)
    source = program.source
    tree = ast.parse(source)
    compile(source, "hostile.py", "exec")
    code = code_outside_literals(source)
    assert not {"import", "print", "__import__", "os"} & set(code)
    joined = " ".join(code)
    for text in HOSTILE:
        assert text not in joined, repr(text)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING:
            assert isinstance(ast.literal_eval(tok.string), str), tok.string
        elif tok.type == tokenize.COMMENT:
            assert "print" not in tok.string and "import" not in tok.string, tok.string
    assert game.title in ast.get_docstring(tree, clean=False)
    assert not any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in ast.walk(tree))
    # and the game runs, holding to the checks, printing nothing
    play_and_check(Engine(game), "hostile", players, seed=3, steps=8)
    assert "" == capsys.readouterr().out


#: builtins a generated module must never name
UNSAFE_BUILTINS = {"eval", "exec", "compile", "open", "__import__", "getattr", "setattr", "delattr", "globals",
                   "locals", "vars", "input", "breakpoint", "exit", "quit", "help", "memoryview", "__builtins__"}


#: the globals the engine gives a generated module besides the runtime's exports: no table
#: of a game (those the module's text defines)
ENGINE_SUPPLIED = {"Action", "Option", "State", "multisets", "new", "none_legal", "OUT", "INFINITY"}


def test_every_generated_module_is_plain_python_of_its_own_names():
    """Every game file, variant and player count: the module parses, imports nothing, reaches
    no dunder attribute, and names nothing but its own functions, variables and tables, the
    runtime's exports, what the engine supplies (``ENGINE_SUPPLIED``) and harmless builtins:
    the text printed by ``rulekit compile --emit`` is the whole game."""
    import builtins

    from rulekit.engine.runtime import exports

    safe = set(dir(builtins)) - UNSAFE_BUILTINS
    for path, variant, n in FILE_COMBOS:
        program = engine_of_file(path, variant).program(n)
        tree = ast.parse(program.source)
        assert isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)
        for node in tree.body[1:]:
            assert isinstance(node, (ast.FunctionDef, ast.Assign)), ast.dump(node)[:200]
        assert not any(isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal))
                       for node in ast.walk(tree))
        assert not any(isinstance(node, ast.Attribute) and node.attr.startswith("__") for node in ast.walk(tree))
        names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        defined |= {node.id for node in names if isinstance(node.ctx, ast.Store)}
        defined |= {a.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for a in node.args.args}
        supplied = set(exports()) | ENGINE_SUPPLIED
        read = {node.id for node in names if isinstance(node.ctx, ast.Load)}
        assert read <= defined | supplied | safe, (Path(path).name, n, read - defined - supplied - safe)
        assert not read & UNSAFE_BUILTINS


def test_no_generated_module_calls_a_compiled_closure():
    """``rulekit compile --emit`` prints one self-contained module per game: no module of a
    game file, example or construct game, at any player count, reads a compiled closure
    (``f<i>``) or a compiled claim (``claim<i>``): every construct it uses is written out."""
    programs = [(f"{Path(p).name}[{v or 'base'}] {n}p", engine_of_file(p, v).program(n)) for p, v, n in FILE_COMBOS]
    programs += [(f"{name} {n}p", engine_of_text(text).program(n)) for name, text, n in CONSTRUCT_COMBOS]
    for where, program in programs:
        read = {node.id for node in ast.walk(ast.parse(program.source)) if isinstance(node, ast.Name)}
        closures = sorted(name for name in read if re.fullmatch(r"(f|claim)\d+", name))
        assert not closures, f"{where}: the module calls closures {closures}"


# ---------------------------------------------------------------------------- 5. the checks have teeth
def engine_with(game, change: Callable) -> Engine:
    """A fresh engine whose generated program (for every player count) is changed by ``change``."""
    engine = Engine(game)
    original = engine.program

    def program(players):
        prog = original(players)
        if not getattr(prog, "changed", False):
            change(prog)
            prog.changed = True
        return prog
    engine.program = program
    return engine


def drop_last(enum):
    def enumerate_less(state, largest_first, budget):
        found = list(enum(state, largest_first, budget))
        yield from found[:-1]
    return enumerate_less


def changed_enumerators(prog):
    """Every enumerator drops its last action, and the plain listing each phase's last."""
    prog.enumerators_of = tuple(tuple((name, drop_last(e)) for name, e in row) for row in prog.enumerators_of)
    prog.legal = tuple((lambda listing: lambda state: listing(state)[:-1])(listing) for listing in prog.legal)


def changed_checks(prog):
    """Every check accepts every action: the steps' judgement (which ``why_illegal`` and
    ``is_legal`` ask)."""

    def judged_legal(step):
        def changed(state, action, rng, *args, judge=False, **kwargs):
            return None if judge else step(state, action, rng, *args, **kwargs)
        return changed
    prog.steps = tuple({name: judged_legal(step) for name, step in row.items()} for row in prog.steps)


def changed_options(prog):
    """Every option offers one value fewer of its last choice."""
    def fewer(option):
        if not option.params:
            return option
        (name, values), rest = option.params[-1], option.params[:-1]
        return option._replace(params=rest + ((name, values[:-1]),)) if len(values) > 1 else option

    def fewer_of(offered):
        return lambda state: tuple(fewer(option) for option in offered(state))
    prog.state_options = tuple(fewer_of(row) for row in prog.state_options)


def changed_views(prog):
    view_zones = prog.view_zones
    prog.view_zones = lambda zones, seat: tuple((name, owner, count, tuple(sorted(zones[slot])))
                                                for slot, (name, owner, count, _) in enumerate(view_zones(zones, seat)))


def changed_texts(monkeypatch, old: str, new: str):
    """Generate modules with ``old`` replaced by ``new`` in their text (a copy; codegen is untouched)."""
    module = codegen.Generator.module

    def mutated(self, more=None):
        return module(self, more).replace(old, new)
    monkeypatch.setattr(codegen.Generator, "module", mutated)


@pytest.mark.parametrize("change", [changed_enumerators, changed_checks, changed_options, changed_views],
                         ids=["enumerator-drops-its-last-action", "check-accepts-everything",
                              "option-drops-a-value", "view-shows-all-cards"])
def test_the_checks_notice_a_changed_program(change):
    """An enumerator that drops its last action, a check that accepts every action, an option
    short of a value, a view that shows every card: the checks of a DTC match fail at once."""
    engine = engine_with(load_game(str(DTC)), change)
    with pytest.raises(AssertionError):
        play_and_check(engine, "changed", 3, seed=1, steps=10)


@pytest.mark.parametrize("path, old, new", [
    (ROOT / "games" / "nimms_leich.rules", "v_0 < standing0[0]",
     "v_0 <= standing0[0]"),                                          # the pruning skips equal counts
    (ROOT / "games" / "coup.rules", "if seat == ", "if seat != "),   # the views: the reference differs
    (ROOT / "games" / "lugenbeutel.rules", "('play', 'play', pool, 1, None",
     "('play', 'play', pool, 2, None"),                               # an option: at least 2 cards
    (DTC, "raise IllegalAction('the offer must beat the one just accepted')\n        except",
     "pass\n        except"),                                      # the check of an offer, not its listing
], ids=["nimms-pruning", "coup-views", "lugenbeutel-option", "dtc-check"])
def test_the_checks_notice_a_changed_generated_text(monkeypatch, path, old, new):
    """A scratch copy of the generated text with one operator or helper changed where the
    listing, the check, the option or the view part ways: the checks of a few random matches
    fail. (A change made alike everywhere, such as who 'others' are, is the rules' business:
    the scenario and conformance tests hold the generated code to them.)"""
    game = load(str(path))
    low, high = game.players
    assert old in Engine(game).program(low).source       # the change changes something
    changed_texts(monkeypatch, old, new)
    with pytest.raises(AssertionError):
        for seed in range(6):
            for n in range(low, high + 1):
                play_and_check(Engine(game), "changed", n, seed=seed, steps=40, applies=0)


# ---------------------------------------------------------------------------- edge cases
DEPENDENT = """\
game "Dependent"
players 2
deck { card coin: count 2 }
zone stock: shared, holds the deck
setup { go to play }
turn play {
  action pick "picks {a} then {b}" {
    choose a in 1..3
    choose b in 1..a
    end deal
  }
}
"""


def test_largest_first_order_of_a_dependent_range():
    """'choose a in 1..3  choose b in 1..a': largest first lists (3, 3), (3, 2), (3, 1), …
    (the generated code once listed a dependent range smallest first), and the option offers
    the union of b's ranges."""
    engine = Engine(loads(DEPENDENT))
    state, _ = engine.new_match(2, random.Random(0))
    assert [a.params for a in engine.legal_actions(state, largest_first=True)] == \
        [(3, 3), (3, 2), (3, 1), (2, 2), (2, 1), (1, 1)]
    assert engine.decision(state).options[0].params == (("a", (1, 2, 3)), ("b", (1, 2, 3)))


BUDGET = """\
game "Budget"
players 2
deck { card number: value 1..12, count 1 }
zone stock: shared, holds the deck
zone hand: per player, seen by owner
setup { draw 12 from stock to hand of P1  go to play }
turn play {
  action big "plays {count of chosen} as {v}" {
    choose 1 or more from your hand
    choose v in 1..3
    require count of chosen > 20 "not enough cards"
    end deal
  }
  action stop "stops" { end deal }
}
"""


def test_pruning_settles_an_option_within_its_budget():
    """12 different cards (4 095 choices) × 3 values, and no choice passes: the require prunes
    at the cards, before the values, so 4 095 candidates are examined, within the budget of
    10 000: 'big' is not offered (the interpreter, which examined every pair, once kept it)."""
    engine = Engine(loads(BUDGET))
    state, _ = engine.new_match(2, random.Random(0))
    assert [o.name for o in engine.decision(state).options] == ["stop"]
    assert [a.name for a in engine.legal_actions(state)] == ["stop"]


RANGE_FIRST = """\
game "Range first"
players 2
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter big = 20000
setup { go to play }
turn play {
  action pick "picks {b}" {
    choose b in 1..big
    require count of stock = 0 "cards are left"
    end deal
  }
  action stop "stops" { end deal }
}
"""


def test_a_range_that_fails_stops_before_a_later_require():
    """'choose b in 1..big' (20 000 values: a runtime error) then a require that fails: the
    range's error is raised (the generated code once checked the require first)."""
    engine = Engine(loads(RANGE_FIRST))
    state, _ = engine.new_match(2, random.Random(0))
    got = outcome(engine.legal_actions, state)
    assert got[:2] == ("raise", "RulesRuntimeError") and "b would be chosen among 20,000 values" in got[2], got
    # and judging one value of it (its bounds compared, no range made) says the same
    for value in (1, 20_001):
        got = outcome(engine.why_illegal, state, Action("pick", (), (value,)))
        assert got[:2] == ("raise", "RulesRuntimeError") and "b would be chosen among 20,000 values" in got[2], got


def test_a_value_of_the_wrong_type_is_explained():
    """1.0 or True for a number chosen in a range is refused with a reason (the engine once let
    1.0 through the range test and then failed with a TypeError); a missing value is asked for."""
    engine = Engine(loads(DEPENDENT))
    state, _ = engine.new_match(2, random.Random(0))
    for bad in (1.0, True, "1", (1,)):
        assert engine.why_illegal(state, Action("pick", (), (bad, 1))) == f"a cannot be {bad!r} here"
    assert engine.why_illegal(state, Action("pick", (), (3,))) == "choose a value for b"
    assert engine.why_illegal(state, Action("pick", (), (3, None))) == "choose a value for b"
    assert engine.why_illegal(state, Action("pick", (), (3, 1, 1))) == "this action takes a different number of values"
    assert engine.why_illegal(state, Action("pick", (0,), (3, 1))) == "this action takes no cards"
    assert engine.why_illegal(state, Action("pick", (), (3, 1))) is None


#: one action choosing among 15,000 pairs of values: more than a listing's memo keeps
MANY_VALUES = """\
game "Many values"
players 2
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter score = 0
setup {
  go to pick from P1
}
turn pick clockwise {
  action pick "picks" {
    choose x in 1..5000
    choose y in 1..3
    set score = score + x
    end deal
  }
}
match {
  deals until score > 0
}
"""


def test_a_listing_gives_the_same_actions_again_from_a_bounded_memo():
    """Listing a decision again gives equal actions, the same objects where the memos keep
    them; the memos of a listing (its actions one by one, and the rows of a last choice all
    of whose values are legal) never hold more than MEMO_SIZE actions, and a listing past
    them is still whole (the actions the enumerator makes, in its order)."""
    engine = engine_of_text(MANY_VALUES)
    state, _ = engine.new_match(2, random.Random(0))
    first, again = engine.legal_actions(state), engine.legal_actions(state)
    assert first == again == list(engine.legal_actions(state, limit=10 ** 6))
    assert len(first) == 15_000
    made, rows = engine.program(2).namespace["made_0_0"], engine.program(2).namespace["rows_0_0"]
    held = len(made) + sum(map(len, rows.values()))
    assert codegen.MEMO_SIZE - 3 <= held <= codegen.MEMO_SIZE
    kept = sum(a is b for a, b in zip(first, again))
    assert kept == held
    ld = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    state, _ = ld.new_match(2, random.Random(0))
    assert all(a is b for a, b in zip(ld.legal_actions(state), ld.legal_actions(state)))


def test_the_row_of_the_standing_claim_is_listed_once_per_standing_claim():
    """After a bid in Liar's Dice, the row of the bid's own quantity lists only the faces
    above the bid's: made once per standing bid (the row memo's key holds it) and given
    again as the same objects; another bid of that quantity has its own row."""
    ld = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    rows = ld.program(2).namespace["rows_0_0"]
    for face in (3, 5, 3):
        state, _ = ld.new_match(2, random.Random(0))
        state, _ = ld.apply(state, Action("bid", (), (1, face)), random.Random(0))
        listed = ld.legal_actions(state)
        assert [a.params for a in listed if a.name == "bid"] == \
            [(1, f) for f in range(face + 1, 7)] + [(2, f) for f in range(1, 7)]
        assert listed == list(ld.legal_actions(state, limit=10 ** 6))
        assert rows[(1, (1, face))] == tuple(listed[:6 - face])
        assert all(a is b for a, b in zip(listed, ld.legal_actions(state)))


def test_a_row_filter_that_reads_the_state_is_not_remembered_by_the_claim():
    """The row memo keyed by the standing claim is written only where the row's filter
    reads nothing but the values chosen, the standing claim's key and its flag."""
    edge = codegen.Generator._edge_filter
    pure = "if not (above0_2 or (standing0 is None or (v_0, v_1) > standing0)):\n    continue"
    assert edge([pure], ["v_0", "v_1"]) == ("(above0_2 or (standing0 is None or (v_0, v_1) > standing0))",
                                            "standing0")
    assert edge([pure.replace("v_1)", "v_1 + counters[0])")], ["v_0", "v_1"]) is None
    assert edge([pure.replace("(v_0, v_1)", "(v_0, w)")], ["v_0", "v_1"]) is None
    assert edge([pure, "if not v_1:\n    continue"], ["v_0", "v_1"]) is None


def test_an_existence_test_that_counts_the_chosen_cards_tries_one_choice_of_each_size():
    """DTC's offer must beat the standing offer by its count and value only: its existence
    test tries one choice of cards of each size (``one_of_each_size``, not every multiset),
    and the option is offered exactly when some offer is legal, in the states play reaches
    and in states with too few cards in hand to beat an offer of value 6."""
    dtc = Engine(load(str(ROOT / "games" / "dtc.rules")))
    source = dtc.program(4).source
    first = source[source.index("def first_0_0_of"):].split("\n\n\n")[0]
    assert "one_of_each_size(pool" in first and "multisets(" not in first
    assert "multisets(pool" in source                   # the listings still list every choice
    counts_only = codegen.Generator._counts_only
    assert counts_only(["if len(chosen) < 2:\n    continue"], [("param", "v", "v_1", "dom_1", False)])
    assert not counts_only(["if not all(k in R1 for k in chosen):\n    continue"], [])
    assert not counts_only(["if f(ctx):\n    continue"], [])
    assert not counts_only([], [("param", "v", "v_1", "sorted(set(cards))", True)])
    offered = {True: 0, False: 0}
    for seed in range(12):
        rng = random.Random(seed)
        state, _ = dtc.new_match(4, rng)
        while not state.is_terminal:
            legal = dtc.legal_actions(state)
            if dtc.cg.phase_list[state.phase].name == "give" and state.claim is not None:
                k = state.claim[1][0]
                hand = dtc.cg.zone_base(4)[dtc.cg.zone_index["hand"]] + state.seats[0]
                for size in range(max(0, k - 1), k + 2):
                    zones = list(state.zones)
                    zones[hand] = tuple(sorted(zones[hand]))[:size]
                    for v in (5, 6):
                        trial = state._replace(zones=tuple(zones), claim=(state.claim[0], (k, v), state.claim[2]))
                        can = any(a.name == "offer" for a in dtc.legal_actions(trial))
                        assert ("offer" in {o.name for o in dtc.options(trial)}) == can
                        offered[can] += 1
            state, _ = dtc.apply(state, rng.choice(legal), rng)
    assert offered[True] and offered[False]


def test_a_step_tests_only_what_its_effects_may_have_changed():
    """A bid in Liar's Dice neither says where play goes nor ends the match: its step passes
    the turn on without testing ``goto`` or ``stop``; a call of liar may end the match and
    goes on through ``arrive``; DTC's accept says where play goes and never ends anything:
    its step tests ``goto`` only."""
    def step(path, name):
        source = Engine(load(str(ROOT / "games" / path))).program(4 if path == "dtc.rules" else 2).source
        return source[source.index(f"def {name}("):].split("\n\n\n")[0]

    bid, liar, accept = step("liars_dice.rules", "step_0_0"), step("liars_dice.rules", "step_0_1"), \
        step("dtc.rules", "step_1_0")
    assert "goto is None" not in bid and "if stop" not in bid and "arrive(" not in bid
    assert "following = " in bid
    assert "if stop:" in liar and "arrive(" in liar
    assert "if goto is None:" in accept and "stop" not in accept.split("if body")[1]


def test_a_traceback_through_generated_code_shows_its_lines(monkeypatch):
    """A traceback through a game's module (for a caller of the engine's API) shows the
    generated line it failed on, and the module's source map gives the line of the rules
    it was written from."""
    import traceback

    from rulekit.engine import runtime

    def broken(*args):
        raise ZeroDivisionError("on purpose")

    monkeypatch.setattr(runtime, "knocked_out", broken)
    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    rng = random.Random(1)
    state, _ = engine.new_match(2, rng)
    state, _ = engine.apply(state, Action("bid", (), (1, 3)), rng)
    with pytest.raises(ZeroDivisionError) as caught:
        engine.apply(state, Action("liar"), rng)
    shown = "".join(traceback.format_exception(caught.value))
    assert re.search(r"out = knocked_out\(out, _seat\d+\)", shown)
    assert "Liar's Dice for 2 players" in shown
    line = codegen.rules_line(caught.value)
    rules = (ROOT / "games" / "liars_dice.rules").read_text(encoding="utf-8").splitlines()
    assert rules[line - 1].strip().startswith("knock out")
