"""`rulekit compare`: the base game and each variant, played with the same seeds and bots,
side by side; a figure whose 95 % interval lies apart from the base game's is marked ≠."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from rulekit.cli import main

# P1 wins every match of the base game, P2 every match of `second`; `same` changes
# nothing. The seats bid at random and the other may doubt: lengths and bluffs vary.
WHO_WINS = """\
game "Who wins"
players 2..3
deck { card chip: count 1 }
zone table: shared, holds the deck
counter mark per player = if actor = P1 then 1 else 0
counter step = 0

claim says(v) "says {v}": true when v = 1

setup { go to speak from P1 }

turn speak {
  action say "says {v}" {
    choose v in 0..1
    claim says(v)
    add 1 to step
    go to doubt
  }
}

window doubt: first of everyone after claimant {
  action doubt "doubts it" {
    if claim holds { log "it was true" } else { log "it was false" }
    do next
  }
  otherwise { do next }
}

procedure next {
  if step = 6 { end deal }
  go to speak from left of claimant
}

match {
  winners: highest mark
}

variant second "P2 wins" {
  counter mark per player = if actor = P2 then 1 else 0
}

variant same "changes nothing" {
  players 2..3
}

variant trio "three players only" {
  players 3
}
"""


def _compare(tmp_path, *args: str):
    path = tmp_path / "who_wins.rules"
    path.write_text(WHO_WINS, encoding="utf-8")
    return CliRunner(env={"COLUMNS": "200"}).invoke(
        main, ["compare", str(path), "--players", "2", "--seed", "3", "--workers", "1", *args])


def _cells(line: str) -> list[str]:
    """The cells of a row of the table (its heading included)."""
    return [c.strip() for c in re.split("[│┃]", line.strip())[1:-1]]


def _row(stdout: str, label: str) -> list[str]:
    """The cells of the table row that starts with ``label`` ("" for the heading)."""
    for line in stdout.splitlines():
        cells = _cells(line)
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f"no row {label!r} in\n{stdout}")


def test_a_variant_that_changes_who_wins_is_marked(tmp_path):
    result = _compare(tmp_path, "--variant", "second", "--games", "20")
    assert 0 == result.exit_code, result.output
    assert _row(result.stdout, "") == ["base", "second"]
    assert _row(result.stdout, "win share P1") == ["100.0% (83.9–100.0)", "0.0% (0.0–16.1) ≠"]
    assert _row(result.stdout, "win share P2") == ["0.0% (0.0–16.1)", "100.0% (83.9–100.0) ≠"]
    # the same seeds and bots: everything else is played alike, and not marked
    for label in ("median decisions", "claims / match", "false claims", "successful challenges"):
        base, second = _row(result.stdout, label)
        assert base == second and "≠" not in second, label
    assert _row(result.stdout, "seat fairness p")[0] == _row(result.stdout, "seat fairness p")[1]
    assert "≠: its 95 % interval does not overlap that of base" in result.stdout


def test_the_base_game_against_a_variant_that_changes_nothing_marks_nothing(tmp_path):
    result = _compare(tmp_path, "--variant", "same", "--variant", "second", "--games", "12", "--bots",
                      "generic,random", "--rotate")
    assert 0 == result.exit_code, result.output
    assert _row(result.stdout, "") == ["base", "same", "second"]
    lines = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert len(lines) == 14          # 2 seats, 2 kinds, fairness, unfinished, 3 lengths, 5 of bluffing
    for line in lines:
        cells = _cells(line)
        assert cells[1] == cells[2], line               # base and same: the same matches, figure for figure
        assert "≠" not in cells[2]
    # with the line-up rotated, the bots win as often in each arm; the seats do not
    assert _row(result.stdout, "win share generic")[0] == _row(result.stdout, "win share generic")[2]
    assert _row(result.stdout, "win share P1")[2].endswith("≠")


def test_base_against_base_marks_nothing(tmp_path):
    """--variant base plays the base game again: the same figures, nothing marked."""
    result = _compare(tmp_path, "--variant", "base", "--games", "10")
    assert 0 == result.exit_code, result.output
    assert _row(result.stdout, "") == ["base", "base"]
    rows = [_cells(line) for line in result.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 12 and all(cells[1] == cells[2] and "≠" not in cells[2] for cells in rows)
    assert "no figure's 95 % interval lies apart from that of base" in result.stdout


def test_each_variant_is_an_arm_of_its_own_and_is_checked(tmp_path):
    help_text = " ".join(CliRunner().invoke(main, ["compare", "-h"]).stdout.split())
    assert "Each --variant is an arm of its own" in help_text and "not applied one on top of the other" in help_text
    missing = _compare(tmp_path)
    assert 2 == missing.exit_code and "Missing option '--variant'" in missing.stderr
    unknown = _compare(tmp_path, "--variant", "nope", "--games", "2")
    assert 2 == unknown.exit_code and "Invalid value for '--variant'" in unknown.stderr
    seats = _compare(tmp_path, "--variant", "trio", "--games", "2")
    assert 2 == seats.exit_code
    assert "Invalid value for '--players': variant trio is for 3 to 3 players, not 2" in seats.stderr


def test_a_comparison_of_a_game_without_claims_has_no_rows_of_bluffing(tmp_path):
    """Kuhn poker declares no claim: its comparison shows no claim or challenge rows, which
    could only read "—" (found by helper-29)."""
    rules = tmp_path / "kuhn.rules"
    root = Path(__file__).resolve().parent.parent
    rules.write_text((root / "docs" / "examples" / "kuhn_poker.rules").read_text()
                     + '\nvariant big "antes of 2" {\n  counter pot = 4\n}\n')
    result = CliRunner().invoke(main, ["compare", str(rules), "--variant", "big", "-g", "6", "-w", "1", "--seed", "1",
                                       "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "median deals" in result.output
    assert "claims / match" not in result.output and "lies caught" not in result.output


def test_a_game_with_returns_compares_each_seats_mean_result(tmp_path):
    """Kuhn poker's returns are chips, which a win share does not tell: a row per seat of
    its mean result and interval (the base game against itself: the same figures). A game
    without 'returns' (its results are only +1 / -1, the win share again) has none."""
    rules = tmp_path / "kuhn.rules"
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "examples" / "kuhn_poker.rules").read_text()
    rules.write_text(text)
    result = CliRunner().invoke(main, ["compare", str(rules), "--variant", "base", "-g", "60", "-w", "1",
                                       "--seed", "1", "--bots", "random"])
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]]
            for line in result.output.splitlines() if "mean result" in line}
    assert list(rows) == ["mean result P1", "mean result P2"]
    for base, again in rows.values():
        assert base == again and re.fullmatch(r"[+-]\d\.\d\d \([+-]\d\.\d\d–[+-]\d\.\d\d\)", base)
    plain = CliRunner().invoke(main, ["compare", "liars_dice", "--variant", "base", "-g", "4", "-w", "1",
                                      "--seed", "1", "--bots", "random"])
    assert plain.exit_code == 0 and "win share P1" in plain.output and "mean result" not in plain.output


def test_a_variant_that_declares_returns_brings_the_mean_result_rows(tmp_path):
    """Only the variant declares 'returns' (points): the rows are there, for every arm
    (helper-34's review: they were left out, the base game declaring none)."""
    rules = tmp_path / "points.rules"
    rules.write_text("""\
game "Points"
players 2
deck { card c: rank 1..6 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
counter pts per player = 0
setup { shuffle stock  deal 1 from stock to each hand  go to t }
turn t {
  action p "plays" { add total rank of your hand to pts  end deal }
}
match { winners: highest pts }
variant money "money" {
  match { winners: highest pts  returns: pts }
}
""")
    result = CliRunner().invoke(main, ["compare", str(rules), "--variant", "money", "-g", "20", "-w", "1",
                                       "--seed", "1", "--bots", "random"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if "mean result" in line]
    assert len(rows) == 2 and "+1.00" in rows[0] and "≠" in rows[0]
