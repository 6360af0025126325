"""`rulekit simulate --workers N` and `--ray`: the matches are shared out among processes
(or Ray tasks) and the results are the same, to the last printed digit and bit for bit, as
when one process plays them all; errors and unfinished matches are reported the same way."""

from __future__ import annotations

import sys

import pytest

from click.testing import CliRunner

from rulekit.cli import main
from rulekit.analysis.simulation import (MatchFailed, SimulationSpec, chunks, figures, outcomes, play_matches, simulate,
                                         summarize)
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


def test_this_process_and_the_workers_play_every_chunk_once():
    """With workers, this process plays chunks too and takes back those no worker has
    begun: each chunk comes back exactly once, with its own matches."""
    from rulekit.analysis.simulation import _in_processes

    spec = spec_of("liars_dice.rules", 2, seed=3)
    for games, workers in ((40, 2), (7, 3)):
        back = list(_in_processes(spec, games, workers))
        parts = chunks(games, workers)
        assert sorted(i for i, _ in back) == list(range(len(parts)))
        for i, got in back:
            first, count = parts[i]
            assert [o.match for o in got] == list(range(first, first + count))


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
    """--max-decisions 2 leaves some Liar's Dice matches unfinished: the same count and table."""
    outputs = []
    for workers in ("1", "2", "3"):
        result = simulate_cli(str(GAMES / "liars_dice.rules"), "--bots", "random", "--games", "30", "--seed", "2",
                              "--max-decisions", "2", "--workers", workers)
        assert 0 == result.exit_code, result.output
        outputs.append(result.stdout)
    text = " ".join(outputs[0].split())
    assert "did not end within 2 decisions (--max-decisions)" in text
    unfinished = int(text.split("unfinished: ")[1].split()[0])
    assert 0 < unfinished < 30, text
    assert outputs[0] == outputs[1] == outputs[2]
    summary = simulate(spec_of("liars_dice.rules", 2, seed=2, max_decisions=2), 30, 2)
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


# --------------------------------------------------------------------------- the figures

# A game whose every decision is forced, so that what is claimed and challenged is known:
# five claims, P1 and P2 in turn: false (P1), true (P2), true (P1), false (P2), and a false
# one (P1) cleared in the decision that made it, so not judged. P2 must doubt the first and
# the third; P2 reads his own second claim, which is no challenge (he is its claimant).
COUNTED = """\
game "Counted bluffs"
players 2
deck { card chip: count 1 }
zone table: shared, holds the deck
counter step = 0

claim says(v) "says {v}": true when v = 1

setup { go to speak from P1 }

turn speak {
  action say "says {v}" {
    choose v in (if step = 0 or step >= 3 then 0 else 1)..(if step = 0 or step >= 3 then 0 else 1)
    claim says(v)
    add 1 to step
    if step = 5 { clear claim }
    go to doubt
  }
}

window doubt: first of everyone after claimant {
  action doubt "doubts it" forced when step = 1 or step = 3 {
    require step = 1 or step = 3
    if claim holds { log "it was true" } else { log "it was false" }
    do next
  }
  otherwise { do next }
}

procedure next {
  if step = 5 { end deal }
  if step = 2 { go to own from claimant }
  go to speak from left of claimant
}

turn own {
  action peek "reads his own claim" {
    if claim holds { log "true" }
    go to speak from left of claimant
  }
}

match {
  winners: highest step
}
"""


def test_claims_and_challenges_are_counted_as_the_rules_make_them():
    """Every figure of a match whose decisions are all forced, for both kinds of bot."""
    from rulekit.sema.load import loads
    from rulekit.analysis.simulation import challenge_actions

    assert challenge_actions(loads(COUNTED, "counted.rules")) == {("doubt", "doubt"), ("own", "peek")}
    for bots in ("random", "generic", ("generic", "random")):
        for o in play_matches(SimulationSpec(COUNTED, "counted.rules", (), 2, bots, 5), 0, 3):
            assert (o.finished, o.winners, o.returns) == (True, (0, 1), (1, 1))
            assert (o.decisions, o.turns, o.deals) == (8, 6, 1)     # 5 claims, 2 doubts, 1 peek; 6 in turns
            assert o.claims == (3, 2)
            assert o.false_claims == (1, 1)
            assert o.unjudged_claims == (1, 0)
            assert o.challenges == (0, 2)                           # P2's peek at his own claim is none
            assert o.successful_challenges == (0, 1)
            assert o.lies_caught == (1, 0)                          # P2's false claim was never doubted
    summary = simulate(SimulationSpec(COUNTED, "counted.rules", (), 2, "random", 1), 4)
    assert summary.shared == 4 and summary.wins == (2.0, 2.0)
    bluff = figures(summary)["bluffing"]
    assert (bluff["claims"], bluff["unjudged_claims"], bluff["false_claims"]) == (20, 4, 8)
    assert bluff["false_share"] == 0.5 and bluff["challenge_success"] == 0.5 and bluff["lies_caught_share"] == 0.5
    assert bluff["claims_per_match"] == 5 and bluff["challenges_per_match"] == 2


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.glob("*.rules")))
def test_statistics_read_from_the_step_are_those_read_from_the_events(game, monkeypatch):
    """A match played by steps, its statistics read from its progress after every step
    (``on_step``), gives the outcome that the same match gives read from its events and
    states (``on_events``, as when a bot reads the history)."""
    from rulekit.play import match

    spec = spec_of(game, 4 if game != "liars_dice.rules" else 2, seed=3)
    in_place = play_matches(spec, 0, 6)
    real = match.play_match
    monkeypatch.setattr(match, "play_match", lambda *a, on_step=None, **k: real(*a, **k))
    recorded = play_matches(spec, 0, 6)
    assert in_place == recorded
    assert sum(sum(o.claims) for o in in_place) > 0


def test_the_challenges_of_the_shipped_games_are_found_from_their_rules():
    """A challenge reads whether the claim holds: at once (Liar's Dice, Lügenbeutel, DTC), in
    the turn it asks the claimant to take (Coup), or in the vote it goes to (Nimm's Leich);
    the actions that make a claim, or block with one, are none."""
    from rulekit.sema.load import load
    from rulekit.analysis.simulation import challenge_actions

    expected = {"coup.rules": {("challenge", "challenge")}, "dtc.rules": {("decide", "refuse")},
                "liars_dice.rules": {("bidding", "liar")}, "lugenbeutel.rules": {("liar", "call")},
                "nimms_leich.rules": {("bid", "challenge")}, "skull.rules": set()}
    for name, found in expected.items():
        assert challenge_actions(load(GAMES / name)) == found, name
    assert challenge_actions(load(GAMES / "lugenbeutel.rules", ("single_card",))) == {("liar", "call")}


def test_rotate_moves_the_lineup_one_seat_on_each_match():
    spec = spec_of("liars_dice.rules", 2, bots=("generic", "random"))
    assert [spec.lineup(k) for k in range(3)] == [("generic", "random")] * 3
    text = (GAMES / "lugenbeutel.rules").read_text(encoding="utf-8")
    rotated = SimulationSpec(text, "lugenbeutel.rules", (), 3, ("generic", "random", "random"), 1, rotate=True)
    assert [rotated.lineup(k) for k in range(4)] == [("generic", "random", "random"), ("random", "generic", "random"),
                                                     ("random", "random", "generic"), ("generic", "random", "random")]
    ld = spec_of("liars_dice.rules", 2, bots=("generic", "random"))
    played = play_matches(SimulationSpec(ld.text, ld.path, (), 2, ("generic", "random"), 9, rotate=True), 0, 4)
    assert [o.bots for o in played] == [("generic", "random"), ("random", "generic")] * 2
    # the same match, seat for seat, as a fixed line-up that seats the bots so
    swapped = play_matches(SimulationSpec(ld.text, ld.path, (), 2, ("random", "generic"), 9), 1, 1)[0]
    assert played[1] == swapped
    summary = summarize(played, 2)
    assert [(kind, t.seats, t.per_match) for kind, t in summary.kinds] == [("generic", 4, 1), ("random", 4, 1)]
    generic_wins = sum(1 for o in played if o.bots[o.winners[0]] == "generic")
    assert summary.kinds[0][1].wins == generic_wins
    assert sum(t.wins for _, t in summary.kinds) == 4


def test_summaries_and_figures_are_the_same_for_one_and_two_workers():
    """Every field, rotation and mixed bots included; the figures too (floats compared exactly)."""
    text = (GAMES / "dtc.rules").read_text(encoding="utf-8")
    spec = SimulationSpec(text, "dtc.rules", (), 4, ("generic", "random", "random", "random"), 3, rotate=True)
    alone = simulate(spec, 12, 1)
    assert alone == simulate(spec, 12, 2)
    assert figures(alone) == figures(simulate(spec, 12, 2))
    assert len(alone.turns) == len(alone.deals) == len(alone.bluffs) == 12
    assert sum(t.claims for t in alone.seats) == sum(b[0] for b in alone.bluffs) > 0
    assert [kind for kind, _ in alone.kinds] == ["generic", "random"]


def test_simulate_prints_fairness_lengths_and_bluffing():
    result = simulate_cli(str(GAMES / "dtc.rules"), "--games", "8", "--seed", "1", "--workers", "1",
                          "--bots", "generic,random,random,random", "--rotate")
    assert 0 == result.exit_code, result.output
    text = " ".join(result.stdout.split())
    assert "8 matches, 4 players, bots generic,random,random,random, rotated over the seats" in text
    assert "¹ a win shared by k seats counts 1/k to each seat" in text
    assert "seat fairness: chi-square" in text and "3 degrees of freedom, p =" in text
    for name in ("decisions", "turns", "deals"):
        assert f"{name} per match: min" in text and "lower quartile" in text
    assert "unfinished: 0" in text
    assert "generic (1 seat)" in text and "random (3 seats)" in text
    assert "challenge: refuse (in decide), taken against another seat's claim" in text


def test_json_and_csv_hold_one_row_per_match_and_every_figure(tmp_path):
    import csv
    import json

    out_json, out_csv = tmp_path / "m.json", tmp_path / "m.csv"
    result = simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "6", "--seed", "4", "--workers", "2",
                          "--bots", "generic,random", "--rotate", "--json", str(out_json), "--csv", str(out_csv))
    assert 0 == result.exit_code, result.output
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert (data["games"], data["seed"], data["bots"], data["rotate"]) == (6, 4, ["generic", "random"], True)
    assert data["challenge_actions"] == [{"phase": "bidding", "action": "liar"}]
    rows = data["matches"]
    assert [r["match"] for r in rows] == [1, 2, 3, 4, 5, 6] and [r["seed"] for r in rows] == [4, 5, 6, 7, 8, 9]
    assert [r["lineup"] for r in rows] == [["generic", "random"], ["random", "generic"]] * 3
    figs = data["figures"]
    assert figs["finished"] == 6 and len(figs["seats"]) == 2 and {k["kind"] for k in figs["kinds"]} == {
        "generic", "random"}
    assert figs["fairness"]["df"] == 1 and 0 <= figs["fairness"]["p"] <= 1
    assert figs["bluffing"]["claims"] == sum(sum(r["claims"]) for r in rows)
    assert figs["length"]["decisions"]["max"] == max(r["decisions"] for r in rows)
    with open(out_csv, newline="", encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 6
    for row, match in zip(table, rows):
        assert int(row["match"]) == match["match"] and int(row["seed"]) == match["seed"]
        assert row["lineup"] == " ".join(match["lineup"])
        assert row["winners"] == " ".join(f"P{s}" for s in match["winners"])
        for name in ("claims", "false_claims", "challenges", "successful_challenges"):
            assert [int(row[f"{name}_P{s}"]) for s in (1, 2)] == match[name]
        assert (int(row["decisions"]), int(row["turns"]), int(row["deals"])) == (
            match["decisions"], match["turns"], match["deals"])
    # the same files, byte for byte, with one worker
    again_json, again_csv = tmp_path / "1.json", tmp_path / "1.csv"
    simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "6", "--seed", "4", "--workers", "1",
                 "--bots", "generic,random", "--rotate", "--json", str(again_json), "--csv", str(again_csv))
    assert again_json.read_bytes() == out_json.read_bytes() and again_csv.read_bytes() == out_csv.read_bytes()


def test_an_output_that_cannot_be_written_is_refused_before_playing(tmp_path):
    result = simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "2", "--json", str(tmp_path / "no" / "m.json"))
    assert 2 == result.exit_code
    assert "Invalid value for '--json': cannot write" in result.stderr


def test_plot_draws_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "sim.png"
    result = simulate_cli(str(GAMES / "dtc.rules"), "--games", "6", "--seed", "2", "--workers", "1",
                          "--bots", "generic,random,random,random", "--rotate", "--plot", str(out))
    assert 0 == result.exit_code, result.output
    assert f"plot drawn into {out}" in " ".join(result.stdout.split())
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1600, 520)


def test_plot_without_matplotlib_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)         # `import matplotlib` raises ImportError
    result = simulate_cli(str(GAMES / "liars_dice.rules"), "--games", "2", "--plot", str(tmp_path / "p.png"))
    assert 2 == result.exit_code, result.output
    assert '--plot needs matplotlib, which is not installed here: pip install "rulekit[plot]"' in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "p.png").exists()


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.glob("*.rules")))
def test_a_random_bot_played_in_place_plays_as_its_choose_does(game):
    """A plain RandomBot's draws, judged on the working copy of a match played in place,
    give the match its ``choose`` gives (the same bot through ``choose``: a subclass)."""
    from rulekit.engine import Engine
    from rulekit.play.match import play_match, seat_rng
    from rulekit.players import RandomBot
    from rulekit.sema.load import load

    class Chooser(RandomBot):
        uses_view = False

        def choose(self, view, decision):
            return super().choose(view, decision)

    engine = Engine(load(GAMES / game))
    n = 2 if game == "liars_dice.rules" else 3
    for seed in range(4):
        plain = play_match(engine, [RandomBot(seat_rng(seed, s)) for s in range(n)], n, seed, keep_log=False)
        chosen = play_match(engine, [Chooser(seat_rng(seed, s)) for s in range(n)], n, seed, keep_log=False)
        assert (plain.state, plain.steps) == (chosen.state, chosen.steps)


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.glob("*.rules")))
def test_a_match_that_tracks_no_knowledge_is_the_same_match(game):
    """``play_match(…, knowledge=False)``, as ``simulate`` plays: with random bots (which
    read no view) the same match, decision for decision, but for the record's ``known``,
    None where no phase's checks read what the deciding seat cannot see (so that no view is
    made), tracked where one does (Coup's) and wherever a player reads a view."""
    from rulekit.engine import Engine
    from rulekit.play.match import play_match, seat_rng
    from rulekit.players import GenericBot, RandomBot
    from rulekit.sema.load import load

    engine = Engine(load(GAMES / game))
    n = 2 if game == "liars_dice.rules" else 3
    for seed in range(3):
        tracked = play_match(engine, [RandomBot(seat_rng(seed, s)) for s in range(n)], n, seed, keep_log=False)
        untracked = play_match(engine, [RandomBot(seat_rng(seed, s)) for s in range(n)], n, seed, keep_log=False,
                               knowledge=False)
        assert (untracked.steps, untracked.winners) == (tracked.steps, tracked.winners)
        if all(engine.public_checks):
            assert untracked.state == tracked.state._replace(known=None)
        else:
            assert untracked.state == tracked.state
    viewing = play_match(engine, [GenericBot(engine, seat_rng(0, s)) for s in range(n)], n, 0, keep_log=False,
                         knowledge=False, max_steps=20_000)
    assert viewing.state.known is not None
