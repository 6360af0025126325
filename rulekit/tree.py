"""Any game as an explicit game tree: chance nodes, decisions of fixed action ids, returns,
and what each seat knows at every node. The OpenSpiel, PettingZoo and Gymnasium adapters
are thin layers over it (docs/rl.md).

The engine draws chance inside a transition (:mod:`rulekit.engine.chance`). Here every
chance event with more than one outcome is a **chance node** of its own, with exact
outcome probabilities: a shuffle is dealt card by card from the top down, a die is rolled
face by face, a random seat is one node. A transition that meets a chance event is
suspended there, and carried on once the outcome is chosen by playing the same transition
again with the outcomes chosen so far (transitions are pure, so it reaches the same point).

A decision is one integer of the game's :class:`~rulekit.encoding.ActionSpace`; an action
that chooses several cards or many values is a few decisions of the same seat in a row.

A :class:`Node` is immutable and holds plain values (it pickles and is shared by copies);
:class:`GameTree` holds the engine and answers every question about a node. Nothing here
knows a game.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from itertools import product

from .lang import model as m
from .bounds import MAX_DECISIONS
from .encoding import ActionSpace, value_bounds, _Facts
from .engine import Action, ChanceEvent, Engine, State
from .engine.chance import Chance
from .engine.compile import DECLINE
from .errors import RulesRuntimeError
from .engine.narrate import seat_name
from .errors import IllegalAction

#: the player id of a chance node, and of a finished match (as OpenSpiel numbers them)
CHANCE = -1
TERMINAL = -4
#: how many nodes a game with its own ``returns`` is explored to find its exact utilities
EXPLORE_NODES = 2_000
#: the utilities assumed when neither exploration nor the file bounds them
UNBOUNDED_UTILITY = 1e9
#: how many transitions and decisions a tree keeps by default (see :class:`GameTree`)
CACHE_SIZE = 100_000
#: how many of the last steps of a match an information state string spells out (the
#: steps before them are a digest)
WINDOW = 32


def default_players(game: m.Game) -> int:
    """The number of seats a game is played with when none is given (as ``rulekit run``
    plays it): 4, or the nearest count the game allows."""
    low, high = game.players
    return min(max(4, low), high)


class _NeedChance(Exception):
    """A transition reached a chance event whose outcome is not chosen yet."""

    def __init__(self, event: ChanceEvent):
        super().__init__()
        self.event = event


class _Script(Chance):
    """Stands for the generator of a transition: it gives the outcomes chosen so far, in
    order, takes the only outcome of an event that has one, and stops the transition at
    the first event it has no outcome for (:class:`_NeedChance`)."""

    def __init__(self, outcomes: tuple):     # noqa: D107 (no generator: every outcome is given)
        self.outcomes = outcomes
        self.at = 0

    def _pick(self, event: ChanceEvent):
        if len(event.outcomes) == 1:
            return event.outcomes[0]
        if self.at < len(self.outcomes):
            outcome = self.outcomes[self.at]
            self.at += 1
            return outcome
        raise _NeedChance(event)

    def shuffle(self, cards: list) -> None:
        """As :meth:`Chance.shuffle` (the top card first), the outcomes given taken without
        making their events (a transition is played again once per card of its shuffle)."""
        left = Counter(cards)
        outcomes, at = self.outcomes, self.at
        for i in range(len(cards) - 1, -1, -1):
            if len(left) == 1:                  # one kind left: the rest is forced
                (kind,) = left
                cards[:i + 1] = [kind] * (i + 1)
                break
            if at < len(outcomes):
                kind = outcomes[at]
                at += 1
            else:
                self.at = at
                total = i + 1
                kinds = tuple(sorted(left))
                raise _NeedChance(ChanceEvent("card", kinds, tuple(left[k] / total for k in kinds)))
            cards[i] = kind
            left[kind] -= 1
            if not left[kind]:
                del left[kind]
        self.at = at


class Partial:
    """An action being chosen one decision at a time: its head, the single card and the
    values chosen within the head, the cards chosen so far (smallest kind first), the
    values chosen since, and what still constrains the rest (``option`` for an exact
    option, whose every choice is legal; else ``candidates``, the legal actions that agree
    with what is chosen)."""

    __slots__ = ("head", "card", "params", "cards", "done", "option", "candidates")

    def __init__(self, head, card, params, cards, done, option, candidates):
        self.head = head
        self.card = card
        self.params = params
        self.cards = cards
        self.done = done              # the cards are chosen (the values follow, one by one)
        self.option = option
        self.candidates = candidates

    def __reduce__(self):
        return Partial, (self.head, self.card, self.params, self.cards, self.done, self.option, self.candidates)


class Step:
    """One transition of the history, for what the seats perceived of it: the state it
    started from (None: the match's start), the seat that decided and its action (None for
    the start), the chance outcomes it met, the state it reached; ``prev``: the step
    before. The events are made again from these when a seat's history is asked for, and
    kept (``memo``)."""

    __slots__ = ("prev", "base", "seat", "action", "outcomes", "after", "memo")

    def __init__(self, prev, base, seat, action, outcomes, after):
        self.prev = prev
        self.base = base
        self.seat = seat
        self.action = action
        self.outcomes = outcomes
        self.after = after
        self.memo = None

    def __deepcopy__(self, memo):
        return self


class Resampled:
    """The start of the history of a node drawn by :meth:`GameTree.resample`: what each seat
    knew then, as text (``lines``), the state drawn (``after``) and the digest of the
    public history until then (``public``)."""

    __slots__ = ("lines", "after", "public", "prev", "memo")

    def __init__(self, lines: tuple, after: State, public: str):
        self.lines = lines
        self.after = after
        self.public = public
        self.prev = None
        self.memo = None

    def __deepcopy__(self, memo):
        return self


class Node:
    """A node of the game tree (immutable; a copy is the node itself).

    ``state``: the engine's state (at a chance node, the state the suspended transition
    started from); ``pending``: at a chance node, (the action being applied or None for
    the match's start, the outcomes chosen so far, the :class:`~rulekit.ChanceEvent`
    awaited); ``partial``: a :class:`Partial` while a seat chooses an action in several
    decisions; ``trace``: the last :class:`Step` of the history; ``decisions``: how many
    decisions were made since the match began; ``cut``: the match was stopped after
    ``max_decisions`` decisions.
    """

    __slots__ = ("state", "pending", "partial", "trace", "decisions", "cut", "memo", "who")

    def __init__(self, state, pending=None, partial=None, trace=None, decisions=0, cut=False):
        self.who = None               # the player to move, once asked
        self.state = state
        self.pending = pending
        self.partial = partial
        self.trace = trace
        self.decisions = decisions
        self.cut = cut
        self.memo = None              # what was worked out about this node (not pickled)

    def __reduce__(self):
        # the history as a flat list (a long match would nest too deep for pickle)
        flat = tuple((True, s.lines, s.after, s.public) if isinstance(s, Resampled)
                     else (False, s.base, s.seat, s.action, s.outcomes, s.after) for s in _steps(self.trace))
        return _node, (self.state, self.pending, self.partial, flat, self.decisions, self.cut)

    def __deepcopy__(self, memo):
        return self


def _steps(trace) -> list:
    """The steps of a history, oldest first."""
    steps = []
    while trace is not None:
        steps.append(trace)
        trace = trace.prev
    steps.reverse()
    return steps


def _node(state, pending, partial, flat, decisions, cut) -> Node:
    """A node from its pickled form (see :meth:`Node.__reduce__`)."""
    trace = None
    for resampled, *fields in flat:
        trace = Resampled(*fields) if resampled else Step(trace, *fields)
    return Node(state, pending, partial, trace, decisions, cut)


class GameTree:
    """A game of ``n`` seats as an explicit tree (see the module's docstring).

    Args:
        engine: the game.
        n: the number of seats.
        max_decisions: a match that has not ended after this many decisions (each decision
            of a seat counts, those of one action chosen in several included) is stopped
            and scores 0 for every seat.
        cache_size: how many transitions and decisions are kept, so that a node met again
            (tree walks and searches meet the same nodes over and over) costs no step of
            the engine; 0 keeps none. (Transitions are pure: what is kept is exact.)

    Raises:
        OptionError: the game is not for ``n`` players.
        RulesError: the game's actions cannot be given ids (see :class:`ActionSpace`).
    """

    def __init__(self, engine: Engine, n: int, max_decisions: int = MAX_DECISIONS, cache_size: int = CACHE_SIZE):
        low, high = engine.game.players
        if not low <= n <= high:
            from .errors import OptionError
            raise OptionError(f"players must be between {low} and {high} for {engine.game.title}, not {n}")
        self.engine = engine
        self.n = n
        self.max_decisions = max_decisions
        self.space = ActionSpace(engine, n)
        self.kinds = len(engine.kinds)
        self.zones = engine.cg.zone_count(n)
        self._chance_kinds = _chance_kinds(engine.game)
        self._root = None
        self._names = None
        self.cache_size = cache_size
        #: (state, action, outcomes) -> the state reached or the chance event met
        self._cache: dict | None = {} if cache_size > 0 else None
        #: state -> its decision's legal ids (see :meth:`_decision`)
        self._options: dict | None = {} if cache_size > 0 else None
        #: (state, seat) -> view record; (step's start, action, outcomes, seat) -> its lines
        self._views: dict = {}
        self._lines: dict = {}
        #: (the last node whose texts were asked for, {("info" | "obs", seat): text})
        self._last_texts: tuple = (None, {})

    # ------------------------------------------------------------------ static facts
    @property
    def max_chance_outcomes(self) -> int:
        """An upper bound on a chance node's outcome ids (0 for a game without chance)."""
        kinds = self._chance_kinds
        most = 0
        if "die" in kinds:
            most = max(d.sides for d in self.engine.game.dice)
        if "seat" in kinds:
            most = max(most, self.n)
        if "card" in kinds:
            most = max(most, self.kinds)
        if "pick" in kinds:
            most = max(most, self.kinds * (1 + self.zones))
        return most

    @property
    def has_chance(self) -> bool:
        return bool(self._chance_kinds)

    @property
    def imperfect(self) -> bool:
        """Whether a seat may not know everything (a zone, a counter or a vote it cannot see)."""
        game = self.engine.game
        return (any(z.seen != "all" for z in game.zones) or any(c.seen != "all" for c in game.counters)
                or any(p.kind == "vote" for p in game.phases))

    # ------------------------------------------------------------------ chance ids
    def chance_id(self, event: ChanceEvent, outcome) -> int:
        """The id of a chance outcome: a die's face - 1, a seat's index, a card's kind (a
        card picked from one of several zones: kinds + zone instance × kinds + kind)."""
        if event.kind == "die":
            return outcome - 1
        if isinstance(outcome, tuple):
            slot, kind = outcome
            return self.kinds + slot * self.kinds + kind
        return outcome

    # ------------------------------------------------------------------ the root
    def root(self) -> Node:
        """The node a match starts from (made once: nodes are immutable)."""
        if self._root is None:
            self._root = self._transition(None, None, None, (), None, 0)
        return self._root

    def _transition(self, base: State | None, seat, action, outcomes: tuple, trace, decisions: int) -> Node:
        """The node after ``seat`` takes ``action`` in ``base`` (None, None: the match's
        start) with the chance outcomes chosen so far."""
        key = (base, action, outcomes)
        cache = self._cache
        state = cache.get(key) if cache is not None else None
        if state is None:
            script = _Script(outcomes)
            try:
                if base is None:
                    state, _ = self.engine.new_match(self.n, script, events=False)
                else:
                    state, _ = self.engine.apply(base, action, script, texts=False, events=False)
            except _NeedChance as need:
                state = need.event
            if cache is not None:
                if len(cache) >= self.cache_size:
                    cache.clear()
                cache[key] = state
        if type(state) is ChanceEvent:
            return Node(base, (action, outcomes, state, seat), None, trace, decisions)
        step = Step(trace, base, seat, action, outcomes, state)
        return Node(state, None, None, step, decisions, decisions >= self.max_decisions and state.phase >= 0)

    # ------------------------------------------------------------------ who acts
    def player(self, node: Node) -> int:
        """The seat to decide (0 for P1), :data:`CHANCE` or :data:`TERMINAL`."""
        who = node.who
        if who is None:
            if node.pending is not None:
                who = CHANCE
            elif node.state.phase < 0 or node.cut:
                who = TERMINAL
            else:
                who = self.engine.decider(node.state)
            node.who = who
        return who

    def is_terminal(self, node: Node) -> bool:
        return node.pending is None and (node.state.phase < 0 or node.cut)

    def chance_outcomes(self, node: Node) -> list[tuple[int, float]]:
        """(outcome id, probability) of a chance node, by id."""
        event = node.pending[2]
        return sorted((self.chance_id(event, o), p) for o, p in zip(event.outcomes, event.probabilities))

    # ------------------------------------------------------------------ decisions
    def _decision(self, node: Node) -> dict:
        """The legal ids of a decision node and what each leads to: {id: (head, card,
        params, option, candidates)} (decline: None)."""
        memo = node.memo
        if memo is None:
            memo = node.memo = {}
        made = memo.get("ids")
        if made is not None:
            return made
        if node.partial is not None:
            made = self._partial_ids(node.partial)
        else:
            cache = self._options
            made = cache.get(node.state) if cache is not None else None
            if made is None:
                made = self._head_ids(node.state)
                if cache is not None:
                    if len(cache) >= self.cache_size:
                        cache.clear()
                    cache[node.state] = made
        memo["ids"] = made
        return made

    def _head_ids(self, state: State) -> dict:
        engine, space = self.engine, self.space
        seat, phase, options = engine.decide(state, texts=False)
        if not options:
            raise RulesRuntimeError(f"{seat_name(seat)} must decide in '{phase.name}' but has no legal action "
                                    f"(line {phase.span.line})")
        made: dict = {}
        for opt in options:
            if opt.name == DECLINE:
                made[space.decline] = None
                continue
            head = space.head_of[(phase.index, opt.name)]
            if opt.exact:
                cards = sorted(set(opt.cards)) if head.cards == "one" else (None,)
                combos = product(*(values for _, values in opt.params)) if head.flat else ((),)
                for params in combos:
                    for card in cards:
                        made[head.head_id(card, params)] = (head, card, params, opt, None)
                continue
            grouped: dict = {}
            for a in engine.legal_actions(state, action=opt.name):
                card = a.cards[0] if head.cards == "one" else None
                grouped.setdefault(head.head_id(card, a.params if head.flat else ()), []).append(a)
            for hid, acts in grouped.items():
                card = acts[0].cards[0] if head.cards == "one" else None
                made[hid] = (head, card, acts[0].params if head.flat else (), None, tuple(acts))
        return made

    def _partial_ids(self, p: Partial) -> dict:
        space = self.space
        made: dict = {}
        if p.head.cards == "many" and not p.done:
            at = len(p.cards)
            if p.option is not None:
                pool = Counter(p.option.cards)
                chosen = Counter(p.cards)
                high = len(p.option.cards) if p.option.high is None else p.option.high
                last = p.cards[-1] if p.cards else -1
                if at < high:
                    # a kind is offered when the choice can still be completed with it:
                    # the cards of kinds from it upwards reach the fewest allowed
                    kinds = [k for k in sorted(pool) if k >= last]
                    room = 0
                    rooms = {}
                    for k in reversed(kinds):
                        room += pool[k] - chosen[k]
                        rooms[k] = room
                    for k in kinds:
                        if pool[k] > chosen[k] and at + rooms[k] >= p.option.low:
                            made[space.card_base + k] = k
                if at >= p.option.low:
                    made[space.done] = None
            else:
                for a in p.candidates:
                    if a.cards[:at] == p.cards:
                        if len(a.cards) > at:
                            made[space.card_base + a.cards[at]] = a.cards[at]
                        else:
                            made[space.done] = None
            return made
        j = len(p.params)
        base = p.head.param_bases[j]
        index = p.head.params[j].index
        if p.option is not None:
            for v in p.option.params[j][1]:
                made[base + index[v]] = v
        else:
            for a in p.candidates:
                if a.params[:j] == p.params:
                    made[base + index[a.params[j]]] = a.params[j]
        return made

    def legal(self, node: Node) -> list[int]:
        """The legal ids of a decision node, ascending; the outcome ids of a chance node;
        [] once the match is over."""
        if node.pending is not None:
            return [i for i, _ in self.chance_outcomes(node)]
        if self.is_terminal(node):
            return []
        return sorted(self._decision(node))

    def apply(self, node: Node, action_id: int) -> Node:
        """The node after ``action_id`` (a legal id, or a chance outcome id at a chance node).

        Raises:
            IllegalAction: the id is not legal there (the message lists the legal ids).
        """
        if node.pending is not None:
            action, outcomes, event, seat = node.pending
            for o in event.outcomes:
                if self.chance_id(event, o) == action_id:
                    return self._transition(node.state, seat, action, outcomes + (o,), node.trace, node.decisions)
            raise IllegalAction(f"{action_id} is not an outcome of this chance node "
                                f"(the outcomes are {', '.join(str(i) for i, _ in self.chance_outcomes(node))})")
        if self.is_terminal(node):
            raise IllegalAction("the match is over")
        made = self._decision(node)
        if action_id not in made:
            shown = ", ".join(f"{i} ({self.space.text(i)})" for i in sorted(made))
            raise IllegalAction(f"{action_id} ({self.space.text(action_id)}) is not legal here; the legal ids "
                                f"are {shown}")
        what = made[action_id]
        decisions = node.decisions + 1
        p = node.partial
        if p is None:
            if what is None:
                return self._act(node, Action(DECLINE), decisions)
            head, card, params, option, candidates = what
            p = Partial(head, card, params, (), head.cards != "many", option, candidates)
        elif not p.done:
            if what is None:          # done: the cards are chosen
                p = Partial(p.head, p.card, p.params, p.cards, True, p.option, p.candidates)
            else:
                cards = p.cards + (what,)
                candidates = p.candidates
                if candidates is not None:
                    candidates = tuple(a for a in candidates if a.cards[:len(cards)] == cards)
                p = Partial(p.head, p.card, p.params, cards, False, p.option, candidates)
        else:
            params = p.params + (what,)
            candidates = p.candidates
            if candidates is not None:
                candidates = tuple(a for a in candidates if a.params[:len(params)] == params)
            p = Partial(p.head, p.card, params, p.cards, True, p.option, candidates)
        if p.done and len(p.params) == len(p.head.params):
            cards = (p.card,) if p.card is not None else p.cards
            return self._act(node, Action(p.head.name, cards, p.params), decisions)
        return Node(node.state, None, p, node.trace, decisions, decisions >= self.max_decisions)

    def _act(self, node: Node, action: Action, decisions: int) -> Node:
        seat = self.engine.decider(node.state)
        return self._transition(node.state, seat, action, (), node.trace, decisions)

    def returns(self, node: Node) -> list[float]:
        """Each seat's result: the file's ``returns`` (else +1 for a winner, -1 for the
        others) once the match is over, 0 for every seat before, and for a match stopped
        after ``max_decisions`` decisions."""
        if node.pending is not None or node.cut or node.state.phase >= 0:
            return [0.0] * self.n
        return [float(v) for v in self.engine.returns(node.state)]

    def decider_action(self, node: Node) -> Action | None:
        """The action being chosen at a node (its choices so far), or None."""
        p = node.partial
        if p is None:
            return None
        return Action(p.head.name, (p.card,) if p.card is not None else p.cards, p.params)

    # ------------------------------------------------------------------ texts
    def action_text(self, node: Node, action_id: int) -> str:
        """How an id reads at ``node`` (:meth:`ActionSpace.text`; a chance outcome: "die 3",
        "card LABEL", "seat P2")"""
        if node is not None and node.pending is not None:
            event = node.pending[2]
            for o in event.outcomes:
                if self.chance_id(event, o) == action_id:
                    if event.kind == "die":
                        return f"die {o}"
                    if event.kind == "seat":
                        return f"seat {seat_name(o)}"
                    kind = o[1] if isinstance(o, tuple) else o
                    return f"card {self.engine.kind_label(kind)}"
            return f"chance {action_id}"
        return self.space.text(action_id)

    def _log_names(self):
        if self._names is None:
            from .play.match import LogNames
            self._names = LogNames.of(self.engine, self.n)
        return self._names

    def _view(self, state: State | None, seat: int) -> dict:
        """The view record of ``seat`` in ``state`` ({} before the first deal), kept."""
        if state is None:
            return {}
        key = (state, seat)
        cache = self._views
        view = cache.get(key)
        if view is None:
            from .play.match import view_record
            view = view_record(self.engine, self.engine.view(state, seat))
            self._keep(cache, key, view)
        return view

    def _keep(self, cache: dict, key, value) -> None:
        if len(cache) >= self.cache_size:
            cache.clear()
        cache[key] = value

    def _events(self, step: Step) -> list:
        """The events of a step, made again from what it holds (and kept)."""
        memo = step.memo
        if memo is None:
            memo = step.memo = {}
        events = memo.get("events")
        if events is None:
            script = _Script(step.outcomes)
            if step.base is None:
                _, events = self.engine.new_match(self.n, script)
            else:
                _, events = self.engine.apply(step.base, step.action, script)
            events = memo["events"] = events
        return events

    def _step_lines(self, step, seat: int) -> str:
        """What ``seat`` perceived of one step of the history, as lines of text: its own
        action, the events as it saw them (:meth:`Engine.observe`), and what the step
        changed in its view (:func:`rulekit.play.match.view_record`). They depend on the step's
        start, action and chance alone, and are kept by those."""
        memo = step.memo
        if memo is None:
            memo = step.memo = {}
        text = memo.get(seat)
        if text is not None:
            return text
        if isinstance(step, Resampled):
            text = memo[seat] = step.lines[seat]
            return text
        key = (step.base, step.action, step.outcomes, seat)
        text = self._lines.get(key)
        if text is None:
            names = self._log_names()
            lines = []
            if step.seat == seat and step.action is not None:
                lines.append("you " + _dump(names.choice(step.action)))
            for e in self._events(step):
                seen = self.engine.observe(e, seat, self.n)
                if seen is not None:
                    record = names.event(seen)
                    del record["type"]
                    lines.append("event " + _dump(record))
            changed = _changes(self._view(step.base, seat), self._view(step.after, seat))
            if changed:
                lines.append("view " + _dump(changed))
            text = "\n".join(lines)
            self._keep(self._lines, key, text)
        memo[seat] = text
        return text

    def _digest(self, step, seat: int) -> str:
        """A digest of everything ``seat`` perceived up to and including ``step`` (each
        step's lines chained into the digest of the steps before it)."""
        todo = []
        at = step
        while at is not None and (at.memo is None or ("digest", seat) not in at.memo):
            todo.append(at)
            at = at.prev
        digest = at.memo[("digest", seat)] if at is not None else ""
        for at in reversed(todo):
            h = hashlib.blake2b(digest_size=16)
            h.update(digest.encode())
            h.update(self._step_lines(at, seat).encode())
            digest = h.hexdigest()
            if at.memo is None:
                at.memo = {}
            at.memo[("digest", seat)] = digest
        return digest

    def information_state_string(self, node: Node, seat: int) -> str:
        """Everything ``seat`` knows at ``node``, as text: the seat; for each of the last
        :data:`WINDOW` steps of the match its own action, the events as it perceived them
        and what changed in its view, the steps before them as a digest of the same lines
        (``history …``); its view now; the action it is choosing, if any. Two nodes give
        the same text exactly when the seat cannot tell them apart."""
        texts = self._texts_of(node)
        key = ("info", seat)
        text = texts.get(key)
        if text is None:
            parts = [seat_name(seat), *self._history(node.trace, seat), self._now(node.state, seat),
                     *self._pending_lines(node, seat)]
            text = texts[key] = "\n".join(parts)
        return text

    def _texts_of(self, node: Node) -> dict:
        """The texts made for ``node`` so far (its information state and observation strings
        per seat), kept for the last node asked only: they are made again from kept lines in
        microseconds, and kept on every node they would grow with the match (about 20 KB
        per seat and node in a long card game, on every node a search or a test holds)."""
        last = self._last_texts
        if last[0] is not node:
            last = self._last_texts = (node, {})
        return last[1]

    def _history(self, trace, seat: int) -> list[str]:
        """The lines of :meth:`information_state_string` that tell the steps of a history:
        the digest of those before the last :data:`WINDOW` (``history …``), then theirs."""
        window = []
        step = trace
        while step is not None and len(window) < WINDOW:
            window.append(step)
            step = step.prev
        parts = ["history " + self._digest(step, seat)] if step is not None else []
        parts.extend(filter(None, (self._step_lines(s, seat) for s in reversed(window))))
        return parts

    def _now(self, state, seat: int) -> str:
        key = ("now", state, seat)
        text = self._lines.get(key)
        if text is None:
            text = "now " + _dump(self._view(state, seat))
            self._keep(self._lines, key, text)
        return text

    def _pending_lines(self, node: Node, seat: int) -> list[str]:
        """The action ``seat`` is choosing or has chosen, while the node is within it."""
        if node.pending is not None:
            action, _, _, decider = node.pending
            if action is not None and decider == seat:
                return ["you " + _dump(self._log_names().choice(action))]
            return []
        if node.partial is not None and self.player(node) == seat:
            p = node.partial
            chosen = {"action": p.head.name, "cards": self._log_names().cards(
                (p.card,) if p.card is not None else p.cards), "params": list(p.params)}
            return ["choosing " + _dump(chosen)]
        return []

    def observation_string(self, node: Node, seat: int) -> str:
        """What ``seat`` sees now: its view (:func:`rulekit.play.match.view_record`) and the
        action it is choosing, if any."""
        texts = self._texts_of(node)
        key = ("obs", seat)
        text = texts.get(key)
        if text is None:
            text = texts[key] = "\n".join([seat_name(seat), self._now(node.state, seat)]
                                           + self._pending_lines(node, seat))
        return text

    def describe(self, node: Node) -> str:
        """An omniscient text of a node (for debugging): the phase, every zone's cards, the
        counters, the standing claim, and what is pending."""
        engine, state = self.engine, node.state
        if state is None:
            return "before the first deal; chance: " + node.pending[2].kind
        names = self._log_names()
        parts = [f"phase {engine.cg.phase_list[state.phase].name if state.phase >= 0 else 'over'}"]
        for slot, cards in enumerate(state.zones):
            if cards:
                parts.append(f"{names.zone(slot)}: {' '.join(names.cards(cards))}")
        parts.append("counters " + " ".join(map(str, state.counters)))
        if state.claim is not None:
            parts.append(f"claim {engine.claim_text(state)} by P{state.claim[2] + 1}")
        if node.pending is not None:
            parts.append(f"chance: {node.pending[2].kind}")
        if node.partial is not None:
            p = node.partial
            parts.append(f"choosing {p.head.name} {names.cards((p.card,) if p.card is not None else p.cards)} "
                         f"{list(p.params)}")
        if node.cut:
            parts.append("stopped")
        return _printable("; ".join(parts))

    # ------------------------------------------------------------------ players
    def perceived(self, node: Node, seat: int) -> list:
        """The events ``seat`` perceived since the match began (:meth:`Engine.observe`),
        as ``View.history`` holds them for a player that reads its history."""
        out = []
        for step in _steps(node.trace):
            if isinstance(step, Resampled):      # (a resampled history keeps no events)
                continue
            events = self._events(step)           # (makes the step's memo)
            seen = step.memo.get(("seen", seat))
            if seen is None:
                seen = step.memo[("seen", seat)] = [o for o in (self.engine.observe(e, seat, self.n) for e in events)
                                                    if o is not None]
            out.extend(seen)
        return out

    def play(self, node: Node, player) -> Node:
        """The node after a rulekit player takes the decision of ``node`` (see :meth:`choose`)."""
        for action_id in self.choose(node, player):
            node = self.apply(node, action_id)
        return node

    def choose(self, node: Node, player) -> tuple:
        """The ids of the action a rulekit player takes at a decision node (its view and
        decision as in a match, never the state; an illegal answer is asked again).

        Raises:
            ValueError: ``node`` is not a decision node at the start of an action.
            IllegalAnswers: the player answered illegally 100 times in a row.
        """
        from .play.match import IllegalAnswers, player_decision
        if node.pending is not None or node.partial is not None or self.is_terminal(node):
            raise ValueError("a player takes a whole decision, at a decision node")
        engine, state = self.engine, node.state
        seat = engine.decider(state)
        texts = getattr(player, "uses_texts", True)
        history = self.perceived(node, seat) if getattr(player, "uses_history", False) else ()
        view = engine.view(state, seat, history, texts)
        decision = engine.decision(state, texts)
        rejected = None
        for _ in range(100):
            action = player.choose(view, player_decision(engine, view, decision, rejected))
            reason = engine.why_illegal(state, action) if isinstance(action, Action) else "not an Action"
            if reason is None:
                return self.space.encode(state.phase, action)
            rejected = (action, reason)
        raise IllegalAnswers(f"{seat_name(seat)} answered with 100 illegal actions in a row "
                             f"(the last: {rejected[1]})")

    def chosen_ids(self, node: Node) -> tuple:
        """The ids chosen so far in the action being chosen at ``node`` (() at its start)."""
        p = node.partial
        if p is None:
            return ()
        space, head = self.space, _same_head(self.space, p.head)
        flat = head.flat
        ids = [head.head_id(p.card, p.params if flat else ())]
        ids.extend(space.card_base + k for k in p.cards)
        if p.done and head.cards == "many":
            ids.append(space.done)
        if not flat:
            ids.extend(b + sp.index[v] for b, sp, v in zip(head.param_bases, head.params, p.params))
        return tuple(ids)

    def settle(self, node: Node, rng: random.Random) -> Node:
        """Follow chance nodes, each outcome drawn from ``rng`` with its probability, to the
        next decision or the end of the match."""
        while node.pending is not None:
            outcomes = self.chance_outcomes(node)
            r = rng.random()
            for action_id, p in outcomes:
                r -= p
                if r < 0:
                    break
            node = self.apply(node, action_id)
        return node

    # ------------------------------------------------------------------ resampling
    def resample(self, node: Node, seat: int, rng: random.Random) -> Node:
        """A node ``seat`` cannot tell from ``node``: the cards it cannot see dealt at random
        among the places it cannot see (:func:`rulekit.players.determinize.sample_state`,
        with what it knows of hidden zones kept), the votes it has not seen drawn among the
        legal ones, the counters no seat sees kept (the rules' bookkeeping), those of
        other seats it cannot see at 0. Its information state is that of ``node``; every other seat's begins
        with the public history and its view in the state drawn.

        Raises:
            ValueError: ``node`` is a chance node or the match is over.
        """
        if node.pending is not None or self.is_terminal(node):
            raise ValueError("only a decision node can be resampled")
        from .players.determinize import sample_state
        engine, state = self.engine, node.state
        drawn = sample_state(engine, engine.view(state, seat), rng)
        known = tuple(fact for fact in state.known if fact[0] in (seat, -1))
        votes = [None] * self.n
        if state.votes[seat] is not None:
            votes[seat] = state.votes[seat]
        for s, vote in enumerate(state.votes):
            if vote is not None and s != seat:
                choices = engine.legal_actions(drawn._replace(poll=(s,), votes=tuple(votes)))
                votes[s] = rng.choice(choices) if choices else vote
        # a counter no seat sees is the rules' own bookkeeping (cards to deal next round, who
        # is done): it keeps its value, or the state drawn could not go on; a counter only
        # its owner sees reads 0 for the other seats (what the view gives)
        counters = list(drawn.counters)
        bases = engine.cg.counter_base(self.n)
        for ci, decl in enumerate(engine.game.counters):
            if decl.seen == "nobody":
                width = self.n if decl.per_player else 1
                counters[bases[ci]:bases[ci] + width] = state.counters[bases[ci]:bases[ci] + width]
        drawn = drawn._replace(known=known, votes=tuple(votes), counters=tuple(counters))
        public = self._public_digest(node.trace)
        lines = []
        for s in range(self.n):
            if s == seat:
                lines.append("\n".join(self._history(node.trace, s)))
            else:
                lines.append(f"resampled {public}")
        partial = node.partial if engine.decider(state) == seat else None
        return Node(drawn, None, partial, Resampled(tuple(lines), drawn, public), node.decisions, node.cut)

    def _public_digest(self, step) -> str:
        """A digest of the events of the history as a seat that holds no cards perceives
        them (the same for every node of the same public history)."""
        h = hashlib.blake2b(digest_size=16)
        names = self._log_names()
        for step in _steps(step):
            if isinstance(step, Resampled):
                h.update(step.public.encode())
                continue
            for e in self._events(step):
                seen = self.engine.observe(e, -1, self.n)
                if seen is not None:
                    h.update(_dump(names.event(seen)).encode())
        return h.hexdigest()

    # ------------------------------------------------------------------ utilities
    def utilities(self) -> tuple[float, float, float | None]:
        """(lowest return, highest return, the sum of every match's returns or None when it
        is not always the same): found from the file when it has no ``returns`` (+1 / -1;
        a two-seat match that ends only when one seat remains is zero-sum), else by
        exploring the whole tree when it has at most :data:`EXPLORE_NODES` nodes, else
        from the bounds of the ``returns`` expression (:data:`UNBOUNDED_UTILITY` when it
        has none). A match stopped after ``max_decisions`` scores 0 for all."""
        game = self.engine.game
        if game.match.returns is None and self.n == 2 and game.match.remain == 1 and not _ends_deals(game):
            return -1.0, 1.0, 0.0
        explored = self.explore(EXPLORE_NODES)
        if explored is not None:
            low, high, sums, _ = explored
            sums = {round(s, 9) for s in sums}
            return min(low, 0.0), max(high, 0.0), (0.0 if sums == {0.0} else None)
        if game.match.returns is None:
            return -1.0, 1.0, None
        bound = value_bounds(game.match.returns, _Facts(game, self.n), {})
        if bound is None:
            return -UNBOUNDED_UTILITY, UNBOUNDED_UTILITY, None
        return float(min(bound[0], 0)), float(max(bound[1], 0)), None

    def explore(self, budget: int) -> tuple | None:
        """Walk every node (every chance outcome, every legal id): (lowest return, highest
        return, the set of the sums of the returns, the most decisions of a match), or None
        when there are more than ``budget`` nodes."""
        low, high = float("inf"), float("-inf")
        sums = set()
        longest = 0
        todo = [self.root()]
        seen = 0
        while todo:
            node = todo.pop()
            seen += 1
            if seen > budget:
                return None
            if self.is_terminal(node):
                r = self.returns(node)
                low, high = min(low, *r), max(high, *r)
                sums.add(sum(r))
                longest = max(longest, node.decisions)
                continue
            for a in self.legal(node):
                todo.append(self.apply(node, a))
        return low, high, sums, longest


def _dump(record) -> str:
    """A record as one line of JSON, labels from the file shown as text (see :func:`_printable`)."""
    return _printable(json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True))


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (terminal control, bidirectional
    overrides) written as its escape, so that a label from a file shows as text."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _same_head(space, head):
    """The head of ``space`` that ``head`` stands for (a node unpickled holds a copy)."""
    if head in space.heads:
        return head
    return next(h for h in space.heads if h.signature() == head.signature())


def _changes(before: dict, after: dict) -> dict:
    """What differs in ``after`` from ``before`` (two view records): each key whose value
    changed and, of the zones, those that changed, by index."""
    out = {}
    for key, value in after.items():
        old = before.get(key)
        if value == old:
            continue
        if key == "zones" and old is not None and len(old) == len(value):
            out[key] = {str(i): z for i, (z, o) in enumerate(zip(value, old)) if z != o}
        else:
            out[key] = value
    return out


def _chance_kinds(game: m.Game) -> frozenset:
    """Which kinds of chance events a game may meet: die, seat, card (shuffles, refills)
    and pick (a random card of several zones)."""
    kinds = set()
    if any(s.random for s in game.seats):
        kinds.add("seat")
    if any(z.refill_from for z in game.zones):
        kinds.add("card")
    for node in _all_nodes(game):
        if isinstance(node, (m.Roll, m.RollDice)):
            kinds.add("die")
        elif isinstance(node, m.Shuffle):
            kinds.add("card")
        elif isinstance(node, m.Portion) and node.random:
            kinds.update(("card", "pick"))
    return frozenset(kinds)


def _all_nodes(game: m.Game):
    blocks = [game.setup, game.match.between]
    blocks += [p.body for p in game.procedures]
    for phase in game.phases:
        blocks += [a.body for a in phase.actions]
        if phase.after:
            blocks.append(phase.after)
    for block in blocks:
        for stmt in m.walk(block):
            yield from m.nodes(stmt)
    for expr in (game.match.until, game.match.returns, *(k.expr for k in game.match.winners)):
        if expr is not None:
            yield from m.nodes(expr)


def _ends_deals(game: m.Game) -> bool:
    """Whether any statement ends a deal (else a match ends only by knock-outs)."""
    return any(isinstance(node, m.EndDeal) for node in _all_nodes(game))


__all__ = ["CHANCE", "TERMINAL", "GameTree", "Node", "Partial"]
