"""`cite --fix`: a unified diff that gives renumbered citations their new numbers.

Files are never edited: the diff goes to standard output, for the user to read and apply
(`git apply`, `patch -p1`). Only numbers written out are replaced; a range keeps its short
form when both its ends stay in one rule ("601.2f–h" -> "601.3f–h").
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass

from .check import RENUMBERED, Verdict
from .citations import SUBRULE_LETTERS, Found
from .texts import Text

# Encodings a diff can be written in so that patch applies it to the file's bytes.
_ENCODINGS = {"ascii": "utf-8", "utf-8": "utf-8", "utf-8-sig": "utf-8", "cp1252": "cp1252"}


@dataclass
class FileFix:
    """One file's part of the `cite --fix` diff (in the file's encoding), or the note saying why it
    has none, with the number of citations it renumbers."""

    diff: bytes | None
    note: str | None
    replaced: int


def _rule_part(label: str) -> str:
    """'601.2f' -> '601.2'; '119.7' -> '119'."""
    if label[-1] in SUBRULE_LETTERS + "lo":
        return label[:-1]
    return label.split(".")[0]


def _replacement(found: Found, new: str, start_new: str | None) -> str:
    written = found.written or ""
    if "." in written or found.range_text is None or start_new is None:
        return new
    # The short end of a range: "h" of "601.2f–h", "8" of "119.7–8".
    if _rule_part(new) == _rule_part(start_new):
        return new[len(_rule_part(new)) :].lstrip(".")
    return new


def file_fix(text: Text, checked: list[tuple[Found, Verdict]]) -> FileFix:
    """This file's part of the diff, or why it has none."""
    renumbered = [
        (f, v) for f, v in checked if v.status == RENUMBERED and v.now and f.written is not None
    ]
    if not renumbered:
        return FileFix(None, None, 0)
    if text.format != "text":
        return FileFix(None, f"a {text.format.upper()} file cannot be patched; edit it by hand", 0)
    encoding = _ENCODINGS.get(text.encoding)
    if encoding is None:
        return FileFix(None, f"encoded in {text.encoding}: not included in the diff", 0)
    # The new number of each range's first label, for its short end.
    firsts: dict[tuple[int, str | None], str] = {}
    for f, v in checked:
        if f.range_text is not None and f.written and "." in f.written:
            firsts.setdefault((f.citation_start, f.range_text), v.now or f.label)
    edits = sorted(
        (
            f.start,
            f.end,
            _replacement(f, v.now or f.label, firsts.get((f.citation_start, f.range_text))),
        )
        for f, v in renumbered
    )
    body = text.text
    out: list[str] = []
    at = 0
    for start, end, new in edits:
        out.append(body[at:start])
        out.append(new)
        at = end
    out.append(body[at:])
    fixed = "".join(out)
    old_lines = _with_endings(body, text.newlines)
    new_lines = _with_endings(fixed, text.newlines)
    name = text.path if os.path.isabs(text.path) else text.path.replace(os.sep, "/")
    a, b = (name, name) if os.path.isabs(text.path) else (f"a/{name}", f"b/{name}")
    lines = []
    for line in difflib.unified_diff(old_lines, new_lines, a, b, lineterm=""):
        if line.startswith(("---", "+++", "@@")):
            lines.append(line + "\n")
        elif line.endswith(("\n", "\r")):
            lines.append(line)
        else:  # the file's last line, with no newline after it
            lines.append(line + "\n\\ No newline at end of file\n")
    return FileFix("".join(lines).encode(encoding), None, len(edits))


def _with_endings(text: str, newlines: list[str] | None) -> list[str]:
    """The lines of a text with their own line endings (CRLF, CR or LF) put back."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if i < len(lines) - 1:
            out.append(line + (newlines[i] if newlines is not None else "\n"))
        elif line:
            out.append(line)
    return out
