"""Hostile input refused cleanly (the robustness issue): a file that is not UTF-8, and terminal
markup in a game's texts or typed at the prompt, which is printed as text, never interpreted."""

from __future__ import annotations

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
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--bots", "random"])
    assert 0 == result.exit_code, result.output
    assert "[/] [bold]Gold — 2 players, seed 1" == result.stdout.splitlines()[0]
    assert "P1 gives [/] 1" in result.stdout
    human = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--human", "1"], input="1\n1\n")
    assert 0 == human.exit_code, human.output
    assert "[/]gold" in human.stdout


def test_markup_typed_at_the_prompt_is_explained_and_asked_again():
    """Typing `[/]` at a DTC prompt is a bad entry like any other: explained, asked again."""
    result = CliRunner().invoke(main, ["run", str(DTC), "--seed", "1", "--human", "1", "--players", "2"],
                                input="[/]\n")
    assert "'[/]' is not one of the options" in result.output
    assert "MarkupError" not in result.output and "Traceback" not in result.output
