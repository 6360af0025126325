"""The shipped games (rulekit.catalog): listed with their titles, player counts and
variants, and named instead of a path by every command that takes a rules file
(`rulekit run lugenbeutel`), `rulekit games`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulekit
from rulekit.catalog import ShippedGame, shipped_game, shipped_games, shipped_names, shipped_path
from rulekit.cli import main
from rulekit.cli.main import _games_table
from strategies import GAMES_DIR, load_game

NAMES = sorted(p.stem for p in GAMES_DIR.glob("*.rules"))
SHIPPED = ", ".join(NAMES)


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """A current directory without games/: only a shipped game's name can find one."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _invoke(*args: str):
    return CliRunner().invoke(main, list(args))


# --- rulekit.catalog ---------------------------------------------------------------------

def test_every_game_of_games_is_shipped_with_its_title_players_and_variants():
    """shipped_games() lists each games/*.rules by its stem, with what load() reads of it."""
    games = shipped_games()
    assert [g.name for g in games] == NAMES == list(shipped_names())
    for game in games:
        loaded = load_game(str(GAMES_DIR / f"{game.name}.rules"))
        assert (game.title, game.players) == (loaded.title, loaded.players)
        assert Path(game.path).read_bytes() == (GAMES_DIR / f"{game.name}.rules").read_bytes()
    lugenbeutel = shipped_game("lugenbeutel")
    assert lugenbeutel.variants[0] == ("edition_b", "Edition B: 70 number cards, 26 jokers, 8 skip, 8 Lügenbeutel cards")
    assert [v for v, _ in lugenbeutel.variants] == ["edition_b", "in_hand", "edition_b_in_hand", "single_card"]
    assert shipped_game("liars_dice") == ShippedGame("liars_dice", "Liar's Dice", (2, 2),
                                                     (("five_dice", "five dice each"),), shipped_path("liars_dice"))
    assert rulekit.shipped_games() == games


def test_only_a_stem_names_a_shipped_game():
    """A name is a file's stem exactly: no path, suffix or other case finds one."""
    assert shipped_path("lugenbeutel").endswith("lugenbeutel.rules")
    for value in ("lugenbeutel.rules", "games/lugenbeutel.rules", "Lugenbeutel", "nope", "", "../grammar/rulekit"):
        assert shipped_path(value) is None, value
    with pytest.raises(KeyError):
        shipped_game("nope")


# --- a name instead of a path --------------------------------------------------------------

def test_run_plays_a_shipped_game_by_name_as_by_path(elsewhere):
    """`run lugenbeutel` plays the match `run games/lugenbeutel.rules` plays, from any folder."""
    by_name = _invoke("run", "lugenbeutel", "--bots", "random", "--seed", "3", "-q")
    by_path = _invoke("run", str(GAMES_DIR / "lugenbeutel.rules"), "--bots", "random", "--seed", "3", "-q")
    assert 0 == by_name.exit_code, by_name.output
    assert by_name.stdout == by_path.stdout
    assert by_name.stdout.startswith("Lügenbeutel — 4 players, seed 3, bots: random")


def test_every_command_on_a_rules_file_takes_a_name(elsewhere):
    """check, compile, explain, simulate and compare find a shipped game by its name."""
    checked = _invoke("check", "liars_dice", "bluff")
    assert 0 == checked.exit_code, checked.output
    assert "ok — Liar's Dice" in checked.stdout and "ok — Bluff" in checked.stdout
    compiled = _invoke("compile", "dtc", "--players", "3")
    assert 0 == compiled.exit_code and "compiled for 3 players" in compiled.stdout
    explained = _invoke("explain", "coup", "--variant", "first_player_one_coin")
    assert 0 == explained.exit_code and explained.stdout.startswith("# Coup")
    simulated = _invoke("simulate", "liars_dice", "--games", "2", "--seed", "1", "--workers", "1",
                        "--bots", "random")
    assert 0 == simulated.exit_code, simulated.output
    assert "Liar's Dice: 2 matches, 2 players, random bots" in simulated.stdout
    compared = _invoke("compare", "liars_dice", "--variant", "five_dice", "--games", "2", "--seed", "1",
                       "--workers", "1", "--bots", "random")
    assert 0 == compared.exit_code, compared.output
    assert "five_dice" in compared.stdout


def test_neither_a_file_nor_a_name_is_one_error_naming_both(elsewhere):
    """A FILE that is no file and no game's name: one line naming both, status 2."""
    expected = f"nope: error: no such file, and no shipped game of that name (shipped: {SHIPPED})\n"
    for command in (["run", "nope"], ["explain", "nope"], ["compile", "nope"], ["simulate", "nope"],
                    ["compare", "nope", "--variant", "x"], ["check", "nope"]):
        result = _invoke(*command)
        assert (2, expected) == (result.exit_code, result.stderr), command
    both = _invoke("check", "nope", "skull")              # check goes on with the other files
    assert 2 == both.exit_code and both.stderr == expected and "ok — Skull" in both.stdout


def test_a_file_of_that_name_comes_first(elsewhere):
    """A file in the current folder named like a shipped game is that file, not the game."""
    (elsewhere / "skull").write_text('game "Not Skull"\n', encoding="utf-8")
    result = _invoke("check", "skull")
    assert 2 == result.exit_code and "skull:" in result.stderr and "Skull —" not in result.stdout
    (elsewhere / "coup").mkdir()                           # a folder is no rules file: the game
    assert "ok — Coup" in _invoke("check", "coup").stdout


def test_a_log_of_a_shipped_game_replays_from_another_folder(elsewhere, tmp_path_factory):
    """The log of `run NAME` records the installed file, which replay finds from anywhere;
    replay --rules takes a name too."""
    log = elsewhere / "match.jsonl"
    played = _invoke("run", "liars_dice", "--bots", "random", "--seed", "5", "--log", str(log))
    assert 0 == played.exit_code, played.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["file"] == shipped_path("liars_dice") and Path(header["file"]).is_absolute()
    for folder in (tmp_path_factory.mktemp("other"), elsewhere):
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(folder)
            replayed = _invoke("replay", str(log), "-q")
            assert 0 == replayed.exit_code, replayed.output
            assert "every event matches" in replayed.stdout
    by_name = _invoke("replay", str(log), "-q", "--rules", "liars_dice")
    assert 0 == by_name.exit_code and "every event matches" in by_name.stdout


def test_help_and_completion_know_the_names(elsewhere):
    """`run lugenbeutel -h` names its player counts; FILE completes to the names and files;
    --variant completes the variants of a game given by name."""
    helped = _invoke("run", "lugenbeutel", "-h")
    assert "2 to 8 for Lügenbeutel" in " ".join(helped.stdout.split())

    def complete(words: str) -> list[str]:
        cword = len(words.split()) - (0 if words.endswith(" ") else 1)
        result = CliRunner().invoke(main, [], prog_name="rulekit",
                                    env={"_RULEKIT_COMPLETE": "bash_complete", "COMP_WORDS": words,
                                         "COMP_CWORD": str(cword)})
        return result.stdout.splitlines()

    assert complete("rulekit run l") == ["plain,liars_dice", "plain,lugenbeutel", "file,l"]
    assert complete("rulekit check coup co") == ["plain,coup", "plain,coyote", "file,co"]
    assert complete("rulekit run coup --variant ") == ["plain,first_player_one_coin"]


# --- rulekit games -------------------------------------------------------------------------

def test_games_lists_name_title_players_and_variants():
    """Piped, `rulekit games` prints a header and one tab-separated line per game."""
    result = _invoke("games")
    assert 0 == result.exit_code, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "name\ttitle\tplayers\tvariants"
    assert [line.split("\t")[0] for line in lines[1:]] == NAMES
    assert "lugenbeutel\tLügenbeutel\t2-8\tedition_b, in_hand, edition_b_in_hand, single_card" in lines
    assert "liars_dice\tLiar's Dice\t2\tfive_dice" in lines
    assert "bluff\tBluff\t2-6\t" in lines


def test_games_on_a_terminal_is_a_table():
    """On a terminal, the same rows as a rich table ('—' for a game without variants)."""
    out = io.StringIO()
    _games_table(Console(file=out, width=120, color_system=None),
                 [("bluff", "Bluff", "2-6", ""), ("coup", "Coup", "2-6", "first_player_one_coin")])
    text = out.getvalue()
    assert "Shipped games" in text and "┃ name " in text
    assert "│ bluff │ Bluff │     2-6 │ —" in text
