"""One game-specific scripted bot against three generic bots (and, as a sanity check, against
three random bots), with the scripted seat moving on one seat each match.

Run: python benchmarks/scripted/run.py [--matches 200] [--games dtc,lugenbeutel,nimms_leich]
                                       [--against generic,random]

Match i uses seed i for the deal and for every bot, so a run is repeatable. The table gives
the scripted bot's share of the wins (a shared win counts as a share) with its 95 % Wilson
interval; the fair share with 4 players is 25 %. A measurement, never a test.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
GAMES = ("dtc", "lugenbeutel", "nimms_leich")
PLAYERS = 4


def scripted_share(game: str, against: str, matches: int, max_decisions: int) -> tuple[float, int]:
    """The scripted bot's wins (shares) over ``matches`` matches, and the matches that failed
    (did not end within ``max_decisions``: counted as lost)."""
    from rulekit import Engine, load, play_match
    from rulekit.players import make_bot

    script = importlib.import_module(f"benchmarks.scripted.{game}")
    engine = Engine(load(str(ROOT / "games" / f"{game}.rules")))
    wins, failed = 0.0, 0
    for i in range(matches):
        seat = i % PLAYERS
        players = [script.Bot(engine, random.Random(f"{i}/{s}")) if s == seat else make_bot(against, engine, i, s)
                   for s in range(PLAYERS)]
        try:
            record = play_match(engine, players, PLAYERS, seed=i, keep_log=False, max_steps=max_decisions)
        except Exception:
            failed += 1
            continue
        if seat in record.winners:
            wins += 1 / len(record.winners)
    return wins, failed


def main(argv=None) -> int:
    from rulekit.analysis.stats import wilson

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per row (default 200)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all three)")
    parser.add_argument("--against", default="generic,random", help="opponent bot kinds (default generic,random)")
    parser.add_argument("--max-decisions", type=int, default=20_000, help="a longer match counts as lost")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if any(g not in GAMES for g in games):
        parser.error(f"--games: choose among {', '.join(GAMES)}")
    print("| game | scripted vs 3 × | matches | win share | 95 % interval | failed | seconds |")
    print("|---|---|---|---|---|---|---|")
    for game in games:
        for against in (a.strip() for a in args.against.split(",") if a.strip()):
            start = time.perf_counter()
            wins, failed = scripted_share(game, against, args.matches, args.max_decisions)
            low, high = wilson(wins, args.matches)
            print(f"| {game} | {against} | {args.matches} | {wins / args.matches:.1%} | [{low:.1%}, {high:.1%}] "
                  f"| {failed} | {time.perf_counter() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
