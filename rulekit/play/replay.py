"""Playing a logged match again, and what one seat saw of it.

A log file (``rulekit run --log FILE``) is JSON lines: a header
(:func:`rulekit.play.match.log_header`: the rules file and its SHA-256, the variants, the
number of seats, the seed, who played each seat), then one record per decision and per
event, in the order they happened. :func:`replay` loads the rules the header names, checks
that they are the same bytes, starts a match with the seed, applies each recorded decision
and checks that every event the engine gives equals the one in the log. The first
difference raises :class:`ReplayError`, which names the line of the log (``LOG:LINE``).

:func:`seat_log` turns a match's log into what one seat saw of it (``rulekit run
--log-for SEAT FILE``): one record per decision of that seat with its observation
(:func:`observation`: its view and the events it perceived since its previous decision)
and the action it chose, and a last record with what it perceived after its last decision
and the result. Its header leaves the seed out.
"""

from __future__ import annotations

import json
import random
from typing import Callable, Iterable, Sequence

import attrs

from ..engine import DECLINE_ACTION, Action, Decision, Engine, Event, State
from ..engine.narrate import seat_name
from ..errors import IllegalAction, OptionError, RulesError
from .match import LOG_FORMAT, LogNames, event_record, file_digest, rulekit_version, view_record


class ReplayError(Exception):
    """A log that cannot be played again, or whose match differs from the one the engine
    plays: ``path`` and ``line`` (1-based; None when no line is to blame) locate it and
    ``message`` says what is wrong; ``str()`` reads ``PATH:LINE: error: MESSAGE``."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path = path
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: error: {self.message}"


@attrs.frozen
class Replayed:
    """A log played again: its header, the engine of its rules, the state the replay
    reached (``finished`` when the match is over; a log of a stopped match ends earlier),
    and how many decisions and events it checked; ``cut``: the log ends in the middle of
    the events of its last decision (a match killed while it wrote them); ``torn``: the
    number of a last line cut off and left out (:attr:`LogRecords.torn`), else None."""

    header: dict
    engine: Engine
    state: State
    decisions: int
    events: int
    cut: bool = False
    torn: int | None = None

    @property
    def incomplete(self) -> str | None:
        """Why the log stops short, in words ("it stops before the match ends", …), or None
        for the log of a whole match."""
        if self.torn is not None:
            return f"the log stops before the match ends: its last line ({self.torn}) was cut off and is left out"
        if self.cut:
            return "the log stops before the match ends, amid the events of its last decision"
        return None if self.finished else "the log stops before the match ends"

    @property
    def finished(self) -> bool:
        return self.state.is_terminal


class LogRecords(list):
    """The records of a log after its header, each as (line number, record); ``torn`` is
    the number of a last line that was cut off (a match killed while its line was being
    written) and is left out, else None."""

    torn: int | None = None


def _log_lines(path: str):
    """(line number, bytes, whether the line ends with a newline) for each line of the log
    at ``path``: lines end at ``\\n`` only (never at U+2028 or another line break a text may
    hold); the file and each line are held to :data:`~rulekit.files.MAX_LOG_BYTES` and
    :data:`~rulekit.files.MAX_LOG_LINE`.

    Raises:
        ReplayError: not a regular file, too large, a line too long, or unreadable.
    """
    from ..files import MAX_LOG_BYTES, MAX_LOG_LINE, Refused, _size_text, open_regular

    try:
        with open_regular(path) as fh:
            total = 0
            number = 0
            while True:
                raw = fh.readline(MAX_LOG_LINE + 1)
                if not raw:
                    return
                number += 1
                total += len(raw)
                if total > MAX_LOG_BYTES:
                    raise ReplayError(path, number, f"the log is longer than {_size_text(MAX_LOG_BYTES)}, the "
                                                    "most a log may hold")
                whole = raw.endswith(b"\n")
                if not whole and len(raw) > MAX_LOG_LINE:
                    raise ReplayError(path, number, f"a line longer than {_size_text(MAX_LOG_LINE)}, the most a "
                                                    "line of a log may hold")
                yield number, raw, whole
    except Refused as exc:
        raise ReplayError(path, None, exc.strerror) from None
    except OSError as exc:
        raise ReplayError(path, None, f"cannot read the log: {exc.strerror or exc}") from None


def _parse_line(path: str, number: int, raw: bytes):
    """The record of one line of a log (None for a blank line).

    Raises:
        ReplayError: the line is not UTF-8, not JSON (or nested too deeply to read), or
            not a JSON object with a "type".
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(path, number, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})") from None
    if not text.strip():
        return None
    try:
        record = json.loads(text)
    except RecursionError:
        raise ReplayError(path, number, "not a JSON line (nested too deeply to read)") from None
    except ValueError as exc:
        raise ReplayError(path, number, f"not a JSON line ({exc})") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise ReplayError(path, number, 'not a record of a log (a JSON object with a "type")')
    return record


def read_log(path: str) -> tuple[dict, LogRecords]:
    """The header of the log file at ``path`` and its other records, each with its line
    number (blank lines are skipped).

    A last line without its newline that does not read as JSON is the torn end of a match
    that was killed while writing it: it is left out (``records.torn`` is its number).

    Raises:
        ReplayError: the file is no regular file, larger than 256 MiB, cannot be read, a
            line is not a JSON object, or the first record is not a header of a format this
            rulekit reads (:func:`check_header`).
    """
    records = LogRecords()
    for number, raw, whole in _log_lines(path):
        try:
            record = _parse_line(path, number, raw)
        except ReplayError:
            if whole or not records:
                raise
            records.torn = number               # the last line, cut off
            break
        if record is not None:
            records.append((number, record))
    if not records or records[0][1]["type"] != "header":
        raise ReplayError(path, records[0][0] if records else None,
                          "the log does not start with a header (written by rulekit run --log)")
    number, header = records.pop(0)
    check_header(header, path, number)
    return header, records


#: the log formats this rulekit replays: 1 (its ``deal`` events do not name the cards dealt)
#: and :data:`LOG_FORMAT`
READ_FORMATS = (1, LOG_FORMAT)


def check_header(header: dict, path: str = "<log>", line: int | None = 1) -> None:
    """Check that ``header`` is the header of a whole log this rulekit can replay.

    Raises:
        ReplayError: another format, a log of one seat (it has no seed) or a field missing.
    """
    if not _is_int(header.get("format")) or header.get("format") not in READ_FORMATS:
        raise ReplayError(path, line, f"the log is of format {_dumps(header.get('format'))[:20]}; this rulekit "
                                      f"({rulekit_version()}) reads formats "
                                      f"{', '.join(map(str, READ_FORMATS))}")
    if "seat" in header:
        raise ReplayError(path, line, f"this is the log of what {header['seat']!s:.20} saw (--log-for): it has no "
                                      "seed, so the match cannot be played again; replay the whole log (--log)")
    missing = [k for k in ("file", "sha256", "variants", "players", "seed") if k not in header]
    if missing:
        raise ReplayError(path, line, f"the header lacks {', '.join(missing)}")
    for key, wanted, fits in _HEADER_FIELDS:
        if key in header and not fits(header[key]):
            raise ReplayError(path, line, f"the header's \"{key}\" is {_dumps(header[key])[:60]}, not {wanted}")


def _is_int(value) -> bool:
    return type(value) is int


#: the fields of a header: (name, what it must be, the test); those of :func:`check_header`'s
#: ``missing`` must be there, the others may be left out
_HEADER_FIELDS = (
    ("file", "the path of the rules file (a text)", lambda v: isinstance(v, str) and v != ""),
    ("sha256", "a SHA-256 in hexadecimal (a text)", lambda v: isinstance(v, str)),
    ("variants", "a list of variant names", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    ("players", "a number of seats", lambda v: _is_int(v) and v >= 1),
    ("seed", "a whole number", _is_int),
    ("rulekit", "a version (a text)", lambda v: isinstance(v, str)),
)


def load_rules(header: dict, path: str = "<log>", rules: str | None = None, line: int | None = 1) -> Engine:
    """The engine of the rules a header names (or of the file ``rules``), with its variants.

    Raises:
        ReplayError: the file cannot be read or loaded, or its SHA-256 is not the header's
            (the rules file changed since the log was written).
    """
    from ..sema.load import load

    file = rules if rules is not None else header["file"]
    if "\x00" in file:                  # no file has such a name (os.open would raise ValueError)
        raise ReplayError(path, line, f"cannot read the rules file {file}: a file's name cannot hold U+0000 (NUL)")
    try:
        digest = file_digest(file)
    except OSError as exc:
        hint = "" if rules is not None else " (--rules FILE names where it is now)"
        raise ReplayError(path, line, f"cannot read the rules file {file}: {exc.strerror or exc}{hint}") from None
    if digest != header["sha256"]:
        raise ReplayError(path, line, f"the rules file changed since the log was written: {file} has SHA-256 "
                                      f"{digest[:16]}…, the log's header says {str(header['sha256'])[:16]}…")
    try:
        engine = Engine(load(file, tuple(header["variants"])))
    except (RulesError, OptionError) as exc:
        raise ReplayError(path, line, f"the rules of the log do not load: {exc}") from None
    low, high = engine.game.players
    if not isinstance(header["players"], int) or not low <= header["players"] <= high:
        raise ReplayError(path, line, f"{engine.game.title} is for {low} to {high} players, "
                                      f"not {header['players']!r}")
    return engine


def replay(path: str, rules: str | None = None,
           on_events: Callable[[State, list[Event]], None] | None = None) -> Replayed:
    """Play the match of the log file at ``path`` again and check it, event by event.

    The rules are read from the file the header names (as given when the log was written,
    so relative to the folder it was written from), or from ``rules``; they must be the
    same bytes (SHA-256). The match starts with the header's seed, and each decision of the
    log is applied in turn (its cards decoded from their labels, its values from their
    names); every event the engine gives must equal the log's, and the log must hold no
    other event. A log of a stopped match replays up to where it stops.

    Args:
        path: the log file.
        rules: the rules file to use instead of the header's (it must still match).
        on_events: called with the new state and its events after the setup and after each
            decision (as ``play_match`` calls it: a narrator can print the play-by-play).

    Raises:
        ReplayError: the log cannot be read, the rules changed or do not load, a decision
            cannot be applied, or an event differs (the message says expected vs got).
    """
    header, records = read_log(path)
    engine = load_rules(header, path, rules)
    return replay_records(engine, header, records, path, on_events)


def replay_records(engine: Engine, header: dict, records: Iterable, path: str = "<log>",
                   on_events: Callable[[State, list[Event]], None] | None = None,
                   on_decision: Callable[[State, int, Action, Decision | None], None] | None = None) -> Replayed:
    """Replay the ``records`` that follow ``header`` with ``engine`` (see :func:`replay`).

    ``records``: dicts (a ``MatchRecord.log``: they are numbered as lines 2, 3, … of a file
    whose first line is the header) or (line, dict) pairs (:func:`read_log`).
    ``on_decision(state, step, action, decision)`` is called before each decision is
    applied (``decision``: the engine's, with texts, when one was made to decode it, else None).

    Raises:
        ReplayError: as :func:`replay`.
    """
    numbered = [r if isinstance(r, tuple) else (i, r) for i, r in enumerate(records, 2)]
    n = header["players"]
    seed = header["seed"]
    rng = random.Random(seed)
    state, events = engine.new_match(n, rng)
    log = _LogReader(engine, header, numbered, path)
    decisions = 0
    log.check(events)
    if on_events is not None:
        on_events(state, events)
    while log.at < len(numbered):
        line, record = log.next_decision(state)
        action, decision = decode_action(engine, state, record, path, line)
        if on_decision is not None:
            on_decision(state, decisions, action, decision)
        try:
            state, events = engine.apply(state, action, rng, True)
        except IllegalAction as exc:
            log.fail(line, f"the decision cannot be applied: {exc}")
        log.at += 1
        decisions += 1
        log.check(events)
        if on_events is not None:
            on_events(state, events)
    return Replayed(header, engine, state, decisions, log.checked, log.cut, getattr(records, "torn", None))


class _LogReader:
    """The records of a log being replayed, (line, dict) pairs read in order, for
    :func:`replay_records`: ``at`` the next one to read, ``checked`` the events matched so
    far, ``cut`` whether the log ends within the events of a step."""

    def __init__(self, engine: Engine, header: dict, numbered: list, path: str):
        self.engine = engine
        self.header = header
        self.numbered = numbered
        self.path = path
        self.n = header["players"]
        self.at = 0             # the next record to read
        self.checked = 0
        self.cut = False
        self.old_deals = header.get("format") == 1

    def fail(self, line, message):
        """Raise the :class:`ReplayError` of ``message`` at ``line``, naming the rulekit
        that wrote the log when it is another."""
        version = self.header.get("rulekit")
        if version and version != rulekit_version():
            message += f" (the log was written by rulekit {version}; this is {rulekit_version()})"
        raise ReplayError(self.path, line, message)

    def check(self, events) -> None:
        """Match ``events`` against the next records (a log cut after a whole record
        replays up to there); a difference raises :class:`ReplayError`."""
        numbered, fail = self.numbered, self.fail
        for event in events:
            got = event_record(self.engine, event, self.n)
            if self.old_deals and got.get("kind") == "deal":
                got["data"].pop("dealt", None)  # a format 1 log does not name the cards dealt
            if self.at >= len(numbered):
                self.cut = True     # the log was cut after a whole record: it replays up to there
                return
            line, record = numbered[self.at]
            if record != got:
                if record.get("type") != "event":
                    fail(line, f"the log has a {record.get('type')} here, but the engine gives an event: "
                               f"expected {_dumps(record)}, got {_dumps(got)}")
                where, want, have = _first_difference(record, got)
                fail(line, f"the replayed event differs from the log at {where}: expected {_dumps(want)}, "
                           f"got {_dumps(have)} (the engine's event: {_dumps(got)})")
            self.at += 1
            self.checked += 1

    def next_decision(self, state: State) -> tuple:
        """The next record, (line, dict), checked to be a decision of the seat and phase
        that decide in ``state``; else :class:`ReplayError`."""
        engine, fail = self.engine, self.fail
        line, record = self.numbered[self.at]
        kind = record.get("type")
        if kind == "event":
            fail(line, f"the log has an event the engine does not give: {_dumps(record)}")
        if kind != "decision":
            fail(line, f"a record of type {kind!r} has no place in a log")
        if state.is_terminal:
            fail(line, "the match is over, but the log goes on with a decision")
        seat = seat_name(engine.decider(state))
        phase = engine.cg.phase_list[state.phase].name
        if record.get("seat") != seat or record.get("phase", phase) != phase:
            fail(line, f"the log has a decision of {record.get('seat')} in '{record.get('phase')}', but it is "
                       f"{seat}'s to make in '{phase}'")
        return line, record


def decode_action(engine: Engine, state: State, record: dict, path: str = "<log>",
                  line: int | None = None) -> tuple[Action, Decision | None]:
    """The :class:`Action` a decision record names in ``state``: its cards from their
    labels (among the cards the action chooses from), its values from their names
    (``Option.shown``) or numbers; and the decision with texts made to decode them (None
    when there was no value to decode).

    Raises:
        ReplayError: the action, a card or a value is not one the seat may choose here.
    """
    name = record.get("action")
    labels = record.get("cards") or []
    params = record.get("params") or []
    if not isinstance(name, str) or not isinstance(labels, list) or not isinstance(params, list):
        raise ReplayError(path, line, f"not a decision record: {_dumps(record)}")
    if name == DECLINE_ACTION.name and not labels and not params:
        return DECLINE_ACTION, None
    decision = option = None
    if params or labels:
        decision = engine.decision(state, True)
        option = next((o for o in decision.options if o.name == name), None)
        if option is None:
            names = ", ".join(o.name for o in decision.options)
            raise ReplayError(path, line, f"'{name}' is not an option of {seat_name(decision.seat)} here "
                                          f"(the options are: {names})")
    cards = []
    if labels:
        pool = sorted(set(option.cards or ()))
        for label in labels:
            kind = next((k for k in pool if engine.kind_label(k) == label), None)
            if kind is None:
                try:
                    kind = engine.kind_named(label)
                except (KeyError, TypeError):
                    raise ReplayError(path, line, f"no card is called {label!r}") from None
            cards.append(kind)
    values = []
    if params:
        if len(params) != len(option.params):
            raise ReplayError(path, line, f"'{name}' chooses {len(option.params)} value(s), the log gives "
                                          f"{len(params)}")
        for i, (value, (pname, domain)) in enumerate(zip(params, option.params)):
            if isinstance(value, str):
                shown = option.shown[i] if i < len(option.shown) else ()
                if value not in shown:
                    raise ReplayError(path, line, f"{value!r} is not a value of {pname} here (the values are: "
                                                  f"{', '.join(shown)})")
                value = domain[shown.index(value)]
            elif isinstance(value, list):
                value = tuple(value)
            values.append(value)
    return Action(name, tuple(sorted(cards)), tuple(values)), decision


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _first_difference(want, have, where: str = "") -> tuple[str, object, object]:
    """The first place (a dotted path) where two records differ, and the two values there;
    a short list is shown whole, a long one (a shuffle's order) down to the element."""
    if isinstance(want, dict) and isinstance(have, dict):
        for key in list(want) + [k for k in have if k not in want]:
            if want.get(key, _MISSING) != have.get(key, _MISSING):
                return _first_difference(want.get(key), have.get(key), f"{where}.{key}" if where else key)
    elif isinstance(want, list) and isinstance(have, list) and len(want) == len(have) > 10:
        for i, (a, b) in enumerate(zip(want, have)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return where or "the record", want, have


_MISSING = object()


# ------------------------------------------------------------------------ one seat's log
def observation(engine: Engine, state: State, seat: int, events: Sequence[Event] = ()) -> dict:
    """What ``seat`` knows at its decision in ``state``, as plain JSON: ``view`` (its
    :class:`View`: :func:`rulekit.play.match.view_record`), ``options`` (the names of the
    actions it may take) and ``events`` (each event of ``events`` as the seat perceives it,
    :meth:`Engine.observe`, in log form). It reads the state through ``Engine.view`` and
    ``Engine.observe`` alone, so two states (and events) that differ only in what the seat
    cannot see give the same observation."""
    n = state.n
    perceived = []
    for event in events:
        seen = engine.observe(event, seat, n)
        if seen is not None:
            perceived.append(event_record(engine, seen, n))
    decision = engine.decision(state, False) if not state.is_terminal else None
    options = [o.name for o in decision.options] if decision is not None and decision.seat == seat else []
    return {"view": view_record(engine, engine.view(state, seat)), "options": options, "events": perceived}


class SeatLog:
    """Builds the records of what one seat saw, fed step by step: :meth:`events` with the
    events of the setup and of each decision, :meth:`decision` before each decision of the
    seat, :meth:`end` once. ``records`` then holds one record per decision of the seat::

        {"type": "decision", "step": k, "seat": "P1", "view": {…}, "options": […],
         "events": [events perceived since its previous decision], "action": {"action",
         "cards", "params"}}

    and a last one ``{"type": "end", "finished": …, "events": […]}`` (with ``winners``
    and ``returns`` when the match is over)."""

    def __init__(self, engine: Engine, n: int, seat: int):
        self.engine = engine
        self.n = n
        self.seat = seat
        self.records: list[dict] = []
        self._events: list[Event] = []

    def events(self, events: Iterable[Event]) -> None:
        self._events.extend(events)

    def decision(self, state: State, step: int, action: Action, decision: Decision | None = None) -> None:
        """Record the seat's decision ``action`` in ``state`` (no-op for another seat's)."""
        if self.engine.decider(state) != self.seat:
            return
        seen = observation(self.engine, state, self.seat, self._events)
        self._events = []
        if action.params and (decision is None or not any(o.shown for o in decision.options)):
            decision = self.engine.decision(state, True)
        choice = LogNames.of(self.engine, self.n).choice(action, decision)
        self.records.append({"type": "decision", "step": step, "seat": seat_name(self.seat), **seen,
                             "action": choice})

    def end(self, state: State) -> None:
        perceived = observation(self.engine, state, self.seat, self._events)["events"]
        self._events = []
        record = {"type": "end", "finished": state.is_terminal, "events": perceived}
        if state.is_terminal:
            record["winners"] = [seat_name(s) for s in state.winners]
            record["returns"] = {seat_name(s): r if type(r) is int else float(r)
                                 for s, r in enumerate(self.engine.returns(state))}
        self.records.append(record)


def seat_log(engine: Engine, header: dict, records: Iterable, seat: int) -> list[dict]:
    """What ``seat`` saw of the logged match: a header (``header`` without the seed, with
    ``"seat": "P1"``), one record per decision of the seat and an end record (see
    :class:`SeatLog`). The match is played again from ``header`` and ``records`` (a
    ``MatchRecord.log``, or numbered records from :func:`read_log`) and checked as
    :func:`replay_records` does.

    Raises:
        ReplayError: the records do not replay.
        ValueError: ``seat`` is not a seat of the match.
    """
    n = header["players"]
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat + 1} does not exist in a {n}-player match")
    log = SeatLog(engine, n, seat)
    done = replay_records(engine, header, records, on_events=lambda state, events: log.events(events),
                          on_decision=log.decision)
    log.end(done.state)
    mine = {k: v for k, v in header.items() if k != "seed"}
    mine["seat"] = seat_name(seat)
    return [mine] + log.records


#: characters a JSON text may hold raw but some readers take for the end of a line
#: (Python's ``str.splitlines``, JavaScript before ES2019): a log writes them escaped
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_line(record: dict) -> str:
    """``record`` as one line of a log: JSON in UTF-8 (not escaped to ASCII), but with the
    line breaks U+0085, U+2028 and U+2029 escaped, so that only the final ``\\n`` ends it."""
    return json.dumps(record, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def write_log(path: str, records: Iterable[dict]) -> int:
    """Write records as JSON lines (UTF-8, :func:`json_line`) to ``path``; the number of
    lines written.

    Raises:
        rulekit.files.OutputError: the file cannot be written (a full disk…); what could
            be written is kept.
    """
    with LogFile(path) as out:
        out.extend(records)
        return out.lines


class LogFile(list):
    """A log written as it grows: a list of records (``play_match(…, log=…)`` appends to
    it) that also writes each record to the file at ``path`` as a JSON line the moment it
    is added, and flushes at each :meth:`extend` (``play_match`` extends it once per
    decision, with the decision's events), so that a match killed at any moment leaves a
    log of whole records up to its last decision, bar a torn last line
    (:func:`read_log` leaves that out). ``lines`` counts the lines written.

    Raises (from any method):
        rulekit.files.OutputError: the file cannot be written (a full disk…).
    """

    def __init__(self, path: str, head: Iterable[dict] = ()):
        """Open (and empty) the file at ``path`` and write the records of ``head`` (a
        header) first, flushed; they are not items of the list."""
        super().__init__()
        self.path = path
        self.lines = 0
        try:
            self._out = open(path, "w", encoding="utf-8")
        except OSError as exc:
            raise self._failed(exc) from None
        self._write(head, True)

    def _failed(self, exc: OSError):
        from ..files import OutputError

        return OutputError(self.path, exc)

    def append(self, record: dict) -> None:
        super().append(record)
        self._write((record,), False)

    def extend(self, records: Iterable[dict]) -> None:
        records = list(records)
        super().extend(records)
        self._write(records, True)

    def _write(self, records, flush: bool) -> None:
        out = self._out
        if out is None:
            return
        try:
            for record in records:
                out.write(json_line(record))
                self.lines += 1
            if flush:
                out.flush()
        except OSError as exc:
            self._abandon()
            raise self._failed(exc) from None

    def _abandon(self) -> None:
        """Stop writing after a failure: the file keeps what reached it."""
        out, self._out = self._out, None
        try:
            out.close()
        except OSError:
            pass

    def close(self) -> None:
        """Flush and close the file (again: nothing)."""
        out = self._out
        if out is None:
            return
        self._out = None
        try:
            out.close()
        except OSError as exc:
            raise self._failed(exc) from None

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()
        elif self._out is not None:
            self._abandon()


__all__ = ["LogFile", "LogRecords", "ReplayError", "Replayed", "SeatLog", "check_header", "decode_action", "json_line",
           "load_rules", "observation", "read_log", "replay", "replay_records", "seat_log", "write_log"]
