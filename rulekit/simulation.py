"""Many bot matches of one game: in this process, in local worker processes, or on Ray.

Match ``k`` (0-based) of a simulation whose seed is ``S`` is played with the seed ``S + k``
by fresh bots whose generators are derived from that seed (:func:`rulekit.match.seat_rng`).
A match's outcome therefore depends only on the game, the bots, the player count and its
seed, never on the process that plays it. The matches are split into chunks of
consecutive matches; the chunks are played wherever there is a free worker and their
outcomes are put back in match order, then added up in that order in the calling process,
so the totals (float sums included) are the same, bit for bit, for one worker, for many,
and on Ray.

A worker is given the rules text, not a path (nodes of a cluster need not have the file);
it builds the game once per process (:func:`engine_for` keeps it) and reuses it for every
chunk it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from .bounds import MAX_DECISIONS

#: the bots a simulation can seat: "generic" (``GenericBot``) or "random" (``RandomBot``)
BOTS = ("generic", "random")

#: chunks per worker: enough for the load to even out (matches differ a lot in length; with
#: 8, a worker could sit idle for the last 15% of a run) and for a progress bar to move,
#: few enough that their cost (a millisecond or so each) does not count
CHUNKS_PER_WORKER = 32


def _per_seat(bots, spec: "SimulationSpec") -> tuple[str, ...]:
    """``bots`` as one kind per seat: a single kind (a string) sits at every seat."""
    if isinstance(bots, str):
        return (bots,) * spec.players
    return tuple(bots)


def _check_bots(spec: "SimulationSpec", attribute, bots: tuple) -> None:
    if len(bots) != spec.players:
        raise ValueError(f"bots: {len(bots)} given for {spec.players} seats (one per seat)")
    wrong = [b for b in bots if b not in BOTS]
    if wrong:
        raise ValueError(f"bots: {wrong[0]!r} is not one of {', '.join(BOTS)}")


@attrs.frozen
class SimulationSpec:
    """What to simulate (everything a worker needs; it pickles small).

    Attributes:
        text: the rules text (a ``.rules`` file's content).
        path: the file's name, used in error messages only.
        variants: the variants to apply, in order.
        players: the number of seats.
        bots: which bot sits at each seat, one of :data:`BOTS` per seat (a tuple as long
            as ``players``); a single kind given as a string sits at every seat.
        seed: the seed of match 0; match ``k`` is played with ``seed + k``.
        max_decisions: a match that has not ended after this many decisions is unfinished.
    """

    text: str
    path: str
    variants: tuple[str, ...] = attrs.field(converter=tuple)
    players: int
    bots: tuple[str, ...] = attrs.field(converter=attrs.Converter(_per_seat, takes_self=True),
                                        validator=_check_bots)
    seed: int
    max_decisions: int = MAX_DECISIONS


@attrs.frozen
class MatchOutcome:
    """How one match of a simulation ended.

    Attributes:
        match: its number in the simulation, 0-based.
        seed: the seed it was played with (the simulation's seed + ``match``).
        finished: False if it had not ended after ``max_decisions`` decisions.
        winners: the winning seats (0 = P1), in the engine's order; () if unfinished.
        returns: each seat's result (``Engine.returns``), by seat; () if unfinished.
        decisions: the decisions played (``max_decisions`` if unfinished).
    """

    match: int
    seed: int
    finished: bool
    winners: tuple[int, ...]
    returns: tuple
    decisions: int


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
    """

    games: int
    players: int
    wins: tuple
    results: tuple
    decisions: tuple[int, ...]
    unfinished: int

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
        from .check import loads
        from .engine import Engine

        engine = _ENGINES[key] = Engine(loads(spec.text, spec.path, variants=spec.variants))
    return engine


def play_matches(spec: SimulationSpec, first: int, count: int) -> list[MatchOutcome]:
    """Play matches ``first`` .. ``first + count - 1`` of the simulation ``spec``.

    Returns:
        one :class:`MatchOutcome` per match, in match order.

    Raises:
        MatchFailed: a match stopped with a runtime error (the first one, in match order;
            the matches after it are not played).
        RulesError, OptionError: as :func:`engine_for`.
    """
    from .engine.compile import RulesRuntimeError
    from .match import MatchTooLong, play_match, seat_rng
    from .players import GenericBot, RandomBot

    engine = engine_for(spec)
    n = spec.players
    played = []
    for k in range(first, first + count):
        seed = spec.seed + k
        bots = [RandomBot(seat_rng(seed, s)) if kind == "random" else GenericBot(engine, seat_rng(seed, s))
                for s, kind in enumerate(spec.bots)]
        try:
            record = play_match(engine, bots, n, seed, max_steps=spec.max_decisions, keep_log=False)
            returns = tuple(engine.returns(record.state))
        except MatchTooLong as exc:
            played.append(MatchOutcome(k, seed, False, (), (), exc.bound))
            continue
        except RulesRuntimeError as exc:
            raise MatchFailed(str(exc), k, seed) from None
        played.append(MatchOutcome(k, seed, True, tuple(record.winners), returns, record.steps))
    return played


def summarize(outcomes, players: int) -> Summary:
    """Add up outcomes in the order given (match order, for totals that do not depend on
    how the matches were shared out).

    Args:
        outcomes: :class:`MatchOutcome` s, in match order.
        players: the number of seats.
    """
    wins: list = [0] * players
    results: list = [0] * players
    decisions = []
    games = unfinished = 0
    for o in outcomes:
        games += 1
        if not o.finished:
            unfinished += 1
            continue
        for s in o.winners:
            wins[s] += 1 / len(o.winners)
        for s, value in enumerate(o.returns):
            results[s] += value
        decisions.append(o.decisions)
    return Summary(games, players, tuple(wins), tuple(results), tuple(decisions), unfinished)


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """How ``games`` matches are split for ``workers`` workers: (first, count) pairs in
    match order, of about ``games / (workers * CHUNKS_PER_WORKER)`` matches (at least 1)."""
    size = max(1, games // (max(1, workers) * CHUNKS_PER_WORKER))
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def outcomes(spec: SimulationSpec, games: int, workers: int = 1, *, ray: bool = False,
             on_progress: Callable[[int], None] | None = None, engine=None) -> Iterator[MatchOutcome]:
    """Play matches 0 .. ``games - 1`` of ``spec``: their outcomes, in match order.

    The matches are played in chunks of consecutive matches (:func:`chunks`); a chunk's
    outcomes are yielded once every chunk before it has come back. Close the iterator
    (or use :func:`simulate`) to stop early: it stops the pool, or cancels the Ray tasks.

    Args:
        spec: what to simulate.
        games: how many matches (at least 1).
        workers: how many local processes play them (a ``ProcessPoolExecutor`` that
            spawns them, each building the game once); 1 plays them in this process, with
            no pool. Not used with ``ray``. Spawned workers import the main module, so a
            script that asks for more than 1 must run under ``if __name__ == "__main__":``.
        ray: play the chunks as Ray tasks, on the cluster this process is connected to
            (``ray.init`` must have been called). Every node needs this rulekit installed;
            the rules text travels with the tasks.
        on_progress: called with a number of matches each time that many more have been
            played (as chunks come back, in any order).
        engine: the ``Engine`` already built from ``spec`` in this process, if at hand:
            matches played here use it instead of building the game again.

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
        parts = _in_processes(spec, games, min(workers, games))
    return _in_order(parts, on_progress)


def simulate(spec: SimulationSpec, games: int, workers: int = 1, *, ray: bool = False,
             on_progress: Callable[[int], None] | None = None, engine=None) -> Summary:
    """Play matches 0 .. ``games - 1`` of ``spec`` and add up their outcomes in match order
    (:func:`outcomes`, then :func:`summarize`); the arguments are those of :func:`outcomes`.

    Returns:
        the :class:`Summary`, the same, bit for bit, for any ``workers`` and on Ray.

    Raises:
        MatchFailed, RulesError, OptionError, ValueError: as :func:`outcomes`.
    """
    played = outcomes(spec, games, workers, ray=ray, on_progress=on_progress, engine=engine)
    try:
        return summarize(played, spec.players)
    finally:
        played.close()


def _in_order(parts: Iterator[tuple[int, object]], on_progress) -> Iterator[MatchOutcome]:
    """The outcomes of chunks that come back in any order, in match order. ``parts``
    yields (chunk number, its outcomes or the MatchFailed that stopped it)."""
    try:
        waiting: dict = {}
        following = 0
        for i, got in parts:
            if on_progress is not None:
                on_progress(len(got) if isinstance(got, list) else 1)
            waiting[i] = got
            while following in waiting:
                got = waiting.pop(following)
                if isinstance(got, MatchFailed):
                    raise got
                yield from got
                following += 1
    finally:
        parts.close()                   # stops the pool, or cancels the Ray tasks left


def _play_chunk(spec: SimulationSpec, first: int, count: int):
    """A worker's task: the chunk's outcomes, or the MatchFailed that stopped it (returned,
    not raised, so that it travels back the same way from a process and from Ray)."""
    try:
        return play_matches(spec, first, count)
    except MatchFailed as exc:
        return exc


def _start_worker(spec: SimulationSpec) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    engine_for(spec)


def _in_processes(spec: SimulationSpec, games: int, workers: int):
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # spawn: the same on every system, and safe whatever threads this process runs
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(spec,))
    try:
        pending = {pool.submit(_play_chunk, spec, first, count): i
                   for i, (first, count) in enumerate(chunks(games, workers))}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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
