"""A scripted DTC player (games/dtc.rules), a yardstick for the generic bot.

It judges an offer by how often the generic bot's offers of that size and kind are true
(a measured table) and by counting cards (an offer the unseen cards cannot fill is a lie);
once the stock is empty it refuses when ending the game now likely wins. It gives its
largest honest offer, else the cheapest lie (fewest cards, junk first).
"""

from __future__ import annotations

from collections import Counter

from rulekit.engine import Action
from rulekit.players.base import random_legal

JOKER = "joker"
# How often the generic bot's offers of k cards (index k, 8 or more at 8) were true, measured
# over 150 matches among generic bots, by context: a fresh offer, or after accepting an offer
# (k', v'): the same value, the same count and a higher value ("up"), or more cards.
HONESTY = {
    "fresh": (1, 1, .99, .88, .73, .57, .4, .3, .2),
    "same": (1, 1, 1, 1, .96, .86, .83, .74, .73),
    "more": (1, 1, 1, .93, .7, .51, .39, .33, .05),
    "up": (1, 1, .75, .46, .24, .15, .03, 0, 0),
}


class Bot:
    uses_history = True

    def __init__(self, engine, rng):
        self.rng = rng
        self.label = [engine.kind_label(i) for i in range(len(engine.kinds))]
        self.deck = Counter({i: (12 if lab == JOKER else 9) for i, lab in enumerate(self.label)})

    def value(self, card) -> int:
        return 0 if self.label[card] == JOKER else int(self.label[card])

    def choose(self, view, decision):
        if decision.rejected is not None:         # never expected: the rules said no
            return random_legal(decision, self.rng)
        hand = view.zone("hand", view.seat)[1]
        if decision.phase == "give":
            return self.give(view, hand)
        k, v = view.claim[1]
        donor = view.claim[2]
        seen = Counter(hand) + Counter(c for _, _, cards in view.known for c in cards)
        unseen = self.deck - seen
        good = sum(n for c, n in unseen.items() if self.value(c) in (0, v))
        before = self.accepted_before(view.history, donor)    # the offer the donor accepted, if any
        sure = before[0] if before[1] == v else 0
        context = "fresh" if before == (0, 0) else "same" if sure else "up" if before[0] == k else "more"
        p_true = 0.0 if good + sure < k else HONESTY[context][min(k, 8)]
        if view.zone("stock")[0] == 0:                          # a refusal now ends the game (D3)
            refuse = self.wins_if_refused(view, k, donor, p_true) >= 0.4
        else:
            can_go_on = v < 6 or any(self.value(c) in (0, v) for c in hand)
            refuse = p_true < (0.4 if can_go_on else 0.8)
        accept = Action("accept", (), ())
        return accept if not refuse and decision.check(accept) is None else Action("refuse", (), ())

    @staticmethod
    def accepted_before(history, donor) -> tuple:
        """(count, value) of the offer the donor accepted just before his offer, or (0, 0)."""
        events = [e for e in history if e.kind in ("claim", "action")]
        if len(events) >= 4 and events[-3].kind == "action" and events[-3].data["action"] == "accept" \
                and events[-3].data["seat"] == donor and events[-4].kind == "claim":
            return tuple(events[-4].data["args"])
        return (0, 0)

    def wins_if_refused(self, view, k, donor, p_true) -> float:
        final = {s: view.zone("penalty", s)[0] + view.zone("hand", s)[0] for s in range(view.players)}
        me = view.seat
        if_true = final[me] + k <= min(f for s, f in final.items() if s != me)
        if_false = final[me] <= min(f + (k if s == donor else 0) for s, f in final.items() if s != me)
        return p_true * if_true + (1 - p_true) * if_false

    def give(self, view, hand):
        k, v = view.claim[1] if view.claim else (0, 0)        # the offer just accepted, to beat
        jokers = [c for c in hand if self.value(c) == 0]
        best = None                       # the honest offer of most cards, naturals before jokers
        for u in range(1, 7):
            naturals = [c for c in hand if self.value(c) == u]
            n = len(naturals) + len(jokers)
            if (n > k or (n == k and u > v)) and (best is None or (n, len(naturals)) > best[:2]):
                best = (n, len(naturals), u, naturals + jokers)
        if best:
            return Action("offer", tuple(sorted(best[3])), (best[2],))
        # no honest offer: the cheapest lie, junk first (keep jokers and pairs)
        n, u = (k, v + 1) if v < 6 else (k + 1, max(range(1, 7), key=lambda x: sum(self.value(c) == x for c in hand)))
        spare = sorted(hand, key=lambda c: (self.value(c) == 0, Counter(map(self.value, hand))[self.value(c)]))
        return Action("offer", tuple(sorted(spare[:n])), (u,))
