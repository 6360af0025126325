"""A scripted Lügenbeutel player (games/lugenbeutel.rules), a yardstick for the generic bot.

It plays every card of the required rank, else an honest skip or joker, else a one-card lie
(the Lügenbeutel card first): one-card plays are seldom doubted. It calls "Liar!" when the
cards it can see make a play impossible, or when the play would end the deal and the
generic bot's measured lying rate makes a call worth its risk.
"""

from __future__ import annotations

from collections import Counter

from rulekit.engine import Action
from rulekit.players.base import random_legal

COPIES = {"joker": 20, "skip": 6, "Lügenbeutel card": 6}      # edition A; each rank 8 times
LIES = (0, 0.23, 0.28, 0.29, 0.32)        # the generic bot's plays of k cards (4 or more at 4) that were lies


class Bot:
    def __init__(self, engine, rng):
        self.rng = rng
        self.label = [engine.kind_label(i) for i in range(len(engine.kinds))]
        self.kind = {lab: i for i, lab in enumerate(self.label)}

    def choose(self, view, decision):
        if decision.rejected is not None:         # never expected: the rules said no
            return random_legal(decision, self.rng)
        hand = view.zone("hand", view.seat)[1]
        required = dict(view.counters)["required"]
        if decision.phase == "liar":
            return Action("call" if self.doubt(view, hand) else "decline", (), ())
        if decision.phase == "after_pass":
            drawn = view.zone("drawn", view.seat)[1]
            fits = self.label[drawn[0]] in (str(required), "joker")
            return Action("play" if fits or not hand else "keep", (), ())
        rank, joker, skip, bag = (self.kind[x] for x in (str(required), "joker", "skip", "Lügenbeutel card"))
        naturals = [c for c in hand if c == rank]
        jokers = [c for c in hand if c == joker]
        if naturals or len(jokers) == len(hand):
            out = len(naturals) + len(jokers) == len(hand)          # jokers kept for later, unless they finish
            return Action("play", tuple(sorted(naturals + (jokers if out else []))), ())
        if skip in hand and len(hand) > 1:
            return Action("skip", (skip,), ())
        if jokers:
            return Action("play", (joker,), ())
        # a one-card lie: the Lügenbeutel card, else the rank that comes back last
        worst = bag if bag in hand else max(hand, key=lambda c: ((c - rank) % 10, c))
        return Action("play", (worst,), ())

    def doubt(self, view, hand) -> bool:
        """Whether to call the standing claim."""
        name, values, claimant, k, _ = view.claim
        seen = Counter(hand) + Counter(c for _, _, cards in view.known for c in cards)
        if name == "skipping":
            good = ("skip", "joker")
        else:
            good = (str(values[0]), "joker")
        unseen = sum(COPIES.get(lab, 8) - seen[self.kind[lab]] for lab in good)
        if unseen < k:
            return True
        lie = LIES[min(k, 4)] if name == "number" else 0.0
        left = view.zone("hand", claimant)[0]
        if left == 0:                 # the play ends the deal unless it is caught
            return lie > 0.1
        return left <= 2 and lie > 0.25
