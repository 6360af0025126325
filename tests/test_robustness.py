"""Hostile input refused cleanly (the robustness issue): a file that is not UTF-8, terminal
markup in a game's texts or typed at the prompt (printed as text, never interpreted), and
some of the reproducers of shared/bugs/ (an action named decline, a ranking by chance, a deal
counted twice, chosen cards moved twice, a log that cannot be written, a stall in simulate)."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from rulekit.cli import main
from strategies import ROOT

DTC = ROOT / "games" / "dtc.rules"

MARKUP_GAME = """\
game "[/] [bold]Gold"
players 2
deck {
  card gold "[/]gold": count 4
}
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
setup {
  deal 2 from stock to each hand
  set current = P1
  go to turn
}
turn turn {
  action give "gives [/] {count of chosen}" {
    choose 1 from your hand
    move chosen to hand of left of actor
    end deal
  }
}
"""


def test_a_file_that_is_not_utf8_is_refused_with_the_offending_byte(tmp_path):
    """A Latin-1 or binary file: `path: error: not a UTF-8 text file (byte 0xff at offset N)`, exit 2."""
    bad = tmp_path / "bad.rules"
    bad.write_bytes(b'game "caf\xe9"\nplayers 2\n')
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert 2 == result.exit_code
    assert f"{bad}: error: not a UTF-8 text file (byte 0xe9 at offset 9)" == result.stderr.splitlines()[0]
    assert "Traceback" not in result.output


def test_markup_in_titles_labels_and_card_names_is_printed_as_text(tmp_path):
    """`[/]` and `[bold]` in a title, an action label and a card label are printed literally."""
    path = tmp_path / "markup.rules"
    path.write_text(MARKUP_GAME, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--bots", "random", "-v"])
    assert 0 == result.exit_code, result.output
    assert "[/] [bold]Gold — 2 players, seed 1, bots: random" == result.stdout.splitlines()[0]
    assert "P1 gives [/] 1" in result.stdout
    human = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--human", "1", "--bots", "generic"], input="1\n1\n")
    assert 0 == human.exit_code, human.output
    assert "[/]gold" in human.stdout


def test_markup_typed_at_the_prompt_is_explained_and_asked_again():
    """Typing `[/]` at a DTC prompt is a bad entry like any other: explained, asked again."""
    result = CliRunner().invoke(main, ["run", str(DTC), "--seed", "1", "--human", "1", "--bots", "generic", "--players", "2",
                                       "--ask-always"], input="[/]\n")
    assert "'[/]' is not one of the options" in result.output
    assert "MarkupError" not in result.output and "Traceback" not in result.output


def test_digits_that_are_not_ascii_are_explained_and_asked_again(tmp_path):
    """'²' and '٣' are digits to Python (int('²') fails): at the prompt they are bad entries,
    explained and asked again, and so is a number too long to read."""
    path = tmp_path / "markup.rules"
    path.write_text(MARKUP_GAME, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--human", "1", "--bots", "generic",
                                       "--ask-always"], input="²\n٣\n" + "9" * 5000 + "\n1\n²\n1\n1\n")
    assert 0 == result.exit_code, result.output
    assert "'²' is not one of the options 1..1" in result.output
    assert "'٣' is not one of the options 1..1" in result.output
    assert "'²' is not a card number 1..2" in result.output
    assert "invalid literal" not in result.output and "Exceeds the limit" not in result.output


TINY = """\
game "Tiny"
players 2
deck {
  card gold: count 4
  card lead: count 4
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone pot: shared, count only
die d: 6 sides
setup {
  shuffle stock
  deal DEAL from stock to each hand
  set current = P1
  go to play
}
turn play {
  action NAME "puts down a coin" {
    choose 1 from your hand
    lay chosen on pot
    MORE
    if count of your hand = 0 { end deal }
    set current = left of current
    go to play
  }
}
match {
  winners: KEY
}
"""


def tiny(tmp_path, deal="2", name="play", more="", key="lowest count of your hand"):
    path = tmp_path / "tiny.rules"
    path.write_text(TINY.replace("DEAL", deal).replace("NAME", name).replace("MORE", more).replace("KEY", key),
                    encoding="utf-8")
    return str(path)


def test_an_action_named_decline_is_refused_in_a_turn_too(tmp_path):
    """`decline` is the built-in way out of a window: a turn's action may not take the name."""
    result = CliRunner().invoke(main, ["check", tiny(tmp_path, name="decline")])
    assert 2 == result.exit_code
    assert "error: 'decline' is the built-in way to let a window pass; choose another name" in result.stderr


def test_a_ranking_by_chance_is_refused(tmp_path):
    """`winners: highest roll d` would rank differently each time it is read: a located error."""
    result = CliRunner().invoke(main, ["check", tiny(tmp_path, key="highest roll d")])
    assert 2 == result.exit_code
    assert "tiny.rules:28:20: error: a ranking or a result may not depend on chance" in result.stderr


def test_a_deal_count_is_evaluated_once(tmp_path):
    """`deal roll d from …` rolls once, and the log says how many were dealt."""
    import json
    log = tmp_path / "x.jsonl"
    result = CliRunner().invoke(main, ["run", tiny(tmp_path, deal="roll d"), "--seed", "1", "-q", "--log", str(log)])
    assert 0 == result.exit_code, result.output
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    rolls = [r for r in rows if r.get("kind") == "roll"]
    deals = [r for r in rows if r.get("kind") == "deal"]
    assert 1 == len(rolls)
    assert rolls[0]["data"]["value"] == deals[0]["data"]["count"]


def test_moving_chosen_cards_twice_moves_what_is_left(tmp_path):
    """A second `lay chosen` after the cards left is harmless, not a ValueError traceback."""
    result = CliRunner().invoke(main, ["run", tiny(tmp_path, more="lay chosen on pot"), "--seed", "1", "-q"])
    assert 0 == result.exit_code, result.output


def test_a_log_that_cannot_be_written_is_refused_before_the_match(tmp_path):
    """`--log` into a missing folder: a bad option, said before anything is played."""
    result = CliRunner().invoke(main, ["run", str(DTC), "--seed", "1", "--log", str(tmp_path / "no" / "x.jsonl")])
    assert 2 == result.exit_code
    assert "Invalid value for '--log': cannot write" in result.stderr
    assert "deal 1" not in result.output


def test_simulate_reports_a_rules_runtime_error_without_a_traceback(tmp_path):
    """A file that passes check but stalls when run: `simulate` names the match and exits 2."""
    path = tmp_path / "stall.rules"
    path.write_text(TINY.replace("DEAL", "2").replace("NAME", "play").replace("MORE", "")
                    .replace("KEY", "lowest count of your hand")
                    .replace("set current = P1\n  go to play", "set current = P1\n  go to loop")
                    + "counter spins = 0\n"
                    + "window loop: first of everyone except everyone { action x { go to loop } "
                      "otherwise { set spins = spins + 1  go to loop } }\n",
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", str(path), "--games", "2", "--seed", "0"])
    assert 2 == result.exit_code, result.output
    assert "error: the rules go from phase to phase without anyone deciding (match 1, seed 0)" in result.stderr
    assert "Traceback" not in result.output


def test_a_variant_cycle_is_a_located_error(tmp_path):
    """Variants that extend each other in a circle: each is located, with a hint."""
    path = tmp_path / "cycle.rules"
    path.write_text(TINY.replace("DEAL", "2").replace("NAME", "play").replace("MORE", "")
                    .replace("KEY", "lowest count of your hand")
                    + "variant a extends b { }\nvariant b extends a { }\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 2 == result.exit_code
    assert result.stderr.splitlines()[0].endswith("cycle.rules:30:1: error: variant 'a' extends itself (through b)")


def test_a_seat_with_no_legal_action_stops_the_match_with_a_located_error(tmp_path):
    """A turn whose only action cannot be taken: `P1 must decide in 'play' but has no legal
    action (line N)`, exit 2, for bots and for a human (never asked with no options)."""
    path = tmp_path / "stuck.rules"
    path.write_text(TINY.replace("DEAL", "0").replace("NAME", "play").replace("MORE", "")
                    .replace("KEY", "lowest count of your hand"), encoding="utf-8")
    for extra in ([], ["--human", "1"]):
        log = tmp_path / f"stuck{len(extra)}.jsonl"
        result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "-q", "--log", str(log), *extra],
                                    input="")
        assert 2 == result.exit_code, result.output
        assert "stuck.rules: error: P1 must decide in 'play' but has no legal action (line 17)" in result.stderr
        # nothing is lost: the log holds what was played up to the error (here the setup)
        rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert rows[0]["type"] == "header" and rows[1:] and all("kind" in r or "action" in r for r in rows[1:]), rows


def test_misleading_messages_now_say_what_to_write(tmp_path):
    """`choose p in others` and `is rank = r` get a message and hint that say the fix."""
    path = tmp_path / "m.rules"
    base = TINY.replace("DEAL", "2").replace("NAME", "play").replace("KEY", "lowest count of your hand")
    base = base.replace("card gold: count 4", "card gold: rank 1, count 4").replace("MORE", "")
    path.write_text(base.replace("choose 1 from your hand",
                                 "choose 1 from your hand\n    require every card in chosen is rank = 1"),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 2 == result.exit_code
    lines = result.stderr.splitlines()
    assert lines[0].endswith("m.rules:20:37: error: 'rank' is a card attribute, not a condition: after 'is', "
                             "a comparison goes in parentheses"), lines[0]
    assert "hint: write: is (rank = …)" == lines[3]
    path.write_text(base.replace("choose 1 from your hand", "choose p in others"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert "hint: 'others' is a set of seats, not a name; to choose one of its seats write " \
           "'choose p in seats in others'" in result.stderr


FOREVER = """\
game "Forever"
players 2
deck { card coin: count 2 }
zone stock: shared, count only, holds the deck
setup { set current = P1  go to play }
turn play {
  action pass "passes" {
    set current = left of current
    go to play
  }
}
"""


def test_a_match_that_never_ends_is_stopped_at_the_bound_and_logged(tmp_path):
    """`run --max-decisions N`: the match stops after N decisions, says so, exits 2, and the
    --log holds what was played; `simulate` counts such matches as unfinished and goes on."""
    import json
    path, log = tmp_path / "forever.rules", tmp_path / "x.jsonl"
    path.write_text(FOREVER, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "-q", "--max-decisions", "50",
                                       "--log", str(log)])
    assert 2 == result.exit_code
    assert ("forever.rules: error: the match was stopped after 50 decisions without ending; it was in 'play' "
            "(line 6) (--max-decisions 50)") in result.stderr, result.stderr
    decisions = [r for r in map(json.loads, log.read_text(encoding="utf-8").splitlines()) if r["type"] == "decision"]
    assert 50 == len(decisions)
    result = CliRunner().invoke(main, ["simulate", str(path), "--games", "3", "--max-decisions", "20"])
    assert 0 == result.exit_code, result.output
    assert "unfinished: 3 of 3 matches did not end within 20 decisions" in " ".join(result.stdout.split())


DEAD_END = """\
game "g"
players 2
deck {
  card c: count 2
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone pot: shared, count only
setup {
  deal 1 from stock to each hand
  set current = P1
  go to t
}
turn t {
  action a {
    choose 1 from pot
    end deal
  }
  action b {
    require false
    end deal
  }
  action c {
    choose 5 from your hand
    end deal
  }
}
"""


def test_a_turn_that_is_provably_a_dead_end_is_refused_by_check(tmp_path):
    """Each action impossible for its own reason (a zone no card reaches, 'require false',
    more cards than the match has): `check` names the turn and every reason."""
    path = tmp_path / "dead.rules"
    path.write_text(DEAD_END, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 2 == result.exit_code
    assert result.stderr.splitlines()[0] == (
        f"{path}:14:1: error: 't' is a dead end: a seat asked here can never act (action 'a' chooses from "
        "'pot', which no card ever reaches; action 'b' requires false; action 'c' chooses 5 cards, more than "
        "the match has (2))")


@pytest.mark.parametrize("fix", ["    choose 5 from your hand", "    choose 1 from pot", "    require false"])
def test_one_possible_action_is_no_dead_end(fix, tmp_path):
    """Make any one of the three actions possible and the turn passes the check."""
    possible = {"    choose 5 from your hand": "    choose 1 from your hand",
                "    choose 1 from pot": "    choose 1 from your hand",
                "    require false": "    require true"}[fix]
    path = tmp_path / "alive.rules"
    path.write_text(DEAD_END.replace(fix, possible), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 0 == result.exit_code, result.output


TRAP = """\
game "Forever"
players 2
deck {
  card gold: count 4
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
setup {
  deal 2 from stock to each hand
  go to w
}
window w: first of everyone {
  action poke "pokes" {
    go to v
  }
  otherwise {
    go to w
  }
}
turn v {
  action wait "waits" {
    log "{actor} waits"
    go to w
  }
}
"""


def test_phases_that_can_never_be_left_are_refused_by_check(tmp_path):
    """A window and a turn that only go to each other and change nothing (the reproducer
    run_window_forever, grown by a turn): `check` names each, no match is played."""
    path = tmp_path / "trap.rules"
    path.write_text(TRAP, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 2 == result.exit_code
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert errors == [
        f"{path}:12:1: error: 'w' can never be left: each of its actions only goes to 'v', 'w' and changes nothing, "
        "so the match would never end",
        f"{path}:20:1: error: 'v' can never be left: each of its actions only goes to 'w' and changes nothing, "
        "so the match would never end"], errors


@pytest.mark.parametrize("change", ["    go to v\n", "    log \"{actor} waits\"\n    go to w\n"])
def test_a_phase_that_changes_something_is_no_trap(change, tmp_path):
    """Let one action end the deal (or change a counter) and the check passes."""
    path = tmp_path / "way_out.rules"
    path.write_text(TRAP.replace(change, change.replace("go to", "end deal\n    go to")
                                 if "log" not in change else change.replace("log", "set current = P1\n    log")),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert 0 == result.exit_code, result.output
