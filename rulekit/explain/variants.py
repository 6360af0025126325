"""What a game with variants applied changes from its base game, in words: the section
"Variant … changes" of the rulebook, written by comparing the rulebooks of both games."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lang import model as m
from .words import _count, _quote, words

if TYPE_CHECKING:
    from .rulebook import _Rulebook


def _changed(name: str, new: list[str], old: list[str]) -> str:
    """``name: what is new (instead of: what was)`` from two lists of parts."""
    added = [p for p in new if p and p not in old]
    removed = [p for p in old if p and p not in new]
    if added and removed:
        return f"{name}: {'; '.join(added)} (instead of: {'; '.join(removed)})."
    if added:
        return f"{name}: now also {'; '.join(added)}."
    if removed:
        return f"{name}: no longer {'; '.join(removed)}."
    return f"{name}: changed."


class _Differences:
    """What a game with variants applied changes from its base game, in words."""

    def __init__(self, base: m.Game, new: _Rulebook, old: _Rulebook):
        self.base = base
        self.game = new.game
        self.new = new
        self.old = old

    def lines(self) -> list[str]:
        out: list[str] = []
        g, b = self.game, self.base
        if g.title != b.title:
            out.append(f"- The game is called {_quote(g.title)} (instead of {_quote(b.title)}).")
        if g.players != b.players:
            out.append(f"- It is for {self._players(g.players)} (instead of {self._players(b.players)}).")
        out += self._cards()
        out += self._named("die", g.dice, b.dice, lambda r, d: r.die_parts(d))
        out += self._named("symbol set", g.symbols, b.symbols, lambda r, sym: (words(sym.name), [(" < " if sym.ordered else ", ").join(sym.symbols)]))
        out += self._named("name of values", g.names, b.names,
                           lambda r, n: (words(n.name), [", ".join(f"{v} is called {_quote(t)}" for v, t in n.pairs)]))
        out += self._named("table", g.tables, b.tables, lambda r, t: r.table_parts(t))
        out += self._named("combination", g.combinations, b.combinations, lambda r, c: r.combination_parts(c))
        out += self._named("order of combinations", g.combination_kinds, b.combination_kinds,
                           lambda r, k: r.combination_order_parts(k))
        out += self._named("zone", g.zones, b.zones, lambda r, z: r.zone_parts(z))
        out += self._named("counter", g.counters, b.counters, lambda r, c: r.counter_parts(c))
        out += self._named("named player", g.seats, b.seats, lambda r, s: r.seat_parts(s))
        out += self._named("group", g.groups, b.groups, lambda r, gr: (words(gr.name), ["a group of players"]))
        out += self._claims()
        if g.setup != b.setup:
            out.append("- The setup becomes:")
            out += self.new.bulleted(self.new.steps.block(g.setup), "  ")
        out += self._procedures()
        out += self._phases()
        if g.match != b.match:
            old = self.old.match_lines()
            changed = [line for line in self.new.match_lines() if line not in old]
            out.append("- At the end of the deal and of the match:")
            out += ["  " + line for line in changed] or ["  - (the same, written otherwise)"]
        return out

    @staticmethod
    def _players(pair) -> str:
        low, high = pair
        return _count(low, "player") if low == high else f"{low} to {high} players"

    def _cards(self) -> list[str]:
        new, old = self.new.card_groups(self.game), self.old.card_groups(self.base)
        out = []
        for card, kinds in new.items():
            if card not in old:
                out.append(f"- New cards: {self.new.line(*self.new.card_parts(card, kinds))}")
            elif kinds != old[card]:
                name, parts = self.new.card_parts(card, kinds)
                out.append("- " + _changed(name, parts, self.old.card_parts(card, old[card])[1]))
        for card, kinds in old.items():
            if card not in new:
                out.append(f"- No more {self.old.line(*self.old.card_parts(card, kinds))}")
        if self.game.deck_size != self.base.deck_size:
            out.append(f"- The deck has {_count(self.game.deck_size, 'card')} (instead of {self.base.deck_size}).")
        return out

    def _named(self, what: str, new_items, old_items, parts) -> list[str]:
        old = {i.name: i for i in old_items}
        new = {i.name: i for i in new_items}
        out = []
        for name, item in new.items():
            if name not in old:
                out.append(f"- A new {what}: {self.new.line(*parts(self.new, item))}")
            elif item != old[name]:
                label, now = parts(self.new, item)
                out.append(f"- The {what} " + _changed(label, now, parts(self.old, old[name])[1]))
        for name in old:
            if name not in new:
                out.append(f"- No more {what} {words(name)}.")
        return out

    def _claims(self) -> list[str]:
        old = {c.name: c for c in self.base.claims}
        out = []
        for c in self.game.claims:
            before = old.get(c.name)
            label = self.new.say.template(c.label) if c.label else _quote(words(c.name))
            if before is None:
                out.append(f"- A new claim, {words(c.name)} {label}:")
                out += [f"  - {line}" for line in self.new.claim_parts(c)]
                continue
            if c == before:
                continue
            if c.truth != before.truth:
                out.append(f"- The claim {words(c.name)} {label} is true when {self.new.say.x(c.truth)} (instead of: "
                           f"when {self.old.say.x(before.truth)}).")
            if (c.ordering, c.table, c.higher) != (before.ordering, before.table, before.higher):
                out.append(f"- Claims {words(c.name)}: {self.new.claim_order(c) or 'they are no longer ordered.'}")
            if c.label != before.label or c.params != before.params:
                out.append(f"- The claim {words(c.name)} is now announced as {label}.")
        names = {c.name for c in self.game.claims}
        out += [f"- No more claim {words(name)}." for name in old if name not in names]
        return out

    def _procedures(self) -> list[str]:
        old = {p.name: p for p in self.base.procedures}
        out = []
        for p in self.game.procedures:
            before = old.get(p.name)
            if before is not None and before == p:
                continue
            if before is None:
                out.append(f"- New steps {_quote(words(p.name))}:")
            else:
                out.append(f"- The steps {_quote(words(p.name))} become:")
            out += self.new.bulleted(self.new.steps.block(p.body), "  ")
        names = {p.name for p in self.game.procedures}
        out += [f"- No more steps {_quote(words(name))}." for name in old if name not in names]
        return out

    def _phases(self) -> list[str]:
        old = {p.name: p for p in self.base.phases}
        out = []
        for phase in self.game.phases:
            before = old.get(phase.name)
            ref = self.new.say.phase_ref(phase.name)
            if before is None:
                out.append(f"- A new {self.new.say.phase_kind(phase)} {_quote(words(phase.name))}: see below.")
                continue
            if before == phase:
                continue
            if (before.kind, before.seats) != (phase.kind, phase.seats):
                out.append(f"- {ref[0].upper()}{ref[1:]}: {self.new.phase_intro(phase)[:-1]}.")
            olds = {a.name: a for a in before.actions}
            for a in phase.actions:
                was = olds.get(a.name)
                if was == a:
                    continue
                label = self.new.say.action_label(a)
                if was is None:
                    out.append(f"- In {ref}, a new action {label}:")
                else:
                    old_label = self.old.say.action_label(was)
                    renamed = f" (instead of {old_label})" if label != old_label else ""
                    out.append(f"- In {ref}, the action {label}{renamed} becomes:")
                if a.forced is not None:
                    out.append(f"  - While {self.new.say.x(a.forced)}, this is the only action allowed.")
                out += self.new.bulleted(self.new.action_block(a), "  ")
            names = {a.name for a in phase.actions}
            out += [f"- In {ref}, no more action {self.old.say.action_label(a)}."
                    for n, a in olds.items() if n not in names]
            if before.after != phase.after:
                if phase.after is None:
                    out.append(f"- In {ref}, nothing more happens afterwards.")
                else:
                    out.append(f"- In {ref}, {self.new.after_intro(phase)[0].lower()}{self.new.after_intro(phase)[1:]}")
                    out += self.new.bulleted(self.new.steps.block(phase.after), "  ")
            if before.rotation != phase.rotation:
                out.append(f"- In {ref}: " + (self.new.rotation_text(phase) if phase.rotation else
                                             "the turn no longer passes on by itself."))
        names = {p.name for p in self.game.phases}
        out += [f"- No more {self.old.say.phase_ref(name)}." for name in old if name not in names]
        return out
