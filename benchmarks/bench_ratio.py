"""Benchmark: rulekit's speed as ratios to a hand-written reference measured in the same run.

Run: python benchmarks/bench_ratio.py [--repeats 5] [--seconds 1.0] [--json out.json]

Side by side in one process, interleaved, each repeat measures:

* (a) rulekit's low-level loop (new match, legal actions, apply, recording no events) on
  games/liars_dice.rules with uniformly random legal actions;
* (b) a hand-written pure-Python Liar's Dice with the same rules (below), same loop;
* (c) OpenSpiel's ``liars_dice`` driven from Python, when ``pyspiel`` is installed;
* for every shipped game and player count 4 (or its only count), decisions per second of
  whole matches with random bots and with generic bots through ``play_match``.

Every figure is also given as a ratio to (b) of the same repeat, so that it survives a
shared, noisy machine; the table shows medians over the repeats and the lowest and highest
ratio of a repeat (the JSON has every repeat's ratio). A measurement, never a test.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import statistics
import time
from pathlib import Path

from rulekit import Engine, load
from rulekit.play.match import play_match
from rulekit.players import GenericBot, RandomBot

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------- (b) by hand
class HandLiarsDice:
    """Liar's Dice as OpenSpiel's liars_dice plays it: 2 players, ``dice`` dice each, 6 is
    wild; a bid (q, f) says at least q dice show f (or 6); bids rise by quantity, then face;
    "liar" ends the match: the bidder wins if the bid holds, else the caller."""

    def __init__(self, dice: int = 1):
        self.dice = dice
        self.bids = [(q, f) for q in range(1, 2 * dice + 1) for f in range(1, 7)]

    def new(self, rng: random.Random):
        cups = tuple(tuple(rng.randint(1, 6) for _ in range(self.dice)) for _ in range(2))
        return (cups, -1, 0, None)            # cups, index of the last bid, player to move, winner

    def legal(self, state) -> list[int]:
        _, last, _, _ = state
        moves = list(range(last + 1, len(self.bids)))
        if last >= 0:
            moves.append(-1)                  # liar
        return moves

    def apply(self, state, move: int):
        cups, last, player, _ = state
        if move >= 0:
            return (cups, move, 1 - player, None)
        q, f = self.bids[last]
        shown = sum(1 for cup in cups for d in cup if d == f or d == 6)
        bidder = 1 - player
        return (cups, last, player, bidder if shown >= q else player)


def hand_play(seconds: float, seed: int) -> tuple[float, float]:
    """(decisions, matches) per second of the hand-written game with random legal moves."""
    game = HandLiarsDice()
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            state = game.new(rng)
            while state[3] is None:
                state = game.apply(state, rng.choice(game.legal(state)))
                steps += 1
            games += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def hand_loop(seconds: float, seed: int) -> float:
    """Decisions per second of the hand-written game with random legal moves."""
    return hand_play(seconds, seed)[0]


# ---------------------------------------------------------------------------- (a) rulekit
def rulekit_loop(engine: Engine, seconds: float, seed: int) -> float:
    """Decisions per second of rulekit's low-level loop with random legal actions."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            state, _ = engine.new_match(2, rng, events=False)
            while not state.is_terminal:
                state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)), rng, events=False)
                steps += 1
    return steps / (time.perf_counter() - start)


# ---------------------------------------------------------------------------- (c) OpenSpiel
def openspiel_loop(seconds: float, seed: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice")
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                    continue
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps / (time.perf_counter() - start)


# ---------------------------------------------------------------------------- shipped games
def matches_rate(engine: Engine, n: int, bots: str, seconds: float, seed: int) -> float:
    """Decisions per second of whole matches through play_match, as ``simulate`` plays
    them (no log; nothing tracked of what the seats know where nobody makes a view)."""
    steps = 0
    g = seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        players = [RandomBot(random.Random(f"{g}/{s}")) if bots == "random"
                   else GenericBot(engine, random.Random(f"{g}/{s}")) for s in range(n)]
        steps += play_match(engine, players, n, g, keep_log=False, knowledge=False).steps
        g += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per figure and repeat")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--no-generic", action="store_true", help="skip the generic-bot figures")
    args = parser.parse_args()

    liars = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    games = []
    for path in sorted(glob.glob(str(ROOT / "games" / "*.rules"))):
        engine = Engine(load(path))
        low, high = engine.game.players
        games.append((Path(path).stem, engine, min(max(4, low), high)))

    rows: dict[str, list] = {}

    def record(name, value, reference):
        rows.setdefault(name, []).append((value, value / reference if value is not None else None))

    for r in range(args.repeats):
        reference = hand_loop(args.seconds, r)
        record("liars_dice: hand-written (b)", reference, reference)
        record("liars_dice: rulekit loop (a)", rulekit_loop(liars, args.seconds, r), reference)
        spiel = openspiel_loop(args.seconds, r)
        if spiel is not None:
            record("liars_dice: OpenSpiel (c)", spiel, reference)
        for name, engine, n in games:
            record(f"{name} {n}p random bots", matches_rate(engine, n, "random", args.seconds, r), reference)
            if not args.no_generic:
                record(f"{name} {n}p generic bots", matches_rate(engine, n, "generic", args.seconds, r), reference)

    table = {name: {"decisions_per_s": statistics.median(v for v, _ in values),
                    "ratio_to_hand_written": statistics.median(q for _, q in values),
                    "ratios": [q for _, q in values],
                    "repeats": len(values)} for name, values in rows.items()}

    def shown(ratio):
        return f"1/{1 / ratio:.1f}" if ratio < 1 else f"{ratio:.2f}"

    width = max(len(n) for n in table)
    print(f"{'figure':{width}}  {'decisions/s':>12}  {'÷ hand-written':>14}  {'lowest … highest ratio':>22}")
    for name, fig in table.items():
        spread = f"{shown(min(fig['ratios']))} … {shown(max(fig['ratios']))}"
        median = shown(fig["ratio_to_hand_written"])
        print(f"{name:{width}}  {fig['decisions_per_s']:12,.0f}  {median:>14}  {spread:>22}")
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
