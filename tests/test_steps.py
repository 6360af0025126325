"""The straight-line steps and listings (rulekit.engine.stepgen), the one implementation of
the rules at run time: every way of asking the engine about a decision agrees (the next
state made anew or in place, with the same claimants of the claims made; the same refusal
of an illegal action; the same legal actions, listed plainly or by the enumerators), for
every shipped game, variant and player count, and for the games here that exercise one
construct each (what each step does is pinned by the golden walks of ``test_walks.py``,
whose digests were written when a second, general path held the steps to it)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from rulekit import Action, Engine, IllegalAction, load, loads
from rulekit.errors import RulesRuntimeError
from rulekit.players.base import random_concrete

from strategies import COMBO_IDS, COMBOS, enumeration_size, seeds, some_legal_action

FAST = settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))


def _outcome(engine: Engine, state, action, seed: int, events: bool = False):
    """(the next state, its events, None) or (None, None, why it is illegal); ``events``:
    with the events (and their texts)."""
    try:
        return (*engine.apply(state, action, random.Random(seed), events=events), None)
    except IllegalAction as exc:
        return None, None, str(exc)


def _walk(combo, seed: int, decisions: int) -> int:
    """Play ``decisions`` random decisions of ``combo``, each asked every way the engine
    answers it, which must agree (what each answer is, the golden walks pin: see
    ``test_walks.py``): the first state with and without events (the same draws); the
    options with and without texts (the same choices); the plain listing and the
    enumerators; a random (maybe illegal) choice judged by ``why_illegal``, ``is_legal``
    and ``apply`` alike; a legal action taken with and without events, in place, and by
    its step alone (the claimants of the claims it makes as its events name them), and in
    place on a copy that tracks no knowledge (the same state but for ``known``, None), and
    by ``Engine.applier`` (which refuses an illegal choice leaving the copy as it was); a
    decline's or a vote's own effects, none. The number of steps taken."""
    engine = combo.engine
    n = combo.players
    made = [(engine.new_match(n, r, events=e), r.getstate()) for e, r in ((False, random.Random(seed)),
                                                                          (True, random.Random(seed)))]
    assert made[0][0][0] == made[1][0][0] and made[0][1] == made[1][1]
    rng = random.Random(seed)
    state, _ = engine.new_match(n, rng)
    taken = 0
    for i in range(decisions):
        if state.is_terminal:
            break
        decision = engine.decision(state, texts=False)
        worded = engine.decision(state).options
        assert [o._replace(label=None, shown=(), prompts=()) for o in worded] == \
            [o._replace(label=None, shown=(), prompts=()) for o in decision.options]
        if enumeration_size(decision) <= 5000:
            listed = engine.legal_actions(state)
            assert listed == engine.legal_actions(state, limit=10**9)
            assert listed == [a for o in decision.options for a in engine.legal_actions(state, action=o.name)]
        guess = random_concrete(rng.choice(decision.options), rng)
        refused = _outcome(engine, state, guess, i)[2]
        assert engine.why_illegal(state, guess) == refused
        assert engine.is_legal(state, guess) is (refused is None)
        if refused is not None:             # refused in place too, the copy as it was
            copy = engine.working_copy(state)
            with pytest.raises(IllegalAction):
                engine.applier(copy, random.Random(i))(guess)
            assert engine.snapshot(copy) == state and copy.made == []
        action = some_legal_action(engine, state, decision, rng)
        after, _, refused = _outcome(engine, state, action, i)
        assert refused is None
        with_events, events, _ = _outcome(engine, state, action, i, True)
        assert with_events == after
        claimants = [e.data["seat"] for e in events if e.kind == "claim"]
        live = engine.working_copy(state)
        engine.apply_in_place(live, action, random.Random(i))
        assert engine.snapshot(live) == after and live.made == claimants
        untracked = engine.working_copy(state, knowledge=False)
        engine.apply_in_place(untracked, action, random.Random(i))
        assert engine.snapshot(untracked) == after._replace(known=None) and untracked.made == claimants
        applied = engine.working_copy(state)
        engine.applier(applied, random.Random(i))(action)
        assert engine.snapshot(applied) == after and applied.made == claimants
        steps = []
        assert engine.program(n).steps[state.phase][action.name](state, action, random.Random(i), steps) == after
        assert steps == claimants
        if action.name == "decline" or decision.kind == "vote":
            assert engine.effects(state, action, random.Random(i)) == state
        taken += 1
        state = after
    return taken


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
@FAST
@given(seed=seeds)
def test_every_answer_about_a_step_agrees(combo, seed):
    _walk(combo, seed, 120)


@pytest.mark.slow
@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
@SLOW
@given(seed=seeds)
def test_every_answer_about_a_step_agrees_slow(combo, seed):
    _walk(combo, seed, 2000)


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
def test_a_copy_that_tracks_no_knowledge_plays_the_same_match(combo):
    """A working copy made with ``knowledge=False`` goes, step after step, through the states
    of the same match played with what each seat knows tracked, but for ``known``, which
    stays None to the end (through new deals and gathered cards too); none of its states
    has a view."""
    engine, n = combo.engine, combo.players
    state, _ = engine.new_match(n, random.Random(5))
    untracked = engine.working_copy(state, knowledge=False)
    rng = random.Random(6)
    steps = 0
    while not state.is_terminal and steps < 400:
        action = some_legal_action(engine, state, engine.decision(state, texts=False), rng)
        state = engine.apply(state, action, random.Random(steps), False, False)[0]
        engine.apply_in_place(untracked, action, random.Random(steps))
        assert engine.snapshot(untracked) == state._replace(known=None), steps
        steps += 1
    assert steps >= 2
    with pytest.raises(ValueError, match="tracks nothing of what the seats know"):
        engine.view(engine.snapshot(untracked), 0)


def test_the_steps_are_taken():
    """Not vacuous: Liar's Dice's actions all have a step, and whole matches take them."""
    combo = next(c for c in COMBOS if c.game == "liars_dice")
    engine = combo.engine
    assert set(engine.program(2).steps[0]) == {"bid", "liar"}
    assert sum(_walk(combo, seed, 100) for seed in range(20)) >= 40


def test_the_games_played_by_steps_alone():
    """Every shipped game, variant and player count is written as steps whole (a module
    without a step for some action, a window's decline, a listing, options or the first
    state is refused when it is written: see the next test). Lügenbeutel goes to a window
    and deals again; DTC and Bluff call procedures; Coyote loops; Nimm's Leich asks an
    'each' window of the seats with an option (a chip) and takes votes whose effects go
    together; Skull and Coup 'ask' (a stack of pending 'then' blocks), and Coup ends turns
    from inside them."""
    for c in COMBOS:
        c.engine.program(c.players)
    assert {c.game for c in COMBOS} == {"bluff", "coup", "coyote", "dtc", "liars_dice", "lugenbeutel", "nimms_leich",
                                        "skull"}
    lugenbeutel = next(c for c in COMBOS if c.game == "lugenbeutel" and c.variant is None)
    window = lugenbeutel.engine.cg.phase_list[2]
    assert window.kind == "first" and set(lugenbeutel.engine.program(lugenbeutel.players).steps[2]) == \
        {"call", "decline"}


def test_a_pending_ask_is_in_the_state_a_step_makes():
    """Coup's challenge window is asked by a claim: the state a step leads to there keeps
    the pending 'ask' (its frame on the stack)."""
    combo = next(c for c in COMBOS if c.game == "coup" and c.variant is None)
    engine, n = combo.engine, combo.players
    state, _ = engine.new_match(n, random.Random(0), events=False)
    tax = next(a for a in engine.legal_actions(state) if a.name == "tax")
    after, _ = engine.apply(state, tax, random.Random(1), events=False)
    assert engine.cg.phase_list[after.phase].name == "challenge" and len(after.stack) == 1


def _doubling_procedures(depth: int) -> str:
    """A game whose one action calls a procedure that calls the next one twice, ``depth``
    deep: written into a step, it would be 2**depth copies of the last one."""
    procedures = "\n".join(f"procedure p{i} {{\n  do p{i + 1}\n  do p{i + 1}\n}}" for i in range(depth))
    return f"""
game "doubling"
players 2
deck {{ card coin: count 4 }}
zone hand: per player, seen by owner, holds the deck
counter score per player = 0

setup {{
  go to play from P1
}}

turn play clockwise {{
  action score "scores" {{ do p0 }}
}}

{procedures}
procedure p{depth} {{ add 1 to score }}

match {{
  winners: highest score
}}
"""


def test_procedures_written_into_a_step_stay_few(tmp_path):
    """A step writes its procedures into itself, but not without bound: procedures that
    call the next one twice, 16 deep, are written in up to a bound and called as functions
    of their own beyond it (the module is written at once, and small), and it plays as the
    rules say; 5 deep (32 copies) is written in whole."""
    for depth, calls in ((16, True), (5, False)):
        path = tmp_path / f"doubling{depth}.rules"
        path.write_text(_doubling_procedures(depth), encoding="utf-8")
        engine = Engine(load(str(path)))
        program = engine.program(2)
        assert program.steps[0] is not None
        assert (re.search(r"def proc_\d+_of\(", program.source) is not None) is calls
        assert len(program.source) < 200_000
        state, _ = engine.new_match(2, random.Random(0), events=False)
        state, _ = engine.apply(state, engine.legal_actions(state)[0], random.Random(0), events=False)
        assert state.counters[engine.cg.counter_base(2)[0]] == 2 ** depth


def test_procedures_that_call_each_other_are_functions_of_the_step():
    """Procedures that call one another are functions over the step's locals (its cards,
    counters, 'go to' and end of the deal given back), and a call within calls without end
    stops the match at its bound, saying which procedure."""
    from test_codegen import RECURSION, engine_of_text
    from types import SimpleNamespace
    text = walked_here()["steps.RECURSION_SPIN"][0]
    walked = engine_of_text(RECURSION)
    assert sum(_walk(SimpleNamespace(engine=walked, players=n), seed, 100)
               for n in (2, 3) for seed in range(8)) > 50
    engine = engine_of_text(text)
    assert re.search(r"def proc_\d+_of\(", engine.program(2).source)
    state, _ = engine.new_match(2, random.Random(0))
    with pytest.raises(RulesRuntimeError, match="procedure 'loop' is called more than 200 deep"):
        engine.apply(state, Action("spin"), random.Random(0))


def test_a_knock_out_among_a_votes_effects_ends_the_match_in_the_step():
    """A vote whose effects knock seats out (the match over once one seat remains) is
    stepped: the tally stops at the knock-out that ends the match, its closing block not
    run."""
    from test_codegen import VOTE_OUT, engine_of_text
    from types import SimpleNamespace
    engine = engine_of_text(VOTE_OUT)
    assert sum(_walk(SimpleNamespace(engine=engine, players=n), seed, 200)
               for n in (3, 4) for seed in range(6)) > 100


ASKING = """\
game "Probe"
players 3
deck { card coin: count 6 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
counter score per player = 0
counter rounds = 0
setup {
  deal 1 from stock to each hand
  SETUP
  go to play from P1
}
turn play {
  action pass "passes" {
    add 1 to rounds
    if rounds > 6 { end deal }
  }
  then {
    THEN
    set current = left of current
    go to play
  }
}
window react: first of others {
  action nod "nods" { add 1 to score  go to play }
  then { go to play }
}
vote judge: each of everyone {
  action out "votes out {p}" {
    choose p in seats in others
    VOTE
  }
  action keep "keeps" { add 1 to score }
  then { go to play }
}
match { ends when 1 seat remains }
"""

#: ASKING with a clockwise turn (an 'end turn' in its 'then' passes the turn on), several
#: deals, and a window whose close says nothing (it is only asked: the asks' 'then' blocks run)
QUIET = ASKING.replace("turn play {", "turn play clockwise {").replace(
    "  then { go to play }\n}\nvote", "  then { add 1 to score of current }\n}\nvote").replace(
    "match { ends when 1 seat remains }", "match {\n  ends when 1 seat remains\n  deals until rounds > 20\n}")

#: where ASKING asks (its setup, its turn's 'then'), what its vote does, where it ends turns
ASKS = {"setup": (ASKING, "ask react then { add 1 to rounds }", "", "add 1 to score of p"),
        "setup, then goes": (ASKING, "ask react then { add 1 to rounds  go to play from P2 }", "", "add 1 to score of p"),
        "turn's then": (ASKING, "", "ask react then { add 1 to rounds }", "add 1 to score of p"),
        "then, a vote": (ASKING, "", "if rounds = 3 { ask judge then { add 2 to rounds } }", "knock out p"),
        "both": (ASKING, "ask react then { add 1 to rounds }",
                 "if rounds mod 2 = 0 { ask react then { add 1 to rounds } }", "add 1 to score of p"),
        "end turn in then": (QUIET.replace("then { add 1 to score of current }", "then { go to play }"), "",
                             "for each q in everyone { if rounds mod 2 = 0 { end turn }  add 1 to score of q }",
                             "add 1 to score of p"),
        "end turn in a later setup": (QUIET.replace("then { add 1 to score of current }", "then { go to play }"),
                                      "if rounds > 5 { end turn }", "", "add 1 to score of p"),
        "end turn in an ask's then": (QUIET, "", "if rounds mod 3 = 0 { ask react then { add 1 to rounds  end turn } }",
                                      "add 1 to score of p"),
        "asked again": (QUIET, "", "if rounds mod 3 = 0 { ask react then { add 1 to score  end turn } }",
                        "add 1 to score of p")}


@pytest.mark.parametrize("where", sorted(ASKS))
def test_an_ask_or_end_turn_in_a_setup_or_a_turns_then_is_stepped(where):
    """An 'ask' in a deal's setup (its chain of asks begun from the setup, -2, so that a
    'then' that says nothing ends in the same error) or in a turn's 'then' (begun from that
    turn; after an 'end turn' in an ask's
    'then', from the turn that began the chain), and an 'end turn' in a turn's own 'then'
    (the block stops, the turn passes on) or in a later deal's setup (the turn play was in
    ends) are written into the steps: the game is played by steps alone (its golden walk in
    ``test_walks.py``)."""
    from types import SimpleNamespace
    template, setup, then, vote = ASKS[where]
    engine = Engine(loads(template.replace("SETUP", setup).replace("THEN", then).replace("VOTE", vote)))
    assert sum(_walk(SimpleNamespace(engine=engine, players=3), seed, 200) for seed in range(12)) > 50


ASKED_FROM_THEN = """\
game "Asked from then"
players 3
deck { card coin: count 6 }
zone stock: shared, count only, holds the deck
counter rounds = 0
setup {
  go to play from P1
}
turn play {
  action poke "pokes" {
    ask react then { add 1 to rounds }
  }
  then {
    if rounds < 3 { ask react then { add 1 to rounds } }
    set current = left of current
    go to play
  }
}
window react: first of others {
  action nod "nods" { add 1 to rounds  go to play }
}
match { ends when 1 seat remains }
"""


def test_an_ask_in_a_turns_then_returns_to_that_turn():
    """An 'ask' in a turn's 'then' block, reached after the window its action asked closed
    without a word: when the asked window closes without a word too and its 'then' says
    nothing, the turn that asked ends again (docs/language.md, "ask … then"), its 'then'
    asking again until the count is reached; then the turn passes on."""
    engine = Engine(loads(ASKED_FROM_THEN, "asked.rules"))
    state, _ = engine.new_match(3, random.Random(0), events=False)
    seen = []
    for i in range(10):
        decision = engine.decision(state)
        action = Action("poke") if decision.phase == "play" else Action("decline")
        state, _ = engine.apply(state, action, random.Random(i), events=False)
        seen.append((decision.phase, decision.seat, state.counters[0]))
    assert seen == [("play", 0, 0), ("react", 1, 0), ("react", 2, 1), ("react", 1, 1), ("react", 2, 2),
                    ("react", 1, 2), ("react", 2, 3), ("play", 1, 3), ("react", 2, 3), ("react", 0, 4)]


CLOSED_AT_ONCE = """\
game "Closed at once"
players 3
deck { card coin: count 6 }
zone stock: shared, count only, holds the deck
counter rounds = 0
setup {
  if rounds > 0 { end turn }
  go to play from P1
}
turn play clockwise {
  action poke "pokes" {
    add 1 to rounds
    go to react
  }
}
window react: first of others {
  action nod "nods" {
    require rounds > 100
    go to play
  }
  then { end deal }
}
match { deals until rounds > 4 }
"""


def test_an_end_turn_in_a_later_setup_after_a_window_closed_at_once_is_outside_a_turn():
    """A turn's action goes to a window that no seat can act in: it closes at once (in the
    same step), and its close ends the deal; the next deal's setup says 'end turn' where
    play is in that window, not in a turn (docs/language.md, "end turn": reached outside a
    turn, it stops the match with an error)."""
    engine = Engine(loads(CLOSED_AT_ONCE, "closed.rules"))
    state, _ = engine.new_match(3, random.Random(0), events=False)
    with pytest.raises(RulesRuntimeError, match="'end turn' is reached outside a turn"):
        engine.apply(state, Action("poke"), random.Random(1), events=False)


SCORING = """
game "scoring"
players 3
deck { card coin: count 3 }
zone hand: per player, seen by owner, holds the deck
counter score per player = 0

setup {
  go to play from P1
}

turn play clockwise {
  action score "scores" { add 1 to score }
  action quit "quits" { knock out actor }
}

match {
  ends when 2 seats remain
  winners: highest score
}
"""


def test_a_step_that_ends_the_match_finds_the_winners_by_their_keys():
    """A knock-out that leaves two seats in ends the match inside a step: the winners are
    the seats still in with the highest score."""
    from rulekit import Action, loads
    engine = Engine(loads(SCORING, "scoring.rules"))
    assert set(engine.program(3).steps[0]) == {"score", "quit"}
    rng = random.Random(0)
    state, _ = engine.new_match(3, rng, events=False)
    for name in ("score", "score", "score", "score", "quit"):     # P1 scores 2, P2 and P3 1, then P2 quits
        state, _ = engine.apply(state, Action(name), rng, events=False)
    assert state.is_terminal and state.winners == (0,)
    assert state.counters[engine.cg.counter_base(3)[0]:][:3] == (2, 1, 1) and state.out[1] and not state.out[0] + state.out[2]


def test_effects_stop_after_the_action_unless_it_ends_the_match():
    """``Engine.effects``: an action's own effects, the turn not passed on (the same phase
    and seat to play, the score added); effects that end the match go on as ``apply``
    does, to its end and winners; a window's decline changes nothing."""
    from rulekit import Action, loads
    engine = Engine(loads(SCORING, "scoring.rules"))
    rng = random.Random(0)
    state, _ = engine.new_match(3, rng, events=False)
    score = engine.cg.counter_base(3)[0]
    own = engine.effects(state, Action("score"), random.Random(1))
    assert own.phase == state.phase and own.seats[0] == state.seats[0] == 0
    assert own.counters[score] == state.counters[score] + 1
    after = engine.apply(state, Action("score"), random.Random(1), events=False)[0]
    assert after.seats[0] == 1 and after.counters == own.counters
    for name in ("score", "score", "score", "score"):
        state, _ = engine.apply(state, Action(name), rng, events=False)
    ending = engine.effects(state, Action("quit"), random.Random(1))       # P2 quits: two seats remain
    assert ending == engine.apply(state, Action("quit"), random.Random(1), events=False)[0]
    assert ending.is_terminal and ending.winners == (0,)
    with pytest.raises(IllegalAction, match="the match is over"):
        engine.effects(ending, Action("score"), random.Random(1))
    lugenbeutel = next(c for c in COMBOS if c.game == "lugenbeutel" and c.variant is None)
    engine, n = lugenbeutel.engine, lugenbeutel.players
    state, _ = engine.new_match(n, random.Random(3), events=False)
    while engine.cg.phase_list[state.phase].kind != "first":
        state, _ = engine.apply(state, engine.legal_actions(state)[0], random.Random(3), events=False)
    assert engine.effects(state, Action("decline"), random.Random(1)) is state


TOKENS_AND_VOTES = """
game "tokens and votes"
players 3..4
deck { card coin: count 12 }
zone pot: shared, holds the deck
zone purse: per player, seen by all
counter score per player = 0
counter tokens per player = 1

setup {
  deal 2 from pot to each purse
  set current = P1
  go to offer
}

window offer: each of everyone clockwise from current {
  action spend "spends a token" {
    require tokens > 0
    subtract 1 from tokens
    add 1 to score
  }
  action cash "cashes a coin" {
    require score > 2
    choose 1 from your purse
    move chosen to pot
    go to poll
  }
  then { go to poll }
}

vote poll: each of everyone {
  action give "gives a coin" {
    choose 1 from your purse
    move chosen to pot
    add count of pot to score
  }
  action take "takes a coin" {
    require count of pot > 0
    draw 1 from pot to your purse
    add 2 to score
  }
  then {
    if highest score >= 12 { end deal }
    for each p in everyone { add 1 to tokens of p }
    go to offer
  }
}

match { winners: highest score }
"""


@pytest.mark.parametrize("players", [3, 4])
def test_an_each_window_and_a_vote_are_stepped(players):
    """An 'each' window asks only the seats with an option (a token, or a score to cash),
    an action of it that says nothing asks the next one, and a vote's choices are judged
    again when it closes and take effect statement by statement (every voter's coin moved
    before a giver's score counts the pot): by steps alone (its golden walk in
    ``test_walks.py``)."""
    from types import SimpleNamespace

    from rulekit import loads
    engine = Engine(loads(TOKENS_AND_VOTES, "tokens.rules"))
    assert set(engine.program(players).steps[0]) == {"spend", "cash", "decline"}
    assert set(engine.program(players).steps[1]) == {"give", "take"}       # a vote is never declined
    combo = SimpleNamespace(engine=engine, players=players)
    assert sum(_walk(combo, seed, 150) for seed in range(20)) >= 20 * 10     # whole matches


@pytest.mark.parametrize("path", sorted((Path(__file__).parent.parent / "docs" / "examples").glob("*.rules")),
                         ids=lambda p: p.stem)
def test_the_documented_examples_played_by_steps_alone(path):
    """The games the docs show (Kuhn poker's betting is over when 'every p in everyone
    where …' holds: a value over seats, written as a comprehension over the step's locals)
    are played by steps alone at every player count."""
    engine = Engine(load(path))
    low, high = engine.game.players
    for n in range(low, high + 1):
        engine.program(n)
    from types import SimpleNamespace
    assert sum(_walk(SimpleNamespace(engine=engine, players=low), seed, 200) for seed in range(3)) > 0


def _construct_combos():
    from test_codegen import CONSTRUCT_COMBOS, engine_of_text
    return [(name, engine_of_text(text), n) for name, text, n in CONSTRUCT_COMBOS]


def test_the_construct_games_played_by_steps_alone():
    """Every small game of ``test_constructs.py`` and ``test_constructs_more.py`` (every
    construct of the language: blind choices, a 'let' among a vote's effects, asks, forced
    windows…) is played by steps alone, its first state made by one."""
    combos = _construct_combos()
    assert len(combos) > 60
    for name, engine, n in combos:
        engine.program(n)


@pytest.mark.parametrize("part", ["legal", "options", "enumerators", "start"])
def test_a_module_without_a_step_for_something_is_a_defect(monkeypatch, part):
    """Where the step writer could not write a listing, the options, the enumerators of a
    phase or the first state, the module is refused when it is written, naming the phase
    and what the writer could not write: there is no other path to take."""
    from rulekit.engine import stepgen

    def refused(self, *args):
        raise stepgen.Unsupported("a construct made up for this test")

    def wrapped(write):
        def write_or_refuse(self, *args):
            try:
                refused(self)
            except stepgen.Unsupported as exc:
                self.reasons.append(str(exc))
            return None
        return write_or_refuse
    monkeypatch.setattr(stepgen.StepWriter, part, wrapped(getattr(stepgen.StepWriter, part)))
    engine = Engine(loads(TOKENS_AND_VOTES, "tokens.rules"))
    with pytest.raises(RuntimeError, match=r"rulekit cannot run .* it does not write a construct made up for this "
                                           r"test yet \(a defect of rulekit\)"):
        engine.program(3)


@pytest.mark.slow
def test_the_construct_games_walk_every_way():
    """Every construct game walked, asked every way (states, refusals, listings, events)."""
    from types import SimpleNamespace
    walked = 0
    for name, engine, n in _construct_combos():
        try:
            walked += sum(_walk(SimpleNamespace(engine=engine, players=n), seed, 300) for seed in range(4))
        except (IndexError, RulesRuntimeError):
            continue        # a game that gets stuck on purpose (no option, no seat): both paths alike
    assert walked > 10_000


def walked_here() -> dict:
    """{name: (rules text, players)} of the games of this file that the golden walks of
    ``test_walks.py`` pin (each exercises one construct of the steps)."""
    from test_codegen import RECURSION
    games = {f"steps.ASKS[{where}]": (template.replace("SETUP", setup).replace("THEN", then).replace("VOTE", vote), 3)
             for where, (template, setup, then, vote) in sorted(ASKS.items())}
    games["steps.SCORING"] = (SCORING, 3)
    games["steps.ASKED_FROM_THEN"] = (ASKED_FROM_THEN, 3)
    games.update({f"steps.TOKENS_AND_VOTES/{n}": (TOKENS_AND_VOTES, n) for n in (3, 4)})
    games["steps.DOUBLING"] = (_doubling_procedures(5), 2)
    games["steps.RECURSION_SPIN"] = (RECURSION.replace(
        "procedure next {", "procedure loop(k) {\n  do other(k + 1)\n}\nprocedure other(k) {\n  add 1 to rounds\n"
        "  do loop(k)\n}\nprocedure next {").replace(
        '  action chase "chases {k}" {', '  action spin "spins" { do loop(0)  do next }\n  action chase "chases {k}" {'),
        2)
    return games
