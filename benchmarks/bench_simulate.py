"""Benchmark: ``simulate``'s matches a second on Liar's Dice with random bots, as a ratio to
the hand-written Liar's Dice of ``bench_ratio.py`` measured in the same run (whole matches:
per-match set-up counts, as it does in a simulation).

Run: python benchmarks/bench_simulate.py [--repeats 5] [--seconds 1.0]

Each repeat measures, interleaved: (b) the hand-written game's matches a second with random
legal moves; (s) ``rulekit.analysis.simulation.play_matches`` (what one worker of
``rulekit simulate --bots random --workers 1`` runs, without the command's start-up). The
table gives each repeat and the median ratio. A measurement, never a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bench_ratio import hand_play

from rulekit.analysis import simulation

ROOT = Path(__file__).resolve().parent.parent


def simulated_games(seconds: float, seed: int) -> float:
    """Matches a second of ``play_matches`` on games/liars_dice.rules, two random bots."""
    path = ROOT / "games" / "liars_dice.rules"
    spec = simulation.SimulationSpec(path.read_text(), str(path), (), 2, "random", seed)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        simulation.play_matches(spec, games, 500)
        games += 500
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    ratios = []
    for r in range(args.repeats):
        hand, sim = hand_play(args.seconds, r)[1], simulated_games(args.seconds, r)
        ratios.append(sim / hand)
        print(f"repeat {r + 1}: hand-written {hand:,.0f} matches/s, simulate {sim:,.0f} matches/s, 1/{hand / sim:.1f}")
    print(f"median: simulate ÷ hand-written = 1/{1 / statistics.median(ratios):.1f}")


if __name__ == "__main__":
    main()
