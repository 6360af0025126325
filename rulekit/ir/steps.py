"""The steps that open an action: its requires and choices, in order, before its effects.

An action's legality is these steps judged in order (the first that fails says why); its
listing is a loop per choice with each require placed where what it reads is bound; its
option is the values each choice may take. The compiler makes them once per action
(``Compiler.action``), with names resolved and kinds checked; the generator reads them.
"""

from __future__ import annotations

import attrs

from ..lang import model as m

#: what a player is told when a require without a message of its own fails
DEFAULT_MESSAGE = "a condition of this action does not hold"


@attrs.frozen(slots=True)
class Step:
    """The common base of the steps (see the module docstring)."""


@attrs.frozen(slots=True)
class Require(Step):
    """``require COND ["message"]``: ``message`` is what a player is told when it fails;
    ``reads_choice``: it reads a value or the cards chosen before it, so it is judged per
    candidate choice (else once, before any choice)."""

    stmt: m.Require
    message: str
    reads_choice: bool


@attrs.frozen(slots=True)
class Forced(Step):
    """The first require a ``forced when`` gives every other action of its phase: the
    forcing actions' conditions do not bind the deciding seat (``message``: "you must …")."""

    message: str


@attrs.frozen(slots=True)
class ChooseCards(Step):
    """``choose LOW[..HIGH] from ZONE``: a multiset of ``low`` to ``high`` (None: any number
    more) cards of one zone, which names no value chosen before it."""

    stmt: m.ChooseCards
    low: int
    high: int | None


@attrs.frozen(slots=True)
class ChooseBlind(Step):
    """``choose COUNT blind from CARDS``: ``count`` cards named by their places from the top."""

    stmt: m.ChooseCards
    count: int


@attrs.frozen(slots=True)
class ChooseValue(Step):
    """``choose NAME in DOMAIN ["prompt"]``: a value of kind ``type`` (``"num"``, ``"seat"``,
    ``"group"``, ``"sym:SET"``, ``"num:NAMES"``, ``"comb:ORDER"``: the index of a value of an
    order of combinations); ``dependent``: the domain reads a value
    chosen before it; ``guards``: the conditions of the requires right after it that read
    this choice and nothing else chosen, which narrow the values offered."""

    stmt: m.ChooseParam
    name: str
    type: str
    dependent: bool
    guards: tuple
    prompt: str | None

    @property
    def domain(self):
        return self.stmt.domain
