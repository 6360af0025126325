"""Playing a match: players take turns on an engine, the log records every step.

The log is a list of JSON-ready records: one per decision (who decided what) and one per
event, naming seats as the screen does (P1, P2, …), zones by name and owner ("hand of P2")
and cards by label. The same game, seed, players and variants always give the same log. A
log file (``rulekit run --log``) begins with :func:`log_header`; :mod:`rulekit.play.replay`
plays it again and checks every event.
"""

from __future__ import annotations

import hashlib
import random
import weakref
from collections.abc import Sequence
from functools import partial
from itertools import product
from operator import attrgetter
from typing import Callable, Iterable

import attrs

from ..engine import Action, Decision, Engine, Event, State, View
from ..errors import RulesRuntimeError
from ..engine.codegen import defect_at_line
from ..engine.core import multisets, option_reason
from ..engine.narrate import seat_name
from ..engine.observe import masked_state, seat_masked_state, view_state
from ..bounds import MAX_DECISIONS
from ..errors import IllegalAction, OptionError
from ..players.base import seat_rng  # noqa: F401 (its home before)

_EXACT = attrgetter("exact")       # of an Option


class History(Sequence):
    """A seat's public history as it stood at one decision: the first ``length`` events of
    a list that only grows (so making one costs nothing, however long the match)."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: list, length: int):
        self._events = events
        self._length = length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self._events[:self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError(index)
        return self._events[index % self._length]

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"History({self._length} events)"


class MatchTooLong(RuntimeError):
    """A match reached its bound on decisions; ``record`` holds what was played."""

    def __init__(self, record: "MatchRecord", bound: int, where: str = ""):
        self.record = record
        self.bound = bound
        super().__init__(f"the match was stopped after {bound} decision{'' if bound == 1 else 's'} without ending"
                         + (f"; it was in {where}" if where else ""))


@attrs.define
class MatchRecord:
    """What happened in one match."""

    state: State
    steps: int
    log: list
    winners: tuple




#: how many illegal answers in a row a player may give to one decision before the match stops
MAX_REJECTIONS = 100


class IllegalAnswers(RulesRuntimeError):
    """A player kept answering one decision with illegal actions (``MAX_REJECTIONS`` in a
    row); the message names the seat, the phase and the last reason."""


class _SampledJudge:
    """Answers a seat's questions about its own decision from :func:`view_state` of its
    view (made on first use); it holds the engine (the rules), the view and that state,
    and nothing else."""

    __slots__ = ("_engine", "_view", "_state", "_masked")

    def __init__(self, engine: Engine, view: View | None, masked: bool = False, state: State | None = None):
        """``masked``: the checks read only what the seat sees (``Engine.public_checks``):
        the state is :func:`masked_state` of the view, not dealt from it; ``state``: that
        state, made already (:func:`seat_masked_state`, for a player that reads no view)."""
        self._engine = engine
        self._view = view
        self._state = state
        self._masked = masked

    def _sampled(self) -> State:
        if self._state is None:
            self._state = (masked_state if self._masked else view_state)(self._engine, self._view)
        return self._state

    def check(self, action: Action) -> str | None:
        """None if ``action`` is legal in the sampled state, else why not."""
        return self._engine.why_illegal(self._sampled(), action)

    def legal(self, action: Action) -> bool:
        """Whether ``action`` is legal in the sampled state."""
        return self._engine.is_legal(self._sampled(), action)

    def actions(self, limit: int | None = None, largest_first: bool = False,
                budget: int | None = None) -> list[Action]:
        """Concrete legal actions in the sampled state (see ``Engine.legal_actions``)."""
        return self._engine.legal_actions(self._sampled(), limit, largest_first, budget)


class _OptionJudge:
    """Answers a seat's questions about a decision whose options are all ``exact`` from the
    options alone (an action within an exact option is legal): for a player that reads no
    view (``uses_view`` False), so that no view is made for it."""

    __slots__ = ("_options",)

    def __init__(self, options: tuple):
        self._options = options

    def check(self, action: Action) -> str | None:
        """None if ``action`` lies within one of the options, else why not."""
        option = next((o for o in self._options if o.name == action.name), None)
        if option is None:
            names = ", ".join(o.name for o in self._options)
            return f"'{action.name}' is not an action here (the actions are: {names})"
        return option_reason(option, action)

    def legal(self, action: Action) -> bool:
        """Whether ``action`` lies within one of the options."""
        return self.check(action) is None

    def actions(self, limit: int | None = None, largest_first: bool = False,
                budget: int | None = None) -> list[Action]:
        """The concrete actions of the options (see ``Engine.legal_actions``), at most
        ``limit``; ``budget`` caps the candidates listed per option."""
        out: list[Action] = []
        for o in self._options:
            cards = [()]
            if o.cards is not None:
                high = len(o.cards) if o.high is None else min(o.high, len(o.cards))
                cards = multisets(o.cards, o.low, high, largest_first)
            domains = [tuple(reversed(v)) if largest_first else v for _, v in o.params]
            for examined, (chosen, values) in enumerate(product(cards, product(*domains)), start=1):
                if budget is not None and examined > budget:
                    break
                out.append(Action(o.name, chosen, values))
                if limit is not None and len(out) >= limit:
                    return out
        return out


def player_decision(engine: Engine, view: View, decision: Decision,
                    rejected: tuple | None = None) -> Decision:
    """The decision as a player of ``view.seat`` receives it.

    It carries ``decision``'s seat, phase, kind and options (plain values) and ``rejected``
    ((Action, reason) or None); its ``check`` and ``actions`` answer from a state sampled
    from ``view`` (:func:`view_state`: the cards the seat cannot place dealt into the
    hidden zones in the deck's order), made the first time either is called, so a player
    that calls neither pays nothing; where the phase's checks read only what the seat sees
    (``Engine.public_checks``), the state is :func:`masked_state` of the view, made
    without a deal. Nothing reachable from it leads to the state
    ``decision`` was made from or to the match's generator. Where a rule reads cards the
    seat cannot see, the sampled answer may differ from the true one: ``play_match``
    judges the returned action on the true state and asks again.

    Raises:
        ValueError: (on the first ``check``/``actions``) the view does not fit the deck.
    """
    public = engine.public_checks[engine.phase_index(decision.phase)]
    judge = _SampledJudge(engine, view, public)
    return Decision(decision.seat, decision.phase, decision.kind, decision.options,
                    judge.check, judge.actions, rejected, legal=judge.legal, guessed=not public)


#: the version of the log format this module writes (the header's ``format``)
LOG_FORMAT = 2


def rulekit_version() -> str:
    """The installed rulekit's version (the header's ``rulekit``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulekit")
    except PackageNotFoundError:            # run from a source tree that is not installed
        from .. import __version__
        return __version__


def file_digest(path: str) -> str:
    """The SHA-256 of the bytes of the file at ``path``, in hexadecimal.

    Raises:
        OSError: the file cannot be read; :class:`rulekit.files.Refused` (an OSError) when
            it is no regular file or larger than a rules file may be (1 MiB).
    """
    from ..files import MAX_RULES_BYTES, read_regular

    return hashlib.sha256(read_regular(path, MAX_RULES_BYTES, "rules file")).hexdigest()


def log_header(engine: Engine, path: str, n: int, seed: int | None, lineup: Sequence[str],
               seat: int | None = None) -> dict:
    """The first record of a log file: what it takes to play the match again.

    ``{"type": "header", "rulekit": version, "file": path (as given), "sha256": of the
    file's bytes, "variants": [...], "players": n, "seed": seed, "lineup": [kind per
    seat], "format": LOG_FORMAT}``. With ``seat`` (a log of what one seat saw), the header
    names that seat (``"seat": "P1"``) and leaves the seed out: the seed recomputes every
    shuffle and roll, so it would tell the seat every hidden card.

    Raises:
        OSError: the file at ``path`` cannot be read.
    """
    header = {"type": "header", "rulekit": rulekit_version(), "file": path, "sha256": file_digest(path),
              "game": engine.game.title, "variants": list(engine.game.applied), "players": n, "seed": seed,
              "lineup": list(lineup), "format": LOG_FORMAT}
    if seat is not None:
        del header["seed"]
        header["seat"] = seat_name(seat)
    return header


class LogNames:
    """How a log names the things of one game for ``n`` seats: seats as the screen does
    (P1, P2, …), zone instances by name and owner ("hand of P2", "stock"), cards by label.
    Made once per engine and seat count (:meth:`of`)."""

    __slots__ = ("engine", "n", "zones", "declared", "labels", "counters", "__weakref__")

    _made: "weakref.WeakKeyDictionary[Engine, dict]" = weakref.WeakKeyDictionary()

    def __init__(self, engine: Engine, n: int):
        cg = engine.cg
        self.engine = engine
        self.n = n
        self.zones = tuple(cg.zones[zi].name + (f" of {seat_name(owner)}" if owner >= 0 else "")
                           for zi, owner in cg.zone_owners(n))
        self.declared = tuple(z.name for z in cg.zones)
        self.labels = tuple(k.label for k in engine.kinds)
        bases = cg.counter_base(n)
        self.counters = tuple((decl.name, bases[ci], decl.per_player) for ci, decl in enumerate(engine.game.counters))

    @classmethod
    def of(cls, engine: Engine, n: int) -> "LogNames":
        per = cls._made.get(engine)
        if per is None:
            per = cls._made[engine] = {}
        names = per.get(n)
        if names is None:
            names = per[n] = cls(engine, n)
        return names

    def seat(self, seat) -> str | None:
        """"P1" for seat 0; None for None or a number that is no seat."""
        return seat_name(seat) if isinstance(seat, int) and 0 <= seat < self.n else None

    def zone(self, slot) -> str | None:
        """The name of a zone instance ("hand of P2", "stock"); None for none (-1)."""
        return self.zones[slot] if isinstance(slot, int) and 0 <= slot < len(self.zones) else None

    def cards(self, kinds) -> list:
        """Card labels; a card hidden from a seat (None) stays None."""
        labels = self.labels
        return [None if k is None else labels[k] for k in kinds]

    def counter_values(self, values) -> dict:
        """A flat tuple of counter values as {name: value} or, per player, {name: {"P1": …}}."""
        out = {}
        for name, base, per_player in self.counters:
            if per_player:
                out[name] = {seat_name(s): values[base + s] for s in range(self.n)}
            else:
                out[name] = values[base]
        return out

    def event(self, event: Event) -> dict:
        """The record of an event (see :func:`event_record`)."""
        kind = event.kind
        data = {}
        for key, value in event.data.items():
            if key in ("cards", "order"):
                value = self.cards(value)
            elif key in ("to", "from", "zone", "zones"):
                if kind == "deal" and key == "zone":
                    value = self.declared[value]         # 'deal N to each ZONE': the zone, not one instance
                elif isinstance(value, int):
                    value = self.zone(value)
                else:
                    value = [self.zone(s) for s in value]
            elif key in ("groups", "dealt"):
                value = [[self.zone(s), self.cards(ks)] for s, ks in value]
            elif key == "seat" or key == "value" and kind == "pick":
                value = self.seat(value) if isinstance(value, int) else value   # a random pick names its seat
            elif key == "winners":
                value = [seat_name(s) for s in value]
            elif key == "votes":
                value = {seat_name(s): v for s, v in enumerate(value)}
            elif key == "counters":
                value = self.counter_values(value)
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            data[key] = value
        record = {"type": "event", "kind": kind, "data": data}
        if event.seat is not None:
            record["to"] = seat_name(event.seat)                # a private show: for that seat alone
        return record

    def choice(self, action: Action, decision: Decision | None = None) -> dict:
        """What an action chose, as people name it: {"action", "cards" (labels), "params"}.

        A value is written as its option names it (``Option.shown``: "P2", a symbol's name,
        "#1" for a place) when that differs from the plain number; ``decision`` is a
        decision with texts (``Engine.decision(state)``) that offers the action."""
        params = [list(v) if isinstance(v, tuple) else v for v in action.params]
        if action.params and decision is not None:
            for option in decision.options:
                if option.name == action.name and len(option.shown) == len(action.params):
                    for i, (v, (_, values), shown) in enumerate(zip(action.params, option.params, option.shown)):
                        if v in values:
                            text = shown[values.index(v)]
                            if not (type(v) is int and text == str(v)):
                                params[i] = text
                    break
        return {"action": action.name, "cards": self.cards(action.cards), "params": params}


def event_record(engine: Engine, event: Event, n: int) -> dict:
    """The log record of an event of a match of ``n`` seats: ``{"type": "event", "kind",
    "data"}``, and ``"to": "P2"`` for a ``show`` to one seat. Seats are named P1…, zone
    instances by name and owner ("hand of P2", "stock"; a ``deal`` names the zone each seat
    receives in), cards and shuffle orders by label, counters by name
    (``{"score": {"P1": 3, …}}``) and votes by seat. A card hidden from a seat (an event as
    :meth:`Engine.observe` gives it) is null."""
    return LogNames.of(engine, n).event(event)


def action_record(engine: Engine, step: int, state: State, action: Action, decision: Decision | None = None) -> dict:
    """The log record of the decision ``action`` taken in ``state`` (the ``step``-th of the
    match): ``{"type": "decision", "step", "seat": "P1", "phase", "action", "cards"
    (labels), "params"}``; a value its option names otherwise than as a plain number is
    written as named ("P2", a symbol's name). ``decision``: ``Engine.decision(state)`` with
    texts, when the caller has it (else it is made when the action chooses values)."""
    names = LogNames.of(engine, state.n)
    if action.params and (decision is None or not any(o.shown for o in decision.options)):
        decision = engine.decision(state, True)
    return {"type": "decision", "step": step, "seat": seat_name(engine.decider(state)),
            "phase": engine.cg.phase_list[state.phase].name, **names.choice(action, decision)}


def view_record(engine: Engine, view: View) -> dict:
    """A seat's :class:`View` as plain JSON, named as a log names things: the phase, deal
    and deciding seat; every zone instance with its count (null when hidden) and its cards
    (null when the seat may not see them), and its dice per die where it holds dice; the
    counters (a value the seat may not see is null); the named seats; the standing claim
    (its name, values, text, claimant, number of cards and zone); the cards the seat was
    shown or remembers (``known``); who voted, who is still to be asked, the groups and who
    is out. Nothing in it comes from outside the view."""
    n = view.players
    names = LogNames.of(engine, n)
    zones = []
    die_names = engine.die_names
    for i, (name, owner, count, cards) in enumerate(view.zones):
        zone = {"zone": name + (f" of {seat_name(owner)}" if owner is not None else ""), "count": count,
                "cards": None if cards is None else names.cards(cards)}
        if view.dice and view.dice[i] is not None and any(view.dice[i]):
            zone["dice"] = {d: c for d, c in zip(die_names, view.dice[i]) if c}
        zones.append(zone)
    counters = {}
    for name, value in view.counters:
        counters[name] = ({seat_name(s): v for s, v in enumerate(value)} if isinstance(value, tuple) else value)
    claim = None
    if view.claim is not None:
        cname, values, claimant, count, slot = view.claim
        claim = {"claim": cname, "args": [list(v) if isinstance(v, tuple) else v for v in values],
                 "text": view.claim_text, "by": names.seat(claimant), "cards": count, "zone": names.zone(slot)}
    return {"phase": view.phase, "deal": view.deal, "decider": names.seat(view.decider), "zones": zones,
            "counters": counters, "seats": {name: names.seat(s) for name, s in view.seats}, "claim": claim,
            "known": [{"zone": name + (f" of {seat_name(owner)}" if owner is not None else ""),
                       "cards": names.cards(cards)} for name, owner, cards in view.known],
            "voted": [seat_name(s) for s in view.voted], "poll": [seat_name(s) for s in view.poll],
            "groups": {name: [seat_name(s) for s in seats] for name, seats in view.groups},
            "out": [seat_name(s) for s in sorted(range(n), key=lambda s: view.out[s]) if view.out[s]]
            if view.out else []}


def play_match(engine: Engine, players: list, n: int, seed: int | None,
               on_events: Callable[[State, Iterable[Event]], None] | None = None,
               max_steps: int = MAX_DECISIONS, keep_log: bool = True,
               texts: bool | None = None,
               on_step: Callable[..., None] | None = None, log: list | None = None,
               knowledge: bool = True) -> MatchRecord:
    """Play one match to its end.

    Each player is given its seat's view and :func:`player_decision` (never the state or
    the match's generator). Its answer is judged on the true state; an illegal one (or
    one that is not an :class:`Action`) is asked again, with ``decision.rejected`` set to
    (answer, reason); rejected answers cost no chance and leave no trace in the log.

    Args:
        engine: the game.
        players: one player per seat (``choose(view, decision) -> Action``).
        n: the number of seats.
        seed: the seed of chance (shuffles, dice); None for a fresh random seed.
        on_events: called after every step with the new state and its events.
        on_step: the form of ``on_events`` for a match played by steps (when nothing else
            records events: no log, no player reading the history), called instead of it so
            that no event is made for it: with (now, None, None, None) before the first
            decision, and with (now, the deciding seat, its phase, its action) after every
            step. ``now`` is a :class:`Progress` (the state, and the claimants of the claims
            made so far). Given only with ``on_events``.
        max_steps: a bound on decisions; reaching it raises ``MatchTooLong``.
        keep_log: build the log (a JSON-ready record of every decision and event:
            :func:`action_record`, :func:`event_record`; a file adds :func:`log_header`
            before it); with False the record's ``log`` is empty and no record is built,
            for simulations.
        log: the list the records are added to, instead of a new one (with ``keep_log``):
            ``append`` for a decision's record, then one ``extend`` with its events (the
            setup's events: one ``extend``). A :class:`rulekit.play.replay.LogFile` writes
            them to a file as the match goes.
        texts: give events their texts (labels, claims' words, log lines); None (the
            default): when there is a log, an ``on_events`` or a player that reads texts;
            False for an ``on_events`` that reads none (a simulation's statistics).
            Events themselves are recorded only when there is a log, an ``on_events`` or
            a player that reads the history; without them, the match is played state
            after state by the game's steps (``Engine.stepper``), no event made.
        knowledge: with False, a match played by steps in which no view is ever made (no
            player reads one, and every phase's checks read only what the deciding seat
            sees) tracks nothing of which cards each seat was shown or remembers, as
            ``Engine.working_copy(state, knowledge=False)`` does: the same match, cheaper
            where much is known; the states ``on_step`` reads and the record's state then
            have ``known`` None (no view can be made of them). Elsewhere it is tracked
            anyway. ``simulate`` plays so.

    Raises:
        OptionError: the player count does not fit the game.
        ValueError: ``on_step`` without ``on_events``.
        MatchTooLong: the match did not end within ``max_steps`` decisions (it carries
            the record of what was played).
        IllegalAnswers: a player answered one decision illegally ``MAX_REJECTIONS`` (100)
            times in a row (a ``RulesRuntimeError``).
        RulesRuntimeError: the rules reached a state they do not say how to leave (its
            ``record`` attribute holds what was played until then); or the game's
            generated code failed (a defect of rulekit): the message names the line of
            the ``.rules`` file it ran, the original exception is its ``__cause__``.
        BaseException: whatever a player or ``on_events`` raised (KeyboardInterrupt on
            Ctrl-C, EOFError at the end of a person's input…) passes through, with a
            ``record`` attribute set to the :class:`MatchRecord` of what was played until
            then (its ``winners`` empty), so that a caller can still write the log.
    """
    if len(players) != n:
        raise OptionError(f"{len(players)} players for {n} seats")
    if on_step is not None and on_events is None:
        raise ValueError("on_step is the in-place form of on_events: give both")
    match = _Match(engine, players, n, random.Random(seed), on_events, on_step, max_steps, keep_log, log)
    state, events = engine.new_match(n, match.rng, match.recorded)
    if keep_log:
        match.log.extend([event_record(engine, e, n) for e in events])
    # the texts of events (labels, claims, log lines) only for a log, a narrator or a reader
    if texts is None:
        texts = keep_log or on_events is not None or any(match.reads_texts[s] for s in match.readers)
    try:
        match.perceive(events)
        if on_events and match.recorded:        # played by steps, ``on_step`` is told of the start
            on_events(state, events)
        if not match.recorded:
            if not knowledge and not any(match.reads_view) and all(match.public):
                state = engine.snapshot(engine.working_copy(state, knowledge=False))     # nobody reads it
            state = match.play_by_steps(state, engine.stepper(n))
        state = match.play_with_states(state, texts)
    except BaseException as exc:
        # what was played, for the log: after a runtime error, and when the match is
        # stopped (Ctrl-C, the end of a person's input, a player's own exception); in a
        # match played by steps, the state before the failing step
        if getattr(exc, "record", None) is None:
            try:
                exc.record = MatchRecord(match.state, match.steps, match.log, ())
            except (AttributeError, TypeError):     # an exception that takes no attributes
                pass
        defect = defect_at_line(exc)         # generated code failed: say at which line of the rules
        if defect is not None:
            defect.record = getattr(exc, "record", None)
            raise defect from exc
        raise
    return MatchRecord(state, match.steps, match.log, state.winners)


class Progress:
    """What ``on_step`` reads of a match played by steps (see ``_Match.play_by_steps``), as
    it reads the match: the ``state`` now, its standing ``claim`` and ``deal``, and
    ``made``, the claimants of the claims made so far in the match, in order (seats)."""

    __slots__ = ("state", "claim", "made")

    def __init__(self, state: State, made: list):
        self.state, self.claim, self.made = state, state.claim, made

    @property
    def deal(self) -> int:
        return self.state.deal


class _Match:
    """One match of :func:`play_match` while it is played: the players and what each reads,
    each seat's public history, the log, the decisions made (``steps``) and the state."""

    def __init__(self, engine: Engine, players: list, n: int, rng: random.Random, on_events, on_step,
                 max_steps: int, keep_log: bool, log: list | None):
        self.engine, self.players, self.n, self.rng = engine, players, n, rng
        self.on_events, self.on_step, self.max_steps, self.keep_log = on_events, on_step, max_steps, keep_log
        self.log = log if log is not None and keep_log else []
        self.seen: list[list] = [[] for _ in range(n)]        # each seat's public history
        # only for the players that read it (``uses_history``): nobody else pays for it
        self.readers = [s for s, p in enumerate(players) if getattr(p, "uses_history", False)]
        # events only for a log, an ``on_events`` or a player that reads the history
        self.recorded = keep_log or (on_events is not None and on_step is None) or bool(self.readers)
        # option labels and value names only for the players that read them (bots say they do not)
        self.reads_texts = [getattr(p, "uses_texts", True) for p in players]
        self.same_texts = self.reads_texts[0] if len(set(self.reads_texts)) == 1 else None   # every seat alike
        # a view only for the players that read it, or whose decision needs one to be judged
        self.reads_view = [getattr(p, "uses_view", True) or getattr(p, "uses_history", False) for p in players]
        self.public = engine.public_checks
        # each seat's ``choose_by_trying`` (see RandomBot's), None where its player offers
        # none or replaced its ``choose``: in a match played by steps, where its checks are
        # public, its choices are judged by taking them (see draw_in_place)
        self.triers = [None if "choose" in vars(p) else getattr(p, "choose_by_trying", None) for p in players]
        self.by_options: dict = {}    # phase index -> (options, their judge, {seat: its decision})
        self.steps = 0
        self.state: State | None = None

    def perceive(self, events) -> None:
        """Each reading seat's history gets what it perceives of ``events``."""
        engine, n, seen = self.engine, self.n, self.seen
        for e in events:
            for s in self.readers:
                o = engine.observe(e, s, n)
                if o is not None:
                    seen[s].append(o)

    def play_by_steps(self, state: State, step: Callable) -> State:
        """Play while nothing reads an event between steps (``step``: see ``Engine.stepper``):
        state after state, each made by one call and no event recorded (a view is made
        only for a player that reads one); ``on_step`` reads a :class:`Progress`. The
        state at the end."""
        engine, rng, on_step, max_steps = self.engine, self.rng, self.on_step, self.max_steps
        decide, decider, take = engine.decide, engine.decider, self.take
        same_texts, reads_texts = self.same_texts, self.reads_texts
        progress = made = None
        if on_step:
            progress = Progress(state, [])
            made = progress.made
            on_step(progress, None, None, None)
        self.state = state

        def attempt(action: Action) -> None:
            self.state = step(self.state, action, rng, made)

        def now() -> State:
            return self.state

        while state.phase >= 0:                 # not state.is_terminal
            if self.steps >= max_steps:
                raise self.too_long(state)
            seat, phase, options = decide(
                state, same_texts if same_texts is not None else reads_texts[decider(state)])
            action = take(seat, phase, options, now, attempt)
            state = self.state
            if on_step:
                progress.state = state
                progress.claim = state.claim
                on_step(progress, seat, phase, action)
            self.steps += 1
        return state

    def take(self, seat: int, phase, options: tuple, now: Callable[[], State], attempt: Callable) -> Action:
        """The action the player at ``seat`` takes among ``options``, taken by ``attempt`` in a
        match played without events: drawn by its ``choose_by_trying`` where that judges
        as its ``choose`` would (see :meth:`draw_in_place`), else asked (:meth:`answer`).

        Raises:
            RulesRuntimeError: there is no option (the rules left the seat stuck).
        """
        if not options:
            raise self.stuck(seat, phase)
        trier = self.triers[seat]
        if trier is not None and (self.public[phase.index] or all(map(_EXACT, options))):
            return self.draw_in_place(seat, phase, options, trier, now, attempt)
        return self.answer(seat, phase, options, now, attempt)[0]

    def play_with_states(self, state: State, texts: bool) -> State:
        """Play state after state, recording the events (``texts``: with their texts) for
        the log, the histories and ``on_events``; the state at the end."""
        engine, rng, recorded, keep_log, log, n = self.engine, self.rng, self.recorded, self.keep_log, self.log, self.n
        decide, apply, answer = engine.decide, engine.apply, self.answer
        same_texts, reads_texts, on_events = self.same_texts, self.reads_texts, self.on_events
        self.state = state
        attempt = lambda action: apply(self.state, action, rng, texts, recorded)     # noqa: E731 (reads it now)
        now = lambda: self.state                                                    # noqa: E731
        while state.phase >= 0:                 # not state.is_terminal
            if self.steps >= self.max_steps:
                raise self.too_long(state)
            seat, phase, options = decide(
                state, same_texts if same_texts is not None else reads_texts[engine.decider(state)])
            if not options:
                raise self.stuck(seat, phase)
            action, decision, (new_state, events) = answer(seat, phase, options, now, attempt)
            if keep_log:
                log.append(action_record(engine, self.steps, state, action, decision))
                log.extend(event_record(engine, e, n) for e in events)
            state = self.state = new_state
            if self.readers:
                self.perceive(events)
            if on_events:
                on_events(state, events)
            self.steps += 1
        return state

    def draw_in_place(self, seat: int, phase, options: tuple, trier: Callable, now: Callable[[], State],
                      attempt: Callable) -> Action:
        """The action of the player at ``seat`` by its ``choose_by_trying`` (``trier``),
        taken by ``attempt`` (the step): what its ``choose`` answers, each choice
        judged by trying it (an illegal one changes nothing) instead of on a masked state.
        Used where that judgement is the same: the phase's checks read only what the seat
        sees (``Engine.public_checks``), or every option is ``exact`` (never checked). So
        the player's play, and the match, are those of ``answer``, with no view, masked
        state or :class:`Decision` made (one is made only when the player asks for the
        listing of an option's legal actions). A refused answer goes on as ``answer`` goes
        on after one."""
        def listing() -> Decision:
            _, judge, _ = self._judge(seat, phase, options, now)
            return Decision(seat, phase.name, phase.kind, options, judge.check, judge.actions, legal=judge.legal,
                            guessed=not self.public[phase.index])
        try:
            return trier(options, attempt, listing)
        except IllegalAction as exc:
            return self.answer(seat, phase, options, now, attempt, (exc.refused, str(exc)))[0]

    def answer(self, seat: int, phase, options: tuple, now: Callable[[], State], attempt: Callable,
               rejected: tuple | None = None):
        """(action, decision, what ``attempt(action)`` returned) for the first answer of
        ``seat`` that ``attempt`` takes (it judges it and raises IllegalAction if not); an
        illegal answer is asked again. ``now()``: the state, for a view; ``rejected``: (the
        answer, why) when the seat's first answer was refused already (by :meth:`draw_in_place`)."""
        view, judge, viewless = self._judge(seat, phase, options, now)
        player = self.players[seat]
        if rejected is not None:
            self._stuck_if_none_legal(seat, phase, now)
        for _ in range(MAX_REJECTIONS - (rejected is not None)):
            if rejected is None and viewless is not None:
                decision = viewless[2].get(seat)
                if decision is None:
                    decision = viewless[2][seat] = Decision(seat, phase.name, phase.kind, options, judge.check,
                                                            judge.actions, legal=judge.legal)
            else:
                decision = Decision(seat, phase.name, phase.kind, options, judge.check, judge.actions, rejected,
                                    legal=judge.legal, guessed=viewless is None and not self.public[phase.index])
            action = player.choose(view, decision)
            if not isinstance(action, Action):
                rejected = (action, f"a player must answer with an Action, not {type(action).__name__}")
                continue
            try:       # the match judges the action on the true state before anything happens
                return action, decision, attempt(action)
            except IllegalAction as exc:
                if rejected is None:
                    self._stuck_if_none_legal(seat, phase, now)
                rejected = (action, str(exc))
        raise IllegalAnswers(f"{seat_name(seat)} answered '{phase.name}' with {MAX_REJECTIONS} illegal "
                             f"actions in a row (the last: {rejected[1]})")

    def _stuck_if_none_legal(self, seat: int, phase, now: Callable[[], State]) -> None:
        """After a refused answer: raise :meth:`stuck` when the seat has no legal action at
        all (an option whose check reads cards it cannot see is offered whether or not a
        choice of it passes, so that offering it tells nothing: with no other, the rules
        left the seat stuck, and asking again would never end).

        Raises:
            RulesRuntimeError: the seat has no legal action."""
        if not self.engine.legal_actions(now(), 1):
            raise self.stuck(seat, phase)

    def _judge(self, seat: int, phase, options: tuple, now: Callable[[], State]) -> tuple:
        """(the seat's view or None, the judge of its answers, the phase's (options, judge,
        decisions) when they are judged from exact options alone, else None)."""
        # a player that reads no view, deciding among exact options, is judged from them
        # alone; a phase whose options are the same object again (constant options)
        # keeps its judge and each seat's first asking
        engine = self.engine
        viewless = None
        if not self.reads_view[seat]:
            viewless = self.by_options.get(phase.index)
            if viewless is None or viewless[0] is not options:
                viewless = None
                if all(map(_EXACT, options)):
                    viewless = self.by_options[phase.index] = (options, _OptionJudge(options), {})
        if viewless is not None:
            return None, viewless[1], viewless
        if not self.reads_view[seat] and self.public[phase.index]:
            # checks that read only what the seat sees need no view, nor a deal of the cards
            # it cannot see: the state with everything else blanked
            return None, _SampledJudge(engine, None, True, seat_masked_state(engine, now(), seat)), None
        seen = self.seen[seat]
        view = engine.view(now(), seat, History(seen, len(seen)) if self.readers else (), self.reads_texts[seat])
        return view, _SampledJudge(engine, view, self.public[phase.index]), None

    def too_long(self, state: State) -> "MatchTooLong":
        phase = self.engine.cg.phase_list[state.phase]
        return MatchTooLong(MatchRecord(state, self.steps, self.log, ()), self.max_steps,
                            f"'{phase.name}' (line {phase.span.line})")

    @staticmethod
    def stuck(seat: int, phase) -> RulesRuntimeError:
        return RulesRuntimeError(f"{seat_name(seat)} must decide in '{phase.name}' but has no legal action "
                                 f"(line {phase.span.line})")
