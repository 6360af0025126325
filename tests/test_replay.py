"""`rulekit replay` and rulekit.play.replay: a --log plays again, event by event, from its header
and its decisions; a changed rules file, a tampered event or a tampered decision is found
and named by its line (LOG:LINE: error: …)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit import Engine, load
from rulekit.cli import main
from rulekit.play.match import MatchTooLong, log_header, play_match, seat_rng
from rulekit.players import GenericBot, RandomBot
from rulekit.play.replay import ReplayError, read_log, replay, replay_records, seat_log, write_log
from strategies import ROOT

GAMES = ROOT / "games"
LIARS_DICE = str(GAMES / "liars_dice.rules")
LUGENBEUTEL = str(GAMES / "lugenbeutel.rules")
STEPS = 60           # a short match, or the start of one: a log of a stopped match replays too


def _players(path: str, variant: str | None = None) -> int:
    low, high = load(path, (variant,) if variant else ()).players
    return min(max(3, low), high)


def _log(tmp_path: Path, path: str, variant: str | None = None, seed: int = 1, bots: str = "random",
         steps: int = STEPS) -> Path:
    """A log file (header and records) of a match of ``path`` played by bots, stopped after
    ``steps`` decisions if it has not ended."""
    engine = Engine(load(path, (variant,) if variant else ()))
    n = _players(path, variant)
    make = (lambda s: RandomBot(seat_rng(seed, s))) if bots == "random" else \
        (lambda s: GenericBot(engine, seat_rng(seed, s)))
    try:
        log = play_match(engine, [make(s) for s in range(n)], n, seed, max_steps=steps).log
    except MatchTooLong as exc:
        log = exc.record.log
    out = tmp_path / f"{Path(path).stem}-{variant}-{seed}.jsonl"
    write_log(str(out), [log_header(engine, path, n, seed, [bots] * n), *log])
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


# ------------------------------------------------------------------------------ replays
@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.stem)
def test_the_log_of_every_shipped_game_replays(tmp_path, path):
    log = _log(tmp_path, str(path))
    done = replay(str(log))
    rows = _lines(log)
    assert done.decisions == sum(1 for r in rows if r["type"] == "decision") > 0
    assert done.events == sum(1 for r in rows if r["type"] == "event")
    assert done.engine.game.title == rows[0]["game"]


@pytest.mark.parametrize("path,variant", [(GAMES / "lugenbeutel.rules", "single_card"),
                                          (GAMES / "dtc.rules", "higher_counts_literal"),
                                          (GAMES / "liars_dice.rules", "five_dice")],
                         ids=lambda x: getattr(x, "stem", x))
def test_a_log_with_a_variant_replays_with_it(tmp_path, path, variant):
    """The header names the variants; the replay applies them (without them the match
    differs: the five-dice game rolls five dice a cup)."""
    log = _log(tmp_path, str(path), variant, bots="generic", steps=30)
    assert _lines(log)[0]["variants"] == [variant]
    done = replay(str(log))
    assert done.engine.game.applied == (variant,)
    assert done.decisions > 0


def test_a_finished_match_replays_to_its_end(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3, bots="generic")
    done = replay(str(log))
    assert done.finished
    assert done.state.winners


def test_replay_calls_on_events_as_play_match_does(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3)
    seen = []
    replay(str(log), on_events=lambda state, events: seen.extend(events))
    assert [e.kind for e in seen] == [r["kind"] for r in _lines(log) if r["type"] == "event"]


def test_records_of_play_match_replay_in_memory():
    """replay_records takes a MatchRecord.log as it is (numbered as the lines after a header)."""
    engine = Engine(load(LIARS_DICE))
    record = play_match(engine, [RandomBot(seat_rng(5, s)) for s in range(2)], 2, 5)
    header = log_header(engine, LIARS_DICE, 2, 5, ["random"] * 2)
    done = replay_records(engine, header, record.log)
    assert done.finished and done.state == record.state


def test_a_deal_names_the_cards_each_seat_got_and_a_seat_sees_only_its_own(tmp_path):
    """The log's ``deal`` event names which cards went to whom (issue 22: it named only
    where from and how many); what one seat saw (``--log-for``) keeps only its own cards
    of it, the others' as unknown, as many as they got."""
    engine = Engine(load(LUGENBEUTEL))
    record = play_match(engine, [RandomBot(seat_rng(3, s)) for s in range(3)], 3, 3)
    deal = next(r for r in record.log if r.get("kind") == "deal")
    dealt = deal["data"]["dealt"]
    assert [zone for zone, _ in dealt] == ["hand of P1", "hand of P2", "hand of P3"]
    assert all(len(cards) == 10 and None not in cards for _, cards in dealt)
    assert deal["data"]["count"] == 10
    seen = seat_log(engine, log_header(engine, LUGENBEUTEL, 3, 3, ["random"] * 3), record.log, 0)
    first = next(e for r in seen if r["type"] == "decision" for e in r["events"] if e["kind"] == "deal")
    assert first["data"]["dealt"] == [dealt[0], ["hand of P2", [None] * 10], ["hand of P3", [None] * 10]]


def test_a_log_of_format_1_still_replays():
    """A log written before deals named their cards (format 1) replays: its deal events
    are compared without the cards."""
    engine = Engine(load(LUGENBEUTEL))
    record = play_match(engine, [RandomBot(seat_rng(2, s)) for s in range(3)], 3, 2)
    header = dict(log_header(engine, LUGENBEUTEL, 3, 2, ["random"] * 3), format=1)
    old = [dict(r, data={k: v for k, v in r["data"].items() if k != "dealt"}) if r.get("kind") == "deal" else r
           for r in record.log]
    assert replay_records(engine, header, old).state == record.state
    with pytest.raises(ReplayError):
        replay_records(engine, dict(header, format=2), old)         # format 2 must name them


# ------------------------------------------------------------------------ what is refused
def test_a_changed_rules_file_is_refused(tmp_path):
    rules = tmp_path / "game.rules"
    shutil.copy(LIARS_DICE, rules)
    log = _log(tmp_path, str(rules), seed=2)
    replay(str(log))
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# one more comment\n", encoding="utf-8")
    with pytest.raises(ReplayError) as caught:
        replay(str(log))
    assert caught.value.line == 1
    assert str(caught.value).startswith(f"{log}:1: error: the rules file changed since the log was written: "
                                        f"{rules} has SHA-256 ")


def test_rules_points_at_a_moved_file_which_must_still_match(tmp_path):
    rules = tmp_path / "game.rules"
    shutil.copy(LIARS_DICE, rules)
    log = _log(tmp_path, str(rules), seed=2)
    moved = tmp_path / "moved.rules"
    rules.rename(moved)
    with pytest.raises(ReplayError, match=r":1: error: cannot read the rules file .*--rules FILE"):
        replay(str(log))
    assert replay(str(log), rules=str(moved)).decisions > 0
    with pytest.raises(ReplayError, match="the rules file changed since the log was written"):
        replay(str(log), rules=str(GAMES / "dtc.rules"))


def test_a_tampered_event_is_named_by_its_line(tmp_path):
    """Liar's Dice: P2's roll made a different face in the log; the replay stops at that
    line and says what the log expected and what the engine gave."""
    log = _log(tmp_path, LIARS_DICE, seed=3)
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r.get("kind") == "roll_dice" and r["data"]["zone"] == "cup of P2")
    face = rows[at]["data"]["cards"][0]
    other = "6" if face != "6" else "1"
    rows[at]["data"]["cards"] = [other]
    _write(log, rows)
    with pytest.raises(ReplayError) as caught:
        replay(str(log))
    assert caught.value.line == at + 1
    assert str(caught.value).startswith(f"{log}:{at + 1}: error: the replayed event differs from the log at "
                                        f'data.cards: expected ["{other}"], got ["{face}"]')


def test_a_tampered_decision_changes_what_follows(tmp_path):
    """A different (legal) bid: the events after the decision differ from the log's."""
    log = _log(tmp_path, LIARS_DICE, seed=3, bots="generic")
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r["type"] == "decision" and r["action"] == "bid")
    quantity, face = rows[at]["params"]
    rows[at]["params"] = [quantity + 1, face]
    _write(log, rows)
    with pytest.raises(ReplayError) as caught:
        replay(str(log))
    assert caught.value.line == at + 2         # the action event right after the decision
    assert "differs from the log at data.text" in caught.value.message


def test_an_illegal_decision_is_named_by_its_line(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3)
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r["type"] == "decision")
    rows[at]["params"] = [99, 1]
    _write(log, rows)
    with pytest.raises(ReplayError) as caught:
        replay(str(log))
    assert caught.value.line == at + 1
    assert "the decision cannot be applied" in caught.value.message


def test_a_decision_of_the_wrong_seat_is_refused(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3)
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r["type"] == "decision")
    rows[at]["seat"] = "P2" if rows[at]["seat"] == "P1" else "P1"
    _write(log, rows)
    with pytest.raises(ReplayError, match=rf":{at + 1}: error: the log has a decision of P\d in 'bidding', but"):
        replay(str(log))


def test_a_missing_or_extra_event_is_found(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3)
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r.get("kind") == "claim")
    _write(log, rows[:at] + rows[at + 1:])
    with pytest.raises(ReplayError, match=rf":{at + 1}: error: the log has a decision here, but the engine gives"):
        replay(str(log))
    _write(log, rows[:at] + [rows[at], rows[at]] + rows[at + 1:])
    with pytest.raises(ReplayError, match=rf":{at + 2}: error: the log has an event the engine does not give"):
        replay(str(log))


def test_a_log_without_header_or_of_one_seat_is_refused(tmp_path):
    log = _log(tmp_path, LIARS_DICE, seed=3)
    rows = _lines(log)
    _write(log, rows[1:])
    with pytest.raises(ReplayError, match=":1: error: the log does not start with a header"):
        read_log(str(log))
    engine = Engine(load(LIARS_DICE))
    mine = seat_log(engine, rows[0], rows[1:], 0)
    _write(log, mine)
    with pytest.raises(ReplayError, match="this is the log of what P1 saw .--log-for.: it has no seed"):
        replay(str(log))
    log.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(ReplayError, match=":1: error: not a JSON line"):
        replay(str(log))


# ---------------------------------------------------------------------------------- CLI
def test_run_then_replay_on_the_command_line(tmp_path):
    log = tmp_path / "ld.jsonl"
    runner = CliRunner()
    ran = runner.invoke(main, ["run", LIARS_DICE, "--seed", "3", "-v", "--log", str(log)])
    assert ran.exit_code == 0, ran.output
    replayed = runner.invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    decisions = sum(1 for r in _lines(log) if r["type"] == "decision")
    assert replayed.stdout.rstrip().endswith(f"replayed {decisions} decisions: every event matches")
    # the same play-by-play as run -v: every line of it, in the same order
    played = [line for line in ran.stdout.splitlines() if line.startswith(("P", " ", "—", "end of", "the match"))]
    again = [line for line in replayed.stdout.splitlines() if line.startswith(("P", " ", "—", "end of", "the match"))]
    assert played == again and len(played) > 5
    quiet = runner.invoke(main, ["replay", str(log), "-q"])
    assert quiet.stdout == f"replayed {decisions} decisions: every event matches\n"


def test_replay_reports_a_difference_with_status_2(tmp_path):
    log = tmp_path / "ld.jsonl"
    runner = CliRunner()
    assert runner.invoke(main, ["run", LIARS_DICE, "--seed", "3", "-q", "--log", str(log)]).exit_code == 0
    rows = _lines(log)
    at = next(i for i, r in enumerate(rows) if r.get("kind") == "roll_dice")
    rows[at]["data"]["zone"] = "cup of P2" if rows[at]["data"]["zone"] == "cup of P1" else "cup of P1"
    _write(log, rows)
    result = runner.invoke(main, ["replay", str(log)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{log}:{at + 1}: error: the replayed event differs from the log at data.zone: "
                                    f"expected \"{rows[at]['data']['zone']}\"")
    assert "every event matches" not in result.stdout


def test_replay_with_rules_on_the_command_line(tmp_path):
    rules = tmp_path / "game.rules"
    shutil.copy(LIARS_DICE, rules)
    log = tmp_path / "ld.jsonl"
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(rules), "--seed", "1", "-q", "--log", str(log)]).exit_code == 0
    rules.write_text(rules.read_text(encoding="utf-8").replace("\n", "\n\n", 1), encoding="utf-8")
    result = runner.invoke(main, ["replay", str(log)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{log}:1: error: the rules file changed since the log was written")
    result = runner.invoke(main, ["replay", str(log), "--rules", LIARS_DICE, "-q"])
    assert result.exit_code == 0, result.output
    assert "every event matches" in result.stdout


def test_a_stopped_match_replays_up_to_where_it_stopped(tmp_path):
    log = tmp_path / "lb.jsonl"
    runner = CliRunner()
    ran = runner.invoke(main, ["run", str(GAMES / "lugenbeutel.rules"), "--seed", "2", "-q", "--bots", "random",
                               "--max-decisions", "20", "--log", str(log)])
    assert ran.exit_code == 2
    result = runner.invoke(main, ["replay", str(log), "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "replayed 20 decisions: every event matches (the log stops before the match ends)\n"
