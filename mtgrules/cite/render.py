"""How `mtgrules cite` prints: one line per citation that is not current (as a compiler
prints its warnings: path:line:column:), the texts under it, each file's under a line
saying which edition that file was read as written for, then a summary; or JSON, written
as the results come (a run over a large tree never holds them all)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import Any

from ..render import wrap
from .check import CURRENT, NEVER_EXISTED, QUOTE_MISMATCH, REMOVED, RENUMBERED, STATUSES
from .run import Citation, CiteRun, FileResult, Skipped

_INDENT = "    "


def is_shown(c: Citation) -> bool:
    """Printed in the text report: a citation that is not current, or a current one whose
    quotation the rule no longer says (a note, as a compiler prints one)."""
    if c.status != CURRENT:
        return True
    quote = c.evidence.get("quote")
    return bool(quote and quote.get("in_target") is False)


def citation_lines(c: Citation) -> list[str]:
    """The lines of one citation that is shown (see ``is_shown``)."""
    ev = c.evidence
    where = f"{c.path}:{c.line}:{c.column}: {c.cited}"
    read_in = ev.get("read_in")
    lines: list[str]
    if c.status == RENUMBERED:
        lines = [f"{where} renumbered: now {c.now} (read in {read_in})"]
        if ev.get("now_all"):
            lines[0] += f"; split into {', '.join(ev['now_all'])}"
        if ev.get("text") and ev.get("text") == ev.get("now_text"):
            # Moved with its words unchanged: shown once.
            lines += _texts(ev, ("text", f"{c.cited} then, {c.now} now (the same words)"))
        else:
            lines += _texts(ev, ("text", f"{c.cited} was"), ("now_text", f"{c.now} now"))
    elif c.status == REMOVED:
        last, gone = ev.get("last_edition"), ev.get("gone_in")
        lines = [f"{where} removed: last in {last}" + (f", gone in {gone}" if gone else "")]
        lines += _texts(ev, ("text", f"{c.cited} was"))
    elif c.status == NEVER_EXISTED:
        nearest = ", ".join(ev.get("nearest") or []) or "none"
        lines = [f"{where} never existed; nearest: {nearest}"]
    elif c.status == QUOTE_MISMATCH:
        lines = [f"{where} quote does not match the rule (read in {read_in})"]
    elif c.status == CURRENT:
        lines = [f"{where} current (read in {read_in}), note: its rule was reworded since"]
        lines += _texts(ev, ("now_text", f"{c.now} now"))
    else:
        lines = [f"{where} {c.status}"]
    quote = ev.get("quote")
    if quote and quote.get("matches") is False:
        held = ev.get("quote_holder")
        said = f'quoted: "{quote["text"]}"'
        if held:
            now = f", now {held['now']}" if held.get("now") and held["now"] != held["label"] else ""
            said += f" is rule {held['label']} of {held['edition']}{now}"
        else:
            said += " is in no rule"
        lines.append(wrap(said, _INDENT))
        if c.status == QUOTE_MISMATCH:
            lines += _texts(ev, ("text", f"{c.cited} says"))
    if quote and quote.get("in_target") is False:
        lines.append(wrap(f"the quoted words are no longer in {c.now} of the target", _INDENT))
    if ev.get("note"):
        lines.append(wrap(ev["note"], _INDENT))
    return lines


def _texts(ev: dict[str, Any], *keys: tuple[str, str]) -> list[str]:
    out = []
    for key, title in keys:
        text = ev.get(key)
        if text:
            out.append(wrap(f"{title}: {_short(text)}", _INDENT))
    return out


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def file_heading(result: FileResult) -> str:
    """The line above a file's citations: the edition it was read as written for."""
    w = result.written_for
    how = "inferred" if w.inferred else "given"
    return f"{result.path}: written for {w.edition.slug} ({how}: {w.reason})"


def summary_line(run: CiteRun) -> str:
    s = run.summary
    w = run.written_for
    counts = ", ".join(f"{s.statuses[k]:,} {k}" for k in STATUSES if s.statuses[k] or k == CURRENT)
    files = f"{s.files:,} file{'s' if s.files != 1 else ''}"
    extra = []
    if s.skipped:
        extra.append(f"{s.skipped:,} skipped")
    if s.unreadable:
        extra.append(f"{s.unreadable:,} unreadable")
    more = f" ({', '.join(extra)})" if extra else ""
    how = "inferred" if w.inferred else "given"
    return (
        f"{s.citations:,} citation{'s' if s.citations != 1 else ''} in {files}{more} checked "
        f"against {run.target.slug}, written for {w.edition.slug} ({how}: {w.reason}): {counts}."
    )


def json_chunks(run: CiteRun, results: Iterator[FileResult | Skipped]) -> Iterator[str]:
    """The JSON document, in pieces, as the results come. Each file's entry under "files"
    (the edition it was written for) is kept in a temporary file until the citations are
    out, and the run's "written_for", known once every file is read, comes after them."""
    yield "{\n"
    yield f'  "target": {json.dumps(run.target.header_json(), ensure_ascii=False)},\n'
    yield '  "citations": ['
    first = True
    skipped: list[Skipped] = []
    with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as files:
        for result in results:
            if isinstance(result, Skipped):
                skipped.append(result)
                continue
            entry = json.dumps(result.entry_json(), ensure_ascii=False)
            files.write(("\n    " if files.tell() == 0 else ",\n    ") + entry)
            for c in result.citations:
                yield ("\n    " if first else ",\n    ") + json.dumps(
                    c.as_json(), ensure_ascii=False
                )
                first = False
        yield ("\n  ],\n" if not first else "],\n")
        yield '  "files": ['
        any_file = files.tell() > 0
        files.seek(0)
        while chunk := files.read(1 << 16):
            yield chunk
        yield ("\n  ],\n" if any_file else "],\n")
    written_for = json.dumps(run.written_for.as_json(), ensure_ascii=False)
    yield f'  "written_for": {written_for},\n'
    yield f'  "skipped": {json.dumps([s.as_json() for s in skipped], ensure_ascii=False)},\n'
    yield f'  "summary": {json.dumps(run.summary.as_json(), ensure_ascii=False)}\n'
    yield "}\n"
