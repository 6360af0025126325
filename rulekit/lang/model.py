"""The frozen model of a game description: what a ``.rules`` file says, with source spans.

The transform (:mod:`rulekit.lang.transform`) builds these from the parse tree; the checks
(:mod:`rulekit.sema.check`) resolve names and validate them; the engine compiles them into
plain Python callables. Collections are tuples; every node carries its :class:`Span`
(excluded from equality, so that positions never break comparisons).
"""

from __future__ import annotations

from typing import Union

import attrs

from ..errors import Span


def _span():
    return attrs.field(default=Span.unknown(), eq=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- expressions
@attrs.frozen
class Num:
    """A whole number written out (``500``; ``-1`` is folded into one ``Num``)."""
    value: int
    span: Span = _span()


@attrs.frozen
class Bool:
    """``true`` or ``false``."""
    value: bool
    span: Span = _span()


@attrs.frozen
class Name:
    """A bare name: a counter, seat, claim field, chosen parameter or loop variable."""
    name: str
    span: Span = _span()


@attrs.frozen
class ValueOf:
    """``NAME of SEAT``: a per-player counter of one seat."""
    name: str
    seat: "Seat"
    span: Span = _span()


@attrs.frozen
class CountOf:
    """``count of CARDS``: how many cards (or dice) the set holds."""
    cards: "Cards"
    span: Span = _span()


@attrs.frozen
class TotalOf:
    """``total ATTR of CARDS``: the sum of an attribute (or of a symbol-valued name's attribute)."""
    attr: str
    cards: "Cards"
    span: Span = _span()


@attrs.frozen
class CardExtreme:
    """``highest ATTR of CARDS`` / ``lowest ATTR of CARDS``: the largest (``highest=True``)
    or smallest value of a card attribute among the cards that carry it; 0 when none does."""
    highest: bool
    attr: str
    cards: "Cards"
    span: Span = _span()


@attrs.frozen
class CardQuantifier:
    """``every card in CARDS is P`` (``every=True``) or ``some card in CARDS is P``."""
    every: bool
    cards: "Cards"
    pred: "CardPred"
    span: Span = _span()


@attrs.frozen
class Roll:
    """``roll DIE``: a throw of a declared die, 1..sides (chance, public and logged); not the
    statement ``roll CARDS`` (:class:`RollDice`)."""
    die: str
    span: Span = _span()


@attrs.frozen
class ClaimHolds:
    """``claim holds``, or ``claim holds on CARDS``: the standing claim's truth with CARDS
    standing in for the claimed cards."""
    cards: "Cards | None" = None
    span: Span = _span()


@attrs.frozen
class ClaimIs:
    """``claim is NAME``: whether the standing claim is of that kind."""
    claim: str
    span: Span = _span()


@attrs.frozen
class NoClaim:
    """``no claim``: whether no claim stands (``claim stands`` is ``Not(NoClaim())``)."""
    span: Span = _span()


@attrs.frozen
class ClaimedField:
    """``claimed FIELD``: a parameter of the standing claim (0 if none stands, or if its claim
    has no such field)."""
    field: str
    span: Span = _span()


@attrs.frozen
class Beats:
    """``NAME(args) beats claim``: the claim so made would be higher than the standing one."""
    claim: str
    args: tuple
    span: Span = _span()


@attrs.frozen
class PlayerCount:
    """``players``: the number of seats in this match, those knocked out included."""
    span: Span = _span()


@attrs.frozen
class Extreme:
    """``highest NAME`` / ``lowest NAME`` over a per-player counter."""
    highest: bool
    name: str
    span: Span = _span()


@attrs.frozen
class IsNobody:
    """``NAME is nobody``: a seat chosen ``or nobody`` found no seat to choose."""
    name: str
    span: Span = _span()


@attrs.frozen
class IsOut:
    """``SEAT is out``: the seat was knocked out of the match."""
    seat: str
    span: Span = _span()


@attrs.frozen
class CountSeats:
    """``count of seats in SEATS``."""
    seats: "SeatSet"
    span: Span = _span()


@attrs.frozen
class SeatQuantifier:
    """``some NAME in SEATS where (COND)`` (``every=False``) or ``every NAME in SEATS where (COND)``."""
    every: bool
    var: str
    seats: "SeatSet"
    cond: "Expr"
    span: Span = _span()


@attrs.frozen
class OverSeats:
    """``highest of (EXPR for NAME in SEATS)``, ``lowest of (…)`` or ``total of (…)``:
    ``how`` is highest, lowest or total (0 over no seat; highest/lowest of no seat is an error)."""
    how: str
    value: "Expr"
    var: str
    seats: "SeatSet"
    span: Span = _span()


@attrs.frozen
class MinMax:
    """``min(a, b, …)`` (``highest=False``) or ``max(a, b, …)``."""
    highest: bool
    args: tuple
    span: Span = _span()


@attrs.frozen
class CondValue:
    """``if COND then A else B``: a value chosen by a condition."""
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    span: Span = _span()


@attrs.frozen
class BinOp:
    """Arithmetic, comparison or logic: ``op`` is one of + - * / /^ (division rounding up)
    mod = != < <= > >= and or. Division rounds down (``/``) or up (``/^``)."""
    op: str
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@attrs.frozen
class Not:
    """``not EXPR``: the negation of a condition."""
    operand: "Expr"
    span: Span = _span()


# seats
@attrs.frozen
class SeatName:
    """A seat written by name where a seat is expected: ``current``, ``actor``, ``claimant``, a
    declared seat, ``P1``…, or a loop, chosen, procedure or ``let`` name."""
    name: str
    span: Span = _span()


@attrs.frozen
class Neighbour:
    """``left of SEAT`` (clockwise, ``step=1``) or ``right of SEAT`` (``step=-1``)."""
    step: int
    seat: "Seat"
    span: Span = _span()


Seat = Union[SeatName, Neighbour, "FirstOf"]


@attrs.frozen
class FirstOf:
    """``first of SEATS``: the first seat of a set (in its order)."""
    seats: "SeatSet"
    span: Span = _span()


@attrs.frozen
class SeatSet:
    """A set of seats in clockwise order.

    ``kind`` is one of: everyone, nobody (no seat), others (all but the actor), after (all but ``seat``,
    starting left of it; of ``base`` when given), from (all, starting at ``seat``), voters (those whose vote was the
    action ``name``), var (a group, a chosen group or a seat), except (``base`` without
    ``other``), where (the seats ``name`` of ``base`` for which ``cond`` holds), highest /
    lowest (the seats ``name`` of ``base`` with the highest / lowest value ``cond``). Seats that
    were knocked out belong to none of them.
    """
    kind: str
    seat: Seat | None = None
    name: str | None = None
    base: "SeatSet | None" = None
    other: "SeatSet | None" = None
    cond: "Expr | None" = None
    span: Span = _span()


# card predicates
@attrs.frozen
class CpName:
    """A flag, a card kind or a symbol: true of a card that has it."""
    name: str
    span: Span = _span()


@attrs.frozen
class CpCompare:
    """``ATTR OP VALUE`` in a card condition (``rank = r``): true of a card that has the attribute
    and whose value compares so; ``op`` is = != < <= > >=, ``value`` a single term."""
    attr: str
    op: str
    value: Expr
    span: Span = _span()


@attrs.frozen
class CpLogic:
    """``and`` / ``or`` of two predicates, or ``not`` of one (``right`` is None)."""
    op: str
    left: "CardPred"
    right: "CardPred | None" = None
    span: Span = _span()


CardPred = Union[CpName, CpCompare, CpLogic]


# card sets
@attrs.frozen
class ZoneRef:
    """A zone: a shared one (``seat`` None), ``NAME of SEAT``, or ``your NAME`` (``yours``)."""
    zone: str
    seat: Seat | None = None
    yours: bool = False
    span: Span = _span()


@attrs.frozen
class Chosen:
    """``chosen``: the cards chosen (``choose … from``) in this action."""
    span: Span = _span()


@attrs.frozen
class Claimed:
    """``claimed cards``: the cards laid (``lay``) with the standing claim; none when no cards were."""
    span: Span = _span()


@attrs.frozen
class EveryZone:
    """``every NAME [of SEATS]``: one per-player zone of each seat in the set."""
    zone: str
    seats: SeatSet | None = None
    span: Span = _span()


@attrs.frozen
class Portion:
    """``top N of CARDS`` or ``random N of CARDS`` (the top cards are the last ones); ``count``
    is a :class:`Num` or a value written in parentheses (``top (n) of stock``)."""
    random: bool
    count: "Expr"
    cards: "Cards"
    span: Span = _span()


@attrs.frozen
class Where:
    """``(CARDS where P)``: those of the cards that meet the card condition P."""
    cards: "Cards"
    pred: CardPred
    span: Span = _span()


@attrs.frozen
class CardUnion:
    """``(CARDS plus CARDS …)``: the cards of several card sets together (a hand and the board
    of a poker showdown), in the order written."""
    parts: tuple
    span: Span = _span()


Cards = Union[ZoneRef, Chosen, Claimed, EveryZone, Portion, Where, CardUnion]


# ---------------------------------------------------------------- statements
@attrs.frozen
class Require:
    """``require COND ["REASON"]``: a condition of an action; while it does not hold the action
    (or that choice) is not offered. ``message``: the reason a person is told (None: none given)."""
    cond: Expr
    message: str | None = None
    span: Span = _span()


@attrs.frozen
class ChooseCards:
    """``choose N from CARDS`` (a choice of card kinds); with ``blind``, ``choose N blind from
    CARDS``: N cards chosen by their places from the top, their faces unseen."""
    low: int
    high: int | None          # None: no upper bound
    source: Cards
    blind: bool = False
    span: Span = _span()


@attrs.frozen
class Domain:
    """What a chosen parameter ranges over: ``range`` (low..high), ``symbols`` (a symbol set),
    ``seats`` (one seat of a seat set; ``or_nobody``: no seat when the set is empty, a
    target that may be absent) or ``group`` (``size`` different seats of a seat set; a
    :class:`Num` or a value written in parentheses)."""
    kind: str
    low: Expr | None = None
    high: Expr | None = None
    name: str | None = None
    seats: SeatSet | None = None
    size: "Expr | None" = None
    or_nobody: bool = False
    span: Span = _span()


@attrs.frozen
class ChooseParam:
    """``choose NAME[: NAMES] in DOMAIN ["PROMPT"]``: the deciding seat picks a value, named NAME
    in the rest of the action."""
    name: str
    domain: Domain
    names: str | None = None     # a names declaration for how its values are shown and typed
    prompt: str | None = None    # the question a person is asked, e.g. "how many bodies?"
    span: Span = _span()


@attrs.frozen
class Move:
    """Move cards; ``lay`` moves them face down and marks them as the claimed cards."""
    cards: Cards
    dest: ZoneRef
    bottom: bool = False
    lay: bool = False
    span: Span = _span()


@attrs.frozen
class Swap:
    """``swap ZONE with ZONE``: the two zones exchange all their cards (a hand traded for
    another); what is known of each zone's cards goes with them."""
    first: ZoneRef
    second: ZoneRef
    span: Span = _span()


@attrs.frozen
class Draw:
    """``draw N from ZONE to ZONE``: N cards, one by one, from the top of the source to the top of
    the destination (an empty source with ``refill from`` is refilled first; else fewer cards)."""
    count: Expr
    source: ZoneRef
    dest: ZoneRef
    span: Span = _span()


@attrs.frozen
class Deal:
    """``deal N from ZONE to each NAME``: N cards to every seat, one at a time round the table
    from P1, into its instance of the per-player zone ``zone`` (a zone name)."""
    count: Expr
    source: ZoneRef
    zone: str
    span: Span = _span()


@attrs.frozen
class Shuffle:
    """``shuffle ZONE``: its cards in random order; ``shuffle CARDS into ZONE`` (``cards`` given)
    first moves the cards into the zone, then shuffles the whole zone."""
    zone: ZoneRef
    cards: Cards | None = None    # shuffle CARDS into ZONE
    span: Span = _span()


@attrs.frozen
class Gather:
    """``gather all cards into ZONE``: every card of every zone (not the dice) into the zone,
    unshuffled; the claimed cards mark and what was shown privately are forgotten."""
    zone: ZoneRef
    span: Span = _span()


@attrs.frozen
class Reveal:
    """``reveal CARDS`` (to every seat) or ``show CARDS to SEAT``: the cards are seen, not moved."""
    cards: Cards
    to: Seat | None = None        # None: to everyone
    span: Span = _span()


@attrs.frozen
class RevealCounter:
    """``reveal COUNTER of SEAT`` (``your COUNTER``; a shared counter alone) or ``show … to
    SEAT``: the value a counter has now is told to every seat (or to one), like a card
    turned up; later values stay as hidden as the counter is. Written as a ``reveal`` of a
    zone; :func:`resolve_reveals` tells the two apart once the counters are known."""
    counter: str
    seat: Seat | None = None
    yours: bool = False
    to: Seat | None = None
    span: Span = _span()


@attrs.frozen
class Target:
    """What ``set``, ``add`` and ``subtract`` change: ``NAME`` (a counter, a seat variable, or for
    ``add``, a group) or ``NAME of SEAT``; ``seat`` None: a per-player counter is the actor's."""
    name: str
    seat: Seat | None = None
    span: Span = _span()


@attrs.frozen
class Assign:
    """``set``, ``add`` or ``subtract`` (``op`` is '=', '+' or '-')."""
    op: str
    target: Target
    value: Expr
    span: Span = _span()


@attrs.frozen
class MakeClaim:
    """``claim NAME[(ARGS)]``: the actor makes a claim of that kind with these values; it replaces
    the standing claim and the actor becomes the ``claimant``."""
    claim: str
    args: tuple
    span: Span = _span()


@attrs.frozen
class ClearClaim:
    """``clear claim``: no claim stands any more (nor the claimed cards); ``claimant`` is kept."""
    span: Span = _span()


@attrs.frozen
class If:
    """``if COND { … } [else { … }]``; an ``else if`` is an :class:`If` alone in ``orelse``."""
    cond: Expr
    then: tuple
    orelse: tuple = ()
    span: Span = _span()


@attrs.frozen
class ForEach:
    """``for each NAME in SEATS { … }``: the block once per seat of the set, in its order; when
    ``seats`` is a bare name of a symbol set, once per symbol, lowest first."""
    var: str
    seats: SeatSet
    body: tuple
    span: Span = _span()


@attrs.frozen
class GoTo:
    """``go to PHASE [from SEAT]``: play goes to PHASE; with ``start``, that seat becomes
    ``current`` first (the seat whose turn it is)."""
    phase: str
    start: "Seat | None" = None
    span: Span = _span()


@attrs.frozen
class Ask:
    """``ask [SEAT to] PHASE [then { … }]``: play goes to PHASE (decided by SEAT when it is a
    turn); when that phase ends without saying where play goes, the ``then`` block runs with
    the values known here, and ``current`` and ``actor`` as they were."""
    seat: "Seat | None"
    phase: str
    then: tuple = ()
    span: Span = _span()


@attrs.frozen
class Do:
    """``do NAME[(ARGS)]``: runs a procedure, ``args`` giving its values in order, then goes on."""
    procedure: str
    args: tuple = ()
    span: Span = _span()


@attrs.frozen
class LetValue:
    """``let NAME = EXPR``: a local value for the rest of the block."""
    name: str
    value: "Expr"
    span: Span = _span()


@attrs.frozen
class RemoveSeat:
    """``remove SEAT from GROUP``."""
    seat: "Seat"
    group: str
    span: Span = _span()


@attrs.frozen
class KnockOut:
    """``knock out SEAT``: the seat leaves the match for good."""
    seat: "Seat"
    span: Span = _span()


@attrs.frozen
class RollDice:
    """``roll CARDS``: every die among the pieces is rolled again where it lies."""
    cards: "Cards"
    span: Span = _span()


@attrs.frozen
class Repeat:
    """``repeat N times { … }``."""
    count: "Expr"
    body: tuple
    span: Span = _span()


@attrs.frozen
class ForKinds:
    """``for each NAME in deck { … }``: once for each kind of card of the deck (not dice)."""
    var: str
    body: tuple
    span: Span = _span()


@attrs.frozen
class ForRange:
    """``for each NAME in LOW..HIGH { … }``."""
    var: str
    low: "Expr"
    high: "Expr"
    body: tuple
    span: Span = _span()


@attrs.frozen
class EndDeal:
    """``end deal``: the deal ends at once; then ``deals until`` says whether the match goes on."""
    span: Span = _span()


@attrs.frozen
class EndTurn:
    """``end turn``: the rest of the turn's action (and of every phase it asked) is skipped;
    the turn ends as its actions do: its ``then`` block runs, then a ``clockwise`` turn
    passes to the next seat."""
    span: Span = _span()


@attrs.frozen
class Log:
    """``log "TEXT"``: a public line of the play-by-play; ``text`` is a :class:`Template` (holes)."""
    text: str
    span: Span = _span()




# ---------------------------------------------------------------- declarations
@attrs.frozen
class GameDecl:
    """``game "TITLE"``: the title of the game (without the quotes)."""
    title: str
    span: Span = _span()


@attrs.frozen
class PlayersDecl:
    """``players LOW..HIGH``, or ``players N`` (``low`` = ``high``): the seat counts allowed."""
    low: int
    high: int
    span: Span = _span()


@attrs.frozen
class CardProp:
    """One property of a card declaration: ``count``, ``each`` (N in each ZONE), ``range``
    (attr lo..hi), ``value`` (attr n), ``alias`` (attr = another attr), ``symbols`` (each
    SYMBOLSET: one kind per symbol, showing it) or ``flag``."""
    kind: str
    name: str = ""
    value: int = 0
    high: int = 0
    other: str = ""
    span: Span = _span()


@attrs.frozen
class CardDecl:
    """``card NAME ["LABEL"]: PROP, …`` in the deck: one card, or one kind per value of a range;
    ``label`` None: players call it by its name; ``props`` are :class:`CardProp`."""
    name: str
    label: str | None
    props: tuple
    span: Span = _span()


@attrs.frozen
class DeckDecl:
    """``deck { CARD … }``: every card of the game (:class:`CardDecl`); a deck in a variant
    replaces or adds cards by name."""
    cards: tuple
    span: Span = _span()


@attrs.frozen
class DieDecl:
    """A die of ``sides`` faces (1..sides). ``count`` dice lie in ``zone`` at the start of a
    match (in each seat's instance when ``each``); ``wild`` faces carry the flag ``wild``;
    ``names`` are (face, label) pairs for faces people call otherwise."""
    name: str
    sides: int
    wild: tuple = ()
    count: int = 0
    zone: str | None = None
    each: bool = False
    names: tuple = ()
    span: Span = _span()


@attrs.frozen
class TableDecl:
    """``table NAME: 5: 2, 3, 2  6: 2, 3, 4``: numbers looked up by a row key and a place in
    the row (1 first), ``NAME(key, place)``; or one row without a key, ``NAME(place)``."""
    name: str
    rows: tuple              # (key or None, (values…))
    span: Span = _span()


@attrs.frozen
class TableValue:
    """``NAME(key, place)`` or ``NAME(place)``: a number of a declared table."""
    name: str
    args: tuple
    span: Span = _span()


@attrs.frozen
class ComboCards:
    """``N of COND`` in a combination: N cards of their own, each meeting the card condition."""
    count: int
    pred: "CardPred"
    span: Span = _span()


@attrs.frozen
class ComboRun:
    """``run of N by ATTR to TOP [in COND] [, V also W …]`` in a combination: N cards of their
    own whose ATTR values are the N values ending at TOP (a number or a value of the
    combination), each meeting COND when given; ``also``: (V, W) pairs, a card whose ATTR is
    V standing for W too (``14 also 1``: a card of 14 may also stand for a 1)."""
    length: int
    attr: str
    top: "Expr"
    pred: "CardPred | None" = None
    also: tuple = ()
    span: Span = _span()


@attrs.frozen
class CombinationDecl:
    """``combination NAME(PARAMS) ["LABEL"]: PART, PART, … [, when COND]``: a pattern of cards
    with values (``x: ATTR``, a value of a card attribute; ``s: SYMBOLS``, a symbol). ``parts`` are
    :class:`ComboCards` and :class:`ComboRun`, each needing cards of its own; ``when`` says
    which values exist (None: all); ``label`` a :class:`Template` over the values, or None."""
    name: str
    params: tuple
    label: "Template | None"
    parts: tuple
    when: "Expr | None" = None
    span: Span = _span()


@attrs.frozen
class CombinationsDecl:
    """``combinations NAME: A < B < …``: an order of combinations, lowest first. Its values are
    every combination with every value of its parameters (that its ``when`` allows), compared
    by the combination's place in the list, then by the values left to right."""
    name: str
    combinations: tuple      # names of CombinationDecl, lowest first
    spans: tuple = attrs.field(default=(), eq=False, repr=False)    # where each name is written
    span: Span = _span()


@attrs.frozen
class HasCombination:
    """``CARDS has C``: whether cards of their own can be found among CARDS for every part of
    the combination C (a value of a ``combinations`` kind, or ``NAME(ARGS)`` of a combination)."""
    cards: "Cards"
    value: "Expr"
    span: Span = _span()


@attrs.frozen
class BestCombination:
    """``best N of CARDS by ORDER``: a number that ranks the best N cards among CARDS (all of
    them when fewer) by the order of combinations ORDER: the highest value some N of them
    make, ties broken by the attribute its combinations range over, highest cards first
    (a showdown: ``winners: highest best 5 of your hand by hand``)."""
    count: int
    cards: "Cards"
    order: str
    span: Span = _span()


@attrs.frozen
class NamesDecl:
    """``names NAME: 1 "A", 11 "J"``: how people name some values of a number (the others
    are shown as digits). Card attributes of that name, and values declared ``: NAME``
    (counters, claim and procedure values, choices), are shown and typed so."""
    name: str
    pairs: tuple             # (value, label)
    span: Span = _span()


@attrs.frozen
class SymbolsDecl:
    """``symbols NAME: A < B < …``: an ordered set of named values (for claims, choices,
    cards); ``symbols NAME: A, B, …`` (``ordered`` False): a set whose values have no order
    (comparing them with < or ordering claims by them is an error), listed in that order."""
    name: str
    symbols: tuple           # lowest rank first
    span: Span = _span()
    ordered: bool = True


@attrs.frozen
class ZoneDecl:
    """A zone: ``per_player`` or shared; ``seen`` is owner, others (everyone but its owner:
    a card held to the forehead), all, nobody or count (only how many)."""
    name: str
    per_player: bool
    seen: str
    holds_deck: bool = False
    refill_from: str | None = None
    span: Span = _span()

    def sees(self, owner: int, seat: int) -> bool:
        """Whether ``seat`` sees the faces of the cards in this zone's instance of seat
        ``owner`` (-1 for a shared zone): the one reading of ``seen`` for views, events and
        the engine's bookkeeping of who knows which card."""
        seen = self.seen
        return seen == "all" or owner >= 0 and (seen == "owner" and owner == seat
                                                or seen == "others" and owner != seat)


@attrs.frozen
class CounterDecl:
    """A number, one for the table or one per player; ``seen`` is all (public), owner (only
    its seat sees it) or nobody (kept by the rules, shown to no player)."""
    name: str
    per_player: bool
    initial: Expr
    seen: str = "all"
    names: str | None = None
    span: Span = _span()


@attrs.frozen
class SeatDecl:
    """A seat variable; ``random`` true: a random seat at the start of the match, else
    ``initial`` (None: P1 until it is set)."""
    name: str
    initial: Expr | None
    random: bool = False
    span: Span = _span()


@attrs.frozen
class GroupDecl:
    """A named set of seats, empty until ``let NAME be SEATS``."""
    name: str
    span: Span = _span()


@attrs.frozen
class LetGroup:
    """``let GROUP be SEATS``: a declared group now holds those seats."""
    name: str
    seats: SeatSet
    span: Span = _span()


@attrs.frozen
class Member:
    """``SEAT in SEATS``."""
    seat: str
    seats: SeatSet
    span: Span = _span()


@attrs.frozen
class Param:
    """A claim, procedure or combination parameter: a number, or (``symbols`` given) a seat
    ("seat"), a set of seats ("seats"), one symbol of a symbol set, a value of an order of
    combinations or (for a combination) of a card attribute, by that name."""
    name: str
    symbols: str | None = None
    span: Span = _span()


@attrs.frozen
class ClaimDecl:
    """``claim NAME[(PARAMS)] ["LABEL"] [ORDER]: true when COND``: a kind of claim a player can
    make; ``params`` are :class:`Param`, ``label`` a :class:`Template` or None, ``truth`` the COND."""
    name: str
    params: tuple
    label: str | None
    ordering: tuple          # key expressions over the params, most significant first; () if unordered
    truth: Expr
    table: tuple = ()        # or: the claimable values from low to high, each a tuple of Num/Name
    higher: Expr | None = None   # or: when a new claim beats the standing one (``claimed NAME`` reads it)
    span: Span = _span()


@attrs.frozen
class SetupDecl:
    """``setup { … }``: the block run at the start of every deal; it must end in a ``go to``."""
    body: tuple
    span: Span = _span()


@attrs.frozen
class ProcedureDecl:
    """``procedure NAME[(PARAMS)] { … }``: a named block that ``do NAME`` runs."""
    name: str
    body: tuple
    params: tuple = ()       # Param: a number, a seat (symbols "seat") or a symbol

    span: Span = _span()


@attrs.frozen
class Action:
    """An action of a phase; ``forced``: when it holds, this is the only action allowed."""
    name: str
    label: str | None
    body: tuple
    forced: "Expr | None" = None
    span: Span = _span()


@attrs.frozen
class PhaseDecl:
    """A decision point.

    ``kind``: ``turn`` (the seat ``current`` chooses), ``first`` (a window: the seats are
    asked in order and the first to act takes it), ``each`` (a window: every seat may act
    once), ``vote`` (every seat must choose; the choices are revealed together).
    ``after`` runs when a window or vote closes (``otherwise``/``then``). ``anonymous``:
    a vote whose choices are never revealed (each seat perceives its own).
    """
    kind: str
    name: str
    seats: SeatSet | None
    actions: tuple
    after: tuple | None = None
    rotation: "Rotation | None" = None
    anonymous: bool = False
    span: Span = _span()


@attrs.frozen
class Rotation:
    """``clockwise [among SEATS]`` after a turn's name: when an action of the turn (with its
    ``then`` block and whatever it asked) ends without ``go to``, the next seat still in
    clockwise from ``current`` (the next one in SEATS, when given) takes the same turn."""
    among: SeatSet | None = None
    span: Span = _span()


@attrs.frozen
class RankKey:
    """``highest EXPR`` or ``lowest EXPR``: one key of the match's ``winners``, evaluated for each
    seat with ``actor`` that seat; ``label``: what the standings call it (``highest chips
    "chips"``), None to show the expression."""
    highest: bool
    expr: Expr
    label: str | None = None
    span: Span = _span()


@attrs.frozen
class MatchDecl:
    """``until``: checked after each deal; ``remain``: the match ends as soon as only that
    many seats are left in it; ``returns``: each seat's result, evaluated with ``actor`` the
    seat (None: +1 for a winner, -1 for any other seat)."""
    until: Expr | None
    between: tuple
    winners: tuple
    remain: int | None = None
    returns: Expr | None = None
    span: Span = _span()


@attrs.frozen
class RemoveAction:
    """``remove action NAME from PHASE``, in a variant: the phase loses that action."""
    name: str
    phase: str
    span: Span = _span()


@attrs.frozen
class RemoveCard:
    """``remove card NAME``, in a variant: the deck loses that card (every kind it makes)."""
    name: str
    span: Span = _span()


@attrs.frozen
class VariantDecl:
    """``variant NAME ["LABEL"] [extends V, …] { ITEMS }``: a named change to the base game; its
    items replace those of the same name or are added, after the ``extends`` variants; a
    :class:`RemoveAction` or :class:`RemoveCard` among them takes an action or a card away."""
    name: str
    label: str | None
    extends: tuple
    items: tuple
    span: Span = _span()


@attrs.frozen
class RulesFile:
    """Everything a ``.rules`` file declares, in source order, before variants are applied."""
    items: tuple
    path: str
    source: str = attrs.field(eq=False, repr=False)


@attrs.frozen
class Template:
    """A quoted text with ``{expr}`` holes, as in ``"plays {count of chosen} cards"``."""
    parts: tuple             # str or Expr, in order
    span: Span = _span()

    @property
    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else "{…}" for p in self.parts)


@attrs.frozen
class Kind:
    """One kind of card after expansion: ``rank 1..10`` in a card declaration makes ten kinds.

    ``card`` is the declared card name (shared by generated kinds), ``label`` what players
    see, ``attrs`` the numeric attributes (missing ones read as 0), ``flags`` the flags and
    ``count`` how many copies the deck holds.
    """
    card: str
    label: str
    attrs: tuple             # ((name, value), ...)
    flags: frozenset
    count: int
    die: str | None = None   # the die whose face this is (dice lie in zones like cards)
    start: str | None = None # the per-player zone where ``count`` copies start for each seat

    def attr(self, name: str) -> int:
        for key, value in self.attrs:
            if key == name:
                return value
        return 0


@attrs.frozen
class Game:
    """A checked game description with its variants applied: what the engine runs."""
    title: str
    players: tuple           # (fewest, most) seats
    kinds: tuple             # Kind, in declaration order
    dice: tuple              # DieDecl
    symbols: tuple           # SymbolsDecl
    zones: tuple             # ZoneDecl
    counters: tuple          # CounterDecl
    seats: tuple             # SeatDecl
    groups: tuple            # GroupDecl
    claims: tuple            # ClaimDecl
    setup: tuple             # statements
    procedures: tuple        # ProcedureDecl
    phases: tuple            # PhaseDecl
    match: MatchDecl
    variants: tuple          # every VariantDecl of the file (name, label) pairs
    applied: tuple           # the names of the variants applied, in order
    names: tuple = ()        # NamesDecl
    tables: tuple = ()       # TableDecl
    combinations: tuple = () # CombinationDecl
    combination_kinds: tuple = ()  # CombinationsDecl
    setup_span: Span = attrs.field(default=Span.unknown(), eq=False, repr=False)
    path: str = attrs.field(eq=False, repr=False, default="<rules>")
    source: str = attrs.field(eq=False, repr=False, default="")

    @property
    def deck_size(self) -> int:
        """The number of cards in the deck (dice and cards each seat starts with not included)."""
        return sum(k.count for k in self.kinds if k.start is None)

    def pieces(self, players: int) -> int:
        """Every card of a match of ``players`` seats, those each seat starts with included."""
        return sum(k.count * (players if k.start else 1) for k in self.kinds if k.die is None)


def branches(s) -> tuple:
    """The blocks a statement runs as part of it: an ``if``'s branches, a loop's body
    (an ``ask``'s ``then`` is its continuation, not among them)."""
    if isinstance(s, If):
        return (s.then, s.orelse)
    if isinstance(s, (ForEach, Repeat, ForRange, ForKinds)):
        return (s.body,)
    return ()


def walk(stmts):
    """Every statement of a block, depth first, including those inside ``if``, loops and
    an ``ask``'s ``then``."""
    for s in stmts:
        yield s
        for block in branches(s) + ((s.then,) if isinstance(s, Ask) else ()):
            yield from walk(block)


def children(node):
    """The model nodes directly inside ``node`` (also inside its tuples), in field order,
    its span left out."""
    for a in getattr(node, "__attrs_attrs__", ()):
        if a.name == "span":
            continue
        value = getattr(node, a.name)
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(child, "__attrs_attrs__"):
                yield child


def nodes(node):
    """``node`` and every model node inside it, depth first."""
    yield node
    if hasattr(node, "__attrs_attrs__"):
        for a in node.__attrs_attrs__:
            value = getattr(node, a.name)
            children = value if isinstance(value, tuple) else (value,)
            for child in children:
                if hasattr(child, "__attrs_attrs__"):
                    yield from nodes(child)


def rewrite(node, change):
    """``node`` with every model node inside it (depth first, children before parents)
    replaced by ``change(n)``, which returns ``n`` itself to keep it; nodes whose children
    did not change are kept as they are. A list or tuple of nodes gives one of the same type."""
    if isinstance(node, (tuple, list)):
        new = type(node)(rewrite(x, change) for x in node)
        return node if all(a is b for a, b in zip(new, node)) else new
    if not hasattr(node, "__attrs_attrs__"):
        return node
    changed = {}
    for a in node.__attrs_attrs__:
        value = getattr(node, a.name)
        if isinstance(value, tuple) or hasattr(value, "__attrs_attrs__"):
            new = rewrite(value, change)
            if new is not value:
                changed[a.name] = new
    return change(attrs.evolve(node, **changed) if changed else node)


def resolve_reveals(node, counters) -> object:
    """``node`` with each ``reveal``/``show`` of a name in ``counters`` (and not a zone)
    read as :class:`RevealCounter`."""
    def change(n):
        if type(n) is Reveal and type(n.cards) is ZoneRef and n.cards.zone in counters:
            ref = n.cards
            return RevealCounter(ref.zone, ref.seat, ref.yours, n.to, span=n.span)
        return n
    return rewrite(node, change)


def mentions(node, types) -> bool:
    """Whether ``node``, or any model node inside it, is an instance of ``types``."""
    return any(isinstance(n, types) for n in nodes(node))


#: every kind of expression (a value or a condition) the language has
Expr = Union[Num, Bool, Name, ValueOf, CountOf, TotalOf, CardExtreme, CardQuantifier, Roll, ClaimHolds, ClaimIs,
             NoClaim, ClaimedField, Beats, PlayerCount, Extreme, BinOp, Not, SeatName, Neighbour, FirstOf,
             Member, IsOut, IsNobody, CountSeats, SeatQuantifier, MinMax, CondValue, OverSeats, TableValue,
             HasCombination, BestCombination]
#: every kind of statement the language has
Stmt = Union[Require, ChooseCards, ChooseParam, Move, Swap, Draw, Deal, Shuffle, Gather, Reveal, RevealCounter, Assign,
             MakeClaim, ClearClaim, LetGroup, If, ForEach, GoTo, Ask, Do, EndDeal, EndTurn, Log, LetValue,
             RemoveSeat, KnockOut, RollDice, Repeat, ForRange, ForKinds]
