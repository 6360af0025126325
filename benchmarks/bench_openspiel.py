"""Benchmark: random play through rulekit's OpenSpiel adapter, against OpenSpiel's own games
measured in the same run.

Run: python benchmarks/bench_openspiel.py [--repeats 5] [--seconds 1.0] [--json out.json]

Each repeat measures, interleaved, the steps per second (chance outcomes and decisions,
each one ``apply_action``) of whole random matches played through the pyspiel API:

* OpenSpiel's C++ ``kuhn_poker`` and ``liars_dice`` (numdice 1), and its pure-Python
  ``python_kuhn_poker``;
* ``docs/examples/kuhn_poker.rules`` and ``games/liars_dice.rules`` through
  ``rulekit.openspiel.load_game``, with the game tree keeping the transitions it met (the
  default) and keeping none (``cache_size=0``).

Every figure is also a ratio to ``python_kuhn_poker`` of the same repeat (the issue's
target: the adapter on Kuhn poker at 0.5 of it or more); the table shows medians and the
lowest and highest ratio of a repeat. A measurement, never a test. Needs
``pip install "rulekit[openspiel]"``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import pyspiel
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

from rulekit.openspiel import load_game

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "python_kuhn_poker"


def steps_per_second(game, seconds: float, seed: int) -> float:
    """Random matches (chance by its probabilities, uniformly random legal actions) for
    about ``seconds``: steps per second."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, probabilities)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def games() -> dict:
    kuhn = str(ROOT / "docs" / "examples" / "kuhn_poker.rules")
    dice = str(ROOT / "games" / "liars_dice.rules")
    return {
        "kuhn_poker (OpenSpiel, C++)": pyspiel.load_game("kuhn_poker"),
        "python_kuhn_poker (OpenSpiel, Python)": pyspiel.load_game(REFERENCE),
        "liars_dice (OpenSpiel, C++)": pyspiel.load_game("liars_dice", {"numdice": 1}),
        "kuhn_poker.rules (adapter)": load_game(kuhn),
        "kuhn_poker.rules (adapter, cache_size=0)": load_game(kuhn, cache_size=0),
        "liars_dice.rules (adapter)": load_game(dice),
        "liars_dice.rules (adapter, cache_size=0)": load_game(dice, cache_size=0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--json", help="write every repeat's figures here")
    args = parser.parse_args()
    measured = games()
    reference = next(name for name in measured if REFERENCE in name)
    runs: dict = {name: [] for name in measured}
    ratios: dict = {name: [] for name in measured}
    for repeat in range(args.repeats):
        this = {name: steps_per_second(game, args.seconds, repeat) for name, game in measured.items()}
        for name, value in this.items():
            runs[name].append(value)
            ratios[name].append(value / this[reference])
    print(f"{'figure':44} {'steps/s':>10} {'÷ ' + REFERENCE:>20}   lowest … highest ratio")
    for name in measured:
        low, high = min(ratios[name]), max(ratios[name])
        print(f"{name:44} {statistics.median(runs[name]):>10,.0f} {statistics.median(ratios[name]):>20.2f}"
              f"   {low:.2f} … {high:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"steps_per_second": runs, "ratio": ratios}, indent=2))


if __name__ == "__main__":
    main()
