"""`mtgrules cite`: the citations of files and folders checked against an edition.

One pass over the texts: each file is read, the edition it was written for guessed from
its own citations (unless given: then it is the same for all), its citations checked and
the file let go before the next, so that memory stays bounded whatever the number of files.
A folder may hold texts written for different editions: one file's numbers never decide how
another's are read. Results come out file by file (``CiteRun.results``) for the command to
print as they come.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..record import INTERNAL, OPTIONAL, Record
from ..store.queries import EditionInfo
from .check import STATUSES, Checker, Verdict
from .citations import Found, find_citations
from .editions import EnglishLine
from .fix import file_fix
from .infer import Evidence, Guesser, WrittenFor
from .texts import STDIN, Skip, Text, check_named, named_unreadable, read, walk


@dataclass
class Citation(Record):
    """One citation in a file: where it is, the number cited, and its status in the target edition
    with the number it has there now and the evidence."""

    path: str
    line: int
    column: int
    cited: str
    status: str
    now: str | None
    evidence: dict[str, Any]
    # The edition its file was read as written for (each file has its own guess).
    written_for: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class FileResult:
    """One file checked: its citations, the edition it was read as written for, and (with --fix) its
    part of the diff or why it has none."""

    path: str
    format: str
    citations: list[Citation]
    written_for: WrittenFor
    fix: bytes | None = None  # this file's part of the unified diff (--fix)
    note: str | None = None  # why a file with renumberings has no fix

    def entry_json(self) -> dict[str, Any]:
        """The file's entry under "files" in the JSON: the edition it was written for."""
        return {
            "path": self.path,
            "format": self.format,
            "written_for": self.written_for.as_json(),
            "citations": len(self.citations),
        }


@dataclass
class Skipped(Record):
    """A path the run left out, and why: an error when it is missing or cannot be read, or was named
    on the command line; a note for a file met in a folder (binary, too large)."""

    path: str
    reason: str
    unreadable: bool
    # Named on the command line (not met in a folder): the run ends in an InputError.
    named: bool = field(default=False, metadata=INTERNAL)


@dataclass
class CiteSummary(Record):
    """The counts of a cite run: files read, skipped and unreadable, citations by status, files with
    a citation not current, and (with --fix) the numbers the diff replaces."""

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
    """One check of ``paths``: the target, then the results of each file (with the edition
    it was written for) as ``results()`` reads them, and ``written_for`` for the whole run
    once they are read."""

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
        check_named(paths)  # a mistyped path is refused before any work
        self.line = EnglishLine.read(db)
        self.paths = paths
        self._named = set(paths)
        self._folders_unread: list[Skip] = []
        self.fix = fix
        self.on_file = on_file
        self._stdin: dict[str, bytes] = {}  # standard input, once read
        self.target: EditionInfo = (
            self.line.find(against, what="--against") if against else self.line.newest
        )
        self.given: WrittenFor | None = None
        if written_for:
            edition = self.line.find(written_for, what="--written-for")
            said = f"--written-for {written_for}"
            if written_for != edition.slug:
                said += ", the edition in force then"
            self.given = WrittenFor(edition, False, said)
        self._guesser = Guesser(self.line, self.target)
        self._checkers: dict[int, Checker] = {}  # by the edition written for
        # Files with citations, by the edition guessed for them; the first one's guess.
        self._guessed: Counter[int] = Counter()
        self._first_guess: WrittenFor | None = None
        self.summary = CiteSummary(fixes=0 if fix else None)
        self.skipped: list[Skipped] = []

    def _texts(self) -> Iterator[Text | Skip]:
        done = 0
        for given in self.paths:
            read_here = left_out = 0
            for path in walk([given]):
                item = path if isinstance(path, Skip) else read(path, self._stdin)
                done += 1
                if self.on_file is not None:
                    self.on_file(item.path, done)
                if isinstance(item, Text):
                    read_here += 1
                else:
                    left_out += 1
                yield item
            if not read_here and given != STDIN and os.path.isdir(given):
                # A folder named that gave nothing to read: nothing was checked there.
                what = f"no file cite can read ({left_out:,} skipped)" if left_out else "no file"
                self._folders_unread.append(Skip(given, f"a folder with {what}", True))

    def _written_for_file(self, found: list[Found]) -> WrittenFor:
        """The edition one file was written for: given, else guessed from its citations."""
        if self.given is not None:
            return self.given
        evidence = Evidence()
        for f in found:
            evidence.add(f.label, f.quote)
        guess = self._guesser.guess(evidence)
        if found:
            self._guessed[guess.edition.id] += 1
            if self._first_guess is None:
                self._first_guess = guess
        return guess

    def _checker(self, edition: EditionInfo) -> Checker:
        checker = self._checkers.get(edition.id)
        if checker is None:
            checker = self._checkers[edition.id] = Checker(self.line, self.target, edition)
        return checker

    @property
    def written_for(self) -> WrittenFor:
        """The edition the texts were written for: given, or (once the results are read)
        what the files' own guesses say: a lone file's guess whole, else the edition most
        files were guessed for, with how many files each edition was guessed for."""
        if self.given is not None:
            return self.given
        if not self._guessed or self._first_guess is None:
            return self._guesser.guess(Evidence())
        if len(self._guessed) == 1 and sum(self._guessed.values()) == 1:
            return self._first_guess
        by_id = {e.id: e for e in self.line.editions}
        ranked = sorted(
            self._guessed.items(),
            key=lambda kv: (kv[1], by_id[kv[0]].date or "", kv[0]),
            reverse=True,
        )
        files = sum(self._guessed.values())
        if len(ranked) == 1:
            each = f"{by_id[ranked[0][0]].slug} for all {files:,} files with citations"
        else:
            each = ", ".join(
                f"{by_id[i].slug} for {n:,} file{'s' if n != 1 else ''}" for i, n in ranked
            )
        reason = f"each file's own, from its citations: {each}"
        return WrittenFor(by_id[ranked[0][0]], True, reason)

    def results(self) -> Iterator[FileResult | Skipped]:
        summary = self.summary
        for item in self._texts():
            if isinstance(item, Skip):
                # A file named on the command line is what was asked for: any reason it
                # cannot be read is an error (a binary file met in a folder is a note).
                named = item.path in self._named
                skipped = Skipped(item.path, item.reason, item.error or named, named)
                if skipped.unreadable:
                    summary.unreadable += 1
                else:
                    summary.skipped += 1
                self.skipped.append(skipped)
                yield skipped
                continue
            summary.files += 1
            found = find_citations(item.text)
            self.line.learn(f.label for f in found)
            written_for = self._written_for_file(found)
            checker = self._checker(written_for.edition)
            checked = [(f, checker.check(f, item.text)) for f in found]
            slug = written_for.edition.slug
            result = FileResult(
                item.path,
                item.format,
                [self._citation(item, f, v, slug) for f, v in checked],
                written_for,
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

    def _citation(self, text: Text, found: Found, verdict: Verdict, written_for: str) -> Citation:
        line, column = text.position(found.start)
        evidence = dict(verdict.evidence)
        written = found.written if found.written is not None else found.range_text
        if written is not None:
            evidence["written"] = written
        if found.range_text is not None:
            evidence["range"] = found.range_text
        return Citation(
            text.path, line, column, found.label, verdict.status, verdict.now, evidence, written_for
        )

    def header_json(self) -> dict[str, Any]:
        """The run's own keys: the target, and the edition the texts were written for (once
        the results are read, when it is inferred)."""
        return {"target": self.target.header_json(), "written_for": self.written_for.as_json()}

    def named_error(self) -> InputError | None:
        """The error for the files named on the command line that could not be read (once
        the results are read), None when there are none."""
        named = [Skip(s.path, s.reason, True) for s in self.skipped if s.named]
        named += self._folders_unread
        return named_unreadable(named) if named else None

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
    files: list[dict[str, Any]] = field(default_factory=list)  # each file's own written_for

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
    files: list[dict[str, Any]] = []
    for result in run.results():
        if isinstance(result, FileResult):
            citations.extend(result.citations)
            files.append(result.entry_json())
    error = run.named_error()
    if error is not None:
        raise error
    return CiteReport(run.target, run.written_for, citations, run.skipped, run.summary, files)
