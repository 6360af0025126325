"""Benchmark: ``simulate``'s matches a second on Liar's Dice with random bots, as a ratio to
the hand-written Liar's Dice of ``bench_ratio.py`` measured in the same run (whole matches:
per-match set-up counts, as it does in a simulation).

Run: python benchmarks/bench_simulate.py [--repeats 5] [--seconds 1.0]

Each repeat measures, interleaved: (b) the hand-written game's matches a second with random
legal moves; (s) ``rulekit.analysis.simulation.play_matches`` (what one worker of
``rulekit simulate --bots random --workers 1`` runs, without the command's start-up). The
table gives each repeat and the median ratio.

Then the cost of ``simulate``'s statistics: Lügenbeutel, 4 random bots, decisions a second
of ``play_matches`` against the bare loop of the same matches (the same seeds and bots
through ``play_match``, nothing watching, no knowledge tracked, as ``simulate`` plays
them), interleaved, the median of the repeats' ratios.
A measurement, never a test.
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


def statistics_cost(seconds: float, seed: int) -> tuple[float, float]:
    """(decisions a second of ``play_matches``, of the bare loop) on games/lugenbeutel.rules
    with four random bots: the same matches, chunks of 10 taken in turn."""
    from rulekit.play.match import play_match
    from rulekit.players import make_bot

    path = ROOT / "games" / "lugenbeutel.rules"
    spec = simulation.SimulationSpec(path.read_text(), str(path), (), 4, "random", seed * 100_000)
    engine = simulation.engine_for(spec)
    took = [0.0, 0.0]
    steps = [0, 0]
    k = 0
    while sum(took) < 2 * seconds:
        start = time.perf_counter()
        steps[0] += sum(o.decisions for o in simulation.play_matches(spec, k, 10))
        took[0] += time.perf_counter() - start
        start = time.perf_counter()
        for j in range(k, k + 10):
            bots = [make_bot("random", engine, spec.seed + j, s, players=4) for s in range(4)]
            steps[1] += play_match(engine, bots, 4, spec.seed + j, keep_log=False, knowledge=False).steps
        took[1] += time.perf_counter() - start
        k += 10
    return steps[0] / took[0], steps[1] / took[1]


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
    costs = []
    for r in range(args.repeats):
        sim, bare = statistics_cost(args.seconds, r)
        costs.append(sim / bare)
        print(f"repeat {r + 1}: Lügenbeutel 4p random, simulate {sim:,.0f} decisions/s, bare loop {bare:,.0f}, "
              f"{sim / bare:.2f}")
    print(f"median: simulate ÷ bare loop, per decision = {statistics.median(costs):.2f}")


if __name__ == "__main__":
    main()
