"""A stranger's .rules file or log (issue 23): odd characters, inputs that are not files,
outputs that would overwrite an input, a full disk or a closed pipe, and a match killed
while it writes its log. Each is refused with one located line, or survived: no traceback,
no endless read, no log lost. (Tests that send signals or run the CLI in a child process
are ``slow``.)"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.files import MAX_RULES_BYTES
from rulekit.play.replay import LogFile, json_line, replay
from strategies import ROOT

LIARS_DICE = str(ROOT / "games" / "liars_dice.rules")
COIN_BLUFF = (ROOT / "docs" / "examples" / "coin_bluff.rules").read_text(encoding="utf-8")

#: a match that never ends: one seat after the other passes
FOREVER = """\
game "Forever"
players 2
deck { card coin: count 2 }
zone stock: shared, count only, holds the deck
setup { set current = P1  go to play }
turn play {
  action pass "LABEL" {
    set current = left of current
    go to play
  }
}
"""

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


def _forever(tmp_path: Path, label: str = "passes") -> str:
    path = tmp_path / "forever.rules"
    path.write_text(FOREVER.replace("LABEL", label), encoding="utf-8")
    return str(path)


def _rules(tmp_path: Path, text: str, name: str = "g.rules") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


# ------------------------------------------------------------------------ odd characters
@pytest.mark.parametrize("char, name", [("\x00", "U+0000 (NUL)"), ("\x1b", "U+001B (ESC)"), ("\x07", "U+0007 (BEL)"),
                                        ("\r", "U+000D (CR)"), ("\x0c", "U+000C (FF)")])
def test_a_control_character_in_a_file_is_a_located_error(tmp_path, char, name):
    """`game "a\\x00b"` passed check and crashed run, simulate and compile with "embedded
    null character": now every command refuses it at load, located, with the character
    shown as a visible symbol under the caret."""
    path = _rules(tmp_path, COIN_BLUFF.replace('game "Coin bluff"', f'game "a{char}b"'))
    line = COIN_BLUFF.split("\n").index('game "Coin bluff"') + 1
    for args in (["check", path], ["run", path, "--seed", "1"], ["simulate", path, "-g", "2", "-w", "1"],
                 ["compile", path], ["explain", path]):
        result = CliRunner().invoke(main, args)
        assert 2 == result.exit_code, (args, result.output)
        lines = result.stderr.splitlines()
        assert f"{path}:{line}:8: error: a control character, {name}, cannot appear in a rules file" == lines[0]
        assert lines[1] == f'    game "a{chr(0x2400 + ord(char))}b"'
        assert lines[2] == "           ^"
        assert lines[3].startswith("hint: delete it")
        assert "Traceback" not in result.output and "null character" not in result.output


def test_windows_line_ends_and_a_byte_order_mark_are_accepted(tmp_path):
    """A file saved with CR LF line ends, or beginning with a UTF-8 byte-order mark (which
    was refused as an "unexpected character" nobody could see), checks and runs."""
    crlf = _rules(tmp_path, COIN_BLUFF.replace("\n", "\r\n"), "crlf.rules")
    bom = _rules(tmp_path, b"\xef\xbb\xbf" + COIN_BLUFF.encode("utf-8"), "bom.rules")
    for path in (crlf, bom):
        result = CliRunner().invoke(main, ["check", path])
        assert 0 == result.exit_code, result.output
        assert result.stdout.startswith(f"{path}: ok — Coin bluff")
    result = CliRunner().invoke(main, ["run", bom, "-n", "2", "--seed", "1", "-q", "--bots", "random"])
    assert 0 == result.exit_code, result.output
    broken = _rules(tmp_path, b"\xef\xbb\xbf@" + COIN_BLUFF.encode(), "b.rules")
    result = CliRunner().invoke(main, ["check", broken])
    assert 2 == result.exit_code                # columns as without the mark
    assert f"{broken}:1:1: error: unexpected character '@'" == result.stderr.splitlines()[0]


def test_an_invisible_unexpected_character_is_named_by_its_code():
    from rulekit.lang.syntax import char_name

    assert "U+200B" == char_name("\u200b") and "U+FEFF" == char_name("\ufeff") and "'x'" == char_name("x")


def test_line_breaks_of_unicode_give_a_log_that_replays(tmp_path):
    """U+2028, U+2029 and U+0085 in a label were written raw into the log, and the reader,
    which split lines on them, said "not a JSON line": a rules file may no longer hold
    them (U+0085 is a C1 control; U+2028 and U+2029 are refused with a located error), the
    writer escapes them in any text, and the reader ends a line at \\n only."""
    result = CliRunner().invoke(main, ["run", _forever(tmp_path, "pa\u2028ss"), "--seed", "1", "-q"])
    assert 2 == result.exit_code and "a line break other than a newline, U+2028" in result.stderr, result.output
    assert "\u2028" not in result.output
    path = _forever(tmp_path, "passes")
    log = tmp_path / "x.jsonl"
    result = CliRunner().invoke(main, ["run", path, "--seed", "1", "-q", "--max-decisions", "5", "--log", str(log)])
    assert 2 == result.exit_code, result.output
    header, rest = log.read_text(encoding="utf-8").split("\n", 1)
    # a log written raw by another program still reads: only \n ends a line
    log.write_text(header[:-1] + ', "note": "a\u2028b\u2029c\u0085d"}\n' + rest, encoding="utf-8")
    assert 5 == replay(str(log)).decisions
    assert json.loads(json_line({"t": "a\u2028b\u0085"})) == {"t": "a\u2028b\u0085"}
    assert "\u2028" not in json_line({"t": "a\u2028b\u0085"})


# ------------------------------------------------------------------ inputs that are not files
@pytest.mark.parametrize("command", ["check", "run", "explain", "compile", "simulate"])
def test_a_device_is_not_read_as_a_rules_file(command):
    """`check /dev/zero` (and run, explain…) read until memory ran out."""
    result = CliRunner().invoke(main, [command, "/dev/zero"])
    assert 2 == result.exit_code, result.output
    assert result.stderr.startswith("/dev/zero: error: not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.rules"
    os.mkfifo(fifo)
    for command in ("check", "run"):
        result = CliRunner().invoke(main, [command, str(fifo)])
        assert 2 == result.exit_code
        assert result.stderr.startswith(f"{fifo}: error: not a regular file")


def test_a_rules_file_larger_than_the_limit_is_refused(tmp_path):
    path = _rules(tmp_path, COIN_BLUFF + " " * MAX_RULES_BYTES)
    for args in (["check", path], ["run", path]):
        result = CliRunner().invoke(main, args)
        assert 2 == result.exit_code
        assert result.stderr.startswith(f"{path}: error: more than 1 MiB, the most a rules file may hold")
    result = CliRunner().invoke(main, ["check", "-"], input=COIN_BLUFF + " " * MAX_RULES_BYTES)
    assert 2 == result.exit_code
    assert result.stderr.startswith("<stdin>: error: more than 1 MiB")


def _a_log(tmp_path: Path) -> Path:
    log = tmp_path / "ld.jsonl"
    result = CliRunner().invoke(main, ["run", LIARS_DICE, "--seed", "3", "-q", "--bots", "random",
                                       "--log", str(log)])
    assert 0 == result.exit_code, result.output
    return log


@pytest.mark.parametrize("field, value, message", [
    ("file", "/dev/zero", "cannot read the rules file /dev/zero: not a regular file"),
    ("file", "/dev/stdin", "cannot read the rules file /dev/stdin: not a regular file"),
    ("file", 0, "the header's \"file\" is 0, not the path of the rules file (a text)"),
    ("file", None, "the header's \"file\" is null, not the path of the rules file (a text)"),
    ("seed", [1, 2], "the header's \"seed\" is [1, 2], not a whole number"),
    ("seed", 1.5, "the header's \"seed\" is 1.5, not a whole number"),
    ("players", "2", "the header's \"players\" is \"2\", not a number of seats"),
    ("variants", "abc", "the header's \"variants\" is \"abc\", not a list of variant names"),
    ("format", True, "the log is of format true;"),
])
def test_a_header_of_the_wrong_kind_is_a_clear_error(tmp_path, field, value, message):
    """A header naming /dev/zero or /dev/stdin hung or ran out of memory; `"file": 0`
    read standard input; null or a list gave a TypeError."""
    log = _a_log(tmp_path)
    lines = log.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header[field] = value
    log.write_text("\n".join([json.dumps(header)] + lines[1:]), encoding="utf-8")
    if value == "/dev/stdin" and os.path.isfile("/dev/stdin"):
        pytest.skip("this test's standard input is a regular file")
    result = CliRunner().invoke(main, ["replay", str(log), "-q"], input="")
    assert 2 == result.exit_code, result.output
    assert result.stderr.startswith(f"{log}:1: error: {message}"), result.stderr
    assert "Traceback" not in result.output


def test_a_log_that_is_no_file_or_nests_too_deeply_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["replay", "/dev/zero"])
    assert 2 == result.exit_code and result.stderr == "/dev/zero: error: not a regular file\n"
    log = _a_log(tmp_path)
    header = log.read_text(encoding="utf-8").split("\n")[0]
    log.write_text(header + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert 2 == result.exit_code
    assert result.stderr == f"{log}:2: error: not a JSON line (nested too deeply to read)\n"


# ------------------------------------------------------------------ outputs that are inputs
def test_an_output_that_is_the_rules_file_is_refused_and_the_rules_kept(tmp_path):
    """`run FILE --log FILE` emptied the rules file before the match."""
    rules = tmp_path / "ld.rules"
    shutil.copy(LIARS_DICE, rules)
    before = rules.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(rules)
    cases = [(["run", str(rules), "--log", str(rules)], "--log"),
             (["run", str(rules), "--log", str(link)], "--log"),
             (["run", str(rules), "--log-for", "1", str(tmp_path / "." / "ld.rules")], "--log-for"),
             (["simulate", str(rules), "--json", str(rules)], "--json"),
             (["simulate", str(rules), "--csv", str(link)], "--csv"),
             (["simulate", str(rules), "--plot", str(rules)], "--plot")]
    for args, option in cases:
        if option == "--plot":
            pytest.importorskip("matplotlib")
        result = CliRunner().invoke(main, args)
        assert 2 == result.exit_code, (args, result.output)
        assert f"Invalid value for '{option}': " in result.stderr and "is the rules file" in result.stderr
        assert rules.read_bytes() == before
    result = CliRunner().invoke(main, ["run", str(rules), "--log", str(tmp_path / "a"),
                                       "--log-for", "1", str(tmp_path / "a")])
    assert 2 == result.exit_code
    assert "Invalid value for '--log-for': " in result.stderr and "is written by --log already" in result.stderr
    result = CliRunner().invoke(main, ["simulate", str(rules), "--json", str(tmp_path / "a"),
                                       "--csv", str(tmp_path / "a")])
    assert 2 == result.exit_code and "is written by --json already" in result.stderr


# ------------------------------------------------------------------------------ a full disk
@needs_dev_full
@pytest.mark.parametrize("args", [["run", LIARS_DICE, "--seed", "3", "-q", "--log", "/dev/full"],
                                  ["run", LIARS_DICE, "--seed", "3", "-q", "--log-for", "1", "/dev/full"],
                                  ["simulate", LIARS_DICE, "-g", "4", "-w", "1", "--seed", "1", "--json", "/dev/full"],
                                  ["simulate", LIARS_DICE, "-g", "4", "-w", "1", "--seed", "1", "--csv", "/dev/full"]])
def test_a_full_disk_is_one_line_and_status_1(args):
    """It was a traceback after the whole match was played."""
    result = CliRunner().invoke(main, args + ["--bots", "random"])
    assert 1 == result.exit_code, result.output
    assert result.stderr.splitlines()[-1] == "/dev/full: error: no space left on device"
    assert "Traceback" not in result.output


def test_a_log_file_that_fails_keeps_what_was_written(tmp_path, monkeypatch):
    """A LogFile whose writes fail says which file (an OutputError) and keeps the lines
    that reached it."""
    from rulekit.files import OutputError

    path = tmp_path / "x.jsonl"
    out = LogFile(str(path), [{"type": "header"}])
    out.extend([{"type": "event", "n": 1}])

    def full(text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(out._out, "write", full)
    with pytest.raises(OutputError) as caught:
        out.extend([{"type": "event", "n": 2}])
    assert str(caught.value) == f"{path}: error: no space left on device"
    out.close()
    assert 2 == len(path.read_text(encoding="utf-8").splitlines())


# ------------------------------------------------------------- the log as the match goes
def test_the_log_is_written_and_flushed_decision_by_decision(tmp_path):
    """Each decision's record and events are in the file before the next decision is
    asked for, so that a killed match leaves them."""
    from rulekit import Engine, load
    from rulekit.play.match import log_header, play_match
    from rulekit.players import RandomBot
    from rulekit.play.match import seat_rng

    engine = Engine(load(LIARS_DICE))
    path = tmp_path / "x.jsonl"
    out = LogFile(str(path), [log_header(engine, LIARS_DICE, 2, 5, ["random"] * 2)])
    seen = []

    class Watching(RandomBot):
        def choose(self, view, decision):
            on_disk = path.read_text(encoding="utf-8").count("\n")
            seen.append(on_disk)
            assert on_disk == 1 + len(out)          # the header, then every record so far
            return super().choose(view, decision)

    record = play_match(engine, [Watching(seat_rng(5, s)) for s in range(2)], 2, 5, log=out)
    out.close()
    assert record.log is out and len(seen) == record.steps and seen == sorted(seen)
    assert replay(str(path)).finished


def test_a_log_cut_after_any_whole_record_or_torn_replays_as_incomplete(tmp_path):
    """A killed match's log replays up to its last whole record and says it is
    incomplete; a torn last line is left out, with its number."""
    log = _a_log(tmp_path)
    lines = log.read_text(encoding="utf-8").split("\n")[:-1]
    whole = replay(str(log))
    cut = tmp_path / "cut.jsonl"
    for k in range(1, len(lines)):
        cut.write_text("\n".join(lines[:k]) + "\n", encoding="utf-8")
        done = replay(str(cut))
        assert done.decisions <= whole.decisions and done.incomplete, k
        assert done.incomplete.startswith("the log stops before the match ends")
        torn = lines[k][: len(lines[k]) // 2]
        cut.write_text("\n".join(lines[:k]) + "\n" + torn, encoding="utf-8")
        done = replay(str(cut))
        assert done.torn == k + 1 and f"its last line ({k + 1}) was cut off" in done.incomplete
    cut.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(cut), "-q"])
    assert 0 == result.exit_code, result.output
    assert "every event matches (the log stops before the match ends" in result.stdout
    # a broken line that is not the last one is still an error
    cut.write_text("\n".join(lines[:3]) + "\n{torn\n" + lines[3] + "\n", encoding="utf-8")
    assert 2 == CliRunner().invoke(main, ["replay", str(cut)]).exit_code


def _rulekit(*args, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rulekit", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def _wait_for_lines(path: Path, lines: int, process, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= lines:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {lines} lines")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig, status, name", [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGHUP, 129, "SIGHUP"),
                                               (signal.SIGINT, 130, "Ctrl-C"), (signal.SIGKILL, -9, None)])
def test_a_killed_match_leaves_a_log_that_replays(tmp_path, sig, status, name):
    """kill -9, SIGTERM and SIGHUP left a 0-byte --log. Now the log is written as the match
    goes; SIGTERM and SIGHUP stop the match as Ctrl-C does (and write --log-for too)."""
    rules = _forever(tmp_path)
    log, mine = tmp_path / "x.jsonl", tmp_path / "p1.jsonl"
    process = _rulekit("run", rules, "--seed", "1", "-q", "--max-decisions", "100000000", "--log", str(log),
                       "--log-for", "1", str(mine))
    _wait_for_lines(log, 200, process)
    process.send_signal(sig)
    out, err = process.communicate(timeout=60)
    assert status == process.returncode, err
    if name is not None:
        assert f"stopped: {'terminated (' + name + ')' if name.startswith('SIG') else 'interrupted (Ctrl-C)'} after" \
               in err, err
        assert f"what P1 saw is in {mine}" in err
        assert json.loads(mine.read_text(encoding="utf-8").split("\n")[-2])["type"] == "end"
    assert "Traceback" not in err
    done = replay(str(log))
    assert done.decisions >= 60 and done.incomplete


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_standard_output_on_a_full_disk_or_a_closed_pipe(tmp_path):
    """`run > /dev/full` was a traceback; `run -v | head -1` too (a broken pipe). Now one
    line and status 1, or nothing at all, and the --log is kept."""
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-m", "rulekit", "run", LIARS_DICE, "--seed", "3", "-v",
                                  "--bots", "random"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert 1 == process.returncode
    assert "<stdout>: error: no space left on device\n" == process.stderr
    log = tmp_path / "x.jsonl"
    rules = _forever(tmp_path)
    pipe = subprocess.Popen(f"{sys.executable} -m rulekit run {rules} --seed 1 -v --max-decisions 100000000 "
                            f"--log {log} | head -1", shell=True, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    out, err = pipe.communicate(timeout=120)
    assert "" == err and 1 == len(out.splitlines())
    assert replay(str(log)).incomplete


# ----------------------------------------------------------------------- long variant chains
def _chain(k: int) -> str:
    """Coin bluff and a chain of ``k`` variants, each extending the one before (43 bytes each)."""
    return COIN_BLUFF + 'variant v0 "v0" { players 2..4 }\n' + "".join(
        f'variant v{i} "v{i}" extends v{i - 1} {{ players 2..4 }}\n' for i in range(1, k))


def test_a_chain_of_a_thousand_variants_is_checked_with_linear_work(monkeypatch):
    """`check` of 1,000 variants, each extending the one before, ran past 60 s (each build
    of a variant looked at every variant's ancestors again, and laid the chain with a copy
    of the path per step): the variants are now looked at once per file, and a chain is
    laid without recursion."""
    from rulekit.sema import check as sema_check
    from rulekit.sema.load import check_text

    counted = {"_check_variants": 0, "_laying_order": 0}

    def counting(name):
        real = getattr(sema_check, name)

        def wrapper(*args, **kw):
            counted[name] += 1
            return real(*args, **kw)
        monkeypatch.setattr(sema_check, name, wrapper)

    for name in counted:
        counting(name)
    rows = check_text(_chain(1000), "chain.rules")
    assert 1001 == len(rows) and all(not isinstance(r, Exception) for _, _, r in rows)
    assert rows[-1][2].applied == tuple(f"v{i}" for i in range(1000))
    assert 1 == counted["_check_variants"] and 1000 == counted["_laying_order"]


@pytest.mark.slow
def test_a_chain_of_a_thousand_variants_checks_in_seconds(tmp_path):
    path = _rules(tmp_path, _chain(1000))
    started = time.monotonic()
    result = CliRunner().invoke(main, ["check", path])
    assert 0 == result.exit_code, result.output
    assert time.monotonic() - started < 20


def test_a_variant_reached_twice_is_applied_once_and_diamonds_stay_small(tmp_path):
    """Variants that extend two that extend one base: the base is applied once (a chain of
    40 such diamonds would otherwise lay the base 2**40 times)."""
    from rulekit.sema.load import loads

    game = loads(COIN_BLUFF + 'variant a { players 2..4 }\nvariant b extends a { }\nvariant c extends a { }\n'
                 'variant d extends b, c { }\n', "d.rules", ("d",))
    assert ("a", "b", "c", "d") == game.applied
    diamonds = COIN_BLUFF + "variant v0 { }\n" + "".join(
        f"variant l{i} extends v{i - 1} {{ }}\nvariant r{i} extends v{i - 1} {{ }}\n"
        f"variant v{i} extends l{i}, r{i} {{ }}\n" for i in range(1, 41))
    assert 121 == len(loads(diamonds, "d.rules", ("v40",)).applied)


def test_circles_of_variants_are_each_named(tmp_path):
    from rulekit.errors import RulesError
    from rulekit.sema.load import loads

    with pytest.raises(RulesError) as caught:
        loads(COIN_BLUFF + "variant a extends a { }\nvariant b extends c { }\nvariant c extends d { }\n"
              "variant d extends b { }\nvariant e extends b { }\n", "c.rules")
    messages = [p.message for p in caught.value.problems]
    assert messages == ["variant 'a' extends itself (through itself)", "variant 'b' extends itself (through c, d)",
                        "variant 'c' extends itself (through b, d)", "variant 'd' extends itself (through b, c)"]


# ------------------------------------------------------------------------- a dying worker
@pytest.mark.slow
def test_a_worker_that_dies_loses_no_match(tmp_path, monkeypatch):
    """Killing a worker of `simulate --workers 2` ended in a BrokenProcessPool traceback
    and wrote nothing: the matches it took down are named and played again, and the
    figures are those of one worker, digit for digit. (The test hook makes the spawned
    worker exit at its second chunk, as a worker killed by the system would.)"""
    from rulekit.analysis import simulation

    marker = tmp_path / "died"
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ["simulate", LIARS_DICE, "-g", "2000", "--seed", "1", "--bots", "random"]
    result = CliRunner().invoke(main, args + ["-w", "1", "--json", str(one)])
    assert 0 == result.exit_code, result.output
    monkeypatch.setenv(simulation._DIE_HOOK, f"{marker}:2")
    result = CliRunner().invoke(main, args + ["-w", "2", "--json", str(two)])
    assert 0 == result.exit_code, result.output
    assert marker.exists(), "the worker did not die: the test proves nothing"
    assert f"{LIARS_DICE}: warning: a worker process died; the " in result.stderr
    assert "are played again" in result.stderr and "Traceback" not in result.output
    first, second = json.loads(one.read_text()), json.loads(two.read_text())
    assert first["figures"] == second["figures"] and first["matches"] == second["matches"]


@pytest.mark.slow
def test_when_every_pool_loses_its_worker_this_process_plays_the_rest(monkeypatch):
    from rulekit.analysis import simulation
    from rulekit.analysis.simulation import SimulationSpec, simulate
    from rulekit.sema.load import load

    game = load(LIARS_DICE)
    spec = SimulationSpec(game.source, LIARS_DICE, (), 2, ("random", "random"), 7)
    alone = simulate(spec, 400, 1)
    monkeypatch.setenv(simulation._DIE_HOOK, ":1")
    lost: list = []
    assert simulate(spec, 400, 2, on_lost=lost.append) == alone
    assert simulation.POOLS == len(lost) and all(lost)      # each pool's worker died; then this process played


# ---------------------------------------------------------------------------- terminal control (item 1)
@pytest.mark.parametrize("char, name", [("\x1b", "U+001B (ESC)"), ("\x9b", "U+009B (CSI)"), ("\x9d", "U+009D (OSC)"),
                                        ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
                                        ("\u2066", "U+2066 (LEFT-TO-RIGHT ISOLATE)")])
def test_a_rules_text_that_could_drive_the_terminal_is_refused_and_shown_as_text(char, name):
    """Issue 23, item 1: an escape (clear screen, window title, OSC 52 clipboard), a C1
    command or a bidirectional override in a title, label or log text never reaches the
    terminal: loading refuses it, and the error shows the character as visible text."""
    from rulekit.errors import RulesError
    from rulekit.sema.load import loads

    source = f'game "Evil{char}]52;c;aGk=\\x07"\nplayers 2\n'
    with pytest.raises(RulesError) as exc:
        loads(source, "evil.rules")
    text = exc.value.render()
    assert f"a control character, {name}, cannot appear in a rules file" in text
    assert not any(0x80 <= ord(c) <= 0x9f or c in "\x1b\u202e\u2066" for c in text), repr(text)


def test_shown_text_makes_every_terminal_control_visible():
    from rulekit.errors import shown_text

    evil = "a\x1b[2Jb\x9b31mc\u202ed\x07e\nf\tg"
    shown = shown_text(evil)
    assert shown == "a␛[2Jb⟨U+009B⟩31mc⟨U+202E⟩d␇e␊f\tg"
    assert shown_text(evil, lines=True).split("\n")[1] == "f\tg"


def test_a_persons_typed_escape_is_echoed_as_text():
    """A human who types an escape sequence at the prompt is told it is not an option, and
    the message shows the sequence as text."""
    from rich.console import Console

    from rulekit import Engine, load
    from rulekit.players import HumanPlayer

    engine = Engine(load(str(ROOT / "games" / "liars_dice.rules")))
    state, _ = engine.new_match(2, random.Random(0))
    out = io.StringIO()
    answers = iter(["\x1b]0;owned\x07", "\x9b2J", "1", "1", "1"])
    player = HumanPlayer(engine, Console(file=out, force_terminal=False, width=200), lambda prompt: next(answers))
    from rulekit.play.match import player_decision

    view = engine.view(state, 0)
    player.choose(view, player_decision(engine, view, engine.decision(state)))
    text = out.getvalue()
    assert "␛]0;owned␇" in text and "⟨U+009B⟩2J" in text
    assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text


def test_a_log_that_names_an_escape_is_reported_as_text(tmp_path):
    """A crafted log whose header names a rules file with an escape sequence in its name:
    replay's error shows the sequence as text."""
    log = tmp_path / "m.jsonl"
    assert CliRunner().invoke(main, ["run", str(ROOT / "games" / "liars_dice.rules"), "--seed", "1", "-q", "--bots", "random",
                                     "--log", str(log)]).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["file"] = str(tmp_path / "\x1b]0;owned\x07\x9b2J.rules")
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code != 0
    assert "␛]0;owned␇⟨U+009B⟩2J.rules" in result.output
    assert not any(c in result.output for c in "\x1b\x07\x9b")
