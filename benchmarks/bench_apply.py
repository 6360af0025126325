"""Benchmark: what one step costs on Lügenbeutel, and how much of it a mutable state with
undo could save.

Run: python benchmarks/bench_apply.py [--repeats 5] [--steps 20000] [--json out.json]

It records ``--steps`` positions of random 4-player matches (state, a random legal action),
then, interleaved in each repeat, measures:

* ``apply``: steps per second of ``Engine.apply(state, action, rng, False, False)`` over the
  recorded positions (no events, no texts: a bot's look-ahead); and microseconds per step
  of each action (play, call, decline…);
* ``untracked``: the same over the same positions tracking nothing of what the seats know
  (``known`` None, as on a copy from ``Engine.working_copy(state, knowledge=False)``: the
  steps of the search bot's random play-outs);
* ``frame``: microseconds of the copy-on-write frame of a step alone: unpacking a state,
  copying its zones, counters and seats to lists and making the new ``State`` of them, the
  part a mutable per-match state with an undo log would no longer pay (and it would pay
  for its log instead). The rest of a step is its effects (card moves, what is known of
  them, chance, the window's poll), which a mutable state does not make cheaper;
* the hand-written Liar's Dice loop of ``bench_ratio.py`` (decisions per second), so that
  each repeat's figures can be read as ratios on a shared, noisy machine.

docs/design.md ("Where the speed targets stand") quotes these figures. A measurement,
never a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

from bench_ratio import hand_loop

from rulekit import Engine, load
from rulekit.engine.state import State

ROOT = Path(__file__).resolve().parent.parent
_new = tuple.__new__


def recorded(engine: Engine, count: int, seed: int) -> list:
    """``count`` (state, action) pairs of random 4-player matches."""
    rng = random.Random(seed)
    pairs: list = []
    while len(pairs) < count:
        state, _ = engine.new_match(4, rng, events=False)
        while not state.is_terminal and len(pairs) < count:
            action = rng.choice(engine.legal_actions(state, 60))
            pairs.append((state, action))
            state, _ = engine.apply(state, action, rng, False, False)
    return pairs


def apply_rate(engine: Engine, pairs: list, seed: int) -> tuple[float, dict]:
    """(steps per second over ``pairs``, {action name: microseconds per step})."""
    rng, apply, clock = random.Random(seed), engine.apply, time.perf_counter
    start = clock()
    for state, action in pairs:
        apply(state, action, rng, False, False)
    rate = len(pairs) / (clock() - start)
    by_name: dict = defaultdict(list)
    for pair in pairs:
        by_name[pair[1].name].append(pair)
    per_action = {}
    for name, some in sorted(by_name.items()):
        start = clock()
        for state, action in some:
            apply(state, action, rng, False, False)
        per_action[name] = 1e6 * (clock() - start) / len(some)
    return rate, per_action


def frame(state: State) -> State:
    """The copy-on-write frame of a step (what every generated step does around its effects)."""
    n, zones, counters, seats, phase, poll, votes, claim, claimed, known, deal, groups, _, out, stack = state
    seats = list(seats)
    seats[1] = seats[0]
    counters = list(counters)
    zones = list(zones)
    return _new(State, (n, tuple(zones), tuple(counters), tuple(seats), phase, poll, votes, claim, claimed,
                        known, deal, groups, (), out, stack))


def frame_cost(pairs: list) -> float:
    """Microseconds of :func:`frame` per step over ``pairs``."""
    clock = time.perf_counter
    start = clock()
    for state, _ in pairs:
        frame(state)
    return 1e6 * (clock() - start) / len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    engine = Engine(load(ROOT / "games" / "lugenbeutel.rules"))
    pairs = recorded(engine, args.steps, 7)
    untracked = [(state._replace(known=None), action) for state, action in pairs]
    runs = []
    for r in range(args.repeats):
        rate, per_action = apply_rate(engine, pairs, r)
        untracked_rate, _ = apply_rate(engine, untracked, r)
        runs.append({"apply_steps_per_s": rate, "apply_us": 1e6 / rate, "frame_us": frame_cost(pairs),
                     "untracked_steps_per_s": untracked_rate,
                     "per_action_us": per_action, "hand_decisions_per_s": hand_loop(1.0, r)})
    med = statistics.median
    apply_us, frame_us = med(x["apply_us"] for x in runs), med(x["frame_us"] for x in runs)
    print(f"Lügenbeutel, 4 players, {len(pairs):,} recorded steps, {args.repeats} repeats (medians)")
    print(f"  apply: {med(x['apply_steps_per_s'] for x in runs):,.0f} steps/s ({apply_us:.2f} µs a step); "
          f"÷ the hand-written Liar's Dice loop's decisions: "
          f"1/{med(x['hand_decisions_per_s'] / x['apply_steps_per_s'] for x in runs):.1f}")
    print(f"  apply tracking no knowledge: {med(x['untracked_steps_per_s'] for x in runs):,.0f} steps/s")
    print(f"  the copy-on-write frame, with its call: {frame_us:.2f} µs a step "
          f"(at most {100 * frame_us / apply_us:.0f} % of a step)")
    for name in runs[0]["per_action_us"]:
        print(f"  {name}: {med(x['per_action_us'][name] for x in runs):.2f} µs a step")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
