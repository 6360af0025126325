"""The human seat: declining a window is cheap (issue 9, item 1)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from rich.console import Console

from rulekit import Action, Engine, load, loads
from rulekit.play.match import play_match, seat_rng
from rulekit.players import HumanPlayer, RandomBot

GAMES = Path(__file__).resolve().parent.parent / "games"
ENGINE = Engine(load(str(GAMES / "lugenbeutel.rules")))


class Person(HumanPlayer):
    """A scripted person: plays the first option with the first card on its turns; in the
    Liar! window, types ``first_window`` once per deal, then declines with Enter."""

    def __init__(self, first_window: str | None):
        super().__init__(ENGINE, Console(file=io.StringIO(), width=120), self._answer)
        self.first_window = first_window
        self.shown: list = []         # (decision kind, cards the claim covers) of every screen shown
        self.typed_deals: set = set()
        self.kind = None
        self.prompts = 0

    def choose(self, view, decision):
        self.kind, self.deal = decision.kind, view.deal
        self.pool = [ENGINE.kind_label(k) for o in decision.options if o.cards for k in o.cards]
        return super().choose(view, decision)

    def show(self, view, decision):
        self.shown.append((decision.kind, view.claim[3] if view.claim is not None else 0))
        super().show(view, decision)

    def _answer(self, prompt: str) -> str:
        self.prompts += 1
        if self.prompts > 20_000:       # an answer that is never accepted: fail, do not hang
            raise EOFError
        if prompt.startswith("choose an option") and self.kind != "turn":
            if self.first_window is not None and self.deal not in self.typed_deals:
                self.typed_deals.add(self.deal)
                return self.first_window
            return ""                  # Enter declines
        return self.pool[0] if prompt.startswith("which cards") else "1"  # a card by name: its names are numbers


def play(person: Person, seed: int = 3):
    players = [person] + [RandomBot(seat_rng(seed, s)) for s in (1, 2, 3)]
    return play_match(ENGINE, players, 4, seed, max_steps=3000)


def test_enter_declines_a_window():
    person = Person(None)
    record = play(person)
    windows = [s for s in person.shown if s[0] != "turn"]
    assert windows, "the person was asked in the Liar! window"
    declined = [r for r in record.log if r.get("type") == "decision" and r["seat"] == "P1" and r["action"] == "decline"]
    assert len(declined) == len(windows)


def test_only_n_asks_only_about_claims_covering_n_cards_or_more():
    """After 'only 3', the window is shown only for plays of 3 cards or more (this deal)."""
    plain, filtered = Person(None), Person("only 3")
    play(plain)
    play(filtered)
    asked = [s for s in filtered.shown if s[0] != "turn"]
    # the first window of each deal is where 'only 3' is typed; every later one covers 3+
    later = asked[len(filtered.typed_deals):]
    assert all(count >= 3 for _, count in later), later
    assert len(asked) < len([s for s in plain.shown if s[0] != "turn"])
    assert [s for s in filtered.shown if s[0] == "turn"], "own turns are still asked"


def test_never_stops_asking_in_that_window_for_the_deal():
    person = Person("never")
    play(person)
    windows = [s for s in person.shown if s[0] != "turn"]
    assert len(windows) == len(person.typed_deals)       # once per deal, where 'never' was typed


def test_help_history_and_rules_answer_and_ask_again():
    """'help', 'rules' and 'history' print and ask the same question again."""
    state, _ = ENGINE.new_match(4, random.Random(4))
    out = io.StringIO()
    answers = iter(["help", "rules", "history", "pass"])
    human = HumanPlayer(ENGINE, Console(file=out, width=200), lambda prompt: next(answers))
    decision = ENGINE.decision(state)
    action = human.choose(ENGINE.view(state, decision.seat), decision)
    text = out.getvalue()
    assert action.name == "pass"
    assert "Other commands: history" in text
    from rulekit.explain import explain

    assert explain(ENGINE.game) in text                            # 'rules': the game's rulebook
    assert "“calls Liar!”" in text and "“passes and draws a card”" in text     # the labels, not the names


def _typed(engine, state, lines: list[str]):
    out = io.StringIO()
    answers = iter(lines)
    human = HumanPlayer(engine, Console(file=out, width=200), lambda prompt: next(answers))
    decision = engine.decision(state)
    return human.choose(engine.view(state, decision.seat), decision), out.getvalue()


def test_a_whole_move_is_typed_in_one_line_with_cards_by_name():
    state, _ = ENGINE.new_match(4, random.Random(4))
    seat = ENGINE.decision(state).seat
    hand = sorted(state.zones[ENGINE.zone_slot(state, "hand", seat)])
    twice = next(k for k in hand if hand.count(k) >= 2)
    once = next(k for k in hand if k != twice)
    label = ENGINE.kind_label
    action, _ = _typed(ENGINE, state, [f"play {label(once)} 2x{label(twice)}"])
    assert action == Action("play", tuple(sorted((once, twice, twice))), ())
    # names in any case
    action, _ = _typed(ENGINE, state, ["PLAY", label(twice).upper()])
    assert action == Action("play", (twice,), ())
    # Lügenbeutel's cards are called by numbers: a number is a card's name, never a place in
    # the listing (a 10 typed with no 10 in hand was the tenth card)
    missing = next(str(r) for r in range(1, 11) if str(r) not in map(label, hand))
    action, text = _typed(ENGINE, state, [f"play {missing}", label(once)])
    assert action == Action("play", (once,), ()) and f"'{missing}' is not the name of a card you may choose" in text
    # a card named more often than it is held is refused, and the question about the cards
    # asked again (not the options); 'back' returns to the options
    action, text = _typed(ENGINE, state, [f"play 9x{label(once)}", label(once)])
    assert action == Action("play", (once,), ()) and f"there is only 1 × {label(once).lower()} to choose" in text
    action, text = _typed(ENGINE, state, [f"play 9x{label(once)}", "back", "pass"])
    assert action.name == "pass"


def test_a_value_by_its_name_and_an_action_not_offered_says_why():
    dice = Engine(load(str(GAMES / "liars_dice.rules")))
    state, _ = dice.new_match(2, random.Random(1))
    action, text = _typed(dice, state, ["liar", "bid 2 5"])
    assert action == Action("bid", (), (2, 5))
    assert "'liar' is not possible now: the opener must bid" in text


def test_hot_seat_clears_the_screen_and_passes_the_keyboard():
    """Two people at one keyboard (Liar's Dice, --human 1 --human 2): between their
    decisions the screen is cleared and the keyboard passed; one person alone is never
    asked to pass it."""
    from click.testing import CliRunner

    from rulekit.cli import main

    dice = str(GAMES / "liars_dice.rules")
    both = CliRunner().invoke(main, ["run", dice, "--seed", "1", "--human", "1", "--human", "2"],
                              input="\nbid 1 1\n\nbid 1 2\n\nliar\n")
    assert both.exit_code == 0, both.output
    # the first seat's screen too waits for its person (found by helper-29)
    assert both.output.index("give the keyboard to P1 and press Enter") < both.output.index("your decision")
    assert "pass the keyboard to P2 and press Enter" in both.output
    assert "pass the keyboard to P1 and press Enter" in both.output
    one = CliRunner().invoke(main, ["run", dice, "--seed", "1", "--human", "1", "--bots", "generic"], input="bid 1 1\nliar\n" * 5)
    assert "pass the keyboard" not in one.output


HOT_SEAT_RULES = """game "hot seat"
players 2
deck { card a: count 5  card b: count 5 }
zone stock: holds the deck
zone hand: per player, seen by owner
setup { shuffle stock  deal 2 from stock to each hand  go to pick from P1 }
turn pick {
  action pass "passes" { go to look from left of current }
  action stop "stops" { end deal }
}
turn look: action draw "draws a card and looks at a hand" {
  draw 1 from stock to your hand
  show hand of left of actor to actor
  go to pick
}
"""


def test_at_one_keyboard_a_step_taken_for_the_next_seat_tells_it_nothing_before_the_hand_over(tmp_path):
    """P1 passes; P2's only choice (draw a card and look at P1's hand) is taken for it
    only once the keyboard is passed to P2 (that a seat has one choice may follow from its
    hidden cards; found by helper-30), and the card P2 got and the hand shown to it are
    told after the hand-over, never on P1's screen."""
    from click.testing import CliRunner

    from rulekit.cli import main

    rules = tmp_path / "hot.rules"
    rules.write_text(HOT_SEAT_RULES)
    result = CliRunner().invoke(main, ["run", str(rules), "--seed", "1", "--human", "1,2"], input="\npass\n\n")
    before, after = result.output.split("pass the keyboard to P2", 1)
    assert "P2 draws" not in before and "only one choice" not in before
    assert "you get" not in before and "shown to P2" not in before
    assert "(P2: only one choice: draws a card and looks at a hand)" in after
    assert "(shown to P2: a, a)" in after and "you get a in your hand" in after


def test_enter_declines_at_the_real_prompt(tmp_path):
    """Through click's prompt (which asks again after an empty line unless told otherwise):
    P1's first decision is the Liar! window, and an empty line declines it."""
    import json

    from click.testing import CliRunner

    from rulekit.cli import main

    log = tmp_path / "m.jsonl"
    result = CliRunner().invoke(main, ["run", str(GAMES / "lugenbeutel.rules"), "--human", "1", "--bots", "generic", "--seed", "4",
                                       "--log", str(log)], input="\n")
    assert result.exit_code == 1 and "stopped: end of input" in result.stderr     # then the input ends
    records = [json.loads(line) for line in log.read_text().splitlines()]
    mine = [r for r in records if r.get("type") == "decision" and r["seat"] == "P1"]
    assert mine and mine[0]["action"] == "decline"


def test_tab_completes_commands_options_cards_and_values():
    """Tab offers what may be typed at the decision: commands, option names, the names of
    the cards the options choose from and of their values (as typed: lower case)."""
    import io
    import random

    from rich.console import Console

    from rulekit import Engine, load
    from rulekit.players import HumanPlayer
    from rulekit.players.human import tab_completion
    from strategies import ROOT

    engine = Engine(load(str(ROOT / "games" / "nimms_leich.rules")))
    state, _ = engine.new_match(4, random.Random(1))
    while engine.decision(state).phase != "bid":
        state, _ = engine.apply(state, engine.legal_actions(state)[-1], random.Random(1))
    decision = engine.decision(state)
    human = HumanPlayer(engine, Console(file=io.StringIO()), lambda prompt: "raise 1 b2")
    words = human.completions(decision)
    assert {"help", "history", "rules", "raise", "b1", "b6"} <= set(words) and "never" not in words
    human.choose(engine.view(state, decision.seat), decision)      # the words of the decision asked
    assert human.words == words
    readline = pytest.importorskip("readline")
    assert tab_completion([human])
    complete = readline.get_completer()
    assert [complete("b", i) for i in range(7)] == ["b1", "b2", "b3", "b4", "b5", "b6", None]
    assert complete("RA", 0) == "raise" and complete("zz", 0) is None


def test_counters_shown_to_nobody_stay_off_the_screen():
    """Nimm's Leich keeps 'hand_size' and 'out' for the rules alone (seen by nobody): the
    screen shows the chips, never those."""
    from strategies import ROOT

    engine = Engine(load(str(ROOT / "games" / "nimms_leich.rules")))
    state, _ = engine.new_match(4, random.Random(2))
    decision = engine.decision(state)
    out = io.StringIO()
    human = HumanPlayer(engine, Console(file=out, width=120), lambda prompt: "")
    text = "\n".join(human.screen(engine.view(state, decision.seat)))
    assert "chips 2" in text and "hand_size" not in text and " out " not in text + " "


def test_a_value_is_asked_with_the_question_the_file_gives():
    """`choose q in … "how many dice?"`: the person is asked that question, not "q?"."""
    from strategies import ROOT

    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    state, _ = engine.new_match(2, random.Random(1))
    decision = engine.decision(state)
    asked = []
    answers = iter(["bid", "1", "2"])

    def ask(prompt):
        asked.append(prompt)
        return next(answers)
    human = HumanPlayer(engine, Console(file=io.StringIO()), ask)
    assert human.choose(engine.view(state, decision.seat), decision) == Action("bid", (), (1, 2))
    assert asked[1].startswith("how many dice? one of 1") and asked[2].startswith("showing which face? one of 1")


def test_what_a_seat_knows_of_a_zone_is_one_line():
    """Two plays of one's own on the table: one line 'you know the table holds: …'."""
    import attrs

    state, _ = ENGINE.new_match(4, random.Random(4))
    view = ENGINE.view(state, 0)
    view = attrs.evolve(view, known=(("table", None, (3,)), ("table", None, (7,))))
    human = HumanPlayer(ENGINE, Console(file=io.StringIO()), lambda prompt: "")
    lines = [line for line in human.screen(view) if line.startswith("you know")]
    assert lines == [f"you know the table holds: {ENGINE.kind_label(3)}, {ENGINE.kind_label(7)}"]


def test_only_n_is_offered_only_where_claims_cover_cards():
    """Nimm's Leich bids lay no cards: its windows offer Enter and 'never', not 'only N',
    and 'only 3' is explained and asked again."""
    from strategies import ROOT

    engine = Engine(load(str(ROOT / "games" / "nimms_leich.rules")))
    state, _ = engine.new_match(4, random.Random(2))
    decision = engine.decision(state)
    assert decision.kind in ("first", "each")
    action, text = _typed(engine, state, ["only 3", ""])
    assert action.name == "decline"
    assert "only N: only for claims" not in text and "no claim of this game covers more than one card" in text
    assert "only" not in HumanPlayer(engine, Console(file=io.StringIO()), input).completions(decision, True)


SHOWN_TO_A_BOT = """game "show leak"
players 3
deck { card spy: count 1  card loyal: count 2 }
zone stock: shared, holds the deck
zone role: per player, seen by owner
setup {
  shuffle stock
  deal 1 from stock to each role
  for each p in everyone {
    if some card in role of p is spy { show role of P1 to p }
  }
  go to t
}
turn t { action a "ends" { end deal } }
"""


def test_with_a_person_playing_what_a_bot_seat_is_shown_is_not_told(tmp_path):
    """A card shown to the spy alone: with a person at P1, the play-by-play does not say
    which seat was shown something (it would name the spy); bots alone with -v, it does
    (found by helper-29)."""
    from click.testing import CliRunner

    from rulekit.cli import main

    rules = tmp_path / "leak.rules"
    rules.write_text(SHOWN_TO_A_BOT)
    told = [CliRunner().invoke(main, ["run", str(rules), "--seed", str(seed), "-v", "--bots", "random"]).output
            for seed in range(6)]
    assert any("is shown 1 card" in text for text in told)
    for seed in range(6):
        person = CliRunner().invoke(main, ["run", str(rules), "--seed", str(seed), "--human", "1", "--bots", "random"],
                                    input="a\n")
        assert person.exit_code == 0, person.output
        assert "is shown" not in person.output


def test_only_n_is_not_offered_where_every_claim_covers_one_card():
    """A claim laid one card at a time ('choose 1 from your hand', 'lay chosen'): 'only N'
    would mean nothing, and was offered at every window (helper-32's Spicy)."""
    text = ONE_CARD
    engine = Engine(loads(text))
    assert not HumanPlayer(engine, Console(file=io.StringIO()), input)._lays
    assert HumanPlayer(Engine(loads(text.replace("choose 1 from", "choose 1..2 from"))),
                       Console(file=io.StringIO()), input)._lays


ONE_CARD = """\
game "One card"
players 2
deck { card c: number 1..5, count 2 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
zone pile: shared, count only
claim card(v) "a {v}" higher when v > claimed v: true when every card in claimed cards is (number = v)
setup { deal 3 from stock to each hand  go to play }
turn play {
  action play "plays a card as {v}" {
    choose 1 from your hand
    choose v in 1..5
    lay chosen on pile
    claim card(v)
    go to doubt
  }
}
window doubt: first of everyone after claimant {
  action call "calls" { reveal claimed cards  end deal }
  otherwise { end deal }
}
"""
