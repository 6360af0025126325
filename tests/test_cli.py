"""The command line: stopping a match (Ctrl-C, end of input) with what was played kept in the
log, and its conventions (-h, -v, several files for check, --bots per seat, shell completion,
singular and plural)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner

from rulekit.sema.load import load
from rulekit.cli import main
from rulekit.cli.common import _count
from rulekit.cli.main import _summary
from rulekit.engine import Engine
from rulekit.play.match import play_match, seat_rng
from rulekit.players import RandomBot
from rulekit.analysis.simulation import SimulationSpec, simulate
from strategies import ROOT

GAMES = ROOT / "games"
LUGENBEUTEL = str(GAMES / "lugenbeutel.rules")
DTC = str(GAMES / "dtc.rules")
LIARS_DICE = str(GAMES / "liars_dice.rules")

SOLO = """\
game "Solo"
players 1
deck {
  card gold: count 1
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone pot: shared, count only
setup {
  deal 1 from stock to each hand
  set current = P1
  go to play
}
turn play {
  action play "puts down a coin" {
    choose 1 from your hand
    lay chosen on pot
    end deal
  }
}
match {
  winners: lowest count of your hand
}
"""


def _log_rows(path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _stop_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


# =========================================================================== 1. stopping
def test_end_of_input_at_the_first_prompt_stops_with_status_1_and_keeps_the_log(tmp_path):
    """No input at all: the first prompt meets the end of input; one line, status 1, and the
    log holds the setup (and the bots' decisions before the human's turn)."""
    log = tmp_path / "m.jsonl"
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--human", "1", "--bots", "generic", "--seed", "1", "--log", str(log)],
                                input="")
    assert 1 == result.exit_code, result.output
    assert "Traceback" not in result.output and "Aborted!" not in result.output
    line = _stop_line(result)
    assert line.startswith("stopped: end of input at the prompt after ")
    assert str(log) in line
    rows = _log_rows(log)
    assert f"({len(rows)} lines)" in line
    kinds = [r["kind"] for r in rows if r["type"] == "event"]
    assert "deal_start" in kinds and "shuffle" in kinds
    steps = sum(1 for r in rows if r["type"] == "decision")
    assert f"after {_count(steps, 'decision')};" in line


def test_end_of_input_later_in_the_match_keeps_the_decisions_played(tmp_path):
    """Input that runs out after a few answers: the log holds those decisions too."""
    log = tmp_path / "m.jsonl"
    answers = "offer\n1\n6\n"
    result = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--human", "1", "--seed", "4", "--bots",
                                       "random", "--log", str(log)], input=answers)
    assert 1 == result.exit_code, result.output
    assert _stop_line(result).startswith("stopped: end of input")
    rows = _log_rows(log)
    assert any(r["type"] == "decision" and r["seat"] == "P1" for r in rows)


def _abort_like_click(exc_type):
    """A stand-in for click.prompt that does what click does on Ctrl-C or end of input:
    raise click.Abort from the KeyboardInterrupt / EOFError."""

    def prompt(*args, **kwargs):
        try:
            raise exc_type()
        except exc_type:
            raise click.Abort() from None

    return prompt


def test_ctrl_c_at_a_prompt_stops_with_status_130_and_keeps_the_log(tmp_path, monkeypatch):
    log = tmp_path / "m.jsonl"
    monkeypatch.setattr(click, "prompt", _abort_like_click(KeyboardInterrupt))
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--human", "1", "--bots", "generic", "--seed", "1", "--log", str(log)])
    assert 130 == result.exit_code, result.output
    assert "Traceback" not in result.output and "Aborted!" not in result.output
    line = _stop_line(result)
    assert line.startswith("stopped: interrupted (Ctrl-C) after ")
    assert any(r["type"] == "event" and r["kind"] == "deal_start" for r in _log_rows(log))


def test_abort_on_end_of_input_is_told_from_ctrl_c(tmp_path, monkeypatch):
    monkeypatch.setattr(click, "prompt", _abort_like_click(EOFError))
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--human", "1", "--bots", "generic", "--seed", "1", "--quiet"])
    assert 1 == result.exit_code
    assert _stop_line(result).startswith("stopped: end of input")


def test_ctrl_c_while_the_bots_play_keeps_the_log(tmp_path, monkeypatch):
    """Ctrl-C between two bot decisions: status 130, the log holds the decisions made."""
    from rulekit.players import GenericBot

    calls = []
    choose = GenericBot.choose

    def interrupted(self, view, decision):
        calls.append(1)
        if len(calls) > 5:
            raise KeyboardInterrupt
        return choose(self, view, decision)

    monkeypatch.setattr(GenericBot, "choose", interrupted)
    log = tmp_path / "m.jsonl"
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--seed", "2", "-q", "--log", str(log)])
    assert 130 == result.exit_code, result.output
    assert _stop_line(result).startswith("stopped: interrupted (Ctrl-C) after 5 decisions;")
    assert 5 == sum(1 for r in _log_rows(log) if r["type"] == "decision")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_a_real_sigint_at_a_prompt_stops_with_status_130(tmp_path):
    """A real Ctrl-C (SIGINT) to `rulekit run --human 1` waiting at its prompt."""
    log = tmp_path / "m.jsonl"
    # Ctrl-C as at a terminal: a run started in the background of a shell without job control
    # (as some CI runners start the suite) inherits SIGINT ignored, and Python then keeps it so
    proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", "run", LUGENBEUTEL, "--human", "1", "--bots", "generic", "--seed", "1",
                             "--log", str(log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while b"choose an option" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                seen += chunk
        assert b"choose an option" in seen, seen[-2000:]
        # Ctrl-C, again every 3 seconds until it stops (as a person presses it again): a signal that
        # lands between the prompt's last check of signals and its blocking read is only handled
        # once the read returns (CPython's signal handling), and its stdin stays open until it
        # has stopped, so that it never reads the end of input instead (races seen when loaded)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = err.decode("utf-8")
    assert 130 == proc.returncode, err
    assert "Traceback" not in err
    assert [line for line in err.splitlines() if line.strip()][0].startswith("stopped: interrupted (Ctrl-C)")
    assert any(r["type"] == "event" and r["kind"] == "deal_start" for r in _log_rows(log))


@pytest.mark.parametrize("stop", [KeyboardInterrupt, EOFError, click.Abort])
def test_play_match_hands_what_was_played_to_the_caller_when_stopped(stop):
    engine = Engine(load(DTC))

    class Stopping(RandomBot):
        calls = 0

        def choose(self, view, decision):
            Stopping.calls += 1
            if Stopping.calls > 3:
                raise stop()
            return super().choose(view, decision)

    with pytest.raises(stop) as caught:
        play_match(engine, [Stopping(seat_rng(1, s)) for s in range(3)], 3, 1)
    record = caught.value.record
    assert 3 == record.steps
    assert 3 == sum(1 for r in record.log if r["type"] == "decision")
    assert record.winners == ()


@pytest.mark.parametrize("where", ["missing/x.jsonl", "file.txt/x.jsonl"])
def test_an_unwritable_log_fails_fast_naming_the_option(tmp_path, where):
    (tmp_path / "file.txt").write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", DTC, "--seed", "1", "--log", str(tmp_path / where)])
    assert 2 == result.exit_code
    assert "'--log'" in result.stderr
    assert "deal 1" not in result.output


def test_ctrl_c_in_simulate_stops_with_status_130(monkeypatch):
    import rulekit.analysis.simulation

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(rulekit.analysis.simulation, "outcomes", interrupted)
    result = CliRunner().invoke(main, ["simulate", DTC, "--games", "2", "--seed", "1", "--workers", "1"])
    assert 130 == result.exit_code
    assert "stopped: interrupted (Ctrl-C)" == _stop_line(result)


# =========================================================================== 2. conventions
@pytest.mark.parametrize("command", [[], ["run"], ["check"], ["simulate"], ["compile"]])
def test_dash_h_is_help_everywhere(command):
    short = CliRunner().invoke(main, [*command, "-h"])
    long = CliRunner().invoke(main, [*command, "--help"])
    assert 0 == short.exit_code == long.exit_code
    assert short.stdout == long.stdout
    assert "-h, --help" in short.stdout


def test_the_help_tells_how_to_enable_shell_completion():
    result = CliRunner().invoke(main, ["--help"])
    assert 'eval "$(_RULEKIT_COMPLETE=bash_source rulekit)"' in result.stdout


def test_dash_v_is_verbose_not_variant():
    runner = CliRunner()
    verbose = runner.invoke(main, ["run", DTC, "--seed", "1", "--bots", "random", "-v"])
    assert 0 == verbose.exit_code, verbose.output
    summary = runner.invoke(main, ["run", DTC, "--seed", "1", "--bots", "random"]).stdout
    # bots alone: a summary per deal by default; -v prints every step of the same match
    assert len(verbose.stdout.splitlines()) > len(summary.splitlines())
    assert [line for line in verbose.stdout.splitlines() if line in summary.splitlines()] == summary.splitlines()
    assert 2 == runner.invoke(main, ["run", LUGENBEUTEL, "-v", "in_hand", "--seed", "1"]).exit_code
    assert "-v, --verbose" in runner.invoke(main, ["run", "-h"]).stdout
    for command in ("check", "simulate", "compile"):
        result = runner.invoke(main, [command, LUGENBEUTEL, "-v", "in_hand"])
        assert 2 == result.exit_code and "No such option" in result.stderr and "-v" in result.stderr
        assert "--variant NAME" in runner.invoke(main, [command, "-h"]).stdout
    both = runner.invoke(main, ["run", DTC, "-v", "-q"])
    assert 2 == both.exit_code and "--verbose and --quiet" in both.stderr


def test_variant_is_still_a_long_option():
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--variant", "in_hand", "--seed", "1", "-q",
                                       "--bots", "random"])
    assert 0 == result.exit_code, result.output
    assert "(in_hand)" in result.stdout.splitlines()[0]


def test_check_takes_several_files_and_reports_every_problem(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('game "x"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", DTC, str(broken), str(tmp_path / "nope.rules"), LIARS_DICE])
    assert 2 == result.exit_code
    assert f"{DTC}: ok — DTC" in result.stdout
    assert "  variant higher_counts: ok" in result.stdout          # every variant of each file
    assert f"{LIARS_DICE}: ok — Liar's Dice" in result.stdout       # checked after the failures
    assert "  variant five_dice: ok" in result.stdout
    assert f"{broken}:1:1: error: the file declares no deck" in result.stderr
    assert f"{broken}:1:1: error: the file declares no setup" in result.stderr
    assert f"{tmp_path / 'nope.rules'}: error: no such file, and no shipped game of that name" in result.stderr
    assert "Traceback" not in result.output


def test_check_of_good_files_exits_0():
    result = CliRunner().invoke(main, ["check", DTC, LUGENBEUTEL])
    assert 0 == result.exit_code, result.output
    assert result.stderr == ""
    assert [line for line in result.stdout.splitlines() if not line.startswith("  ")] == [
        f"{DTC}: ok — DTC, 2-6 players, 66 cards, 2 phases",
        f"{LUGENBEUTEL}: ok — Lügenbeutel, 2-8 players, 112 cards, 3 phases"]


def test_check_reads_standard_input_for_a_dash():
    text = (GAMES / "liars_dice.rules").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "-"], input=text)
    assert 0 == result.exit_code, result.output
    assert result.stdout.splitlines() == ["<stdin>: ok — Liar's Dice, 2 players, 0 cards, 1 die 'd6' in each cup, 1 phase",
                                          "  variant five_dice: ok — five dice each"]
    broken = CliRunner().invoke(main, ["check", DTC, "-"], input=text.replace("players 2", "players two"))
    assert 2 == broken.exit_code
    assert f"{DTC}: ok" in broken.stdout
    assert broken.stderr.startswith("<stdin>:")
    bad_bytes = CliRunner().invoke(main, ["check", "-"], input=b"\xff\xfe")
    assert 2 == bad_bytes.exit_code and "<stdin>" in bad_bytes.stderr and "UTF-8" in bad_bytes.stderr


def test_check_with_a_variant_checks_each_file_with_it():
    result = CliRunner().invoke(main, ["check", "--variant", "in_hand", LUGENBEUTEL, DTC])
    assert 2 == result.exit_code
    assert f"{LUGENBEUTEL}: ok — Lügenbeutel (in_hand), 2-6 players" in result.stdout
    assert f"{DTC}: error: unknown variant 'in_hand'" in result.stderr


@pytest.mark.parametrize("command", ["run", "simulate", "compile"])
def test_players_help_says_the_default_follows_the_game(command):
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert "default: 4, or the nearest count the game allows" in result.stdout


def test_players_out_of_range_names_the_game_range(tmp_path):
    result = CliRunner().invoke(main, ["simulate", LUGENBEUTEL, "--players", "9", "--games", "1"])
    assert 2 == result.exit_code
    assert "Lügenbeutel is for 2 to 8 players, not 9" in result.stderr
    solo = tmp_path / "solo.rules"
    solo.write_text(SOLO, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(solo), "--players", "2"])
    assert "Solo is for 1 player only, not 2" in result.stderr


def test_bots_one_per_seat_in_run(tmp_path):
    log = tmp_path / "m.jsonl"
    result = CliRunner().invoke(main, ["run", DTC, "--players", "3", "--seed", "5", "--bots",
                                       "generic,random,random", "-q", "--log", str(log)])
    assert 0 == result.exit_code, result.output
    assert any(r["type"] == "decision" for r in _log_rows(log))
    # one kind for all is the list of that kind, seat by seat
    same = CliRunner().invoke(main, ["run", DTC, "--players", "3", "--seed", "5", "--bots",
                                     "random,random,random", "-q"])
    every = CliRunner().invoke(main, ["run", DTC, "--players", "3", "--seed", "5", "--bots", "random", "-q"])
    assert same.stdout == every.stdout


def test_bots_list_of_the_wrong_length_is_a_clear_bad_parameter():
    result = CliRunner().invoke(main, ["run", DTC, "--players", "3", "--bots", "generic,random"])
    assert 2 == result.exit_code
    line = result.stderr.splitlines()[-1]
    assert line.startswith("Error: Invalid value for '--bots': 2 kinds of player for 3 seats")
    assert "generic,random,random" in line
    sim = CliRunner().invoke(main, ["simulate", DTC, "--players", "3", "--bots", "random,random,random,random"])
    assert 2 == sim.exit_code and "Invalid value for '--bots'" in sim.stderr


def test_bots_rejects_an_unknown_kind_and_human_in_simulate():
    result = CliRunner().invoke(main, ["run", DTC, "--bots", "clever"])
    assert 2 == result.exit_code
    assert "Invalid value for '--bots': 'clever' is not a kind of player" in result.stderr
    sim = CliRunner().invoke(main, ["simulate", DTC, "--players", "2", "--bots", "human,random"])
    assert 2 == sim.exit_code and "'human' is not a kind of player" in sim.stderr


def test_human_seats_in_the_bots_list_or_by_human():
    answers = "\n".join(["refuse"] * 300) + "\n"
    listed = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--seed", "4", "--bots", "human,random"],
                                input=answers)
    flagged = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--seed", "4", "--bots", "random",
                                        "--human", "1"], input=answers)
    both = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--seed", "4", "--bots", "human,random",
                                     "--human", "1"], input=answers)
    assert "your decision" in listed.stdout
    assert listed.stdout == flagged.stdout == both.stdout
    clash = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--bots", "generic,random", "--human", "1"])
    assert 2 == clash.exit_code and "'--bots': seat 1 is yours (--human 1)" in clash.stderr


def test_simulate_with_one_bot_kind_per_seat_is_the_same_for_any_worker_count():
    outputs = []
    for workers in ("1", "2"):
        result = CliRunner().invoke(main, ["simulate", LIARS_DICE, "--games", "12", "--seed", "3", "--bots",
                                           "generic,random", "--workers", workers])
        assert 0 == result.exit_code, result.output
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert "bots generic,random" in outputs[0]


def test_simulation_spec_takes_one_kind_or_one_per_seat():
    text = (GAMES / "liars_dice.rules").read_text(encoding="utf-8")
    one = SimulationSpec(text, LIARS_DICE, (), 2, "random", 1)
    per_seat = SimulationSpec(text, LIARS_DICE, (), 2, ("random", "random"), 1)
    assert one == per_seat and one.bots == ("random", "random")
    assert simulate(one, 6) == simulate(per_seat, 6)
    mixed = SimulationSpec(text, LIARS_DICE, (), 2, ("generic", "random"), 1)
    assert simulate(mixed, 6, 1) == simulate(mixed, 6, 2)
    with pytest.raises(ValueError):
        SimulationSpec(text, LIARS_DICE, (), 2, ("random",), 1)
    with pytest.raises(ValueError):
        SimulationSpec(text, LIARS_DICE, (), 2, "clever", 1)


def _complete(words: str) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    result = CliRunner().invoke(main, [], prog_name="rulekit",
                                env={"_RULEKIT_COMPLETE": "bash_complete", "COMP_WORDS": words,
                                     "COMP_CWORD": str(cword)})
    assert 0 == result.exit_code, result.output
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if "," in line]


def test_variant_completes_the_variants_of_the_file():
    assert _complete(f"rulekit run {LUGENBEUTEL} --variant ") == \
        ["edition_b", "in_hand", "edition_b_in_hand", "single_card"]
    assert _complete(f"rulekit simulate {LUGENBEUTEL} --variant edi") == ["edition_b", "edition_b_in_hand"]
    assert _complete(f"rulekit check {DTC} {LIARS_DICE} --variant ") == \
        ["higher_counts", "higher_counts_literal", "five_dice"]


def test_variant_completion_survives_a_missing_or_broken_file(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('variant quick "fast" {\n  nonsense here\n', encoding="utf-8")
    binary = tmp_path / "binary.rules"
    binary.write_bytes(b"\xff\xfe\x00")
    assert _complete("rulekit run --variant ") == []
    assert _complete(f"rulekit run {tmp_path / 'nope.rules'} --variant ") == []
    assert _complete(f"rulekit run {binary} --variant ") == []
    assert _complete(f"rulekit run {broken} --variant ") == ["quick"]


def test_bots_completion():
    assert _complete(f"rulekit simulate {DTC} --bots generic,r") == ["generic,random"]


def test_counts_are_singular_or_plural():
    assert [_count(1, "card"), _count(2, "card"), _count(0, "match", "matches"), _count(1, "match", "matches")] == \
        ["1 card", "2 cards", "0 matches", "1 match"]
    game = SimpleNamespace(players=(1, 1), deck_size=1, kinds=[SimpleNamespace(count=1, start="hand")], dice=[],
                           phases=["play"])
    assert _summary(game) == "1 player, 1 card, 1 card for each seat, 1 phase"


def test_singular_in_every_command(tmp_path):
    solo = tmp_path / "solo.rules"
    solo.write_text(SOLO, encoding="utf-8")
    log = tmp_path / "m.jsonl"
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(solo)])
    assert checked.stdout == f"{solo}: ok — Solo, 1 player, 1 card, 1 phase\n"
    ran = runner.invoke(main, ["run", str(solo), "--seed", "1", "--log", str(log)])
    assert ran.stdout.startswith("Solo — 1 player, seed 1")
    assert f"log written to {log} ({len(_log_rows(log))} lines)" in " ".join(ran.stdout.split())
    compiled = runner.invoke(main, ["compile", str(solo)])
    assert "compiled for 1 player — 1 action in 1 phase, each a step" in compiled.stdout
    simulated = runner.invoke(main, ["simulate", str(solo), "--games", "1", "--seed", "1", "--workers", "1"],
                              terminal_width=200)
    assert "1 match, 1 player, generic bots" in simulated.stdout


def test_bots_alone_get_a_summary_per_deal_and_private_results_stay_private():
    """Without a person, run prints a summary per deal; with -v every step, and an inspection
    says who saw how many cards, never which."""
    runner = CliRunner()
    nimms = str(ROOT / "games" / "nimms_leich.rules")
    summary = runner.invoke(main, ["run", nimms, "--seed", "4", "--bots", "random"]).stdout
    verbose = runner.invoke(main, ["run", nimms, "--seed", "4", "--bots", "random", "-v"]).stdout
    assert "— deal 1 —" in summary and "Final standings" in summary
    assert "spends a chip to look" not in summary and "spends a chip to look" in verbose
    assert "is shown 2 cards)" in verbose and "(shown to" not in verbose


def test_a_draw_from_an_empty_zone_is_told():
    from rulekit import Engine, load
    from rulekit.engine import Event
    engine = Engine(load(LUGENBEUTEL))
    stock, drawn = engine.cg.zone_index["stock"], engine.cg.zone_index["drawn"]
    event = Event("draw", None, {"to": engine.cg.zone_slot(drawn, 1, 4), "from": engine.cg.zone_slot(stock, 0, 4),
                                 "cards": (), "wanted": 1})
    assert engine.describe_event(event, 4) == "  the stock is empty: P2 draws nothing"


def test_each_deal_says_who_starts_it():
    """With every step shown, the line after each deal's header names the seat whose decision
    opens the deal, and that seat acts next."""
    out = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--seed", "4", "--bots", "random", "-v"]).stdout.splitlines()
    starts = [i for i, line in enumerate(out) if line.startswith("— deal ")]
    assert starts
    for i in starts:
        assert out[i + 1].strip().startswith("dealer: P")     # the seat the file names comes first
        assert out[i + 2].endswith(" starts")
        seat = out[i + 2].split()[0]
        assert out[i + 3].startswith(seat + " "), out[i:i + 4]


# ---------------------------------------------------------------------------- the play-by-play
def _verbose(name: str, seed: int, *extra: str) -> list[str]:
    result = CliRunner().invoke(main, ["run", str(GAMES / name), "--seed", str(seed), "-v", *extra])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_each_deal_says_who_holds_the_seats_the_rules_name_and_who_starts():
    """Right after '— deal k —' and its setup: 'dealer: Pk' (a seat the file names and
    sets), then who starts; the dealer moves left between Lügenbeutel deals."""
    lines = _verbose("lugenbeutel.rules", 3)
    dealers = [line.strip() for line in lines if line.strip().startswith("dealer: ")]
    deals = [line for line in lines if line.startswith("— deal ")]
    assert len(dealers) == len(deals) >= 2
    first = int(dealers[0].split("P")[1])
    assert dealers[1] == f"dealer: P{first % 4 + 1}"


def test_the_seats_the_rules_name_are_told_before_the_setups_own_lines(tmp_path):
    """'dealer: P2' right after '— deal 2 —', before the setup's log lines: it came after
    them, so a blind posted by the seat left of the new dealer read as posted before the
    dealer moved (helper-37's Hold'em)."""
    path = tmp_path / "order.rules"
    path.write_text("""game "Order"
players 3
deck { card c: count 3 }
zone stock: shared, holds the deck
seat dealer = P1
counter deals = 0
setup { add 1 to deals  log "{left of dealer} posts the blind"  go to t from left of dealer }
turn t: action stop "stops" { end deal }
match { deals until deals >= 2  between deals { set dealer = left of dealer } }
""", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "-v"])
    lines = [line.strip() for line in result.output.splitlines()]
    i = lines.index("— deal 2 —")
    assert lines[i + 1:i + 4] == ["dealer: P2", "P3 posts the blind", "P3 starts"], lines


def _vote_game(tmp_path) -> Path:
    """A file of two seats whose one deal is one vote."""
    path = tmp_path / "vote.rules"
    path.write_text("""game "Vote"
players 2
deck { card c: count 2 }
zone stock: shared, holds the deck
setup { go to v }
vote v: each of everyone { action a "a" { }  then { end deal } }
""", encoding="utf-8")
    return path


def test_a_deal_that_opens_with_a_vote_says_who_votes_first(tmp_path):
    """A deal that opens with a vote: 'P1 votes first', not 'P1 starts' (every seat votes,
    unseen; helper-36's Hol's der Geier)."""
    path = _vote_game(tmp_path)
    lines = [line.strip() for line in CliRunner().invoke(main, ["run", str(path), "-s", "1", "-v"]).output.splitlines()]
    assert "P1 votes first" in lines and "P1 starts" not in lines


def test_simulate_leaves_out_turns_per_match_in_a_game_without_turns(tmp_path):
    """A game of votes: no line "turns per match: min 0 … max 0" (helper-36)."""
    path = _vote_game(tmp_path)
    out = CliRunner().invoke(main, ["simulate", str(path), "--games", "3", "--seed", "1"]).output
    assert "decisions per match" in out and "turns per match" not in out
    assert "turns per match" in CliRunner().invoke(main, ["simulate", LUGENBEUTEL, "--games", "2", "--seed", "1",
                                                          "--bots", "random"]).output


def test_votes_are_told_by_their_labels():
    votes = [line for line in _verbose("nimms_leich.rules", 2) if line.strip().startswith("votes:")]
    assert votes and all("thumb up" in v or "thumb hidden" in v for v in votes)
    assert not any("thumb_up" in v for v in votes)


def test_a_resolved_bid_tells_the_count_and_a_won_deal_the_losers_points():
    """Liar's Dice and Nimm's Leich say how many dice or pictures there were; a Lügenbeutel
    deal's end reveals the hands and says each loser's points."""
    assert any(line.strip().endswith(("show 1", "show 2", "show 3", "show 4", "show 5", "show 6"))
               and "of the dice show" in line for line in _verbose("liars_dice.rules", 5))
    assert any("in play" in line and " × B" in line for line in _verbose("nimms_leich.rules", 2))
    lines = _verbose("lugenbeutel.rules", 3)
    won = next(i for i, line in enumerate(lines) if "wins the deal" in line)
    assert lines[won + 1].strip().startswith("revealed: ")
    assert all(lines[won + k].strip().endswith(" points") for k in (2, 3, 4))


def test_help_names_the_player_counts_of_the_file_given():
    """`rulekit run FILE -h` says how many seats that game takes; without FILE, the general text."""
    out = CliRunner().invoke(main, ["run", str(GAMES / "skull.rules"), "-h"]).output
    assert "Number of seats: 3 to 6 for Skull (default: 4)." in " ".join(out.split())
    out = CliRunner().invoke(main, ["simulate", str(GAMES / "liars_dice.rules"), "--help"]).output
    assert "Number of seats: 2 for Liar's Dice (default: 2)." in " ".join(out.split())
    out = CliRunner().invoke(main, ["run", "-h"]).output
    assert "nearest count the game allows" in " ".join(out.split())


def test_the_default_bots_are_named_and_solve_a_small_game():
    """`--bots auto` (the default): a small two-seat game is played by its solved policy,
    a bigger one by the fast bot when bots play alone and by the search bot against a
    person; the first line names them."""
    kuhn = str(ROOT / "docs" / "examples" / "kuhn_poker.rules")
    assert "bots: solved" in CliRunner().invoke(main, ["run", kuhn, "--seed", "1", "-q"]).stdout.splitlines()[0]
    assert "bots: generic" in CliRunner().invoke(main, ["run", DTC, "--seed", "1", "-q"]).stdout.splitlines()[0]
    human = CliRunner().invoke(main, ["run", DTC, "--players", "2", "--seed", "1", "--human", "1"], input="")
    assert "P1 human, P2 search" in human.stdout.splitlines()[0]
    simulated = CliRunner().invoke(main, ["simulate", kuhn, "--games", "2", "--seed", "1", "--workers", "1"])
    assert "2 matches, 2 players, solved bots" in " ".join(simulated.stdout.split())
    solved = CliRunner().invoke(main, ["run", DTC, "--bots", "solved"])
    assert 2 == solved.exit_code and "the solved bot cannot play this game" in solved.stderr


def test_search_budgets_and_thinking_time():
    """`search:N` sets the iterations; `--think SECONDS` a time per decision instead; a bad
    budget names the option and what it takes."""
    dice = str(GAMES / "liars_dice.rules")
    fixed = [CliRunner().invoke(main, ["run", dice, "--variant", "five_dice", "--bots", "search:20", "--seed", "3",
                                       "-q"]).stdout for _ in range(2)]
    assert fixed[0] == fixed[1] and "bots: search:20" in fixed[0]
    timed = CliRunner().invoke(main, ["run", dice, "--bots", "search", "--think", "0.01", "--seed", "3", "-q"])
    assert 0 == timed.exit_code, timed.output
    bad = CliRunner().invoke(main, ["run", dice, "--bots", "search:0"])
    assert 2 == bad.exit_code and "whole number of iterations, at least 1" in bad.stderr
    bad = CliRunner().invoke(main, ["run", dice, "--bots", "generic:5"])
    assert 2 == bad.exit_code and "only search takes a budget" in bad.stderr


PEEK_DICE = """\
game "Peek dice"
players 2
die digit: 10 sides, 3 in each hand
die pip: 6 sides, 1 in cup
zone hand: per player, seen by owner
zone cup: shared, seen by nobody
setup {
  roll every hand
  roll cup
  go to peek from P1
}
turn peek clockwise {
  action look "looks" {
    show hand of left of actor to actor
    show cup to actor
    end deal
  }
}
match {
  winners: highest count of your hand
}
"""


def test_dice_are_called_dice_in_check_run_and_explain(tmp_path):
    """Dice are told as dice, not cards (issue 22): `check` counts "3 dice 'digit' in each
    hand", a private look at dice says "is shown 3 dice", and `explain` says how many lie in
    a shared zone with the verb agreeing ("1 lies in the cup")."""
    path = tmp_path / "peek.rules"
    path.write_text(PEEK_DICE)
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(path)]).stdout
    assert "0 cards, 3 dice 'digit' in each hand, 1 die 'pip' in cup, 1 phase" in checked
    verbose = runner.invoke(main, ["run", str(path), "--seed", "1", "--bots", "random", "-v"]).stdout
    assert "(P1 is shown 3 dice)" in verbose and "(P1 is shown 1 die)" in verbose and "card" not in verbose
    explained = runner.invoke(main, ["explain", str(path)]).stdout
    assert "1 lies in the cup from the start of the match" in explained


def test_pieces_are_counted_even_where_the_reader_may_not_see_them():
    """A draw a seat may not look at reaches it with its cards as None (``Engine.observe``):
    they are still counted, as cards, or as pieces in a game with dice."""
    from rulekit import Engine, load, loads
    from rulekit.engine.narrate import pieces_text

    cards = Engine(load(ROOT / "games" / "lugenbeutel.rules"))
    dice = Engine(loads(PEEK_DICE))
    assert pieces_text(cards, (None, None)) == "2 cards"
    assert pieces_text(dice, (None,)) == "1 piece"
    assert pieces_text(dice, (0, 0)) == "2 dice"


def test_a_ranking_key_named_in_quotes_heads_its_column_of_the_standings(tmp_path):
    """'winners: highest chips "chips in hand"': the standings column says "chips in hand",
    not the expression (helper-31 and helper-32 both wished for it)."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "examples" / "kuhn_poker.rules").read_text()
    assert "winners: highest total rank of your hand\n" in text
    rules = tmp_path / "kuhn.rules"
    rules.write_text(text.replace("winners: highest total rank of your hand\n",
                                  'winners: highest total rank of your hand "card"\n'))
    result = CliRunner().invoke(main, ["run", str(rules), "--seed", "3", "-q"])
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "place" in line)
    assert "card" in header and "total rank" not in header
    assert load(str(rules)).match.winners[0].label == "card"


def test_a_construct_the_engine_cannot_write_is_a_located_error_of_check_and_run(monkeypatch, tmp_path):
    """Where the step writer cannot write a construct (a defect of rulekit), 'check' says
    so at the phase, with the source line and a caret, and exits 2, and so does 'run'
    before the match: 'check' said ok and every run stopped with a traceback (helper-33)."""
    from rulekit.engine import stepgen

    def refuse(self, *args):
        self.reasons.append("a construct made up for this test")
        return None
    monkeypatch.setattr(stepgen.StepWriter, "step", refuse)
    rules = tmp_path / "lugen.rules"
    rules.write_text(Path(LUGENBEUTEL).read_text(encoding="utf-8"), encoding="utf-8")
    for args in (["check", str(rules)], ["run", str(rules), "--seed", "1"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{rules}:") and ": error: rulekit cannot run phase" in first
        assert "a construct made up for this test" in first and "Traceback" not in result.output
        assert "^" in result.stderr
    from rulekit.editor.features import diagnostics      # the editor says what check says

    assert any("rulekit cannot run phase" in d.message for d in diagnostics(rules.read_text(encoding="utf-8")))


HIDDEN_HANDS = """\
game "Hidden hands"
players 3
deck { card c: rank 1..9 }
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
counter score per player = 0, seen by nobody
setup { shuffle stock  deal 1 from stock to each hand  go to play }
turn play {
  action pass "passes" { }
  then { for each p in everyone { set score of p = total rank of hand of p }  end deal }
}
match {
  winners: KEY
  returns: total rank of your hand
}
"""


@pytest.mark.parametrize("key", ["highest total rank of your hand", "highest total rank of hand of left of actor",
                                 "highest score"])
def test_the_final_standings_shown_to_a_person_tell_no_unseen_card(tmp_path, key):
    """helper-34's review of the hidden standings: the rows were still ranked by the hidden
    values (P2 under P1 told P1 that P2's card was lower; a '?' beside the winner's '?' read
    as a tie), the person's own row could show another seat's card (a key reading the hand
    on its left), and the result column and a counter seen by nobody (set from the cards)
    showed the cards. Now: the winners first, then the seats by number, with no place
    beyond the winners', and '?' for every value read from an unseen card."""
    rules = tmp_path / "hidden.rules"
    rules.write_text(HIDDEN_HANDS.replace("KEY", key), encoding="utf-8")
    for seed in range(1, 6):
        result = CliRunner().invoke(main, ["run", str(rules), "--human", "1", "--seed", str(seed)], input="pass\n")
        assert result.exit_code == 0, result.output
        record = play_match(Engine(load(str(rules))), [RandomBot(seat_rng(seed, s)) for s in range(3)], 3, seed)
        hands = {s: record.state.zones[s + 1][0] + 1 for s in range(3)}   # the stock is zone 0; rank = kind + 1
        rows = [[c.strip() for c in line.split("│")[1:-1]]
                for line in result.output[result.output.index("Final standings"):].splitlines() if line.count("│") > 4]
        winners = [int(r[1][1:]) - 1 for r in rows if r[-1] == "winner"]
        assert [int(r[1][1:]) - 1 for r in rows] == winners + sorted(s for s in range(3) if s not in winners)
        for place, seat, value, result_, _ in rows:
            s = int(seat[1:]) - 1
            assert place == ("1" if s in winners else "-")
            assert result_ == ("+" + str(hands[0]) if s == 0 else "?")
            assert value == ("?" if key == "highest score" or s != 0 or "left" in key else str(hands[0]))
