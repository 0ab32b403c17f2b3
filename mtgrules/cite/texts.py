"""The texts `cite` reads: files and folders, one at a time, in any format.

Folders are walked lazily (a folder of 50,000 files is never listed whole) in a stable
order. Text files of any kind (source code, Markdown, HTML, plain text) are read as they are,
so that line and column are those of the file; PDF, DOCX, Word .doc and RTF go through the
intake's extractors (their "line" is a paragraph of the extracted text). Binary files of
other kinds are skipped with a note; an unreadable path gets one line.

A path named on the command line is what the user asked for: one that does not exist, is
not a file or folder, or cannot be opened is refused before any work (``check_named``), and
a named file whose bytes are no text cite can read is an error, not a note
(``named_unreadable``), both as an InputError.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InputError, MtgRulesError
from ..sources.decode import decode_text
from ..sources.detect import detect_container
from ..sources.formats import MAX_BYTES, TEXT

STDIN = "-"

# What to do about a named path cite cannot read, after why.
_CHECK_PATH = "check the path (cite reads files and folders)"
_CONVERT = "cite reads text, PDF, DOCX, .doc and RTF files: convert it, or leave it out"
_NAME_TEXTS = "name the files or folders that hold the texts to check"


@dataclass
class Text:
    """One text to read citations in."""

    path: str  # as the user would write it: the argument, joined with the path inside a folder
    text: str  # newlines as "\n"
    format: str  # text, pdf, docx, doc, rtf
    encoding: str
    newlines: list[str] | None = None  # each line's own ending, to rebuild the file (fixes)
    _at: tuple[int, int] = (0, 1)  # the last offset asked for, and its line

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset, both from 1; the column counts characters. Offsets
        are asked for in order: the lines between two are counted, not listed."""
        last, line = self._at
        if offset < last:
            last, line = 0, 1
        line += self.text.count("\n", last, offset)
        self._at = (offset, line)
        return line, offset - (self.text.rfind("\n", 0, offset) + 1) + 1


@dataclass
class Skip:
    """A path left out: a binary file (a note), or one that cannot be read (an error)."""

    path: str
    reason: str
    error: bool  # unreadable or missing: the run's exit code says so


Item = Text | Skip


def check_named(paths: list[str]) -> None:
    """Refuse, before any work, a named path that does not exist, is neither a file nor a
    folder, or cannot be opened or listed (InputError: one line, exit code 2)."""
    for given in paths:
        if given == STDIN:
            continue
        try:
            st = os.stat(given)
            if stat.S_ISDIR(st.st_mode):
                with os.scandir(given) as it:
                    next(it, None)
                continue
            if not stat.S_ISREG(st.st_mode):
                raise InputError(f"{given}: not a regular file; {_CONVERT}")
            with open(given, "rb"):
                pass
        except FileNotFoundError:
            raise InputError(f"{given}: no such file or folder; {_CHECK_PATH}") from None
        except NotADirectoryError:
            raise InputError(
                f"{given}: not a folder (a file named with a trailing /); {_CHECK_PATH}"
            ) from None
        except PermissionError:
            raise InputError(
                f"{given}: permission denied; make it readable (chmod) or leave it out"
            ) from None
        except OSError as exc:
            raise InputError(f"{given}: cannot be read ({exc.strerror}); {_CHECK_PATH}") from None


def named_unreadable(skips: list[Skip]) -> InputError:
    """The error for named files that were read but hold no text cite can read (a binary
    file, bytes no encoding fits): one line naming them and what to do."""
    if len(skips) == 1:
        what = _NAME_TEXTS if skips[0].reason.startswith("a folder with") else _CONVERT
        return InputError(f"{skips[0].path}: {skips[0].reason}; {what}")
    listed = ", ".join(f"{s.path} ({s.reason})" for s in skips[:5])
    more = f" and {len(skips) - 5:,} more" if len(skips) > 5 else ""
    folders = all(s.reason.startswith("a folder with") for s in skips)
    what = _NAME_TEXTS if folders else _CONVERT
    return InputError(f"{len(skips):,} paths named cannot be read: {listed}{more}; {what}")


def walk(paths: list[str]) -> Iterator[str | Skip]:
    """Every file under ``paths``, one at a time: named files as given, folders in name order
    (hidden entries and __pycache__ left out, as ingest does). A path that does not exist or
    cannot be listed is a Skip with error=True."""
    for given in paths:
        if given == STDIN:
            yield STDIN
            continue
        try:
            st = os.stat(given)
        except FileNotFoundError:
            yield Skip(given, "no such file or folder", True)
            continue
        except OSError as exc:
            yield Skip(given, f"cannot be read ({exc.strerror})", True)
            continue
        if not stat.S_ISDIR(st.st_mode):
            yield given
            continue
        yield from _walk_folder(given)


def _walk_folder(folder: str) -> Iterator[str | Skip]:
    # Depth first, each folder's entries sorted, one folder listed at a time: memory grows
    # with the depth and the largest folder, never with the whole tree.
    try:
        with os.scandir(folder) as it:
            entries = sorted((e.name, e.is_dir(follow_symlinks=False)) for e in it)
    except OSError as exc:
        yield Skip(folder, f"cannot be read ({exc.strerror})", True)
        return
    for name, is_dir in entries:
        if name.startswith(".") or name == "__pycache__":
            continue
        path = os.path.join(folder, name)
        if is_dir:
            yield from _walk_folder(path)
        else:
            yield path


def read(path: str, stdin: dict[str, bytes] | None = None) -> Item:
    """The text of one file, or why it is skipped. ``stdin``: where standard input is kept
    once read, for a second pass to read it again."""
    try:
        if path == STDIN and stdin is not None:
            if STDIN not in stdin:
                stdin[STDIN] = sys.stdin.buffer.read(MAX_BYTES + 1)
            data: bytes | None = stdin[STDIN]
        else:
            data = _read_bytes(path)
    except _Unreadable as exc:
        return Skip(path, str(exc), True)
    if data is None or len(data) > MAX_BYTES:
        return Skip(path, f"over the {MAX_BYTES // 2**20} MiB limit for one file", False)
    if not data.strip():
        return Text(path, "", "text", "ascii")
    try:
        container = detect_container(data, path)
    except MtgRulesError as exc:
        return Skip(path, _reason(exc, path), False)
    if container != TEXT:
        return _extract(data, path, container)
    fast = _plain_utf8(data)
    if fast is not None:
        return _as_text(path, fast, "text", "ascii" if fast.isascii() else "utf-8")
    try:
        text, encoding = decode_text(data, path)
    except MtgRulesError as exc:
        return Skip(path, _reason(exc, path), False)
    return _as_text(path, text, "text", encoding)


def _plain_utf8(data: bytes) -> str | None:
    """The text of a plain UTF-8 file with no byte-order mark and no NUL, the common case
    of source code, decoded at C speed (decode_text checks for binary content byte by byte
    in Python first); None for anything else, which decode_text reads."""
    if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _as_text(path: str, text: str, fmt: str, encoding: str) -> Text:
    if text.startswith("\ufeff"):
        text = text[1:]
    newlines = None
    if "\r" in text:
        # Lines as an editor counts them: CRLF, CR and LF each end one. Each line's own
        # ending is kept, so that a fix rebuilds the file byte for byte around its changes.
        parts = re.split(r"(\r\n|\r|\n)", text)
        newlines = parts[1::2]
        text = "\n".join(parts[0::2])
    return Text(path, text, fmt, encoding, newlines)


def _extract(data: bytes, path: str, container: str) -> Item:
    """PDF, DOCX, .doc and RTF through intake's extract step (without ingest's check that a
    long document is the rules: an article in PDF is what cite reads)."""
    from ..sources.extract import extract

    try:
        extracted = extract(data, container, path)
    except MtgRulesError as exc:
        return Skip(path, _reason(exc, path), False)
    return _as_text(path, extracted.text, container, extracted.encoding)


def _reason(exc: MtgRulesError, path: str) -> str:
    """Why a file is skipped, in cite's words (the intake's messages speak of rules files)."""
    message = str(exc)
    if message.startswith(path + ": "):
        message = message[len(path) + 2 :]
    if "binary file" in message:
        return "a binary file"
    m = re.match(r"this is (.+?), not rules text", message)
    if m:
        return f"a binary file ({m.group(1)})"
    return message.split(";")[0].rstrip(".")


class _Unreadable(Exception):
    pass


def _read_bytes(path: str) -> bytes | None:
    """The file's bytes (at most one more than the limit), None when its size is over it."""
    if path == STDIN:
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise _Unreadable("not a regular file")
        if st.st_size > MAX_BYTES:
            return None
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise _Unreadable("no such file") from None
    except PermissionError:
        raise _Unreadable("permission denied") from None
    except IsADirectoryError:
        raise _Unreadable("is a folder") from None
    except OSError as exc:
        raise _Unreadable(f"cannot be read ({exc.strerror})") from None
