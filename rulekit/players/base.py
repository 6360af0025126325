"""The player protocol and the uniformly random bot."""

from __future__ import annotations

import hashlib
import random
from typing import Callable, Protocol

from ..engine import Action, Decision, Option, View
from ..errors import IllegalAction

_new = tuple.__new__          # a named tuple from a tuple of its fields, without checks


class Player(Protocol):
    """Chooses one legal action of a decision from its seat's view.

    Optional class attributes tell ``play_match`` what the player reads, so that nobody
    pays for the rest: ``uses_history`` (default False: ``View.history`` is then empty),
    ``uses_texts`` (default True; False: each option's ``label`` is the action's name
    and its ``shown`` value names are empty) and ``uses_view`` (default True; False: the
    player reads only the decision, and is given None for the view whenever every option
    is ``exact``, since the decision's ``check`` and ``actions`` can then answer from the
    options alone).
    """

    def choose(self, view: View, decision: Decision) -> Action: ...


def seat_rng(seed: int | None, seat: int) -> random.Random:
    """The random generator of one seat's bot, derived from the match seed.

    It is seeded with the SHA-256 digest of ``"{seed}/seat/{seat}"`` (a 256-bit integer).
    A bot holds its generator, so it can read its state (``getstate()``) and undo the
    Mersenne Twister's seeding step by step back to the seeding key: that key is the
    digest, and going from a digest back to the seed would take a SHA-256 preimage (or,
    for a 128-bit seed drawn by the CLI, a search over 2**128 seeds). Seeding with the
    string itself would not do: ``random.Random(str)`` puts the string's own bytes into
    the key, next to their SHA-512, so the key would spell out the match seed.
    """
    digest = hashlib.sha256(f"{seed}/seat/{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def sample(rng: random.Random, cards: tuple, k: int) -> list:
    """``k`` of ``cards`` drawn uniformly without replacement, in a uniformly random order:
    the first ``k`` steps of a Fisher-Yates shuffle, each draw one ``rng.random()`` (made in
    C; ``random.sample`` makes several Python calls per card).

    Raises:
        ValueError: ``k`` is negative or more than there are cards.
    """
    if not 0 <= k <= len(cards):
        raise ValueError(f"cannot draw {k} of {len(cards)} cards")
    pool = list(cards)
    n = len(pool)
    draw = rng.random
    for i in range(k):
        j = i + int(draw() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    del pool[k:]
    return pool


def random_concrete(option: Option, rng: random.Random) -> Action:
    """A random concrete action of an option: a uniformly random number of cards, then a
    uniformly random choice of that many, and uniformly random values (each draw one
    ``rng.random()``)."""
    name, _, pool, low, high, params, _, _, _ = option
    if pool is None:
        if not params:
            return _new(Action, (name, (), ()))
        draw = rng.random
        return _new(Action, (name, (), tuple([values[int(draw() * len(values))] for _, values in params])))
    draw = rng.random
    top = len(pool) if high is None or high > len(pool) else high
    size = low + int(draw() * (top - low + 1))
    cards = tuple(sorted(sample(rng, pool, size)))
    chosen = tuple([values[int(draw() * len(values))] for _, values in params]) if params else ()
    return _new(Action, (name, cards, chosen))


def random_legal(decision: Decision, rng: random.Random, options=None, tries: int = 30) -> Action:
    """A random legal action: an option chosen uniformly among those with a legal choice,
    then a random concrete choice of it (up to ``tries`` draws, then a choice among the
    option's legal actions as listed; an option with none is dropped and another drawn).
    A choice of an ``exact`` option is legal as made, unchecked. The match judges: where
    the check (which answers from a state sampled from the view) finds nothing legal, a
    random choice goes to the match."""
    options = tuple(decision.options if options is None else options)
    legal = None
    for option in _drawn(options, rng):
        if option.exact:
            return random_concrete(option, rng)
        if legal is None:
            legal = decision.legal if decision.legal is not None else decision.is_legal
        for _ in range(tries):
            action = random_concrete(option, rng)
            if legal(action):
                return action
        listed = _listed(decision, option)
        if listed:
            return rng.choice(listed)
    return random_concrete(rng.choice(options), rng)


def _drawn(options, rng: random.Random):
    """``options`` in a uniformly random order, each drawn (one ``rng.random()``) only when
    the one before it had no legal choice: :func:`random_legal` and :func:`random_step`."""
    left = list(options)
    draw = rng.random
    while left:
        at = int(draw() * len(left))
        yield left[at]
        del left[at]


def _listed(decision: Decision, option: Option) -> list:
    """The legal actions of ``option`` that ``decision`` lists (when random choices keep
    failing: see :func:`random_legal`); larger choices first, then smaller ones: one of the
    two finds a legal choice fast."""
    for larger in (True, False):
        listed = [a for a in decision.actions(200, larger, 20_000) if a.name == option.name]
        if listed:
            return listed
    return []


def random_attempt(options, rng: random.Random, attempt: Callable, listing: Callable, tries: int = 30) -> Action:
    """The action :func:`random_legal` picks, with the same draws, each choice judged by
    trying it: ``attempt(action)`` takes it or raises IllegalAction having changed nothing
    (apply it to a working copy); ``listing()``: a :class:`Decision` of the same options
    that lists their legal actions, made only when ``tries`` draws of an option found
    nothing legal. Returns the action taken.

    Raises:
        IllegalAction: the choice tried last was refused (an ``exact`` option's, whose
            options are then not those of the copy, or the unchecked choice made when no
            option has a legal one); its ``refused`` is that action.
    """
    decision = None
    for option in _drawn(options, rng):
        for _ in range(tries):
            action = random_concrete(option, rng)
            try:
                attempt(action)
                return action
            except IllegalAction as exc:
                if option.exact:
                    exc.refused = action
                    raise
        if decision is None:
            decision = listing()
        listed = _listed(decision, option)
        if listed:
            action = rng.choice(listed)
            break
    else:
        action = random_concrete(rng.choice(options), rng)
    try:
        attempt(action)
    except IllegalAction as exc:
        exc.refused = action
        raise
    return action


def random_step(engine, live, options, rng: random.Random, tries: int = 30) -> None:
    """Take a random legal action of ``options`` (the decision of ``live``, a working copy
    from ``Engine.working_copy``) in place: the action :func:`random_legal` picks with the
    same draws, its legality found by trying it (see :func:`random_attempt`; ``rng`` draws
    the rules' chance too). A play-out made of these costs no :class:`State` or
    :class:`Decision` a step; one of many steps is cheaper by :func:`random_stepper`.

    Raises:
        IllegalAction: an ``exact`` option's choice was refused (the options are not those
            of ``live``), or no option has a legal choice.
    """
    random_stepper(engine, live, rng, tries)(options)


def random_stepper(engine, live, rng: random.Random, tries: int = 30) -> Callable[[tuple], None]:
    """:func:`random_step` on the working copy ``live``, made once for a play-out:
    ``step(options)`` takes a random legal action of ``options`` (the decision of
    ``live`` now) in place, the same draws as :func:`random_step`, without making the
    functions it tries the choices with at every step.

    Raises (``step``):
        IllegalAction: as :func:`random_step`.
    """
    attempt, decision, snapshot = engine.applier(live, rng), engine.decision, engine.snapshot

    def listing() -> Decision:
        return decision(snapshot(live), False)

    def step(options: tuple) -> None:
        random_attempt(options, rng, attempt, listing, tries)
    return step


def unchecked_choice(decision: Decision, rng: random.Random) -> Action:
    """A random concrete choice of a uniformly chosen option, not checked: the answer of a
    bot whose last answer the match rejected (``decision.rejected``). ``check`` answers
    from a state sampled from the view, which misjudged that answer; the match judges
    this one on the true state and asks again if it is illegal."""
    return random_concrete(rng.choice(decision.options), rng)


class RandomBot:
    """Picks uniformly among the options, then a random legal choice within the option
    (after a rejected answer, an unchecked random choice: see ``unchecked_choice``)."""

    uses_texts = False      # it never reads option labels or value names
    uses_view = False       # nor the view: only the decision

    def __init_subclass__(cls, **kwargs):
        # a subclass with its own ``choose`` may read the view: it gets one unless it says not
        super().__init_subclass__(**kwargs)
        if "choose" in cls.__dict__ and "uses_view" not in cls.__dict__:
            cls.uses_view = True
        # nor does it choose as ``choose_by_trying`` says, unless it says so too
        if "choose" in cls.__dict__ and "choose_by_trying" not in cls.__dict__:
            cls.choose_by_trying = None

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_by_trying(self, options: tuple, attempt: Callable, listing: Callable) -> Action:
        """What :meth:`choose` answers, each random choice judged by trying it instead of by
        the decision's check (see :func:`random_attempt`): the match asks for it where a
        seat's checks read only what it sees, playing on a working copy. A player may offer
        this method (or None) beside ``choose``.

        Raises:
            IllegalAction: the choice tried last was refused (its ``refused``).
        """
        return random_attempt(options, self.rng, attempt, listing)

    def choose(self, view: View | None, decision: Decision) -> Action:
        if decision.rejected is not None:
            return unchecked_choice(decision, self.rng)
        return random_legal(decision, self.rng)
