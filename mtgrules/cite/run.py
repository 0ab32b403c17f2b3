"""`mtgrules cite`: the citations of files and folders checked against an edition.

Two passes over the texts when the edition they were written for must be inferred (the
first only counts the numbers cited), one when it is given: either way each file is read,
checked and let go before the next, so that memory stays bounded whatever the number of
files. Results come out file by file (``CiteRun.results``) for the command to print as they
come.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..record import OPTIONAL, Record
from ..store.queries import EditionInfo
from .check import STATUSES, Checker, Verdict
from .citations import Found, find_citations
from .editions import EnglishLine
from .fix import file_fix
from .infer import Evidence, WrittenFor, infer_written_for
from .texts import Skip, Text, read, walk


@dataclass
class Citation(Record):
    path: str
    line: int
    column: int
    cited: str
    status: str
    now: str | None
    evidence: dict[str, Any]


@dataclass
class FileResult:
    path: str
    format: str
    citations: list[Citation]
    fix: bytes | None = None  # this file's part of the unified diff (--fix)
    note: str | None = None  # why a file with renumberings has no fix


@dataclass
class Skipped(Record):
    path: str
    reason: str
    unreadable: bool


@dataclass
class CiteSummary(Record):
    files: int = 0  # read
    skipped: int = 0  # binary or too large: a note
    unreadable: int = 0  # missing or unreadable: an error
    citations: int = 0
    statuses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    files_with_problems: int = 0
    fixes: int | None = field(default=None, metadata=OPTIONAL)

    @property
    def problems(self) -> int:
        return self.citations - self.statuses["current"]


class CiteRun:
    """One check of ``paths``: the target, the edition they were written for, and then the
    results of each file as ``results()`` reads them."""

    def __init__(
        self,
        db: Any,
        paths: list[str],
        *,
        against: str | None = None,
        written_for: str | None = None,
        fix: bool = False,
        on_file: Callable[[str, int], None] | None = None,
    ):
        self.line = EnglishLine.read(db)
        self.paths = paths
        self.fix = fix
        self.on_file = on_file
        self._stdin: dict[str, bytes] = {}  # standard input, once read (two passes)
        self.target: EditionInfo = (
            self.line.find(against, what="--against") if against else self.line.newest
        )
        if written_for:
            edition = self.line.find(written_for, what="--written-for")
            said = f"--written-for {written_for}"
            if written_for != edition.slug:
                said += ", the edition in force then"
            self.written_for = WrittenFor(edition, False, said)
        else:
            self.written_for = self._infer()
        self.checker = Checker(self.line, self.target, self.written_for.edition)
        self.summary = CiteSummary(fixes=0 if fix else None)
        self.skipped: list[Skipped] = []

    def _texts(self, first_pass: bool = False) -> Iterator[Text | Skip]:
        done = 0
        for path in walk(self.paths):
            item = path if isinstance(path, Skip) else read(path, self._stdin)
            done += 1
            if self.on_file is not None:
                self.on_file(item.path, done if not first_pass else -done)
            yield item

    def _infer(self) -> WrittenFor:
        evidence = Evidence()
        for item in self._texts(first_pass=True):
            if isinstance(item, Text):
                for found in find_citations(item.text):
                    evidence.add(found.label, found.quote)
        return infer_written_for(self.line, evidence, self.target)

    def results(self) -> Iterator[FileResult | Skipped]:
        summary = self.summary
        for item in self._texts():
            if isinstance(item, Skip):
                skipped = Skipped(item.path, item.reason, item.error)
                if item.error:
                    summary.unreadable += 1
                else:
                    summary.skipped += 1
                self.skipped.append(skipped)
                yield skipped
                continue
            summary.files += 1
            found = find_citations(item.text)
            self.line.learn(f.label for f in found)
            checked = [(f, self.checker.check(f, item.text)) for f in found]
            result = FileResult(
                item.path, item.format, [self._citation(item, f, v) for f, v in checked]
            )
            for c in result.citations:
                summary.statuses[c.status] += 1
            summary.citations += len(result.citations)
            if any(c.status != "current" for c in result.citations):
                summary.files_with_problems += 1
            if self.fix:
                fixed = file_fix(item, checked)
                result.fix, result.note = fixed.diff, fixed.note
                summary.fixes = (summary.fixes or 0) + fixed.replaced
            yield result

    def _citation(self, text: Text, found: Found, verdict: Verdict) -> Citation:
        line, column = text.position(found.start)
        evidence = dict(verdict.evidence)
        written = found.written if found.written is not None else found.range_text
        if written is not None:
            evidence["written"] = written
        if found.range_text is not None:
            evidence["range"] = found.range_text
        return Citation(text.path, line, column, found.label, verdict.status, verdict.now, evidence)

    def header_json(self) -> dict[str, Any]:
        return {"target": self.target.header_json(), "written_for": self.written_for.as_json()}

    def exit_code(self) -> int:
        """2 when a path could not be read, 1 when a citation is not current, else 0."""
        if self.summary.unreadable:
            return 2
        return 1 if self.summary.problems else 0


@dataclass
class CiteReport(Record):
    """A whole run collected (the Python API): what ``--json`` prints, as objects."""

    target: EditionInfo
    written_for: WrittenFor
    citations: list[Citation]
    skipped: list[Skipped]
    summary: CiteSummary

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        out["target"] = self.target.header_json()
        return out

    def has_differences(self) -> bool:
        return self.summary.problems > 0


def cite_paths(
    db: Any, paths: list[str], *, against: str | None = None, written_for: str | None = None
) -> CiteReport:
    """Every citation of ``paths`` checked against ``against`` (default: the newest English),
    collected in one report."""
    run = CiteRun(db, paths, against=against, written_for=written_for)
    citations: list[Citation] = []
    for result in run.results():
        if isinstance(result, FileResult):
            citations.extend(result.citations)
    return CiteReport(run.target, run.written_for, citations, run.skipped, run.summary)
