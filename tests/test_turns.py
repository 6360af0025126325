"""Turns that pass on by themselves (``turn NAME clockwise [among SEATS]``), ``end turn``,
``go to PHASE from SEAT``, a turn of one action (``turn NAME: action …``) and the choice
written into a move (``move N of your choice from … to …``, ``shuffle N of your choice from
… into …``): each through a small complete ``.rules`` text run by ``rulekit.Engine``.
"""

from __future__ import annotations

import random

import pytest

from rulekit import Action, loads
from rulekit.engine.compile import RulesRuntimeError
from strategies import engine_of, error_of, play


def started(text: str, n: int = 3):
    engine = engine_of(text)
    state, _ = engine.new_match(n, random.Random(0))
    return engine, state


def counters(engine, state) -> dict:
    return dict(engine.view(state, 0).counters)


ROUND = """\
game "Round"
players 2..5
deck { card chip: 3 in each hand }
zone hand: per player, seen by owner
zone pot: shared, seen by all
counter turns = 0
group active
setup {
  let active be everyone
  go to play from START
}
turn play ROTATION {
  action give "gives a chip" { move 1 of your choice from your hand to pot }
  action fold "folds" {
    remove actor from active
    FOLD
  }
  action leave "leaves" { knock out actor }
  then {
    add 1 to turns
    if turns >= 9 { end deal }
  }
}
"""


def round_game(rotation="clockwise", start="P2", fold="") -> str:
    return ROUND.replace("ROTATION", rotation).replace("START", start).replace("FOLD", fold)


GIVE = Action("give", (0,))                                 # one chip (kind 0)
FOLD = Action("fold")
LEAVE = Action("leave")


def test_go_to_from_sets_the_seat_whose_turn_it_is():
    engine, state = started(round_game(start="P3"), 4)
    assert 2 == engine.decider(state)


def test_a_clockwise_turn_passes_left_after_each_action():
    engine, state = started(round_game(), 4)
    seen = []
    for _ in range(5):
        seen.append(engine.decider(state))
        state = play(engine, state, GIVE)
    assert [1, 2, 3, 0, 1] == seen
    assert 5 == counters(engine, state)["turns"]          # the turn's 'then' ran after each action


def test_a_clockwise_turn_skips_seats_that_are_out():
    engine, state = started(round_game(), 4)
    state = play(engine, state, GIVE, LEAVE)                # P3 leaves
    assert 3 == engine.decider(state)
    state = play(engine, state, GIVE, GIVE)
    assert 1 == engine.decider(state)                      # P4, P1, then P2: P3 is skipped


def test_clockwise_among_a_group_skips_seats_outside_it():
    engine, state = started(round_game("clockwise among active"), 4)
    state = play(engine, state, FOLD)                       # P2 folds: P3 plays next
    assert 2 == engine.decider(state)
    state = play(engine, state, GIVE, GIVE, GIVE)          # P3, P4, P1: P2 is no longer in 'active'
    assert 2 == engine.decider(state)


def test_clockwise_among_a_group_with_nobody_left_is_a_located_error():
    engine, state = started(round_game("clockwise among active"), 2)
    state = play(engine, state, FOLD)
    with pytest.raises(RulesRuntimeError, match=r"nobody is left to take the turn 'play' \(line 12\)"):
        play(engine, state, FOLD)


def test_end_turn_skips_the_rest_of_the_action_and_ends_the_turn():
    engine, state = started(round_game(fold="end turn\n    add 100 to turns"), 3)
    state = play(engine, state, FOLD)
    assert 1 == counters(engine, state)["turns"]           # the 'then' ran; 'add 100' did not
    assert 2 == engine.decider(state)


ASKED = """\
game "Asked"
players 3
deck { card chip: count 3 }
zone stock: shared, holds the deck
counter a = 0
counter b = 0
setup { go to act from P1 }
turn act clockwise {
  action try "tries" {
    ask block
    add 1 to a
  }
  then { add 1 to b }
}
window block: first of everyone after current {
  action stop "stops it" { end turn }
}
"""


def test_end_turn_in_an_asked_window_ends_the_turn_that_asked():
    engine, state = started(ASKED)
    state = play(engine, state, Action("try"))
    assert 1 == engine.decider(state)                      # P2 may stop it
    state = play(engine, state, Action("stop"))
    assert {"a": 0, "b": 1} == counters(engine, state)    # the action stopped; the turn's 'then' ran
    assert 1 == engine.decider(state)                      # and P2 (left of P1) takes the turn
    assert "act" == engine.cg.phase_list[state.phase].name


def test_a_declined_window_lets_the_action_go_on():
    engine, state = started(ASKED)
    state = play(engine, state, Action("try"), Action("decline"), Action("decline"))
    assert {"a": 1, "b": 1} == counters(engine, state)
    assert 1 == engine.decider(state)


def test_end_turn_outside_a_turn_is_a_located_error():
    text = ASKED.replace("setup { go to act from P1 }", "setup { go to block from P1 }")
    engine, state = started(text)
    with pytest.raises(RulesRuntimeError, match="'end turn' is reached outside a turn"):
        play(engine, state, Action("stop"))


#: a deal ended by a turn's action: the next deal's setup runs within that step
SETUP_ENDS_TURN = """\
game "End turn in a later setup"
players 3
deck { card coin: count 4 }
zone stock: shared, holds the deck
counter score = 0
counter passed = 0
setup {
  if score > 0 { end turn }
  go to play from P1
}
turn play clockwise {
  action win "wins" {
    add 1 to score
    end deal
  }
  then { add 1 to passed }
}
match {
  deals until score > 2
}
"""


def test_end_turn_in_a_later_setup_run_from_a_turns_action_ends_that_turn():
    """The first deal's setup is outside a turn (its 'end turn' is not reached here); the
    next deal's setup runs within the step of the action that ended the deal, so its
    'end turn' ends that turn: its 'then' runs, the turn passes clockwise, and the rest of
    the setup ('go to play from P1') is skipped."""
    engine, state = started(SETUP_ENDS_TURN)
    assert 0 == engine.decider(state)
    state = play(engine, state, Action("win"))
    assert {"score": 1, "passed": 1} == counters(engine, state)
    assert 2 == state.deal and 1 == engine.decider(state)       # P2, left of P1
    state = play(engine, state, Action("win"))
    assert 2 == engine.decider(state)                           # P3, left of P2


def test_end_turn_in_the_first_setup_is_a_located_error():
    text = SETUP_ENDS_TURN.replace("if score > 0 { end turn }", "end turn")
    with pytest.raises(RulesRuntimeError, match="'end turn' is reached outside a turn"):
        started(text)


def test_a_turn_without_clockwise_or_then_still_must_say_where_play_goes():
    text = round_game().replace("turn play clockwise {", "turn play {").replace(
        "  then {\n    add 1 to turns\n    if turns >= 9 { end deal }\n  }\n", "")
    assert "can end without saying where play goes" in error_of(text)


def test_a_vote_cannot_end_a_turn():
    text = """\
game "V"
players 2
deck { card chip: count 2 }
zone stock: shared, holds the deck
setup { go to v }
vote v: each of everyone {
  action yes "yes" { end turn }
  then { end deal }
}
"""
    assert "the choices of a vote take effect together" in error_of(text)


def test_a_turn_of_one_action_reads_as_the_long_form():
    long = """\
game "One"
players 2
deck { card chip: 2 in each hand }
zone hand: per player, seen by owner
zone pot: shared, seen by all
setup { go to give from P1 }
turn give clockwise {
  action give "gives a chip" { move 1 of your choice from your hand to pot }
}
"""
    short = long.replace("turn give clockwise {\n  action", "turn give clockwise: action").replace("}\n}\n", "}\n")
    assert short != long
    one, two = loads(long), loads(short)
    assert [(p.name, p.kind, p.actions, p.rotation is not None) for p in one.phases] == \
        [(p.name, p.kind, p.actions, p.rotation is not None) for p in two.phases]


def test_move_of_your_choice_chooses_then_moves():
    engine, state = started(round_game(), 3)
    options = [a for a in engine.legal_actions(state) if a.name == "give"]
    assert [(0,)] == [a.cards for a in options]      # the choice is offered as 'choose 1'
    state = play(engine, state, GIVE)
    pot = state.zones[engine.zone_slot(state, "pot", None)]
    assert 1 == len(pot)


def test_move_of_your_choice_with_an_empty_source_offers_nothing():
    engine, state = started(round_game(), 2)
    for _ in range(3):
        state = play(engine, state, GIVE, GIVE)
    assert ["fold", "leave"] == sorted({a.name for a in engine.legal_actions(state)})


def test_shuffle_of_your_choice_puts_the_chosen_cards_into_a_zone():
    text = """\
game "Return"
players 2
deck {
  card red: count 2
  card blue: count 2
}
zone stock: shared, holds the deck
zone hand: per player, seen by owner
setup {
  deal 2 from stock to each hand
  go to give from P1
}
turn give: action back "puts two back" {
  shuffle 2 of your choice from your hand into stock
  end deal
}
"""
    engine, state = started(text, 2)
    option = engine.legal_actions(state)[0]
    assert 2 == len(option.cards)
    state = play(engine, state, option)
    assert 0 == len(state.zones[engine.zone_slot(state, "hand", 0)])
    assert 2 == len(state.zones[engine.zone_slot(state, "stock", None)])


def test_choice_still_names_a_zone():
    text = round_game().replace("zone pot: shared", "zone choice: shared").replace("to pot", "to choice")
    engine, state = started(text, 2)
    state = play(engine, state, GIVE)
    assert 1 == len(state.zones[engine.zone_slot(state, "choice", None)])


@pytest.mark.parametrize("game", ["lugenbeutel.rules", "coup.rules", "nimms_leich.rules", "skull.rules"])
def test_the_view_names_the_seat_deciding_now_as_actor(game):
    """``actor`` is the seat taking the action: every seat's view, and the record of a
    seat's log (``--log-for``), name the seat that must decide now, not the last one that
    acted (which they named before: issue 22)."""
    from pathlib import Path
    from rulekit import Engine, load
    from rulekit.play.replay import observation
    from rulekit.players.base import random_legal

    engine = Engine(load(Path(__file__).resolve().parent.parent / "games" / game))
    rng = random.Random(5)
    state, _ = engine.new_match(4, rng)
    changed = 0
    for _ in range(120):
        if state.is_terminal:
            break
        decider = engine.decider(state)
        changed += state.seats[1] != decider
        for seat in range(4):
            assert dict(engine.view(state, seat).seats)["actor"] == decider
        assert observation(engine, state, decider)["view"]["seats"]["actor"] == "P" + str(decider + 1)
        state, _ = engine.apply(state, random_legal(engine.decision(state), rng), rng)
    assert changed > 0          # the state's last actor was another seat at some decisions
