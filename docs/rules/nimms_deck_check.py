#!/usr/bin/env python3
"""Construct and verify a concrete Nimm's Leich bluff-card deck.

Constraints taken from the rule texts (the seeds of digest.md, not part of
this repository: Haffner FR translation 000_*, Jeux en Boite FR 001_*, Ingram EN 002_*):

  C1  36 bluff cards, each showing exactly 6 body pictures.
  C2  6 body types; each type appears 36 times over the whole deck.
  C3  distribution of patterns: 6x 4-1-1, 6x 3-3, 6x 3-2-1, 6x 3-1-1-1,
      6x 2-2-2, 6x 2-1-1-1-1                                   (Haffner only)
  C4  at most 4 of one type on a card; at least one type absent from every
      card                                                     (Haffner)
  C5  exactly one card shows 4 of a given type, i.e. the six "4" cards each
      quadruple a different type                               (JeB, Ingram)
  C6  maxima: for any body type, the most it can appear on k cards is
      4/7/10/13/16/18 for k = 1..6                             (Haffner)
  C7  (sanity) no two cards identical.

Construction: cyclic.  Body types are 0..5 (5 = highest rank, the sideways
card).  For each pattern (c_1..c_m) we choose distinct offsets (o_1..o_m) and
card i (i = 0..5) of that group gets c_j pictures of type (i + o_j) mod 6.
Each type therefore fills every slot of every pattern exactly once, so every
type gets the same profile: one 4, four 3s, five 2s, ten 1s (= 36).
Note: C1-C6 do not force "five 2s per type"; they only force one 4 and
exactly four 3s per type and at least one 2 (sixth-best = 2).  The cyclic
choice is the symmetric one, and it makes the deck invariant under rotating
the body types, so the rank order of the bodies does not favour any body.
"""
from collections import Counter
from itertools import combinations
import sys

N_TYPES = 6
# pattern -> offsets (distinct mod 6); chosen so that no two cards coincide
DESIGN = [
    ((4, 1, 1),        (0, 1, 3)),
    ((3, 3),           (0, 1)),      # (0,3) would create duplicate cards
    ((3, 2, 1),        (0, 2, 1)),
    ((3, 1, 1, 1),     (0, 2, 3, 4)),
    ((2, 2, 2),        (0, 1, 3)),   # (0,2,4) would create duplicate cards
    ((2, 1, 1, 1, 1),  (0, 1, 2, 4, 5)),  # type i+3 absent
]
EXPECTED_PATTERNS = {(4, 1, 1): 6, (3, 3): 6, (3, 2, 1): 6, (3, 1, 1, 1): 6,
                     (2, 2, 2): 6, (2, 1, 1, 1, 1): 6}
EXPECTED_MAXIMA = [4, 7, 10, 13, 16, 18]   # k = 1..6


def build_deck():
    deck = []
    for pattern, offsets in DESIGN:
        assert len(pattern) == len(offsets)
        assert len(set(o % N_TYPES for o in offsets)) == len(offsets)
        for i in range(N_TYPES):
            card = [0] * N_TYPES
            for c, o in zip(pattern, offsets):
                card[(i + o) % N_TYPES] += c
            deck.append(tuple(card))
    return deck


def check(deck):
    errors = []
    ok = lambda cond, msg: None if cond else errors.append(msg)
    # C1
    ok(len(deck) == 36, f"C1 deck has {len(deck)} cards")
    for n, card in enumerate(deck):
        ok(sum(card) == 6, f"C1 card {n} shows {sum(card)} pictures")
    # C2
    for t in range(N_TYPES):
        tot = sum(card[t] for card in deck)
        ok(tot == 36, f"C2 type {t} appears {tot} times")
    # C3
    pats = Counter(tuple(sorted((c for c in card if c), reverse=True)) for card in deck)
    ok(dict(pats) == EXPECTED_PATTERNS, f"C3 pattern counts {dict(pats)}")
    # C4
    for n, card in enumerate(deck):
        ok(max(card) <= 4, f"C4 card {n} has {max(card)} of one type")
        ok(min(card) == 0, f"C4 card {n} shows all six types")
    # C5
    fours = [card.index(4) for card in deck if 4 in card]
    ok(sorted(fours) == list(range(N_TYPES)), f"C5 four-cards quadruple types {fours}")
    # C6 via sorting (top-k sum is the max over all k-subsets) ...
    for t in range(N_TYPES):
        counts = sorted((card[t] for card in deck), reverse=True)
        prefix = [sum(counts[:k]) for k in range(1, 7)]
        ok(prefix == EXPECTED_MAXIMA, f"C6 type {t} maxima {prefix}")
    # ... and by brute force over every k-subset of the cards showing type t
    for t in range(N_TYPES):
        showing = [card[t] for card in deck if card[t]]
        for k in range(1, 7):
            best = max(sum(c) for c in combinations(showing, k))
            ok(best == EXPECTED_MAXIMA[k - 1], f"C6-bf type {t} k={k} max {best}")
    # global maxima over any body (same table)
    for k in range(1, 7):
        g = max(sum(sorted((card[t] for card in deck), reverse=True)[:k])
                for t in range(N_TYPES))
        ok(g == EXPECTED_MAXIMA[k - 1], f"C6-global k={k} max {g}")
    # C7
    ok(len(set(deck)) == len(deck), "C7 duplicate cards present")
    return errors


def self_test():
    """The checker must reject decks that violate the constraints."""
    global DESIGN
    saved = DESIGN
    failures = []
    try:
        # duplicate cards: 2-2-2 with offsets (0,2,4)
        DESIGN = [d if d[0] != (2, 2, 2) else ((2, 2, 2), (0, 2, 4)) for d in saved]
        if not any(e.startswith("C7") for e in check(build_deck())):
            failures.append("duplicate-card deck not rejected")
    finally:
        DESIGN = saved
    deck = build_deck()
    # move one picture from B2 to B3 on card 1 -> per-type totals break
    bad = list(deck)
    c = list(bad[0]); c[1] -= 1; c[2] += 1; bad[0] = tuple(c)
    if not any(e.startswith("C2") for e in check(bad)):
        failures.append("unbalanced deck not rejected")
    # make a 4-card quadruple the same type twice -> C5 breaks
    bad = list(deck)
    bad[1], bad[0] = bad[0], bad[0]
    if not any(e.startswith("C5") for e in check(bad)):
        failures.append("double four-card not rejected")
    return failures


def main():
    deck = build_deck()
    errors = check(deck)
    st = self_test()
    if st:
        errors += ["self-test: " + m for m in st]
    else:
        print("self-test: checker rejects 3 deliberately broken decks")
    names = [f"B{t + 1}" for t in range(N_TYPES)]
    print("card | " + " ".join(f"{n:>2}" for n in names) + " | pattern")
    for n, card in enumerate(deck, 1):
        pat = "-".join(str(c) for c in sorted((c for c in card if c), reverse=True))
        print(f"{n:4d} | " + " ".join(f"{c:2d}" for c in card) + f" | {pat}")
    print()
    for t in range(N_TYPES):
        prof = Counter(card[t] for card in deck)
        print(f"{names[t]}: total={sum(card[t] for card in deck)} "
              f"profile(count->cards)={dict(sorted(prof.items(), reverse=True))} "
              f"on {sum(1 for c in deck if c[t])} cards")
    co = [[sum(1 for c in deck if c[a] and c[b]) for b in range(N_TYPES)] for a in range(N_TYPES)]
    print("co-occurrence (cards showing both):")
    for a in range(N_TYPES):
        print("  " + names[a] + " " + " ".join(f"{co[a][b]:2d}" for b in range(N_TYPES)))
    if errors:
        print("FAILED:")
        for e in errors:
            print("  " + e)
        print("0 passed, 1 failed")
        return 1
    print("all constraints C1-C7 hold")
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
