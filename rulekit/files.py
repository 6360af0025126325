"""Reading the files a stranger may hand over, and writing the files rulekit makes.

A ``.rules`` file or a log is read only when it is a regular file, and only up to a size
(:data:`MAX_RULES_BYTES`, :data:`MAX_LOG_BYTES`, :data:`MAX_LOG_LINE`): a device such as
``/dev/zero``, a pipe or a terminal is refused before a byte is read, so that no input
can make rulekit read without end or wait for ever. An output that cannot be written
(a full disk, a closed pipe) becomes an :class:`OutputError` that names the file.
"""

from __future__ import annotations

import errno
import os
import stat

#: the largest ``.rules`` file read, in bytes (1 MiB; the shipped games are 4 to 20 KB)
MAX_RULES_BYTES = 1 << 20
#: the largest log file read, in bytes (256 MiB; a match stopped at the 200,000 decisions
#: of --max-decisions in a small game writes some 65 MB)
MAX_LOG_BYTES = 256 << 20
#: the longest line of a log read, in bytes (16 MiB; a shuffle of the largest deck allowed,
#: 10,000 cards, with labels of 100 characters is 1 MB)
MAX_LOG_LINE = 16 << 20


class Refused(OSError):
    """A file refused before it is read: not a regular file, or larger than the limit.
    Its ``strerror`` says why ("not a regular file"), its ``filename`` names the file."""

    def __init__(self, path, message: str, code: int = errno.EINVAL):
        super().__init__(code, message, path)


class OutputError(Exception):
    """A file rulekit writes could not be written (``path``; ``strerror``: why, as the
    system says it: "No space left on device")."""

    def __init__(self, path: str, exc: OSError):
        self.path = path
        why = exc.strerror or str(exc)
        # "No space left on device" reads "no space left on device" after "error:"
        self.strerror = why[:1].lower() + why[1:] if why[1:2].islower() else why
        self.errno = exc.errno
        super().__init__(f"{path}: error: {self.strerror}")


def _size_text(limit: int) -> str:
    """A size in bytes as "1 MiB", "16 MiB" (or "1000 bytes")."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def open_regular(path: "str | os.PathLike"):
    """The file at ``path``, opened for reading in binary, if it is a regular file.

    It is opened without waiting (a named pipe with no writer would block the open) and
    checked before anything is read.

    Raises:
        Refused: not a regular file (a device, a pipe, a terminal, a folder).
        OSError: it cannot be opened.
        TypeError: ``path`` is not a text (a file descriptor such as 0 is not a path).
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"a path is a text, not {type(path).__name__}")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(path, "not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: "str | os.PathLike", limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises:
        Refused: not a regular file, or longer than ``limit`` bytes (``what`` names it
            in the message: "a rules file is at most 1 MiB").
        OSError: it cannot be read.
    """
    with open_regular(path) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise Refused(path, f"more than {_size_text(limit)}, the most a {what} may hold",
                      errno.EFBIG)
    return data


def read_stream(stream, limit: int, path: str, what: str = "file") -> bytes:
    """At most ``limit`` bytes of a binary ``stream`` (standard input).

    Raises:
        Refused: it holds more than ``limit`` bytes.
    """
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise Refused(path, f"more than {_size_text(limit)}, the most a {what} may hold",
                      errno.EFBIG)
    return data


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file: the same file when both exist
    (:func:`os.path.samefile`: links and other spellings included), else the same path
    once links are resolved."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


__all__ = ["MAX_LOG_BYTES", "MAX_LOG_LINE", "MAX_RULES_BYTES", "OutputError", "Refused", "open_regular",
           "read_regular", "read_stream", "same_file"]
