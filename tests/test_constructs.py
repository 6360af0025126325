"""The language constructs added with dice, knock-outs, seat sets, values, loops, procedures with
values, per-seat results, caller-supplied chance, dependent choices and cards each seat starts
with: each through a small complete ``.rules`` text, loaded with ``rulekit.loads`` and run by
``rulekit.Engine``.
"""

from __future__ import annotations

import random

import pytest

from rulekit import Action, Chance, ChanceEvent, Engine, IllegalAction, loads
from rulekit.engine.compile import RulesRuntimeError
from strategies import after_setup, engine_of, error_of, play, setup_game


# ---------------------------------------------------------------------------- values
def test_division_rounds_down_also_for_negative_numbers():
    """'/' is whole-number division rounding down: -7 / 2 is -4, not -3."""
    got = after_setup("set a = 7 / 2  set b = -7 / 2  set c = 7 / -2  set d = -8 / 2")
    assert (3, -4, -4, -4) == (got["a"], got["b"], got["c"], got["d"])


def test_division_rounded_up():
    """'/ … rounded up' rounds towards the larger whole number, for negative numbers too."""
    got = after_setup("set a = 7 / 2 rounded up  set b = -7 / 2 rounded up  set c = 8 / 2 rounded up"
                      "  set d = 1 / 3 rounded up")
    assert (4, -3, 4, 1) == (got["a"], got["b"], got["c"], got["d"])


def test_mod_is_the_remainder_of_division_rounding_down():
    """'mod' is the remainder that goes with '/': (x / y) * y + x mod y = x."""
    got = after_setup("set a = 17 mod 5  set b = -7 mod 3  set c = 17 / 5 * 5 + 17 mod 5  set d = 6 mod 3")
    assert (2, 2, 17, 0) == (got["a"], got["b"], got["c"], got["d"])


def test_min_and_max_of_several_values():
    """min(…) and max(…) take any number of values, counters and expressions among them."""
    got = after_setup("set a = 4  set b = min(4, -2, 9)  set c = max(4, -2, 9)  set d = max(a * 3, 11) + min(a)")
    assert (-2, 9, 16) == (got["b"], got["c"], got["d"])


def test_unary_minus_and_negative_numbers():
    """'-' before a value negates it, binding tighter than '*' and '/': -2 * 3 is -6."""
    got = after_setup("set a = 4  set b = -a  set c = 2 - -3  set d = -(3 + 4) * -2 + -2 * 3")
    assert (-4, 5, 8) == (got["b"], got["c"], got["d"])


def test_if_then_else_as_a_value():
    """'if C then A else B' is A when C holds, else B."""
    body = "set a = if players = 2 then 10 else 20  set b = 1 + (if a > 15 then 100 else -100)"
    two, three = after_setup(body, n=2), after_setup(body, n=3)
    assert ((10, -99), (20, 101)) == ((two["a"], two["b"]), (three["a"], three["b"]))


def test_if_then_else_values_must_be_of_one_kind():
    """A number in one branch and a seat in the other is a located error."""
    text = setup_game("  set a = if true then 3 else P1")
    assert "<rules>:14:11: error: the two values of 'if … then … else …' are of different kinds" == error_of(text)


def test_let_gives_a_local_value_to_the_rest_of_the_block():
    """'let NAME = EXPR' holds its value for the statements after it."""
    got = after_setup("let x = 3 * 2  let y = x + 1  set a = y  let x = 10  set b = x + y")
    assert (7, 17) == (got["a"], got["b"])


def test_let_is_unknown_outside_its_block():
    """A value let inside an 'if' block is not known after the block."""
    text = setup_game("  if true { let x = 1 }\n  set a = x")
    assert "<rules>:15:11: error: unknown name 'x'" == error_of(text)


def test_division_by_a_computed_zero_fails_when_run():
    """A divisor that is zero only when the match runs stops the match with the line."""
    engine = engine_of(setup_game("  set a = 7 / (b - b)"))
    with pytest.raises(RulesRuntimeError) as exc:
        engine.new_match(2, random.Random(0))
    assert "division by zero (line 14)" == str(exc.value)


# ---------------------------------------------------------------------------- loops
def test_repeat_runs_its_block_n_times():
    """'repeat N times' runs its block N times, N evaluated once; 0 or fewer: not at all."""
    got = after_setup("set a = 3  repeat a times { add 1 to a  add 10 to b }"
                      "  repeat 0 times { add 1 to c }  repeat -2 times { add 1 to c }")
    assert (6, 30, 0) == (got["a"], got["b"], got["c"])


def test_for_each_in_a_range_counts_up_from_low_to_high():
    """'for each v in LOW..HIGH' runs with v = LOW, LOW+1, …, HIGH; an empty range not at all."""
    got = after_setup("for each v in 1..3 { set a = a * 10 + v }  for each v in -2..0 { add v to b }"
                      "  for each v in 3..2 { add 1 to c }  set d = 2  for each v in d..d + 1 { add v to d }")
    assert (123, -3, 0, 7) == (got["a"], got["b"], got["c"], got["d"])


# ---------------------------------------------------------------------------- procedures with values
PROCEDURES = """\
procedure give(k, p: seat) {
  add k to s of p
  if p = P2 { add 100 to a }
  for each q in everyone except p { add 1 to b }
}
"""


def test_procedure_called_twice_with_different_values():
    """'do give(5, P1)' then 'do give(7, left of P1)': each call adds its own number to its own seat."""
    got = after_setup("do give(5, P1)  do give(7, left of P1)", PROCEDURES, n=3)
    assert (5, 7, 0) == got["s"]


def test_procedure_reads_its_seat_parameter():
    """The seat parameter works in a comparison, in 'NAME of p' and in a set of seats."""
    got = after_setup("do give(1, P1)  do give(1, P2)  do give(1, P3)", PROCEDURES, n=3)
    assert (100, 6) == (got["a"], got["b"])


def test_procedure_values_are_restored_after_a_call_and_may_recurse():
    """A nested call with the same parameter name leaves the caller's value alone; a procedure may call itself."""
    decls = """\
procedure inner(k) { add k to a }
procedure outer(k) { do inner(k * 10)  add k to b }
procedure down(k) { if k > 0 { add k to c  do down(k - 1) } }
"""
    got = after_setup("do outer(2)  do down(3)", decls)
    assert (20, 2, 6) == (got["a"], got["b"], got["c"])


# ---------------------------------------------------------------------------- seats named by number
TURNS = """\
game "Turns"
players 2..3
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter score per player = 0
setup { set current = P2  set score of P3 = 4  go to play }
turn play {
  action pass { set current = left of current  go to play }
}
"""


def test_seats_named_by_number():
    """P2 is the second seat, P3 the third."""
    engine = engine_of(TURNS)
    state, _ = engine.new_match(3, random.Random(0))
    assert (1, (0, 0, 4)) == (engine.decision(state).seat, dict(engine.view(state, 0).counters)["score"])


def test_numbered_seat_beyond_the_player_count_fails_when_run():
    """P3 in a game of 2..3 players is fine with 3 seats and stops a match of 2 with the line."""
    engine = engine_of(TURNS)
    with pytest.raises(RulesRuntimeError) as exc:
        engine.new_match(2, random.Random(0))
    assert "there is no P3 with 2 players (line 6)" == str(exc.value)


def test_numbered_seat_beyond_every_player_count_is_a_located_error():
    """P5 in a game of at most 3 players can never exist: loading says where."""
    text = TURNS.replace("set score of P3 = 4", "set score of P5 = 4")
    assert "<rules>:6:" == error_of(text)[:len("<rules>:6:")]


# ---------------------------------------------------------------------------- knock-outs
KNOCKOUT = """\
game "Knock-out"
players 2..4
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter turns per player = 0
counter asked per player = 0
counter marks per player = 0
counter seen = 0
match { ends when 1 seat remains }
setup { go to play }
turn play {
  action pass {
    add 1 to turns
    set current = left of current
    go to play
  }
  action kick "kicks {p}" {
    choose p in seats in others
    knock out p
    for each q in everyone { add 1 to marks of q }
    if P2 is out { add 100 to marks of actor }
    set seen = count of seats in everyone
    go to ask
  }
}
window ask: each of others {
  action nod { add 1 to asked }
  then { set current = left of current  go to play }
}
"""


def kick(seat: int) -> Action:
    return Action("kick", (), (seat,))


def nod_all(engine: Engine, state):
    """Every seat asked in the window nods; the seats asked, in order."""
    asked = []
    while engine.decision(state).phase == "ask":
        asked.append(engine.decision(state).seat)
        state = play(engine, state, Action("nod"))
    return state, asked


def test_knocked_out_seat_is_skipped_everywhere():
    """After P2 is knocked out, everyone, count of seats, the window, left of and choices all pass it over."""
    engine = engine_of(KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    state = play(engine, state, kick(1))
    state, asked = nod_all(engine, state)
    counters = dict(engine.view(state, 0).counters)
    assert (0, 1, 0, 0) == state.out
    assert [2, 3] == asked
    assert (101, 0, 1, 1) == counters["marks"]
    assert 3 == counters["seen"]
    assert 2 == engine.decision(state).seat          # left of P1 is P3: P2 is out
    assert [kick(3), kick(0)] == [a for a in engine.legal_actions(state) if a.name == "kick"]


def test_is_out():
    """'P2 is out' holds once P2 was knocked out, not while it is in."""
    engine = engine_of(KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    kept = play(engine, state, kick(2))                         # P3 out: P2 is still in
    gone = play(engine, state, kick(1))                         # P2 out
    assert ((1, 1, 0, 1), (101, 0, 1, 1)) == (dict(engine.view(kept, 0).counters)["marks"],
                                              dict(engine.view(gone, 0).counters)["marks"])


def test_match_ends_at_once_when_one_seat_remains():
    """The knock-out that leaves one seat ends the match at once; the seat still in wins; State.out and View.out."""
    engine = engine_of(KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    state, _ = nod_all(engine, play(engine, state, kick(1)))           # P1 knocks out P2
    state, _ = nod_all(engine, play(engine, state, kick(3)))           # P3 knocks out P4
    marks = dict(engine.view(state, 0).counters)["marks"]
    assert 0 == engine.decision(state).seat
    state, events = engine.apply(state, kick(2), random.Random(0))      # P1 knocks out P3
    assert (-1, (0,)) == (state.phase, state.winners)
    assert (0, 1, 3, 2) == state.out
    assert (0, 1, 3, 2) == engine.view(state, 1).out
    assert marks == dict(engine.view(state, 0).counters)["marks"]       # the loop after it never ran
    assert ["action", "out", "deal_end", "match_end"] == [e.kind for e in events]
    assert (1, -1, -1, -1) == engine.returns(state)


def test_standings_order_seats_by_when_they_went_out():
    """The seat still in comes first, then the seats knocked out, the last to go out first."""
    engine = engine_of(KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    state, _ = nod_all(engine, play(engine, state, kick(1)))
    state, _ = nod_all(engine, play(engine, state, kick(3)))
    state = play(engine, state, kick(2))
    assert [0, 2, 3, 1] == [seat for seat, _ in engine.standings(state)]


def test_ends_when_two_seats_remain():
    """'ends when 2 seats remain': with 4 seats the second knock-out ends the match, both seats still in win."""
    engine = engine_of(KNOCKOUT.replace("1 seat remains", "2 seats remain"))
    state, _ = engine.new_match(4, random.Random(0))
    state, _ = nod_all(engine, play(engine, state, kick(1)))
    assert "play" == engine.decision(state).phase
    state = play(engine, state, kick(3))
    assert ((0, 2), (0, 1, 0, 2)) == (state.winners, state.out)


def test_knock_out_of_a_seat_already_out_changes_nothing():
    """Knocking out a seat twice keeps its place in the order of going out."""
    text = setup_game("  knock out P2  knock out P3  knock out P2  set a = count of seats in everyone")
    engine = engine_of(text)
    state, _ = engine.new_match(4, random.Random(0))
    assert ((0, 1, 2, 0), 2) == (state.out, dict(engine.view(state, 0).counters)["a"])


WINDOW_KNOCKOUT = """\
game "Window"
players 4
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter asked per player = 0
match { ends when 1 seat remains }
setup { go to ask }
window ask: each of everyone {
  action nod { add 1 to asked }
  action kick {
    choose p in seats in others
    knock out p
  }
  then { go to ask }
}
"""


def test_seat_knocked_out_during_a_window_is_not_asked():
    """P1 knocks out P3 in an 'each of everyone' window: P2 is asked, then P4, never P3."""
    engine = engine_of(WINDOW_KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    state = play(engine, state, Action("kick", (), (2,)), Action("nod"))
    assert 3 == engine.decision(state).seat


# ---------------------------------------------------------------------------- sets of seats
def test_count_of_seats_and_seats_where():
    """'(p in SET where COND)' keeps the seats for which COND holds; 'count of seats in' counts them."""
    got = after_setup("set s of P2 = 5  set s of P4 = 7\n"
                      "  set a = count of seats in (p in everyone where s of p > 0)\n"
                      "  set b = count of seats in everyone\n"
                      "  set who = first of (p in everyone where s of p > 5)", n=4)
    assert (2, 4, 3) == (got["a"], got["b"], got["who"])


def test_some_and_every_seat():
    """'some p in SET where (C)' and 'every p in SET where (C)'; every over no seat holds."""
    got = after_setup("set s of P2 = 5  set s of P4 = 7\n"
                      "  if some p in everyone where (s of p = 7) { add 1 to a }\n"
                      "  if some p in everyone where (s of p = 8) { add 10 to a }\n"
                      "  if every p in (p in everyone where s of p > 0) where (s of p >= 5) { add 100 to a }\n"
                      "  if every p in everyone where (s of p >= 5) { add 1000 to a }\n"
                      "  if every p in (p in everyone where s of p > 50) where (false) { add 1 to b }", n=4)
    assert (101, 1) == (got["a"], got["b"])


def test_groups_add_remove_and_except():
    """'add SEAT to GROUP' adds once, 'remove SEAT from GROUP' takes out, 'SET except SET' leaves out the second set."""
    got = after_setup("add P3 to team  add P1 to team  add P3 to team  add P4 to team\n"
                      "  remove P4 from team  remove P2 from team\n"
                      "  set a = count of seats in team\n"
                      "  for each p in everyone except team { set s of p = 1 }\n"
                      "  set b = count of seats in everyone except team except P2", n=4)
    assert ((0, 2), 2, (0, 1, 0, 1), 1) == (got["team"], got["a"], got["s"], got["b"])


def test_first_of_after_and_clockwise_from():
    """'SET after SEAT', 'SET clockwise from SEAT' keep SET's seats in clockwise order; 'first of' takes the first."""
    got = after_setup("add P1 to team  add P2 to team  add P4 to team\n"
                      "  for each p in everyone after P3 { add 1 to a  set s of p = a }\n"
                      "  for each p in team clockwise from P3 { add 1 to b  set s of p = s of p * 10 + b }\n"
                      "  set c = count of seats in team after P2\n"
                      "  set who = first of team after P2", n=4)
    assert ((22, 33, 0, 11), 2, 3) == (got["s"], got["c"], got["who"])


def test_first_of_others_and_of_a_seat_set_with_except():
    """'first of others' is the actor's left neighbour; 'first of everyone except P1' is P2."""
    got = after_setup("set who = first of others  set current = first of everyone except P1 except P2", n=4)
    assert (1, 2) == (got["who"], got["current"])


# ---------------------------------------------------------------------------- choices
CHOICES = """\
game "Choices"
players 3
deck { card coin: count 6 }
zone stock: shared, holds the deck
zone mat: per player, seen by all
counter got per player = 0
counter score per player = 0
group team
setup {
  set score of P2 = 1
  move top 2 of stock to mat of P2
  add P3 to team
  go to play
}
turn play {
  action pick "picks {a} then {b}" {
    choose a in 1..3
    choose b in 1..a
    add a * 10 + b to got
    set current = left of current
    go to play
  }
  action hit "hits {p}" {
    choose p in seats in others
    require GUARD "not that seat"
    add 1 to score of p
    set current = left of current
    go to play
  }
}
"""


def choices(guard: str = "p != P2"):
    engine = engine_of(CHOICES.replace("GUARD", guard))
    state, _ = engine.new_match(3, random.Random(0))
    return engine, state


def option(engine: Engine, state, name: str):
    return next(o for o in engine.decision(state).options if o.name == name)


def test_choice_range_reads_an_earlier_choice():
    """'choose b in 1..a' after 'choose a in 1..3': b offered 1..3, legal pairs exactly those with b <= a."""
    engine, state = choices()
    pairs = [a.params for a in engine.legal_actions(state) if a.name == "pick"]
    assert (("a", (1, 2, 3)), ("b", (1, 2, 3))) == option(engine, state, "pick").params
    assert [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3)] == pairs
    assert "b cannot be 3 here" == engine.why_illegal(state, Action("pick", (), (2, 3)))
    state = play(engine, state, Action("pick", (), (3, 2)))
    assert (32, 0, 0) == dict(engine.view(state, 0).counters)["got"]


def test_require_after_a_seat_choice_filters_the_offered_seats():
    """A require right after 'choose p in seats in others' that reads p: the Option offers only seats passing it."""
    engine, state = choices("p != P2")
    hit = option(engine, state, "hit")
    assert ((("p", (2,)),), (("P3",),)) == (hit.params, hit.shown)
    assert [(2,)] == [a.params for a in engine.legal_actions(state) if a.name == "hit"]
    assert "not that seat" == engine.why_illegal(state, Action("hit", (), (1,)))


@pytest.mark.parametrize("guard", ["score of p = 0", "count of mat of p = 0", "p in team", "left of p = P1"])
def test_require_reading_the_chosen_seat_through_of_filters_the_offered_seats(guard):
    """Each of these requires rules out P2 (and only P2): the Option offers only P3."""
    engine, state = choices(guard)
    assert [(2,)] == [a.params for a in engine.legal_actions(state) if a.name == "hit"]
    assert (("p", (2,)),) == option(engine, state, "hit").params


DEPENDENT_SEAT = """\
game "Take"
players 3
deck { card coin: count 6 }
zone stock: shared, holds the deck
zone mat: per player, seen by all
setup { move top 2 of stock to mat of P2  move top 1 of stock to mat of P3  go to play }
turn play {
  action take "takes {k} from {p}" {
    choose p in seats in others
    choose k in 1..RANGE
    set current = left of current
    go to play
  }
}
"""


def test_choice_range_reads_an_earlier_seat_choice_by_name():
    """A range that names an earlier seat choice (in 'if p = P2 then … else …') depends on it."""
    engine = engine_of(DEPENDENT_SEAT.replace("RANGE", "(if p = P2 then 2 else 1)"))
    state, _ = engine.new_match(3, random.Random(0))
    assert [(1, 1), (1, 2), (2, 1)] == [a.params for a in engine.legal_actions(state)]


def test_choice_range_reads_an_earlier_seat_choice_through_of():
    """'choose k in 1..count of mat of p': from P2 (2 cards) 1 or 2, from P3 (1 card) 1."""
    engine = engine_of(DEPENDENT_SEAT.replace("RANGE", "count of mat of p"))
    state, _ = engine.new_match(3, random.Random(0))
    assert [(1, 1), (1, 2), (2, 1)] == [a.params for a in engine.legal_actions(state)]


# ---------------------------------------------------------------------------- dice as pieces
DICE = """\
game "Dice"
players 2
die d6: 6 sides, wild 6, 2 in each cup, named 1 "one" 6 "star"
zone cup: per player, seen by owner
counter threes = 0
counter high per player = 0
setup {
  roll every cup
  set threes = count of (every cup where face = 3 or wild)
  for each p in everyone { set high of p = count of (cup of p where face >= 4) }
  go to play
}
turn play {
  action reroll {
    roll your cup
    set threes = count of (every cup where face = 3 or wild)
    set current = left of current
    go to play
  }
}
"""


def faces_chance(faces):
    faces = list(faces)
    return Chance(lambda event: faces.pop(0))


def labels(engine: Engine, cards) -> list:
    return [engine.kind_label(k) for k in cards]


def test_dice_in_each_cup_are_rolled_and_counted_with_wilds():
    """'roll every cup' rolls P1's dice then P2's; a wild face counts for any face."""
    engine = engine_of(DICE)
    state, events = engine.new_match(2, faces_chance([3, 6, 1, 5]))
    counters = dict(engine.view(state, 0).counters)
    assert (2, (1, 1)) == (counters["threes"], counters["high"])
    assert 2 == sum(1 for e in events if e.kind == "roll_dice")


def test_owner_sees_his_dice_and_others_only_the_count():
    """A cup seen by owner: the owner sees its faces, the other seat only how many dice (View.zone, View.dice)."""
    engine = engine_of(DICE)
    state, _ = engine.new_match(2, faces_chance([3, 6, 1, 5]))
    view = engine.view(state, 0)
    count, mine = view.zone("cup", 0)
    assert (2, ["3", "star"]) == (count, labels(engine, mine))
    assert (2, None) == view.zone("cup", 1)
    assert ((2,), (2,)) == view.dice
    assert ["one", "5"] == labels(engine, engine.view(state, 1).zone("cup", 1)[1])


def test_die_faces_are_kinds_with_a_face_names_and_the_wild_flag():
    """Each face of a die is a kind: label from 'named' (else the number), attribute face, flag wild."""
    engine = engine_of(DICE)
    kinds = [(k.label, k.attr("face"), "wild" in k.flags, k.die) for k in engine.kinds]
    assert [("one", 1, False, "d6"), ("2", 2, False, "d6"), ("3", 3, False, "d6"), ("4", 4, False, "d6"),
            ("5", 5, False, "d6"), ("star", 6, True, "d6")] == kinds


def test_dice_in_a_shared_zone():
    """'die d: 6 sides, 3 in tray': three dice in the one shared tray, seen by all once rolled."""
    text = """\
game "Tray"
players 2
die d: 6 sides, 3 in tray
zone tray: shared, seen by all
counter sixes = 0
counter sum = 0
setup {
  roll tray
  set sixes = count of (tray where face = 6)
  set sum = total face of tray
  end deal
}
"""
    engine = engine_of(text)
    state, _ = engine.new_match(2, faces_chance([6, 2, 6]))
    view = engine.view(state, 1)
    assert ((3, ["2", "6", "6"]), ((3,),)) == ((view.zone("tray")[0], labels(engine, view.zone("tray")[1])),
                                                view.dice)
    assert {"sixes": 2, "sum": 14} == dict(view.counters)


def test_rolling_dice_in_an_action_uses_the_chance_given_to_apply():
    """'roll your cup' in an action rolls the actor's dice only, with the outcomes chosen."""
    engine = engine_of(DICE)
    state, _ = engine.new_match(2, faces_chance([3, 6, 1, 5]))
    chance = faces_chance([3, 3])
    state, _ = engine.apply(state, Action("reroll"), chance)
    assert (["3", "3"], ["one", "5"]) == (labels(engine, engine.view(state, 0).zone("cup", 0)[1]),
                                          labels(engine, engine.view(state, 1).zone("cup", 1)[1]))
    assert (2, 2) == (len(chance.history), dict(engine.view(state, 0).counters)["threes"])


# ---------------------------------------------------------------------------- cards each seat starts with
START_CARDS = """\
game "Discs"
players 2..3
deck {
  card flower: 3 in each hand
  card skull: 1 in each hand
  card coin: count 4
}
zone hand: per player, seen by owner
zone stock: shared, holds the deck
setup { end deal }
"""


def test_cards_each_seat_starts_with():
    """'card flower: 3 in each hand': every seat starts with its own flowers; only the other cards make the deck."""
    engine = engine_of(START_CARDS)
    state, _ = engine.new_match(3, random.Random(0))
    view = engine.view(state, 1)
    assert (4, ["flower", "flower", "flower", "skull"]) == (view.zone("hand", 1)[0],
                                                            [engine.kinds[k].card for k in view.zone("hand", 1)[1]])
    assert [4, 4, 4, 4] == [view.zone("hand", s)[0] for s in range(3)] + [view.zone("stock")[0]]
    assert (4, 16) == (engine.game.deck_size, engine.game.pieces(3))


def test_cards_each_seat_starts_with_need_a_zone_of_each_player():
    """'3 in each stock' where stock is shared is a located error."""
    text = START_CARDS.replace("3 in each hand", "3 in each stock")
    assert "<rules>:4:16: error: 'stock' is not a zone of each player" == error_of(text)


def test_only_cards_each_seat_starts_with_need_no_zone_holding_the_deck():
    """A deck made only of cards each seat starts with needs no 'holds the deck'."""
    text = START_CARDS.replace("  card coin: count 4\n", "").replace(", holds the deck", "")
    engine = engine_of(text)
    state, _ = engine.new_match(2, random.Random(0))
    assert (0, (4, 4)) == (engine.game.deck_size, tuple(engine.view(state, 0).zone("hand", s)[0] for s in range(2)))


# ---------------------------------------------------------------------------- per-seat results
RESULTS = """\
game "Results"
players 3
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter chips per player = 10
setup { set chips of P2 = 14  set chips of P3 = 7  end deal }
match {
  winners: highest chips
  RETURNS
}
"""


def test_returns_gives_each_seat_its_result():
    """'returns: chips - 10' is evaluated for each seat as actor."""
    engine = engine_of(RESULTS.replace("RETURNS", "returns: chips - 10"))
    state, _ = engine.new_match(3, random.Random(0))
    assert ((1,), (0, 4, -3)) == (state.winners, engine.returns(state))


def test_returns_may_name_the_seat_as_actor():
    """In 'returns', actor is the seat whose result is computed."""
    engine = engine_of(RESULTS.replace("RETURNS", "returns: if actor = P2 then 100 else chips of actor"))
    state, _ = engine.new_match(3, random.Random(0))
    assert (10, 100, 7) == engine.returns(state)


def test_default_returns_are_plus_one_for_winners_and_minus_one_for_others():
    """Without 'returns', a winner gets +1 and every other seat -1."""
    engine = engine_of(RESULTS.replace("RETURNS", ""))
    state, _ = engine.new_match(3, random.Random(0))
    assert (-1, 1, -1) == engine.returns(state)


def test_returns_of_a_match_not_over_raises():
    """Engine.returns asks for a finished match."""
    engine = engine_of(TURNS)
    state, _ = engine.new_match(3, random.Random(0))
    with pytest.raises(ValueError) as exc:
        engine.returns(state)
    assert "the match is not over" == str(exc.value)


def test_returns_must_be_a_number():
    """A seat as the result is a located error."""
    text = RESULTS.replace("RETURNS", "returns: P1")
    assert "<rules>:9:12: error: expected a number, found a seat" == error_of(text)


# ---------------------------------------------------------------------------- caller-supplied chance
SHUFFLE = """\
game "Shuffle"
players 2
deck {
  card coin: count 3
  card gem: count 1
}
zone stock: shared, holds the deck
zone hand: per player, seen by owner
setup { shuffle stock  draw 1 from stock to hand of P1  end deal }
"""


def test_every_die_roll_is_a_chance_event_with_equal_probabilities():
    """Each die roll is a 'die' ChanceEvent with outcomes 1..sides of equal probability; the chosen face is used."""
    engine = engine_of(DICE.replace("6 sides, wild 6", "4 sides, wild 4").replace('6 "star"', '4 "star"'))
    chance = faces_chance([3, 4, 1, 2])
    state, _ = engine.new_match(2, chance)
    event = ChanceEvent("die", (1, 2, 3, 4), (0.25, 0.25, 0.25, 0.25))
    assert [(event, 3), (event, 4), (event, 1), (event, 2)] == chance.history
    assert ["3", "star"] == labels(engine, engine.view(state, 0).zone("cup", 0)[1])


def test_a_shuffle_is_drawn_card_by_card():
    """A shuffle asks one 'card' event per position, top first (the card dealt first is drawn
    first), in proportion to the copies left."""
    engine = engine_of(SHUFFLE)
    chance = faces_chance([1, 0, 0, 0])
    state, _ = engine.new_match(2, chance)
    assert [ChanceEvent("card", (0, 1), (0.75, 0.25)), ChanceEvent("card", (0,), (1.0,)),
            ChanceEvent("card", (0,), (1.0,)), ChanceEvent("card", (0,), (1.0,))] == [e for e, _ in chance.history]
    assert ((0, 0, 0), (1,)) == (state.zones[engine.zone_slot(state, "stock")],
                                 state.zones[engine.zone_slot(state, "hand", 0)])


def test_chance_without_a_chooser_draws_from_its_rng():
    """Chance without a chooser draws from its rng: the same seed gives the same match and the same history."""
    engine = engine_of(SHUFFLE)
    first, second = Chance(rng=random.Random(3)), Chance(rng=random.Random(3))
    s1, _ = engine.new_match(2, first)
    s2, _ = engine.new_match(2, second)
    assert s1 == s2
    assert (4, [0, 0, 0, 1]) == (len(first.history), sorted(o for _, o in first.history))
    state, _ = engine.new_match(2, Chance())
    assert [0, 0, 0, 1] == sorted(state.zones[engine.zone_slot(state, "stock")] +
                                  state.zones[engine.zone_slot(state, "hand", 0)])


def test_a_chooser_returning_a_non_outcome_raises():
    """A chooser that answers 7 to a six-sided die raises ValueError naming the outcomes."""
    engine = engine_of(DICE)
    with pytest.raises(ValueError) as exc:
        engine.new_match(2, Chance(lambda event: 7))
    assert "7 is not an outcome of this die event (the outcomes are 1, 2, 3, 4, 5, 6)" == str(exc.value)


# ---------------------------------------------------------------------------- located errors
DIE_TRAY = """\
game "Tray"
players 2
die d: 6 sides, DICE
zone tray: shared, seen by all
zone cup: per player, seen by owner
setup { roll tray  end deal }
"""


@pytest.mark.parametrize("text, where, message", [
    (DIE_TRAY.replace("DICE", "3 in each tray"), "3:1", "'tray' is shared"),
    (DIE_TRAY.replace("DICE", "3 in cup"), "3:1", "'cup' is a zone of each player"),
    (DIE_TRAY.replace("DICE", "3 in box"), "3:1", "unknown zone 'box'"),
    (DIE_TRAY.replace("DICE", "wild 7, 3 in tray"), "3:1", "die 'd' has no face 7 (its faces are 1..6)"),
    (setup_game("  remove P1 from nosuch"), "14:3", "unknown group 'nosuch'"),
    (setup_game("  do give(1)", PROCEDURES), "19:3", "procedure 'give' takes 2 value(s), 1 given"),
    (setup_game("  do give(1, P1, P2)", PROCEDURES), "19:3", "procedure 'give' takes 2 value(s), 3 given"),
    (setup_game("  do give(1, 2)", PROCEDURES), "19:14", "expected a seat, found a number"),
    (setup_game("  set a = 7 / 0"), "14:15", "division by zero"),
    (setup_game("  set a = 7 / 0 rounded up"), "14:15", "division by zero"),
    (setup_game("  set a = 7 mod 0"), "14:17", "division by zero"),
    (setup_game("  subtract P1 from team"), "14:3", "'team' is a group of seats: add a seat to it or remove one"),
    (setup_game("  add 3 to team"), "14:7", "expected a seat, found a number"),
    (setup_game("  repeat P1 times { add 1 to a }"), "14:10", "expected a number, found a seat"),
    (setup_game("  if a is out { add 1 to a }"), "14:6", "'a' is not a seat"),
], ids=["die-each-shared", "die-in-per-player", "die-unknown-zone", "die-no-such-face", "remove-unknown-group",
        "procedure-too-few", "procedure-too-many", "procedure-wrong-kind", "divide-by-zero", "divide-up-by-zero",
        "mod-zero", "subtract-from-group", "add-number-to-group", "repeat-a-seat", "is-out-of-a-counter"])
def test_misuse_is_a_located_error(text, where, message):
    """Misusing a new construct: RulesError with 'line:col: error: message'."""
    assert f"<rules>:{where}: error: {message}" == error_of(text)


def test_illegal_kick_of_a_seat_already_out():
    """A choice of a seat that is out is illegal."""
    engine = engine_of(KNOCKOUT)
    state, _ = engine.new_match(4, random.Random(0))
    state, _ = nod_all(engine, play(engine, state, kick(1)))
    with pytest.raises(IllegalAction) as exc:
        engine.apply(state, kick(1), random.Random(0))
    assert "p cannot be 1 here" == str(exc.value)


# ---------------------------------------------------------------------------- knowledge
KNOWLEDGE = """\
game "Knowledge"
players 3
deck {
  card number: rank 1..3, count 4
}
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
zone table: shared, count only
zone box: shared, count only
claim same(r): true when every card in claimed cards is (rank = r)
setup { deal 2 from stock to each hand  set current = P1  go to play }
turn play {
  action lay "lays" {
    choose 1 from your hand
    lay chosen on table
    claim same(1)
    go to doubt
  }
}
turn doubt {
  action show "shows the play" {
    reveal claimed cards
    move claimed cards to hand of claimant
    draw 1 from stock to hand of claimant
    set current = left of current
    go to play
  }
  action bury "puts the table in the box" {
    move table to box
    set current = left of current
    go to play
  }
  action draw "draws from the table" {
    draw 1 from table to your hand
    set current = left of current
    go to play
  }
}
"""


def knowledge_start():
    engine = Engine(loads(KNOWLEDGE))
    state, _ = engine.new_match(3, random.Random(2))
    card = engine.legal_actions(state)[0]
    return engine, play(engine, state, card), card.cards


def test_a_seat_remembers_the_card_it_laid_face_down():
    """The layer knows the face-down card he laid on the table; the others do not."""
    engine, state, laid = knowledge_start()
    assert (("table", None, laid),) == engine.view(state, 0).known
    assert () == engine.view(state, 1).known == engine.view(state, 2).known


def test_revealed_cards_stay_known_while_they_move_together():
    """A revealed play taken back into a hand stays known to all, also after the hand draws a card."""
    engine, state, laid = knowledge_start()
    state = play(engine, state, Action("show"))
    for seat in range(3):
        assert (("hand", 0, laid),) == engine.view(state, seat).known


def test_a_whole_zone_carries_what_is_known_of_it():
    """Moving a whole zone carries the layer's knowledge with it; a draw of an unseen card forgets it."""
    engine, state, laid = knowledge_start()
    buried = play(engine, state, Action("bury"))
    assert (("box", None, laid),) == engine.view(buried, 0).known
    drawn = play(engine, state, Action("draw"))
    assert () == engine.view(drawn, 0).known


def test_nobody_is_the_empty_set_of_seats():
    """``nobody``: ``let GROUP be nobody`` empties a group, a loop over it runs no time, it
    counts no seat and no seat is in it."""
    got = after_setup("let team be everyone  set a = count of seats in team  let team be nobody"
                      "  set b = count of seats in team  set c = count of seats in nobody"
                      "  for each p in nobody { set d = d + 1 }"
                      "  if P1 in nobody or P2 in nobody { set d = 9 }", n=3)
    assert (got["a"], got["b"], got["c"], got["d"], got["team"]) == (3, 0, 0, 0, ())
    text = setup_game("let team be everyone  let team be nobody  set a = count of seats in team + 5")
    engine = Engine(loads(text))
    state, _ = engine.new_match(2, random.Random(0))
    assert dict(engine.view(state, 0).counters)["a"] == 5


def test_an_emptied_group_is_explained_as_empty():
    from rulekit.explain import explain
    text = explain(loads(setup_game("let team be everyone  let team be nobody")))
    assert "is now empty" in text and "no player" not in text
