"""From a ``.rules`` text to a checked game: read, decode, parse (:mod:`rulekit.lang`), then
check and compile (:mod:`rulekit.sema.check`).

:func:`load` is the one way from a ``.rules`` text to a runnable :class:`~rulekit.lang.model.Game`.
"""

from __future__ import annotations

import errno

from ..errors import Problem, RulesError, Span
from ..files import MAX_RULES_BYTES, Refused, read_regular
from ..lang import model as m
from ..lang.transform import to_model
from .check import build_game


def check_text(source: str, path: str = "<rules>") -> list[tuple[str | None, str | None, m.Game | RulesError]]:
    """Check a rules text and each of its variants, parsing it once (``path`` names it in
    messages, e.g. ``<stdin>``).

    Raises:
        RulesError: the text does not parse.
    """
    file = to_model(source, path)
    rows: list = []
    try:
        base = build_game(file, ())
    except RulesError as exc:
        return [(None, None, exc)]
    rows.append((None, None, base))
    for name, label in base.variants:
        try:
            rows.append((name, label, build_game(file, (name,))))
        except RulesError as exc:
            rows.append((name, label, exc))
    return rows


def _read(path: str) -> str:
    """The text of the ``.rules`` file at ``path``: a regular file of at most
    :data:`~rulekit.files.MAX_RULES_BYTES` (1 MiB), UTF-8.

    Raises:
        RulesError: not a regular file, too large, or not UTF-8 (``path: error: …``).
        OSError: it cannot be read.
    """
    try:
        raw = read_regular(path, MAX_RULES_BYTES, "rules file")
    except Refused as exc:
        hint = None if exc.errno == errno.EFBIG else _REFUSED_HINT
        raise RulesError(path, "", [Problem(exc.strerror, Span.unknown(), hint)]) from None
    return decode(raw, path)


_REFUSED_HINT = "give the path of a .rules text file (rulekit check - reads standard input)"


def decode(raw: bytes, path: str) -> str:
    """``raw`` as UTF-8 text, without the byte-order mark some editors put first.

    Raises:
        RulesError: it is not UTF-8 (the message names ``path`` and the first bad byte).
    """
    try:
        return raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(path, "", [Problem(
            f"not a UTF-8 text file (byte 0x{raw[exc.start]:02x} at offset {exc.start})", Span.unknown(),
            "save the file as UTF-8 text")]) from None


def load(path: str, variants: tuple[str, ...] | list[str] = ()) -> m.Game:
    """Read, parse, check and compile a ``.rules`` file.

    Args:
        path: the file to read.
        variants: names of variants to apply, in order.

    Raises:
        RulesError: a syntax or semantic problem in the file; or it is no regular file,
            larger than 1 MiB or not UTF-8.
        OptionError: an unknown variant.
        OSError: the file cannot be read.
    """
    return loads(_read(path), path, variants)


def loads(source: str, path: str = "<rules>", variants: tuple[str, ...] | list[str] = ()) -> m.Game:
    """Like :func:`load`, from a text."""
    return build_game(to_model(source, path), tuple(variants))
