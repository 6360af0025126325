"""`rulekit explain` reads as a rulebook (issue 24, item 4): a label's hole that is a symbol
the player chooses says what it stands for; no double negation; a symbol set's order only
when the rules use it; "how many cards were chosen"; "the player who acts" where it is not
"you"; a let as "NAME is VALUE"."""

from __future__ import annotations

import re

import pytest

from rulekit.explain import explain
from rulekit.sema.load import load, loads
from strategies import ROOT

GAMES = ROOT / "games"


def book(name: str) -> str:
    return explain(load(str(GAMES / f"{name}.rules")))


SHIPPED = sorted(p.stem for p in GAMES.glob("*.rules"))


def test_a_chosen_symbol_in_a_label_says_what_it_stands_for():
    text = book("coup")
    assert "1. “blocks, claiming the [character]”" in text
    assert "Open the window “block steal” (“blocks, claiming the [character]”)." in text
    assert "“blocks, claiming the c”" not in text
    assert "### Role: “the c”\n\n- It states c (a character)." in text     # a claim's hole is said below it
    assert "1. “bids n × [body]”" in book("nimms_leich")


def test_a_claimed_symbol_is_called_by_its_set():
    text = book("coup")
    assert "1. “shows the [claimed character]”" in text and "c is the claimed character." in text
    assert "- named is the claimed body." in book("nimms_leich")


@pytest.mark.parametrize("condition, said", [
    ("not no claim", "a claim stands"),
    ("not no claim and f = 1", "a claim stands and f is 1"),
    ("not (no claim and f = 1)", "a claim stands or f is not 1"),
    ("not (no claim or f = 1)", "a claim stands and f is not 1"),
    ("not (claim holds or (f = 1 and not no claim))", "the claim is false and (f is not 1 or no claim stands)"),
])
def test_negations_read_without_a_double_negative(condition, said):
    text = (GAMES / "liars_dice.rules").read_text(encoding="utf-8").replace(
        'require not no claim "the opener must bid"',
        f'choose f in 1..6 "which face?"\n    require {condition} "the opener must bid"')
    lines = [line for line in explain(loads(text)).splitlines() if "the opener must bid" in line]
    assert lines == [f"   - Only if {said} (“the opener must bid”)."]


def test_a_negation_that_cannot_be_turned_round_says_so_plainly():
    from rulekit.explain.phrases import _Phrases
    from rulekit.lang import model as m

    say = _Phrases(load(str(GAMES / "liars_dice.rules")))
    text = say.x(m.Not(m.BinOp("and", m.NoClaim(), m.Name("wild_thing"))))
    assert text.startswith("it is not the case that ") and "not so that" not in text


def test_a_symbol_set_is_ordered_only_when_the_rules_use_its_order():
    assert "- character: duke, assassin, captain, ambassador and contessa." in book("coup")    # never compared
    assert "- body: B1 < B2 < B3 < B4 < B5 < B6 (from lowest to highest)." in book("nimms_leich")  # ordered by b
    assert "- suit: clubs < diamonds < hearts < spades (from lowest to highest)." in book("bluff")   # flush by suit
    compared = """\
game "Compared"
players 2
symbols colour: red < green < blue
deck {
  card chip: count 4
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
setup {
  set current = P1
  go to play
}
turn play {
  action pick "picks {c}" {
    choose c in colour "which?"
    if c > green { end deal } else { end deal }
  }
}
match {
  winners: lowest count of your hand
}
"""
    assert "- colour: red < green < blue (from lowest to highest)." in explain(loads(compared))
    unordered = compared.replace("if c > green", "if c = green")
    assert "- colour: red, green and blue." in explain(loads(unordered))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_rulebooks_use_the_words_of_how_to_read_them(name):
    text = book(name)
    assert "acting player" not in text
    assert "[the number of chosen" not in text and "[the number of claimed" not in text
    assert not re.search(r"\bLet \w+ be\b", text)
    assert "not so that" not in text


def test_how_many_cards_in_a_quoted_text_and_the_player_who_acts_in_an_announcement():
    text = book("dtc")
    assert "1. “gives [how many cards were chosen] card(s) as v”" in text
    assert "Announce “the offer was true: the player who acts takes the cards”." in text
    assert "### Number: “[how many cards are claimed] × r”" in book("lugenbeutel")


def test_named_numbers_read_by_their_names_and_numbers():
    """A throw named by 'names' (Mäxchen): the order of the claims lists the names, and a
    range of throws gives each end's number with its name (the names leave 31 unnamed)."""
    text = loads("""\
game "Throws"
players 2
die d6: 6 sides, 2 in cup
zone cup: shared, count only
names throw: 21 "Mäxchen", 11 "1er-Pasch", 66 "6er-Pasch"
claim says(v: throw) "{v}"
  ordered as 31 < 32 < 11 < 66 < 21:
  true when count of cup = 2
setup { go to t }
turn t: action announce "announces {v}" {
  choose v: throw in 11..66 "which throw?"
  claim says(v)
  end deal
}
""")
    book = explain(text)
    assert "“31” < “32” < “1er-Pasch” < “6er-Pasch” < “Mäxchen”" in book
    assert "from 11 (1er-Pasch) to 66 (6er-Pasch)" in book


def test_a_computed_number_of_top_cards_reads_as_many_as():
    """'move top (n) of stock to table' with n computed: no doubled article ("the the
    value…"; found by helper-29)."""
    book = explain(loads("""\
game "Top"
players 2
deck { card c: count 9 }
zone stock: shared, count only, holds the deck
zone table: shared
counter n = 2
setup { move top (n + 1) of stock to table  move top 2 of stock to table  end deal }
"""))
    assert "as many of the top cards of the stock as n + 1" in book and "the the" not in book
    assert "the top 2 cards of the stock" in book


def test_symbols_listed_with_commas_are_never_explained_as_ordered():
    """A claim over unordered symbols with its own 'higher when': the symbols are still a
    list, not 'duke < assassin < captain (from lowest to highest)' (helper-30)."""
    book = explain(loads("""\
game "Roles"
players 2
symbols character: duke, assassin, captain
deck { card c: each character, count 2 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
claim role(c: character) "the {c}" higher when c != claimed c: true when some card in hand of claimant is c
setup { deal 1 from stock to each hand  end deal }
"""))
    assert "duke, assassin and captain" in book or "duke, assassin, captain" in book
    assert "duke < assassin" not in book


@pytest.mark.parametrize("condition, said", [
    ("some card in (your cup plus your cup) is wild", "one of the dice in your cup and the dice in your cup is wild"),
    ("every card in (your cup plus your cup) is wild", "every one of the dice in your cup and the dice in your cup "
                                                       "is wild"),
    ("some card in your cup is wild", "some die in your cup is wild"),
])
def test_a_card_quantifier_over_several_zones_reads_as_english(condition, said):
    """'some card in (A plus B)' read "some one of the cards in …" (helper-32)."""
    text = (GAMES / "liars_dice.rules").read_text(encoding="utf-8").replace(
        'require not no claim "the opener must bid"', f'require {condition} "the opener must bid"')
    lines = [line for line in explain(loads(text)).splitlines() if "the opener must bid" in line]
    assert lines == [f"   - Only if {said} (“the opener must bid”)."]


def test_a_counter_in_a_label_is_a_hole_not_a_word():
    """'finishes mission {mission}' read “finishes mission mission” (helper-36): a
    counter's value is a hole in [ ], as any value but a chosen one's or a seat's name."""
    text = explain(loads("""\
game "Holes"
players 2
deck { card c: count 2 }
zone pile: holds the deck
counter mission = 1
setup { go to t from P1 }
turn t: action a "finishes mission {mission}" { log "mission {mission} fails"  end deal }
"""))
    assert "1. “finishes mission [mission]”" in text and "Announce “mission [mission] fails”." in text
    assert "plays [how many cards were chosen] card(s) as [required]" in book("lugenbeutel")


def test_participle_zones_one_top_card_and_a_highest_of_highest_read_as_english():
    """helper-36's Hol's der Geier read "all the playeds", "if one of the top card of the
    middle is a mouse card" and "with the highest highest value"."""
    text = explain(loads("""\
game "Geier"
players 2..3
deck { card bid: value 1..3, 1 in each hand
       card mouse: count 3 }
zone pile: shared, count only, holds the deck
zone middle: shared, seen by all
zone hand: per player, seen by owner
zone played: per player, seen by owner
setup { go to t from P1 }
turn t: action a "a" {
  reveal every played
  if some card in top 1 of middle is mouse {
    log "{first of (p in everyone with highest highest value of played of p)}"
  }
  end deal
}
"""))
    assert "Reveal the cards in all the played zones to everyone." in text
    assert "If the top card of the middle is a mouse:" in text
    assert "the player(s) p among all players for whom the highest value among the cards in p's played is the " \
           "highest" in text


def test_an_asked_windows_empty_closing_block_says_where_play_goes():
    """An asked window needs a closing block, empty when play goes back to the ask: it
    ended its section with a dangling "When every player has been asked:" (helper-37)."""
    text = explain(loads("""\
game "Empty then"
players 3
deck { card c: count 3 }
zone stock: shared, holds the deck
group callers
setup { go to t from P1 }
turn t: action go "asks" { ask w  end deal }
window w: each of others {
  action call "calls" { add actor to callers }
  then { }
}
"""))
    assert "When every player has been asked:\n- Play goes back to what opened this window.\n" in text


def test_exactly_one_card_takes_a_singular_verb():
    """'count of (every played where value = v) = 1' read "exactly 1 of the cards … have
    value …" (helper-36's Hol's der Geier); "at least 2 of …" keeps the plural."""
    text = explain(loads("""\
game "One"
players 2
deck { card bid: value 1..3, 1 in each hand }
zone hand: per player, seen by owner
zone played: per player, seen by all
setup { go to t from P1 }
turn t: action a "a" {
  if count of (every played where value = 2) = 1 { log "one" }
  if count of (every played where value = 2) >= 2 { log "two" }
  end deal
}
"""))
    assert "exactly 1 of the cards in all the played zones has value 2" in text
    assert "at least 2 of the cards in all the played zones have value 2" in text
