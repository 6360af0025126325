"""Combinations of cards, as poker hands are: ``combination NAME(VALUES) "WORDS": PARTS, when
COND`` declares a pattern, ``combinations NAME: A < B < …`` orders them into values a claim
or a choice may take, and ``CARDS has C`` tests them. Each through small complete ``.rules``
texts, loaded with ``rulekit.loads`` and run by ``rulekit.Engine``.

The order of the bids is that of the card game Bluff (Liar's Poker with cards), as the digest
of /work/shared/rules/more-games.md §4 numbers them: 372 bids, index 0 to 371.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulekit import Action, Engine, loads, play_match
from rulekit.errors import RulesRuntimeError
from rulekit.explain import explain
from rulekit.encoding import ActionSpace
from rulekit.lang.syntax import keywords, parser
from rulekit.players import GenericBot, RandomBot
from strategies import error_of

ROOT = Path(__file__).resolve().parent.parent

# Bluff as the digest fixes it: one card each at first, a card more for each lost challenge,
# out on losing with five; the loser opens the next round.
BLUFF = """\
game "Bluff"
players 2..6

symbols suit: clubs < diamonds < hearts < spades
names rank: 11 "J", 12 "Q", 13 "K", 14 "A"
deck { card c: rank 2..14, each suit }
zone hand: per player, seen by owner
zone stock: shared, holds the deck
counter cards per player = 1
seat opener = P1

combination high_card(x: rank) "{x} high": 1 of rank = x
combination pair(x: rank) "a pair of {x}s": 2 of rank = x
combination two_pairs(h: rank, l: rank) "{h}s over {l}s": 2 of rank = h, 2 of rank = l, when h > l
combination three(x: rank) "three {x}s": 3 of rank = x
combination straight(t: rank) "a straight to {t}": run of 5 by rank to t, 14 also 1, when t >= 5
combination flush(t: rank, s: suit) "a {s} flush to {t}":
  1 of rank = t and suit = s, 4 of suit = s and rank < t, when t >= 6
combination full_house(t: rank, p: rank) "{t}s full of {p}s": 3 of rank = t, 2 of rank = p, when t != p
combination four(x: rank) "four {x}s": 4 of rank = x
combination straight_flush(t: rank, s: suit) "a {s} straight flush to {t}":
  run of 5 by rank to t in suit = s, 14 also 1, when t >= 5
combinations bid: high_card < pair < two_pairs < three < straight < flush < full_house < four < straight_flush

claim bid(c: bid) "{c}" ordered by c: true when every hand has c

setup {
  gather all cards into stock
  shuffle stock
  for each p in everyone {
    draw cards of p from stock to hand of p
  }
  go to bidding from opener
}

turn bidding clockwise {
  action raise "bids {c}" {
    choose c in bid "which combination?"
    require bid(c) beats claim "a bid must be higher than the last one"
    claim bid(c)
  }
  action challenge "calls bluff" {
    require claim stands "the opener must bid"
    reveal every hand
    log "the bid was {claimed c}"
    if claim holds {
      do lose(actor)
    } else {
      do lose(claimant)
    }
  }
}

procedure lose(p: seat) {
  log "{p} loses the round"
  set opener = p
  if cards of p = 5 {
    set opener = left of p
    knock out p
  }
  add 1 to cards of p
  end deal
}

match {
  deals until false
  ends when 1 seat remains
}
"""


@pytest.fixture(scope="module")
def bluff() -> Engine:
    return Engine(loads(BLUFF))


# ---------------------------------------------------------------------------- the order of the bids
def test_the_bids_of_bluff_are_372_in_the_digests_order(bluff):
    values = bluff.combination_values("bid")
    assert len(values) == 372
    # the first and last of each category, at the indices of the digest's table
    assert values[0] == "2 high" and values[12] == "A high"
    assert values[13] == "a pair of 2s" and values[25] == "a pair of As"
    assert values[26] == "3s over 2s" and values[103] == "As over Ks"
    assert values[104] == "three 2s" and values[116] == "three As"
    assert values[117] == "a straight to 5" and values[126] == "a straight to A"
    assert values[127] == "a clubs flush to 6" and values[162] == "a spades flush to A"
    assert values[163] == "2s full of 3s" and values[318] == "As full of Ks"
    assert values[319] == "four 2s" and values[331] == "four As"
    assert values[332] == "a clubs straight flush to 5" and values[371] == "a spades straight flush to A"


@pytest.mark.parametrize("lower, higher", [
    ("a pair of 9s", "a pair of 10s"),                       # 20 < 21
    ("Ks over 4s", "Ks over 5s"),                            # 83 < 84
    ("Qs over Js", "Ks over 2s"),                            # 80 < 81
    ("As over Ks", "three 2s"),                              # every two pairs < three 2s (104)
    ("a spades flush to A", "3s full of As"),                # 162 < 186
    ("3s full of As", "4s full of 2s"),                      # 186 < 187
    ("a hearts flush to 9", "a spades flush to 9"),          # the suit decides last
    ("a spades flush to 9", "a clubs flush to 10"),
])
def test_the_examples_of_the_digest_are_in_order(bluff, lower, higher):
    values = bluff.combination_values("bid")
    assert values.index(lower) < values.index(higher)


def test_the_digests_index_formulas_hold_for_every_bid(bluff):
    values = bluff.combination_values("bid")
    name = {11: "J", 12: "Q", 13: "K", 14: "A"}
    rank = lambda r: name.get(r, str(r))                     # noqa: E731
    suits = ("clubs", "diamonds", "hearts", "spades")
    for x in range(2, 15):
        assert values[x - 2] == f"{rank(x)} high"
        assert values[13 + x - 2] == f"a pair of {rank(x)}s"
        assert values[104 + x - 2] == f"three {rank(x)}s"
        assert values[319 + x - 2] == f"four {rank(x)}s"
        for low in range(2, x):
            assert values[26 + (x - 2) * (x - 3) // 2 + low - 2] == f"{rank(x)}s over {rank(low)}s"
        for p in range(2, 15):
            if p != x:
                assert values[163 + 12 * (x - 2) + (p - 2 if p < x else p - 3)] == f"{rank(x)}s full of {rank(p)}s"
        for s, suit in enumerate(suits):
            if x >= 6:
                assert values[127 + 4 * (x - 6) + s] == f"a {suit} flush to {rank(x)}"
            if x >= 5:
                assert values[332 + 4 * (x - 5) + s] == f"a {suit} straight flush to {rank(x)}"
    for t in range(5, 15):
        assert values[117 + t - 5] == f"a straight to {rank(t)}"


def test_a_choice_offers_every_bid_in_order_and_beats_claim_keeps_the_higher(bluff):
    state, _ = bluff.new_match(3, random.Random(1))
    raise_ = next(o for o in bluff.options(state) if o.name == "raise")
    (name, values), = raise_.params
    assert name == "c" and values == tuple(range(372))
    assert raise_.shown[0][20] == "a pair of 9s" and raise_.prompts == ("which combination?",)
    state, events = bluff.apply(state, Action("raise", (), (83,)), random.Random(1))
    claim = next(e for e in events if e.kind == "claim")
    assert claim.data["text"] == "Ks over 4s" and claim.data["args"] == (83,)
    assert bluff.claim_text(state) == "Ks over 4s"
    legal = [a.params[0] for a in bluff.legal_actions(state) if a.name == "raise"]
    assert legal == list(range(84, 372))
    assert "a bid must be higher" in bluff.why_illegal(state, Action("raise", (), (83,)))


def test_the_bids_are_encoded_by_their_index(bluff):
    space = ActionSpace(bluff, 3)
    head = space.head_of[(0, "raise")]
    assert head.params[0].values == tuple(range(372))
    assert space.text(head.base + 20) == "raise c=a pair of 9s"


# ---------------------------------------------------------------------------- which cards hold which combination
POOL = """\
game "Pool"
players 2
symbols suit: clubs < diamonds < hearts < spades
names rank: 11 "J", 12 "Q", 13 "K", 14 "A"
deck { card c: rank 2..14, each suit }
zone stock: shared, holds the deck
zone pool: shared, seen by all
counter found = 0
COMBINATIONS
setup {
MOVES
  if pool has TEST { set found = 1 }
  end deal
}
"""

_RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
_SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def pool_has(cards: str, test: str) -> bool:
    """Whether ``pool has TEST`` holds with the cards ``cards`` ("As 2h 3c": rank and suit) in
    the pool, with the combinations of Bluff."""
    moves = []
    for card in cards.split():
        r, s = card[:-1], card[-1]
        moves.append(f"  move (stock where rank = {_RANKS.get(r, r)} and suit = {_SUITS[s]}) to pool")
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    text = POOL.replace("COMBINATIONS", combos).replace("MOVES", "\n".join(moves)).replace("TEST", test)
    engine = Engine(loads(text))
    state, _ = engine.new_match(2, random.Random(0))
    assert len(state.zones[engine.zone_slot(state, "pool", None)]) == len(cards.split())
    return dict(engine.view(state, 0).counters)["found"] == 1


@pytest.mark.parametrize("cards, test, holds", [
    ("9h As", "high_card(9)", True),                 # a higher card elsewhere does not matter
    ("9h 9s", "pair(9)", True),
    ("9h 10s", "pair(9)", False),
    # the ace is low only in A-2-3-4-5; no straight wraps round
    ("Ac 2d 3h 4s 5c", "straight(5)", True),
    ("2d 3h 4s 5c 6d", "straight(5)", False),
    ("2d 3h 4s 5c 6d", "straight(6)", True),
    ("10c Jd Qh Ks Ac", "straight(14)", True),
    ("Qc Kd Ah 2s 3c", "straight(3)", False),
    ("Qc Kd Ah 2s 3c", "straight(5)", False),
    ("Qc Kd Ah 2s 3c", "straight(14)", False),
    ("Ac 2d 3h 4s 5c 9h 9d", "straight(5) and pool has pair(9)", True),
    # two pairs need four cards of their own
    ("Kc Kd 4h", "two_pairs(13, 4)", False),
    ("Kc Kd Ks 4h", "two_pairs(13, 4)", False),
    ("Kc Kd 4h 4s", "two_pairs(13, 4)", True),
    ("Kc Kd Kh Ks", "two_pairs(13, 13)", False),     # 'when h > l': no such bid
    ("Kc Kd 4h 4s", "two_pairs(4, 13)", False),
    # a full house: three of one rank, two of another
    ("3c 3d 3h Ac As", "full_house(3, 14)", True),
    ("3c 3d Ah Ac As", "full_house(3, 14)", False),
    ("3c 3d Ah Ac As", "full_house(14, 3)", True),
    ("3c 3d 3h 3s", "full_house(3, 3)", False),      # 'when t != p'
    ("3c 3d 3h 3s", "four(3)", True),
    # a flush: its top card, and four lower cards of the suit
    ("As 2s 7s 9s Js", "flush(14, spades)", True),
    ("As Ks Qs Js 10h", "flush(14, spades)", False),
    ("10h 2h 3h 4h 9h", "flush(10, hearts)", True),
    ("Jh 2h 3h 4h 9h", "flush(10, hearts)", False),       # no ten of hearts
    ("Jh 2h 3h 4h 9h", "flush(11, hearts)", True),
    ("Jh 2h 3h 4h 9h", "flush(11, diamonds)", False),
    ("2h 3h 4h 5h 6h", "flush(6, hearts)", True),         # a 6-high flush is also a straight flush
    ("2h 3h 4h 5h 6h", "straight_flush(6, hearts)", True),
    ("Ac 2c 3c 4c 5c", "straight_flush(5, clubs)", True),
    ("Ac 2c 3c 4c 5d", "straight_flush(5, clubs)", False),
    ("Ac 2c 3c 4c 5d", "straight(5)", True),
])
def test_which_cards_hold_which_combination(cards, test, holds):
    assert pool_has(cards, test) is holds


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_claim_of_a_combination_is_judged_on_every_hand(bluff, seed):
    """With one card each, P1 bids the rank of its own card ("9 high": true), or a pair of
    it (true only if P2 holds the same rank); P2 calls bluff and 'claim holds' decides."""
    values = bluff.combination_values("bid")
    for bid, true in (("{} high", lambda mine, other: True), ("a pair of {}s", lambda mine, other: mine == other)):
        state, _ = bluff.new_match(2, random.Random(seed))
        mine, other = (bluff.kind_label(state.zones[bluff.zone_slot(state, "hand", s)][0]).split()[0] for s in (0, 1))
        state, _ = bluff.apply(state, Action("raise", (), (values.index(bid.format(mine)),)), random.Random(0))
        state, events = bluff.apply(state, Action("challenge", (), ()), random.Random(0))
        logs = [e.data["text"] for e in events if e.kind == "log"]
        assert logs[0] == f"the bid was {bid.format(mine)}"
        assert logs[1] == ("P2 loses the round" if true(mine, other) else "P1 loses the round")


# ---------------------------------------------------------------------------- a showdown
SHOWDOWN = """\
game "Showdown"
players 2..3
symbols suit: clubs < diamonds < hearts < spades
names rank: 11 "J", 12 "Q", 13 "K", 14 "A"
deck { card c: rank 2..14, each suit }
zone hand: per player, seen by owner
zone stock: shared, holds the deck
COMBINATIONS
setup {
MOVES
  end deal
}
match { winners: highest best 5 of your hand by bid }
"""


def showdown(*hands: str) -> tuple:
    """The winners (seats) when each seat holds its hand ("9c 9d Ah": rank and suit) and the
    match ranks ``best 5 of your hand by bid``."""
    moves = []
    for seat, hand in enumerate(hands, 1):
        for card in hand.split():
            r, s = card[:-1], card[-1]
            moves.append(f"  move (stock where rank = {_RANKS.get(r, r)} and suit = {_SUITS[s]}) to hand of P{seat}")
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    engine = Engine(loads(SHOWDOWN.replace("COMBINATIONS", combos).replace("MOVES", "\n".join(moves))))
    state, _ = engine.new_match(len(hands), random.Random(0))
    assert [len(state.zones[engine.zone_slot(state, "hand", s)]) for s in range(len(hands))] == \
        [len(h.split()) for h in hands]
    return state.winners


@pytest.mark.parametrize("hands, winners", [
    (("9c 9d Ah 5s 3c", "9h 9s Kh Qs Jc"), (0,)),          # a pair of 9s: the ace kicker decides
    (("9c 9d Ah 5s 3c", "9h 9s Ad 6s 2c"), (1,)),          # then the next kicker
    (("Kc Kd 4h 4s Ac", "Kh Ks 4c 4d Qc"), (0,)),          # two pairs, the kicker
    (("Kc Kd 4h 4s Ac", "Kh Ks 4c 4d Ad"), (0, 1)),        # a tie shares the win
    (("2c 3c 4c 5c 7c", "2d 3h 4s 5h 6d"), (0,)),          # a flush beats a straight
    (("Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6c"), (1,)),          # the ace-low straight is the lowest
    (("2c 3c 4c 5c 7c Ad Kd", "2d 3h 4s 5h 6d Ah Ks"), (0,)),    # the best 5 of 7 cards
    (("2c 2d 2h 9s 9c Kd Qd", "Ah Kh Qh Jh 9h 3c 3d"), (0,)),    # a full house beats a flush
])
def test_best_five_cards_rank_a_showdown(hands, winners):
    assert showdown(*hands) == winners


def test_best_of_too_many_cards_stops_the_match_with_a_located_error():
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    text = SHOWDOWN.replace("COMBINATIONS", combos).replace("MOVES", "").replace("of your hand", "of stock")
    line = text.splitlines().index("match { winners: highest best 5 of stock by bid }") + 1
    with pytest.raises(RulesRuntimeError) as exc:
        Engine(loads(text)).new_match(2, random.Random(0))
    assert str(exc.value) == f"'best 5 of' 52 cards would compare 2,598,960 sets of cards (line {line}); " \
                             "at most 20,000 are allowed"


def test_best_names_a_declared_order_of_one_attribute():
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    text = SHOWDOWN.replace("COMBINATIONS", combos).replace("MOVES", "")
    assert error_of(text.replace("by bid", "by bids")).split("error: ")[1] == \
        "unknown order of combinations 'bids'"
    text = text.replace('deck { card c: rank 2..14, each suit }', 'deck { card c: rank 2..14, each suit, pip rank }')
    text = text.replace("combination four(x: rank)", "combination four(x: pip)")
    assert error_of(text).split("error: ")[1] == \
        "'best' breaks ties by one attribute of the cards, but the values of 'bid' range over rank and pip"


# ---------------------------------------------------------------------------- whole matches
@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_bluff_plays_whole_matches_with_random_bots(bluff, n, seed):
    record = play_match(bluff, [RandomBot(random.Random(seed * 10 + i)) for i in range(n)], n, seed)
    assert record.state.is_terminal
    assert len(record.winners) == 1
    assert sum(1 for o in record.state.out if o) == n - 1     # every other seat lost five times


def test_bluff_plays_a_match_with_bots_that_judge_the_bids():
    """The generic bot samples the hidden hands to judge how likely a bid is: every sample
    is tested for the combination."""
    engine = Engine(loads(BLUFF))
    record = play_match(engine, [GenericBot(engine, random.Random(i)) for i in range(3)], 3, 11)
    assert record.state.is_terminal and len(record.winners) == 1


# ---------------------------------------------------------------------------- the rulebook
def test_explain_lists_the_combinations_and_reads_has(bluff):
    book = explain(bluff.game)
    assert "### Combinations" in book
    assert "- “two pairs” (“hs over ls”): for a rank h and a rank l when h is more than l; 2 cards that have " \
           "rank h; 2 cards that have rank l." in book
    assert "5 cards with rank in a row up to t, one of each, that have suit s (rank 14 also counts as 1)" in book
    assert "from lowest to highest, high card < pair < two pairs < three < straight < flush < full house < four " \
           "< straight flush" in book
    assert "It is true when c can be made from the cards in all the hands." in book
    assert "- c: 52 cards, 1 of each of 2 clubs, 3 clubs, … A spades; rank 2 to 14 in each suit." in book
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    book = explain(loads(SHOWDOWN.replace("COMBINATIONS", combos).replace("MOVES", "")))
    assert "The winners are the players with the highest value of the best 5 cards among the cards in their hand " \
           "in the order of “bid” (ties broken by the rank of the cards, highest first)" in book


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize("old, new, message", [
    ("2 of rank = x\n", "2 of rnk = x\n", "13:50: error: 'rnk' is not a card attribute"),
    ("pair(x: rank)", "pair(x: rnk)", "13:18: error: 'rnk' is neither an attribute of the cards nor a symbol set"),
    ("pair(x: rank)", "pair(x)",
     "13:18: error: value 'x' of combination 'pair' needs a kind: a card attribute or a symbol set"),
    ("pair(x: rank)", "pair(x: seat)",
     "13:18: error: value 'x' of combination 'pair' needs a kind: a card attribute or a symbol set"),
    ("< four <", "< fours <", "23:90: error: unknown combination 'fours'"),
    ("< pair < two_pairs", "< pair < pair", "23:38: error: 'pair' is listed twice in 'bid'"),
    ("run of 5 by rank to t, 14", "run of 15 by rank to t, 14",
     "16:52: error: a run of 15 by rank is longer than the values the cards give it (1..14)"),
    ("run of 5 by rank to t, 14", "run of 5 by rnk to t, 14", "16:52: error: 'rnk' is not a card attribute"),
    ("run of 5 by rank to t, 14 also 1,", "run of 5 by rank to t, 15 also 1,", "16:52: error: no card has rank 15"),
    ("combination four(x: rank)", "combination pair(x: rank)",
     "20:1: error: 'pair' is declared twice (first on line 13)"),
    ("claim bid(c: bid)", "counter pair = 0\nclaim bid(c: bid)", "25:1: error: the name 'pair' is declared twice"),
    ("when h > l", "when h > l + players",
     "14:102: error: a combination reads only its own values ('h', 'l'), numbers and symbols"),
    ("2 of rank = h,", "2 of rank = h and rank > players,",
     "14:84: error: a combination reads only its own values ('h', 'l'), numbers and symbols"),
    ("pair(x: rank)", "pair(x: rank, x: rank)", "13:27: error: combination 'pair' has two values named 'x'"),
    ("run of 5 by rank to t, 14 also 1,", "14 also 1, run of 5 by rank to t,",
     "16:52: error: '14 also 1' belongs to a run"),
    ("2 of rank = l, when h > l", "when h > l, 2 of rank = l",
     "14:79: error: 'when' comes last, after the cards of the combination"),
    ("4 of suit = s and", "4 of suit < s and", "18:36: error: a card shows a suit or not: compare it with '=' or '!='"),
    ("4 of suit = s and", "4 of suit = t and", "18:43: error: expected a symbol of 'suit' here"),
    ("every hand has c", "every hand has 3", "25:64: error: 'has' tests a combination, and this is not one"),
    ("every hand has c", "every hand has pair(1, 2)", "25:64: error: combination 'pair' takes 1 value(s), 2 given"),
    ("every hand has c", "every hand has pair(clubs)", "25:69: error: this value does not fit combination 'pair'"),
    ("every hand has c", "every hand has c and pair(3) > 1",
     "25:70: error: unknown table 'pair'"),
    ("choose c in bid ", "choose c in bids ", "38:17: error: unknown symbol set 'bids'"),
])
def test_a_combination_misused_is_a_located_error(old, new, message):
    assert old in BLUFF
    assert error_of(BLUFF.replace(old, new, 1)) == f"<rules>:{message}"


def test_errors_of_combinations_have_hints():
    with pytest.raises(Exception) as exc:
        loads(BLUFF.replace("< four <", "< fours <"))
    assert "hint: did you mean 'four'?" in str(exc.value)
    with pytest.raises(Exception) as exc:
        loads(BLUFF.replace("every hand has c", "every hand has c and pair(3) > 1"))
    assert "hint: 'pair' is a combination: test cards with 'CARDS has pair(…)'" in str(exc.value)
    with pytest.raises(Exception) as exc:
        loads(BLUFF.replace("run of 5 by rank to t, 14", "run of 15 by rank to t, 14"))
    assert "hint: a run by rank has at most 14 cards" in str(exc.value)
    text = str(exc.value)
    assert re.search(r"^\s+\^+$", text, re.M)           # a caret under the place


def test_too_many_values_are_refused():
    text = BLUFF.replace("combination three(x: rank)",
                         "combination many(a: rank, b: rank, c: rank, d: rank)"
                         " \"{a}\": 1 of rank = a\ncombination three(x: rank)")
    text = text.replace("combinations bid: high_card <", "combinations bid: many < high_card <")
    assert error_of(text).split("error: ")[1] == "'bid' may have 29,068 values; at most 10,000 are allowed"


# ---------------------------------------------------------------------------- the keywords
def test_the_reserved_words_of_the_docs_are_the_keywords_of_the_grammar():
    words = {t.pattern.value for t in parser().terminals if t.pattern.type == "str" and t.pattern.value.isalpha()}
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Reserved words"):]
    count = int(re.search(r"the (\d+) quoted words of the grammar", section).group(1))
    listed = set(re.search(r"```text\n(.*?)```", section, re.S).group(1).split())
    assert listed == words and count == len(words)
    assert {"combination", "combinations", "run", "also", "has"} <= words
    strict = section[section.index("words that can **begin a value**") - 10:]
    count = int(re.search(r"the (\d+) words that can", strict).group(1))
    listed = set(re.search(r"```text\n(.*?)```", strict, re.S).group(1).split())
    assert listed == set(keywords()) and count == len(listed)


# ---------------------------------------------------------------------------- cards of several sets together
def hold_em(*extra: str) -> str:
    """A two-seat showdown of each hand plus a board of five: P1 holds two aces (three
    with the board), P2 the king and queen of spades (a royal flush with the board);
    ``extra`` lines after the deal."""
    combos = BLUFF[BLUFF.index("combination high_card"):BLUFF.index("claim bid")]
    moves = ["  move (stock where rank = 14 and suit = spades) to hand of P1",
             "  move (stock where rank = 14 and suit = hearts) to hand of P1",
             "  move (stock where rank = 13 and suit = spades) to hand of P2",
             "  move (stock where rank = 12 and suit = spades) to hand of P2"]
    moves += [f"  move (stock where rank = {r} and suit = {s}) to board" for r, s in
              ((14, "clubs"), (11, "spades"), (10, "spades"), (3, "diamonds"), (2, "clubs"))]
    return (SHOWDOWN.replace("COMBINATIONS", combos).replace("MOVES", "\n".join(moves + list(extra)))
            .replace("zone stock: shared, holds the deck", "zone stock: shared, holds the deck\nzone board: shared, seen by all")
            .replace("best 5 of your hand by bid", "best 5 of (your hand plus board) by bid"))


def test_best_five_of_a_hand_plus_the_board():
    """``(CARDS plus CARDS)``: the cards of several card sets together, as a hold'em showdown
    ranks each player's two cards with the five of the board (issue 22: "best 5 of hand and
    board")."""
    text = hold_em()
    engine = Engine(loads(text))
    state, _ = engine.new_match(2, random.Random(0))
    assert state.winners == (1,)            # P2's royal flush beats P1's three aces
    assert "the best 5 cards among the cards in their hand and the cards in the board" in explain(loads(text))
    with pytest.raises(Exception):
        loads(text.replace("(your hand plus board)", "(your hand, board)"))


def test_a_text_tells_the_best_combination_in_words():
    """'{best 5 of (hand of p plus board) by bid}' in a log, once the hands are turned up,
    tells the combination ("three As", "a straight to A"), not its score (helper-37's
    Hold'em could only say "P4 wins 60")."""
    text = hold_em("  reveal every hand",
                   '  log "{best 5 of (hand of P1 plus board) by bid} / {best 5 of (hand of P2 plus board) by bid}"')
    engine = Engine(loads(text))
    _, events = engine.new_match(2, random.Random(0))
    logs = [e.data["text"] for e in events if e.kind == "log"]
    assert logs == ["three As / a straight to A"]
