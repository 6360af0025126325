"""What the generated code of every game calls at run time: seats round the table,
moving, drawing, dealing, shuffling, rolling and revealing cards, claims and their events,
loops' budgets, groups of seats, combinations; and :class:`Ctx`, a context that only reads
a state (for claims' truths, orders and words, the winners' keys, labels). Each
construct's run-time meaning is written here once, over values (the zones, what is known,
the claim…) that the steps hold in locals; :mod:`rulekit.engine.codegen` and
:mod:`rulekit.engine.stepgen` write the calls (the modules get ``__all__`` as their
globals).

Raises (from the functions, as documented on each): :class:`~rulekit.errors.RulesRuntimeError`.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import operator
import random
from fractions import Fraction
from typing import Callable, Iterator

from ..errors import IllegalAction, RulesRuntimeError
from .narrate import seat_name

CURRENT, ACTOR, CLAIMANT = 0, 1, 2


MAX_CALLS = 200
"""How deeply procedures may run inside one another (``do`` within ``do``)."""


MAX_LOOP = 100_000
"""How many times one ``repeat`` or ``for each v in LO..HI`` may run its block."""


MAX_CHOICES = 10_000
"""How many values one ``choose NAME in LO..HI`` may offer."""


def choice_range(low: int, high: int, name: str, line: int) -> range:
    if high - low >= MAX_CHOICES:
        raise RulesRuntimeError(f"{name} would be chosen among {high - low + 1:,} values (line {line}); at most "
                                f"{MAX_CHOICES:,} are allowed")
    return range(low, high + 1)


def one_of_each_size(pool: tuple, low: int, high: int, largest_first: bool) -> Iterator[tuple]:
    """One sub-multiset of the sorted ``pool`` of each size ``low``..``high`` (cards), the
    first of that size in the order of ``engine.core.multisets``: its smallest cards. An
    existence test whose conditions read no more of the chosen cards than how many there are
    needs no other (by size, largest first or smallest first, as ``multisets``)."""
    high, low = min(high, len(pool)), max(low, 0)
    for size in (range(high, low - 1, -1) if largest_first else range(low, high + 1)):
        yield pool[:size]


MAX_STEP_WORK = 1_000_000
"""How many rounds the loops of one step may run in all: loops inside loops (or inside
procedures a loop calls) multiply, each within ``MAX_LOOP``; the step stops here."""


def loop_rounds(work: int, count: int, what: str, line: int) -> int:
    """The loop rounds of a step, ``work`` so far, once a loop of ``count`` rounds runs
    (``what``: the loop's keyword, ``line``: its line of the rules).

    Raises:
        RulesRuntimeError: more than ``MAX_LOOP`` rounds, or the step's loops past
            ``MAX_STEP_WORK`` rounds in all (named by this loop's line)."""
    if count > MAX_LOOP:
        raise RulesRuntimeError(f"'{what}' would run its block {count} times (line {line}); "
                                f"at most {MAX_LOOP:,} are allowed")
    return loop_work(work, count, what, line)


def loop_work(work: int, count: int, what: str, line: int) -> int:
    """The loop rounds of a step, ``work`` so far, once a loop runs ``count`` more.

    Raises:
        RulesRuntimeError: past ``MAX_STEP_WORK`` rounds in all (named by the loop's line)."""
    if count > 0:
        work += count
        if work > MAX_STEP_WORK:
            raise RulesRuntimeError(f"the loops of one step would run more than {MAX_STEP_WORK:,} rounds in all "
                                    f"('{what}' on line {line}, inside other loops): a step must end; "
                                    f"loops inside loops multiply")
    return work


def _below(getrandbits, n: int) -> int:
    """A uniform integer in 0..n-1 as ``random.Random._randbelow`` draws it (``n`` >= 1)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _native_draws() -> bool:
    """Whether :func:`_below` draws as ``random.Random``'s own ``shuffle`` and ``randint``
    do in this Python (checked once, on a few seeds)."""
    for seed in range(3):
        mine, theirs = random.Random(seed), random.Random(seed)
        cards = list(range(40))
        theirs.shuffle(cards)
        if _shuffled(mine.getrandbits, list(range(40))) != cards:
            return False
        bits = mine.getrandbits
        if [1 + _below(bits, s) for s in (1, 2, 3, 6, 8, 13, 100)] != \
                [theirs.randint(1, s) for s in (1, 2, 3, 6, 8, 13, 100)]:
            return False
    return True


def _shuffled(getrandbits, cards: list) -> list:
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


_NATIVE: list = []          # [whether the draws above are random.Random's], once checked


def _native(rng) -> bool:
    """Whether ``rng`` is a ``random.Random`` (not a subclass) whose draws :func:`_below` and
    :func:`_shuffled` make with the same results, fewer Python calls."""
    if type(rng) is not random.Random:
        return False
    if not _NATIVE:
        _NATIVE.append(_native_draws())
    return _NATIVE[0]


def shuffle_in_place(rng, cards: list) -> None:
    """``rng.shuffle(cards)``: the same draws and the same order (a ``random.Random`` is
    shuffled here, with one call per card less)."""
    if _native(rng):
        _shuffled(rng.getrandbits, cards)
    else:
        rng.shuffle(cards)


def rand_face(rng, sides: int) -> int:
    """``rng.randint(1, sides)``, the same draw (cheaper for a ``random.Random``)."""
    if _native(rng):
        return 1 + _below(rng.getrandbits, sides)
    return rng.randint(1, sides)


#: the events of a step nobody reads: appending to it keeps nothing (a deque of length 0)
NO_EVENTS = collections.deque(maxlen=0)


class Ctx:
    """A context of a state that only reads it, for what is read of a state over a context
    (claims' truths, orders and words, the winners' keys, returns, labels: see
    ``Engine._read_ctx`` and :func:`reading`; ``events``: ``NO_EVENTS`` or a list, never
    written there)."""

    __slots__ = ("n", "zones", "counters", "seats", "claim", "claimed", "known", "rng", "events",
                 "chosen", "chosen_zone", "locals", "phase", "poll", "votes", "deal",
                 "winners", "groups", "out", "stack", "focus", "texts")

    def __init__(self):
        # (rulekit.engine.core._context sets these too, without this call: keep them alike)
        self.texts = True             # render the texts of events (labels, claims, logs)
        self.focus = None             # the cards a claim is judged of ('claim holds on'), or None
        self.locals = {}
        self.chosen = ()
        self.chosen_zone = -1
        self.events = []


def in_play(ctx) -> list:
    """The seats still in the match, in seat order (:func:`seats_in` of a context)."""
    return seats_in(ctx.n, ctx.out)


def seats_in(n: int, out: tuple) -> list:
    """The seats still in a match of ``n`` seats whose knock-outs are ``out``, in seat order
    (what :func:`in_play` gives; for a step over locals)."""
    return [s for s in range(n) if not out[s]]


def extreme_of(column, has, selection, best) -> int:
    """``best`` (max or min) of ``column[k]`` over the cards ``k`` of a selection ((slot,
    cards) pairs) that carry the attribute (``has[k]``); 0 when none does."""
    return best((column[k] for _, cards in selection for k in cards if has[k]), default=0)


def total_of(column, selection) -> int:
    """The sum of ``column[k]`` over the cards ``k`` of a selection ((slot, cards) pairs):
    how many of a symbol, or points, the selected cards show."""
    get = column.__getitem__
    total = 0
    for _, cards in selection:
        total += sum(map(get, cards))
    return total


def clockwise(ctx, start: int, first: int) -> list:
    """The seats still in, clockwise from ``start`` (``first`` = 0: ``start`` included;
    1: from the seat left of it, ``start`` left out)."""
    return clockwise_of(ctx.n, ctx.out, start, first)


def clockwise_of(n: int, out: tuple, start: int, first: int) -> list:
    """:func:`clockwise` of ``n`` seats whose knock-outs are ``out``."""
    return [(start + i) % n for i in range(first, n) if not out[(start + i) % n]]


def step_seat(ctx, seat: int, step: int) -> int:
    """The next seat still in, ``step`` = 1 clockwise (left) or -1; ``seat`` itself if none."""
    return step_seat_of(ctx.n, ctx.out, seat, step)


def step_seat_of(n: int, out: tuple, seat: int, step: int) -> int:
    """:func:`step_seat` of ``n`` seats whose knock-outs are ``out``."""
    for i in range(1, n + 1):
        s = (seat + step * i) % n
        if not out[s]:
            return s
    return seat


def _present(zone: tuple, cards) -> tuple:
    """Those of ``cards`` (kinds, with repeats) that ``zone`` still holds."""
    left = list(zone)
    kept = []
    for k in cards:
        if k in left:
            left.remove(k)
            kept.append(k)
    return tuple(kept)


def remove_cards(zone: tuple, cards) -> tuple:
    """``zone`` without ``cards`` (kinds), taking the last (topmost) copies first.

    Raises:
        ValueError: a card is not in the zone.
    """
    rev = list(zone)
    rev.reverse()                 # the topmost copy of a kind is now its first (searched in C)
    for k in cards:
        try:
            rev.remove(k)
        except ValueError:
            raise ValueError(f"card kind {k} is not in the zone") from None
    rev.reverse()
    return tuple(rev)


def multiset_contains(pool: tuple, cards) -> bool:
    """Whether the multiset ``pool`` contains the multiset ``cards``."""
    if len(cards) == 1:
        return cards[0] in pool
    if len(cards) > len(pool):
        return False
    count = pool.count
    for k in set(cards):
        if count(k) < cards.count(k):
            return False
    return True


def move_event(d: int, moved, picked, lay: bool) -> tuple:
    """The event of a ``move`` of the cards ``moved`` from the selection ``picked`` to zone
    instance ``d`` (``lay``: they are laid as the claimed cards)."""
    return ("move", None, {"to": d, "cards": tuple(moved), "from": [s for s, k in picked if k], "lay": lay})


def moved_cards(zones: list, known: tuple, claimed: tuple | None, keepers: dict, picked, d: int, bottom: bool,
                lay: bool, whole: bool, group: bool, own: bool, checked: bool, chosen_zone: int, actor: int) -> tuple:
    """``move``: the cards of the selection ``picked`` [(zone instance, kinds)] go to zone
    instance ``d`` (to its bottom when ``bottom``; ``lay``: they become the claimed cards),
    over the zones (a list, changed in place), what is known and the claimed cards, the
    chosen cards' zone and the actor: (known, claimed, the cards moved). What is known of
    them moves along when everyone can tell which cards moved (``whole`` a zone, or the
    claimed ``group``); the actor remembers the cards he moved face down from his own zone
    (``own``: the chosen cards; ``keepers``: {(zone instance, zone instance): the seat that
    still knows cards moved face down from the first to the second}, the module's
    ``KEEPERS``). ``checked``: the cards are known to be in their zones (the action's check
    found them there and nothing moved since)."""
    moved = []
    carried = ()
    for slot, ks in picked:
        if not ks:
            continue
        if slot == d:
            continue
        zone = zones[slot]
        if not (checked or ks is zone or zone[len(zone) - len(ks):] == ks) and not multiset_contains(zone, ks):
            ks = _present(zone, ks)            # chosen cards already moved away
            if not ks:
                continue
        if (whole or group) and known:
            carried += tuple([(v, d, cards, False) for v, s, cards, g in known if s == slot and (whole or g)])
        zones[slot] = _without(zone, ks)
        if known or claimed is not None and claimed[0] == slot:
            known, claimed = touched(known, claimed, slot)
        moved.extend(ks)
    if moved:
        zones[d] = (tuple(moved) + zones[d]) if bottom else (zones[d] + tuple(moved))
        if known or claimed is not None and claimed[0] == d:
            known, claimed = touched(known, claimed, d, True)
        if own and chosen_zone >= 0 and keepers.get((chosen_zone, d), -1) == actor >= 0:
            # the actor remembers the cards he laid or passed face down
            carried += ((actor, d, tuple(moved), lay),)
        if carried and known is not None:
            known = known + carried
    if lay:
        claimed = (d, len(moved))
    return known, claimed, moved


def moved_chosen(zones: list, known: tuple, claimed: tuple | None, keepers: dict, slot: int, ks: tuple, d: int,
                 bottom: bool, lay: bool, actor: int) -> tuple:
    """``move`` of the chosen cards ``ks`` (kinds, a tuple), which the action's check found
    in zone instance ``slot`` with nothing moved since, to zone instance ``d``: what
    :func:`moved_cards` does with that one selection (``own`` and ``checked``), without its
    loop over selections. Returns (known, claimed, the cards moved)."""
    if not ks or slot == d:
        ks = ()
    else:
        zones[slot] = _without(zones[slot], ks)
        zones[d] = (ks + zones[d]) if bottom else (zones[d] + ks)
        if known or claimed is not None:
            known, claimed = touched(known, claimed, slot)
            known, claimed = touched(known, claimed, d, True)
        if keepers.get((slot, d), -1) == actor >= 0 and known is not None:
            known = known + ((actor, d, ks, lay),)     # the actor remembers the cards he moved face down
    if lay:
        claimed = (d, len(ks))
    return known, claimed, ks


def _without(zone: tuple, ks) -> tuple:
    """``zone`` once the cards ``ks``, which it holds, are taken out: its top cards cut off
    when they are those (the claimed cards), else :func:`remove_cards`."""
    if ks is zone:
        return ()
    cut = len(zone) - len(ks)
    if cut >= 0 and zone[cut:] == ks:
        return zone[:cut]
    return remove_cards(zone, ks)


def swapped(zones: list, known: tuple, claimed: tuple | None, a: int, b: int) -> tuple:
    """``swap``: zone instances ``a`` and ``b`` exchange their cards, each keeping its order,
    over the zones (a list, changed in place): (known, claimed, its events: two ``move``
    events, one each way). What a seat knows of one zone's cards goes with them (everyone
    sees which cards moved, if not what they are)."""
    if a == b:
        return known, claimed, []
    first, second = zones[a], zones[b]
    zones[a], zones[b] = second, first
    if known:
        known = tuple([(v, b if s == a else a if s == b else s, cards, False if s in (a, b) else g)
                       for v, s, cards, g in known])
    if claimed is not None and claimed[0] in (a, b):
        claimed = None
    return known, claimed, [("move", None, {"to": b, "cards": first, "from": [a] if first else [], "lay": False}),
                            ("move", None, {"to": a, "cards": second, "from": [b] if second else [], "lay": False})]


def refill_event(s: int, r: int, cards: tuple) -> tuple:
    """The event of zone instance ``s`` refilled from ``r`` with ``cards``, in their new order."""
    return ("refill", None, {"zone": s, "from": r, "count": len(cards), "order": cards})


def refilled(zones: list, known: tuple, claimed: tuple | None, rng, s: int, r: int) -> tuple:
    """An empty zone instance ``s`` that declares ``refill from Z when empty`` (``r``: the
    zone instance of shared zone Z) takes Z's cards, shuffled, over the zones (a list,
    changed in place): (known, claimed, the cards in their new order, or None when ``r`` is
    empty)."""
    if not zones[r]:
        return known, claimed, None
    cards = list(zones[r])
    shuffle_in_place(rng, cards)
    zones[s] = tuple(cards)
    zones[r] = ()
    known, claimed = touched(known, claimed, r)
    return known, claimed, tuple(cards)


def draw_events(want: int, s: int, d: int, refill: int | None, got: tuple, refills: list) -> list:
    """The events of a ``draw`` (see :func:`drawn_cards`): the refills on the way, then the draw."""
    return [*(refill_event(s, refill, cards) for cards in refills),
            ("draw", None, {"to": d, "from": s, "cards": got, "wanted": want})]


def drawn_cards(zones: list, known: tuple, claimed: tuple | None, rng, want: int, s: int, d: int,
                refill: int | None) -> tuple:
    """``draw``: the top ``want`` cards of zone instance ``s`` go, one by one, onto ``d``
    (the topmost first); an empty ``s`` is first refilled from the zone instance ``refill``
    (shuffled), if any; fewer are drawn when both run out. Over the zones (a list, changed
    in place): (known, claimed, the cards drawn, the cards of each refill in their new
    order)."""
    zone = zones[s]
    refills = []
    if want <= len(zone):
        # enough cards: the top ``want`` of them, the topmost first
        got = zone[:len(zone) - want - 1 if len(zone) > want else None:-1] if want > 0 else ()
        if got:
            zones[s] = zone[:len(zone) - want]
    else:
        got = []
        for _ in range(want):
            if not zones[s] and refill is not None:
                known, claimed, cards = refilled(zones, known, claimed, rng, s, refill)
                if cards is not None:
                    refills.append(cards)
            if not zones[s]:
                break
            got.append(zones[s][-1])
            zones[s] = zones[s][:-1]
        got = tuple(got)
    if got:
        zones[d] = zones[d] + got
        if known or claimed is not None and claimed[0] in (s, d):
            known, claimed = touched(known, claimed, s)
            known, claimed = touched(known, claimed, d, True)
    return known, claimed, got, refills


def reveal_event(picked, viewer: int) -> tuple:
    """The event of the cards of the selection ``picked`` shown to seat ``viewer`` (-1:
    revealed to everyone)."""
    groups = tuple([(slot, tuple(ks)) for slot, ks in picked])
    data = {"cards": tuple([k for _, ks in groups for k in ks]), "zones": tuple([slot for slot, _ in groups]),
            "groups": groups}
    return ("reveal", None, data) if viewer < 0 else ("show", viewer, data)


def revealed(known: tuple, picked, viewer: int, group: bool) -> tuple:
    """``known`` (see :func:`touched`) once seat ``viewer`` (-1: everyone) has seen the cards
    of the selection ``picked`` [(zone instance, kinds)] (``group``: they are the claimed
    cards): what :func:`reveal_cards` records (None where nothing is tracked: see :func:`touched`)."""
    if known is None:
        return None
    return known + tuple([(viewer, slot, tuple(ks), group) for slot, ks in picked if ks or viewer >= 0])


def reveal_counter(ctx, name: str, slot: int, seat: int, viewer: int) -> None:
    """``reveal COUNTER of SEAT`` / ``show … to SEAT``: the counter's value now (counter
    slot ``slot``, of ``seat``, -1 for the table's) is told to seat ``viewer`` (-1: to
    everyone) by a ``counter`` event (``show_counter`` for one seat)."""
    if ctx.events is not NO_EVENTS:
        counter_shown(ctx.events, ctx.counters, name, slot, seat, viewer)


def counter_shown(ev: list | None, counters, name: str, slot: int, seat: int, viewer: int) -> None:
    """:func:`reveal_counter` over the counters: its event appended to ``ev`` unless None."""
    if ev is not None:
        data = {"counter": name, "seat": seat, "value": counters[slot]}
        ev.append(("counter", None, data) if viewer < 0 else ("show_counter", viewer, data))


def claimed_top(ctx) -> list:
    """The claimed cards as a selection [(zone instance, kinds)]: the top cards of the zone
    they were laid on ([] when no cards are claimed)."""
    return claimed_top_of(ctx.zones, ctx.claimed)


def claimed_top_of(zones, claimed: tuple | None) -> list:
    """:func:`claimed_top` of these zones and claimed cards ((zone instance, how many) or None)."""
    if claimed is None:
        return []
    slot, count = claimed
    zone = zones[slot]
    return [(slot, zone[len(zone) - count:] if count <= len(zone) else zone)]


def claimed_selection(ctx) -> list:
    """``claimed cards``: :func:`claimed_top`, or the cards a ``claim holds on …`` puts
    in focus while it is judged."""
    if ctx.focus is not None:
        return ctx.focus
    return claimed_top(ctx)


def too_deep(name: str, line: int) -> None:
    """A procedure was called more than ``MAX_CALLS`` deep.

    Raises:
        RulesRuntimeError: always.
    """
    raise RulesRuntimeError(f"procedure '{name}' is called more than {MAX_CALLS} deep (line {line}): "
                            "does it call itself without end?")


def not_in_table(name: str, values: tuple, line: int) -> None:
    """Claim ``name`` was made with ``values`` its order table lacks.

    Raises:
        RulesRuntimeError: always.
    """
    raise RulesRuntimeError(f"claim '{name}' of {values} is not in its order table (line {line}): "
                            f"test 'NAME(…) beats claim' before making it")


def nobody_to_play(phase: str, line: int) -> str:
    """The message when a 'clockwise' turn finds nobody left to take it."""
    return f"nobody is left to take the turn '{phase}' (line {line})"


MAX_SETTLE = 10_000
"""How many phases one step may go through without anyone deciding."""

MAX_QUICK_DEALS = 100
"""How many deals may begin and end within one step."""


def endless_phases() -> str:
    """The message when a step goes through ``MAX_SETTLE`` phases with no decision."""
    return "the rules go from phase to phase without anyone deciding"


def endless_deals() -> str:
    """The message when ``MAX_QUICK_DEALS`` deals begin and end within one step."""
    return (f"{MAX_QUICK_DEALS} deals ended one after another without anyone deciding: "
            "does the setup end the deal?")


def closed_nowhere(phase: str, line: int) -> str:
    """The message when a window or vote closes without saying where play goes."""
    return f"'{phase}' closed without saying where play goes (line {line}): end its 'otherwise'/'then' with 'go to'"


def no_go_to(action: str, phase: str, line: int) -> str:
    """The message when an action of a turn ends without saying where play goes."""
    return f"action '{action}' of '{phase}' ended without 'go to' (line {line})"


def claim_event(seat: int, name: str, values: tuple, text: str | None) -> tuple:
    """The event of ``seat`` making claim ``name`` with ``values`` (``text``: its words)."""
    return ("claim", None, {"seat": seat, "claim": name, "args": values, "text": text})


def claim_text(label, name: str, ctx, values: tuple) -> str:
    """The words of claim ``name`` made with ``values`` (``label(ctx, values)``, or its name)."""
    return label(ctx, values) if label is not None else name


def action_text(render, ctx, name: str) -> str:
    """The label of an action taken (``render(ctx)``, its choices in ``ctx``), or its
    ``name`` when it has none or the label cannot be made."""
    if render is None:
        return name
    try:
        return render(ctx)
    except Exception:  # a label that needs the choices: show its plain text
        return name


def reading(n: int, zones, counters, seats, votes, claim, claimed, known, deal: int, groups, out, chosen,
            chosen_zone: int, values: dict) -> "Ctx":
    """A context over a step's locals, only to be read (the texts of its events are written
    over a context: labels, claims' words); ``values``: the names in scope and their values."""
    ctx = Ctx()
    ctx.n, ctx.zones, ctx.counters, ctx.seats, ctx.votes = n, zones, counters, list(seats), votes
    ctx.claim, ctx.claimed, ctx.known, ctx.deal, ctx.groups, ctx.out = claim, claimed, known, deal, groups, out
    ctx.chosen, ctx.chosen_zone, ctx.locals = chosen, chosen_zone, dict(values)
    ctx.events, ctx.rng, ctx.poll, ctx.stack, ctx.phase = NO_EVENTS, None, (), (), None
    return ctx


def roll_dice_event(slot: int, rolled: tuple) -> tuple:
    """The event of the dice of zone instance ``slot`` rolled, showing ``rolled``."""
    return ("roll_dice", None, {"zone": slot, "cards": rolled})


def roll_dice_over(zones: list, rng, picked, faces: tuple) -> list:
    """``roll``: every die among the selection ``picked`` [(zone instance, kinds)] shows a
    random face (``faces[kind]``: (the kind of face 1, sides), None for a card), drawn from
    ``rng``; the dice rolled go on top of their zone (the zones: a list, changed in place).
    [(zone instance, the faces rolled)] for each zone that held dice, in order (each zone
    then touched, see :func:`touched`)."""
    made = []
    native = _native(rng)
    bits = rng.getrandbits if native else None
    for slot, ks in picked:
        rolled = []
        for k in ks:
            face = faces[k]
            if face is None:
                continue
            low, sides = face
            if native:
                rolled.append(low + _below(bits, sides))
            else:
                rolled.append(low + rng.randint(1, sides) - 1)
        if not rolled:
            continue
        zone = zones[slot]
        rolled = tuple(rolled)
        # the dice are part of the zone: as many as it holds, they are all of it
        zones[slot] = rolled if len(rolled) == len(zone) else \
            remove_cards(zone, [k for k in ks if faces[k] is not None]) + rolled
        made.append((slot, rolled))
    return made


def out_event(s: int) -> tuple:
    """The event of seat ``s`` knocked out."""
    return ("out", None, {"seat": s})


def knocked_out(out: tuple, s: int) -> tuple:
    """The knock-outs ``out`` (per seat: 0 while in, k for the k-th seat out) once seat ``s``,
    still in, is out (what a knock-out records)."""
    made = list(out)
    made[s] = max(made) + 1
    return tuple(made)


# ---------------------------------------------------------------------------- more runtime
# What a construct does at run time, written once: the generated code calls these.
def next_seat_of(n: int, out: tuple, current: int, among: list | None) -> int | None:
    """The seat that takes a ``clockwise`` turn next, of ``n`` seats whose knock-outs are
    ``out``: left of ``current`` (the seat whose turn it was) among the seats still in (and
    in ``among``, when given; ``current`` itself last); None when there is none."""
    if among is None:
        s = step_seat_of(n, out, current, 1)
        return None if out[s] else s
    members = set(among)
    for s in clockwise_of(n, out, current, 1) + [current]:
        if s in members:
            return s
    return None


def blind_places(selection, n: int) -> tuple:
    """The places a blind choice of ``n`` cards of ``selection`` [(zone instance, kinds)] may
    name: 1 (the top card) up to the number of cards, or ``n``-tuples of places."""
    count = sum(len(ks) for _, ks in selection)
    if count < n:
        return ()
    if n == 1:
        return tuple(range(1, count + 1))
    return tuple(itertools.combinations(range(1, count + 1), n))


def blind_pick(selection, n: int, value) -> tuple | None:
    """(the cards a blind choice of ``n`` cards names by ``value``, a place counted from the
    top or ``n`` of them (see :func:`blind_places`), their zone instance): the chosen cards;
    None when ``selection`` has no such place."""
    if value not in blind_places(selection, n):
        return None
    pieces = [(slot, k) for slot, ks in selection for k in ks]
    picked = [pieces[len(pieces) - p] for p in ((value,) if isinstance(value, int) else value)]
    return tuple(k for _, k in picked), picked[0][0]


def how_many(count: int, line: int) -> int:
    """A computed count of cards or seats (``top (n) of …``, ``choose g in (n) of …``).

    Raises:
        RulesRuntimeError: ``count`` is negative."""
    if count < 0:
        raise RulesRuntimeError(f"a count of {count} cards or seats (line {line}): a count cannot be negative")
    return count


def seat_groups(seats: list, size: int) -> tuple:
    """``choose g in SIZE of SEATS``: every group of ``size`` of ``seats``, in seat order."""
    return tuple(itertools.combinations(sorted(seats), size))


def no_seat(name: str, n: int, line: int):
    """A seat named by number that a match of ``n`` players lacks.

    Raises:
        RulesRuntimeError: always."""
    raise RulesRuntimeError(f"there is no {name} with {n} players (line {line})")


def divisor(d: int, line: int) -> int:
    """``d``, the right side of a division.

    Raises:
        RulesRuntimeError: it is 0."""
    if d == 0:
        raise RulesRuntimeError(f"division by zero (line {line})")
    return d


def exact_quotient(a: int, b: int):
    """``a / b`` in ``returns``: a whole number when the division comes out whole, else the
    exact :class:`~fractions.Fraction` (3 chips split two ways: 3/2)."""
    q = Fraction(a, b)
    return q.numerator if q.denominator == 1 else q


def table_value(rows: dict, key, place: int, name: str, line: int) -> int:
    """``NAME(key, place)``: the ``place``-th value (1 first) of the row of ``key`` of a
    table (``key`` None: its one row).

    Raises:
        RulesRuntimeError: the table has no such row or place."""
    row = rows.get(key)
    if row is None:
        raise RulesRuntimeError(f"table '{name}' has no row {key} (line {line}); its rows are "
                                + ", ".join(str(k) for k in rows))
    if not 1 <= place <= len(row):
        raise RulesRuntimeError(f"table '{name}' has no place {place} in {'its row' if key is None else f'row {key}'} "
                                f"(line {line}); the places are 1..{len(row)}")
    return row[place - 1]


class CombinationOrder:
    """The values of an order of combinations (``combinations NAME: A < B < …``), lowest first:
    value ``i`` is ``values[i]``, (the index of its combination, its values). They are every
    combination of the order, in its order, with every value of its parameters (each range
    lowest first, the first parameter first) that its ``when`` allows, so that comparing two
    values is comparing their indices. The cards a value needs and its words are made when
    first asked."""

    __slots__ = ("name", "values", "indices", "_parts", "_cards", "_texts")

    def __init__(self, name: str, members: tuple, parts: tuple):
        # members: (combination index, the values of each of its parameters) lowest first;
        # parts: per combination, (when or None, its cards, its words), each (ctx, values) -> …
        self.name = name
        found = []
        for ci, domains in members:
            when = parts[ci][0]
            found += [(ci, v) for v in itertools.product(*domains) if when is None or when(None, v)]
        self.values = tuple(found)
        self.indices = range(len(found))
        self._parts = parts
        self._cards: dict = {}
        self._texts: dict = {}

    def cards(self, value: int) -> tuple:
        """What value ``value`` needs: ((how many cards, of which kinds), …), a part each."""
        found = self._cards.get(value)
        if found is None:
            ci, values = self.values[value]
            found = self._cards[value] = self._parts[ci][1](None, values)
        return found

    def text(self, value: int) -> str:
        """The words of value ``value`` ("a pair of 9s")."""
        found = self._texts.get(value)
        if found is None:
            ci, values = self.values[value]
            found = self._texts[value] = self._parts[ci][2](None, values)
        return found


def run_parts(column, has, length: int, top: int, also: tuple, allowed: tuple | None) -> tuple:
    """The parts of ``run of LENGTH by ATTR to TOP [in COND], V also W``: one card for each of
    the ``length`` values ending at ``top``, whose attribute (``column[k]``, carried when
    ``has[k]``) is that value, or a V that also stands for it; only the kinds ``allowed``
    (None: all). A value no card has makes a part that nothing fills (no run wraps round)."""
    kinds = range(len(column)) if allowed is None else allowed
    parts = []
    for value in range(top - length + 1, top + 1):
        stands = {value} | {v for v, w in also if w == value}
        parts.append((1, tuple([k for k in kinds if has[k] and column[k] in stands])))
    return tuple(parts)


def has_combination(selection, parts: tuple) -> bool:
    """Whether the cards of a selection ((slot, cards) pairs) hold every part ((how many
    cards, of which kinds) pairs), each with cards of its own: a matching of the cards to
    the parts, grown one card at a time along augmenting paths (exact, and quick for the
    few dozen cards a table holds)."""
    supply: dict = {}
    for _, ks in selection:
        for k in ks:
            supply[k] = supply.get(k, 0) + 1
    units = []                        # one per card a part needs: the kinds it may take
    for count, kinds in parts:
        have = [k for k in kinds if k in supply]
        if sum(supply[k] for k in have) < count:
            return False
        units += [have] * count
    if len(units) > sum(supply.values()):
        return False
    held = {k: [] for k in supply}    # kind -> the units given a card of it
    return all(_give(u, units, supply, held, set()) for u in range(len(units)))


def _give(u: int, units: list, supply: dict, held: dict, seen: set) -> bool:
    """Give unit ``u`` a card, moving the units that hold cards it may take to others."""
    for k in units[u]:
        if k in seen:
            continue
        seen.add(k)
        users = held[k]
        if len(users) < supply[k]:
            users.append(u)
            return True
        for j, other in enumerate(users):
            if _give(other, units, supply, held, seen):
                users[j] = u
                return True
    return False


MAX_BEST = 20_000
"""How many sets of N cards one ``best N of CARDS by ORDER`` may compare."""


def best_combination(selection, n: int, order: CombinationOrder, column, has, low: int, high: int,
                     line: int = 0) -> int:
    """``best N of CARDS by ORDER``: over every N cards of the selection (all of them when
    fewer), the highest value of ``order`` they make, ties broken by their attribute
    (``column[k]`` where ``has[k]``; None: no tie is broken), highest cards first, as one
    number: (value + 1) × W + the tie, W above every tie (no value made: the tie alone).

    Raises:
        RulesRuntimeError: more than MAX_BEST sets of N cards would be compared.
    """
    cards = sorted(k for _, ks in selection for k in ks)
    if len(cards) <= n:
        hands = [tuple(cards)]
    elif math.comb(len(cards), n) > MAX_BEST:
        raise RulesRuntimeError(f"'best {n} of' {len(cards)} cards would compare {math.comb(len(cards), n):,} sets "
                                f"of cards (line {line}); at most {MAX_BEST:,} are allowed")
    else:
        hands = list(dict.fromkeys(itertools.combinations(cards, n)))
    base = high - low + 2                  # a tie digit: 0 for no card, else the value above ``low``

    def tie(hand) -> int:
        if column is None:
            return 0
        digits = sorted((column[k] - low + 1 for k in hand if has[k]), reverse=True)
        digits += [0] * (n - len(digits))
        return functools.reduce(lambda acc, d: acc * base + d, digits, 0)
    top = value_weight(n, low, high, column is not None)
    whole = [(0, tuple(cards))]
    for value in reversed(order.indices):
        parts = order.cards(value)
        if has_combination(whole, parts):
            best = max((tie(h) for h in hands if has_combination([(0, h)], parts)), default=None)
            if best is not None:
                return (value + 1) * top + best
    return max(tie(h) for h in hands)


def value_weight(n: int, low: int, high: int, ties: bool) -> int:
    """The weight of one value of the order in a :func:`best_combination` score of ``n``
    cards whose ties are broken (``ties``) by an attribute ranging over ``low..high``:
    above every tie."""
    return (high - low + 2) ** n if ties else 1


def best_text(score: int, order: CombinationOrder, top: int) -> str:
    """The words of the combination a :func:`best_combination` ``score`` was made with ("a
    pair of 9s"), ``top`` its :func:`value_weight`; "nothing" when the cards made none."""
    value = score // top - 1
    return order.text(value) if value >= 0 else "nothing"


def combination_holds(selection, made: tuple, values: tuple) -> bool:
    """``CARDS has NAME(values)``: the combination (``made``: its when, cards and words, see
    :class:`CombinationOrder`) has these values and the cards hold it."""
    when, cards, _ = made
    return (when is None or bool(when(None, values))) and has_combination(selection, cards(None, values))


def value_name(names: dict, value: int) -> str:
    """A number as a text shows it: its display name, if it has one."""
    return names.get(value, str(value))


def first_seat(found: list, line: int) -> int:
    """``first of SEATS``: the first seat of ``found``.

    Raises:
        RulesRuntimeError: ``found`` is empty."""
    if not found:
        raise RulesRuntimeError(f"'first of' an empty set of seats (line {line})")
    return found[0]


def roll_die(ctx, sides: int, die: str) -> int:
    """``roll DIE``: a face from 1 to ``sides``, recorded as a roll event."""
    return face_of(ctx.rng, ctx.events, sides, die)


def face_of(rng, ev, sides: int, die: str) -> int:
    """:func:`roll_die` with a generator: the face, its event appended to ``ev`` unless
    None (``die`` names it)."""
    value = rand_face(rng, sides)
    if ev is not None:
        ev.append(("roll", None, {"die": die, "value": value}))
    return value


def extreme_seats(pairs: list, best: Callable) -> list:
    """The seats of ``pairs`` [(seat, number)] whose number is ``best`` (max or min) of all."""
    if not pairs:
        return []
    top = best(v for _, v in pairs)
    return [s for s, v in pairs if v == top]


def over_seats(values: list, how: str, line: int):
    """``highest of (…)``, ``lowest of (…)`` or ``total of (…)`` over ``values``.

    Raises:
        RulesRuntimeError: the highest or lowest of no value."""
    if how == "total":
        return sum(values)
    if not values:
        raise RulesRuntimeError(f"the {how} value over no seat (line {line})")
    return max(values) if how == "highest" else min(values)


def ordered_seats(ctx, members: list, seat: int, first: int) -> list:
    """The seats of ``members`` clockwise from ``seat`` (``first`` 1: after it)."""
    return ordered_seats_of(ctx.n, ctx.out, members, seat, first)


def ordered_seats_of(n: int, out: tuple, members: list, seat: int, first: int) -> list:
    """:func:`ordered_seats` of ``n`` seats whose knock-outs are ``out``."""
    members = set(members)
    return [x for x in clockwise_of(n, out, seat, first) if x in members]


def except_seats(drop: list, base: list) -> list:
    """The seats of ``base`` not in ``drop``."""
    return [s for s in base if s not in drop]


def single_seat(ctx, s: int) -> list:
    """A seat as a set of seats: empty when it is out."""
    return single_seat_of(ctx.out, s)


def single_seat_of(out: tuple, s: int) -> list:
    """:func:`single_seat` over the knock-outs ``out``."""
    return [] if out[s] else [s]


def random_portion(ctx, picked: list, count: int) -> list:
    """``random COUNT of CARDS``: a random selection of ``count`` cards of ``picked``,
    recorded as a pick event."""
    return random_selection(ctx.rng, ctx.events, picked, count)


def random_selection(rng, ev: list | None, picked: list, count: int) -> list:
    """:func:`random_portion` over a generator, its event appended to ``ev`` unless None (a step's)."""
    out, cards = drawn_portion(rng, picked, count)
    if ev is not None:
        ev.append(("pick", None, {"zone": picked[0][0] if picked else -1, "cards": cards}))
    return out


def drawn_portion(rng, picked: list, count: int) -> tuple:
    """(the selection [(zone instance, kinds)] of ``count`` random cards of ``picked``, the
    kinds drawn in the order drawn): what :func:`random_portion` draws."""
    if len(picked) == 1:
        slot, cards = picked[0]
        chosen = tuple(rng.sample(cards, min(count, len(cards))))
        return [(slot, chosen)], chosen
    flat = [(slot, k) for slot, ks in picked for k in ks]
    drawn = rng.sample(flat, min(count, len(flat)))
    return [(slot, tuple(k for s, k in drawn if s == slot)) for slot, _ in picked], tuple(k for _, k in drawn)


def top_portion(picked: list, count: int) -> list:
    """``top COUNT of CARDS``: the ``count`` topmost cards of ``picked``, the last zone's first."""
    out = []
    left = count
    for slot, cards in reversed(picked):
        take = cards[max(0, len(cards) - left):] if left > 0 else ()
        left -= len(take)
        out.append((slot, take))
    out.reverse()
    return out


def deal_events(s: int, zi: int, wanted: int, refill: int | None, refills: list, dealt: dict) -> list:
    """The events of a ``deal`` (see :func:`dealt_cards`): the refills on the way, then the deal."""
    return [*(refill_event(s, refill, cards) for cards in refills),
            ("deal", None, {"from": s, "zone": zi, "count": wanted,
                            "dealt": tuple([(slot, tuple(cards)) for slot, cards in dealt.items()])})]


def dealt_cards(zones: list, known: tuple, claimed: tuple | None, rng, n: int, out: tuple, s: int, base: int,
                wanted: int, refill: int | None) -> tuple:
    """``deal COUNT from ZONE to each Z``: one card at a time round the seats still in, from
    the top of zone instance ``s``, ``wanted`` rounds or until it is empty (an empty ``s``
    first refilled from the zone instance ``refill``, as ``draw`` does); ``base``: the zone
    instance of Z of the first seat. Over the zones (a list, changed in place) of a match
    of ``n`` seats whose knock-outs are ``out``: (known, claimed, the cards of each refill
    in their new order, {zone instance: the cards it got, in the order dealt})."""
    seats = [seat for seat in range(n) if not out[seat]]
    dealt: dict = {}
    refills = []
    zone = zones[s]
    if wanted > 0 and seats and (refill is None or len(zone) >= wanted * len(seats)):
        # no refill: the top cards, topmost first, go round the seats (the last round short
        # when the source runs out)
        taken = min(len(zone), wanted * len(seats))
        top = zone[:len(zone) - taken - 1 if len(zone) > taken else None:-1]
        zones[s] = zone[:len(zone) - taken]
        for i, seat in enumerate(seats):
            cards = top[i::len(seats)]
            if cards:
                zones[base + seat] = zones[base + seat] + cards
                dealt[base + seat] = list(cards)
                if known or claimed is not None and claimed[0] == base + seat:
                    known, claimed = touched(known, claimed, base + seat, True)
        known, claimed = touched(known, claimed, s)
        return known, claimed, refills, dealt
    for _ in range(wanted):
        if not zones[s] and refill is not None:
            known, claimed, cards = refilled(zones, known, claimed, rng, s, refill)
            if cards is not None:
                refills.append(cards)
        if not zones[s]:
            break                # the source is empty: nothing more to deal
        for seat in seats:
            if not zones[s] and refill is not None:
                known, claimed, cards = refilled(zones, known, claimed, rng, s, refill)
                if cards is not None:
                    refills.append(cards)
            if not zones[s]:
                break
            card = zones[s][-1]
            zones[s] = zones[s][:-1]
            zones[base + seat] = zones[base + seat] + (card,)
            if known or claimed is not None and claimed[0] == base + seat:
                known, claimed = touched(known, claimed, base + seat, True)
            dealt.setdefault(base + seat, []).append(card)
    known, claimed = touched(known, claimed, s)
    return known, claimed, refills, dealt


def shuffle_event(d: int, order: tuple) -> tuple:
    """The event of zone instance ``d`` shuffled into ``order``."""
    return ("shuffle", None, {"zone": d, "count": len(order), "order": order})


def shuffled(zones: list, known: tuple, claimed: tuple | None, rng, d: int, picked: list | None) -> tuple:
    """``shuffle ZONE`` (``picked`` None), or ``shuffle CARDS into ZONE``: the cards of
    ``picked`` still where they were join zone instance ``d``, which is shuffled; over the
    zones (a list, changed in place): (known, claimed, the cards of ``d`` in their new
    order)."""
    cards = list(zones[d])
    for slot, ks in picked or ():
        if slot == d or not ks:
            continue
        if not multiset_contains(zones[slot], ks):
            ks = _present(zones[slot], ks)    # chosen cards already moved away
            if not ks:
                continue
        zones[slot] = remove_cards(zones[slot], ks)
        known, claimed = touched(known, claimed, slot)
        cards.extend(ks)
    shuffle_in_place(rng, cards)
    zones[d] = order = tuple(cards)
    known, claimed = touched(known, claimed, d)
    return known, claimed, order


def gathered(zones: list, d: int, faces: tuple) -> None:
    """``gather all cards into ZONE``: every card (not the dice) of every other zone joins
    zone instance ``d``, over the zones (a list, changed in place); the caller forgets what
    was known of where cards are (known (), claimed None)."""
    cards = []
    for slot, zone in enumerate(zones):
        if slot != d and zone:
            dice = tuple([k for k in zone if faces[k] is not None])
            cards.extend([k for k in zone if faces[k] is None] if dice else zone)
            zones[slot] = dice
    zones[d] = zones[d] + tuple(cards)


def group_set(groups: tuple, gi: int, seats) -> tuple:
    """The groups ``groups`` (per group: its seats) once group ``gi`` is ``seats``: what
    :func:`set_group` records."""
    made = list(groups)
    made[gi] = tuple(seats)
    return tuple(made)


def add_to_group(ctx, gi: int, s: int) -> None:
    """``add SEAT to GROUP`` (kept in seat order; nothing if it is a member)."""
    ctx.groups = group_with(ctx.groups, gi, s)


def group_with(groups: tuple, gi: int, s: int) -> tuple:
    """The groups once seat ``s`` is added to group ``gi``: what :func:`add_to_group` records."""
    if s in groups[gi]:
        return groups
    made = list(groups)
    made[gi] = tuple(sorted(made[gi] + (s,)))
    return tuple(made)


def remove_from_group(ctx, gi: int, s: int) -> None:
    """``remove SEAT from GROUP``."""
    ctx.groups = group_without(ctx.groups, gi, s)


def group_without(groups: tuple, gi: int, s: int) -> tuple:
    """The groups once seat ``s`` leaves group ``gi``: what :func:`remove_from_group` records."""
    made = list(groups)
    made[gi] = tuple(x for x in made[gi] if x != s)
    return tuple(made)


_ZONE_OF = operator.itemgetter(1)        # of an entry of ``known``


def touched(known: tuple, claimed: tuple | None, slot: int, added: bool = False) -> tuple:
    """(known, claimed) once zone instance ``slot`` changed: its top cards are no longer the
    claimed cards (``lay`` marks them again after).

    ``known`` holds (viewer or -1 for all, zone instance, cards, group): the viewer knows the
    zone holds at least those cards; ``group``: they are exactly the claimed cards. Cards only
    ``added`` to a zone leave that knowledge true (no longer as the claimed group); cards
    taken out, shuffled or rerolled make it stale, so it is forgotten (a move that everyone
    can follow carries it along first: see :func:`moved_cards`). ``known`` is None where
    nothing is tracked (a working copy or match whose states nobody makes a view of:
    ``Engine.working_copy(state, knowledge=False)``), and stays None."""
    if known and slot in map(_ZONE_OF, known):
        known = _known_after(known, slot, added)
    return known, (None if claimed is not None and claimed[0] == slot else claimed)


def _known_after(known: tuple, slot: int, added: bool) -> tuple:
    """``known`` once zone instance ``slot``, of which something is known, changed."""
    if not added:
        return tuple([k for k in known if k[1] != slot])
    if any([s == slot and g for _, s, _, g in known]):
        return tuple([(v, s, c, False) if s == slot and g else (v, s, c, g) for v, s, c, g in known])
    return known


__all__ = [
    'best_text',
    'IllegalAction',
    'RulesRuntimeError',
    'ACTOR',
    'CLAIMANT',
    'CURRENT',
    'Ctx',
    'MAX_CALLS',
    'MAX_CHOICES',
    'MAX_LOOP',
    'NO_EVENTS',
    'choice_range',
    'MAX_STEP_WORK',
    'add_to_group',
    'blind_places',
    'claimed_selection',
    'claimed_top',
    'clockwise',
    'reveal_counter',
    'divisor',
    'except_seats',
    'exact_quotient',
    'extreme_of',
    'extreme_seats',
    'first_seat',
    'how_many',
    'in_play',
    'multiset_contains',
    'no_seat',
    'ordered_seats',
    'over_seats',
    'blind_pick',
    'random_portion',
    'remove_cards',
    'remove_from_group',
    'roll_die',
    'seat_groups',
    'seat_name',
    'swapped',
    'counter_shown',
    'loop_rounds',
    'move_event',
    'refill_event',
    'draw_events',
    'reveal_event',
    'claim_event',
    'claim_text',
    'action_text',
    'reading',
    'roll_dice_event',
    'deal_events',
    'shuffle_event',
    'out_event',
    'group_with',
    'group_without',
    'ordered_seats_of',
    'single_seat_of',
    'random_selection',
    'group_set',
    'single_seat',
    'step_seat',
    'table_value',
    'CombinationOrder',
    'combination_holds',
    'has_combination',
    'best_combination',
    'run_parts',
    'too_deep',
    'top_portion',
    'total_of',
    'value_name',
    'seats_in',
    'clockwise_of',
    'step_seat_of',
    'revealed',
    'claimed_top_of',
    'knocked_out',
    'next_seat_of',
    'not_in_table',
    'drawn_cards',
    'moved_cards',
    'moved_chosen',
    'one_of_each_size',
    'roll_dice_over',
    'touched',
    'dealt_cards',
    'shuffled',
    'gathered',
    'loop_work',
    'face_of',
    'endless_phases',
    'endless_deals',
]


def exports() -> dict:
    """{name: object} of ``__all__``: the globals of every generated module."""
    found = globals()
    return {name: found[name] for name in __all__}
