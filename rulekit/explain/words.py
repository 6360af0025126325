"""Small helpers of the rulebook's wording, shared by its modules: names as words, plurals,
articles, lists, quotes, sentences, and the lines (with their depth) that blocks of rules
become."""

from __future__ import annotations

import re


def words(name: str) -> str:
    """A name as words: ``add_or_bid`` → ``add or bid``."""
    text = name.replace("_", " ").strip()
    return re.sub(r"\s+", " ", text) or name


def _plural(noun: str) -> str:
    """A naive English plural: card → cards, box → boxes, cards → cards."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun if noun.endswith("s") else noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _looks_plural(noun: str) -> bool:
    last = noun.split()[-1] if noun.split() else noun
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _count(k: int, noun: str, plural: str | None = None) -> str:
    return f"{k} {noun if k == 1 else plural or _plural(noun)}"


def _join(items, last: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _quote(text: str) -> str:
    return f"“{text}”"


def _strip_the(text: str) -> str:
    return text[4:] if text.startswith("the ") else text



class _Line:
    """One line of a block: its depth below the block, its text, and whether it goes on the
    step above it (an "Otherwise:") rather than starting a step of its own."""

    __slots__ = ("depth", "text", "goes_on")

    def __init__(self, depth: int, text: str, goes_on: bool = False):
        self.depth = depth
        self.text = text
        self.goes_on = goes_on


def _nest(lines, by: int = 1) -> list:
    return [_Line(line.depth + by, line.text, line.goes_on) for line in lines]


def _sentence(text: str, keep: frozenset = frozenset()) -> str:
    """``text`` with a capital letter (unless it starts with a name that must stay as it is)
    and a full stop (unless it ends with ':' or another stop)."""
    text = text.strip()
    if not text:
        return text
    first = re.match(r"[\w']+", text)
    if text[0].islower() and not (first and (first.group(0) in keep or first.group(0).split("'")[0] in keep)):
        text = text[0].upper() + text[1:]
    if not text.endswith((".", ":", "!", "?", "”.", "”")):
        text += "."
    elif text.endswith("”") and not text.endswith((".”", "!”", "?”")):
        text += "."
    return text

