"""The engine: a match's set-up, its decisions, legal actions and transitions, and its outcome.

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

:class:`Engine` is made of parts, each in its module: the values it exchanges with players
(:mod:`.state`), what a seat may know of a state or an event (:mod:`.observe`), and what players ask of the
rules about a state (:mod:`.queries`); here are the match's set-up, the decisions, the
legal actions and the transitions, each answered by a function of the game's generated
module over the state's fields (the straight-line steps, listings and options of
:mod:`.stepgen`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Callable, Iterator

from .. import ir
from ..lang import model as m
from ..sema.visibility import public_checks
from ..errors import IllegalAction, OptionError
from .narrate import seat_name
from .codegen import OUT_OF_BUDGET
from ..errors import RulesRuntimeError
from .compile import DECLINE, CompiledGame, compile_game
from .observe import Observation
from .queries import RulesQueries
# the exchanged values live in .state; Action … View and option_reason are importable from here as before
from .state import (DECLINE_ACTION, _DECLINE_OPTION, Action, Decision, Event, Option, State, View,  # noqa: F401
                    _new, _new_event, option_reason)
from .runtime import ACTOR, CURRENT, Ctx, action_text

_UNKNOWN = object()
_POLL = State._fields.index("poll")
_PHASE = State._fields.index("phase")
_KNOWN = State._fields.index("known")


class Engine(Observation, RulesQueries):
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
        self._steppers: dict = {}           # players -> the step of stepper(players), or None
        self._starters: dict = {}           # players -> the first state's function of a generator
        #: [texts][phase index] -> the phase's constant options or None (_UNKNOWN until asked)
        self._fixed_options = ([_UNKNOWN] * len(self.cg.phase_list), [_UNKNOWN] * len(self.cg.phase_list))
        #: per phase: its checks read only what the deciding seat sees, so a seat's questions
        #: about its decision may be answered from :func:`.observe.masked_state`
        self.public_checks = public_checks(game)

    def program(self, players: int):
        """The generated module of this game for ``players`` seats (made once per engine and
        player count; see :mod:`rulekit.engine.codegen`)."""
        prog = self._programs.get(players)
        if prog is None:
            from .codegen import generate
            from .stepgen import write_steps
            prog = self._programs[players] = generate(self.cg, players, Action, multisets, Option, State,
                                                      write_steps)
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
        starter = self._starters.get(players)
        if starter is None:
            low, high = self.game.players
            if not low <= players <= high:
                raise OptionError(f"--players must be between {low} and {high} for {self.game.title}, not {players}")
            start = (self._programs.get(players) or self.program(players)).start
            zones, counters, seats, votes, groups, out = self._starts.get(players) or self._start(players)
            starter = self._starters[players] = partial(start, zones, counters, seats, votes, groups, out)
        if not events:
            return starter(rng), ()
        made: list = []
        return starter(rng, made, True), list(map(_new_event, made))

    def _start(self, players: int) -> tuple:
        """What every match of ``players`` seats starts from, made once per player count:
        the zones before the first setup (the deck in its zone, the cards and dice each seat
        starts with; as lists, each match makes its own tuples), the counters and seats (all
        0; the first state's step computes their first values), the votes, groups and
        knock-outs."""
        cg = self.cg
        ctx = Ctx()
        ctx.n = players
        ctx.zones = [()] * cg.zone_count(players)
        ctx.zones[cg.zone_slot(cg.holder, 0, players)] = self.deck
        self._place_dice(ctx)
        start = self._starts[players] = (tuple(map(list, ctx.zones)), (0,) * self._counter_total(players),
                                         (0,) * len(cg.seat_names), (None,) * players,
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
        # over the state's fields (see rulekit.engine.stepgen)
        offered = (self._programs.get(state[0]) or self.program(state[0])).state_options[phase.index](state)
        if not texts:
            return seat, phase, offered
        # their texts (labels over what the seat may read) over a context that reads the state
        ctx = _context(state, state.zones, state.counters, _NO_CHANCE)
        ctx.seats[ACTOR] = seat
        by_name = phase.by_name
        return seat, phase, tuple([opt if opt[0] == DECLINE else self._with_texts(ctx, by_name[opt[0]], opt)
                                   for opt in offered])

    def _fixed(self, phase, texts: bool) -> tuple | None:
        """:meth:`_constant_options`, made once per phase and ``texts``."""
        made = self._fixed_options[1 if texts else 0]
        fixed = made[phase.index]
        if fixed is _UNKNOWN:
            fixed = made[phase.index] = self._constant_options(phase, texts)
        return fixed

    # ------------------------------------------------------------------ a match in place
    def working_copy(self, state: State, knowledge: bool = True) -> Stepping:
        """A working copy of ``state`` that :meth:`apply_in_place` changes in place, step after
        step, recording no events: for the match runner and the bots' play-outs when
        nothing needs a :class:`State` between steps (:meth:`snapshot` gives the state it
        stands for). A :class:`Stepping`: read its ``phase``, ``claim``, ``zones`` and
        ``made`` (the claimants of the claims made in it).

        ``knowledge``: with False, the copy tracks nothing of which cards each seat was
        shown or remembers (its states' ``known`` is None): the steps are the same, and
        cheaper where much is known (a sixth of a random play-out where many cards are shown), but no view can be
        made of its states (:meth:`view` raises ValueError). For a play-out whose states
        nobody shows to a seat. A state that already tracks none stays so whatever
        ``knowledge`` says: what was not tracked cannot be recovered."""
        if not knowledge and state[_KNOWN] is not None:
            state = _new(State, state[:_KNOWN] + (None,) + state[_KNOWN + 1:])
        return Stepping(state, self.stepper(state[0]))

    def decide_in_place(self, ctx: Stepping, texts: Sequence) -> tuple:
        """:meth:`decide` on a working copy (unchanged by it); ``texts``: by seat."""
        state = ctx.state
        return self.decide(state, texts[self.decider(state)])

    def apply_in_place(self, ctx: Stepping, action: Action, rng: random.Random) -> None:
        """:meth:`apply` on a working copy, in place: the copy becomes what :meth:`apply`
        would return for the state it stands for.

        Raises:
            IllegalAction: ``action`` is not legal there (the copy is unchanged).
        """
        ctx.state = ctx.step(ctx.state, action, rng, ctx.made)

    def applier(self, ctx: Stepping, rng: random.Random) -> Callable[[Action], None]:
        """``apply(action)``: :meth:`apply_in_place` of ``ctx`` and ``rng``, made once for
        the many steps of a play-out (the same steps, one call fewer a step).

        Raises (``apply``):
            IllegalAction: as :meth:`apply_in_place` (the copy is unchanged).
        """
        step, made = ctx.step, ctx.made

        def apply(action: Action) -> None:
            ctx.state = step(ctx.state, action, rng, made)
        return apply

    def _constant_options(self, phase, texts: bool) -> tuple | None:
        """The options of ``phase`` when they are the same in every state (no action
        requires, chooses or labels anything, nothing forces a window's seats), else None."""
        if phase.forced or any(a.steps or (texts and a.labelled) for a in phase.actions):
            return None
        options = tuple(_new(Option, (a.name, a.name, None, 0, 0, (), (), a.exact, ())) for a in phase.actions)
        if phase.kind in ("first", "each"):
            options += (_DECLINE_OPTION,)
        return options

    def decider(self, state: State) -> int:
        """The seat that must act now."""
        phase = self.cg.phase_list[state.phase]
        if phase.kind == "turn":
            return state.seats[CURRENT]
        return state.poll[0]

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
        return action_text((pieces.preview_of if preview else pieces.label_of).get(a), ctx, a.name)

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
        index = state[_PHASE]
        if index < 0:
            return []
        prog = self._programs.get(state[0]) or self.program(state[0])
        if limit is None and budget is None and not largest_first and action is None:
            return prog.legal[index](state)     # listed over the state's fields (see rulekit.engine.stepgen)
        out: list[Action] = []
        for name, enum in prog.enumerators_of[index]:
            if action is not None and name != action:
                continue
            for act in enum(state, largest_first, budget):
                if act is OUT_OF_BUDGET:
                    break
                out.append(act)
                if limit is not None and len(out) >= limit:
                    return out
        return out

    def is_legal(self, state: State, action: Action) -> bool:
        """Whether the deciding seat may take ``action`` now: ``why_illegal(...) is None``."""
        if state.phase < 0:
            return False
        judge = self._judge_of(state, action)
        if judge is None:                   # no such action here
            return False
        try:
            judge(state, action, None, judge=True)
        except IllegalAction:
            return False
        return True

    def why_illegal(self, state: State, action: Action) -> str | None:
        """None if ``action`` is legal now, else a sentence saying why not."""
        if state.phase < 0:
            return "the match is over"
        judge = self._judge_of(state, action)
        if judge is None:
            phase = self.cg.phase_list[state.phase]
            if action.name == DECLINE:
                return "only a window may be declined"
            return self._no_such_action(phase, action)
        try:
            judge(state, action, None, judge=True)
        except IllegalAction as exc:
            return str(exc)
        return None

    def _judge_of(self, state: State, action: Action) -> Callable | None:
        """The step of ``action`` in ``state`` (see :mod:`rulekit.engine.stepgen`), which with
        ``judge=True`` only judges it (an :class:`IllegalAction` says why not); None when
        the phase has no such action (nor a decline, outside a window)."""
        return (self._programs.get(state[0]) or self.program(state[0])).steps[state[_PHASE]].get(action[0])

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
        if state[_PHASE] < 0:
            raise IllegalAction("the match is over")
        # the action's straight-line step (see rulekit.engine.stepgen)
        step = (self._programs.get(state[0]) or self.program(state[0])).steps[state[_PHASE]].get(action[0])
        if step is None:
            raise IllegalAction(self.why_illegal(state, action))
        if not events:
            return step(state, action, rng), ()
        made: list = []
        return step(state, action, rng, None, made, texts), list(map(_new_event, made))

    def stepper(self, players: int) -> Callable:
        """``step(state, action, rng, made) -> State``: :meth:`apply` without events, for a
        match of ``players`` seats (see :mod:`rulekit.engine.stepgen`). ``made``: None, or
        a list the claimants of the claims the step makes are appended to (a simulation's
        statistics read it). ``state`` must be a decision (not the end of the match).

        Raises (``step``):
            IllegalAction: ``action`` is not legal in ``state`` (nothing changed).
        """
        step = self._steppers.get(players)
        if step is not None:
            return step
        tables, apply = (self._programs.get(players) or self.program(players)).steps, self.apply

        def step(state: State, action: Action, rng: random.Random, made: list | None) -> State:
            taken = tables[state[_PHASE]].get(action[0])
            if taken is None:                   # no such action there: apply says why
                return apply(state, action, rng, False, False)[0]
            return taken(state, action, rng, made)
        self._steppers[players] = step
        return step

    def effects(self, state: State, action: Action, rng: random.Random) -> State:
        """``state`` once the deciding seat's ``action`` has run its own effects, before any
        turn's ``then``, window, vote or other seat: not a decision point, a state to read
        (the claim the action makes and whether it holds, for a bot weighing its choices
        at the cost of one action's effects instead of a whole step). A decline or a vote
        changes nothing there (a vote takes effect when every vote is cast). Effects that
        end the deal, the match or the turn ('end deal', a knock-out that ends the match,
        'end turn', and a procedure that may do one of those) go on as :meth:`apply` does,
        to the next decision or the end of the match.

        Raises:
            IllegalAction: ``action`` is not legal in ``state``.
        """
        if state[_PHASE] < 0:
            raise IllegalAction("the match is over")
        step = self._judge_of(state, action)
        if step is None:
            raise IllegalAction(self.why_illegal(state, action))
        if action[0] == DECLINE or self.cg.phase_list[state[_PHASE]].kind == "vote":
            step(state, action, None, judge=True)       # judged, and nothing more
            return state
        return step(state, action, rng, None, None, False, True)     # its step, stopped after the effects

    def standing(self, state: State, seat: int) -> tuple:
        """``seat``'s ranking values (the ``winners`` keys, each as the file computes it),
        as in its row of :meth:`standings`."""
        ctx = self._read_ctx(state)
        ctx.seats[ACTOR] = seat
        return tuple([key(ctx) for _, key in self.pieces(state.n).rank_keys])

    def standings(self, state: State, viewers: Sequence[int] = ()) -> list[tuple[int, tuple]]:
        """Every seat with its ranking values (the ``winners`` keys), best first: the seats
        still in the match first, then those knocked out, the last to go out first.

        ``viewers``: seats of the people shown the standings; a value one of them could not
        know at the table (see :meth:`unseen_standing`: a folded hand's value) is None, and
        then the rows are in an order they know: the winners, the other seats still in,
        the seats knocked out (the last to go out first), each by seat number."""
        hidden = set().union(*(self.unseen_standing(state, v) for v in viewers))
        ctx = self._read_ctx(state)
        rows = []
        keys = self.pieces(state.n).rank_keys
        for s in range(state.n):
            ctx.seats[ACTOR] = s
            rows.append((s, tuple(key(ctx) for _, key in keys)))
        signs = [1 if highest else -1 for highest, _ in keys]
        out = state.out or (0,) * state.n
        rows.sort(key=lambda r: (out[r[0]] > 0, -out[r[0]], tuple(-sg * v for sg, v in zip(signs, r[1]))))
        if hidden:
            winners = state.winners
            rows.sort(key=lambda r: (r[0] not in winners, out[r[0]] > 0, -out[r[0]], r[0]))
            rows = [(s, tuple(None if (s, k) in hidden else v for k, v in enumerate(values))) for s, values in rows]
        return rows

    def returns(self, state: State) -> tuple:
        """Each seat's result of a finished match, by seat: the file's ``returns`` (points,
        chips…), or +1 for a winner and -1 for any other seat.

        Raises:
            ValueError: the match is not over.
        """
        if not state.is_terminal:
            raise ValueError("the match is not over")
        return self._returns_with(state, state.winners)

    def returns_now(self, state: State) -> tuple:
        """Each seat's result if the match ended in ``state``, over or not: :meth:`returns`
        with the winners those the ``winners`` keys rank first now among the seats still in
        (every seat still in, without keys). In a finished match, :meth:`returns`. A bot's
        value of a play-out cut short (at the end of a deal)."""
        if state.is_terminal:
            return self.returns(state)
        rows = self.standings(state)                    # the seats still in first, best first
        out = state.out or (0,) * state.n
        best = rows[0][1]
        found = [s for s, values in rows if values == best and not out[s]] or [s for s, _ in rows]
        return self._returns_with(state, tuple(sorted(found)))

    def _returns_with(self, state: State, winners: tuple) -> tuple:
        """Each seat's result in ``state`` with ``winners`` the seats that won."""
        returns = self.pieces(state.n).returns
        if returns is None:
            return tuple(1 if s in winners else -1 for s in range(state.n))
        ctx = self._read_ctx(state)
        ctx.winners = winners
        values = []
        for s in range(state.n):
            ctx.seats[ACTOR] = s
            values.append(returns(ctx))
        return tuple(values)

    # ------------------------------------------------------------------ state <-> context
    def _read_ctx(self, state: State) -> Ctx:
        """A context of ``state`` that only reads it (claims' truths, orders and words,
        the winners' keys, returns, labels): it shares the state's zones and counters and
        copies the seats (the actor or claimant is set in it); no chance may happen."""
        return _context(state, state.zones, state.counters, _NO_CHANCE)

    def snapshot(self, ctx: Stepping) -> State:
        """The :class:`State` a working copy (see :meth:`working_copy`) stands for now."""
        return ctx.state


class Stepping:
    """The working copy of a game played by steps alone (see :meth:`Engine.working_copy`):
    ``state``, the state it stands for now, replaced by each step; ``made``, the claimants
    of the claims made in it (seats, in order)."""

    __slots__ = ("state", "step", "made")

    def __init__(self, state: State, step: Callable):
        self.state, self.step, self.made = state, step, []

    @property
    def phase(self) -> int:
        return self.state[_PHASE]

    @property
    def claim(self):
        return self.state.claim

    @property
    def zones(self) -> tuple:
        return self.state.zones

    @property
    def deal(self) -> int:
        return self.state.deal

    @property
    def n(self) -> int:
        return self.state[0]


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
    ctx.focus = None
    ctx.locals = {}
    ctx.chosen = ()
    ctx.chosen_zone = -1
    ctx.events = []
    return ctx


_bare = object.__new__


def _place_text(value) -> str:
    places = (value,) if isinstance(value, int) else value
    return " ".join(f"#{p}" for p in places)


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


def cannot_run(game: m.Game):
    """The :class:`~rulekit.errors.CannotRun` of a checked game whose module the engine
    cannot write for its fewest players (a construct the step writer does not write yet: a
    defect of rulekit, located), or None when it runs. ``rulekit check`` and the editor
    report it as a problem of the file."""
    from ..errors import CannotRun

    try:
        Engine(game).program(game.players[0])
    except CannotRun as exc:
        return exc
    return None

