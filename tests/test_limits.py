"""Hostile but valid files refused cleanly (the robustness issue, items 3, 6, 7 and 8): limits
on nesting, decks, ranges, players, loops and procedure calls; keywords glued to names; the
search for a legal choice that must never hide one; texts that would tell a secret; every
variant's problems reported. Each refusal is a located error, never a traceback or a hang."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from rulekit import Action, Engine, loads
from rulekit.sema.check import MAX_CARDS, MAX_KINDS, MAX_PLAYERS, MAX_SIDES
from rulekit.cli import main
from rulekit.engine.compile import RulesRuntimeError
from rulekit.engine.runtime import MAX_CALLS, MAX_CHOICES, MAX_LOOP
from rulekit.play.match import play_match
from rulekit.players import RandomBot
from rulekit.lang.syntax import MAX_NESTING
from strategies import engine_of, error_of, play

SMALL = """\
game "Small"
players 2
deck { card gold: count 4 }
zone stock: shared, holds the deck
zone hand: per player, seen by owner
counter a = 0
setup {
  BODY
  end deal
}
"""


def small(body: str) -> str:
    return SMALL.replace("BODY", body)


def runs(text: str, n: int = 2) -> None:
    engine = engine_of(text)
    play_match(engine, [RandomBot(random.Random(s)) for s in range(n)], n, 1)


# ---------------------------------------------------------------------------- nesting
@pytest.mark.parametrize("build", [
    lambda k: " or ".join(["false"] * k + ["true"]),
    lambda k: " and ".join(["true"] * k),
    lambda k: "not " * k + "true",
    lambda k: " + ".join(["1"] * k) + " > 0",
], ids=["or", "and", "not", "plus"])
def test_expressions_nested_up_to_the_limit_run_and_deeper_ones_are_refused(build):
    runs(small(f"if {build(MAX_NESTING - 15)} {{ add 1 to a }}"))
    message = error_of(small(f"if {build(MAX_NESTING * 3)} {{ add 1 to a }}"))
    assert f"error: this is nested more than {MAX_NESTING} levels deep" in message


def test_a_long_else_if_chain_runs_and_a_far_longer_one_is_refused():
    chain = lambda k: "if false { add 1 to a } " + " ".join(f'else if false {{ log "{i}" }}' for i in range(k))
    runs(small(chain(MAX_NESTING // 2 - 10)))
    assert "nested more than" in error_of(small(chain(MAX_NESTING * 2)))


def test_a_very_long_line_shows_the_part_around_the_caret():
    text = small("if " + " or ".join(["false"] * 600) + " { add 1 to a }")
    with pytest.raises(Exception) as exc:
        loads(text)
    source_line, caret = str(exc.value).splitlines()[1:3]
    assert len(source_line) < 120 and source_line.strip().startswith("…")
    assert caret.strip() == "^"


# ---------------------------------------------------------------------------- words and digits
def test_a_keyword_glued_to_a_name_is_not_read_as_the_keyword():
    text = small("set a = 1").replace("end deal", "enddeal")
    assert "unexpected 'enddeal'" in error_of(text)
    assert "unexpected 'zonehand'" in error_of(small("add 1 to a").replace("zone hand: per", "zonehand: per"))


def test_digits_of_other_scripts_are_not_numbers():
    assert "unexpected character '٣'" in error_of(small("add 1 to a").replace("players 2", "players 2..٣"))


# ---------------------------------------------------------------------------- sizes
def test_too_many_players_are_refused_where_they_are_declared():
    message = error_of(small("add 1 to a").replace("players 2", "players 2..100000"))
    assert f"<rules>:2:1: error: 100000 players: a game may have at most {MAX_PLAYERS}" == message
    assert "at most" in error_of(small("add 1 to a").replace("players 2", "players 99999999999999999999"))


@pytest.mark.parametrize("card, expected", [
    ("card gold: count 99999999999999999999", f"a game may have at most {MAX_CARDS:,} cards"),
    ("card gold: count 1000000000", f"a game may have at most {MAX_CARDS:,} cards"),
    ("card gold: rank 1..99999999999999999999", f"a game may have at most {MAX_KINDS:,}"),
    ("card gold: rank 1..10000000", f"a game may have at most {MAX_KINDS:,}"),
    ("card gold: 6000 in each hand", f"at most {MAX_CARDS:,} are allowed"),
], ids=["count-1e20", "count-1e9", "range-1e20", "range-1e7", "per-seat"])
def test_decks_too_large_are_refused(card, expected):
    text = small("add 1 to a").replace("card gold: count 4", card)
    assert expected in error_of(text)


def test_a_die_with_too_many_sides_is_refused():
    text = small("add 1 to a").replace("deck { card gold: count 4 }",
                                       "deck { card gold: count 4 }\ndie d: 100000 sides, 1 in each hand")
    assert f"a die may have at most {MAX_SIDES:,}" in error_of(text)


CHOOSE = """\
game "Choose"
players 2
deck { card gold: count 4 }
zone stock: shared, holds the deck
counter a = 0
counter big = BIG
setup { go to pick from P1 }
turn pick {
  action pick "picks {n}" {
    choose n in 1..HIGH
    set a = n
    end deal
  }
}
"""


def test_a_choice_among_too_many_values_is_refused_by_check_when_its_bounds_are_numbers():
    text = CHOOSE.replace("HIGH", "99999999999999999999").replace("BIG", "0")
    assert f"at most {MAX_CHOICES:,} are allowed" in error_of(text)


def test_a_choice_among_too_many_values_stops_the_match_when_its_bounds_are_computed():
    engine = engine_of(CHOOSE.replace("HIGH", "big").replace("BIG", "100000000"))
    with pytest.raises(RulesRuntimeError, match=r"n would be chosen among 100,000,000 values \(line 10\)"):
        state, _ = engine.new_match(2, random.Random(0))
        engine.decision(state)


@pytest.mark.parametrize("loop", ["repeat 1000000000 times { add 1 to a }",
                                  "for each v in 1..1000000000 { add 1 to a }"], ids=["repeat", "for"])
def test_a_loop_that_would_run_too_often_stops_the_match(loop):
    with pytest.raises(RulesRuntimeError, match=f"at most {MAX_LOOP:,} are allowed"):
        runs(small(loop))


def test_a_loop_within_the_limit_runs():
    engine = engine_of(small(f"repeat {MAX_LOOP} times {{ add 1 to a }}").replace("end deal", "go to stop") +
                       "turn stop { action stop \"stops\" { end deal } }\n")
    state, _ = engine.new_match(2, random.Random(0))
    assert MAX_LOOP == dict(engine.view(state, 0).counters)["a"]


def test_a_procedure_that_calls_itself_without_end_stops_the_match():
    text = small("do again") + "procedure again {\n  add 1 to a\n  do again\n}\n"
    with pytest.raises(RulesRuntimeError, match=f"procedure 'again' is called more than {MAX_CALLS} deep"):
        runs(text)


def test_a_procedure_that_calls_itself_a_few_times_runs():
    text = small("do down(5)").replace("end deal", "go to stop") + """\
procedure down(k) {
  add 1 to a
  if k > 0 { do down(k - 1) }
}
turn stop { action stop "stops" { end deal } }
"""
    engine = engine_of(text)
    state, _ = engine.new_match(2, random.Random(0))
    assert 6 == dict(engine.view(state, 0).counters)["a"]


def test_a_setup_that_always_ends_the_deal_stops_the_match():
    text = small("add 1 to a") + "match { deals until a > 1000000 }\n"
    with pytest.raises(RulesRuntimeError, match="deals ended one after another without anyone deciding"):
        runs(text)


# ---------------------------------------------------------------------------- the search for a legal choice
SET_OF_A_RANK = """\
game "Set of a rank"
players 2
deck { card c "card": rank 1..13, count 4 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
zone table: shared, count only
claim rank(r) "{count of claimed cards} × {r}": true when every card in claimed cards is (rank = r)
setup { shuffle stock  deal 26 from stock to each hand  go to play from P1 }
turn play {
  action play "lays {count of chosen} card(s) of rank {r}" {
    choose 1 or more from your hand
    choose r in 1..13
    require every card in chosen is (rank = r) "all the cards must be of the rank you name"
    lay chosen on table
    claim rank(r)
    end deal
  }
}
"""


def test_a_legal_choice_in_a_large_hand_is_never_hidden():
    """26 cards and "1 or more cards of one rank": the largest choices are all illegal, but
    one card of any rank is legal, so the option is offered and a bot finds a legal action."""
    engine = engine_of(SET_OF_A_RANK)
    state, _ = engine.new_match(2, random.Random(1))
    decision = engine.decision(state)
    assert ["play"] == [o.name for o in decision.options]
    record = play_match(engine, [RandomBot(random.Random(s)) for s in range(2)], 2, 1)
    assert record.state.is_terminal


def test_an_option_whose_condition_reads_no_choice_is_closed_at_once():
    """A require after the choice that reads no choice is decided once: the option is
    closed without trying the 2^30 choices of cards (the first decision used to run for
    minutes)."""
    text = """\
game "Blowup"
players 2
deck { card coin: rank 1..20, count 3 }
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone pot: shared, count only
setup { deal 30 from stock to each hand  go to play from P1 }
turn play {
  action play "puts down coins" {
    choose 1 or more from your hand
    require count of pot > 100 "the pot is too small"
    lay chosen on pot
    go to play
  }
  action stop "ends the game" { end deal }
}
"""
    engine = engine_of(text)
    state, _ = engine.new_match(2, random.Random(0))
    assert ["stop"] == [o.name for o in engine.decision(state).options]


# ---------------------------------------------------------------------------- messages
def test_a_choice_over_a_zone_named_as_a_symbol_set_says_how_to_choose_cards():
    text = CHOOSE.replace("choose n in 1..HIGH", "choose n in stock").replace("BIG", "0")
    with pytest.raises(Exception) as exc:
        loads(text)
    assert "unknown symbol set 'stock'" in str(exc.value)
    assert "hint: 'stock' is a zone: to choose cards write 'choose 1 from stock'" in str(exc.value)


def test_a_text_that_would_tell_a_secret_is_refused_once():
    text = CHOOSE.replace("HIGH", "3").replace("BIG", "0").replace(
        'action pick "picks {n}"', 'action pick "picks {n}; P2 holds {count of (hand of P2 where gold)} gold"')
    text = text.replace("zone stock: shared, holds the deck", "zone stock: shared, holds the deck\n"
                        "zone hand: per player, seen by owner")
    with pytest.raises(Exception) as exc:
        loads(text)
    message = str(exc.value)
    assert message.count("error:") == 1
    assert "this text is shown to every seat, but it reads the cards of 'hand'" in message


@pytest.mark.parametrize("hole, what", [
    ("{a}", None),
    ("{count of hand of P2}", None),
    ("{secret}", "the counter 'secret'"),
    ("{count of (chosen where gold)}", "the faces of the chosen cards"),
    ("{if claim holds then 1 else 0}", "whether the claim holds"),
])
def test_what_a_text_may_read(hole, what):
    text = f"""\
game "Texts"
players 2
deck {{ card gold: count 4 }}
zone stock: shared, holds the deck
zone hand: per player, seen by owner
counter a = 0
counter secret per player = 0, seen by owner
claim gold "gold": true when every card in claimed cards is gold
setup {{ deal 2 from stock to each hand  go to pick from P1 }}
turn pick {{
  action pick "picks" {{
    choose 1 from your hand
    log "{hole}"
    end deal
  }}
}}
"""
    if what is None:
        loads(text)
    else:
        assert f"it reads {what}" in error_of(text)


def test_check_reports_the_problems_of_every_variant(tmp_path):
    path = tmp_path / "v.rules"
    path.write_text(small("add 1 to a") + """\
variant one "first" { counter a = nope }
variant two "second" { counter a = 1 }
variant three "third" { counter a = nada }
""", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 2 == result.exit_code
    assert "unknown name 'nope'" in result.output and "unknown name 'nada'" in result.output
    assert "variant two: ok" in result.output
    assert "Traceback" not in result.output


def test_your_in_the_setup_is_refused_with_what_to_write():
    message = error_of(small("move your hand to stock"))
    assert "<rules>:8:8: error: 'your hand' in the setup: no seat is acting there" == message


def test_a_double_equals_sign_is_explained():
    with pytest.raises(Exception) as exc:
        loads(small("if a == 1 { add 1 to a }"))
    assert "hint: equality is a single '=': write 'x = 1', not 'x == 1'" in str(exc.value)


def test_loading_many_games_keeps_only_the_last_few_compiled():
    """The compile cache is bounded: a process that loads hundreds of games does not keep them all."""
    import gc

    from rulekit.engine.compile import CompiledGame

    def alive():
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, CompiledGame))
    before = alive()
    for _ in range(40):
        Engine(loads(small("add 1 to a")))
    assert alive() - before <= 10


# ---------------------------------------------------------------------------- loops inside loops
NESTED = """\
game "Loops"
players 2
deck { card coin: count 2 }
zone stock: shared, holds the deck
counter n = 0
setup { go to play }
turn play clockwise {
  action spin "spins" {
    LOOPS
  }
}
match { deals until n > 2000000 }
"""


def nested(*loops: str) -> Engine:
    """The game whose action runs ``add 1 to n`` inside ``loops``, outermost first."""
    body = "add 1 to n"
    for loop in reversed(loops):
        body = f"{loop} {{ {body} }}"
    return Engine(loads(NESTED.replace("LOOPS", body)))


@pytest.mark.parametrize("loops", [
    ("repeat 100000 times", "repeat 100000 times"),
    ("for each i in 1..100000", "for each j in 1..100000"),
    ("repeat 100000 times", "for each p in everyone", "for each q in everyone", "for each r in everyone"),
    ("repeat 1000 times", "repeat 1000 times", "repeat 1000 times"),
])
def test_loops_inside_loops_stop_the_step_with_a_located_error(loops):
    """Issue 23, item 6: each loop is within MAX_LOOP, but together they would run up to
    10^10 rounds: the step stops once MAX_STEP_WORK rounds are run in all, with an error
    that names the loop's line, before any decision could stop it."""
    from rulekit.engine.runtime import MAX_STEP_WORK

    engine = nested(*loops)
    state, _ = engine.new_match(2, random.Random(0))
    with pytest.raises(RulesRuntimeError) as exc:
        engine.apply(state, Action("spin"), random.Random(0))
    assert f"more than {MAX_STEP_WORK:,} rounds in all" in str(exc.value)
    assert "on line 9, inside other loops" in str(exc.value)


def test_the_budget_of_loop_rounds_is_per_step():
    """600,000 rounds a step (100,000 × 5 and the outer 100,000): every step may run them."""
    engine = nested("repeat 100000 times", "repeat 5 times")
    state, _ = engine.new_match(2, random.Random(0))
    for _ in range(3):
        state, _ = engine.apply(state, Action("spin"), random.Random(0))
    assert dict(engine.view(state, 0).counters)["n"] == 3 * 500000
