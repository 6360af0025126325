"""A scripted Nimm's Leich player (games/nimms_leich.rules), a yardstick for the generic bot.

It computes exactly how likely a bid is: its own card, the hands it has inspected, and every
way the unseen cards can fill the other hands. On its turn it challenges when that beats its
best raise, else raises to the likeliest higher bid; it votes with the likelier side. It
spends its inspector chips just before its own bid, while it knows no other hand.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from rulekit.engine import Action
from rulekit.players.base import random_legal

BODIES = 6


class Bot:
    def __init__(self, engine, rng):
        self.rng = rng
        self.pictures = [[dict(k.attrs).get(f"B{b + 1}", 0) for b in range(BODIES)] for k in engine.kinds]

    def choose(self, view, decision):
        if decision.rejected is not None:         # never expected: the rules said no
            return random_legal(decision, self.rng)
        if decision.phase == "inspect":
            return self.inspect(view, decision)
        chances = self.chances(view)
        holds = lambda n, b: sum(p for total, p in chances[b].items() if total >= n)
        if decision.phase == "thumbs":
            up = Action("thumb_up", (), ())
            fist = Action("fist", (), ())
            n, b = view.claim[1]
            prefer, other = (up, fist) if holds(n, b) >= 0.5 else (fist, up)
            return prefer if decision.check(prefer) is None else other
        # our bid: challenge, or the likeliest raise
        top = max(max(c) for c in chances)
        n0, b0 = view.claim[1] if view.claim else (0, -1)
        raises = [(holds(n, b), -n, b) for n in range(max(n0, 1), top + 1) for b in range(BODIES)
                  if n > n0 or b > b0]
        best = max(raises, default=None)
        challenge = 1 - holds(n0, b0) if view.claim else -1.0
        if best is None or challenge > best[0]:
            return Action("challenge", (), ())
        return Action("raise", (), (-best[1], best[2]))

    def chances(self, view) -> list:
        """For each body: {total pictures in all hands: probability}."""
        shown = {owner: cards for zone, owner, cards in view.known if zone == "hand"}
        shown[view.seat] = view.zone("hand", view.seat)[1]
        hidden = [s for s in range(view.players) if s not in shown and view.zone("hand", s)[0]]
        seen = Counter(c for cards in shown.values() for c in cards)
        pool = [c for c in range(len(self.pictures)) if not seen[c]]
        base = [sum(self.pictures[c][b] for cards in shown.values() for c in cards) for b in range(BODIES)]
        result = [Counter() for _ in range(BODIES)]
        combos = list(combinations(pool, len(hidden)))
        for combo in combos:
            for b in range(BODIES):
                result[b][base[b] + sum(self.pictures[c][b] for c in combo)] += 1 / len(combos)
        return result

    def inspect(self, view, decision):
        chips = dict(view.counters)["chips"][view.seat]
        mine_next = dict(view.seats)["current"] == view.seat
        if chips and mine_next and not any(zone == "hand" for zone, _, _ in view.known):
            option = next(o for o in decision.options if o.name == "inspect")
            return Action("inspect", (), (self.rng.choice(dict(option.params)["suspects"]),))
        return Action("decline", (), ())
