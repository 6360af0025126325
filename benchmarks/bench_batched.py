"""Benchmark: what a batched step would pay, the figure behind the decision on volume in
docs/design.md ("Volume: one step at a time").

Run: python benchmarks/bench_batched.py [--repeats 3] [--seconds 1.0]

Liar's Dice as bench_ratio.py's hand-written game plays it (2 players, one die each, 6
wild, twelve bids, "liar" ends the match), with uniformly random legal moves, written a
third way: NumPy arrays holding ``batch`` matches played in lockstep, one vectorised step
for all of them, a finished match dealt again in its slot. Interleaved in each repeat:
(b) the hand-written scalar game, (a) rulekit's low-level loop on games/liars_dice.rules,
and the batched game at several batch sizes; every figure is decisions a second and its
ratio to (b). The batched game is written by hand, so it is the most a code generator
emitting batched NumPy could reach for this game. A measurement, never a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from bench_ratio import hand_loop, rulekit_loop

from rulekit import Engine, load

ROOT = Path(__file__).resolve().parent.parent

#: the bids in order: (quantity, face) for quantity 1..2 and face 1..6
QUANTITY = np.repeat(np.arange(1, 3), 6)
FACE = np.tile(np.arange(1, 7), 2)
BIDS = len(QUANTITY)


def batched_loop(batch: int, seconds: float, seed: int) -> float:
    """Decisions per second of ``batch`` Liar's Dice matches played in lockstep."""
    gen = np.random.default_rng(seed)
    rows = np.arange(batch)
    dice = gen.integers(1, 7, size=(batch, 2))
    last = np.full(batch, -1)               # the index of the standing bid, -1 for none
    player = np.zeros(batch, dtype=np.int64)
    wins = np.zeros(2, dtype=np.int64)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            above = BIDS - 1 - last                       # the bids still legal
            moves = above + (last >= 0)                   # and "liar" once a bid stands
            pick = (gen.random(batch) * moves).astype(np.int64)
            call = pick >= above
            bid = ~call
            last = np.where(bid, last + 1 + pick, last)
            # "liar": the bid holds when the dice show at least its quantity of its face (or 6)
            if call.any():
                q, f = QUANTITY[last[call]], FACE[last[call]]
                shown = ((dice[call] == f[:, None]) | (dice[call] == 6)).sum(axis=1)
                bidder = 1 - player[call]
                winner = np.where(shown >= q, bidder, player[call])
                wins += np.bincount(winner, minlength=2)
                done = rows[call]
                dice[done] = gen.integers(1, 7, size=(len(done), 2))
                last[done] = -1
                player[done] = 0
            player = np.where(bid, 1 - player, player)
            steps += batch
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    sizes = (1, 64, 1024, 16384)
    rows: dict = {}
    for r in range(args.repeats):
        hand = hand_loop(args.seconds, r)
        figures = {"hand-written (b)": hand, "rulekit loop (a)": rulekit_loop(engine, args.seconds, r)}
        for size in sizes:
            figures[f"batched NumPy, batch {size:,}"] = batched_loop(size, args.seconds, r)
        for name, value in figures.items():
            rows.setdefault(name, []).append((value, value / hand))
    print(f"{'figure':34} {'decisions/s':>13} {'÷ hand-written':>15}")
    for name, values in rows.items():
        value = statistics.median(v for v, _ in values)
        ratio = statistics.median(q for _, q in values)
        shown = f"{ratio:.1f}" if ratio >= 1 else f"1/{1 / ratio:.1f}"
        print(f"{name:34} {value:>13,.0f} {shown:>15}")


if __name__ == "__main__":
    main()
