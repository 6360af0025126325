"""`rulekit simulate --workers N` and `--ray`: the matches are shared out among processes
(or Ray tasks) and the results are the same, to the last printed digit and bit for bit, as
when one process plays them all; errors and unfinished matches are reported the same way."""

from __future__ import annotations

import sys

import pytest

from click.testing import CliRunner

from rulekit.cli import main
from rulekit.simulation import MatchFailed, SimulationSpec, chunks, outcomes, play_matches, simulate
from strategies import ROOT

GAMES = ROOT / "games"

# A game that gets stuck when a 6 is rolled: a runtime error in some matches, not in others.
SOMETIMES_STUCK = """\
game "Sometimes stuck"
players 2
die d6: 6 sides, 1 in each cup
zone cup: per player, seen by owner
setup {
  roll every cup
  if count of (every cup where face = 6) >= 1 {
    go to loop
  } else {
    go to play from P1
  }
}
turn play clockwise {
  action stop "stops" {
    knock out actor
  }
}
counter spins = 0
window loop: first of everyone except everyone {
  action x { go to loop }
  otherwise { set spins = spins + 1  go to loop }
}
match {
  ends when 1 seat remains
}
"""


def spec_of(name: str, players: int, seed: int = 7, bots: str = "random", max_decisions: int = 200_000,
            variants=()):
    path = GAMES / name
    return SimulationSpec(path.read_text(encoding="utf-8"), str(path), variants, players, bots, seed, max_decisions)


def simulate_cli(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


@pytest.mark.parametrize("game", ["liars_dice.rules", "lugenbeutel.rules"])
def test_the_table_is_the_same_for_one_two_and_three_workers(game):
    """Same seed, same table, whatever the number of workers."""
    outputs = []
    for workers in ("1", "2", "3"):
        result = simulate_cli(str(GAMES / game), "--bots", "random", "--games", "24", "--seed", "11",
                              "--workers", workers)
        assert 0 == result.exit_code, result.output
        outputs.append(result.stdout)
    assert "24 matches" in outputs[0] and "decisions per match: min" in outputs[0]
    assert outputs[0] == outputs[1] == outputs[2]


def test_outcomes_are_the_same_and_in_match_order_for_any_worker_count():
    """The outcomes themselves (winners, results, decisions), in match order, and the sums
    (floats compared exactly); with a variant, which every worker applies too."""
    spec = spec_of("liars_dice.rules", 2, seed=3, variants=("five_dice",))
    alone = play_matches(spec, 0, 16)
    assert [o.match for o in alone] == list(range(16))
    assert [o.seed for o in alone] == [3 + k for k in range(16)]
    assert all(o.finished and len(o.returns) == 2 and o.winners for o in alone)
    assert alone != play_matches(spec_of("liars_dice.rules", 2, seed=3), 0, 16)      # the variant counts
    # a chunk in the middle is the same as those matches played from the start
    assert play_matches(spec, 5, 4) == alone[5:9]
    progress = []
    for workers in (1, 2, 3):
        assert list(outcomes(spec, 16, workers, on_progress=progress.append)) == alone
        assert 16 == sum(progress)
        progress.clear()
    assert simulate(spec, 16, 1) == simulate(spec, 16, 3)


def test_chunks_cover_every_match_once_in_order():
    """About games / (workers * 32) matches a chunk, at least 1, every match once, in order."""
    assert chunks(6400, 2) == [(k, 100) for k in range(0, 6400, 100)]
    assert chunks(400, 2) == [(k, 6) for k in range(0, 396, 6)] + [(396, 4)]
    assert chunks(10, 3) == [(k, 1) for k in range(10)]
    for games, workers in ((1, 1), (5, 8), (101, 3), (1000, 7)):
        got = chunks(games, workers)
        assert [m for first, count in got for m in range(first, first + count)] == list(range(games))


def test_a_runtime_error_names_the_lowest_failing_match_whatever_the_workers(tmp_path):
    """Matches fail here and there; every worker count names the first failing match and its seed."""
    path = tmp_path / "stuck.rules"
    path.write_text(SOMETIMES_STUCK, encoding="utf-8")
    spec = SimulationSpec(SOMETIMES_STUCK, str(path), (), 2, "random", 3)
    failing = []
    for k in range(40):
        try:
            play_matches(spec, k, 1)
        except MatchFailed as exc:
            assert (k, 3 + k) == (exc.match, exc.seed)
            failing.append(k)
    assert len(failing) >= 3 and failing[0] > 0, failing       # the seed makes a useful case
    first = failing[0]
    for workers in ("1", "2", "3"):
        result = simulate_cli(str(path), "--games", "40", "--seed", "3", "--workers", workers)
        assert 2 == result.exit_code, result.output
        assert (f"{path}: error: the rules go from phase to phase without anyone deciding "
                f"(match {first + 1}, seed {3 + first})") == result.stderr.strip()
        assert "Traceback" not in result.output
    for workers in (1, 3):
        with pytest.raises(MatchFailed) as caught:
            simulate(spec, 40, workers)
        assert (first, 3 + first) == (caught.value.match, caught.value.seed)
        # the matches before the failing one come out, then the error
        played = []
        with pytest.raises(MatchFailed):
            for o in outcomes(spec, 40, workers):
                played.append(o.match)
        assert played == list(range(first))


def test_unfinished_matches_are_counted_the_same_whatever_the_workers():
    """--max-decisions 3 leaves some Liar's Dice matches unfinished: the same count and table."""
    outputs = []
    for workers in ("1", "2", "3"):
        result = simulate_cli(str(GAMES / "liars_dice.rules"), "--bots", "random", "--games", "30", "--seed", "2",
                              "--max-decisions", "3", "--workers", workers)
        assert 0 == result.exit_code, result.output
        outputs.append(result.stdout)
    text = " ".join(outputs[0].split())
    assert "did not end within 3 decisions (--max-decisions)" in text
    unfinished = int(text.split("unfinished: ")[1].split()[0])
    assert 0 < unfinished < 30, text
    assert outputs[0] == outputs[1] == outputs[2]
    summary = simulate(spec_of("liars_dice.rules", 2, seed=2, max_decisions=3), 30, 2)
    assert unfinished == summary.unfinished == 30 - len(summary.decisions)


def test_zero_workers_is_refused_naming_the_option():
    result = simulate_cli(str(GAMES / "liars_dice.rules"), "--workers", "0")
    assert 2 == result.exit_code
    assert "Invalid value for '--workers' / '-w': 0 is not in the range x>=1." in result.stderr
    assert "Traceback" not in result.output


def test_workers_and_ray_together_are_refused():
    result = simulate_cli(str(GAMES / "liars_dice.rules"), "--workers", "2", "--ray")
    assert 2 == result.exit_code
    assert "--workers and --ray do not go together" in result.stderr


def test_ray_missing_is_a_clean_usage_error(monkeypatch):
    """Without Ray installed, --ray says how to get it; no traceback."""
    monkeypatch.setitem(sys.modules, "ray", None)         # `import ray` raises ImportError
    for ray in (["--ray"], ["--ray", "head:6379"]):
        result = simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "2", *ray)
        assert 2 == result.exit_code, result.output
        assert '--ray needs Ray, which is not installed here: pip install "rulekit[ray]"' in result.stderr
        assert "Traceback" not in result.output


def test_a_ray_address_nobody_answers_is_refused_at_once():
    """Ray would retry a wrong address for minutes: --ray says at once that nothing answers there."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("connected to a Ray already: --ray uses it")
    for address, said in (("127.0.0.1:1", "no Ray cluster answers at 127.0.0.1:1"),
                          ("head", "'head' is not HOST:PORT (e.g. head:6379)")):
        result = simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "2", "--ray", address)
        assert 2 == result.exit_code, result.output
        assert f"Invalid value for '--ray': {said}" in result.stderr
        assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_outcomes_and_table_as_one_worker(local_ray):
    """On a local Ray of 2 CPUs: the same outcomes in the same order, the same table, and
    the lowest failing match."""
    spec = spec_of("liars_dice.rules", 2, seed=5, variants=("five_dice",))
    assert list(outcomes(spec, 24, ray=True)) == play_matches(spec, 0, 24)
    args = [str(GAMES / "lugenbeutel.rules"), "--bots", "random", "--games", "12", "--seed", "5"]
    here = simulate_cli(*args, "--workers", "1")
    on_ray = simulate_cli(*args, "--ray")         # connected already: it uses this Ray and leaves it up
    assert 0 == here.exit_code == on_ray.exit_code, on_ray.output
    assert here.stdout == on_ray.stdout
    assert local_ray.is_initialized()
    stuck = SimulationSpec(SOMETIMES_STUCK, "stuck.rules", (), 2, "random", 3)
    with pytest.raises(MatchFailed) as caught:
        simulate(stuck, 40, ray=True)
    assert (16, 19) == (caught.value.match, caught.value.seed)
