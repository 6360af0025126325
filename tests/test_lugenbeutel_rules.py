"""Scenario tests of Lügenbeutel (shared/rules/digest.md section 2 and its resolutions L1..L18).

Each test starts a match with a fixed seed, rigs the hands, stock, table, counters and seats
with ``attrs.evolve``, applies actions and checks the exact outcome. The revenge die is
rigged by :class:`FixedRoll`, a ``random.Random`` whose ``randint`` always gives one value
(shuffles stay seeded and deterministic).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import attrs
import pytest

from rulekit import Action, Engine, OptionError, load

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "lugenbeutel.rules"

ENGINE = Engine(load(str(RULES)))
LABELS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "joker", "skip", "Lügenbeutel card")
POINTS = {**{str(r): r for r in range(1, 11)}, "joker": 30, "skip": 20, "Lügenbeutel card": 40}
ROLL = 4
DECLINE = Action("decline")
CALL = Action("call")
PASS = Action("pass")
KEEP = Action("keep")


class FixedRoll(random.Random):
    """A seeded generator whose die rolls (``randint``) always give ``value``."""

    def __init__(self, value: int = ROLL, seed: int = 0):
        super().__init__(seed)
        self.value = value

    def randint(self, a, b):
        assert a <= self.value <= b
        return self.value


def k(label: str, engine: Engine = ENGINE) -> int:
    """The kind index of a card label."""
    return engine.kind_named(label)


def cards(*labels: str, engine: Engine = ENGINE) -> tuple:
    """Kind indices of the labels, in the given order (for a zone: the last is the top)."""
    return tuple(k(label, engine) for label in labels)


def play(*labels: str) -> Action:
    return Action("play", tuple(sorted(cards(*labels))))


def skip(label: str) -> Action:
    return Action("skip", (k(label),))


def zone(state, name: str, owner: int | None = None, engine: Engine = ENGINE) -> tuple:
    return state.zones[engine.zone_slot(state, name, owner)]


def hand(state, seat: int) -> Counter:
    """The hand of a seat as a multiset of labels."""
    return Counter(ENGINE.kind_label(c) for c in zone(state, "hand", seat))


def bag(*labels: str) -> Counter:
    return Counter(labels)


def counter(state, name: str, seat: int = 0) -> int:
    ci = ENGINE.cg.counter_index[name]
    return state.counters[ENGINE.cg.counter_slot(ci, seat, state.n)]


def seat(state, name: str) -> int:
    return state.seats[ENGINE.cg.seat_index[name]]


def rig(state, *, hands=None, stock=None, table=None, required=None, current=None, dealer=None,
        scores=None):
    """The state with the given zones (labels), counters and seats replaced."""
    zones = list(state.zones)
    for s, labels in (hands or {}).items():
        zones[ENGINE.zone_slot(state, "hand", s)] = cards(*labels)
    if stock is not None:
        zones[ENGINE.zone_slot(state, "stock")] = cards(*stock)
    if table is not None:
        zones[ENGINE.zone_slot(state, "table")] = cards(*table)
    counters = list(state.counters)
    if required is not None:
        counters[ENGINE.cg.counter_slot(ENGINE.cg.counter_index["required"], 0, state.n)] = required
    for s, value in (scores or {}).items():
        counters[ENGINE.cg.counter_slot(ENGINE.cg.counter_index["score"], s, state.n)] = value
    seats = list(state.seats)
    if current is not None:
        seats[ENGINE.cg.seat_index["current"]] = current
    if dealer is not None:
        seats[ENGINE.cg.seat_index["dealer"]] = dealer
    return state._replace(zones=tuple(zones), counters=tuple(counters), seats=tuple(seats))


def rest_of_deck(*used: tuple) -> tuple:
    """The labels of the 112 cards minus those listed (so a rigged state keeps every card)."""
    left = Counter(ENGINE.kind_label(c) for c in ENGINE.deck)
    for labels in used:
        left.subtract(labels)
    assert min(left.values()) >= 0
    return tuple(sorted(left.elements(), key=LABELS.index))


def start(n: int, seed: int = 0, **kw):
    """A new match of ``n`` players, rigged as given, with P1 (seat 0) to play by default."""
    rng = FixedRoll(seed=seed)
    state, _ = ENGINE.new_match(n, rng)
    kw.setdefault("current", 0)
    return rig(state, **kw), rng


def step(state, action, rng):
    """Apply an action of the deciding seat; return the new state and its events."""
    return ENGINE.apply(state, action, rng)


def decline_all(state, rng):
    """Every seat of the running window declines; the state after the window closes."""
    events = []
    while not state.is_terminal and ENGINE.decision(state).phase == "liar":
        state, ev = step(state, DECLINE, rng)
        events.extend(ev)
    return state, events


# Stock tops (last = drawn first): a die roll of 4 draws "9", "8", "skip", "joker" in that order.
STOCK = ("1", "1", "2", "6", "joker", "skip", "8", "9")
ROLL_DRAW = bag("9", "8", "skip", "joker")


# ---------------------------------------------------------------- 2.4 challenge


def test_caught_lie_returns_the_play_and_the_liar_draws_the_roll():
    """A caught lie: the whole play goes back to the liar, who draws the roll; r stays; next is left of the liar."""
    state, rng = start(3, hands={0: ("5", "5", "3", "joker"), 1: ("1", "2"), 2: ("3", "4")},
                       stock=STOCK, table=("2", "2"), required=3)
    state, _ = step(state, play("5", "joker"), rng)
    assert ENGINE.claim_holds_in(state) is False
    d = ENGINE.decision(state)
    assert (d.seat, d.phase, d.kind) == (1, "liar", "first")
    state, events = step(state, CALL, rng)
    assert [e.data["value"] for e in events if e.kind == "roll"] == [ROLL]
    assert hand(state, 0) == bag("5", "5", "3", "joker") + ROLL_DRAW
    assert hand(state, 1) == bag("1", "2")
    assert zone(state, "table") == cards("2", "2")
    assert len(zone(state, "stock")) == len(STOCK) - ROLL
    assert counter(state, "required") == 3
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)
    assert state.claim is None and ENGINE.view(state, 1).claim is None     # the void play no longer stands


def test_honest_play_makes_the_challenger_draw_and_the_rank_advances():
    """An honest play that is challenged: the challenger draws the roll, the cards stay, r advances by one."""
    state, rng = start(3, hands={0: ("3", "joker", "7"), 1: ("1", "2"), 2: ("3", "4")},
                       stock=STOCK, table=("2", "2"), required=3)
    state, _ = step(state, play("3", "joker"), rng)
    assert ENGINE.claim_holds_in(state) is True
    state, _ = step(state, CALL, rng)
    assert hand(state, 1) == bag("1", "2") + ROLL_DRAW
    assert hand(state, 0) == bag("7")
    assert hand(state, 2) == bag("3", "4")
    assert Counter(zone(state, "table")) == Counter(cards("2", "2", "3", "joker"))
    assert counter(state, "required") == 4
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)


def test_challenge_reveals_all_cards_of_the_play():
    """L1: a challenge reveals every card of the play to everybody."""
    state, rng = start(3, hands={0: ("3", "5", "7"), 1: ("1",), 2: ("4",)}, stock=STOCK, required=3)
    state, _ = step(state, play("3", "5"), rng)
    _, events = step(state, CALL, rng)
    reveals = [e for e in events if e.kind == "reveal"]
    assert len(reveals) == 1
    assert reveals[0].seat is None
    assert sorted(reveals[0].data["cards"]) == sorted(cards("3", "5"))


# ---------------------------------------------------------------- 2.3 / 2.5 skip, pass, rank


def test_standing_skip_skips_the_next_player_and_keeps_the_rank():
    """A skip that stands (4 players): the next player loses his turn, P3 plays, r is unchanged."""
    state, rng = start(4, hands={0: ("skip", "5"), 1: ("1",), 2: ("2",), 3: ("3",)}, required=6)
    state, _ = step(state, skip("skip"), rng)
    assert ENGINE.decision(state).phase == "liar"
    state, _ = decline_all(state, rng)
    d = ENGINE.decision(state)
    assert (d.phase, d.seat) == ("turn", 2)
    assert counter(state, "required") == 6
    assert hand(state, 0) == bag("5")
    assert zone(state, "table")[-1] == k("skip")


def test_standing_skip_with_two_players_gives_the_same_player_another_turn():
    """L4: with 2 players a standing skip gives the skipping player another turn at the same r."""
    state, rng = start(2, hands={0: ("skip", "5", "8"), 1: ("1",)}, required=2)
    state, _ = step(state, skip("skip"), rng)
    state, _ = decline_all(state, rng)
    d = ENGINE.decision(state)
    assert (d.phase, d.seat) == ("turn", 0)
    assert counter(state, "required") == 2


def test_joker_played_as_skip_survives_a_challenge_and_skips():
    """L15: a joker played as a skip is honest; the challenger draws and the next player is still skipped."""
    state, rng = start(3, hands={0: ("joker", "5"), 1: ("1",), 2: ("2",)}, stock=STOCK, required=5)
    state, _ = step(state, skip("joker"), rng)
    assert ENGINE.claim_holds_in(state) is True
    state, _ = step(state, CALL, rng)
    assert hand(state, 1) == bag("1") + ROLL_DRAW
    d = ENGINE.decision(state)
    assert (d.phase, d.seat) == ("turn", 2)
    assert counter(state, "required") == 5


def test_caught_bluffed_skip_skips_no_one():
    """A bluffed skip that is caught is void: the liar takes it back and draws, the next player plays, r stays."""
    state, rng = start(3, hands={0: ("5", "8"), 1: ("1",), 2: ("2",)}, stock=STOCK, required=4)
    state, _ = step(state, skip("5"), rng)
    state, _ = step(state, CALL, rng)
    assert hand(state, 0) == bag("5", "8") + ROLL_DRAW
    d = ENGINE.decision(state)
    assert (d.phase, d.seat) == ("turn", 1)
    assert counter(state, "required") == 4


def test_pass_then_keep_draws_one_card_and_keeps_the_rank():
    """A pass without a play: the drawn card joins the hand, r stays, the next player is left."""
    state, rng = start(3, hands={0: ("5",), 1: ("1",), 2: ("2",)}, stock=STOCK, required=7)
    state, _ = step(state, PASS, rng)
    assert zone(state, "drawn", 0) == cards("9")
    state, _ = step(state, KEEP, rng)
    assert hand(state, 0) == bag("5", "9")
    assert zone(state, "drawn", 0) == ()
    assert len(zone(state, "stock")) == len(STOCK) - 1
    assert counter(state, "required") == 7
    d = ENGINE.decision(state)
    assert (d.phase, d.seat) == ("turn", 1)


def test_standing_ten_shuffles_the_table_into_the_stock_and_resets_the_rank():
    """L17/L18: a standing 10-play sends the whole table to the stock and r becomes 1."""
    old_table = ("4", "5", "6", "7", "8")
    state, rng = start(3, hands={0: ("10", "10", "3"), 1: ("1",), 2: ("2",)}, stock=STOCK,
                       table=old_table, required=10)
    state, events = step(state, play("10", "10"), rng)
    state, more = decline_all(state, rng)
    assert zone(state, "table") == ()
    assert len(zone(state, "stock")) == len(STOCK) + len(old_table) + 2
    assert Counter(zone(state, "stock")) == Counter(cards(*STOCK, *old_table, "10", "10"))
    assert counter(state, "required") == 1
    assert hand(state, 0) == bag("3")
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)
    assert any(e.kind == "shuffle" for e in more)


def test_challenged_honest_ten_draws_first_then_recycles():
    """L17/L18: a challenged honest 10: the challenger draws from the old stock, then the table is recycled."""
    old_table = ("4", "5")
    state, rng = start(3, hands={0: ("10", "3"), 1: ("1",), 2: ("2",)}, stock=STOCK,
                       table=old_table, required=10)
    state, _ = step(state, play("10"), rng)
    state, events = step(state, CALL, rng)
    kinds = [e.kind for e in events]
    assert kinds.index("draw") < kinds.index("shuffle")
    assert hand(state, 1) == bag("1") + ROLL_DRAW
    assert zone(state, "table") == ()
    assert Counter(zone(state, "stock")) == Counter(cards(*STOCK[:-ROLL], *old_table, "10"))
    assert counter(state, "required") == 1


def test_caught_ten_does_not_recycle_the_table():
    """A caught lie at r = 10 leaves the old table in place and r at 10."""
    state, rng = start(3, hands={0: ("9", "3"), 1: ("1",), 2: ("2",)}, stock=STOCK,
                       table=("4", "5"), required=10)
    state, _ = step(state, play("9"), rng)
    state, _ = step(state, CALL, rng)
    assert zone(state, "table") == cards("4", "5")
    assert counter(state, "required") == 10


# ---------------------------------------------------------------- L7 / L15 last card


@pytest.mark.parametrize("last", ["skip", "joker", "7"])
def test_skip_is_never_the_last_card(last):
    """L7/L15: with a one-card hand the skip option is absent, and why_illegal says why."""
    state, _ = start(3, hands={0: (last,), 1: ("1",), 2: ("2",)}, stock=STOCK, required=7)
    d = ENGINE.decision(state)
    assert [o.name for o in d.options] == ["play", "pass"]
    assert ENGINE.why_illegal(state, skip(last)) == "a skip may never be your last card"
    assert d.check(skip(last)) == "a skip may never be your last card"
    assert not ENGINE.is_legal(state, skip(last))


def test_skip_is_allowed_with_two_cards_whatever_the_card():
    """With two cards in hand any single card may be played as a skip, never both."""
    state, _ = start(3, hands={0: ("skip", "5"), 1: ("1",), 2: ("2",)}, required=1)
    skips = {a for a in ENGINE.legal_actions(state) if a.name == "skip"}
    assert skips == {skip("skip"), skip("5")}
    assert ENGINE.why_illegal(state, Action("skip", tuple(sorted(cards("skip", "5"))))) == \
        "choose exactly 1 card(s)"


def test_a_number_play_needs_cards_from_the_hand():
    """2.3: a number play is at least one card, and only cards the player holds."""
    state, _ = start(3, hands={0: ("3", "5"), 1: ("1",), 2: ("2",)}, required=3)
    assert ENGINE.why_illegal(state, Action("play")) == "choose at least 1 card(s)"
    assert ENGINE.why_illegal(state, play("9")) == "those cards are not there to choose"
    assert ENGINE.why_illegal(state, play("3", "3")) == "those cards are not there to choose"
    plays = {a for a in ENGINE.legal_actions(state) if a.name == "play"}
    assert plays == {play("3"), play("5"), play("3", "5")}


def test_play_option_label_does_not_announce_zero_cards():
    """The label of the 'play' option shown before the choice does not say that 0 cards are played."""
    state, _ = start(3, hands={0: ("3", "5"), 1: ("1",), 2: ("2",)}, required=3)
    label = next(o.label for o in ENGINE.decision(state).options if o.name == "play")
    assert "0 card" not in label


# ---------------------------------------------------------------- L8 the drawn card


def test_after_a_pass_only_the_drawn_card_may_be_played():
    """L8: after a pass the choices are playing the drawn card alone or keeping it; no hand card."""
    state, rng = start(3, hands={0: ("3", "3"), 1: ("1",), 2: ("2",)}, stock=STOCK, required=3)
    state, _ = step(state, PASS, rng)
    d = ENGINE.decision(state)
    assert (d.seat, d.phase) == (0, "after_pass")
    assert ENGINE.legal_actions(state) == [Action("play"), KEEP]
    assert ENGINE.why_illegal(state, play("3")) == "this action takes no cards"


def test_drawn_card_played_as_the_rank_can_be_caught():
    """L8: the drawn card is claimed as r and can be challenged; caught, it goes to the hand with the roll."""
    state, rng = start(3, hands={0: ("3", "3"), 1: ("1",), 2: ("2",)}, stock=STOCK, required=3)
    state, _ = step(state, PASS, rng)          # draws the "9"
    state, _ = step(state, Action("play"), rng)
    assert zone(state, "table") == cards("9")
    assert state.claim is not None and state.claim[1] == (3,)
    assert ENGINE.decision(state).phase == "liar"
    state, _ = step(state, CALL, rng)
    assert hand(state, 0) == bag("3", "3", "9") + bag("8", "skip", "joker", "6")
    assert zone(state, "drawn", 0) == ()
    assert counter(state, "required") == 3
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)


def test_drawn_card_played_honestly_advances_the_rank():
    """L8: an honest play of the drawn card that stands advances r like any number play."""
    state, rng = start(3, hands={0: ("5",), 1: ("1",), 2: ("2",)}, stock=STOCK[:-1] + ("4",),
                       required=4)
    state, _ = step(state, PASS, rng)
    state, _ = step(state, Action("play"), rng)
    state, _ = decline_all(state, rng)
    assert hand(state, 0) == bag("5")
    assert zone(state, "table") == cards("4")
    assert counter(state, "required") == 5


# ---------------------------------------------------------------- 2.6 end of a deal and scoring


def test_emptied_hand_with_unchallenged_play_wins_the_deal():
    """A player whose last play stands unchallenged wins the deal and scores the other hands; a new deal starts."""
    state, rng = start(3, hands={0: ("4",), 1: ("7", "joker"), 2: ("skip",)}, stock=STOCK,
                       required=4, dealer=2)
    state, _ = step(state, play("4"), rng)
    state, events = decline_all(state, rng)
    assert [e.kind for e in events].count("deal_end") == 1
    assert counter(state, "score", 0) == 7 + 30 + 20
    assert (counter(state, "score", 1), counter(state, "score", 2)) == (0, 0)
    assert state.deal == 2
    assert not state.is_terminal


def test_failed_challenge_on_the_last_card_is_resolved_before_scoring():
    """L17/L18: the challenger of an honest last play draws first, and those cards count for the winner."""
    state, rng = start(3, hands={0: ("4",), 1: ("7",), 2: ("1", "1")}, stock=STOCK, required=4)
    state, _ = step(state, play("4"), rng)
    state, events = step(state, CALL, rng)
    assert [e.kind for e in events].index("roll") < [e.kind for e in events].index("deal_end")
    assert counter(state, "score", 0) == 7 + (9 + 8 + 20 + 30) + 1 + 1
    assert state.deal == 2


def test_emptying_the_hand_on_a_caught_lie_does_not_win():
    """L7: a last card caught as a lie comes back with the roll; the deal goes on and nobody scores."""
    state, rng = start(3, hands={0: ("5",), 1: ("7",), 2: ("1",)}, stock=STOCK, required=4)
    state, _ = step(state, play("5"), rng)
    state, events = step(state, CALL, rng)
    assert "deal_end" not in [e.kind for e in events]
    assert state.deal == 1
    assert hand(state, 0) == bag("5") + ROLL_DRAW
    assert [counter(state, "score", s) for s in range(3)] == [0, 0, 0]
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)


def test_going_out_on_an_unchallenged_lie_wins():
    """L7: going out on a lie is allowed if nobody calls it."""
    state, rng = start(2, hands={0: ("Lügenbeutel card",), 1: ("3",)}, stock=STOCK, required=9)
    state, _ = step(state, play("Lügenbeutel card"), rng)
    state, _ = decline_all(state, rng)
    assert counter(state, "score", 0) == 3
    assert state.deal == 2


def test_scoring_counts_face_value_20_per_skip_30_per_joker_40_per_lugenbeutel_card():
    """2.1/2.6: the winner scores face value per number card, 20 per skip, 30 per joker, 40 per Lügenbeutel card."""
    others = {1: ("10", "joker", "skip", "1"),
              2: ("Lügenbeutel card", "Lügenbeutel card", "7"),
              3: ("joker", "joker", "skip", "2", "2", "9")}
    expected = sum(POINTS[c] for h in others.values() for c in h)
    assert expected == (10 + 30 + 20 + 1) + (40 + 40 + 7) + (30 + 30 + 20 + 2 + 2 + 9)
    state, rng = start(4, hands={0: ("2",), **others}, stock=STOCK, required=2, scores={0: 100, 1: 50})
    state, _ = step(state, play("2"), rng)
    state, _ = decline_all(state, rng)
    assert [counter(state, "score", s) for s in range(4)] == [100 + expected, 50, 0, 0]


def test_new_deal_moves_the_dealer_left_and_restarts():
    """A deal that leaves everyone below 500 starts a new deal: dealer moves left, 10 cards each, r = 1, left of dealer starts."""
    hands = {0: ("4",), 1: ("5",), 2: ("6",), 3: ("7",)}
    state, rng = start(4, hands=hands, stock=rest_of_deck(*hands.values()), table=(),
                       required=4, dealer=3, scores={0: 480})
    assert sum(len(z) for z in state.zones) == 112
    state, _ = step(state, play("4"), rng)
    state, _ = decline_all(state, rng)
    assert counter(state, "score", 0) == 480 + 18
    assert state.deal == 2 and not state.is_terminal
    assert seat(state, "dealer") == 0
    assert [len(zone(state, "hand", s)) for s in range(4)] == [10, 10, 10, 10]
    assert zone(state, "table") == ()
    assert len(zone(state, "stock")) == 112 - 40
    assert counter(state, "required") == 1
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)


def test_match_ends_when_a_score_reaches_500():
    """L12: reaching exactly 500 (>= 500) at the end of a deal ends the match with that player as winner."""
    state, rng = start(3, hands={0: ("4",), 1: ("2",), 2: ("3",)}, stock=STOCK, required=4,
                       scores={0: 495, 1: 499})
    state, events = step(state, play("4"), rng)
    state, more = decline_all(state, rng)
    assert counter(state, "score", 0) == 500
    assert state.is_terminal
    assert state.winners == (0,)
    assert ENGINE.decision(state) is None
    assert ENGINE.legal_actions(state) == []
    assert [e.data["winners"] for e in more if e.kind == "match_end"] == [(0,)]


def test_match_goes_on_below_500():
    """L12: 499 at the end of a deal does not end the match."""
    state, rng = start(3, hands={0: ("4",), 1: ("1",), 2: ("3",)}, stock=STOCK, required=4,
                       scores={0: 495})
    state, _ = step(state, play("4"), rng)
    state, _ = decline_all(state, rng)
    assert counter(state, "score", 0) == 499
    assert not state.is_terminal and state.deal == 2


# ---------------------------------------------------------------- L6 the stock runs out


def test_empty_stock_is_refilled_from_the_table_on_a_pass():
    """L6: a pass with an empty stock turns the table into a new shuffled stock, then draws."""
    state, rng = start(3, hands={0: ("5",), 1: ("1",), 2: ("2",)}, stock=(),
                       table=("9", "9", "9"), required=2)
    state, events = step(state, PASS, rng)
    assert [e.data["count"] for e in events if e.kind == "refill"] == [3]
    assert zone(state, "drawn", 0) == cards("9")
    assert zone(state, "stock") == cards("9", "9")
    assert zone(state, "table") == ()


def test_roll_draw_refills_from_the_table_after_the_lie_is_taken_back():
    """L6: a caught liar drawing past the end of the stock draws from the recycled table, without his own play."""
    state, rng = start(3, hands={0: ("5", "5", "1"), 1: ("1",), 2: ("2",)}, stock=("8",),
                       table=("2", "2", "2", "2", "2"), required=3)
    state, _ = step(state, play("5", "5"), rng)
    state, _ = step(state, CALL, rng)
    assert hand(state, 0) == bag("5", "5", "1", "8", "2", "2", "2")
    assert zone(state, "stock") == cards("2", "2")
    assert zone(state, "table") == ()


def test_draw_from_empty_stock_and_empty_table_is_lost():
    """L6: with stock and table both empty a pass draws nothing; only 'keep' remains and the hand is unchanged."""
    state, rng = start(3, hands={0: ("5",), 1: ("1",), 2: ("2",)}, stock=(), table=(), required=2)
    state, events = step(state, PASS, rng)
    draws = [e for e in events if e.kind == "draw"]
    assert [(d.data["cards"], d.data["wanted"]) for d in draws] == [((), 1)]
    assert zone(state, "drawn", 0) == ()
    assert ENGINE.legal_actions(state) == [KEEP]
    state, _ = step(state, KEEP, rng)
    assert hand(state, 0) == bag("5")
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 1)


def test_roll_draw_is_partial_when_stock_and_table_run_out():
    """L6: a caught liar draws what there is; the rest of the roll is lost."""
    state, rng = start(3, hands={0: ("5", "1"), 1: ("1",), 2: ("2",)}, stock=("8",), table=(),
                       required=3)
    state, _ = step(state, play("5"), rng)
    state, _ = step(state, CALL, rng)
    assert hand(state, 0) == bag("5", "1", "8")
    assert zone(state, "stock") == ()


# ---------------------------------------------------------------- L2 the challenge window


def test_challenge_window_asks_the_others_clockwise_from_the_claimant():
    """L2: after P3's play, P4, P1, P2 are asked in that order (never P3); when all decline the play stands."""
    state, rng = start(4, hands={0: ("1",), 1: ("1",), 2: ("6", "6"), 3: ("1",)}, stock=STOCK,
                       required=6, current=2)
    state, _ = step(state, play("6"), rng)
    asked = []
    while ENGINE.decision(state).phase == "liar":
        d = ENGINE.decision(state)
        asked.append(d.seat)
        assert [o.name for o in d.options] == ["call", "decline"]
        state, _ = step(state, DECLINE, rng)
    assert asked == [3, 0, 1]
    assert counter(state, "required") == 7
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 3)


def test_first_caller_clockwise_challenges_and_the_rest_are_not_asked():
    """L2: when P4 declines and P1 calls, P1 is the challenger (draws on an honest play) and P2 is never asked."""
    state, rng = start(4, hands={0: ("1",), 1: ("2",), 2: ("6", "6"), 3: ("3",)}, stock=STOCK,
                       required=6, current=2)
    state, _ = step(state, play("6"), rng)
    assert state.poll == (3, 0, 1)
    state, _ = step(state, DECLINE, rng)
    assert ENGINE.decision(state).seat == 0
    state, _ = step(state, CALL, rng)
    assert hand(state, 0) == bag("1") + ROLL_DRAW
    assert hand(state, 1) == bag("2") and hand(state, 3) == bag("3")
    assert (ENGINE.decision(state).phase, ENGINE.decision(state).seat) == ("turn", 3)


def test_claimant_cannot_challenge_his_own_play():
    """L2: the claimant is not in the window, and 'call' is not an action of the turn phase."""
    state, rng = start(2, hands={0: ("6", "6"), 1: ("1",)}, required=6)
    state, _ = step(state, play("6"), rng)
    assert state.poll == (1,)
    state, _ = step(state, DECLINE, rng)
    assert ENGINE.decision(state).seat == 1
    assert ENGINE.why_illegal(state, CALL) == \
        "'call' is not an action here (the actions are: play, skip, pass)"


def test_hand_sizes_are_public_and_hands_private():
    """2.2: every seat sees how many cards each hand holds, but only its own cards."""
    state, _ = start(3, hands={0: ("6", "7"), 1: ("1", "2", "3"), 2: ("4",)})
    view = ENGINE.view(state, 0)
    assert view.zone("hand", 0) == (2, tuple(sorted(cards("6", "7"))))
    assert view.zone("hand", 1) == (3, None)
    assert view.zone("hand", 2) == (1, None)
    assert view.zone("stock", None)[1] is None


def test_drawn_card_is_seen_only_by_its_owner():
    """After a pass the drawn card is private to the drawer; the others see only that there is one."""
    state, rng = start(3, hands={0: ("6",), 1: ("1",), 2: ("2",)}, stock=STOCK)
    state, _ = step(state, PASS, rng)
    assert ENGINE.view(state, 0).zone("drawn", 0) == (1, cards("9"))
    assert ENGINE.view(state, 1).zone("drawn", 0) == (1, None)
    assert ENGINE.view(state, 2).zone("drawn", 0) == (1, None)


# ---------------------------------------------------------------- setup and variants


def test_setup_deals_ten_each_and_left_of_dealer_starts():
    """2.2/L11: 10 cards each, the rest in the stock, r = 1, the player left of the dealer starts."""
    for seed in range(3):
        state, _ = ENGINE.new_match(5, random.Random(seed))
        assert [len(zone(state, "hand", s)) for s in range(5)] == [10] * 5
        assert len(zone(state, "stock")) == 112 - 50
        assert counter(state, "required") == 1
        assert ENGINE.decision(state).seat == (seat(state, "dealer") + 1) % 5


def test_edition_a_composition():
    """2.1: edition A has 8 of each number, 20 jokers, 6 skips, 6 Lügenbeutel cards (112)."""
    counts = {kind.label: kind.count for kind in ENGINE.kinds}
    assert counts == {**{str(r): 8 for r in range(1, 11)}, "joker": 20, "skip": 6, "Lügenbeutel card": 6}


def test_edition_b_composition():
    """2.1: edition B has 70 number cards (7 each), 26 jokers, 8 skips, 8 Lügenbeutel cards (112)."""
    engine = Engine(load(str(RULES), ["edition_b"]))
    counts = {kind.label: kind.count for kind in engine.kinds}
    assert counts == {**{str(r): 7 for r in range(1, 11)}, "joker": 26, "skip": 8, "Lügenbeutel card": 8}
    state, _ = engine.new_match(4, random.Random(1))
    assert sum(len(z) for z in state.zones) == 112


@pytest.mark.parametrize("variant, n, total_l", [("in_hand", 4, 6), ("in_hand", 6, 6),
                                                  ("edition_b_in_hand", 8, 8),
                                                  ("edition_b_in_hand", 3, 8)])
def test_in_hand_variant_deals_nine_and_one_lugenbeutel_card(variant, n, total_l):
    """2.2/L14: each hand gets exactly one Lügenbeutel card and 9 others; the leftovers are in the stock."""
    engine = Engine(load(str(RULES), [variant]))
    lb = engine.kind_named("Lügenbeutel card")
    for seed in range(3):
        state, _ = engine.new_match(n, random.Random(seed))
        hands = [state.zones[engine.zone_slot(state, "hand", s)] for s in range(n)]
        assert [len(h) for h in hands] == [10] * n
        assert [h.count(lb) for h in hands] == [1] * n
        stock = state.zones[engine.zone_slot(state, "stock")]
        assert len(stock) == 112 - 10 * n
        assert stock.count(lb) == total_l - n
        assert state.zones[engine.zone_slot(state, "aside")] == ()


@pytest.mark.parametrize("variant, bad, good", [("in_hand", 7, 6), ("edition_b_in_hand", 9, 8)])
def test_in_hand_player_limits(variant, bad, good):
    """L14: in_hand allows at most 6 players, edition_b_in_hand at most 8; more is an OptionError."""
    engine = Engine(load(str(RULES), [variant]))
    assert engine.game.players == (2, good)
    engine.new_match(good, random.Random(0))
    with pytest.raises(OptionError) as exc:
        engine.new_match(bad, random.Random(0))
    assert str(exc.value) == f"--players must be between 2 and {good} for Lügenbeutel, not {bad}"


def test_unknown_variant_is_an_option_error():
    """Loading with an unknown variant names the known ones."""
    with pytest.raises(OptionError) as exc:
        load(str(RULES), ["nope"])
    assert str(exc.value) == "unknown variant 'nope' (this game has: edition_b, edition_b_in_hand, in_hand, single_card)"
