"""Benchmark: the solved bot (rulekit.players.solved) on small games, and how fast big
games are given up.

Run: python benchmarks/bench_solved.py [--liars-dice] [--openspiel] [--sampled N]

* For each big game at its default player count and at 2 players: the time ``solve``
  takes to give it up (no cache; the file's loading included).
* Kuhn poker (and Liar's Dice 1 die with ``--liars-dice``): the time to solve (no cache),
  split into enumeration and CFR+, the nodes, information sets, iterations, the solver's
  own exploitability (NashConv / 2), and the time to read the solution again from a
  cache.
* With ``--openspiel``: OpenSpiel's exploitability of the bot's exact policy (the
  distribution it draws from, marginalised to OpenSpiel's action ids; on Liar's Dice this
  walks the whole tree in Python, about 2 minutes); with ``--sampled N`` also that of the
  bot itself through ``rulekit.openspiel.player_policy`` with N samples per information
  state (an estimate: sampling noise adds to it).

A measurement, never a test. The cache goes to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from rulekit import Engine, load  # noqa: E402
from rulekit.players import solved  # noqa: E402
from rulekit.tree import GameTree, default_players  # noqa: E402

BIG = ["games/coup.rules", "games/skull.rules", "games/lugenbeutel.rules", "games/dtc.rules",
       "games/nimms_leich.rules", "docs/examples/coin_bluff.rules"]
KUHN = "docs/examples/kuhn_poker.rules"
LIARS_DICE = "games/liars_dice.rules"


def rejections() -> None:
    print("given up (no cache; loading included)")
    for rel in BIG:
        path = str(ROOT / rel)
        game = load(path)
        low, high = game.players
        for n in sorted({default_players(game), 2} & set(range(low, high + 1))):
            start = time.perf_counter()
            policy = solved.solve(path, (), n, cache=False)
            took = time.perf_counter() - start
            solved.solve(path, (), n)             # (with the cache on, for its reason)
            why = solved.why_unsolved(path, (), n)
            print(f"  {rel:34} {n} players  {took * 1000:7.1f} ms  {'solved?!' if policy else why}")


def solving(rel: str, openspiel: bool, sampled: int) -> None:
    path = str(ROOT / rel)
    engine = Engine(load(path))
    settings = solved.SolverSettings()
    start = time.perf_counter()
    flat = solved._enumerate(GameTree(engine, 2), settings.budget)
    enumeration = time.perf_counter() - start
    start = time.perf_counter()
    policy = solved.solve(path, (), 2, engine=engine)
    total = time.perf_counter() - start
    solved.clear_memo()
    start = time.perf_counter()
    solved.solve(path, (), 2, engine=engine)
    reread = time.perf_counter() - start
    print(f"{rel}: {policy.nodes:,} nodes ({len(flat.kind):,}), {policy.infosets:,} information sets "
          f"({len(policy.table):,} at the start of an action), {policy.iterations} CFR+ iterations")
    print(f"  solve {total:.2f} s (enumeration alone {enumeration:.2f} s), read from the cache {reread * 1000:.1f} ms")
    print(f"  exploitability (solver's own) {policy.exploitability:.6f}")
    if openspiel:
        from open_spiel.python.algorithms import exploitability
        from rulekit.openspiel import load_game, player_policy
        from test_solved import _bot_policy
        game = load_game(path, players=2)
        start = time.perf_counter()
        exact = exploitability.exploitability(game, _bot_policy(game, policy))
        print(f"  exploitability (OpenSpiel, the bot's exact policy) {exact:.6f}  "
              f"[{time.perf_counter() - start:.1f} s]")
        if sampled:
            class Refuses:
                def choose(self, view, decision):
                    raise AssertionError("not in the table")
            start = time.perf_counter()
            estimate = exploitability.exploitability(game, player_policy(
                game, lambda k: solved.SolvedBot(policy, random.Random(k), Refuses()), sampled))
            print(f"  exploitability (OpenSpiel, the bot sampled {sampled} times) {estimate:.6f}  "
                  f"[{time.perf_counter() - start:.1f} s]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--liars-dice", action="store_true", help="also Liar's Dice 1 die (about 30 s)")
    parser.add_argument("--openspiel", action="store_true", help="measure with OpenSpiel's best response")
    parser.add_argument("--sampled", type=int, default=0, help="also the sampled bot, N samples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[solved.CACHE_ENV] = folder
        rejections()
        solving(KUHN, args.openspiel, args.sampled)
        if args.liars_dice:
            solving(LIARS_DICE, args.openspiel, 0)


if __name__ == "__main__":
    main()
