"""Play-by-play: one readable line for each event worth telling."""

from __future__ import annotations


def seat_name(seat: int) -> str:
    """How a seat is named to people: P1, P2, … (seat 0 is P1); -1 (a seat chosen ``or
    nobody`` that found none) is "nobody"."""
    return f"P{seat + 1}" if seat >= 0 else "nobody"


_VULGAR = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖",
           (3, 5): "⅗", (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝",
           (7, 8): "⅞"}


def number_text(value, sign: bool = False) -> str:
    """A result as people read it: a whole number, or a fraction of one (``Fraction(3, 2)``:
    "1½", ``Fraction(-7, 3)``: "-2⅓", ``Fraction(8, 7)``: "1 1/7"); ``sign``: with a
    leading "+" when positive."""
    if getattr(value, "denominator", 1) == 1:
        text = str(int(value))
    else:
        whole, rest = divmod(abs(value.numerator), value.denominator)
        part = _VULGAR.get((rest, value.denominator), f"{' ' if whole else ''}{rest}/{value.denominator}")
        text = ("-" if value < 0 else "") + (str(whole) if whole else "") + part
    return f"+{text}" if sign and value > 0 else text


def cards_text(engine, cards) -> str:
    """Cards by label, separated by commas; a label that lists several symbols ('B1×2 B2 B3',
    one card) in brackets, so that it reads as one card."""
    return ", ".join(_one_card(engine.kind_label(k)) for k in cards) if cards else "nothing"


def _one_card(label: str) -> str:
    return f"[{label}]" if " " in label and "×" in label else label


def pieces_text(engine, cards) -> str:
    """How many pieces ``cards`` (kinds, None for one the reader may not see) are, named as
    they are: "3 cards", "1 die", "2 cards and 1 die" (a die's faces are kinds of piece
    too); an unseen piece is a card, or in a game with dice "a piece"."""
    kinds = engine.kinds
    unseen = sum(1 for k in cards if k is None)        # redacted for a seat that may not see them
    dice = sum(1 for k in cards if k is not None and kinds[k].die is not None)
    held = len(cards) - dice
    if unseen and engine.cg.has_dice:
        held -= unseen                  # a hidden piece of a game with dice: a card or a die
    parts = []
    if held or not (dice or unseen):
        parts.append(f"{held} {'card' if held == 1 else 'cards'}")
    if dice:
        parts.append(f"{dice} {'die' if dice == 1 else 'dice'}")
    if unseen and engine.cg.has_dice:
        parts.append(f"{unseen} {'piece' if unseen == 1 else 'pieces'}")
    return " and ".join(parts)


def describe(engine, event, n: int) -> str | None:
    """A line for ``event``, or None when it is not worth telling (declines, plain moves)."""
    d = event.data
    kind = event.kind
    cg = engine.cg
    if kind == "action":
        return f"{seat_name(d['seat'])} {d['text']}"
    if kind == "claim":
        return None
    if kind == "reveal":
        return f"  revealed: {_grouped(engine, d, n)}"
    if kind in ("counter", "show_counter"):
        whose = "" if d["seat"] < 0 else f"{seat_name(d['seat'])}'s "
        told = f"{whose}{d['counter'].replace('_', ' ')}: {number_text(d['value'])}"
        return f"  {told}" if kind == "counter" else f"  (shown to {seat_name(event.seat)}: {told})"
    if kind == "show":
        return f"  (shown to {seat_name(event.seat)}: {_grouped(engine, d, n)})"
    if kind == "roll":
        return f"  rolls the {d['die']} die: {d['value']}"
    if kind == "move" and d["cards"] and d.get("from"):
        # cards that move face up into an open zone, or out of one, are seen by everyone
        # at the table: which cards, from where to where
        opened = cg.zones[cg.zone_owner(d["to"], n)[0]].seen == "all"
        left = all(cg.zones[cg.zone_owner(s, n)[0]].seen == "all" for s in d["from"])
        if opened == left or None in d["cards"]:
            return None
        where = ", ".join(_instance_text(cg, s, n) for s in d["from"])
        return f"  {'face up' if opened else 'taken'} from {where} to {_instance_text(cg, d['to'], n)}: " \
               f"{cards_text(engine, d['cards'])}"
    if kind == "deal" and cg.zones[d["zone"]].seen in ("all", "others"):
        # cards dealt face up, or to be seen by all but their owner (held to the forehead)
        how = "face up" if cg.zones[d["zone"]].seen == "all" else "for the others to see"
        held = [f"{seat_name(cg.zone_owner(slot, n)[1])} "
                + (cards_text(engine, cards) if None not in cards else pieces_text(engine, cards))
                for slot, cards in d.get("dealt", ())]
        return f"  dealt {how}: {'; '.join(held)}" if held else None
    if kind == "roll_dice":
        zi, owner = cg.zone_owner(d["zone"], n)
        who = f"{seat_name(owner)} rolls" if owner >= 0 else "rolled:"
        if cg.zones[zi].seen == "all":
            return f"  {who} {cards_text(engine, d['cards'])}"
        return f"  {who} {len(d['cards'])} {'die' if len(d['cards']) == 1 else 'dice'}"
    if kind == "out":
        return f"  {seat_name(d['seat'])} is out of the match"
    if kind == "voted":
        return f"{seat_name(d['seat'])} has voted"
    if kind == "draw":
        if d["wanted"] <= 0:
            return None
        zi, owner = cg.zone_owner(d["to"], n)
        who = f"{seat_name(owner)} " if owner >= 0 else ""
        got = len(d["cards"])
        if not got:
            source = cg.zones[cg.zone_owner(d["from"], n)[0]].name
            return f"  the {source} is empty: {who}draws nothing"
        lost = f" (only {got} left to draw)" if got < d["wanted"] else ""
        return f"  {who}draws {pieces_text(engine, d['cards'])}{lost}"
    if kind == "refill":
        zname = cg.zones[cg.zone_owner(d["zone"], n)[0]].name
        fname = cg.zones[cg.zone_owner(d["from"], n)[0]].name
        return f"  the {zname} is empty: {d['count']} card(s) of the {fname} are shuffled into it"
    if kind == "log":
        return f"  {d['text']}"
    if kind == "votes":
        cast = [(s, _vote_label(engine, d.get("phase"), v)) for s, v in enumerate(d["votes"]) if v is not None]
        if d.get("anonymous") and len(cast) < len(d["votes"]):      # a seat's own vote alone, or none
            return "  votes cast" + (f" (yours: {cast[0][1]})" if len(cast) == 1 else "") \
                + "; the others are never revealed"
        return "  votes: " + ", ".join(f"{seat_name(s)}: {label}" for s, label in cast)
    if kind == "deal_start":
        return f"— deal {d['deal']} —"
    if kind == "match_end":
        return "the match is over; winner(s): " + ", ".join(seat_name(s) for s in d["winners"])
    return None


def _instance_text(cg, slot: int, n: int) -> str:
    """A zone instance as the play-by-play names it: "P2's cup", "the table"."""
    zi, owner = cg.zone_owner(slot, n)
    name = cg.zones[zi].name.replace("_", " ")
    return f"{seat_name(owner)}'s {name}" if owner >= 0 else f"the {name}"


def _vote_label(engine, phase: str | None, name: str) -> str:
    """A vote as its action's label reads (the action's name when the label has holes)."""
    for p in engine.game.phases:
        if p.name == phase:
            for a in p.actions:
                if a.name == name and a.label is not None and all(isinstance(x, str) for x in a.label.parts):
                    return a.label.plain
    return name


def _grouped(engine, data, n: int) -> str:
    """Revealed cards, with the owner of each zone they lie in when it has one."""
    groups = data.get("groups") or ((None, data["cards"]),)
    parts = []
    for slot, cards in groups:
        owner = -1 if slot is None else engine.cg.zone_owner(slot, n)[1]
        prefix = f"{seat_name(owner)}: " if owner >= 0 and len(groups) > 1 else ""
        parts.append(prefix + cards_text(engine, cards))
    return "; ".join(parts)


__all__ = ["describe", "seat_name", "cards_text", "pieces_text"]
