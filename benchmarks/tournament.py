"""Tournament: every bot against every bot in every shipped game, with Wilson intervals.

Run: python benchmarks/tournament.py [--matches 40] [--bots random,generic,search]
                                     [--games coup,skull] [--workers 2] [--out table.md]

For each game (4 players, or the game's only count) and each ordered pair of bot kinds
(A, B), A != B, one A plays against B in every other seat, for ``--matches`` matches; A
moves one seat on in each match, so that every seat is played equally. The table gives A's
share of the wins (a shared win counts as a share), its 95 % Wilson interval and the fair
share (1 / players), and, for each bot kind and game, its decisions per second (the time
spent in its ``choose``, over the decisions it made). Matches are seeded (match i of a
pairing uses seed i), so a run is repeatable; ``--workers`` plays pairings in parallel.

A measurement, never a test: the figures go in notes and docs, not into assertions.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.stem for p in (ROOT / "games").glob("*.rules"))


class _Timed:
    """A player that counts its decisions and the seconds it spends choosing them."""

    def __init__(self, player):
        self.player = player
        self.seconds = 0.0
        self.decisions = 0
        for attr in ("uses_history", "uses_texts", "uses_view"):
            if hasattr(player, attr):
                setattr(self, attr, getattr(player, attr))

    def choose(self, view, decision):
        start = time.perf_counter()
        try:
            return self.player.choose(view, decision)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1


def players_for(game: str) -> int:
    """4, or the game's only player count (or its lowest when 4 is not allowed)."""
    from rulekit import load
    low, high = load(str(ROOT / "games" / f"{game}.rules")).players
    return 4 if low <= 4 <= high else low


def pairing(game: str, a: str, b: str, matches: int, max_decisions: int) -> dict:
    """One A against B in every other seat, ``matches`` matches: A's wins (shares), errors,
    and per kind (seconds, decisions)."""
    from rulekit import Engine, load, play_match
    from rulekit.players import make_bot

    path = str(ROOT / "games" / f"{game}.rules")
    engine = Engine(load(path))
    n = players_for(game)
    wins = 0.0
    failed = 0
    time_of = {a: [0.0, 0], b: [0.0, 0]}
    for i in range(matches):
        seat = i % n
        players = [_Timed(make_bot(a if s == seat else b, engine, i, s, source=path, players=n)) for s in range(n)]
        try:
            record = play_match(engine, players, n, seed=i, keep_log=False, max_steps=max_decisions)
        except Exception:            # a match that does not end counts as lost for A
            failed += 1
            record = None
        if record is not None and seat in record.winners:
            wins += 1 / len(record.winners)
        for s, p in enumerate(players):
            kind = a if s == seat else b
            time_of[kind][0] += p.seconds
            time_of[kind][1] += p.decisions
    return {"game": game, "a": a, "b": b, "players": n, "matches": matches, "wins": wins, "failed": failed,
            "time": time_of}


def main(argv=None) -> int:
    from rulekit.analysis.stats import wilson

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (default 40)")
    parser.add_argument("--bots", default="random,generic,search,auto",
                        help="comma-separated bot kinds (default random,generic,search,auto; auto: solved where "
                             "the game can be solved, else search)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game names (default: all shipped)")
    parser.add_argument("--workers", type=int, default=1, help="pairings played in parallel (default 1)")
    parser.add_argument("--max-decisions", type=int, default=20_000, help="a match longer than this is lost by A (default 20,000)")
    parser.add_argument("--out", type=Path, help="also write the table (Markdown) to this file")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"--games: {unknown[0]!r} is not a shipped game (one of {', '.join(GAMES)})")
    jobs = [(g, a, b, args.matches, args.max_decisions) for g in games for a in bots for b in bots if a != b]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(pairing, *zip(*jobs)))
    else:
        results = [pairing(*job) for job in jobs]

    lines = ["| game | players | bot | against | wins | 95 % interval | fair share | failed |",
             "|---|---|---|---|---|---|---|---|"]
    speed: dict = {}
    for r in results:
        low, high = wilson(r["wins"], r["matches"])
        lines.append(f"| {r['game']} | {r['players']} | {r['a']} | {r['b']} | {r['wins'] / r['matches']:.1%} "
                     f"| [{low:.1%}, {high:.1%}] | {1 / r['players']:.0%} | {r['failed']} |")
        for kind, (seconds, decisions) in r["time"].items():
            s = speed.setdefault((r["game"], kind), [0.0, 0])
            s[0] += seconds
            s[1] += decisions
    lines += ["", "| game | bot | decisions | decisions per second | seconds per decision |", "|---|---|---|---|---|"]
    for (game, kind), (seconds, decisions) in sorted(speed.items()):
        rate = decisions / seconds if seconds else float("inf")
        lines.append(f"| {game} | {kind} | {decisions} | {rate:,.0f} | {seconds / max(decisions, 1):.4f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
