"""Benchmark: what a step of a different shape would cost. Liar's Dice written as a
generator that knew everything about the game at generation time could write it
(straight-line Python over the fields of rulekit's own ``State`` and ``Action`` tuples, the
same API: ``new_match``, ``legal_actions``, ``apply``), against rulekit's engine on the same
positions; and the low-level loop of each as a ratio to the hand-written game of
``bench_ratio.py``, interleaved. The figures are quoted in docs/design.md ("Where a step's
time goes"). A measurement, never a test.

Run: python benchmarks/bench_step_shape.py [--repeats 3] [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from bench_ratio import hand_loop, rulekit_loop

from rulekit import Engine, load
from rulekit.engine.state import Action, State

ROOT = Path(__file__).resolve().parent.parent
_new = tuple.__new__
WILD = 5                                # the kind of the face 6 (kinds are faces 1..6 in order)


class StraightLine:
    """Liar's Dice for two players as straight-line code over the state's fields (the
    prototype of docs/design.md; not a second engine: nothing else uses it). Its
    ``new_match`` and ``apply`` return (state, no events), as the engine's do with
    ``events=False``, so that one loop (``bench_ratio.rulekit_loop``) measures both."""

    def __init__(self):
        self.bids: dict = {}
        self.liar = _new(Action, ("liar", (), ()))

    def bid(self, q: int, f: int) -> Action:
        a = self.bids.get((q, f))
        if a is None:
            a = self.bids[(q, f)] = _new(Action, ("bid", (), (q, f)))
        return a

    def new_match(self, n: int, rng: random.Random, events: bool = False) -> tuple:
        zones = tuple((int(rng.random() * 6),) for _ in range(n))
        return _new(State, (n, zones, (), (0, 0, 0), 0, (), (None,) * n, None, None, (), 1, (), (), (0,) * n, ())), ()

    def legal_actions(self, state: State) -> list:
        if state.phase < 0:
            return []
        zones, out, claim = state.zones, state.out, state.claim
        total = (0 if out[0] else len(zones[0])) + (0 if out[1] else len(zones[1]))
        bid = self.bid
        if claim is None:
            return [bid(q, f) for q in range(1, total + 1) for f in range(1, 7)]
        sq, sf = claim[1]
        found = [bid(q, f) for q in range(sq, total + 1) for f in range(1, 7) if q > sq or f > sf]
        found.append(self.liar)
        return found

    def apply(self, state: State, action: Action, rng: random.Random, events: bool = False) -> tuple:
        n, zones, counters, seats, phase, poll, votes, claim, claimed, known, deal, groups, _, out, _ = state
        if phase < 0:
            raise ValueError("the match is over")
        seat = seats[0]
        name, cards, params = action
        if name == "bid":
            if cards or len(params) != 2:
                raise ValueError("a bid chooses two values")
            q, f = params
            total = (0 if out[0] else len(zones[0])) + (0 if out[1] else len(zones[1]))
            if type(q) is not int or not 1 <= q <= total or type(f) is not int or not 1 <= f <= 6:
                raise ValueError("no such bid")
            if not (claim is None or claim[0] != 0 or (q, f) > claim[1]):
                raise ValueError("a bid must be higher than the last one")
            following = (seat + 1) % n
            while out[following]:
                following = (following + 1) % n
            return _new(State, (n, zones, counters, (following, seat, seat), 0, (), votes, (0, (q, f), seat), None,
                                known, deal, groups, (), out, ())), ()
        if name == "liar":
            if cards or params or claim is None:
                raise ValueError("liar needs a standing bid")
            known = known + tuple((-1, z, zones[z], False) for z in range(n) if not out[z])
            f = claim[1][1]
            shown = sum(1 for z in range(n) if not out[z] for k in zones[z] if k + 1 == f or k == WILD)
            loser = seat if shown >= claim[1][0] else claim[2]
            out = tuple(1 if s == loser else o for s, o in enumerate(out))
            return _new(State, (n, zones, counters, (seat, seat, claim[2]), -1, (), votes, claim, None, known, deal,
                                groups, tuple(s for s in range(n) if not out[s]), out, ())), ()
        raise ValueError(f"no action {name!r}")


def per_call(engine: Engine, game: StraightLine) -> dict:
    """µs a call of each part, rulekit and the prototype, on the same positions."""
    rng = random.Random(3)
    pairs = []
    for _ in range(3000):
        state, _ = engine.new_match(2, rng, events=False)
        while state.phase >= 0:
            action = rng.choice(engine.legal_actions(state))
            pairs.append((state, action))
            state, _ = engine.apply(state, action, rng, events=False)
    bids = [(s, a) for s, a in pairs if a.name == "bid"]
    liars = [(s, a) for s, a in pairs if a.name == "liar"]
    r = random.Random(0)

    def best(fn, items) -> float:
        took = []
        for _ in range(5):
            start = time.perf_counter()
            fn(items)
            took.append(time.perf_counter() - start)
        return min(took) / len(items) * 1e6

    return {
        "a new match": (best(lambda it: [engine.new_match(2, r, events=False) for _ in it], liars),
                        best(lambda it: [game.new_match(2, r) for _ in it], liars)),
        "the legal actions": (best(lambda it: [engine.legal_actions(s) for s, _ in it], pairs),
                              best(lambda it: [game.legal_actions(s) for s, _ in it], pairs)),
        "apply a bid": (best(lambda it: [engine.apply(s, a, r, events=False) for s, a in it], bids),
                        best(lambda it: [game.apply(s, a, r) for s, a in it], bids)),
        "apply 'liar'": (best(lambda it: [engine.apply(s, a, r, events=False) for s, a in it], liars),
                         best(lambda it: [game.apply(s, a, r) for s, a in it], liars)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    game = StraightLine()
    for part, (ours, straight) in per_call(engine, game).items():
        print(f"{part:18}  rulekit {ours:5.2f} µs   straight-line {straight:5.2f} µs")
    ratios: dict = {"rulekit": [], "straight-line": []}
    for r in range(args.repeats):
        hand = hand_loop(args.seconds, r)
        ratios["rulekit"].append(rulekit_loop(engine, args.seconds, r) / hand)
        ratios["straight-line"].append(rulekit_loop(game, args.seconds, r) / hand)
    for name, values in ratios.items():
        print(f"low-level loop ÷ hand-written, {name}: 1/{1 / statistics.median(values):.1f} (median of {args.repeats})")


if __name__ == "__main__":
    main()
