"""Many bot matches of one game: in this process, in local worker processes, or on Ray.

Match ``k`` (0-based) of a simulation whose seed is ``S`` is played with the seed ``S + k``
by fresh bots whose generators are derived from that seed (:func:`rulekit.players.seat_rng`).
A match's outcome therefore depends only on the game, the bots, the player count and its
seed, never on the process that plays it. The matches are split into chunks of
consecutive matches; the chunks are played wherever there is a free worker and their
outcomes are put back in match order, then added up in that order in the calling process,
so the totals (float sums included) are the same, bit for bit, for one worker, for many,
and on Ray.

A worker is given the rules text, not a path (nodes of a cluster need not have the file);
it builds the game once per process (:func:`engine_for` keeps it) and reuses it for every
chunk it plays.

Besides who won, each match is read as it is played (the ``on_events`` callback of
:func:`rulekit.play.match.play_match`, here only: the engine does no more work for anyone else)
for its length in turns and deals and for the claims its rules declare: how many were made,
how many were false when made, which were challenged and whether the challenge caught a lie
(see :func:`challenge_actions` and docs/simulate.md). These figures are part of the match's
outcome, so they too are the same for any number of workers and on Ray.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterator

import attrs

from . import stats
from ..bounds import MAX_DECISIONS
from ..engine.core import DECLINE
from ..sema.flow import challenge_actions

#: the bots a simulation can seat: "generic" (``GenericBot``) or "random" (``RandomBot``)
from ..bots import bot_kind

#: chunks per worker: enough for the load to even out (matches differ a lot in length; with
#: 8, a worker could sit idle for the last 15% of a run) and for a progress bar to move,
#: few enough that their cost (a millisecond or so each) does not count
CHUNKS_PER_WORKER = 32
LEAD = 4                # chunks handed to the pool ahead, per spawned worker


def _per_seat(bots, spec: "SimulationSpec") -> tuple[str, ...]:
    """``bots`` as one kind per seat: a single kind (a string) sits at every seat."""
    if isinstance(bots, str):
        return (bots,) * spec.players
    return tuple(bots)


def _check_bots(spec: "SimulationSpec", attribute, bots: tuple) -> None:
    if len(bots) != spec.players:
        raise ValueError(f"bots: {len(bots)} given for {spec.players} seats (one per seat)")
    for b in bots:
        bot_kind(b)             # raises ValueError naming the bots


@attrs.frozen
class SimulationSpec:
    """What to simulate (everything a worker needs; it pickles small).

    Attributes:
        text: the rules text (a ``.rules`` file's content).
        path: the file's name, used in error messages only.
        variants: the variants to apply, in order.
        players: the number of seats.
        bots: which bot sits at each seat, a bot name of :data:`rulekit.bots.BOTS` per seat (a tuple as long
            as ``players``); a single kind given as a string sits at every seat.
        seed: the seed of match 0; match ``k`` is played with ``seed + k``.
        max_decisions: a match that has not ended after this many decisions is unfinished.
        rotate: rotate the line-up over the seats: match ``k`` seats ``bots`` shifted by
            ``k`` places (:meth:`lineup`), so that over ``players`` matches each bot sits
            once at each seat.
    """

    text: str
    path: str
    variants: tuple[str, ...] = attrs.field(converter=tuple)
    players: int
    bots: tuple[str, ...] = attrs.field(converter=attrs.Converter(_per_seat, takes_self=True),
                                        validator=_check_bots)
    seed: int
    max_decisions: int = MAX_DECISIONS
    rotate: bool = False

    def lineup(self, match: int) -> tuple[str, ...]:
        """The bot at each seat in match ``match`` (0-based): ``bots`` itself, or with
        ``rotate`` the line-up moved ``match`` seats on (seat ``s`` gets
        ``bots[(s - match) % players]``: the bot of P1 in match 0 sits at P2 in match 1)."""
        if not self.rotate:
            return self.bots
        n = self.players
        return tuple(self.bots[(s - match) % n] for s in range(n))


@attrs.frozen
class MatchOutcome:
    """How one match of a simulation ended, and what was played in it.

    The figures after ``decisions`` count what was played up to the end of the match (or
    up to its stop, if unfinished); the per-seat ones are tuples by seat (0 = P1).

    Attributes:
        match: its number in the simulation, 0-based.
        seed: the seed it was played with (the simulation's seed + ``match``).
        finished: False if it had not ended after ``max_decisions`` decisions.
        winners: the winning seats (0 = P1), in the engine's order; () if unfinished.
        returns: each seat's result (``Engine.returns``), by seat; () if unfinished.
        decisions: the decisions played (``max_decisions`` if unfinished).
        bots: the bot at each seat (:meth:`SimulationSpec.lineup`).
        turns: the actions taken in phases declared ``turn`` (not window actions, declines
            or votes).
        deals: the deals begun.
        claims: per seat, the claims it made.
        false_claims: per seat, its claims that were false in the state right after the
            decision that made them.
        unjudged_claims: per seat, its claims that no longer stood at the end of the
            decision that made them (replaced or cleared in the same decision), so that
            their truth was not judged.
        challenges: per seat, its challenges: actions of :func:`challenge_actions` taken
            while another seat's claim stood.
        successful_challenges: per seat, its challenges of a claim that was false.
        lies_caught: per seat, its false claims that were challenged at least once while
            they stood.
    """

    match: int
    seed: int
    finished: bool
    winners: tuple[int, ...]
    returns: tuple
    decisions: int
    bots: tuple[str, ...] = ()
    turns: int = 0
    deals: int = 0
    claims: tuple[int, ...] = ()
    false_claims: tuple[int, ...] = ()
    unjudged_claims: tuple[int, ...] = ()
    challenges: tuple[int, ...] = ()
    successful_challenges: tuple[int, ...] = ()
    lies_caught: tuple[int, ...] = ()


#: the per-seat counts of a :class:`MatchOutcome` that :class:`Tally` adds up, in this order
COUNTS = ("claims", "false_claims", "unjudged_claims", "challenges", "successful_challenges", "lies_caught")


@attrs.frozen
class Tally:
    """What one seat, or every seat of one bot kind, did over the finished matches.

    Attributes:
        seats: the seats taken: for a seat, the finished matches; for a bot kind, the seats
            it had, added up over the finished matches.
        per_match: how many seats it has in each match (1 for a seat).
        wins: the matches won; a win shared by k seats counts 1/k.
        results: the sum of the results (``Engine.returns``).
        claims, false_claims, unjudged_claims, challenges, successful_challenges,
        lies_caught: the sums of the :class:`MatchOutcome` figures of those names.
    """

    seats: int
    per_match: int
    wins: float
    results: float
    claims: int
    false_claims: int
    unjudged_claims: int
    challenges: int
    successful_challenges: int
    lies_caught: int


@attrs.frozen
class Summary:
    """The totals of a simulation, added up in match order.

    Attributes:
        games: the matches played.
        players: the number of seats.
        wins: per seat, the matches won; a win shared by k seats counts 1/k to each (floats).
        results: per seat, the sum of its results over the finished matches.
        decisions: the decisions of each finished match, in match order.
        unfinished: how many matches had not ended after ``max_decisions`` decisions.
        turns: the turns of each finished match (:attr:`MatchOutcome.turns`), in match order.
        deals: the deals of each finished match, in match order.
        seats: a :class:`Tally` per seat, over the finished matches.
        kinds: (bot kind, its :class:`Tally`) for each kind of bot seated, in the order of
            their first seat in the first match.
        bluffs: per finished match, in match order, the totals over its seats of (claims,
            claims judged, false claims, challenges, successful challenges, lies caught).
        shared: how many finished matches were won by more than one seat.
        win_squares: the sum over the finished matches of each seat's share of the win
            squared (1/k for a match won by k seats), for the fairness test
            (:func:`rulekit.analysis.stats.chi_square_equal_shares`); None when not
            counted (a summary made by hand): the wins are then tested as whole counts.
        result_squares: per seat, the sum of its results squared over the finished
            matches (for the interval of its mean result); None when not counted.
    """

    games: int
    players: int
    wins: tuple
    results: tuple
    decisions: tuple[int, ...]
    unfinished: int
    turns: tuple[int, ...] = ()
    deals: tuple[int, ...] = ()
    seats: tuple = ()
    kinds: tuple = ()
    bluffs: tuple = ()
    shared: int = 0
    win_squares: float | None = None
    result_squares: tuple | None = None

    @property
    def finished(self) -> int:
        """How many matches ended."""
        return self.games - self.unfinished


class MatchFailed(Exception):
    """A match of a simulation stopped with a ``RulesRuntimeError`` (the rules reached a
    state they do not say how to leave, or a bot kept answering illegally).

    Attributes:
        message: the runtime error's message.
        match: the match's number, 0-based (the lowest failing one of the simulation).
        seed: the seed it was played with.
    """

    def __init__(self, message: str, match: int, seed: int):
        super().__init__(message, match, seed)        # so that it pickles back from a worker
        self.message = message
        self.match = match
        self.seed = seed

    def __str__(self) -> str:
        return f"{self.message} (match {self.match + 1}, seed {self.seed})"


#: per process: the engines built so far, by (text, path, variants)
_ENGINES: dict = {}


def engine_for(spec: SimulationSpec):
    """The :class:`~rulekit.engine.Engine` of ``spec``'s game, built once per process.

    Raises:
        RulesError: the text has a syntax or semantic problem.
        OptionError: an unknown variant.
    """
    key = (spec.text, spec.path, spec.variants)
    engine = _ENGINES.get(key)
    if engine is None:
        from ..sema.load import loads
        from ..engine import Engine

        engine = _ENGINES[key] = Engine(loads(spec.text, spec.path, variants=spec.variants))
    return engine


#: per engine (held weakly): what :class:`_Watch` needs to know of its game, found once
_READINGS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _reading(engine):
    """(the indices of turn phases, the challenge actions as (phase index, action name), the
    names of the challenge actions by phase index (none in a vote phase, where no decision
    is a seat's own action)) of ``engine``'s game, made once per engine."""
    got = _READINGS.get(engine)
    if got is None:
        cg = engine.cg
        challengers = frozenset((cg.phases[phase].index, action) for phase, action in challenge_actions(engine.game))
        named = tuple(frozenset() if p.kind == "vote" else
                      frozenset(name for index, name in challengers if index == p.index and name != DECLINE)
                      for p in cg.phase_list)
        got = _READINGS[engine] = (frozenset(p.index for p in cg.phase_list if p.kind == "turn"), challengers, named)
    return got


class _Watch:
    """Reads one match as it is played: its turns and deals, and its claims and challenges
    (see :class:`MatchOutcome`). ``play_match`` tells it of every step in one of two forms,
    both read into :meth:`_tally`: ``on_events`` (:meth:`__call__`) when the match records
    events anyway (a bot reads the history), else ``on_step`` (:meth:`step`), read from the
    progress of a match played by steps. Made once for the matches of ``n`` seats of
    ``engine``'s game that one process plays in turn; :meth:`start` readies it for the next."""

    __slots__ = ("engine", "n", "turn_phases", "challengers", "named", "holds_of", "phase", "claim",
                 "read", "lie", "caught", "turns", "claims", "false_claims", "unjudged_claims", "challenges",
                 "successful_challenges", "lies_caught")

    def __init__(self, engine, n: int):
        self.engine = engine
        self.n = n
        self.turn_phases, self.challengers, self.named = _reading(engine)
        # whether the standing claim of a state is true (a match played by steps)
        self.holds_of = engine.program(n).holds_of or engine.claim_holds_in
        self.start()

    def start(self) -> None:
        """Forget the match read so far: the next step reported is of a new match."""
        n = self.n
        self.phase = None                   # the phase (index) of the decision being reported (on_events)
        self.claim = None                   # the claim standing before the step being reported
        self.read = 0                       # claims of the progress's ``made`` read so far
        self.lie = None                     # the last claim made, if it was false when made
        self.caught = False                 # whether that lie was challenged already
        self.turns = 0
        self.claims = [0] * n
        self.false_claims = [0] * n
        self.unjudged_claims = [0] * n
        self.challenges = [0] * n
        self.successful_challenges = [0] * n
        self.lies_caught = [0] * n

    def __call__(self, state, events) -> None:
        """``on_events``: a step as a new state and its events."""
        seat = name = None
        claimants = []
        for e in events:
            kind = e[0]                     # Event.kind
            if kind == "action":            # the decision's own action (not a decline or a vote)
                seat, name = e[2]["seat"], e[2]["action"]
            elif kind == "claim":
                claimants.append(e[2]["seat"])
        self._tally(self.phase, seat, name, claimants, state, self.engine.claim_holds_in)
        self.phase = state.phase

    def step(self, live, seat, phase, action) -> None:
        """``on_step``: a step read from the ``rulekit.play.match.Progress`` ``live`` of a
        match played by steps (None for the seat, phase and action before the first
        decision). What :meth:`_tally` does (the same :meth:`_challenged` and
        :meth:`_made`), for the steps of a match played by steps: a step in a vote phase or a decline is never
        a turn nor a challenge (see :func:`_reading`), and a decision in a turn phase is
        always the seat's own action (no turn is declined)."""
        claim = self.claim                  # the claim standing before the step
        if phase is not None:
            index = phase.index
            if index in self.turn_phases:
                self.turns += 1
            if claim is not None and action.name in self.named[index] and claim[2] != seat:
                self._challenged(seat, claim)
        claim = self.claim = live.claim
        made = live.made
        if made is None:
            return
        read = self.read
        if len(made) == read:
            return                          # most steps make no claim
        self.read = len(made)
        self._made(made[read:], claim, live.state, self.holds_of)

    def _tally(self, phase, seat, name, claimants, now, holds) -> None:
        """One step: the seat and name of the decision's own action in ``phase`` (an index;
        None for a decline, a vote or no decision), the claimants of the claims the step
        made in order, ``now`` what it led to (a state: its ``claim`` is
        read) and ``holds(now)`` whether the claim standing there is true."""
        claim = self.claim
        if name is not None:
            if phase in self.turn_phases:
                self.turns += 1
            if claim is not None and (phase, name) in self.challengers and claim[2] != seat:
                self._challenged(seat, claim)
        claim = self.claim = now.claim
        if claimants:
            self._made(claimants, claim, now, holds)

    def _challenged(self, seat: int, claim: tuple) -> None:
        """``seat`` challenged the standing ``claim`` (another seat's): a successful
        challenge when the claim is the lie made last, whose liar is caught once."""
        self.challenges[seat] += 1
        lie = self.lie
        if lie is not None and lie == claim:
            self.successful_challenges[seat] += 1
            if not self.caught:
                self.caught = True
                self.lies_caught[claim[2]] += 1

    def _made(self, claimants, claim, now, holds) -> None:
        """A step made claims (``claimants``: their seats, in order); ``claim`` stands in
        ``now`` after it (the last one made, or None when it stands no more), and
        ``holds(now)`` says whether it is true."""
        for s in claimants:
            self.claims[s] += 1
        last = claimants[-1]
        for s in claimants[:-1]:            # a second claim in one decision: the first no longer stands
            self.unjudged_claims[s] += 1
        # only a claim sets a standing claim: one standing now is the last one made
        if claim is None:
            self.unjudged_claims[last] += 1
            self.lie = None
        elif holds(now):
            self.lie = None
        else:
            self.false_claims[last] += 1
            self.lie = claim
            self.caught = False

    def outcome(self, k: int, seed: int, lineup: tuple, finished: bool, winners: tuple, returns: tuple,
                decisions: int, last) -> MatchOutcome:
        """The match's outcome; ``last``: the last state it reached (deals are numbered from
        1, one at a time: its ``deal`` is how many were played)."""
        return MatchOutcome(k, seed, finished, winners, returns, decisions, lineup, self.turns, last.deal,
                            tuple(self.claims), tuple(self.false_claims), tuple(self.unjudged_claims),
                            tuple(self.challenges), tuple(self.successful_challenges), tuple(self.lies_caught))


def play_matches(spec: SimulationSpec, first: int, count: int) -> list[MatchOutcome]:
    """Play matches ``first`` .. ``first + count - 1`` of the simulation ``spec``.

    Returns:
        one :class:`MatchOutcome` per match, in match order.

    Raises:
        MatchFailed: a match stopped with a runtime error (the first one, in match order;
            the matches after it are not played).
        RulesError, OptionError: as :func:`engine_for`.
    """
    engine = engine_for(spec)
    played = []
    try:
        _play_into(played, engine, spec, first, count)
    except BaseException as exc:
        if not isinstance(exc, Exception):
            exc.played = played             # Ctrl-C…: the matches of the chunk played before it
        raise
    return played


def _play_into(played: list, engine, spec: SimulationSpec, first: int, count: int) -> None:
    """:func:`play_matches`, each outcome appended to ``played`` as its match ends."""
    from ..errors import RulesRuntimeError
    from ..play.match import MatchTooLong, play_match
    from ..players import bot_maker

    n = spec.players
    # made once for the chunk: each kind's maker of bots (a bot is made for each match, from
    # its seed and seat alone) and the reader of the statistics
    makers = {kind: bot_maker(kind, engine, source=spec.text, variants=spec.variants, players=n) for kind in spec.bots}
    watch = _Watch(engine, n)
    for k in range(first, first + count):
        seed = spec.seed + k
        lineup = spec.lineup(k)
        bots = [makers[kind](seed, s) for s, kind in enumerate(lineup)]
        watch.start()
        try:
            record = play_match(engine, bots, n, seed, watch, max_steps=spec.max_decisions, keep_log=False,
                                texts=False, on_step=watch.step, knowledge=False)
            returns = tuple(float(r) if type(r) is not int else r for r in engine.returns(record.state))
        except MatchTooLong as exc:
            played.append(watch.outcome(k, seed, lineup, False, (), (), exc.bound, exc.record.state))
            continue
        except RulesRuntimeError as exc:
            raise MatchFailed(str(exc), k, seed) from None
        played.append(watch.outcome(k, seed, lineup, True, tuple(record.winners), returns, record.steps,
                                    record.state))


def summarize(outcomes, players: int) -> Summary:
    """Add up outcomes in the order given (match order, for totals that do not depend on
    how the matches were shared out).

    Args:
        outcomes: :class:`MatchOutcome` s, in match order.
        players: the number of seats.

    Raises:
        whatever drawing the next outcome raises; an interruption there (a
        ``KeyboardInterrupt``, or any other ``BaseException`` that is not an ``Exception``)
        carries, as its ``summary`` attribute, the :class:`Summary` of the outcomes drawn
        before it and of those it carries as its ``played`` attribute (the matches played
        besides, in match order: :func:`outcomes` sets it), added up in that order
        (``simulate`` stopped by Ctrl-C prints those).
    """
    totals = _Totals(players)
    drawn = iter(outcomes)
    stopped = None
    while True:
        try:
            o = next(drawn)
        except StopIteration:
            if stopped is not None:         # the summary of what was played, and the interruption goes on
                stopped.summary = totals.summary()
                raise stopped from None
            break
        except BaseException as exc:
            if isinstance(exc, Exception) or stopped is not None:
                raise
            # stopped while matches were played: add up those played besides, then raise it
            stopped = exc
            drawn = iter(getattr(exc, "played", ()))
            continue
        totals.add(o)
    return totals.summary()


class _Totals:
    """The running totals of :func:`summarize`: per seat, per bot kind and per match."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.wins: list = [0] * players
        self.results: list = [0] * players
        self.result_squares: list = [0] * players
        self.decisions: list = []
        self.turns: list = []
        self.deals: list = []
        self.bluffs: list = []
        self.seat_counts = [[0] * len(COUNTS) for _ in range(players)]
        self.kinds: dict = {}               # kind -> [seats, per match, wins, results, *counts]
        self.games = self.unfinished = self.shared = 0
        self.win_squares = 0.0

    def summary(self) -> Summary:
        """The :class:`Summary` of the outcomes added so far."""
        players, decisions, wins, results = self.players, self.decisions, self.wins, self.results
        seats = tuple(Tally(len(decisions), 1, wins[s], results[s], *self.seat_counts[s]) for s in range(players))
        return Summary(self.games, players, tuple(wins), tuple(results), tuple(decisions), self.unfinished,
                       tuple(self.turns), tuple(self.deals), seats,
                       tuple((kind, Tally(*row)) for kind, row in self.kinds.items()), tuple(self.bluffs), self.shared,
                       self.win_squares, tuple(self.result_squares))

    def add(self, o: MatchOutcome) -> None:
        """Add one match's outcome."""
        players = self.players
        self.games += 1
        if not o.finished:
            self.unfinished += 1
            return
        share = 1 / len(o.winners) if o.winners else 0
        if len(o.winners) > 1:
            self.shared += 1
        if o.winners:
            self.win_squares += share          # k winners, each share 1/k: k / k**2
        wins, results = self.wins, self.results
        for s in o.winners:
            wins[s] += share
        squares = self.result_squares
        for s, value in enumerate(o.returns):
            results[s] += value
            squares[s] += value * value
        self.decisions.append(o.decisions)
        self.turns.append(o.turns)
        self.deals.append(o.deals)
        counts = [getattr(o, name) for name in COUNTS]
        if counts[0]:
            for s in range(players):
                row = self.seat_counts[s]
                for i, values in enumerate(counts):
                    row[i] += values[s]
        total = [sum(values) for values in counts] if counts[0] else [0] * len(COUNTS)
        claims, false, unjudged, challenges, successful, caught = total
        self.bluffs.append((claims, claims - unjudged, false, challenges, successful, caught))
        self.add_kinds(o, share, counts)

    def add_kinds(self, o: MatchOutcome, share: float, counts: list) -> None:
        """Add one finished match to the rows of its seats' bot kinds (``share``: of a win,
        per winner; ``counts``: its per-seat counts, in the order of ``COUNTS``)."""
        kinds = self.kinds
        for s, kind in enumerate(o.bots):
            row = kinds.get(kind)
            if row is None:
                row = kinds[kind] = [0, o.bots.count(kind), 0, 0] + [0] * len(COUNTS)
            row[0] += 1
            if s in o.winners:
                row[2] += share
            if o.returns:
                row[3] += o.returns[s]
            if counts[0]:
                for i, values in enumerate(counts):
                    row[4 + i] += values[s]


def figures(summary: Summary, confidence: float = stats.CONFIDENCE) -> dict:
    """Every figure of a simulation, from its :class:`Summary`, as plain values (the
    ``figures`` of ``simulate --json``; the tables of ``simulate`` and ``compare`` print
    them). Shares are fractions (0.25 is 25 %), intervals ``[low, high]`` pairs at
    ``confidence``; everything is of the finished matches.

    Returns:
        a dict: ``games``, ``players``, ``finished``, ``unfinished``; ``seats`` (one dict
        per seat: ``seat`` (1 = P1), ``wins``, ``win_share``, ``win_interval`` (Wilson),
        ``mean_result`` and its ``result_interval`` (normal approximation; None when
        unknown) and the bluffing figures below); ``kinds`` (one dict per bot kind:
        ``kind``, ``seats_per_match``, the same figures, the win share per seat it had and
        its Wilson interval over the matches); ``fairness`` (``statistic``, ``df``, ``p``:
        Pearson's chi-square test of equal win shares per seat, shared wins weighed as
        :func:`rulekit.analysis.stats.chi_square_equal_shares` says); ``length`` (for
        ``decisions``, ``turns`` and ``deals`` per match: ``min``, ``q1``, ``median``,
        ``q3``, ``max``, ``mean``, ``median_interval``); ``bluffing`` (over every seat:
        ``claims``, ``claims_per_match`` and its interval, ``unjudged_claims``,
        ``false_share`` of the claims judged, ``challenges``, ``challenges_per_match``,
        ``challenge_success`` of the challenges, ``lies_caught`` of the false claims, each
        share with an interval over the matches (:func:`rulekit.analysis.stats.share_interval`)).
    """
    finished = summary.finished
    n = summary.players
    seats = []
    for s, t in enumerate(summary.seats):
        interval = None
        if summary.result_squares is not None:
            interval = _finite(stats.mean_interval_of_sums(finished, t.results, summary.result_squares[s],
                                                           confidence))
        seats.append({"seat": s + 1, "wins": t.wins, "win_share": _share(t.wins, finished),
                      "win_interval": list(stats.wilson(t.wins, finished, confidence)),
                      "mean_result": t.results / finished if finished else None, "result_interval": interval,
                      **_bluffing(t)})
    kinds = []
    for kind, t in summary.kinds:
        matches = t.seats / t.per_match     # the finished matches
        kinds.append({"kind": kind, "seats_per_match": t.per_match, "wins": t.wins,
                      "win_share": _share(t.wins, t.seats),
                      "win_interval": list(stats.wilson(t.wins / t.per_match, matches, confidence)),
                      "mean_result": t.results / t.seats if t.seats else None, **_bluffing(t)})
    wins = [t.wins for t in summary.seats]
    statistic, df, p = (stats.chi_square_equal(wins) if summary.win_squares is None
                        else stats.chi_square_equal_shares(wins, summary.win_squares))
    return {"games": summary.games, "players": n, "finished": finished, "unfinished": summary.unfinished,
            "confidence": confidence, "seats": seats, "kinds": kinds,
            "fairness": {"statistic": statistic, "df": df, "p": p if n > 1 and finished else None},
            "length": _length_figures(summary, confidence), "bluffing": _bluff_figures(summary, confidence)}


def _bluffing(t: Tally) -> dict:
    """The bluffing figures of one seat's or bot kind's :class:`Tally` (counts and shares)."""
    judged = t.claims - t.unjudged_claims
    return {"claims": t.claims, "false_claims": t.false_claims, "unjudged_claims": t.unjudged_claims,
            "false_share": _share(t.false_claims, judged), "challenges": t.challenges,
            "successful_challenges": t.successful_challenges,
            "challenge_success": _share(t.successful_challenges, t.challenges), "lies_caught": t.lies_caught,
            "lies_caught_share": _share(t.lies_caught, t.false_claims)}


def _length_figures(summary: Summary, confidence: float) -> dict:
    """The ``length`` figures of :func:`figures`: for decisions, turns and deals per
    match, their five numbers, mean and median interval (None without a finished match)."""
    length = {}
    for name, values in (("decisions", summary.decisions), ("turns", summary.turns), ("deals", summary.deals)):
        if values:
            low, q1, median, q3, high = stats.five_numbers(values)
            length[name] = {"min": low, "q1": q1, "median": median, "q3": q3, "max": high,
                            "mean": sum(values) / len(values),
                            "median_interval": list(stats.median_interval(values, confidence))}
        else:
            length[name] = None
    return length


def _bluff_figures(summary: Summary, confidence: float) -> dict:
    """The ``bluffing`` figures of :func:`figures`, over every seat: claims, challenges and
    lies caught, counts, per match and shares, each with its interval."""
    finished = summary.finished
    bluffs = summary.bluffs
    column = list(zip(*bluffs)) if bluffs else [()] * 6
    claims, judged, false, challenges, successful, caught = (sum(c) for c in column)
    bluff = {
        "claims": claims,
        "claims_per_match": claims / finished if finished else None,
        "claims_per_match_interval": _finite(stats.mean_interval(column[0], confidence)),
        "unjudged_claims": claims - judged,
        "false_claims": false,
        "false_share": _share(false, judged),
        "false_interval": list(stats.share_interval(list(zip(column[2], column[1])), confidence)),
        "challenges": challenges,
        "challenges_per_match": challenges / finished if finished else None,
        "challenges_per_match_interval": _finite(stats.mean_interval(column[3], confidence)),
        "successful_challenges": successful,
        "challenge_success": _share(successful, challenges),
        "challenge_success_interval": list(stats.share_interval(list(zip(column[4], column[3])), confidence)),
        "lies_caught": caught,
        "lies_caught_share": _share(caught, false),
        "lies_caught_interval": list(stats.share_interval(list(zip(column[5], column[2])), confidence)),
    }
    return bluff


def _share(part, whole):
    """``part / whole``, or None when ``whole`` is 0 (no share to speak of)."""
    return part / whole if whole else None


def _finite(interval) -> list | None:
    """An interval as a list, or None when it is unbounded (too few values to tell)."""
    low, high = interval
    return [low, high] if math.isfinite(low) and math.isfinite(high) else None


def outcome_row(o: MatchOutcome) -> dict:
    """One match as plain values (a row of ``simulate --json``; ``--csv`` flattens it):
    ``match`` and ``seat`` numbers 1-based, like the tables."""
    return {"match": o.match + 1, "seed": o.seed, "lineup": list(o.bots), "finished": o.finished,
            "winners": [s + 1 for s in o.winners], "returns": list(o.returns), "decisions": o.decisions,
            "turns": o.turns, "deals": o.deals, **{name: list(getattr(o, name)) for name in COUNTS}}


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """How ``games`` matches are split for ``workers`` workers: (first, count) pairs in
    match order, of about ``games / (workers * CHUNKS_PER_WORKER)`` matches (at least 1)."""
    size = max(1, games // (max(1, workers) * CHUNKS_PER_WORKER))
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def outcomes(spec: SimulationSpec, games: int, workers: int = 1, *, ray: bool = False,
             on_progress: Callable[[int], None] | None = None, engine=None,
             on_lost: Callable[[list[tuple[int, int]]], None] | None = None) -> Iterator[MatchOutcome]:
    """Play matches 0 .. ``games - 1`` of ``spec``: their outcomes, in match order.

    The matches are played in chunks of consecutive matches (:func:`chunks`); a chunk's
    outcomes are yielded once every chunk before it has come back. Close the iterator
    (or use :func:`simulate`) to stop early: it stops the pool, or cancels the Ray tasks.

    Args:
        spec: what to simulate.
        games: how many matches (at least 1).
        workers: how many local processes play them: this one and ``workers - 1``
            spawned by a ``ProcessPoolExecutor`` (each building the game once), taking
            chunks as they finish the last; 1 plays them in this process, with no pool.
            Not used with ``ray``. Spawned workers import the main module, so a script
            that asks for more than 1 must run under ``if __name__ == "__main__":``.
        ray: play the chunks as Ray tasks, on the cluster this process is connected to
            (``ray.init`` must have been called). Every node needs this rulekit installed;
            the rules text travels with the tasks.
        on_progress: called with a number of matches each time that many more have been
            played (as chunks come back, in any order).
        engine: the ``Engine`` already built from ``spec`` in this process, if at hand:
            matches played here use it instead of building the game again.
        on_lost: called when a worker process dies (killed, out of memory…) with the
            chunks it took down, as (first match, count) pairs; they are played again, by
            a fresh pool (at most :data:`POOLS` in all) or else in this process, so the
            outcomes are the same as if nothing had happened.

    Yields:
        one :class:`MatchOutcome` per match, match 0 first; the same, in the same order,
        for any ``workers`` and on Ray.

    Raises:
        MatchFailed: a match stopped with a runtime error; it is the lowest failing match
            (every match before it was played, and yielded, without one).
        RulesError, OptionError: the text or a variant is wrong (see :func:`engine_for`).
        ValueError: ``games`` or ``workers`` is below 1 (at once, not when iterated).
    """
    if games < 1 or workers < 1:
        raise ValueError(f"games and workers must be at least 1, not {games} and {workers}")
    if engine is not None:
        _ENGINES.setdefault((spec.text, spec.path, spec.variants), engine)
    if ray:
        parts = _on_ray(spec, games)
    elif min(workers, games) == 1:
        parts = ((k, play_matches(spec, k, 1)) for k in range(games))
    else:
        parts = _in_processes(spec, games, min(workers, games), on_lost)
    return _in_order(parts, on_progress)


def simulate(spec: SimulationSpec, games: int, workers: int = 1, *, ray: bool = False,
             on_progress: Callable[[int], None] | None = None, engine=None,
             on_outcome: Callable[[MatchOutcome], None] | None = None,
             on_lost: Callable[[list[tuple[int, int]]], None] | None = None) -> Summary:
    """Play matches 0 .. ``games - 1`` of ``spec`` and add up their outcomes in match order
    (:func:`outcomes`, then :func:`summarize`); the arguments are those of :func:`outcomes`
    (``on_lost`` too), and ``on_outcome``, called with each :class:`MatchOutcome` in match order (to keep the
    rows of ``--json`` and ``--csv``).

    Returns:
        the :class:`Summary`, the same, bit for bit, for any ``workers`` and on Ray.

    Raises:
        MatchFailed, RulesError, OptionError, ValueError: as :func:`outcomes`.
    """
    played = outcomes(spec, games, workers, ray=ray, on_progress=on_progress, engine=engine, on_lost=on_lost)
    try:
        if on_outcome is None:
            return summarize(played, spec.players)
        return summarize(_passing(played, on_outcome), spec.players)
    finally:
        played.close()


def _passing(played: Iterator[MatchOutcome], on_outcome) -> Iterator[MatchOutcome]:
    for o in played:
        on_outcome(o)
        yield o


def _in_order(parts: Iterator[tuple[int, object]], on_progress) -> Iterator[MatchOutcome]:
    """The outcomes of chunks that come back in any order, in match order. ``parts``
    yields (chunk number, its outcomes or the MatchFailed that stopped it).

    An interruption (``KeyboardInterrupt``, any ``BaseException`` that is not an
    ``Exception`` but ``GeneratorExit``) while they are played, or thrown in at a yield,
    gets as its ``played`` attribute the outcomes played but not yielded yet, in match
    order: those of chunks that came back ahead of their turn, and of the chunk this
    process was playing."""
    waiting: dict = {}
    rest: list = []                 # the outcomes of the chunk being yielded, not yielded yet
    try:
        following = 0
        for i, got in parts:
            if on_progress is not None:
                on_progress(len(got) if isinstance(got, list) else 1)
            waiting[i] = got
            while following in waiting:
                got = waiting.pop(following)
                if isinstance(got, MatchFailed):
                    raise got
                following += 1
                rest = got[::-1]
                while rest:
                    o = rest.pop()
                    yield o
    except BaseException as exc:
        if not isinstance(exc, (Exception, GeneratorExit)):
            back = [o for got in waiting.values() if isinstance(got, list) for o in got]
            exc.played = sorted(rest + back + list(getattr(exc, "played", ())), key=lambda o: o.match)
        raise
    finally:
        parts.close()                   # stops the pool, or cancels the Ray tasks left


def _play_chunk(spec: SimulationSpec, first: int, count: int):
    """A worker's task: the chunk's outcomes, or the MatchFailed that stopped it (returned,
    not raised, so that it travels back the same way from a process and from Ray)."""
    try:
        return play_matches(spec, first, count)
    except MatchFailed as exc:
        return exc


def _start_worker(spec: SimulationSpec, game) -> None:
    """A spawned worker's start: it builds the engine of the checked game the parent sends
    (pickled: no parse, and Lark is never imported)."""
    import os
    import signal

    from ..engine import Engine

    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    _ENGINES[(spec.text, spec.path, spec.variants)] = Engine(game)
    if os.environ.get(_DIE_HOOK):                     # tests only: see _die_at_chunk
        _die_at_chunk(os.environ[_DIE_HOOK])


#: tests only: "MARKER:K" makes the first worker that starts its K-th chunk while the file
#: MARKER does not exist create it and die at once (as a worker killed by the system would);
#: ":K" makes every worker die at its K-th chunk
_DIE_HOOK = "RULEKIT_TEST_WORKER_DIES"


def _die_at_chunk(setting: str) -> None:
    """Arm the test hook :data:`_DIE_HOOK` in this worker: its ``_play_chunk`` (which the
    pool calls by name) becomes one that dies at the K-th chunk. Read once, when the
    worker starts: the chunks of a simulation without the variable never see it."""
    import os

    marker, _, k = setting.rpartition(":")
    played = [0]
    real = _play_chunk

    def dying(spec: SimulationSpec, first: int, count: int):
        played[0] += 1
        if played[0] == int(k) and not (marker and os.path.exists(marker)):
            if marker:
                open(marker, "w").close()
            os._exit(70)
        return real(spec, first, count)

    globals()["_play_chunk"] = dying


def _quiet_broken_pool() -> None:
    """Keep the pool's manager thread from printing a traceback when a worker dies while a
    chunk taken back from the pool (a cancelled future) is still on its list: CPython 3.11
    then fails to mark that future broken (``InvalidStateError``: it is cancelled already),
    which is harmless here. Installed once per process; other threads' errors go on to
    the hook that was there."""
    import threading
    from concurrent.futures import InvalidStateError

    previous = threading.excepthook
    if getattr(previous, "rulekit_quiet_pool", False):
        return

    def hook(args) -> None:
        if args.exc_type is InvalidStateError and type(args.thread).__name__ == "_ExecutorManagerThread":
            return
        previous(args)

    hook.rulekit_quiet_pool = True
    threading.excepthook = hook


#: how many process pools a simulation starts at most: a pool whose worker dies is
#: replaced, twice; then this process plays what is left
POOLS = 3


def _in_processes(spec: SimulationSpec, games: int, workers: int, on_lost=None):
    """The chunks of ``games`` matches played by this process and ``workers - 1`` spawned
    ones, each taking the next chunk when it is done: (chunk number, outcomes), in the
    order they are done (see :func:`_with_pool`). When a worker dies, the chunks it took
    down are told to ``on_lost`` (as (first match, count) pairs) and played again first,
    by a fresh pool; after :data:`POOLS` pools, by this process alone."""
    from collections import deque

    parts = chunks(games, workers)
    todo = deque(range(len(parts)))
    for _ in range(POOLS):
        if not todo:
            return
        lost = yield from _with_pool(spec, parts, todo, workers)
        if lost:
            if on_lost is not None:
                on_lost([parts[i] for i in lost])
            todo.extendleft(sorted(lost, reverse=True))
    while todo:
        i = todo.popleft()
        yield i, _play_chunk(spec, *parts[i])


def _with_pool(spec: SimulationSpec, parts: list, todo, workers: int):
    """Play the chunks ``todo`` (a deque of chunk numbers, taken from as they are handed
    out) with a pool of ``workers - 1`` spawned processes and this one: yields (chunk
    number, outcomes). This process plays while the others start (a spawned worker imports
    rulekit and builds the game first); the pool is kept ``LEAD`` chunks ahead per worker,
    and at the end this process takes back the chunks no worker has begun. Returns the
    chunk numbers lost when a worker died (the pool is then broken: [] otherwise)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn: the same on every system, and safe whatever threads this process runs
    pool = ProcessPoolExecutor(workers - 1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(spec, engine_for(spec).game))
    pending: dict = {}          # future -> chunk number, in the order handed out
    _quiet_broken_pool()
    try:
        while todo or pending:
            while todo and len(pending) < LEAD * (workers - 1):
                future = pool.submit(_play_chunk, spec, *parts[todo[0]])   # raises if the pool broke
                pending[future] = todo.popleft()
            for future in [f for f in pending if f.done()]:
                got = future.result()               # raises if its worker died: it stays pending
                yield pending.pop(future), got
            if not todo:
                # nothing left to hand out: take back the last chunk no worker has begun
                taken = next((f for f in reversed(pending) if f.cancel()), None)
                if taken is not None:
                    todo.append(pending.pop(taken))
            if todo:
                i = todo.popleft()
                yield i, _play_chunk(spec, *parts[i])
            elif pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    got = future.result()
                    yield pending.pop(future), got
    except GeneratorExit:
        _stop_workers(pool)                 # closed early (Ctrl-C, a failed match): no chunk is wanted
        raise
    except BrokenProcessPool:
        # a worker died: what came back before is kept, the rest is lost
        lost = []
        for future, i in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                yield i, future.result()
            else:
                lost.append(i)
        return lost
    except BaseException as exc:
        if not isinstance(exc, Exception):
            _stop_workers(pool)             # Ctrl-C or SIGTERM here: the chunks being played are not waited for
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return []


def _stop_workers(pool) -> None:
    """End the worker processes of ``pool`` at once (the chunks they play are not wanted
    any more), so that shutting the pool down does not wait for them."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.terminate()
        except (OSError, ValueError, AttributeError):      # gone already
            pass


def _on_ray(spec: SimulationSpec, games: int):
    import ray

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(_play_chunk)
    shared = ray.put(spec)                  # the text travels once per node, not once per task
    pending = {task.remote(shared, first, count): i for i, (first, count) in enumerate(chunks(games, cpus))}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)
