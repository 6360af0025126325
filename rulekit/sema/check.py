"""Whole-model checks: variants applied, names resolved, every problem collected at once.

:func:`build_game` turns the model of a file into a runnable :class:`~rulekit.lang.model.Game`;
:func:`rulekit.sema.load.load` is the one way to it from a ``.rules`` text.
"""

from __future__ import annotations


import attrs
from collections import Counter

from ..lang import model as m
from ..errors import OptionError, Problem, RulesError, Span, suggest

_SINGLETONS = (m.GameDecl, m.PlayersDecl, m.DeckDecl, m.SetupDecl, m.MatchDecl)
_NAMED = (m.DieDecl, m.SymbolsDecl, m.NamesDecl, m.CombinationDecl, m.CombinationsDecl, m.ZoneDecl, m.CounterDecl,
          m.SeatDecl, m.GroupDecl, m.ClaimDecl, m.ProcedureDecl, m.PhaseDecl)


def _key(item):
    if isinstance(item, _SINGLETONS):
        return (type(item).__name__,)
    if isinstance(item, m.PhaseDecl):
        return ("phase", item.name)
    if isinstance(item, m.RemoveAction):
        return ("RemoveAction", item.phase, item.name)
    return (type(item).__name__, item.name)


def _merge_deck(base: m.DeckDecl, over: m.DeckDecl) -> m.DeckDecl:
    cards = {c.name: c for c in base.cards}
    for c in over.cards:
        cards[c.name] = c
    return m.DeckDecl(tuple(cards.values()), span=base.span)


def apply_variants(file: m.RulesFile, names: tuple[str, ...],
                   problems: list | None = None) -> tuple[list, tuple[str, ...]]:
    """The items of the base game with the named variants laid over it, in order.

    A variant replaces the items it declares again (a card of the deck, a zone, a claim, the
    setup…), adds new ones and takes away the actions and cards it removes (``remove
    action A from P``, ``remove card C``); ``extends`` applies other variants first. Each
    variant is applied once, where it first comes (a variant two others extend is not laid
    again over the first one's changes): the work is linear in the variants. ``problems``:
    a removal of what is not there is added to it as a :class:`Problem`.

    Raises:
        OptionError: an unknown variant name (the message lists the known ones).
    """
    variants, _, _, base = _variants_of(file)
    items = dict(base)
    applied: list[str] = []
    laid_already: set[str] = set()
    for name in names:
        for laid in _laying_order(variants, name):
            if laid in laid_already:
                continue            # reached again (through another 'extends'): applied once
            laid_already.add(laid)
            for item in variants[laid].items:
                if isinstance(item, (m.RemoveAction, m.RemoveCard)):
                    _remove(items, item, problems if problems is not None else [])
                    continue
                key = _key(item)
                if isinstance(item, m.DeckDecl) and key in items:
                    items[key] = _merge_deck(items[key], item)
                else:
                    items[key] = item
            applied.append(laid)
    return list(items.values()), tuple(applied)


def _remove(items: dict, item, problems: list) -> None:
    """Apply ``remove action A from P`` or ``remove card C`` to ``items`` (by key), or add
    the problem of a phase, action or card that is not there."""
    if isinstance(item, m.RemoveAction):
        phases = {key[1]: i for key, i in items.items() if key[0] == "phase"}
        phase = phases.get(item.phase)
        if phase is None:
            problems.append(Problem(f"there is no phase '{item.phase}' to remove action '{item.name}' from", item.span,
                                    suggest(item.phase, phases) or "name a phase the game (with its variants) has"))
            return
        kept = tuple(a for a in phase.actions if a.name != item.name)
        if len(kept) == len(phase.actions):
            problems.append(Problem(f"phase '{item.phase}' has no action '{item.name}'", item.span,
                                    suggest(item.name, [a.name for a in phase.actions])
                                    or f"its actions: {', '.join(a.name for a in phase.actions) or 'none'}"))
            return
        items[("phase", item.phase)] = attrs.evolve(phase, actions=kept)
        return
    deck = items.get(("DeckDecl",))
    cards = deck.cards if deck is not None else ()
    kept = tuple(c for c in cards if c.name != item.name)
    if len(kept) == len(cards):
        problems.append(Problem(f"the deck has no card '{item.name}' to remove", item.span,
                                suggest(item.name, [c.name for c in cards]) or "name a card of the deck"))
        return
    items[("DeckDecl",)] = attrs.evolve(deck, cards=kept)


def _laying_order(variants: dict, name: str) -> list[str]:
    """The variants ``name`` applies, in order: for each variant, those it ``extends``
    (in their order, each with its own first), then itself; a variant reached twice comes
    the first time only. Iterative (a chain of thousands of variants is no recursion) and
    linear in the variants and ``extends`` reached.

    Raises:
        OptionError: an unknown variant, or one that extends itself.
    """
    order: list[str] = []
    done: set[str] = set()
    on_path: set[str] = set()
    stack = [(name, 0)]                     # (variant, how many of its bases are laid)
    while stack:
        current, next_base = stack.pop()
        if next_base == 0:
            if current not in variants:
                known = ", ".join(sorted(variants)) or "none"
                raise OptionError(f"unknown variant '{current}' (this game has: {known})")
            if current in done:
                continue
            if current in on_path:
                raise OptionError(f"variant '{current}' extends itself")
            on_path.add(current)
        bases = variants[current].extends
        if next_base < len(bases):
            stack.append((current, next_base + 1))
            stack.append((bases[next_base], 0))
            continue
        on_path.discard(current)
        done.add(current)
        order.append(current)
    return order


MAX_PLAYERS = 64
"""The most seats a game may declare."""
MAX_KINDS = 1_000
"""The most kinds of cards (and faces of dice) a game may have."""
MAX_CARDS = 10_000
"""The most cards and dice a game may have, at its largest player count."""
MAX_SIDES = 1_000
"""The most sides a die may have."""


def _expand_cards(deck: m.DeckDecl, problems: list[Problem], value_names: dict | None = None,
                  symbols: dict | None = None) -> tuple:
    kinds = []
    seen: set[str] = set()
    for card in deck.cards:
        if card.name in seen:
            problems.append(Problem(f"card '{card.name}' is declared twice", card.span))
        seen.add(card.name)
        count = None
        ranges = [p for p in card.props if p.kind == "range"]
        over = [p for p in card.props if p.kind == "symbols"]
        for p in over:
            if p.name not in (symbols or {}):
                problems.append(Problem(f"unknown symbol set '{p.name}'", p.span,
                                        suggest(p.name, symbols or {}) or f"declare it: symbols {p.name}: A < B < C"))
        if len(ranges) > 1 or len(over) > 1:
            problems.append(Problem("a card may generate over one range and one symbol set only", card.span))
        fixed: dict[str, int] = {}
        aliases = []
        flags = set()
        start = None
        for p in card.props:
            if p.kind in ("count", "each"):
                if count is not None:
                    problems.append(Problem("the count is given twice", p.span))
                count = p.value
                start = p.name if p.kind == "each" else None
            elif p.kind == "value":
                fixed[p.name] = p.value
            elif p.kind == "alias":
                aliases.append(p)
            elif p.kind == "flag":
                flags.add(p.name)
        if count is None:
            count = 1
        elif count < 1:
            problems.append(Problem(f"card '{card.name}' has count {count}; it must be at least 1", card.span))
        elif count > MAX_CARDS:
            problems.append(Problem(f"card '{card.name}' has count {count}; a game may have at most {MAX_CARDS:,} "
                                    "cards", card.span))
            count = 1
        if ranges:
            r = ranges[0]
            if r.high < r.value:
                problems.append(Problem(f"the range {r.value}..{r.high} is empty", r.span))
            if r.high - r.value >= MAX_KINDS:
                problems.append(Problem(f"the range {r.value}..{r.high} makes {r.high - r.value + 1} kinds of card; "
                                        f"a game may have at most {MAX_KINDS:,}", r.span))
                continue
        syms = symbols[over[0].name] if over and over[0].name in (symbols or {}) else (None,)
        for sym in syms:
            kinds += _generated(card, ranges[0] if ranges else None, sym, (fixed, aliases, flags, count, start),
                                value_names or {}, problems)
    return tuple(kinds)


def _generated(card: m.CardDecl, r: m.CardProp | None, sym: str | None, props: tuple, value_names: dict,
               problems: list) -> list:
    """The kinds of one card with one symbol (``sym``, or None): one per value of the range
    ``r`` (or one, without a range), labelled by the card's label, the value and the symbol
    ("each SYMBOLS": one kind per symbol; "ATTR 1..3, each SYMBOLS" with symbols A < B: "1 A", "2 A",
    "3 A", "1 B", … each showing its symbol once)."""
    fixed, aliases, flags, count, start = props
    out = []
    for v in range(r.value, r.high + 1) if r is not None else (None,):
        attrs_ = dict(fixed)
        if r is not None:
            attrs_[r.name] = v
        if sym is not None:
            attrs_[sym] = 1               # the kind shows that symbol once
        for a in aliases:
            if a.other not in attrs_:
                problems.append(Problem(f"'{a.other}' is not an attribute of card '{card.name}'", a.span,
                                        suggest(a.other, attrs_)))
            else:
                attrs_[a.name] = attrs_[a.other]
        shown = None if v is None else value_names.get(r.name, {}).get(v, str(v))
        words = [w for w in (card.label, shown, sym) if w is not None]
        label = " ".join(words) if shown is not None or sym is not None else card.label or card.name
        out.append(m.Kind(card.name, label, tuple(attrs_.items()), frozenset(flags), count, start=start))
    return out


def _dice_kinds(dice: tuple, problems: list[Problem]) -> tuple:
    """One kind per face of each die declared with pieces (``N in ZONE``): a roll turns a
    die into the kind of its new face, so dice lie in zones and are counted like cards."""
    kinds = []
    for d in dice:
        if d.sides < 1:
            problems.append(Problem(f"die '{d.name}' has {d.sides} sides; it needs at least 1", d.span))
            continue
        if d.sides > MAX_SIDES:
            problems.append(Problem(f"die '{d.name}' has {d.sides} sides; a die may have at most {MAX_SIDES:,}",
                                    d.span))
            continue
        names = dict(d.names)
        for face in list(d.wild) + list(names):
            if not 1 <= face <= d.sides:
                problems.append(Problem(f"die '{d.name}' has no face {face} (its faces are 1..{d.sides})", d.span))
        if not d.count:
            continue
        for face in range(1, d.sides + 1):
            flags = frozenset({"wild"}) if face in d.wild else frozenset()
            kinds.append(m.Kind(d.name, names.get(face, str(face)), (("face", face),), flags, 0, die=d.name))
    return tuple(kinds)


def _duplicates(items: list, problems: list[Problem]) -> None:
    """A declaration repeated in one scope (the base game, or one variant) is a mistake."""
    seen: dict = {}
    for item in items:
        if isinstance(item, m.VariantDecl):
            continue
        key = _key(item)
        if key in seen:
            what = f"'{item.name}'" if hasattr(item, "name") else "this section"
            problems.append(Problem(f"{what} is declared twice (first on line {seen[key].span.line})", item.span,
                                    "a variant can replace a declaration; in one scope, declare it once"))
        else:
            seen[key] = item


def _circles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The circles of ``extends``: each set of variants that extend one another, round
    (the strongly connected components of more than one variant, or of one that extends
    itself), found by Tarjan's algorithm without recursion, in time linear in the
    variants and their ``extends``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in edges:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    circles.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return circles


#: [(the file last read by :func:`_variants_of`, what it found)]: ``check`` builds the
#: game once per variant of one file, and looks at its variants once
_LAST_FILE: list = [None]


def _variants_of(file: m.RulesFile) -> tuple[dict, tuple, tuple, dict]:
    """The variants of ``file`` by name, their (name, label) pairs in file order, the
    problems :func:`_check_variants` finds, and the items of the base game by key: found
    once per file object, so that building the game for each of N variants costs N, not
    N²."""
    last = _LAST_FILE[0]                    # read once: another thread may replace it
    if last is not None and last[0] is file:
        return last[1]
    problems: list = []
    _check_variants(file, problems)
    declared = [i for i in file.items if isinstance(i, m.VariantDecl)]
    base = {_key(i): i for i in file.items if not isinstance(i, m.VariantDecl)}
    facts = ({v.name: v for v in declared}, tuple((v.name, v.label) for v in declared), tuple(problems), base)
    _LAST_FILE[0] = (file, facts)
    return facts


def _check_variants(file: m.RulesFile, problems: list) -> None:
    """Variants that extend an unknown variant or themselves, declarations made twice in one
    scope, variants declared inside variants."""
    declared = {v.name for v in file.items if isinstance(v, m.VariantDecl)}
    for v in file.items:
        if isinstance(v, m.VariantDecl):
            for base in v.extends:
                if base not in declared:
                    problems.append(Problem(f"variant '{v.name}' extends unknown variant '{base}'", v.span,
                                            suggest(base, declared) or "declare that variant, or remove it from 'extends'"))
    by_name = {v.name: v for v in file.items if isinstance(v, m.VariantDecl)}
    for circle in _circles({name: [b for b in v.extends if b in by_name] for name, v in by_name.items()}):
        for name in circle:
            others = ", ".join(sorted(n for n in circle if n != name)) or "itself"
            problems.append(Problem(f"variant '{name}' extends itself (through {others})", by_name[name].span,
                                    "a variant may build on others, never on itself"))
    _duplicates([i for i in file.items if not isinstance(i, m.VariantDecl)], problems)
    for v in file.items:
        if isinstance(v, m.VariantDecl):
            _duplicates(list(v.items), problems)
            for inner in v.items:
                if isinstance(inner, m.VariantDecl):
                    problems.append(Problem(f"variant '{inner.name}' is declared inside variant '{v.name}'",
                                            inner.span, "declare variants at the top level; use 'extends' to build on one"))


class _Declarations:
    """The declarations a game has once each (its title, players, setup, match; deck and dice
    as found), a problem recorded for each that is missing or out of range."""

    def __init__(self, items: tuple, problems: list):
        self.items = items
        self.problems = problems
        self.game = self.one(m.GameDecl, "game title", 'game "My game"')
        players = self.one(m.PlayersDecl, "player range", "players 2..6")
        self.deck = next((i for i in items if isinstance(i, m.DeckDecl)), None)
        self.dice = tuple(i for i in items if isinstance(i, m.DieDecl))
        if self.deck is None and not any(d.count for d in self.dice):
            self.one(m.DeckDecl, "deck", "deck { card coin: count 10 }")
        self.setup = self.one(m.SetupDecl, "setup", "setup { … go to turn }")
        self.match = next((i for i in items if isinstance(i, m.MatchDecl)), None) or m.MatchDecl(None, (), ())
        if players and not (1 <= players.low <= players.high):
            problems.append(Problem(f"the player range {players.low}..{players.high} is empty", players.span))
        elif players and players.high > MAX_PLAYERS:
            problems.append(Problem(f"{players.high} players: a game may have at most {MAX_PLAYERS}", players.span))
            players = attrs.evolve(players, low=min(players.low, MAX_PLAYERS), high=MAX_PLAYERS)
        self.players = players

    def one(self, cls, what: str, example: str):
        """The first declaration of ``cls``, or None (a problem: the file declares none)."""
        found = [i for i in self.items if isinstance(i, cls)]
        if not found:
            self.problems.append(Problem(f"the file declares no {what}", Span(1, 1), f"add one, e.g. {example}"))
            return None
        return found[0]

    def named(self, cls) -> tuple:
        """Every declaration of ``cls``, in file order."""
        return tuple(i for i in self.items if isinstance(i, cls))


def _check_pieces(items: tuple, deck, dice: tuple, players, problems: list) -> tuple:
    """(the kinds of cards and faces, the zones): the pieces within their limits, one zone
    holding the deck, the zones cards are dealt to ('each')."""
    value_names = {d.name: dict(d.pairs) for d in items if isinstance(d, m.NamesDecl)}
    symbol_sets = {d.name: d.symbols for d in items if isinstance(d, m.SymbolsDecl)}
    kinds = (_expand_cards(deck, problems, value_names, symbol_sets) if deck else ()) + _dice_kinds(dice, problems)
    most = players.high if players else 1
    total = sum(k.count * (most if k.start else 1) for k in kinds) + sum(
        d.count * (most if d.each else 1) for d in dice if d.count and 1 <= d.sides <= MAX_SIDES)
    where = deck.span if deck is not None else dice[0].span if dice else Span(1, 1)
    if len(kinds) > MAX_KINDS:
        problems.append(Problem(f"the game has {len(kinds)} kinds of cards and faces; at most {MAX_KINDS:,} are allowed",
                                where))
    elif total > MAX_CARDS:
        problems.append(Problem(f"the game has {total:,} cards and dice with {most} players; at most {MAX_CARDS:,} "
                                "are allowed", where))
    zones = tuple(i for i in items if isinstance(i, m.ZoneDecl))
    holders = [z for z in zones if z.holds_deck]
    if not zones:
        problems.append(Problem("the file declares no zone", Span(1, 1),
                                "declare where the cards are, e.g. zone stock: shared, count only, holds the deck"))
    elif len(holders) > 1 or (any(k.start is None and k.die is None for k in kinds) and len(holders) != 1):
        span = holders[1].span if len(holders) > 1 else zones[0].span
        problems.append(Problem("exactly one zone must hold the deck at the start", span,
                                "add 'holds the deck' to the zone where the cards start, e.g. the stock"))
    per_player = {z.name for z in zones if z.per_player}
    shared = {z.name for z in zones if not z.per_player}
    for z in zones:
        if z.seen == "others" and not z.per_player:
            problems.append(Problem(f"'seen by others' needs a zone of each player: '{z.name}' is shared", z.span,
                                    "everyone but its owner sees a zone of each player (a card held to the "
                                    "forehead): write 'zone NAME: per player, seen by others'"))
        if z.refill_from is not None and z.refill_from not in shared:
            what = "a zone of each player" if z.refill_from in per_player else "no zone"
            problems.append(Problem(f"'{z.name}' is refilled from '{z.refill_from}', which is {what}", z.span,
                                    suggest(z.refill_from, shared) or "a zone is refilled from a shared zone"))
    for card in deck.cards if deck else ():
        for p in card.props:
            if p.kind == "each" and p.name not in per_player:
                problems.append(Problem(f"'{p.name}' is not a zone of each player", p.span,
                                        suggest(p.name, per_player) or "declare it: zone NAME: per player, …"))
    return kinds, zones


def _check_names(items: tuple, setup, match, problems: list) -> None:
    """One namespace for what a bare name can mean, no built-in seat redeclared, no 'your'
    where no seat acts, claims, procedures and phases declared once."""
    owners: dict[str, m.Span] = {}
    for item in items:
        if isinstance(item, (m.ZoneDecl, m.CounterDecl, m.SeatDecl, m.GroupDecl, m.DieDecl, m.SymbolsDecl,
                             m.TableDecl, m.CombinationDecl, m.CombinationsDecl)):
            if item.name in owners:
                problems.append(Problem(f"the name '{item.name}' is declared twice", item.span))
            owners[item.name] = item.span
        if isinstance(item, (m.CounterDecl, m.SeatDecl)) and item.name in ("current", "actor", "claimant"):
            problems.append(Problem(f"'{item.name}' is a built-in seat; choose another name", item.span))
    # 'your' is the seat that acts: the setup and 'between deals' run with no seat acting
    for label, block in (("the setup", setup.body if setup else ()), ("'between deals'", match.between)):
        for stmt in block:
            for node in m.nodes(stmt):
                if isinstance(node, m.ZoneRef) and node.yours:
                    problems.append(Problem(f"'your {node.zone}' in {label}: no seat is acting there", node.span,
                                            f"name the seat: '{node.zone} of P1', or 'for each p in everyone "
                                            f"{{ … {node.zone} of p … }}'"))
    for cls in (m.ClaimDecl, m.ProcedureDecl, m.PhaseDecl):
        found = tuple(i for i in items if isinstance(i, cls))
        counts = Counter(i.name for i in found)
        for i in found:
            if counts[i.name] > 1:
                problems.append(Problem(f"'{i.name}' is declared twice", i.span))
                counts[i.name] = 0


def build_game(file: m.RulesFile, variants: tuple[str, ...] = ()) -> m.Game:
    """Apply variants, check every declaration and compile the game.

    Raises:
        RulesError: every problem found, each located in the file.
        OptionError: an unknown variant.
    """
    from ..engine.compile import compile_game
    from ..errors import CompileError

    problems: list[Problem] = list(_variants_of(file)[2])
    if problems:
        raise RulesError(file.path, file.source, problems)
    items, applied = apply_variants(file, tuple(variants), problems)
    counters = {i.name for i in items if isinstance(i, m.CounterDecl)} - {i.name for i in items if isinstance(i, m.ZoneDecl)}
    if counters:
        items = m.resolve_reveals(items, counters)       # 'reveal bribe of p': a counter, not a zone
    decls = _Declarations(items, problems)
    game, players, setup, match = decls.game, decls.players, decls.setup, decls.match
    kinds, zones = _check_pieces(items, decls.deck, decls.dice, players, problems)
    _check_names(items, setup, match, problems)
    named = decls.named
    result = m.Game(
        title=game.title if game else "",
        players=(players.low, players.high) if players else (1, 1),
        kinds=kinds,
        dice=named(m.DieDecl),
        symbols=named(m.SymbolsDecl),
        names=named(m.NamesDecl),
        tables=named(m.TableDecl),
        combinations=named(m.CombinationDecl),
        combination_kinds=named(m.CombinationsDecl),
        zones=zones,
        counters=named(m.CounterDecl),
        seats=named(m.SeatDecl),
        groups=named(m.GroupDecl),
        claims=named(m.ClaimDecl),
        setup=setup.body if setup else (),
        procedures=named(m.ProcedureDecl),
        phases=named(m.PhaseDecl),
        match=match,
        variants=_variants_of(file)[1],
        applied=applied,
        setup_span=setup.span if setup else Span(1, 1),
        path=file.path,
        source=file.source,
    )
    if not problems:
        try:
            compile_game(result)
        except CompileError as exc:
            problems.extend(exc.problems)
    if problems:
        raise RulesError(file.path, file.source, problems)
    return result

