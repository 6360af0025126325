"""A plain-language rulebook of a game, written from its model (``rulekit explain``).

:func:`explain` reads only the checked :class:`~rulekit.lang.model.Game`: its components, zones,
counters, claims, setup, phases, procedures and match, never the comments of the file. Every
node of the model is put into words by one method named after its class (``x_`` for values,
seats and cards, ``p_`` for card conditions, ``s_`` for statements); a node without such a
method falls back to the text of the file at its place, so a new construct still reads.

The rulebook is plain text laid out as Markdown: headings, numbered options and bulleted
steps, one sentence per line, never wrapped (a terminal wraps long lines itself).

The package, in the order the words are made:

* ``words``: small helpers shared by the others (plurals, articles, lists, sentences, lines);
* ``walk``: walks over the model (blocks, calls, the order play reaches phases and procedures);
* ``phrases``: :class:`_Phrases`, values, seats, cards, card conditions and texts in words
  (``x_``, ``p_``);
* ``steps``: :class:`_Steps`, statements as lines (``s_``);
* ``variants``: :class:`_Differences`, what applied variants change from the base game;
* ``rulebook``: :func:`explain` and :class:`_Rulebook`, the sections and their layout.
"""

from .rulebook import _Rulebook, explain    # _Rulebook: the writer itself, which tests reach

__all__ = ["explain"]
