"""Benchmark: decisions per second of random-bot matches for every shipped game.

Run: python benchmarks/bench_engine.py [--games N]. Prints one line per game and player
count; a measurement, never a test. The interpreter's hot path is Engine.decision +
Engine.apply; views are built for every decision as a player would need them.
"""

from __future__ import annotations

import argparse
import glob
import random
import time
import tracemalloc
from pathlib import Path

from rulekit import Engine, load
from rulekit.players import RandomBot

ROOT = Path(__file__).resolve().parent.parent


def bench(path: str, players: int, games: int) -> tuple[int, float, int]:
    engine = Engine(load(path))
    start = time.perf_counter()
    steps = _play(engine, players, games)
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    _play(engine, players, 1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return steps, elapsed, peak


def _play(engine: Engine, players: int, games: int) -> int:
    steps = 0
    for g in range(games):
        rng = random.Random(g)
        bots = [RandomBot(random.Random(f"{g}/{s}")) for s in range(players)]
        state, _ = engine.new_match(players, rng)
        while not state.is_terminal:
            d = engine.decision(state)
            action = bots[d.seat].choose(engine.view(state, d.seat), d)
            state, _ = engine.apply(state, action, rng)
            steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for path in sorted(glob.glob(str(ROOT / "games" / "*.rules"))):
        low, high = load(path).players
        for n in sorted({low, min(4, high), high}):
            steps, elapsed, peak = bench(path, n, args.games)
            print(f"{Path(path).name:20} {n} players: {args.games} matches, {steps} decisions, "
                  f"{steps / elapsed:,.0f} decisions/s, {elapsed / args.games * 1000:.1f} ms/match, "
                  f"peak {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
