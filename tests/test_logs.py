"""Log files people can use: the header of a --log, records that name seats (P1…) and zones
("hand of P2") as the screen does, and --log-for SEAT: what one seat saw, and nothing more."""

from __future__ import annotations

import hashlib
import json
import random
import re
from importlib.metadata import version
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from rulekit import Chance, Engine, load
from rulekit.engine import Event
from rulekit.cli import main
from rulekit.play.match import LOG_FORMAT, event_record, log_header, play_match, player_decision, seat_rng
from rulekit.players import RandomBot
from rulekit.play.replay import SeatLog, observation, read_log, seat_log
from strategies import ROOT

GAMES = ROOT / "games"
LUGENBEUTEL = str(GAMES / "lugenbeutel.rules")
LIARS_DICE = str(GAMES / "liars_dice.rules")
NIMMS_LEICH = str(GAMES / "nimms_leich.rules")
SEAT = re.compile(r"P[1-9]\d*")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _zone_names(engine: Engine, n: int) -> set:
    cg = engine.cg
    return {cg.zones[zi].name + (f" of P{owner + 1}" if owner >= 0 else "") for zi, owner in cg.zone_owners(n)}


# ------------------------------------------------------------------------------ header
def test_the_log_starts_with_a_header_that_plays_the_match_again(tmp_path):
    log = tmp_path / "m.jsonl"
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--seed", "5", "-n", "3", "--variant", "single_card",
                                       "--bots", "generic,random,random", "-q", "--max-decisions", "30",
                                       "--log", str(log)])
    assert result.exit_code == 2, result.output          # stopped after 30 decisions: the log is kept
    header = _rows(log)[0]
    assert header == {"type": "header", "rulekit": version("rulekit"), "file": LUGENBEUTEL,
                      "sha256": hashlib.sha256(Path(LUGENBEUTEL).read_bytes()).hexdigest(),
                      "game": "Lügenbeutel", "variants": ["single_card"], "players": 3, "seed": 5,
                      "lineup": ["generic", "random", "random"], "format": LOG_FORMAT}
    assert LOG_FORMAT == 2
    assert f"log written to {log} ({len(_rows(log))} lines)" in " ".join(result.stdout.split())


def test_the_header_keeps_the_path_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    log = tmp_path / "m.jsonl"
    assert CliRunner().invoke(main, ["run", "games/liars_dice.rules", "--seed", "1", "-q",
                                     "--log", str(log)]).exit_code == 0
    assert _rows(log)[0]["file"] == "games/liars_dice.rules"


# ------------------------------------------------------------------------- names in records
@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.stem)
def test_records_name_seats_zones_and_cards(path):
    """Every seat of a record is P1…, every zone a zone instance by name and owner (a deal
    names the zone each seat receives in), every card a label; no number stands for them."""
    engine = Engine(load(str(path)))
    low, high = engine.game.players
    n = min(max(3, low), high)
    try:
        log = play_match(engine, [RandomBot(seat_rng(2, s)) for s in range(n)], n, 2, max_steps=80).log
    except Exception as exc:                               # MatchTooLong: what was played
        log = exc.record.log
    zones = _zone_names(engine, n)
    declared = {z.name for z in engine.cg.zones}
    labels = {k.label for k in engine.kinds}
    for r in log:
        if r["type"] == "decision":
            assert SEAT.fullmatch(r["seat"]) and r["phase"] in engine.cg.phases
            assert set(r["cards"]) <= labels
            continue
        d = r["data"]
        for key in ("to", "from", "zone", "zones"):
            if key in d:
                names = d[key] if isinstance(d[key], list) else [d[key]]
                assert set(names) <= (declared if r["kind"] == "deal" and key == "zone" else zones | {None}), r
        for key in ("cards", "order"):
            if key in d:
                assert set(d[key]) <= labels, r
        for key in ("seat", "winners"):
            if key in d and not (r["kind"] == "pick" and key == "seat"):
                for s in d[key] if isinstance(d[key], list) else [d[key]]:
                    assert SEAT.fullmatch(s), r
        if r["kind"] == "pick" and "value" in d:
            assert SEAT.fullmatch(d["value"]), r
        if "to" in r:
            assert r["kind"] == "show" and SEAT.fullmatch(r["to"])
    kinds = {r["kind"] for r in log if r["type"] == "event"}
    assert kinds & {"move", "draw", "deal", "roll_dice"}


def test_a_shuffle_names_its_order_and_a_deal_end_its_counters():
    engine = Engine(load(LUGENBEUTEL))
    log = play_match(engine, [RandomBot(seat_rng(1, s)) for s in range(3)], 3, 1, max_steps=4000).log
    shuffle = next(r for r in log if r.get("kind") == "shuffle")
    assert shuffle["data"]["zone"] == "stock" and len(shuffle["data"]["order"]) == shuffle["data"]["count"]
    end = next(r for r in log if r.get("kind") == "deal_end")
    assert set(end["data"]["counters"]["score"]) == {"P1", "P2", "P3"}
    first = next(r for r in log if r["type"] == "decision")
    assert first["seat"] == "P" + str(engine.decider(engine.new_match(3, random.Random(1))[0]) + 1)


def test_keep_log_false_builds_no_record(monkeypatch):
    """Simulations pay nothing for the log: with keep_log=False no record is made."""
    import rulekit.play.match as match

    def boom(*args, **kwargs):
        raise AssertionError("a log record was built")

    monkeypatch.setattr(match, "event_record", boom)
    monkeypatch.setattr(match, "action_record", boom)
    engine = Engine(load(LIARS_DICE))
    record = play_match(engine, [RandomBot(seat_rng(1, s)) for s in range(2)], 2, 1, keep_log=False)
    assert record.log == [] and record.state.is_terminal


# ------------------------------------------------------------------------- --log-for SEAT
def test_log_for_writes_what_one_seat_saw(tmp_path):
    """Nimm's Leich: P2's hand, the others' hands hidden, the cards shown to P2 alone."""
    log, mine = tmp_path / "all.jsonl", tmp_path / "p2.jsonl"
    result = CliRunner().invoke(main, ["run", NIMMS_LEICH, "--seed", "1", "-n", "3", "-q", "--bots", "random",
                                       "--log", str(log), "--log-for", "2", str(mine)])
    assert result.exit_code == 0, result.output
    rows = _rows(mine)
    assert f"what P2 saw written to {mine} ({len(rows)} lines)" in " ".join(result.stdout.split())
    header, *decisions, end = rows
    full = _rows(log)
    assert header == {**{k: v for k, v in full[0].items() if k != "seed"}, "seat": "P2"}
    assert "seed" not in header
    assert [r["step"] for r in decisions] == [r["step"] for r in full if r["type"] == "decision" and r["seat"] == "P2"]
    assert [r["action"] for r in decisions] == [{k: r[k] for k in ("action", "cards", "params")}
                                               for r in full if r["type"] == "decision" and r["seat"] == "P2"]
    for r in decisions:
        assert r["type"] == "decision" and r["seat"] == "P2" and r["view"]["decider"] == "P2"
        assert r["action"]["action"] in r["options"]
        zones = {z["zone"]: z for z in r["view"]["zones"]}
        assert zones["hand of P2"]["cards"] is not None
        assert zones["hand of P1"]["cards"] is None and zones["hand of P3"]["cards"] is None
        assert zones["undealt"]["cards"] is None
        for e in r["events"]:
            assert "order" not in e["data"]                    # no shuffle order
            assert e.get("to", "P2") == "P2"                    # no private show to another seat
            if e["data"].get("to", e["data"].get("zone")) in ("hand of P1", "hand of P3"):
                assert set(e["data"]["cards"]) <= {None}, e
    shown = [e for r in decisions for e in r["events"] if e["kind"] == "show"]
    assert shown and all(e["to"] == "P2" and None not in e["data"]["cards"] for e in shown)
    assert any(r["view"]["known"] for r in decisions)           # what it was shown, it knows
    assert any(r.get("to") not in (None, "P2") for r in full)   # others were shown cards too
    assert end["type"] == "end" and end["finished"] and end["winners"]
    assert set(end["returns"]) == {"P1", "P2", "P3"}
    # the events it perceived, between its decisions and after the last, are all the public events
    perceived = sum(len(r["events"]) for r in decisions) + len(end["events"])
    assert 0 < perceived <= sum(1 for r in full if r["type"] == "event")


def test_log_for_a_seat_that_does_not_exist_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["run", LIARS_DICE, "--seed", "1", "--log-for", "3", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "Invalid value for '--log-for': seat 3 does not exist in a 2-player match" in result.stderr


def test_log_for_alone_and_when_the_match_is_stopped(tmp_path):
    """Without --log the match still keeps its log for --log-for; when it is stopped (here
    by its bound on decisions) what the seat saw until then is written."""
    mine = tmp_path / "p1.jsonl"
    result = CliRunner().invoke(main, ["run", LUGENBEUTEL, "--seed", "2", "-q", "--bots", "random",
                                       "--max-decisions", "25", "--log-for", "1", str(mine)])
    assert result.exit_code == 2
    *_, end = _rows(mine)
    assert end == {"type": "end", "finished": False, "events": end["events"]}


def test_the_seat_log_function_gives_what_the_cli_writes(tmp_path):
    log, mine = tmp_path / "all.jsonl", tmp_path / "p1.jsonl"
    assert CliRunner().invoke(main, ["run", LIARS_DICE, "--seed", "3", "-q", "--log", str(log), "--log-for", "1",
                                     str(mine)]).exit_code == 0
    header, records = read_log(str(log))
    assert seat_log(Engine(load(LIARS_DICE)), header, records, 0) == _rows(mine)


# ---------------------------------------------------------------------- nothing more: no leak
def _dice_match(engine: Engine, faces: list[int], seat: int, bots_seed: int) -> list[dict]:
    """The records of what ``seat`` saw of a Liar's Dice match whose dice show ``faces``
    (P1's cup first), played by random bots whose choices depend on their views alone."""
    rolls = iter(faces)
    chance = Chance(lambda event: next(rolls) if event.kind == "die" else event.outcomes[0])
    n = 2
    bots = [RandomBot(seat_rng(bots_seed, s)) for s in range(n)]
    state, events = engine.new_match(n, chance)
    log = SeatLog(engine, n, seat)
    log.events(events)
    step = 0
    while not state.is_terminal:
        decision = engine.decision(state, False)
        view = engine.view(state, decision.seat, texts=False)
        action = bots[decision.seat].choose(view, player_decision(engine, view, decision))
        log.decision(state, step, action)
        state, events = engine.apply(state, action, chance)
        log.events(events)
        step += 1
    log.end(state)
    return log.records


MINE = [1, 2, 3, 4, 5]
THEIRS = ([6, 6, 6, 6, 6], [2, 3, 2, 3, 2])


def _both(seat: int, bots_seed: int) -> tuple[list, list]:
    engine = Engine(load(LIARS_DICE, ("five_dice",)))
    return tuple(_dice_match(engine, MINE + theirs, seat, bots_seed) for theirs in THEIRS)


@pytest.mark.parametrize("bots_seed", range(4))
def test_what_p1_saw_does_not_depend_on_the_dice_p2_hides(bots_seed):
    """Two matches that differ only in P2's hidden dice: P1's records are the same at every
    decision; they differ at the end, where the call of liar reveals the cups."""
    first, second = _both(0, bots_seed)
    assert len(first) == len(second) >= 2
    assert first[:-1] == second[:-1]
    assert first[-1]["type"] == "end" and first[-1] != second[-1]        # the reveal: now P1 knows


def test_the_no_leak_test_sees_what_a_seat_may_see():
    """The same comparison for P2, whose own dice differ, finds the difference at its first
    decision: the test can tell two records apart."""
    first, second = _both(1, 0)
    assert first[0] != second[0]


def test_the_no_leak_test_would_catch_a_leaking_observer(monkeypatch):
    """Were the events not filtered through Engine.observe (P2's roll seen with its faces),
    or the view to show P2's cup, P1's records would differ: the test above would fail."""
    monkeypatch.setattr(Engine, "observe", lambda self, event, seat, players: event)
    first, second = _both(0, 0)
    assert first[0] != second[0]
    monkeypatch.undo()
    view = Engine.view

    def open_view(self, state, seat, history=(), texts=True):
        shown = view(self, state, seat, history, texts)
        return attrs.evolve(shown, zones=tuple((name, owner, len(cards), cards)
                                               for (name, owner, _, _), cards in zip(shown.zones, state.zones)))

    monkeypatch.setattr(Engine, "view", open_view)
    first, second = _both(0, 0)
    assert first[0] != second[0]


def _rehidden(engine: Engine, state, seat: int, rng: random.Random):
    """``state`` with the cards ``seat`` cannot see dealt again among the zones it cannot
    see (each keeping its size) and its hidden dice rolled again; zones of which anything
    is known stay as they are."""
    view = engine.view(state, seat)
    pinned = {slot for _, slot, _, _ in state.known}
    hidden = [slot for slot, z in enumerate(view.zones) if z[3] is None and slot not in pinned]
    pool = [k for slot in hidden for k in state.zones[slot] if engine.kinds[k].die is None]
    rng.shuffle(pool)
    faces = {}
    for i, k in enumerate(engine.kinds):
        if k.die is not None:
            faces.setdefault(k.die, []).append(i)
    zones = list(state.zones)
    for slot in hidden:
        zones[slot] = tuple(pool.pop() if engine.kinds[k].die is None else rng.choice(faces[engine.kinds[k].die])
                            for k in state.zones[slot])
    return state._replace(zones=tuple(zones))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.stem)
def test_an_observation_depends_on_what_the_seat_may_see_alone(path):
    """At P1's decisions of a match, the state with every card hidden from P1 dealt again
    gives the same observation (view, options); the observation of a seat whose hidden
    cards changed does not stay the same (so the comparison can fail)."""
    engine = Engine(load(str(path)))
    low, high = engine.game.players
    n = min(max(3, low), high)
    rng = random.Random(7)
    compared = told_apart = 0
    for seed in range(6):
        bots = [RandomBot(seat_rng(seed, s)) for s in range(n)]
        chance = random.Random(seed)
        state, _ = engine.new_match(n, chance)
        for _ in range(40):
            if state.is_terminal:
                break
            decision = engine.decision(state, False)
            if decision.seat == 0:
                other = _rehidden(engine, state, 0, rng)
                assert observation(engine, state, 0) == observation(engine, other, 0)
                compared += 1
                changed = [s for s in range(1, n) if engine.view(state, s).zones != engine.view(other, s).zones]
                told_apart += any(observation(engine, state, s) != observation(engine, other, s) for s in changed)
            view = engine.view(state, decision.seat, texts=False)
            action = bots[decision.seat].choose(view, player_decision(engine, view, decision))
            state, _ = engine.apply(state, action, chance)
    assert compared >= 5 and told_apart >= 3


def test_an_event_into_a_hidden_zone_is_perceived_without_its_cards():
    """Two draws into P2's hand that differ in their cards: P1 perceives the same (two
    cards it cannot see), P2 does not."""
    engine = Engine(load(LUGENBEUTEL))
    state, _ = engine.new_match(3, random.Random(1))
    hand2 = engine.zone_slot(state, "hand", 1)
    a = Event("draw", None, {"to": hand2, "from": engine.zone_slot(state, "stock"), "cards": (0, 1), "wanted": 2})
    b = Event("draw", None, dict(a.data, cards=(5, 7)))
    assert observation(engine, state, 0, [a])["events"] == observation(engine, state, 0, [b])["events"]
    assert observation(engine, state, 1, [a])["events"] != observation(engine, state, 1, [b])["events"]
    assert event_record(engine, engine.observe(a, 0, 3), 3)["data"]["cards"] == [None, None]
