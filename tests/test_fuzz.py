"""Fuzz suite (issue 7, item 9): hostile and random programs and input never crash rulekit.

Inputs (strategies in tests/fuzzing.py):

* programs generated from ``grammar/rulekit.lark`` itself (free, skeleton and splice modes);
* mutations of every shipped ``games/*.rules`` file, loaded as the base game or a variant;
* garbage typed at a HumanPlayer's prompt.

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
    of its input.

The default run (no marker) is derandomized and takes a few thousand inputs; ``-m slow`` runs
the same properties over 100,000+ fuzzed files and 1,000 garbage human sessions in two worker
processes (each under an address-space limit), with fresh seeds.

Known failures are skipped by the filter right below, by their exact signature, and each has
its minimal reproducer as a strict xfail test at the end of this file: when a bug is fixed,
its xfail test fails (XPASS strict): delete the test and the filter's entry together.
"""

from __future__ import annotations

import io
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
from fuzzing import Mutated, Program, time_limit
from rulekit import Engine, OptionError, RulesError, load, loads, play_match
from rulekit.cli import main
from rulekit.engine.compile import RulesRuntimeError
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
    lines = draw(st.lists(fuzzing.human_lines(options), max_size=40))
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
}


def _suite_test(name: str, examples: int, derandomize: bool, tmp_dir: str, seed_value: int | None = None):
    """The Hypothesis test of one suite, with its settings (``tmp_dir``: for the files the
    CLI and ``load`` read)."""
    strategy, body, _, _ = SUITES[name]
    needs_dir = body in (body_mutated, body_cli)
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
    jobs.sort(key=lambda j: j[0] not in ("play", "human", "splice", "mutated"))   # the long ones first
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


def test_odd_line_breaks_error_shows_its_own_line():
    """An error on line 2 shows line 2 ('game 5'), not what follows a \\u2028 in line 1."""
    with pytest.raises(RulesError) as exc:
        loads("# x\u2028y\ngame 5\n")
    first, shown = str(exc.value).splitlines()[:2]
    assert first.startswith("<rules>:2:6: error: ")
    assert shown == "    game 5", shown


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
