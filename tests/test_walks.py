"""Golden walks: what every game the tests know does, pinned to a digest.

For every shipped game, variant and player count, every documented example, every
construct game of the test suite and the games of ``test_steps.py``, a few random walks (matches one after another, each
from its first state, then each decision: its seat and options, a random legal action of
the decider, the events with their texts and the state after it)
are hashed into one SHA-256 digest per game and player count, kept in
``tests/golden/walks.json``. The walks read nothing but the public API (``new_match``,
``decision``, ``is_legal``, ``legal_actions`` with and without a limit, an order, a
budget or an action, ``effects``, ``apply``), so whatever path the engine
takes, or a rewrite of it, must do exactly what the engine did when the digests were
written: the same draws, states, events and texts, the same refusals, the same listings'
order. A game that gets stuck on purpose (no option, no seat to play) ends its walk with
its error's message, hashed too.

With ``RULEKIT_REGEN_GOLDEN=1`` the test writes the file instead of comparing (then read
the diff: a digest that changes is a change of what a game does).
"""

from __future__ import annotations

import hashlib
import json
import os
import random

import pytest

from rulekit import Engine, load
from rulekit.errors import RulesRuntimeError

from strategies import COMBOS, ROOT, some_legal_action

GOLDEN = ROOT / "tests" / "golden" / "walks.json"
REGEN = os.environ.get("RULEKIT_REGEN_GOLDEN", "") not in ("", "0")
SEEDS = 3
DECISIONS = 150


def _cases() -> dict:
    """{name: (engine, players)} of every game walked."""
    from test_codegen import CONSTRUCT_COMBOS, engine_of_text
    cases = {f"{c.game}[{c.variant or 'base'}]/{c.players}p": (c.engine, c.players) for c in COMBOS}
    for path in sorted((ROOT / "docs" / "examples").glob("*.rules")):
        engine = Engine(load(path))
        low, high = engine.game.players
        cases.update({f"docs/{path.stem}/{n}p": (engine, n) for n in range(low, high + 1)})
    for name, text, n in CONSTRUCT_COMBOS:
        cases[f"{name}/{n}p"] = (engine_of_text(text), n)
    from test_steps import walked_here
    for name, (text, n) in walked_here().items():
        cases[f"{name}/{n}p"] = (engine_of_text(text), n)
    return cases


def walk_digest(engine: Engine, players: int, seeds: int = SEEDS, decisions: int = DECISIONS) -> str:
    """The SHA-256 digest of ``seeds`` random walks of ``decisions`` decisions (see the
    module docstring)."""
    digest = hashlib.sha256()
    for seed in range(seeds):
        rng = random.Random(seed)
        taken = 0
        try:
            while taken < decisions:            # matches one after another
                state, events = engine.new_match(players, rng)
                digest.update(repr((state, events)).encode())
                if state.is_terminal:           # a match that ends in its setup: once is enough
                    break
                while taken < decisions:
                    decision = engine.decision(state)
                    if decision is None:
                        break
                    # listings with a limit, an order, a budget and one action's alone
                    listed = (engine.legal_actions(state, 12, largest_first=taken % 2 == 1, budget=64),
                              engine.legal_actions(state, 6, action=decision.options[-1].name))
                    action = some_legal_action(engine, state, decision, rng)
                    own = engine.effects(state, action, random.Random(taken))     # its own effects alone
                    state, events = engine.apply(state, action, rng)
                    digest.update(repr((decision.seat, decision.options, listed, action, own, events, state)).encode())
                    taken += 1
        except (IndexError, RulesRuntimeError) as exc:      # stuck on purpose: no option, no seat
            digest.update(f"{type(exc).__name__}: {exc}".encode())
    return digest.hexdigest()


CASES = _cases()


def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}


def test_every_game_walks_as_its_golden_digest():
    """Every game and player count walks to the digest written down (see the module
    docstring); a game new to the tests needs its digest written (RULEKIT_REGEN_GOLDEN=1)."""
    made = {name: walk_digest(engine, n) for name, (engine, n) in CASES.items()}
    if REGEN:
        GOLDEN.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        pytest.skip("golden walks written")
    golden = _golden()
    assert sorted(made) == sorted(golden), "games without a digest (or digests without a game)"
    changed = sorted(name for name in made if made[name] != golden[name])
    assert changed == [], f"these games walk otherwise than their golden digests: {changed}"


def test_a_walk_digest_sees_a_change_of_one_step():
    """The digest has teeth: one action of one walk taken otherwise changes it."""
    engine, n = CASES["liars_dice[base]/2p"]
    real = engine.apply
    calls = []

    def apply(state, action, rng, *args, **kwargs):
        calls.append(action)
        if len(calls) == 5:
            action = next((a for a in engine.legal_actions(state) if a != action), action)
        return real(state, action, rng, *args, **kwargs)

    before = walk_digest(engine, n, seeds=1)
    engine.apply = apply
    try:
        after = walk_digest(engine, n, seeds=1)
    finally:
        del engine.apply
    assert before != after
