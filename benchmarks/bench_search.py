"""Benchmark: the search bot (rulekit.players.search.SearchBot) — its strength and its speed.

Run: python benchmarks/bench_search.py [--quick] [--parts ismcts,random,speed]
                                      [--matches N] [--ismcts-matches N] [--speed-matches N]
                                      [--iterations N] [--rollout P] [--uct-c 2,0.5] [--games a,b]
                                      [--json out.json]

Three tables:

* ``ismcts``: the search bot (default budget) against OpenSpiel's information-set MCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``: 1,000 simulations, one random
  roll-out per simulation by ``mcts.RandomRolloutEvaluator``, the most visited action;
  ``uct_c`` 2 as OpenSpiel's MCTS example, and 0.5: ``--uct-c``) in Liar's Dice with five
  dice each (``games/liars_dice.rules``, variant ``five_dice``). ISMCTS plays OpenSpiel's
  native ``liars_dice`` (numdice 5) kept in step with the rulekit match: the same dice
  (player 0's first), bid q × f as action (q-1)·6 + f-1 and "liar" as the last action;
  each match checks that both ended with the same winner. The native game has no
  ``resample_from_infostate``: ISMCTS is given a resampler that keeps the dice of the
  seat to act and the bids, and rolls the other seat's dice uniformly (what the
  information state allows). Seats alternate from match to match.
* ``random``: one search bot against three RandomBots in every shipped game that takes 4
  players (its seat rotates), and Liar's Dice (five dice) against one RandomBot.
* ``speed``: seconds per decision of the search bot at its default budget in every shipped
  game at its default player count (as ``rulekit run`` plays it), against RandomBots:
  mean, 95th percentile and the largest, with the iterations and engine steps it ran. A
  decision with one choice (answered without search) is not counted.

A win counts 1/k when k seats share it; rates come with a 95 % Wilson interval. Each table
takes minutes at the default sizes (Lügenbeutel's matches are long: ``--games`` leaves
games out, ``--matches`` sets their number); ``--quick`` plays fewer matches. A measurement, never a
test. The ``ismcts`` table needs ``pip install "rulekit[openspiel]"``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

from rulekit import Engine, load
from rulekit.play.match import play_match, seat_rng
from rulekit.players import RandomBot
from rulekit.players.search import SearchBot
from rulekit.tree import default_players

ROOT = Path(__file__).resolve().parent.parent
#: the games of the tables: a file of games/ and its variants after a colon
GAMES = ["coup", "dtc", "liars_dice:five_dice", "lugenbeutel", "nimms_leich", "skull"]
#: the speed table adds Liar's Dice as it ships (one die each)
SPEED_GAMES = ["coup", "dtc", "liars_dice", "liars_dice:five_dice", "lugenbeutel", "nimms_leich", "skull"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def engine_of(name: str) -> Engine:
    """The engine of ``name``: a file of games/ without ``.rules``, then ``:VARIANT`` for
    each variant applied."""
    stem, *variants = name.split(":")
    return Engine(load(str(ROOT / "games" / f"{stem}.rules"), variants=variants))


def share(seat: int, winners: tuple) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


class Timed:
    """A player that times another's decisions (those with more than one choice)."""

    uses_texts = False

    def __init__(self, bot):
        self.bot = bot
        self.uses_history = getattr(bot, "uses_history", False)
        self.times: list = []

    def choose(self, view, decision):
        start = time.perf_counter()
        action = self.bot.choose(view, decision)
        spent = time.perf_counter() - start
        last = getattr(self.bot, "last", {})
        if last.get("iterations"):
            self.times.append((spent, last["iterations"], last["steps"]))
        return action


# ---------------------------------------------------------------------------- vs ISMCTS
def ismcts_table(matches: int, bot_kwargs: dict, simulations: int = 1000, uct_c: float = 2.0) -> dict:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from rulekit.engine import Action

    engine = engine_of("liars_dice:five_dice")
    native_game = pyspiel.load_game("liars_dice", {"numdice": 5})
    dice = native_game.num_distinct_actions() - 1       # the "liar" action's number
    numdice = 5

    def resampler(rs):
        def resample(state, player):
            history = state.history()
            rolls = list(history[:2 * numdice])
            other = 1 - player
            for i in range(numdice):
                rolls[other * numdice + i] = int(rs.randint(6))
            fresh = native_game.new_initial_state()
            for a in rolls + list(history[2 * numdice:]):
                fresh.apply_action(a)
            return fresh
        return resample

    class Sync:
        """The native state, kept in step with the rulekit match by ``on_events``."""

        def __init__(self):
            self.native = None

        def __call__(self, state, events):
            if self.native is None:
                self.native = native_game.new_initial_state()
                for seat in range(2):
                    for face in state.zones[engine.zone_slot(state, "cup", seat)]:
                        self.native.apply_action(face)      # kinds 0..5 are faces 1..6
                return
            if state.is_terminal:
                self.native.apply_action(dice)
            else:
                q, f = state.claim[1]
                self.native.apply_action((q - 1) * 6 + f - 1)

    class IsmctsPlayer:
        uses_texts = False

        def __init__(self, sync, seed):
            rs = np.random.RandomState(seed)
            self.sync = sync
            self.bot = ismcts.ISMCTSBot(native_game, mcts.RandomRolloutEvaluator(1, rs), uct_c, simulations,
                                        random_state=rs)
            self.bot.set_resampler(resampler(np.random.RandomState(seed + 1)))
            self.times: list = []

        def choose(self, view, decision):
            start = time.perf_counter()
            a = int(self.bot.step(self.sync.native))
            self.times.append(time.perf_counter() - start)
            if a == dice:
                return Action("liar")
            return Action("bid", (), (a // 6 + 1, a % 6 + 1))

    wins = 0.0
    mine: list = []
    theirs: list = []
    for seed in range(matches):
        me = seed % 2
        sync = Sync()
        bot = Timed(SearchBot(engine, seat_rng(seed, me), **bot_kwargs))
        other = IsmctsPlayer(sync, 1000 + seed)
        players = [bot, other] if me == 0 else [other, bot]
        record = play_match(engine, players, 2, seed, on_events=sync, keep_log=False)
        # the two games were in step: the native match is over with the same winner
        assert sync.native.is_terminal() and [s for s in range(2) if sync.native.returns()[s] > 0] == \
            list(record.winners), "the native game fell out of step"
        wins += share(me, record.winners)
        mine += [t for t, _, _ in bot.times]
        theirs += other.times
    low, high = wilson(wins, matches)
    row = {"matches": matches, "wins": wins, "rate": wins / matches, "low": low, "high": high,
           "search_s": statistics.mean(mine) if mine else 0.0, "ismcts_s": statistics.mean(theirs) if theirs else 0.0}
    print(f"\nSearch bot vs OpenSpiel ISMCTS ({simulations} simulations, random roll-outs, uct_c {uct_c}), "
          "Liar's Dice, 5 dice each, seats alternated")
    print(f"{'matches':>8} {'wins':>7} {'rate':>6}  {'95% Wilson':>14}  {'s/decision (search)':>20} {'(ISMCTS)':>9}")
    print(f"{matches:>8} {wins:>7.1f} {wins / matches:>6.1%}  {low:>6.1%} … {high:<6.1%}  "
          f"{row['search_s']:>20.3f} {row['ismcts_s']:>9.3f}", flush=True)
    return row


# ---------------------------------------------------------------------------- vs random
def against_random(engine, n: int, matches: int, bot_kwargs: dict):
    """One search bot (its seat rotating) against RandomBots, match ``seed`` for each seed
    below ``matches``: yields (the search seat, the search bot, the match record)."""
    for seed in range(matches):
        me = seed % n
        bot = Timed(SearchBot(engine, seat_rng(seed, me), **bot_kwargs))
        players = [bot if s == me else RandomBot(seat_rng(seed, s)) for s in range(n)]
        yield me, bot, play_match(engine, players, n, seed, keep_log=False)


def random_table(matches: int, bot_kwargs: dict, only=None) -> dict:
    rows = {}
    print("\nOne search bot against RandomBots (4 seats; Liar's Dice: 2 seats, 5 dice), its seat rotating")
    print(f"{'game':22} {'seats':>5} {'matches':>8} {'wins':>7} {'rate':>6}  {'95% Wilson':>14}  {'chance':>6}")
    for name in only or GAMES:
        engine = engine_of(name)
        low_n, high_n = engine.game.players
        n = 2 if name.startswith("liars_dice") else 4
        if not low_n <= n <= high_n:
            continue
        wins = sum(share(me, record.winners) for me, _, record in against_random(engine, n, matches, bot_kwargs))
        low, high = wilson(wins, matches)
        rows[name] = {"seats": n, "matches": matches, "wins": wins, "rate": wins / matches, "low": low, "high": high}
        print(f"{name:22} {n:>5} {matches:>8} {wins:>7.1f} {wins / matches:>6.1%}  {low:>6.1%} … {high:<6.1%}  "
              f"{1 / n:>6.0%}", flush=True)
    return rows


# ---------------------------------------------------------------------------- speed
def speed_table(matches: int, bot_kwargs: dict, only=None) -> dict:
    rows = {}
    print("\nSeconds per decision at the default budget, default player count, against RandomBots")
    print(f"{'game':22} {'seats':>5} {'decisions':>9} {'mean s':>7} {'p95 s':>7} {'max s':>7} "
          f"{'iterations':>10} {'steps':>7}")
    for name in only or SPEED_GAMES:
        engine = engine_of(name)
        n = default_players(engine.game)
        times: list = []
        for _, timed, _ in against_random(engine, n, matches, bot_kwargs):
            times += timed.times
        spent = sorted(t for t, _, _ in times)
        p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
        rows[name] = {"seats": n, "decisions": len(spent), "mean": statistics.mean(spent), "p95": p95,
                      "max": spent[-1], "iterations": statistics.mean(i for _, i, _ in times),
                      "steps": statistics.mean(s for _, _, s in times)}
        r = rows[name]
        print(f"{name:22} {n:>5} {len(spent):>9} {r['mean']:>7.3f} {p95:>7.3f} {r['max']:>7.3f} "
              f"{r['iterations']:>10.0f} {r['steps']:>7.0f}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="ismcts,random,speed", help="the tables to make, separated by commas")
    parser.add_argument("--quick", action="store_true", help="fewer matches (10, 8 and 2 per table)")
    parser.add_argument("--matches", type=int, help="matches per game against RandomBots (default 40)")
    parser.add_argument("--ismcts-matches", type=int, help="matches against ISMCTS (default 100)")
    parser.add_argument("--speed-matches", type=int, help="matches per game for the speed table (default 4)")
    parser.add_argument("--iterations", type=int, help="the search bot's iterations (default: its default budget)")
    parser.add_argument("--rollout", choices=["random", "generic"], help="the search bot's play-out policy "
                        "(default: its default)")
    parser.add_argument("--uct-c", default="2,0.5", help="ISMCTS's exploration constants, one table each "
                        "(default 2 as OpenSpiel's examples, and 0.5)")
    parser.add_argument("--games", help="only these games in the random and speed tables (separated by "
                        "commas; a variant after a colon: liars_dice:five_dice)")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    parts = args.parts.split(",")
    kwargs = {} if args.iterations is None else {"iterations": args.iterations}
    if args.rollout:
        kwargs["rollout"] = args.rollout
    games = args.games.split(",") if args.games else None
    out = {}
    if "ismcts" in parts:
        out["ismcts"] = {c: ismcts_table(args.ismcts_matches or (10 if args.quick else 100), kwargs, uct_c=float(c))
                         for c in args.uct_c.split(",")}
    if "random" in parts:
        out["random"] = random_table(args.matches or (8 if args.quick else 40), kwargs, games)
    if "speed" in parts:
        out["speed"] = speed_table(args.speed_matches or (2 if args.quick else 4), kwargs, games)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
