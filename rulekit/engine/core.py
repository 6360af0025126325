"""The engine: states, decisions, legal actions, transitions, views and outcomes.

A :class:`State` is immutable. :meth:`Engine.apply` takes a state, an :class:`Action` of the
seat that must decide, and an explicit ``random.Random`` for chance (shuffles, die rolls,
random picks), and returns the next state with the :class:`Event` list of what happened.
Chance outcomes are drawn only from that generator, so the same seed and the same actions
give the same match; every chance outcome is an event of the log.

Decisions come in the shapes a ``.rules`` file declares (see docs/language.md):

* ``turn``: the seat ``current`` chooses one action;
* ``window`` (``first`` / ``each``): the seats of the window are asked one by one, in
  clockwise order; each may act or ``decline``; in a ``first`` window the first who acts
  takes it; seats with nothing they could do are not asked;
* ``vote``: every seat of the vote chooses; no view shows a vote before all are cast.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Callable, Iterator, NamedTuple

import attrs

from .. import ir
from ..lang import model as m
from ..sema.visibility import public_checks
from ..errors import IllegalAction, OptionError
from .narrate import seat_name
from .codegen import OUT_OF_BUDGET
from ..errors import RulesRuntimeError
from .compile import DECLINE, CompiledGame, compile_game
from .runtime import ACTOR, CLAIMANT, CURRENT, NO_EVENTS, Ctx, EndOfDeal, EndOfTurn, multiset_contains

_MAX_SETTLE = 10_000
_MAX_QUICK_DEALS = 100          # deals begun and ended within one step


class Action(NamedTuple):
    """What a seat does: an action name, the chosen cards (kind indices, sorted) and the
    chosen values in the order the action chooses them. (A named tuple: simulations make
    millions of them.)"""

    name: str
    cards: tuple = ()
    params: tuple = ()


DECLINE_ACTION = Action(DECLINE)


class State(NamedTuple):
    """A position in a match. Zones hold card kind indices, the top card last.

    A named tuple (a simulation makes one per decision): ``state._replace(zones=…)`` gives
    a changed copy."""

    n: int
    zones: tuple
    counters: tuple
    seats: tuple
    phase: int                      # -1 once the match is over
    poll: tuple                     # seats still to ask in a window or vote; poll[0] decides
    votes: tuple                    # per seat: the action chosen in the running vote, or None
    claim: tuple | None             # (claim index, values, claimant)
    claimed: tuple | None           # (zone instance, number of cards on its top)
    known: tuple                    # ((viewer or -1 for all, zone instance, cards, is the claimed group), …):
                                    # the zone holds at least those cards, as that viewer knows
    deal: int
    groups: tuple = ()              # the seats of each declared group
    winners: tuple = ()
    out: tuple = ()                 # per seat: 0 while in the match, k for the k-th seat knocked out
    stack: tuple = ()               # pending 'ask … then': (block, values, current, actor, asking phase), innermost last

    @property
    def is_terminal(self) -> bool:
        return self.phase < 0


class Event(NamedTuple):
    """One thing that happened: ``kind`` (action, decline, claim, move, draw, deal, shuffle,
    refill, roll, pick, reveal, show, voted, votes, log, deal_start, deal_end, match_end),
    ``seat`` the only recipient of a private ``show`` (None otherwise) and ``data`` (a
    named tuple; ``data`` is a dict, so an event is not hashable).

    Events are the omniscient record of a match (moves, draws and shuffles name hidden
    cards): a player never receives them, only its :class:`View`.
    """

    kind: str
    seat: int | None
    data: dict


_UNKNOWN = object()
_POLL = State._fields.index("poll")
_new = tuple.__new__             # a named tuple made from a tuple of its fields, without checks
_new_event = functools.partial(_new, Event)     # an Event from a tuple of its fields


class Option(NamedTuple):
    """One action a deciding seat may take now, before its cards and values are chosen.
    (A named tuple: a decision offers a few, a simulation makes millions.)

    ``cards``: the zone contents the cards are chosen from (kind indices) or None;
    ``low``/``high``: how many cards (``high`` None: any number up to all of them);
    ``params``: (name, allowed values) for each value the action chooses;
    ``shown``: for each value, how people name its allowed values (symbol names, P1…);
    ``exact``: every choice within ``cards``, ``low``..``high`` and ``params`` is legal (the
    action has no ``require`` that reads a choice and no range that depends on another), so
    a choice made within them needs no check;
    ``prompts``: for each value, the question the file asks a person (``choose n in 1..6
    "how many?"``) or None.
    """

    name: str
    label: str
    cards: tuple | None
    low: int
    high: int | None
    params: tuple
    shown: tuple = ()
    exact: bool = False
    prompts: tuple = ()


def option_reason(option: Option, action: Action) -> str | None:
    """None if ``action`` is a choice within ``option`` (its cards a sub-multiset of the
    option's, as many as it allows, each value among the allowed ones), else why not; for
    an ``exact`` option that makes the action legal."""
    if option.cards is None:
        if action.cards:
            return "this action takes no cards"
    else:
        high = len(option.cards) if option.high is None else option.high
        if not option.low <= len(action.cards) <= high:
            return f"choose {option.low} to {high} cards"
        if not multiset_contains(option.cards, action.cards):
            return "those cards are not there to choose"
    if len(action.params) != len(option.params):
        return "this action takes a different number of values"
    for value, (name, values) in zip(action.params, option.params):
        if value not in values:
            return f"{name} cannot be {value!r} here"
    return None


_DECLINE_OPTION = Option(DECLINE, "declines", None, 0, 0, (), (), True)


@attrs.frozen
class Decision:
    """The seat that must decide, the shape of the decision and its options.

    ``check(action) -> str | None`` says why an action would be illegal (None if legal),
    :meth:`is_legal` only whether it is, and ``actions(limit=None, largest_first=False,
    budget=None) -> list[Action]`` lists concrete legal actions; all answer about this
    decision only. From
    :meth:`Engine.decision` they answer from the state given (the caller owns it); the
    decision a match gives a player answers from a state sampled from that seat's view
    (:func:`rulekit.play.match.player_decision`), so a player never reaches the true state, and
    the match itself judges the action it returns.

    ``rejected``: None, or (action, reason) when the same seat's previous answer to this
    decision was illegal and it is asked again.
    """

    seat: int
    phase: str
    kind: str                       # turn, first, each or vote
    options: tuple                  # Option; a window also offers 'decline'
    check: object = attrs.field(default=None, eq=False, repr=False)
    actions: object = attrs.field(default=None, eq=False, repr=False)
    rejected: tuple | None = None   # (Action, reason) of the previous, illegal answer
    legal: object = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    # ``legal(action) -> bool``, ``check(action) is None`` without the sentence (see is_legal)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal here: ``check(action) is None``, cheaper where the
        decision has a ``legal`` test (no reason is put into words)."""
        if self.legal is not None:
            return self.legal(action)
        return self.check(action) is None


@attrs.frozen
class View:
    """What one seat knows: never a card it could not know at the table.

    ``zones``: for each zone instance (name, owner seat or None, count or None when hidden,
    cards or None when this seat may not see them); ``known``: cards this seat was shown
    privately and which have not moved since, as (zone name, owner, cards).
    """

    seat: int
    players: int
    phase: str
    decider: int | None
    zones: tuple
    counters: tuple
    seats: tuple                    # (seat name, seat) of each: ``actor`` the decider while one decides
    claim: tuple | None             # (claim name, values, claimant, number of claimed cards, zone instance)
    known: tuple
    voted: tuple                    # seats who have voted in the running vote
    deal: int
    poll: tuple = ()                # seats still to be asked in the running window or vote
    groups: tuple = ()              # (group name, seats) of each declared group
    claim_text: str | None = None   # the standing claim as its label reads, e.g. "3 × 5"
    out: tuple = ()                 # per seat: 0 while in the match, k for the k-th seat knocked out
    dice: tuple = ()                # per zone instance: how many dice of each die it holds
                                    # (in the order of the game's dice), None when its count is hidden
    pending: tuple = ()             # the 'ask … then' blocks waiting for this phase (public)
    history: Sequence = attrs.field(default=(), eq=False, repr=False)
    # the events this seat perceived since the match began, in order (see Engine.observe);
    # filled by the match runner, empty from Engine.view alone

    def key(self) -> tuple:
        """A hashable information-state key: every field of the view and the events of its
        ``history`` (each event's data as nested tuples, lists as tuples), so that two views
        have the same key exactly when they are equal and perceived the same history. Use
        it to key a table of what a seat should do (a tabular policy, a search's nodes).
        A view from :meth:`Engine.view` alone has an empty history; ``play_match`` fills it
        for a player with ``uses_history``."""
        fields = tuple(_freeze(getattr(self, f.name)) for f in _VIEW_FIELDS)
        return fields + (tuple(_freeze(tuple(e)) for e in self.history),)

    def zone(self, name: str, owner: int | None = None):
        """The (count, cards) of a zone instance as this seat sees it."""
        for zname, zowner, count, cards in self.zones:
            if zname == name and zowner == owner:
                return count, cards
        raise KeyError((name, owner))


_VIEW_FIELDS = tuple(f for f in attrs.fields(View) if f.name != "history")


def acting_seats(seats: tuple, decider: int | None) -> tuple:
    """A state's seat values as a view shows them: ``actor`` is the seat taking the action,
    so while a decision waits (``decider`` not None) it is the seat deciding, not the last
    seat that acted."""
    if decider is None or seats[ACTOR] == decider:
        return seats
    return seats[:ACTOR] + (decider,) + seats[ACTOR + 1:]


def seen_counters(rows) -> tuple:
    """The counters of a state, from a view's rows (counter, value or per-seat values, None
    where the seat may not see them), a value not seen read as 0."""
    counters: list = []
    for _, value in rows:
        if isinstance(value, tuple):
            counters.extend(0 if v is None else v for v in value)
        else:
            counters.append(0 if value is None else value)
    return tuple(counters)


def _freeze(value):
    """``value`` made hashable: dicts as sorted (key, value) tuples, lists and tuples as
    tuples, each part frozen too."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_freeze(v) for v in value))
    return value


class Engine:
    """Runs one compiled game for any number of seats in its player range."""

    def __init__(self, game: m.Game):
        """Compiles ``game`` (see :func:`rulekit.engine.compile.compile_game`); its module for
        a number of seats is generated when first needed (:meth:`program`).

        Raises:
            RulesError: the game does not compile.
        """
        self.game = game
        self.cg: CompiledGame = compile_game(game)
        self.kinds = game.kinds
        self.deck = tuple(i for i, k in enumerate(game.kinds) if k.start is None and k.die is None
                          for _ in range(k.count))
        #: the dice that lie in zones, by name, in declaration order
        self.die_names = tuple(d.name for d in game.dice if any(k.die == d.name for k in game.kinds))
        self._programs: dict = {}
        self._starts: dict = {}
        #: [texts][phase index] -> the phase's constant options or None (_UNKNOWN until asked)
        self._fixed_options = ([_UNKNOWN] * len(self.cg.phase_list), [_UNKNOWN] * len(self.cg.phase_list))
        #: per phase: an action of it is open to every seat (it requires and chooses nothing)
        self._open = tuple(any(not a.steps for a in p.actions) for p in self.cg.phase_list)
        #: per phase: its checks read only what the deciding seat sees, so a seat's questions
        #: about its decision may be answered from :func:`.observe.masked_state`
        self.public_checks = public_checks(game)

    def program(self, players: int):
        """The generated module of this game for ``players`` seats (made once per engine and
        player count; see :mod:`rulekit.engine.codegen`)."""
        prog = self._programs.get(players)
        if prog is None:
            from .codegen import generate
            prog = self._programs[players] = generate(self.cg, players, Action, multisets, Option)
            prog.by_action = {a: enum for phase, row in zip(self.cg.phase_list, prog.enumerators)
                              for a, enum in zip(phase.actions, row)}
            #: each zone instance as a view names it: (zone, owner or None)
            prog.places = tuple((self.cg.zones[zi].name, _owner(owner)) for zi, owner in self.cg.zone_owners(players))
            prog.check_of = {a: check for phase, row in zip(self.cg.phase_list, prog.checks)
                             for a, check in zip(phase.actions, row)}
            prog.option_of = {a: made for phase, row in zip(self.cg.phase_list, prog.options)
                              for a, made in zip(phase.actions, row)}
        return prog

    def pieces(self, players: int):
        """The match's own pieces for ``players`` seats, as the generated module names them
        (``polls``, ``rotate``, ``until``, ``between``, ``rank_keys``, ``returns``, ``counter_inits``,
        ``seat_inits``, ``ranks``, ``label_of`` and ``preview_of`` (by compiled action),
        ``claim_labels``; see ``Generator.match_functions`` and ``text_functions``)."""
        return self._programs.get(players) or self.program(players)

    # ------------------------------------------------------------------ set-up
    def new_match(self, players: int, rng: random.Random, events: bool = True) -> tuple[State, Sequence[Event]]:
        """The first decision of a new match, after the setup of the first deal, and the
        events on the way (``events`` False: none are recorded, and () is returned for them).

        Raises:
            OptionError: the game is not for that many players.
        """
        low, high = self.game.players
        if not low <= players <= high:
            raise OptionError(f"--players must be between {low} and {high} for {self.game.title}, not {players}")
        ctx = Ctx()
        ctx.n = players
        ctx.rng = rng
        if not events:
            ctx.events = NO_EVENTS
            ctx.texts = False
        start = self._starts.get(players) or self._start(players)
        zones, counters, seats, inits, ctx.votes, ctx.groups, ctx.out = start
        # new tuples: no zone of a match is an object the engine holds (a player may reach the engine)
        ctx.zones = list(map(tuple, zones))
        ctx.counters = list(counters)
        ctx.seats = list(seats)
        ctx.claim = None
        ctx.claimed = None
        ctx.known = ()
        ctx.poll = ()
        ctx.deal = 1
        ctx.phase = -2
        ctx.stack = ()
        for i, init in enumerate((self._programs.get(players) or self.program(players)).seat_inits):
            if init == "random":
                ctx.seats[3 + i] = rng.randrange(players)
                ctx.events.append(("pick", None, {"seat": self.cg.seat_names[3 + i], "value": ctx.seats[3 + i]}))
            elif init is not None:
                ctx.seats[3 + i] = init(ctx)
        # counters start after the seats, so that a per-player counter's value may depend on
        # the seat (its ``actor``): counter coins per player = if actor = starter then 1 else 2
        for slot, s, init in inits:
            ctx.seats[ACTOR] = s
            ctx.counters[slot] = init(ctx)
        ctx.seats[ACTOR] = 0
        self._run_setup(ctx)
        self._settle(ctx)
        return self.snapshot(ctx), self._events(ctx)

    def _start(self, players: int) -> tuple:
        """What every match of ``players`` seats starts from, made once per player count:
        the zones before the first setup (the deck in its zone, the cards and dice each seat
        starts with; as lists, each match makes its own tuples), the counters and seats (all
        0), the counter values to compute first ((slot, seat, init), in declaration order),
        the votes, groups and knock-outs."""
        cg = self.cg
        ctx = Ctx()
        ctx.n = players
        ctx.zones = [()] * cg.zone_count(players)
        ctx.zones[cg.zone_slot(cg.holder, 0, players)] = self.deck
        self._place_dice(ctx)
        bases = cg.counter_base(players)
        inits = tuple((bases[ci] + s, s, init)
                      for ci, (decl, init) in enumerate(zip(self.game.counters, self.pieces(players).counter_inits))
                      for s in range(players if decl.per_player else 1))
        start = self._starts[players] = (tuple(map(list, ctx.zones)), (0,) * self._counter_total(players),
                                         (0,) * len(cg.seat_names), inits, (None,) * players,
                                         ((),) * len(self.game.groups), (0,) * players)
        return start

    def _place_dice(self, ctx: Ctx) -> None:
        """Cards each seat starts with go to their zones; every die declared with pieces
        starts in its zone, showing face 1 until rolled."""
        cg = self.cg
        for i, k in enumerate(self.kinds):
            if k.start is not None:
                zi = cg.zone_index[k.start]
                for seat in range(ctx.n):
                    slot = cg.zone_slot(zi, seat, ctx.n)
                    ctx.zones[slot] = ctx.zones[slot] + (i,) * k.count
        for d in self.game.dice:
            if not d.count or d.zone is None:
                continue
            first = next(i for i, k in enumerate(self.kinds) if k.die == d.name)
            zi = cg.zone_index[d.zone]
            for seat in range(ctx.n if d.each else 1):
                slot = cg.zone_slot(zi, seat, ctx.n)
                ctx.zones[slot] = ctx.zones[slot] + (first,) * d.count

    def cards_for(self, players: int) -> tuple:
        """Every card of a match of ``players`` seats (kind indices): the deck and the cards
        each seat starts with (dice not included)."""
        return self.deck + tuple(i for i, k in enumerate(self.kinds) if k.start is not None
                                 for _ in range(k.count * players))

    def _counter_total(self, n: int) -> int:
        return sum(n if c.per_player else 1 for c in self.game.counters)

    # ------------------------------------------------------------------ decisions
    def decision(self, state: State, texts: bool = True) -> Decision | None:
        """Who must decide now and what they may do; None once the match is over.

        ``texts``: give each option its label and the names of its values (``Option.shown``)
        as people read them; with False, the label is the action's name and ``shown`` is
        empty (for bots, which read neither: labels cost a text per option)."""
        if state.phase < 0:
            return None
        seat, phase, options = self.decide(state, texts)
        return Decision(seat, phase.name, phase.kind, options,
                        check=lambda action: self.why_illegal(state, action),
                        actions=lambda limit=None, largest_first=False, budget=None:
                        self.legal_actions(state, limit, largest_first, budget),
                        legal=lambda action: self.is_legal(state, action))

    def decide(self, state: State, texts: bool = True) -> tuple:
        """(seat, compiled phase, options) of the decision in ``state`` (a match that is not
        over): :meth:`decision` without its ``Decision`` (the match runner makes the one a
        player receives)."""
        phase = self.cg.phase_list[state.phase]
        seat = state.seats[CURRENT] if phase.kind == "turn" else state.poll[0]
        fixed = self._fixed(phase, texts)
        if fixed is not None:
            return seat, phase, fixed
        # options only read the state: the context shares its zones and counters
        ctx = _context(state, state.zones, state.counters, _NO_CHANCE)
        ctx.seats[ACTOR] = seat
        return seat, phase, self._options_of(ctx, phase, texts)

    def _fixed(self, phase, texts: bool) -> tuple | None:
        """:meth:`_constant_options`, made once per phase and ``texts``."""
        made = self._fixed_options[1 if texts else 0]
        fixed = made[phase.index]
        if fixed is _UNKNOWN:
            fixed = made[phase.index] = self._constant_options(phase, texts)
        return fixed

    def _options_of(self, ctx: Ctx, phase, texts: bool) -> tuple:
        """The options of the actor of ``ctx`` in ``phase`` (a window's 'decline' included)."""
        prog = self._programs.get(ctx.n) or self.program(ctx.n)
        if texts:
            made = []
            for a, make in zip(phase.actions, prog.options[phase.index]):
                opt = make(ctx)
                if opt is not None:
                    made.append(self._with_texts(ctx, a, opt))
            options = tuple(made)
        else:
            options = tuple([opt for make in prog.options[phase.index] if (opt := make(ctx)) is not None])
        kind = phase.kind
        if (kind == "first" or kind == "each") and \
                (prog.forced[phase.index] is None or prog.forced[phase.index](ctx) is None):
            options = options + (_DECLINE_OPTION,)
        return options

    # ------------------------------------------------------------------ a match in place
    def working_copy(self, state: State) -> Ctx:
        """A working copy of ``state`` that :meth:`apply_in_place` changes in place, step after
        step, recording no events: for the match runner when nothing needs a
        :class:`State` between steps (:meth:`snapshot` makes one when something does)."""
        ctx = _context(state, list(state.zones), list(state.counters), _NO_CHANCE)
        ctx.events = NO_EVENTS
        ctx.texts = False
        return ctx

    def decide_in_place(self, ctx: Ctx, texts: Sequence) -> tuple:
        """:meth:`decide` on a working copy (unchanged by it); ``texts``: by seat."""
        phase = self.cg.phase_list[ctx.phase]
        seat = ctx.seats[CURRENT] if phase.kind == "turn" else ctx.poll[0]
        fixed = self._fixed(phase, texts[seat])
        if fixed is not None:
            return seat, phase, fixed
        actor = ctx.seats[ACTOR]
        ctx.seats[ACTOR] = seat
        try:
            return seat, phase, self._options_of(ctx, phase, texts[seat])
        finally:
            ctx.seats[ACTOR] = actor        # (the values options bind are reset by the next step)

    def apply_in_place(self, ctx: Ctx, action: Action, rng: random.Random) -> None:
        """:meth:`apply` on a working copy, in place: the copy becomes what :meth:`apply`
        would return for the state it stands for.

        Raises:
            IllegalAction: ``action`` is not legal there (the copy is unchanged).
        """
        phase, seat, poll = self._opening(ctx, action)
        if poll is not None:
            ctx.poll = poll             # as in apply: the window stays open, only the poll moves on
            return
        # what a new working copy of the state holds (a step leaves 'go to', the calls
        # within calls, the asking phase and the cards in focus as a new copy has them)
        actor = ctx.seats[ACTOR]
        ctx.locals = {}
        ctx.chosen = ()
        ctx.chosen_zone = -1
        ctx.deals_run = 0
        ctx.work = 0
        try:
            self._step(ctx, phase, seat, action, rng)
        except IllegalAction:
            ctx.seats[ACTOR] = actor
            raise
        finally:
            ctx.rng = _NO_CHANCE            # no chance between steps (options are only read)

    def _constant_options(self, phase, texts: bool) -> tuple | None:
        """The options of ``phase`` when they are the same in every state (no action
        requires, chooses or labels anything, nothing forces a window's seats), else None."""
        if phase.forced or any(a.steps or (texts and a.labelled) for a in phase.actions):
            return None
        options = tuple(_new(Option, (a.name, a.name, None, 0, 0, (), (), a.exact, ())) for a in phase.actions)
        if phase.kind in ("first", "each"):
            options += (_DECLINE_OPTION,)
        return options

    def _forced(self, ctx: Ctx, phase) -> str | None:
        """The message of a 'forced when' action of ``phase`` that binds the actor now, or None."""
        forced = (self._programs.get(ctx.n) or self.program(ctx.n)).forced[phase.index]
        return None if forced is None else forced(ctx)

    def decider(self, state: State) -> int:
        """The seat that must act now."""
        phase = self.cg.phase_list[state.phase]
        if phase.kind == "turn":
            return state.seats[CURRENT]
        return state.poll[0]

    def _can_take(self, ctx: Ctx, a) -> bool:
        """Whether the actor of ``ctx`` has an option of action ``a``."""
        return self.program(ctx.n).option_of[a](ctx) is not None

    def _with_texts(self, ctx: Ctx, a, option: Option) -> Option:
        """``option`` (made without texts, by a generated option function) with its texts:
        its label before the choices, how people name each value (a blind choice's places
        as ``#1``), the file's prompts."""
        shown, prompts = [], []
        for st, (_, values) in zip(a.choices, option.params):
            if type(st) is ir.ChooseBlind:
                shown.append(tuple(_place_text(v) for v in values))
                prompts.append(None)
            else:
                shown.append(tuple(self._value_text(st.type, v, ctx.n) for v in values))
                prompts.append(st.prompt)
        return option._replace(label=self._label(ctx, a, preview=True), shown=tuple(shown), prompts=tuple(prompts))

    def _value_text(self, typ: str, value, n: int) -> str:
        """How people name a chosen value of type ``typ`` (in a match of ``n`` seats)."""
        if typ.startswith("comb:"):
            return self.pieces(n).combinations[self.cg.combination_kinds[typ[5:]]].text(value)
        if typ == "seat":
            return seat_name(value)
        if typ == "group":
            return " ".join(seat_name(s) for s in value)
        if typ.startswith("sym:"):
            return self.cg.symbols[typ[4:]][value]
        if typ.startswith("num:"):
            return self.cg.value_names[typ[4:]].get(value, str(value))
        return str(value)

    def _label(self, ctx: Ctx, a, preview: bool = False) -> str:
        pieces = self.pieces(ctx.n)
        render = (pieces.preview_of if preview else pieces.label_of).get(a)
        if render is None:
            return a.name
        try:
            return render(ctx)
        except Exception:  # a label that needs the choices: show its plain text
            return a.name

    def options(self, state: State) -> tuple:
        """The options of the deciding seat (see :class:`Option`)."""
        d = self.decision(state)
        return d.options if d else ()

    def legal_actions(self, state: State, limit: int | None = None, largest_first: bool = False,
                      budget: int | None = None, action: str | None = None) -> list[Action]:
        """Every concrete legal action of the deciding seat (at most ``limit`` of them).

        Cards of one kind are interchangeable, so a choice of cards is a multiset of kinds;
        choices are listed by number of cards, fewest first (``largest_first``: most first).
        ``budget`` caps how many candidate choices of each action are examined; ``action``
        lists the choices of the action of that name alone ("decline" for a window's).
        """
        index = state.phase
        if index < 0:
            return []
        phase = self.cg.phase_list[index]
        kind = phase.kind
        ctx = _context(state, state.zones, state.counters, _NO_CHANCE)     # conditions only read it
        ctx.seats[ACTOR] = state.seats[CURRENT] if kind == "turn" else state.poll[0]
        out: list[Action] = []
        declines = (action is None or action == DECLINE) and (kind == "first" or kind == "each")
        prog = self._programs.get(state.n) or self.program(state.n)
        if limit is None and budget is None and not largest_first:
            listers = prog.listers[index]
            if listers is not None:         # the fast path: every action listed by generated code
                if action is None:
                    for lister in listers:
                        lister(ctx, out)
                else:
                    for a, lister in zip(phase.actions, listers):
                        if a.name == action:
                            lister(ctx, out)
                if declines and self._forced(ctx, phase) is None:
                    out.append(DECLINE_ACTION)
                return out
        for a, enum in zip(phase.actions, prog.enumerators[state.phase]):
            if action is not None and a.name != action:
                continue
            for act in enum(ctx, largest_first, budget):
                if act is OUT_OF_BUDGET:
                    break
                out.append(act)
                if limit is not None and len(out) >= limit:
                    return out
        if declines and self._forced(ctx, phase) is None:
            out.append(DECLINE_ACTION)
        return out

    def is_legal(self, state: State, action: Action) -> bool:
        """Whether the deciding seat may take ``action`` now: ``why_illegal(...) is None``."""
        if state.phase < 0:
            return False
        phase = self.cg.phase_list[state.phase]
        name = action.name
        if name == DECLINE:
            return self.why_illegal(state, action) is None
        a = phase.by_name.get(name)
        if a is None:
            return False
        ctx = _context(state, state.zones, state.counters, _NO_CHANCE)
        ctx.seats[ACTOR] = state.seats[CURRENT] if phase.kind == "turn" else state.poll[0]
        return (self._programs.get(state.n) or self.program(state.n)).check_of[a](ctx, action) is None

    def why_illegal(self, state: State, action: Action) -> str | None:
        """None if ``action`` is legal now, else a sentence saying why not."""
        if state.phase < 0:
            return "the match is over"
        phase = self.cg.phase_list[state.phase]
        ctx = self._read_ctx(state)
        ctx.seats[ACTOR] = self.decider(state)
        if action.name == DECLINE:
            return self._decline_reason(ctx, phase, action)
        a = phase.by_name.get(action.name)
        if a is None:
            return self._no_such_action(phase, action)
        return self._judge(ctx, a, action)

    def _judge(self, ctx: Ctx, a, action: Action, prog=None) -> str | None:
        """None if ``action`` (of action ``a``) passes its action's generated check, which then
        leaves its choices bound in ``ctx``; else the sentence that says why not. ``prog``: the
        program of ``ctx.n`` players when the caller has it already."""
        return (prog or self.program(ctx.n)).check_of[a](ctx, action)

    def _decline_reason(self, ctx: Ctx, phase, action: Action) -> str | None:
        if phase.kind not in ("first", "each"):
            return "only a window may be declined"
        if action.cards or action.params:
            return "decline takes no choice"
        return self._forced(ctx, phase)

    @staticmethod
    def _no_such_action(phase, action: Action) -> str:
        names = ", ".join(p.name for p in phase.actions)
        return f"'{action.name}' is not an action here (the actions are: {names})"

    # ------------------------------------------------------------------ transitions
    def apply(self, state: State, action: Action, rng: random.Random,
              texts: bool = True, events: bool = True) -> tuple[State, Sequence[Event]]:
        """The state after the deciding seat takes ``action``, and the events on the way.

        ``texts``: give the events their texts (the action's label, a claim's words, a
        ``log`` line); with False those are None, for simulations that narrate nothing.
        ``events``: with False no event is recorded and () is returned for them (a loop
        that reads no events, such as a bot's look-ahead, pays for none).

        Raises:
            IllegalAction: ``action`` is not legal in ``state`` (the message says why).
        """
        phase, seat, poll = self._opening(state, action)
        if poll is not None:
            return (_new(State, state[:_POLL] + (poll,) + state[_POLL + 1:]),
                    [_new(Event, ("decline", None, {"seat": seat, "phase": phase.name}))] if events else ())
        # no chance while the action is checked
        ctx = _context(state, list(state.zones), list(state.counters), _NO_CHANCE)
        if events:
            ctx.texts = texts
        else:
            ctx.events = NO_EVENTS
            ctx.texts = False
        self._step(ctx, phase, seat, action, rng)
        return self.snapshot(ctx), (self._events(ctx) if events else ())

    def effects(self, state: State, action: Action, rng: random.Random) -> State:
        """``state`` once the deciding seat's ``action`` has run its own effects, before any
        turn's ``then``, window, vote or other seat: not a decision point, a state to read
        (the claim the action makes and whether it holds, for a bot weighing its choices
        at the cost of one action's effects instead of a whole step). A decline or a vote
        changes nothing there (a vote takes effect when every vote is cast).

        Raises:
            IllegalAction: ``action`` is not legal in ``state``.
        """
        phase, seat, poll = self._opening(state, action)
        if poll is not None:
            return state
        ctx = _context(state, list(state.zones), list(state.counters), _NO_CHANCE)
        ctx.events = NO_EVENTS
        ctx.texts = False
        self._step(ctx, phase, seat, action, rng, body_only=True)
        return self.snapshot(ctx)

    def _opening(self, now, action: Action) -> tuple:
        """(phase, deciding seat, poll) of a step from ``now`` (a :class:`State` or a working
        copy); ``poll`` is the poll that follows when ``action`` declines a window that
        stays open for the next seat asked whatever it holds (it has an action open to every
        seat, nothing forces, and that seat is still in): then only the poll moves on;
        else None.

        Raises:
            IllegalAction: the match is over.
        """
        if now.phase < 0:
            raise IllegalAction("the match is over")
        phase = self.cg.phase_list[now.phase]
        kind = phase.kind
        seat = now.seats[CURRENT] if kind == "turn" else now.poll[0]
        if action.name == DECLINE and not phase.forced and self._open[phase.index] and \
                (kind == "first" or kind == "each") and not action.cards and not action.params:
            poll = now.poll[1:]
            if poll and not (now.out and now.out[poll[0]]):
                return phase, seat, poll
        return phase, seat, None

    def _step(self, ctx: Ctx, phase, seat: int, action: Action, rng: random.Random,
              body_only: bool = False) -> None:
        """The deciding ``seat`` takes ``action`` on the working copy ``ctx`` (its generator
        the placeholder that forbids chance): judged first, then done, until the next
        decision or the end of the match (``body_only``: only the action's own effects; a
        vote or a decline does nothing more than being judged).

        Raises:
            IllegalAction: before anything is changed but the actor, chosen cards and values.
        """
        kind = phase.kind
        ctx.seats[ACTOR] = seat
        prog = self._programs.get(ctx.n) or self.program(ctx.n)
        declined = action.name == DECLINE
        if declined:
            reason = self._decline_reason(ctx, phase, action)
        else:
            a = phase.by_name.get(action.name)
            reason = self._no_such_action(phase, action) if a is None else prog.check_of[a](ctx, action)
        if reason is not None:
            raise IllegalAction(reason)
        ctx.rng = rng
        if body_only and (declined or kind == "vote"):
            return                  # judged, and nothing more
        if declined:
            ctx.events.append(("decline", None, {"seat": seat, "phase": phase.name}))
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
            self._settle(ctx)
            return
        if kind == "vote":
            # a vote stays secret, and takes effect, only when every vote is cast
            ctx.events.append(("voted", None, {"seat": seat, "phase": phase.name}))
            votes = list(ctx.votes)
            votes[seat] = action
            ctx.votes = tuple(votes)
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
            self._settle(ctx)
            return
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("action", None, {"seat": seat, "action": a.name,
                                                "text": self._label(ctx, a) if ctx.texts else None,
                                                "ncards": len(action.cards)}))
        ctx.goto = None
        try:
            prog.bodies[phase.index][a.index](ctx)
        except EndOfDeal:
            ctx.goto = None
            self._end_deal(ctx)
        except EndOfTurn:
            self._end_turn(ctx)
        if ctx.phase == -1 or body_only:
            return
        if ctx.goto is None and kind == "each":
            ctx.poll = ctx.poll[1:]
            self._advance_poll(ctx, phase)
        elif ctx.goto is None:
            if ctx.stack:
                self._return(ctx)
            elif kind == "turn":
                self._finish_turn(ctx, phase)     # the turn's 'then', and a 'clockwise' turn passes on
            if ctx.goto is None and ctx.phase != -1:
                raise RulesRuntimeError(f"action '{a.name}' of '{phase.name}' ended without 'go to' "
                                        f"(line {a.span.line})")
        self._settle(ctx)

    def _after(self, ctx: Ctx, phase):
        """The block that runs when ``phase`` closes (its 'then' / 'otherwise')."""
        return self.program(ctx.n).after[phase.index]

    def _run(self, ctx: Ctx, fn) -> None:
        try:
            fn(ctx)
        except EndOfDeal:
            ctx.goto = None
            self._end_deal(ctx)
        except EndOfTurn:
            self._end_turn(ctx)

    def _end_turn(self, ctx: Ctx) -> None:
        """``end turn``: leave every phase the turn asked, and end the turn that asked first."""
        if ctx.stack:
            _, values, current, actor, origin = ctx.stack[0]
            ctx.stack = ()
            ctx.locals = dict(values)
            ctx.seats[CURRENT] = current
            ctx.seats[ACTOR] = actor
        else:
            origin = ctx.phase if ctx.asker is None else ctx.asker
        phase = self.cg.phase_list[origin] if origin is not None and origin >= 0 else None
        if phase is None or phase.kind != "turn":
            raise RulesRuntimeError("'end turn' is reached outside a turn")
        ctx.goto = None
        self._finish_turn(ctx, phase)
        if ctx.goto is None and ctx.phase != -1:
            raise RulesRuntimeError(f"turn '{phase.name}' ends without saying where play goes (line {phase.span.line})")

    def _finish_turn(self, ctx: Ctx, phase) -> None:
        """A turn's action is over and nothing said where play goes: the turn's ``then``
        block runs; then a ``clockwise`` turn passes to the next seat."""
        if phase.closes:
            try:
                self._after(ctx, phase)(ctx)
            except EndOfTurn:
                ctx.goto = None                   # 'end turn' in the turn's own 'then' stops it
            except EndOfDeal:
                ctx.goto = None
                self._end_deal(ctx)
                return
        if ctx.goto is None and ctx.phase != -1 and phase.rotates:
            seat = self.pieces(ctx.n).rotate[phase.index](ctx)
            if seat is None:
                raise RulesRuntimeError(f"nobody is left to take the turn '{phase.name}' (line {phase.span.line})")
            ctx.seats[CURRENT] = seat
            ctx.goto = phase.index

    def _return(self, ctx: Ctx) -> None:
        """An asked phase ended without saying where play goes: run the ``then`` blocks of
        the pending ``ask``s, innermost first, until one says where play goes."""
        origin = None
        while ctx.goto is None and ctx.phase != -1 and ctx.stack:
            index, values, current, actor, origin = ctx.stack[-1]
            ctx.stack = ctx.stack[:-1]
            ctx.locals = dict(values)
            ctx.seats[CURRENT] = current
            ctx.seats[ACTOR] = actor
            ctx.asker = origin
            self._run(ctx, self.program(ctx.n).continuations[index])
            ctx.asker = None
        if ctx.goto is None and ctx.phase != -1:
            # every pending 'then' is done: the turn that asked first ends as its actions do
            phase = self.cg.phase_list[origin] if origin is not None and origin >= 0 else None
            if phase is None or phase.kind != "turn" or not phase.closes and not phase.rotates:
                raise RulesRuntimeError("the rules end a 'then' block of 'ask' without saying where play goes")
            self._finish_turn(ctx, phase)

    def _run_setup(self, ctx: Ctx) -> None:
        ctx.deals_run += 1
        if ctx.deals_run > _MAX_QUICK_DEALS:
            raise RulesRuntimeError(f"{_MAX_QUICK_DEALS} deals ended one after another without anyone deciding: "
                                    "does the setup end the deal?")
        ctx.goto = None
        ctx.stack = ()
        ctx.claim = None
        ctx.claimed = None
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("deal_start", None, {"deal": ctx.deal}))
        self._run(ctx, self.program(ctx.n).setup)

    def _end_deal(self, ctx: Ctx) -> None:
        if ctx.events is not NO_EVENTS:
            ctx.events.append(("deal_end", None, {"deal": ctx.deal, "counters": tuple(ctx.counters)}))
        pieces = self.pieces(ctx.n)
        over = ctx.over or pieces.until is None or bool(pieces.until(ctx))
        if over:
            ctx.phase = -1
            ctx.goto = None
            ctx.poll = ()
            winners = self._winners(ctx)
            ctx.events.append(("match_end", None, {"winners": winners}))
            ctx.winners = winners
            return
        self._run(ctx, pieces.between)
        ctx.deal += 1
        ctx.known = ()
        self._run_setup(ctx)

    def _winners(self, ctx: Ctx) -> tuple:
        # seats knocked out never win while another seat is still in
        seats = [s for s in range(ctx.n) if not ctx.out[s]] or list(range(ctx.n))
        saved = ctx.seats[ACTOR]
        for highest, key in self.pieces(ctx.n).rank_keys:
            values = {}
            for s in seats:
                ctx.seats[ACTOR] = s
                values[s] = key(ctx)
            best = max(values.values()) if highest else min(values.values())
            seats = [s for s in seats if values[s] == best]
        ctx.seats[ACTOR] = saved
        return tuple(seats)

    def standing(self, state: State, seat: int) -> tuple:
        """``seat``'s ranking values (the ``winners`` keys, each as the file computes it),
        as in its row of :meth:`standings`."""
        ctx = self._ctx(state, None)
        ctx.seats[ACTOR] = seat
        return tuple([key(ctx) for _, key in self.pieces(state.n).rank_keys])

    def standings(self, state: State) -> list[tuple[int, tuple]]:
        """Every seat with its ranking values (the ``winners`` keys), best first: the seats
        still in the match first, then those knocked out, the last to go out first."""
        ctx = self._ctx(state, None)
        rows = []
        keys = self.pieces(state.n).rank_keys
        for s in range(state.n):
            ctx.seats[ACTOR] = s
            rows.append((s, tuple(key(ctx) for _, key in keys)))
        signs = [1 if highest else -1 for highest, _ in keys]
        out = state.out or (0,) * state.n
        rows.sort(key=lambda r: (out[r[0]] > 0, -out[r[0]], tuple(-sg * v for sg, v in zip(signs, r[1]))))
        return rows

    def returns(self, state: State) -> tuple:
        """Each seat's result of a finished match, by seat: the file's ``returns`` (points,
        chips…), or +1 for a winner and -1 for any other seat.

        Raises:
            ValueError: the match is not over.
        """
        if not state.is_terminal:
            raise ValueError("the match is not over")
        returns = self.pieces(state.n).returns
        if returns is None:
            return tuple(1 if s in state.winners else -1 for s in range(state.n))
        ctx = self._ctx(state, None)
        ctx.winners = state.winners
        values = []
        for s in range(state.n):
            ctx.seats[ACTOR] = s
            values.append(returns(ctx))
        return tuple(values)

    def _settle(self, ctx: Ctx) -> None:
        """Follow ``go to``s until a seat must decide or the match is over."""
        moves = 0
        while ctx.goto is not None and ctx.phase != -1:
            moves += 1
            if moves > _MAX_SETTLE:
                raise RulesRuntimeError("the rules go from phase to phase without anyone deciding")
            target = self.cg.phase_list[ctx.goto]
            ctx.goto = None
            ctx.phase = target.index
            if target.kind == "turn":
                ctx.poll = ()
                return
            ctx.poll = tuple(self.pieces(ctx.n).polls[target.index](ctx))
            ctx.votes = (None,) * ctx.n
            self._advance_poll(ctx, target)

    def _advance_poll(self, ctx: Ctx, phase) -> None:
        """Skip seats that could do nothing; when nobody is left, close the window or vote."""
        saved = ctx.seats[ACTOR]
        makers = (self._programs.get(ctx.n) or self.program(ctx.n)).options[phase.index]
        while ctx.poll:
            if ctx.out[ctx.poll[0]]:            # knocked out while the window was open
                ctx.poll = ctx.poll[1:]
                continue
            ctx.seats[ACTOR] = ctx.poll[0]
            if self._open[phase.index] or any(make(ctx) is not None for make in makers):
                ctx.seats[ACTOR] = saved
                return
            ctx.poll = ctx.poll[1:]
        ctx.seats[ACTOR] = saved
        ctx.goto = None
        if phase.kind == "vote":
            ctx.events.append(("votes", None, {"phase": phase.name, "votes": tuple(None if v is None else v.name
                                                              for v in ctx.votes)}))
            # the choices take effect together: each statement of the chosen actions is done
            # for every voter (in seat order) before the next, so no effect sees another's
            ready = []
            for seat, vote in enumerate(ctx.votes):
                if vote is None:
                    continue
                a = phase.by_name[vote.name]
                ctx.seats[ACTOR] = seat
                if self._judge(ctx, a, vote) is None:
                    effects = self.program(ctx.n).effects_of[a]
                    ready.append((seat, effects, ctx.locals, ctx.chosen, ctx.chosen_zone))
            for i in range(max((len(r[1]) for r in ready), default=0)):
                for seat, effects, values, chosen, zone in ready:
                    if i < len(effects):
                        ctx.seats[ACTOR] = seat
                        ctx.locals, ctx.chosen, ctx.chosen_zone = values, chosen, zone
                        self._run(ctx, effects[i])
                        if ctx.phase == -1:
                            return
            ctx.goto = None
        if phase.closes:
            self._run(ctx, self._after(ctx, phase))
        if ctx.goto is None and ctx.phase != -1 and ctx.stack:
            self._return(ctx)
        if ctx.goto is None and ctx.phase != -1:
            raise RulesRuntimeError(f"'{phase.name}' closed without saying where play goes "
                                    f"(line {phase.span.line}): end its 'otherwise'/'then' with 'go to'")

    # ------------------------------------------------------------------ state <-> context
    def _ctx(self, state: State, rng) -> Ctx:
        """A working copy of ``state`` that effects may change (zones, counters and seats
        as lists); ``rng`` None: no chance may happen."""
        return _context(state, list(state.zones), list(state.counters), rng if rng is not None else _NoChance())

    def _read_ctx(self, state: State) -> Ctx:
        """A context for conditions only: it shares the state's zones and counters (they are
        only read) and copies the seats (the actor is set in it)."""
        return _context(state, state.zones, state.counters, _NO_CHANCE)

    def snapshot(self, ctx: Ctx) -> State:
        """The :class:`State` a working copy (see :meth:`working_copy`) stands for now."""
        if ctx.phase == -1:
            return _new(State, (ctx.n, tuple(ctx.zones), tuple(ctx.counters), tuple(ctx.seats), -1, tuple(ctx.poll),
                                tuple(ctx.votes), ctx.claim, ctx.claimed, ctx.known, ctx.deal, ctx.groups,
                                getattr(ctx, "winners", ()), ctx.out, ()))
        return _new(State, (ctx.n, tuple(ctx.zones), tuple(ctx.counters), tuple(ctx.seats), ctx.phase, tuple(ctx.poll),
                            tuple(ctx.votes), ctx.claim, ctx.claimed, ctx.known, ctx.deal, ctx.groups, (), ctx.out,
                            ctx.stack))

    @staticmethod
    def _events(ctx: Ctx) -> Sequence[Event]:
        made = ctx.events
        return list(map(_new_event, made)) if made is not NO_EVENTS else ()

    # ------------------------------------------------------------------ views
    def view(self, state: State, seat: int, history: Sequence = (), texts: bool = True) -> View:
        """What ``seat`` may know of ``state`` (see :class:`View`); ``history`` is the seat's
        public history, carried as ``View.history``; ``texts``: give the standing claim's
        words (``View.claim_text``; None with False, for bots, which do not read it)."""
        cg = self.cg
        prog = self.program(state.n)
        zones = prog.view_zones(state.zones, seat)
        counters = prog.view_counters(state.counters, seat)
        claim = None
        claim_text = None
        if state.claim is not None:
            ci, values, claimant = state.claim
            claim_text = self.claim_text(state) if texts else None
            count = state.claimed[1] if state.claimed is not None else 0
            slot = state.claimed[0] if state.claimed is not None else -1
            claim = (cg.claim_list[ci].name, values, claimant, count, slot)
        # what this seat knows, once each (a seat may both remember and have seen the same cards)
        known = ()
        if state.known:
            places = prog.places
            known = tuple(dict.fromkeys(places[slot] + (tuple(sorted(cards)),)
                                        for viewer, slot, cards, _ in state.known if viewer == seat or viewer < 0))
        phase = cg.phase_list[state.phase].name if state.phase >= 0 else "over"
        decider = self.decider(state) if state.phase >= 0 else None
        voted = ()
        if state.phase >= 0 and cg.phase_list[state.phase].kind == "vote":
            voted = tuple(s for s, v in enumerate(state.votes) if v is not None)
        dice = ()
        if cg.has_dice:
            names = self.die_names
            dice = tuple(None if z[2] is None else tuple(sum(1 for k in cards if self.kinds[k].die == d)
                                                         for d in names)
                         for z, cards in zip(zones, state.zones))
        seats = acting_seats(state.seats, decider)
        return View(seat, state.n, phase, decider, tuple(zones), tuple(counters),
                    tuple(zip(cg.seat_names, seats)), claim, known, voted, state.deal, state.poll,
                    tuple((gr.name, seats) for gr, seats in zip(self.game.groups, state.groups)), claim_text,
                    state.out, dice, state.stack, history)

    def view_fields(self, view: View) -> dict:
        """Every field of a :class:`State` that ``view`` fixes, zones aside, by name: the
        counters (a value the seat may not see reads 0), seats, phase, poll, standing claim,
        deal, groups, knock-outs and pending asks; no vote is cast and no fact is known.
        ``State(view.players, zones, **fields)`` is then a state agreeing with the view."""
        claim = claimed = None
        if view.claim is not None:
            name, values, claimant, count, slot = view.claim
            claim = (self.cg.claims[name].index, values, claimant)
            claimed = (slot, count) if slot >= 0 else None
        n = view.players
        return dict(counters=seen_counters(view.counters), seats=tuple(s for _, s in view.seats),
                    phase=self.phase_index(view.phase), poll=tuple(view.poll), votes=(None,) * n, claim=claim,
                    claimed=claimed, known=(), deal=view.deal, groups=tuple(s for _, s in view.groups),
                    out=view.out or (0,) * n, stack=view.pending)

    def claim_text(self, state: State) -> str | None:
        """The standing claim as its label reads (its name and values without a label)."""
        if state.claim is None:
            return None
        c = self.cg.claim_list[state.claim[0]]
        label = self.pieces(state.n).claim_labels[c.index]
        if label is None:
            return f"{c.name} {' '.join(map(str, state.claim[1]))}"
        return label(self._ctx(state, None), state.claim[1])

    # ------------------------------------------------------------------ helpers for players
    def phase_index(self, name: str) -> int:
        """The index of a phase by name (-1 for "over")."""
        return self.cg.phases[name].index if name in self.cg.phases else -1

    def claim_rank(self, state: State):
        """The standing claim's place in its declared order (comparable within one claim
        kind: larger is higher), or None without a claim or an order."""
        if state.claim is None:
            return None
        return self.pieces(state.n).ranks[state.claim[0]](self._ctx(state, None), state.claim[1])

    def claim_order(self, state: State, name: str, values: tuple):
        """The place of the claim ``name(values)`` in its declared order, read in ``state``
        (as :meth:`claim_rank` of that claim standing), or None when it has no order.

        Raises:
            KeyError: no claim is named ``name``.
        """
        return self.pieces(state.n).ranks[self.cg.claims[name].index](self._ctx(state, None), tuple(values))

    def claim_holds_in(self, state: State, zones: tuple | None = None) -> bool:
        """Whether the standing claim is true in ``state`` (for tests and determinized bots);
        ``zones``: as if the zones were these instead (no state is made for them)."""
        if state.claim is None:
            return False
        ctx = self._read_ctx(state)
        if zones is not None:
            ctx.zones = zones
        return self.program(state.n).holds(ctx)

    def claim_holds_in_place(self, ctx: Ctx) -> bool:
        """:meth:`claim_holds_in` of the state a working copy (see :meth:`working_copy`)
        stands for, read from the copy (unchanged)."""
        if ctx.claim is None:
            return False
        return self.program(ctx.n).holds(ctx)

    def claim_test(self, state: State) -> Callable[[tuple], bool]:
        """A function of ``zones`` (a tuple of card tuples, one per zone of ``state``):
        whether the standing claim of ``state`` would be true were those its zones (as
        :meth:`claim_holds_in` with ``zones``; one reading of the state for every test)."""
        if state.claim is None:
            return lambda zones: False
        ctx = self._read_ctx(state)
        holds = self.program(state.n).holds

        def test(zones: tuple) -> bool:
            ctx.zones = zones
            return holds(ctx)
        return test

    def claim_would_hold(self, state: State, name: str, args: tuple, seat: int) -> bool:
        """Whether the claim ``name(args)``, made by ``seat``, would be true in ``state``
        (a bot weighing what the claims it heard say about hidden cards).

        Raises:
            KeyError: no claim is named ``name``.
        """
        return self.claims_would_hold(state, ((name, args, seat),))[0]

    def claims_would_hold(self, state: State, claims) -> list[bool]:
        """For each claim ``(name, args, seat)`` of ``claims``, whether it would be true in
        ``state`` (as :meth:`claim_would_hold`; one reading of the state for them all).

        Raises:
            KeyError: no claim is named one of the names.
        """
        table = self.cg.claims
        ctx = self._ctx(state, None)
        seats = ctx.seats
        truths = self.program(state.n).truths
        out = []
        for name, args, seat in claims:
            seats[CLAIMANT] = seat
            out.append(truths[table[name].index](ctx, tuple(args)))
        return out

    def zone_slot(self, state: State, zone: str, owner: int | None = None) -> int:
        """The index in ``state.zones`` of a zone instance, by zone name and owner."""
        zi = self.cg.zone_index[zone]
        return self.cg.zone_slot(zi, owner or 0, state.n)

    def combination_values(self, name: str) -> tuple[str, ...]:
        """The values of the order of combinations ``name`` (``combinations NAME: A < B < …``),
        lowest first, in words: value ``i`` of a claim or a choice of that kind is the
        ``i``-th.

        Raises:
            KeyError: no order of combinations is named ``name``.
        """
        order = self.pieces(self.game.players[0]).combinations[self.cg.combination_kinds[name]]
        return tuple(order.text(i) for i in order.indices)

    def kind_label(self, kind: int) -> str:
        """What players call a card kind: its label, e.g. "7"."""
        return self.kinds[kind].label

    def kind_named(self, label: str) -> int:
        """The kind index of the card players call ``label``.

        Raises:
            KeyError: no card kind has that label.
        """
        for i, k in enumerate(self.kinds):
            if k.label == label:
                return i
        raise KeyError(label)

    def observe(self, event: Event, seat: int, players: int) -> Event | None:
        """What ``seat`` perceives of an event at the table, or None if nothing.

        Cards that go where the seat cannot see them are replaced by None (their number
        stays public; so are those a ``deal`` gives to others); orders of shuffles, faces of hidden dice and hidden counters are left
        out; a ``show`` to another seat is not perceived. The result is what a person at
        that seat would know: the events of a seat's public history (``View.history``).
        """
        kind, data = event.kind, event.data
        if kind in ("show", "show_counter"):
            return event if event.seat == seat else None
        if kind in ("move", "draw", "pick", "roll_dice"):
            slot = data.get("to", data.get("zone", -1))
            if slot >= 0 and not self._sees(slot, seat, players):
                sources = data.get("from")
                sources = sources if isinstance(sources, (list, tuple)) else ()
                if not (kind == "move" and sources and all(self._sees(s, seat, players) for s in sources)):
                    data = dict(data, cards=(None,) * len(data["cards"]))
            return Event(kind, None, data)
        if kind == "deal" and "dealt" in data:
            # how many each seat got is public; which cards, only where the seat may look
            dealt = tuple([(slot, cards if self._sees(slot, seat, players) else (None,) * len(cards))
                           for slot, cards in data["dealt"]])
            return Event(kind, None, dict(data, dealt=dealt))
        if kind in ("shuffle", "refill"):
            return Event(kind, None, {k: v for k, v in data.items() if k != "order"})
        if kind == "deal_end":
            public = []
            bases = self.cg.counter_base(players)
            for ci, decl in enumerate(self.game.counters):
                width = players if decl.per_player else 1
                if decl.seen == "all":
                    public.extend(data["counters"][bases[ci]:bases[ci] + width])
                else:
                    public.extend((None,) * width)
            return Event(kind, None, dict(data, counters=tuple(public)))
        return event

    def _sees(self, slot: int, seat: int, players: int) -> bool:
        zi, owner = self.cg.zone_owner(slot, players)
        return self.cg.zones[zi].sees(owner, seat)

    def describe_event(self, event: Event, players: int) -> str | None:
        """A line of play-by-play for an event, or None for events not worth a line."""
        from .narrate import describe
        return describe(self, event, players)


def _context(state: State, zones, counters, rng) -> Ctx:
    """A :class:`Ctx` of ``state`` with these zones, counters and generator: its other slots
    as ``Ctx()`` sets them (made here, without a call to ``Ctx.__init__``: a context is
    made for every check)."""
    ctx = _bare(Ctx)
    # one unpacking of the fields (reading them by name costs a call each)
    n, _, _, seats, ctx.phase, ctx.poll, ctx.votes, ctx.claim, ctx.claimed, ctx.known, ctx.deal, ctx.groups, _, \
        out, ctx.stack = state
    ctx.n = n
    ctx.zones = zones
    ctx.counters = counters
    ctx.seats = list(seats)
    ctx.out = out or (0,) * n
    ctx.rng = rng
    # as Ctx.__init__
    ctx.texts = True
    ctx.over = False
    ctx.calls = ctx.work = ctx.deals_run = 0
    ctx.made = ctx.asker = ctx.focus = ctx.goto = None
    ctx.locals = {}
    ctx.chosen = ()
    ctx.chosen_zone = -1
    ctx.events = []
    return ctx


_bare = object.__new__


def _place_text(value) -> str:
    places = (value,) if isinstance(value, int) else value
    return " ".join(f"#{p}" for p in places)


def _owner(o: int):
    return None if o < 0 else o


class _NoChance:
    """Stands in for the random generator where no chance may happen (legality checks)."""

    def _fail(self, *a, **k):
        raise RulesRuntimeError("a condition of an action may not depend on chance")

    randint = randrange = shuffle = sample = choice = random = _fail


_NO_CHANCE = _NoChance()


def multisets(pool: tuple, low: int, high: int, largest_first: bool = False) -> Iterator[tuple]:
    """Every sub-multiset of ``pool`` (kind indices) with ``low``..``high`` cards, as sorted
    tuples; by size, smallest first (or largest first)."""
    counts: dict = {}
    for k in pool:
        counts[k] = counts.get(k, 0) + 1
    kinds = sorted(counts)
    high = min(high, len(pool))
    room = [0] * (len(kinds) + 1)            # room[i]: the cards of kinds[i:]
    for i in range(len(kinds) - 1, -1, -1):
        room[i] = room[i + 1] + counts[kinds[i]]

    def rec(i, left, acc):
        if left == 0:
            yield tuple(acc)
            return
        if room[i] < left:
            return                           # too few cards left to fill the choice
        k = kinds[i]
        for c in range(min(counts[k], left), -1, -1):
            yield from rec(i + 1, left - c, acc + [k] * c)

    sizes = range(high, low - 1, -1) if largest_first else range(low, high + 1)
    total = len(pool)
    for size in sizes:
        if size == total:               # the only choice: every card (no recursion for it)
            yield tuple(sorted(pool))
        elif size == 0:
            yield ()
        elif size > 0:
            yield from rec(0, size, [])


def count_multisets(pool: tuple, low: int, high: int) -> int:
    """How many sub-multisets :func:`multisets` would yield (without listing them)."""
    counts: dict = {}
    for k in pool:
        counts[k] = counts.get(k, 0) + 1
    ways = [1] + [0] * high
    for c in counts.values():
        new = [0] * (high + 1)
        for size, w in enumerate(ways):
            if w:
                for take in range(0, min(c, high - size) + 1):
                    new[size + take] += w
        ways = new
    return sum(ways[low:high + 1])
