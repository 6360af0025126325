"""Shared Hypothesis strategies and helpers for the property tests of every game file.

Every ``games/*.rules`` file is discovered with a glob, so a new game file is covered by the
conformance tests without touching them. For each file, each variant (and the base game,
variant ``None``) is loaded, and every player count of the range that variant declares
(a variant may narrow the range: Lügenbeutel's ``in_hand`` is for 2..6 players) gives one
:class:`Combo`.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path
from typing import Iterator, NamedTuple

import attrs
from hypothesis import strategies as st

import pytest

from rulekit import Action, Engine, RulesError, load, loads
from rulekit.engine import count_multisets
from rulekit.play.match import MAX_REJECTIONS, seat_rng
from rulekit.players import RandomBot

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "games"


def game_paths() -> list[Path]:
    """Every game file, by name."""
    return sorted(GAMES_DIR.glob("*.rules"))


@functools.lru_cache(maxsize=None)
def load_game(path: str, variant: str | None = None):
    """The checked game of a file with one variant applied (or none)."""
    return load(path, variants=[variant] if variant else [])


@functools.lru_cache(maxsize=None)
def engine_for(path: str, variant: str | None = None) -> Engine:
    """One engine per (file, variant), shared by the tests (engines hold no match state)."""
    return Engine(load_game(path, variant))


class Combo(NamedTuple):
    """One way to play a game file: the file, a variant or None, and a player count."""

    path: str
    variant: str | None
    players: int

    @property
    def game(self) -> str:
        return Path(self.path).stem

    @property
    def id(self) -> str:
        return f"{self.game}[{self.variant or 'base'}]-{self.players}p"

    @property
    def engine(self) -> Engine:
        return engine_for(self.path, self.variant)


def variants_of(path: str) -> list[str | None]:
    """The base game (None) and every variant a file declares."""
    return [None] + [name for name, _ in load_game(path).variants]


def all_combos() -> list[Combo]:
    """Every (game file, variant or None, player count) from the declared ranges."""
    out = []
    for path in game_paths():
        for variant in variants_of(str(path)):
            low, high = load_game(str(path), variant).players
            for n in range(low, high + 1):
                out.append(Combo(str(path), variant, n))
    return out


COMBOS = all_combos()
COMBO_IDS = [c.id for c in COMBOS]

#: seeds of a match (the match rng and, through ``seat_rng``, each bot's rng)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: any combination of game, variant and player count
combos = st.sampled_from(COMBOS)


# ---------------------------------------------------------------------------- cards
def deck_counter(engine: Engine, players: int | None = None) -> Counter:
    """The declared deck as a multiset of kind indices (each kind ``count`` times); with
    ``players``, also the dice the match starts with, as ``("die", name)``: a roll changes a
    die's face, never how many dice there are."""
    c = Counter({i: k.count for i, k in enumerate(engine.kinds) if k.die is None and k.start is None})
    if players is not None:
        c.update(engine.cards_for(players))
        c.subtract(engine.deck)
        for d in engine.game.dice:
            if d.count and d.zone is not None:
                c[("die", d.name)] = d.count * (players if d.each else 1)
    return +c


def cards_in_state(state, engine: Engine | None = None) -> Counter:
    """Every card of every zone of a state, as a multiset of kind indices; with ``engine``,
    dice are counted by die (``("die", name)``) whatever face they show."""
    c: Counter = Counter()
    for zone in state.zones:
        c.update(zone)
    if engine is not None:
        for k in list(c):
            die = engine.kinds[k].die
            if die is not None:
                c[("die", die)] += c.pop(k)
    return c


def zone(engine: Engine, state, name: str, owner: int | None = None) -> tuple:
    """The cards of one zone instance (top card last)."""
    return state.zones[engine.zone_slot(state, name, owner)]


def set_zone(engine: Engine, state, name: str, owner: int | None, cards) -> object:
    """A copy of ``state`` with one zone instance replaced (``known`` left as it is)."""
    zones = list(state.zones)
    zones[engine.zone_slot(state, name, owner)] = tuple(cards)
    return state._replace(zones=tuple(zones))


def counter_value(engine: Engine, state, name: str, seat: int = 0) -> int:
    """A counter (of ``seat`` for a counter per player)."""
    ci = engine.cg.counter_index[name]
    return state.counters[engine.cg.counter_slot(ci, seat, state.n)]


def set_counter(engine: Engine, state, name: str, seat: int, value: int):
    """A copy of ``state`` with one counter (of ``seat``) set."""
    ci = engine.cg.counter_index[name]
    counters = list(state.counters)
    counters[engine.cg.counter_slot(ci, seat, state.n)] = value
    return state._replace(counters=tuple(counters))


def seat_value(engine: Engine, state, name: str) -> int:
    """A seat variable (current, claimant, dealer…)."""
    return state.seats[engine.cg.seat_names.index(name)]


def set_seat(engine: Engine, state, name: str, value: int):
    """A copy of ``state`` with one seat variable set."""
    seats = list(state.seats)
    seats[engine.cg.seat_names.index(name)] = value
    return state._replace(seats=tuple(seats))


def zone_visibility(engine: Engine, state, slot: int) -> tuple[str, str, int | None]:
    """(zone name, seen, owner seat or None) of a zone instance."""
    zi, owner = engine.cg.zone_owner(slot, state.n)
    decl = engine.cg.zones[zi]
    return decl.name, decl.seen, (None if owner < 0 else owner)


def may_see(engine: Engine, state, slot: int, seat: int) -> bool:
    """Whether ``seat`` may see the cards of a zone instance: an open zone, its own zone
    that its owner sees, or another seat's zone that all but its owner see (forehead)."""
    _, seen, owner = zone_visibility(engine, state, slot)
    return seen == "all" or (seen == "owner" and owner == seat) or \
        (seen == "others" and owner is not None and owner != seat)


# ---------------------------------------------------------------------------- playing
class Step(NamedTuple):
    """One decision of a match: the state before, the decision, the action, the state after
    and the events of the transition."""

    index: int
    state: object
    decision: object
    action: Action
    after: object
    events: list


def random_bots(n: int, seed: int) -> list[RandomBot]:
    """One RandomBot per seat, seeded as ``rulekit.play.match`` seeds bots."""
    return [RandomBot(seat_rng(seed, s)) for s in range(n)]


class QuickRandomBot:
    """``random_legal``'s choice (an option uniformly, then a random concrete choice of it,
    retried until legal) with 500 tries instead of 30 before it falls back to it.

    Its fallback lists legal actions, which can take seconds for a DTC hand of 30+
    cards (see test_dtc.py::test_random_bot_decides_quickly_with_a_big_hand); whole-match
    property tests use this bot so that their run time stays predictable."""

    def __init__(self, rng: random.Random, tries: int = 500):
        self.rng = rng
        self.tries = tries

    def choose(self, view, decision) -> Action:
        from rulekit.players.base import random_concrete, random_legal
        options = list(decision.options)
        for _ in range(self.tries):
            action = random_concrete(self.rng.choice(options), self.rng)
            if decision.check(action) is None:
                return action
        return random_legal(decision, self.rng)       # RandomBot's checked choice, listing if need be


def quick_bots(n: int, seed: int) -> list[QuickRandomBot]:
    """One QuickRandomBot per seat, seeded as ``rulekit.play.match`` seeds bots."""
    return [QuickRandomBot(seat_rng(seed, s)) for s in range(n)]


def walk(engine: Engine, n: int, seed: int, bots=None, max_steps: int | None = None) -> Iterator[Step]:
    """Play a match as ``play_match`` does (same rng use) and yield every step; the bots
    default to one QuickRandomBot per seat.

    The first yielded item is ``Step(-1, None, None, None, state, events)`` for the set-up.
    Stops at the end of the match or after ``max_steps`` decisions.
    """
    rng = random.Random(seed)
    bots = bots if bots is not None else quick_bots(n, seed)
    state, events = engine.new_match(n, rng)
    yield Step(-1, None, None, None, state, events)
    i = 0
    while not state.is_terminal and (max_steps is None or i < max_steps):
        decision = engine.decision(state)
        view = engine.view(state, decision.seat)
        rejected = None
        for _ in range(MAX_REJECTIONS):     # an illegal answer is asked again, as play_match does
            action = bots[decision.seat].choose(view, attrs.evolve(decision, rejected=rejected))
            reason = engine.why_illegal(state, action)
            if reason is None:
                break
            rejected = (action, reason)
        after, events = engine.apply(state, action, rng)
        yield Step(i, state, decision, action, after, events)
        state = after
        i += 1


def play_until(engine: Engine, n: int, seed: int, steps: int):
    """The state after ``steps`` decisions of random bots (or the end), and the match rng."""
    rng = random.Random(seed)
    bots = quick_bots(n, seed)
    state, _ = engine.new_match(n, rng)
    for _ in range(steps):
        if state.is_terminal:
            break
        d = engine.decision(state)
        state, _ = engine.apply(state, bots[d.seat].choose(engine.view(state, d.seat), d), rng)
    return state, rng


def swap_hidden(engine: Engine, state, seat: int, rng: random.Random):
    """A state that differs from ``state`` only in cards ``seat`` cannot see.

    One card of a seat's zone that ``seat`` may not see (another seat's hand or pile, or
    its own card held to the forehead) is swapped with a different card of another zone
    ``seat`` may not see (the stock, the undealt deck, another seat's zone…); counts stay
    the same. Zones whose cards ``seat``
    was shown, or that were revealed to all, are left alone (``known``). Where a hidden zone
    holds dice, half the time one of them shows another face instead. Returns None when no
    such change exists.
    """
    known_slots = {slot for viewer, slot, *_ in state.known if viewer == seat or viewer < 0}
    refaced = reface_hidden_die(engine, state, seat, rng, known_slots)
    if refaced is not None and rng.random() < 0.5:
        return refaced
    hidden = [slot for slot, cards in enumerate(state.zones)
              if cards and slot not in known_slots and not may_see(engine, state, slot, seat)]
    owned = [slot for slot in hidden if zone_visibility(engine, state, slot)[2] is not None]
    pairs = [(a, b) for a in owned for b in hidden
             if a != b and len(set(state.zones[a]) | set(state.zones[b])) > 1]
    if not pairs:
        return refaced
    a, b = rng.choice(pairs)
    za, zb = list(state.zones[a]), list(state.zones[b])
    for _ in range(100):
        i, j = rng.randrange(len(za)), rng.randrange(len(zb))
        if za[i] != zb[j]:
            break
    else:
        return None
    za[i], zb[j] = zb[j], za[i]
    zones = list(state.zones)
    zones[a], zones[b] = tuple(za), tuple(zb)
    return state._replace(zones=tuple(zones))


def reface_hidden_die(engine: Engine, state, seat: int, rng: random.Random, known_slots):
    """A state where one die ``seat`` cannot see shows another face, or None."""
    kinds = engine.kinds
    spots = [(slot, i) for slot, cards in enumerate(state.zones)
             if slot not in known_slots and not may_see(engine, state, slot, seat)
             for i, k in enumerate(cards) if kinds[k].die is not None]
    if not spots:
        return None
    slot, i = rng.choice(spots)
    die = kinds[state.zones[slot][i]].die
    faces = [k for k, kind in enumerate(kinds) if kind.die == die and k != state.zones[slot][i]]
    if not faces:
        return None
    cards = list(state.zones[slot])
    cards[i] = rng.choice(faces)
    zones = list(state.zones)
    zones[slot] = tuple(cards)
    return state._replace(zones=tuple(zones))


def some_legal_action(engine: Engine, state, decision, rng: random.Random, tries: int = 500) -> Action:
    """A random legal action of the decider: an option uniformly, then random concrete
    choices (up to ``tries``), listing legal actions only when all of those miss.

    Unlike RandomBot's 30 tries, this stays fast when very few choices are legal (a DTC donor
    with 35 cards facing a 34-card offer)."""
    from rulekit.players.base import random_concrete
    options = list(decision.options)
    for _ in range(tries):
        action = random_concrete(rng.choice(options), rng)
        if engine.is_legal(state, action):
            return action
    return rng.choice(engine.legal_actions(state, 50))


# ---------------------------------------------------------------------------- small inline games
def engine_of(text: str) -> Engine:
    """The engine of a rules text."""
    return Engine(loads(text))


def setup_game(body: str, decls: str = "", players: str = "2..4") -> str:
    """A game whose whole match is its setup: ``body`` runs, then the deal (and match) ends."""
    return f"""\
game "T"
players {players}
deck {{ card coin: count 2 }}
zone stock: shared, holds the deck
counter a = 0
counter b = 0
counter c = 0
counter d = 0
counter s per player = 0
group team
seat who
{decls}
setup {{
{body}
  end deal
}}
"""


def after_setup(body: str, decls: str = "", n: int = 2, players: str = "2..4") -> dict:
    """The counters, seats and groups (by name) once the setup ``body`` has run for ``n`` seats."""
    engine = engine_of(setup_game(body, decls, players))
    state, _ = engine.new_match(n, random.Random(0))
    assert -1 == state.phase                 # the match is over
    view = engine.view(state, 0)
    return dict(view.counters) | dict(view.seats) | dict(view.groups)


def error_of(text: str) -> str:
    """The first line of the RulesError that loading ``text`` raises: ``<rules>:line:col: error: message``."""
    with pytest.raises(RulesError) as exc:
        loads(text)
    return str(exc.value).splitlines()[0]


def play(engine: Engine, state, *actions, rng=None):
    """The state after applying ``actions`` in turn (chance from ``rng``, default seed 0)."""
    for a in actions:
        state, _ = engine.apply(state, a, rng or random.Random(0))
    return state


def enumeration_size(decision) -> int:
    """How many candidate choices listing every legal action examines."""
    total = 0
    for o in decision.options:
        ways = 1
        if o.cards is not None:
            high = len(o.cards) if o.high is None else min(o.high, len(o.cards))
            ways = count_multisets(o.cards, o.low, high) if high >= o.low else 0
        for _, values in o.params:
            ways *= len(values)
        total += ways
    return total
