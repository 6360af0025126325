"""Fuzz suite (issue 7, item 9): hostile and random programs and input never crash rulekit.

Inputs (strategies in tests/fuzzing.py):

* programs generated from ``grammar/rulekit.lark`` itself (free, skeleton and splice modes);
* mutations of every shipped ``games/*.rules`` file, loaded as the base game or a variant;
* garbage typed at a HumanPlayer's prompt;
* (issue 23) corpus files with control characters and sequences in a quoted text, a name
  or a comment; small games routing a hidden value to every seat; actions nesting loops;
  devices, folders, pipes and other inputs that are no rules file; crafted logs.

Properties:

(a) ``rulekit.loads`` (and, for a sample, ``rulekit check`` through click's CliRunner)
    succeeds or raises a located ``RulesError`` (``<rules>:L:C: error: …`` or ``<rules>:
    error: …``, L within the file) or an ``OptionError`` (an unknown variant), within a time
    bound, and never anything else;
(b) a program that loads plays three seeded matches (2..min(most players, 4) seats, random
    bots, a generic bot in one seat of the third match) where the only exceptions allowed are
    ``MatchTooLong``, ``RulesRuntimeError`` and ``OptionError`` for a player count outside
    the declared range;
(c) a HumanPlayer fed random lines plays on every shipped game and raises nothing but the end
    of its input;
(d) a text holding a control character is refused by ``check``, ``explain``, ``compile`` and
    ``run`` with a located error naming it, one holding a BOM or a zero-width space is read, played and
    replayed, and nothing any of them writes holds a control character (C0 but newline and
    tab, DEL, C1, the controls of bidirectional text) or a line break but the newline as it
    is (:func:`tainted_cleanly`);
(e) a hidden value on its way to every seat (a ``log`` text, a claim, a group, a procedure
    that shows it), through ``let``s, computation, loops and procedures, is refused with
    "which not every seat may see", and the same game with a public value loads
    (:func:`leak_refused`);
(f) an action nesting two to four loops ends, or stops with the RulesRuntimeError of the
    rounds of all the loops of one step exactly when they pass 1,000,000 (:func:`loops_cleanly`);
(g) commands handed a device, a folder, a pipe, a link to itself, random bytes, more than
    1 MiB or a name holding control characters exit 0, 1 or 2 with an error line, without a
    traceback or a raw control character (:func:`odd_input_cleanly`);
(h) ``replay`` of a real log with hostile fields, truncated, nested 100,000 deep, with bytes
    that are not UTF-8… does the same (:func:`crafted_log_cleanly`).

The default run (no marker) is derandomized and takes a few thousand inputs; ``-m slow`` runs
the same properties over 100,000+ fuzzed files, 1,000 garbage human sessions and some 13,000
inputs of (d)–(h) in two worker processes (each under an address-space limit), with fresh
seeds.

Known failures are skipped by the filter right below, by their exact signature, and each has
its minimal reproducer as a strict xfail test at the end of this file: when a bug is fixed,
its xfail test fails (XPASS strict): delete the test and the filter's entry together.
"""

from __future__ import annotations

import functools
import io
import json
import multiprocessing
import os
import random
import re
import resource
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, NamedTuple

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st
from rich.console import Console

import fuzzing
from fuzzing import CraftedLog, Leak, Loops, Mutated, OddInput, Program, Tainted, time_limit
from rulekit import Engine, OptionError, RulesError, load, loads, play_match
from rulekit.cli import main
from rulekit.engine.compile import RulesRuntimeError
from rulekit.engine.runtime import MAX_STEP_WORK
from rulekit.errors import shown_text
from rulekit.play.match import MatchTooLong, seat_rng
from rulekit.players import GenericBot, HumanPlayer, RandomBot


# =========================================================================== known failures
class Known(NamedTuple):
    """The signature of a known open bug: the exception type, a regular expression its
    message must match, the functions (``module:function`` of rulekit) one of which it must
    be raised in or pass through (None: anywhere), and a test of the input text."""

    id: str
    type: type
    message: str = ""
    where: tuple[str, ...] | None = None
    text: Callable[[str], bool] = lambda text: True


#: Remove an entry when its bug is fixed (its xfail test below then fails as XPASS).
KNOWN_FAILURES: tuple[Known, ...] = (
)


def known_signature(exc: BaseException, text: str) -> str | None:
    """The id of the known failure ``exc`` is, or None."""
    frames = [f"{fs.filename.rsplit('/rulekit/', 1)[-1].removesuffix('.py').replace('/', '.')}:{fs.name}"
              for fs in traceback.extract_tb(exc.__traceback__) if "/rulekit/" in fs.filename]
    for k in KNOWN_FAILURES:
        if not isinstance(exc, k.type) or not re.search(k.message, str(exc)):
            continue
        if k.where is not None and not set(k.where) & set(frames):
            continue
        if k.text(text):
            return k.id
    return None


#: how often each known failure was skipped in this process
SKIPPED: Counter = Counter()
#: how many inputs of each kind this process has fuzzed
COUNTS: Counter = Counter()


class _SkipKnown:
    """Re-raises every exception, except one with a known signature: that example is then
    rejected (``assume(False)``) and counted in SKIPPED."""

    def __init__(self, text: str):
        self.text = text

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb):
        if exc is None or isinstance(exc, (KeyboardInterrupt, SystemExit)):
            return False
        known = known_signature(exc, self.text)
        if known is None:
            return False
        SKIPPED[known] += 1
        assume(False)
        return False        # not reached: assume(False) raises


# =========================================================================== the properties
LOAD_SECONDS = 5.0          # one load (parse, checks, compile)
MATCH_SECONDS = 15.0        # an engine and three matches
HUMAN_SECONDS = 15.0        # one human session
MAX_STEPS = 300             # decisions per fuzzed match

_LOCATED = r"^{path}:(\d+):(\d+): error: \S|^{path}: error: \S"


def assert_located(exc: RulesError, text: str, path: str = "<rules>") -> None:
    """The first line of a RulesError names the file, a line of it (lines end with a new
    line, as the parser counts them) and a column, or the file; the source line shown under
    it is (a part of) that line."""
    rendered = str(exc).split("\n")
    first = rendered[0]
    m = re.match(_LOCATED.format(path=re.escape(path)), first)
    assert m, f"not a located error: {first!r}"
    if m.group(1):
        line, col = int(m.group(1)), int(m.group(2))
        lines = text.split("\n")
        assert 1 <= line <= len(lines) and col >= 1, f"located outside the file: {first!r}"
        if len(rendered) >= 3 and rendered[1].startswith("    ") and re.fullmatch(r" *\^+", rendered[2]):
            shown = rendered[1][4:].removeprefix("…").removesuffix("…")
            # the line is shown with its control characters as visible symbols (␛, ⟨U+202E⟩)
            assert shown in shown_text(lines[line - 1]), f"{first!r} shows another line: {rendered[1]!r}"


def load_cleanly(text: str, variant: str | None = None):
    """Property (a) for one text: the game, or None after a located RulesError or an
    OptionError (an unknown variant)."""
    COUNTS["files"] += 1
    with _SkipKnown(text), time_limit(LOAD_SECONDS):
        try:
            return loads(text, variants=[variant] if variant else [])
        except RulesError as exc:
            assert_located(exc, text)
        except OptionError as exc:
            assert variant is not None, f"OptionError without a variant: {exc}"
    return None


def load_raw_cleanly(raw: bytes, tmp_dir: str):
    """Property (a) for bytes that may not be UTF-8, through ``rulekit.load`` on a file."""
    COUNTS["files"] += 1
    path = os.path.join(tmp_dir, "fuzz.rules")
    with open(path, "wb") as fh:
        fh.write(raw)
    text = raw.decode("utf-8", "replace")
    with _SkipKnown(text), time_limit(LOAD_SECONDS):
        try:
            load(path)
        except RulesError as exc:
            assert_located(exc, exc.source or text, path)


def check_command_cleanly(data: bytes, tmp_dir: str) -> None:
    """Property (a) through ``rulekit check FILE``: exit 0, or exit 2 with a located error on
    stderr (or click's usage error for a variant), never a traceback."""
    COUNTS["cli"] += 1
    path = os.path.join(tmp_dir, "fuzz_cli.rules")
    with open(path, "wb") as fh:
        fh.write(data)
    text = data.decode("utf-8", "replace")
    with _SkipKnown(text), time_limit(4 * LOAD_SECONDS):
        result = CliRunner().invoke(main, ["check", path], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        with _SkipKnown(text):
            raise result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        # a variant's problems come after a line '  variant NAME: error'
        lines = [line for line in result.stderr.splitlines() if not re.match(r"  variant \w+: error$", line)]
        first = lines[0] if lines else ""
        assert re.match(_LOCATED.format(path=re.escape(path)), first) or first.startswith("Usage:"), first


def play_cleanly(game, text: str, match_seed: int) -> None:
    """Property (b): three seeded matches with random bots (a generic bot in seat 1 of the
    third), for 2..min(most players, 4) seats; every event is narrated and observed by every
    seat, and a finished match is scored and viewed by every seat."""
    COUNTS["played"] += 1
    low, high = game.players
    counts = list(range(2, min(high, 4) + 1)) or [low]
    with _SkipKnown(text), time_limit(MATCH_SECONDS):
        engine = Engine(game)

        def narrate(state, events):
            for ev in events:
                if ev.kind != "deal_end":
                    engine.describe_event(ev, state.n)
                for seat in range(state.n):
                    engine.observe(ev, seat, state.n)

        for i in range(3):
            n = counts[i % len(counts)]
            s = match_seed + i
            players = [RandomBot(seat_rng(s, seat)) for seat in range(n)]
            if i == 2:
                players[0] = GenericBot(engine, seat_rng(s, 0), samples=2)
            try:
                record = play_match(engine, players, n, s, on_events=narrate, max_steps=MAX_STEPS)
            except MatchTooLong:
                COUNTS["too_long"] += 1
            except RulesRuntimeError:
                COUNTS["runtime_errors"] += 1
            except OptionError:
                assert not low <= n <= high, f"OptionError for {n} players in {low}..{high}"
            else:
                COUNTS["matches"] += 1
                assert record.state.is_terminal
                engine.returns(record.state)
                engine.standings(record.state)
                for seat in range(n):
                    engine.view(record.state, seat)


def run_command_cleanly(text: str, variant: str | None, match_seed: int, tmp_dir: str) -> None:
    """Property (b) through ``rulekit run FILE --bots random --log …``: exit 0, or exit 2
    with ``FILE: error: …`` (a runtime error of the rules, a match stopped at the bound) or a
    located error, or click's usage error; never a traceback."""
    COUNTS["cli_run"] += 1
    path = os.path.join(tmp_dir, "fuzz_run.rules")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    args = ["run", path, "--bots", "random", "--seed", str(match_seed), "--max-decisions", str(MAX_STEPS),
            "--log", os.path.join(tmp_dir, "fuzz_run.jsonl")]
    if variant:
        args += ["--variant", variant]
    with _SkipKnown(text), time_limit(MATCH_SECONDS):
        result = CliRunner().invoke(main, args, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        with _SkipKnown(text):
            raise result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        first = result.stderr.splitlines()[0] if result.stderr else ""
        assert first.startswith(f"{path}: error: ") or first.startswith("Usage:") \
            or re.match(_LOCATED.format(path=re.escape(path)), first), first


class EndOfInput(EOFError):
    """The scripted person has typed every line (HumanPlayer's ``ask`` raises EOFError)."""


def human_session_cleanly(combo, n: int, human: int, match_seed: int, lines: list[str], width: int,
                          via_cli: bool = False, tmp_dir: str | None = None) -> None:
    """Property (c): the human seat reads only ``lines``; the session ends with the match or
    with EndOfInput, and nothing else. ``via_cli``: through ``rulekit run --human``, where the
    end of the input is click's Abort (exit 1)."""
    COUNTS["human_sessions"] += 1
    if via_cli:
        return _human_command_cleanly(combo, n, human, match_seed, lines)
    engine = _engine(*combo)
    feed = iter(lines)

    def ask(prompt: str) -> str:
        for line in feed:
            return line
        raise EndOfInput(prompt)

    out = io.StringIO()
    players = [RandomBot(seat_rng(match_seed, s)) for s in range(n)]
    players[human] = HumanPlayer(engine, Console(file=out, width=width, force_terminal=width % 2 == 0), ask)
    with _SkipKnown("\n".join(lines)), time_limit(HUMAN_SECONDS):
        try:
            play_match(engine, players, n, match_seed, max_steps=MAX_STEPS)
        except (EndOfInput, MatchTooLong):
            pass
    assert "Traceback" not in out.getvalue()


def _human_command_cleanly(combo, n: int, human: int, match_seed: int, lines: list[str]) -> None:
    COUNTS["cli_human"] += 1
    path, variant = combo
    args = ["run", path, "--players", str(n), "--seed", str(match_seed), "--human", str(human + 1),
            "--bots", "random", "--max-decisions", str(MAX_STEPS)] + (["--variant", variant] if variant else [])
    text = "\n".join(lines)
    with _SkipKnown(text), time_limit(HUMAN_SECONDS):
        result = CliRunner().invoke(main, args, input=text + "\n", catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        with _SkipKnown(text):
            raise result.exception
    # 0: the match ended; 1: the input ran out ("stopped: end of input …"); 2: stopped at the bound
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-2000:])
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        assert result.stderr.rstrip().splitlines()[-1].startswith("stopped: end of input"), result.output[-2000:]


#: what no output may hold as it is: C0 controls but newline and tab, DEL, C1 controls (U+0085
#: too), the controls of bidirectional text
RAW_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: the line breaks other than a newline: only escaped
RAW_BREAK_RE = re.compile("[\u2028\u2029]")
#: an error line of a command (rulekit's "PATH: error: …", click's "Error: …")
ERROR_LINE_RE = re.compile(r"(?m)^.*\b[Ee]rror: \S")


def assert_plain_output(result, what: str, found: list | None = None) -> None:
    """Properties (d), (g) and (h): what a command wrote (standard output and error) holds
    no control character and no line break but the newline, as they are (``found``: where
    to put the message instead, to be raised once the other commands have run)."""
    out = result.stdout + result.stderr
    for pattern, name in ((RAW_CONTROL_RE, "control character"), (RAW_BREAK_RE, "line break")):
        m = pattern.search(out)
        if m is not None:
            message = f"{what}: a raw {name} U+{ord(m.group()):04X} in the output: " \
                      f"{out[max(0, m.start() - 100):m.end() + 100]!r}"
            if found is None:
                raise AssertionError(message)
            found.append(message)


def raise_found(found: list, text: str) -> None:
    """Raise the first message of ``found`` that is no known failure; if all are known,
    count each and reject the example: one known failure does not hide the others."""
    known = [known_signature(AssertionError(m), text) for m in found]
    unknown = [m for m, k in zip(found, known) if k is None]
    if unknown:
        raise AssertionError(unknown[0])
    if found:
        SKIPPED.update(known)
        assume(False)


def invoke_cleanly(args: list, known_text: str, seconds: float, statuses=(0, 2), stdin=None,
                   found: list | None = None):
    """``rulekit ARGS`` through click's CliRunner within ``seconds``: its status is one of
    ``statuses``, an error status comes with an error line on standard error, nothing is a
    traceback and the output is plain (:func:`assert_plain_output`)."""
    with _SkipKnown(known_text), time_limit(seconds):
        result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        with _SkipKnown(known_text):
            raise result.exception
    # the command, its control characters made visible (a failure's message reaches a terminal)
    what = shown_text(" ".join(args[:1] + [a if len(a) < 80 else a[:80] + "…" for a in args[1:]]))
    assert result.exit_code in statuses, (what, result.exit_code, result.output[-2000:])
    assert "Traceback" not in result.output, (what, result.output[-2000:])
    if result.exit_code != 0:
        assert ERROR_LINE_RE.search(result.stderr) or result.stderr.startswith("stopped"), \
            (what, result.exit_code, result.stderr[-2000:])
    with _SkipKnown(known_text):
        assert_plain_output(result, what, found)
    return result


def tainted_cleanly(tainted: Tainted, tmp_dir: str) -> None:
    """Property (d): a text holding control characters (or odd ones) in a quoted text, a
    name or a comment (and now and then in its file's name, and its log's): ``check``,
    ``explain``, ``compile --emit`` and ``run -v --log`` exit 0, or 2 with a located error
    (for a control character: that one, which every command refuses) or a stopped match,
    ``replay`` replays the log the match wrote, none with a traceback, and nothing they
    write holds a control character as it is."""
    COUNTS["tainted"] += 1
    path = os.path.join(tmp_dir, f"taint{tainted.file_part}.rules")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(tainted.text)
    located = re.compile(_LOCATED.format(path=re.escape(shown_text(path))))
    log = os.path.join(tmp_dir, f"taint{tainted.file_part}.jsonl")
    if os.path.exists(log):
        os.remove(log)
    found: list[str] = []
    for args in (["check", path], ["explain", path], ["compile", "--emit", path],
                 ["run", path, "-v", "--bots", "random", "--seed", "1", "--max-decisions", "20", "--log", log]):
        result = invoke_cleanly(args, tainted.text, MATCH_SECONDS, found=found)
        first = result.stderr.split("\n")[0]        # (a name may hold what splitlines splits at)
        if tainted.refused:
            assert result.exit_code == 2 and located.match(first) and \
                re.search("a control character|a line break other than a newline", first), \
                (args[0], first)
        elif result.exit_code == 2:
            assert located.match(first) or first.startswith((f"{shown_text(path)}: error: ", "Usage:")), \
                (args[0], first)
    if os.path.exists(log):           # the match it played (or began) replays
        COUNTS["tainted_replayed"] += 1
        result = invoke_cleanly(["replay", log], tainted.text, MATCH_SECONDS, found=found)
        assert result.exit_code == 0 and "every event matches" in result.stdout, result.output[-2000:]
    COUNTS["tainted_refused" if tainted.refused else "tainted_read"] += 1
    raise_found(found, tainted.text)


def leak_refused(leak: Leak) -> None:
    """Property (e): a value that reads cards not every seat sees, on its way to every seat
    (a text, a claim, a group, a procedure that shows it), through lets, steps and loops,
    is refused with a located error saying so; the same game with a public value loads."""
    COUNTS["leaks"] += 1
    with _SkipKnown(leak.route), time_limit(LOAD_SECONDS):
        try:
            loads(leak.text)
        except RulesError as exc:
            assert_located(exc, leak.text)
            assert "which not every seat may see" in str(exc), (leak.route, str(exc))
        else:
            raise AssertionError(f"a hidden value reaches every seat, yet the rules load: {leak.route}")
        loads(leak.public)


def loops_cleanly(loops: Loops) -> None:
    """Property (f): an action nesting loops either ends, with ``add 1 to n`` run the
    product of their counts times, or stops with the RulesRuntimeError of the rounds of all
    the loops of one step, and does so exactly when those rounds (each loop's count once
    per round of the loops around it, added up) pass MAX_STEP_WORK; never a hang."""
    COUNTS["loops"] += 1
    total, product = loops.rounds()
    with _SkipKnown(loops.text), time_limit(MATCH_SECONDS):
        engine = Engine(loads(loops.text))
        state, _ = engine.new_match(loops.players, random.Random(0))
        action = engine.legal_actions(state)[0]
        try:
            _, events = engine.apply(state, action, random.Random(0))
        except RulesRuntimeError as exc:
            assert "rounds in all" in str(exc), str(exc)
            assert total > MAX_STEP_WORK, (loops.counts, total, str(exc))
            COUNTS["loops_stopped"] += 1
        else:
            assert total <= MAX_STEP_WORK, (loops.counts, total)
            assert f"n = {product}" in [e.data["text"] for e in events if e.kind == "log"], loops.counts


#: a small game: the rules file of property (g)'s inputs and of two of the real logs
COIN_BLUFF = fuzzing.ROOT / "docs" / "examples" / "coin_bluff.rules"


def _odd_file(odd: OddInput, tmp_dir: str) -> str:
    """The path of the input ``odd.kind`` names, made in ``tmp_dir`` (its name holding
    ``odd.name_part``)."""
    if odd.kind.startswith("/dev/"):
        return odd.kind
    path = os.path.join(tmp_dir, f"odd_{odd.kind}{odd.name_part}")
    if odd.kind == "folder":
        os.makedirs(path, exist_ok=True)
    elif odd.kind == "fifo" and not os.path.exists(path):
        os.mkfifo(path)
    elif odd.kind == "loop" and not os.path.lexists(path):
        os.symlink(path, path)
    elif odd.kind in ("random", "big", "rules"):
        data = {"random": odd.data, "big": COIN_BLUFF.read_bytes() + b"#" * (1 << 20) + b"\n",
                "rules": COIN_BLUFF.read_bytes()}[odd.kind]
        with open(path, "wb") as fh:
            fh.write(data)
    return path


def odd_input_cleanly(odd: OddInput, tmp_dir: str) -> None:
    """Property (g): ``check``, ``explain``, ``run``, ``compile`` and ``replay`` (also its
    ``--rules``) on a device, a folder, a named pipe, a link to itself, a missing file,
    random bytes or more than 1 MiB, its name holding control characters or not (``check
    -``: random bytes or more than 1 MiB on standard input), exit 0, 1 or 2 with an error
    line, without a traceback or a raw control character, and without waiting (for a
    writer, for the end)."""
    COUNTS["odd_inputs"] += 1
    path = _odd_file(odd, tmp_dir)
    stdin = None
    if odd.command == ("check", "-"):
        args = ["check", "-"]
        stdin = COIN_BLUFF.read_bytes() + b"#" * (1 << 20) if odd.kind == "big" else odd.data
    elif odd.command == ("replay", "--rules"):
        args = ["replay", "--rules", path, _real_log_file(tmp_dir)]
    else:
        args = [*odd.command, path]
    invoke_cleanly(args, repr(odd), LOAD_SECONDS * 4, statuses=(0, 1, 2), stdin=stdin)


@functools.cache
def real_logs() -> tuple:
    """Logs written by ``rulekit run --log`` (random bots): whole matches of Liar's Dice,
    Coin bluff and Kuhn poker, and a match of Coup stopped after 30 decisions."""
    out = []
    with tempfile.TemporaryDirectory(prefix="rulekit-logs-") as tmp_dir:
        for path, extra in ((fuzzing.GAMES_DIR / "liars_dice.rules", ["--seed", "3"]),
                            (COIN_BLUFF, ["--seed", "5", "--players", "3"]),
                            (fuzzing.ROOT / "docs" / "examples" / "kuhn_poker.rules", ["--seed", "7"]),
                            (fuzzing.GAMES_DIR / "coup.rules", ["--seed", "1", "--max-decisions", "30"])):
            log = os.path.join(tmp_dir, "real.jsonl")
            result = CliRunner().invoke(main, ["run", str(path), "--bots", "random", "-q", "--log", log, *extra])
            assert result.exit_code in (0, 2), result.output
            with open(log, "rb") as fh:
                out.append(fh.read())
    return tuple(out)


def _real_log_file(tmp_dir: str) -> str:
    path = os.path.join(tmp_dir, "real.jsonl")
    with open(path, "wb") as fh:
        fh.write(real_logs()[0])
    return path


def crafted_log_cleanly(log: CraftedLog, tmp_dir: str) -> None:
    """Property (h): ``rulekit replay`` of a real log after hostile mutations exits 0 (and
    says it replayed), 1 or 2 with an error line, without a traceback or a raw control
    character."""
    COUNTS["crafted_logs"] += 1
    path = os.path.join(tmp_dir, "crafted.jsonl")
    with open(path, "wb") as fh:
        fh.write(log.data)
    result = invoke_cleanly(["replay", path], repr(log.steps), MATCH_SECONDS, statuses=(0, 1, 2))
    if result.exit_code == 0:
        assert "replayed" in result.stdout, result.stdout[-2000:]
        COUNTS["crafted_logs_replayed"] += 1


_ENGINES: dict = {}


def _engine(path: str, variant: str | None) -> Engine:
    if (path, variant) not in _ENGINES:
        _ENGINES[path, variant] = Engine(load(path, variants=[variant] if variant else []))
    return _ENGINES[path, variant]


# =========================================================================== strategies
@st.composite
def human_sessions(draw):
    """A shipped game (and variant), a player count, the human's seat and what it types."""
    name, _, variants = draw(st.sampled_from(fuzzing.shipped_games()))
    path = str(fuzzing.GAMES_DIR / name)
    variant = draw(st.sampled_from((None,) + variants))
    engine = _engine(path, variant)
    low, high = engine.game.players
    n = draw(st.integers(low, min(high, max(low, 4))))
    options = sorted({a.name for p in engine.game.phases for a in p.actions})
    words = sorted({w for k in range(len(engine.kinds)) for w in engine.kind_label(k).split()}
                   | {f"P{s}" for s in range(1, n + 1)} | {"as", "from", "of", "2x", "high", "four", "a", "list",
                                                        "back", "!", ","} | {str(i) for i in range(13)})
    lines = draw(st.lists(fuzzing.human_lines(options, words), max_size=40))
    return (path, variant), n, draw(st.integers(0, n - 1)), draw(st.integers(0, 2**32 - 1)), lines, \
        draw(st.sampled_from((20, 80, 81, 200))), draw(st.integers(0, 7)) == 0


def _cli_bytes(item) -> bytes:
    if isinstance(item, Mutated):
        return item.raw if item.raw is not None else item.text.encode("utf-8")
    return item.text.encode("utf-8")


def body_program(program: Program) -> None:
    COUNTS[program.mode] += 1
    if load_cleanly(program.text) is not None:
        COUNTS[program.mode + "_loaded"] += 1
        # and, as 'rulekit check' does, each variant it declares
        for variant in game_variants(program.text):
            load_cleanly(program.text, variant)


def game_variants(text: str) -> list[str]:
    return re.findall(r"(?:^|[\s}])variant\s+([^\W\d]\w*)", text)


def body_mutated(mutated: Mutated, tmp_dir: str) -> None:
    COUNTS["mutated"] += 1
    if mutated.raw is not None:
        load_raw_cleanly(mutated.raw, tmp_dir)
    elif load_cleanly(mutated.text, mutated.variant) is not None:
        COUNTS["mutated_loaded"] += 1


def body_cli(item, tmp_dir: str) -> None:
    check_command_cleanly(_cli_bytes(item), tmp_dir)


def body_play(item, match_seed: int, tmp_dir: str) -> None:
    text = item.text
    variant = item.variant if isinstance(item, Mutated) else None
    if isinstance(item, Mutated) and item.raw is not None:
        return
    game = load_cleanly(text, variant)
    if game is not None:
        play_cleanly(game, text, match_seed)
        if match_seed % 10 == 0:          # a sample through the command line
            run_command_cleanly(text, variant, match_seed, tmp_dir)


def body_human(session) -> None:
    human_session_cleanly(*session)


def body_tainted(tainted: Tainted, tmp_dir: str) -> None:
    tainted_cleanly(tainted, tmp_dir)


def body_leak(leak: Leak) -> None:
    leak_refused(leak)


def body_loops(loops: Loops) -> None:
    loops_cleanly(loops)


def body_odd_input(odd: OddInput, tmp_dir: str) -> None:
    odd_input_cleanly(odd, tmp_dir)


def body_crafted_log(log: CraftedLog, tmp_dir: str) -> None:
    crafted_log_cleanly(log, tmp_dir)


#: what the matches are played on: mutated games (one or two mutations, so most still load)
#: and spliced grammar programs
playable = st.one_of(fuzzing.mutated_games(max_mutations=2), fuzzing.grammar_programs(("splice",)))
anything = st.one_of(fuzzing.grammar_programs(), fuzzing.mutated_games())

#: (name, strategy, body, examples in the default run, examples in the slow run): the
#: slow run's examples are split into jobs of at most SLOW_JOB examples
SUITES = {
    "free": (fuzzing.grammar_programs(("free",)), body_program, 800, 30_000),
    "skeleton": (fuzzing.grammar_programs(("skeleton",)), body_program, 500, 22_000),
    "splice": (fuzzing.grammar_programs(("splice",)), body_program, 350, 14_000),
    "mutated": (fuzzing.mutated_games(), body_mutated, 700, 36_000),
    # the same generator with one Hypothesis draw per choice (finer shrinking, slower)
    "draws": (fuzzing.grammar_programs(per_choice=True), body_program, 30, 0),
    "cli": (anything, body_cli, 50, 500),
    "play": (playable, body_play, 80, 3_000),
    "human": (human_sessions(), body_human, 100, 1_000),
    # issue 23: control characters in every place of a text, hidden values on every route
    # to every seat, nested loops, inputs that are no rules file, crafted logs
    "tainted": (fuzzing.tainted_games(), body_tainted, 60, 2_000),
    "leaks": (fuzzing.leaky_games(), body_leak, 150, 5_000),
    "loops": (fuzzing.nested_loops(), body_loops, 30, 1_000),
    "odd_inputs": (fuzzing.odd_inputs(), body_odd_input, 60, 2_000),
    "crafted_logs": (fuzzing.crafted_logs(real_logs), body_crafted_log, 100, 3_000),
}
#: the bodies that take the folder of the example's files
NEEDS_DIR = (body_mutated, body_cli, body_tainted, body_odd_input, body_crafted_log)


def _suite_test(name: str, examples: int, derandomize: bool, tmp_dir: str, seed_value: int | None = None):
    """The Hypothesis test of one suite, with its settings (``tmp_dir``: for the files the
    CLI and ``load`` read)."""
    strategy, body, _, _ = SUITES[name]
    needs_dir = body in NEEDS_DIR
    needs_seed = body is body_play

    if needs_seed:
        @given(strategy, st.integers(0, 2**32 - 1))
        def test(item, match_seed):
            body(item, match_seed, tmp_dir)
    elif needs_dir:
        @given(strategy)
        def test(item):
            body(item, tmp_dir)
    else:
        @given(strategy)
        def test(item):
            body(item)

    test = settings(max_examples=examples, deadline=None, derandomize=derandomize, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)(test)
    if seed_value is not None:
        test = seed(seed_value)(test)
    return test


# =========================================================================== default run
@pytest.mark.parametrize("name", list(SUITES))
def test_fuzz(name, tmp_path):
    """Each suite, derandomized, with the default budget."""
    _suite_test(name, SUITES[name][2], derandomize=True, tmp_dir=str(tmp_path))()


# =========================================================================== slow run
SLOW_JOB = 2_000
SLOW_MEMORY = 4 * 2**30       # bytes of address space per worker


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SLOW_MEMORY, SLOW_MEMORY))


def _slow_job(name: str, examples: int, seed_value: int) -> dict:
    """One job of the slow run, in a worker process: the counts, the known failures skipped
    and the failure (a traceback) if the property failed."""
    COUNTS.clear()
    SKIPPED.clear()
    started, cpu = time.perf_counter(), time.process_time()
    failure = None
    try:
        with tempfile.TemporaryDirectory(prefix="rulekit-fuzz-") as tmp_dir:
            _suite_test(name, examples, derandomize=False, tmp_dir=tmp_dir, seed_value=seed_value)()
    except BaseException:  # noqa: BLE001 - reported to the parent, which fails the test
        failure = traceback.format_exc()
    return {"name": name, "seed": seed_value, "counts": dict(COUNTS), "skipped": dict(SKIPPED),
            "failure": failure, "seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu}


@pytest.mark.slow
def test_fuzz_slow(capsys):
    """Every suite with the slow budget (100,000+ files, 1,000 human sessions), in two worker
    processes with an address-space limit, fresh seeds each run."""
    base = random.SystemRandom().randrange(2**32)
    jobs = []
    for name, (_, _, _, total, *_rest) in SUITES.items():
        for k in range(0, total, SLOW_JOB):
            jobs.append((name, min(SLOW_JOB, total - k), base + len(jobs)))
    # the long ones first
    jobs.sort(key=lambda j: j[0] not in ("play", "human", "splice", "mutated", "loops", "tainted"))
    started = time.perf_counter()
    totals: Counter = Counter()
    skipped: Counter = Counter()
    cpu = 0.0
    failures = []
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context, initializer=_limit_memory) as pool:
        for result in pool.map(_slow_job, *zip(*jobs)):
            totals.update(result["counts"])
            skipped.update(result["skipped"])
            cpu += result["cpu"]
            if result["failure"]:
                failures.append(f"--- {result['name']} (seed {result['seed']})\n{result['failure']}")
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nslow fuzz: {elapsed:.0f} s, {cpu:.0f} s of CPU in the workers (base seed {base}); counts {dict(sorted(totals.items()))}; "
              f"known failures skipped {dict(skipped)}")
    assert not failures, "\n".join(failures)
    assert totals["files"] >= 100_000
    assert totals["human_sessions"] >= 1_000
    for name in ("tainted", "leaks", "loops", "odd_inputs", "crafted_logs"):
        assert totals[name] >= SUITES[name][3], (name, totals[name])


# =========================================================================== known failures
def _play_one(text: str, players: int = 2, seed: int = 1, steps: int = 50):
    engine = Engine(loads(text))
    bots = [RandomBot(seat_rng(seed, s)) for s in range(players)]
    return play_match(engine, bots, players, seed, max_steps=steps)


SHUFFLE_CHOSEN_TWICE = """\
game "g"
players 2
deck {
  card c: count 2
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
setup {
  deal 1 from stock to each hand
  set current = P1
  go to t
}
turn t {
  action a {
    choose 1 from your hand
    shuffle chosen into stock
    shuffle chosen into stock
    end deal
  }
}
"""


def test_shuffling_chosen_cards_twice():
    """Like 'move chosen' twice, a second 'shuffle chosen into' moves what is left (here
    nothing) instead of failing."""
    _play_one(SHUFFLE_CHOSEN_TWICE)


RANKING_BY_RANDOM_CARDS = """\
game "g"
players 2
deck {
  card c: count 2
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
setup {
  deal 1 from stock to each hand
  set current = P1
  go to t
}
turn t {
  action a {
    end deal
  }
}
match {
  winners: lowest count of random 1 of your hand
}
"""


def test_a_ranking_by_random_cards_is_refused():
    """'winners: lowest count of random 1 of your hand' ranks by chance: a located error."""
    for text in (RANKING_BY_RANDOM_CARDS,
                 RANKING_BY_RANDOM_CARDS.replace("winners: lowest count of random 1 of your hand",
                                                 "returns: count of random 1 of hand of actor")):
        try:
            loads(text)
        except RulesError as exc:
            assert "chance" in str(exc)
        else:
            raise AssertionError("accepted")


def test_a_ranking_by_random_cards_is_refused_by_run(tmp_path):
    """'rulekit run' refuses it before playing: located error, exit 2, no traceback."""
    path = tmp_path / "chance.rules"
    path.write_text(RANKING_BY_RANDOM_CARDS, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--bots", "random", "--seed", "1"])
    assert result.exit_code == 2, result.output
    assert f"{path}:19:19: error:" in result.output and "may not depend on chance" in result.output, result.output
    assert "Traceback" not in result.output


def test_odd_line_breaks_end_of_file_is_located_on_the_last_line():
    """'game "g"<CR>players' ends too early on line 1 (the parser's count), column 17."""
    try:
        loads('game "g"\rplayers')
    except RulesError as exc:
        assert str(exc).startswith("<rules>:1:"), str(exc)


CLAIM_TRUE_WHEN_CLAIM_HOLDS = """\
game "g"
players 2
deck {
  card c: count 2
}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
claim x: true when claim holds
setup {
  deal 1 from stock to each hand
  set current = P1
  go to t
}
turn t {
  action a {
    claim x
    if claim holds {
      end deal
    }
    end deal
  }
}
"""


def test_a_claim_true_when_claim_holds():
    """A claim's truth may not read 'claim holds' (a located error), or at least the match
    stops with a RulesRuntimeError."""
    try:
        _play_one(CLAIM_TRUE_WHEN_CLAIM_HOLDS)
    except (RulesError, RulesRuntimeError):
        pass


# --------------------------------------------------------------------------- issue 23's generators
def _coin_bluff_with(old: str, new: str) -> str:
    text = COIN_BLUFF.read_text("utf-8")
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("char, name", [("\u2028", "LINE SEPARATOR"), ("\u2029", "PARAGRAPH SEPARATOR")])
@pytest.mark.parametrize("where", ["title", "comment"])
def test_a_line_separator_is_refused_and_shown_visibly(tmp_path, char, name, where):
    """A U+2028 in the title 'Coin<U+2028>bluff', or in a comment (where an editor may break
    the line and show what follows as rules that are not read), is refused by 'explain'
    with a located error naming it, and the source line shows it as ⟨U+2028⟩, never raw."""
    old, new = ('game "Coin bluff"', f'game "Coin{char}bluff"') if where == "title" else \
        ('game "Coin bluff"', f'game "Coin bluff"  # x{char}players 9')
    path = tmp_path / "ls.rules"
    path.write_text(_coin_bluff_with(old, new), encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path)])
    assert result.exit_code == 2, result.output
    first, shown = result.stderr.splitlines()[:2]
    assert first.startswith(f"{path}:") and \
        f"a line break other than a newline, U+{ord(char):04X} ({name}), cannot appear" in first, first
    assert f"⟨U+{ord(char):04X}⟩" in shown, shown
    assert char not in result.output


@pytest.mark.parametrize("make", ["file", "fifo"])
def test_check_writes_a_file_name_with_control_characters_visibly(tmp_path, make):
    """'check' of a file named 'x<ESC>]0;title<BEL>.rules' (a rules file: "ok"; a named pipe:
    "not a regular file") writes no ESC."""
    path = tmp_path / "x\x1b]0;title\x07.rules"
    if make == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(COIN_BLUFF.read_bytes())
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == (0 if make == "file" else 2), result.output
    assert not RAW_CONTROL_RE.search(result.output), repr(result.output)


def test_compile_writes_a_file_name_with_control_characters_visibly(tmp_path):
    """'compile' of 'x<ESC>]0;t<BEL>.rules' (setting the window's title) writes no ESC."""
    path = tmp_path / "x\x1b]0;t\x07.rules"
    path.write_bytes(COIN_BLUFF.read_bytes())
    result = CliRunner().invoke(main, ["compile", str(path)])
    assert result.exit_code == 0, result.output
    assert not RAW_CONTROL_RE.search(result.output), repr(result.output)


def test_run_writes_a_log_name_with_control_characters_visibly(tmp_path):
    """'run --log l<ESC>]0;t<BEL>.jsonl' writes no ESC."""
    log = tmp_path / "l\x1b]0;t\x07.jsonl"
    result = CliRunner().invoke(main, ["run", str(COIN_BLUFF), "--bots", "random", "--seed", "1", "-q",
                                       "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert not RAW_CONTROL_RE.search(result.output), repr(result.output)


def test_replay_of_a_header_naming_a_file_with_a_nul(tmp_path):
    """A log whose header's "file" holds a NUL: 'replay' exits 2 with 'LOG:1: error: …'."""
    lines = real_logs()[0].split(b"\n")
    header = json.loads(lines[0])
    header["file"] += "\x00"
    path = tmp_path / "nul.jsonl"
    path.write_bytes(b"\n".join([json.dumps(header).encode()] + lines[1:]))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2 and f"{path}:1: error: " in result.stderr, result.output


@pytest.mark.parametrize("route", [
    'for each i in 1..count of (hand of P2 where gold) {\nlog "{i}"\n}',
    'let n = count of (hand of P2 where gold)\nfor each i in n..3 {\nclaim golds(i)\n}',
    'for each s in (q in everyone where some card in hand of q is gold) {\nadd s to rich\n}',
    'for each s in (q in everyone where some card in hand of q is gold) {\nlog "{s}"\n}',
    "do count_to(count of (hand of P2 where gold))",
])
def test_a_hidden_value_through_a_loop_variable_is_refused(route):
    """A loop's variable takes values that tell the hidden cards ('i' runs to how many
    golds P2 holds; 's' is each seat holding gold): shown to every seat, it is refused."""
    with pytest.raises(RulesError, match="which not every seat may see"):
        loads(fuzzing.LEAK_GAME.format(BODY=route, ROUTE=""))


def test_nested_loops_count_the_rounds_of_every_loop():
    """'repeat 1000 times { repeat 1000 times { … } }' runs 1,000 + 1,000,000 rounds of
    loops: past MAX_STEP_WORK, although its innermost block would run 1,000,000 times;
    with 999 inner rounds (1,000,000 in all) it ends."""
    for inner, stops in ((999, False), (1000, True)):
        loops = Loops(fuzzing.LOOP_GAME.format(BODY=f"repeat 1000 times {{\nrepeat {inner} times {{\nadd 1 to n\n}}\n}}",
                                               PROCEDURE=""), (1000, inner), None, 2)
        assert (loops.rounds()[0] > MAX_STEP_WORK) is stops
        loops_cleanly(loops)
