"""`rulekit simulate` at the command line (issue 24, item 5): a progress bar on a terminal's
standard error only; stopped by Ctrl-C or SIGTERM, the figures (and --json, --csv) of the
matches played so far, marked as partial, status 130 or 143; piped output not wrapped at 80
columns; no interval drawn on an empty bar of --plot."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from rulekit.analysis import simulation
from rulekit.analysis.simulation import SimulationSpec, figures, outcomes, simulate, summarize
from rulekit.cli import main
from rulekit.cli.play import _Terminated
from rulekit.cli.study import _passing, _Stop
from strategies import ROOT

GAMES = ROOT / "games"
DTC = str(GAMES / "dtc.rules")
SKULL = str(GAMES / "skull.rules")


def _rulekit_with_a_terminal_for_stderr(args: list[str], until=None, timeout: float = 120):
    """Run ``rulekit ARGS`` with standard output a pipe and standard error a pseudo-terminal;
    ``until(seen)``, given what the terminal showed so far, may send the process a signal
    (it is called until it returns True). Returns (status, stdout, what the terminal showed)."""
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    seen = b""
    out = b""
    done_waiting = until is None
    deadline = time.monotonic() + timeout
    try:
        streams = [master, proc.stdout.fileno()]
        while streams and time.monotonic() < deadline:
            ready, _, _ = select.select(streams, [], [], 0.2)
            for fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:             # the terminal's other end is closed
                    chunk = b""
                if not chunk:
                    streams.remove(fd)
                elif fd == master:
                    seen += chunk
                else:
                    out += chunk
            if not done_waiting:
                done_waiting = until(proc, seen.decode("utf-8", "replace"))
        proc.wait(timeout=max(1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, out.decode("utf-8"), seen.decode("utf-8", "replace")


def _counts(seen: str, games: int) -> list[int]:
    """The counts "k/GAMES" the progress bar showed."""
    return [int(k) for k in re.findall(rf"(\d+)/{games}\b", seen)]


# ---------------------------------------------------------------------------- progress
@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_progress_bar_shows_on_a_terminal(workers):
    status, out, seen = _rulekit_with_a_terminal_for_stderr(
        ["simulate", DTC, "--games", "60", "--seed", "1", "--workers", workers, "--bots", "random"])
    assert 0 == status, seen
    assert f"playing ({workers} worker{'s' if workers != '1' else ''})" in seen
    assert 60 in _counts(seen, 60)                  # it reached the end (then it is erased: transient)
    assert "DTC: 60 matches" in out and "playing" not in out


def test_no_progress_when_piped():
    result = CliRunner().invoke(main, ["simulate", DTC, "--games", "6", "--seed", "1", "--workers", "2",
                                       "--bots", "random"])
    assert 0 == result.exit_code, result.output
    assert "playing" not in result.stderr and "━" not in result.stderr
    assert "" == result.stderr


# ---------------------------------------------------------------------------- stopped
def _interrupting_at(monkeypatch, match: int, stop: BaseException):
    """Matches played in this process raise ``stop`` when match ``match`` (0-based) begins."""
    real = simulation._play_into

    def play_into(played, engine, spec, first, count):
        if first <= match < first + count:
            real(played, engine, spec, first, match - first)
            raise stop
        real(played, engine, spec, first, count)

    monkeypatch.setattr(simulation, "_play_into", play_into)


@pytest.mark.parametrize("stop, status, reason", [(KeyboardInterrupt(), 130, "interrupted (Ctrl-C)"),
                                                  (_Terminated(signal.SIGTERM), 143, "terminated (SIGTERM)")])
def test_a_stopped_simulation_prints_and_writes_the_matches_played_so_far(monkeypatch, tmp_path, stop, status,
                                                                         reason):
    _interrupting_at(monkeypatch, 5, stop)
    out_json, out_csv = tmp_path / "m.json", tmp_path / "m.csv"
    result = CliRunner().invoke(main, ["simulate", DTC, "--games", "20", "--seed", "3", "--workers", "1", "--bots",
                                       "random", "--json", str(out_json), "--csv", str(out_csv)])
    assert status == result.exit_code, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "stopped after 5 of 20 matches: the figures below are of those"
    assert "DTC: 5 matches, 4 players, random bots" in result.stdout
    assert "figures and 5 matches written to" in result.stdout
    assert result.stderr.splitlines()[-1] == f"stopped: {reason} after 5 of 20 matches"
    assert "Traceback" not in result.output
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert (data["games"], data["stopped"], data["figures"]["games"]) == (20, reason, 5)
    assert [r["match"] for r in data["matches"]] == [1, 2, 3, 4, 5]
    assert 6 == len(out_csv.read_text(encoding="utf-8").splitlines())
    # the figures are those of the first 5 matches played alone
    spec = SimulationSpec((GAMES / "dtc.rules").read_text(encoding="utf-8"), DTC, (), 4, "random", 3)
    assert data["figures"] == json.loads(json.dumps(figures(simulate(spec, 5, 1))))


def test_a_simulation_stopped_before_any_match_ended_says_so(monkeypatch):
    _interrupting_at(monkeypatch, 0, KeyboardInterrupt())
    result = CliRunner().invoke(main, ["simulate", DTC, "--games", "4", "--seed", "3", "--workers", "1"])
    assert 130 == result.exit_code
    assert "stopped: interrupted (Ctrl-C)" == result.stderr.splitlines()[-1]
    assert "DTC" not in result.stdout


def test_a_stop_while_an_outcome_is_added_up_waits_for_the_next_draw():
    """A signal between two draws is held back, then thrown into the matches: the summary is
    of whole matches, those already played included."""
    spec = SimulationSpec((GAMES / "dtc.rules").read_text(encoding="utf-8"), DTC, (), 4, "random", 3)
    stop = _Stop()

    def note(o):
        if o.match == 2:
            stop._handle(signal.SIGINT, None)      # as if Ctrl-C came now: held back

    with pytest.raises(KeyboardInterrupt) as caught:
        summarize(_passing(stop.guard(outcomes(spec, 10, 1)), note), 4)
    assert caught.value.summary == simulate(spec, 3, 1)


def test_matches_that_came_back_out_of_turn_are_counted_when_stopped():
    """Stopped after chunk 2 came back before chunk 1: the summary is of chunks 0 and 2."""
    spec = SimulationSpec((GAMES / "dtc.rules").read_text(encoding="utf-8"), DTC, (), 4, "random", 3)

    def parts():
        yield 0, simulation.play_matches(spec, 0, 2)
        yield 2, simulation.play_matches(spec, 4, 2)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        summarize(simulation._in_order(parts(), None), 4)
    played = caught.value.summary
    assert played.games == 4
    expected = summarize(simulation.play_matches(spec, 0, 2) + simulation.play_matches(spec, 4, 2), 4)
    assert played == expected


@pytest.mark.skipif(sys.platform == "win32", reason="signals to a child process")
@pytest.mark.parametrize("workers, sig, status", [("1", signal.SIGINT, 130), ("2", signal.SIGTERM, 143)])
def test_a_real_signal_stops_the_simulation_with_the_figures_so_far(tmp_path, workers, sig, status):
    out_json = tmp_path / "m.json"
    games = 10_000
    sent = []

    def until(proc, seen):
        if sum(1 for k in _counts(seen, games) if k > 0):
            proc.send_signal(sig)
            sent.append(time.monotonic())
            return True
        return False

    status_got, out, seen = _rulekit_with_a_terminal_for_stderr(
        ["simulate", DTC, "--games", str(games), "--seed", "1", "--workers", workers, "--bots", "random",
         "--json", str(out_json)], until)
    assert sent, seen
    assert status == status_got, seen
    first = out.splitlines()[0]
    played = int(re.fullmatch(r"stopped after ([\d,]+) of 10,000 matches: the figures below are of those",
                              first).group(1).replace(",", ""))
    assert 0 < played < games
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["figures"]["games"] == len(data["matches"]) == played
    assert "Traceback" not in seen


# ---------------------------------------------------------------------------- piped
def test_piped_output_is_not_wrapped_at_80_columns():
    result = CliRunner().invoke(main, ["simulate", DTC, "--games", "4", "--seed", "1", "--workers", "1",
                                       "--bots", "generic,random,random,random", "--rotate"])
    assert 0 == result.exit_code, result.output
    lines = result.stdout.splitlines()
    assert "DTC: 4 matches, 4 players, bots generic,random,random,random, rotated over the seats" in lines
    assert any(line.startswith("seat fairness: ") and len(line) > 80 for line in lines)
    result = CliRunner().invoke(main, ["compare", DTC, "--variant", "higher_counts", "--variant",
                                       "higher_counts_literal", "--variant", "base", "--games", "4", "--seed", "1",
                                       "--workers", "1", "--players", "2", "--bots", "random"])
    assert 0 == result.exit_code, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("│ win share P1 ")]
    assert len(rows) == 1 and len(rows[0]) > 80 and rows[0].count("%") == 4, result.stdout


# ---------------------------------------------------------------------------- plot
def test_the_plot_draws_no_interval_on_an_empty_bar():
    """Skull has no challenge: the share of challenges that succeeded is of nothing, drawn
    as an empty bar without the 0–100 % interval; nor a seat's win share over no match."""
    pytest.importorskip("matplotlib")
    from matplotlib.container import ErrorbarContainer
    from matplotlib.figure import Figure

    from rulekit.analysis import plot

    spec = SimulationSpec((GAMES / "skull.rules").read_text(encoding="utf-8"), SKULL, (), 3, "random", 1)
    figs = figures(simulate(spec, 4, 1))
    assert figs["bluffing"]["claims"] and figs["bluffing"]["challenge_success"] is None
    ax = Figure().subplots()
    plot._bluffing(ax, figs)
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2                           # false claims, lies caught: not challenges that succeeded

    empty = figures(summarize([], 3))               # no match finished: no share, no interval
    ax = Figure().subplots()
    plot._win_shares(ax, empty)
    assert not [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    ax = Figure().subplots()
    plot._win_shares(ax, figs)
    assert 1 == len([c for c in ax.containers if isinstance(c, ErrorbarContainer)])
