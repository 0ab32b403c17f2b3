"""The `mtgrules` command. Each command parses options, calls one core function, renders.

Only this module imports click. Errors become one stderr line and an exit code here.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click

from . import __version__
from .errors import MtgRulesError

INTERNAL_ERROR_EXIT = 70


class _Group(click.Group):
    """Turns every MtgRulesError into one line on stderr and its exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return self._reporting(ctx)
        except BaseException as exc:
            code = getattr(exc, "code", getattr(exc, "exit_code", 1))
            if code not in (0, None) and isinstance(ctx.obj, AppContext):
                ctx.obj.discard_if_new()
            raise

    def _reporting(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except MtgRulesError as exc:
            from .text.terminal import visible_input

            # Through visible_input: the message may quote what the user typed, invisible
            # characters and all.
            click.echo(visible_input(f"mtgrules: error: {exc}"), err=True)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            # One line, like every other error: what was wrong and where the help is.
            command = exc.ctx.command_path if exc.ctx else "mtgrules"
            _say(f"mtgrules: error: {exc.format_message()} (see: {command} --help)", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("mtgrules: interrupted; the store is unchanged.", err=True)
            sys.exit(130)
        except BrokenPipeError:
            # The reader of the output went away (`mtgrules cite src/ | head`): stop quietly,
            # as other command-line tools do. Python would otherwise complain again when it
            # flushes stdout at exit.
            import os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(141)
        except Exception as exc:  # a traceback must never reach a user
            # One line: a database error's message goes on with the SQL and its parameters.
            lines = str(exc).strip().splitlines()
            _say(
                f"mtgrules: internal error: {type(exc).__name__}: {lines[0] if lines else ''} "
                "(please report it; set MTGRULES_DEBUG=1 for the traceback)",
                err=True,
            )
            import os

            if os.environ.get("MTGRULES_DEBUG"):
                raise
            sys.exit(INTERNAL_ERROR_EXIT)


def _count(n: int, noun: str) -> str:
    """'1 edition', '3 editions', '1,234 clauses'."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _say(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print text meant for a person: through the terminal sanitiser (text/terminal.py), so
    a control or bidi character in a file name, an edition name or a rule shows as an
    escape instead of acting on the terminal. Every text line goes out through here or
    through _styled; JSON goes out as it is (json.dumps escapes controls itself)."""
    from .text.terminal import visible

    click.echo(visible(text), err=err, nl=nl)


def _styled(text: str) -> None:
    """Print a renderer's text, already sanitised part by part before its own colour
    codes were added (reports.render_report, render.render_show, search.render)."""
    click.echo(text)


def _visible(text: str) -> str:
    from .text.terminal import visible

    return visible(text)


def _width() -> int:
    from .render import output_width

    return output_width()


class TerminalProgress:
    """The progress reporter of every long command (mtgrules.progress.Progress): one line
    on stderr, redrawn in place, shown only on a terminal and only once the work has taken
    more than 2 s; cleared when the work is done. Piped or redirected: silent."""

    DELAY = 2.0  # seconds; $MTGRULES_PROGRESS_AFTER changes it (0: at once)

    def __init__(self, command: str, stream=None):
        import os
        import time

        try:
            self.delay = float(os.environ.get("MTGRULES_PROGRESS_AFTER", self.DELAY))
        except ValueError:
            self.delay = self.DELAY
        self.command = command
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.label, self.total, self.count, self.item = "", None, 0, None
        self.shown = False

    @classmethod
    def for_terminal(cls, command: str, *, quiet: bool = False):
        """A reporter when stderr is a terminal (and ``quiet`` is false), else SILENT."""
        from .progress import SILENT

        if quiet or not sys.stderr.isatty():
            return SILENT
        return cls(command)

    def stage(self, label: str, total: int | None = None) -> None:
        self.label, self.total, self.count, self.item = label, total, 0, None
        self._draw(force=True)

    def advance(self, n: int = 1, item: str | None = None) -> None:
        self.count += n
        self.item = item
        self._draw()

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False

    def _draw(self, force: bool = False) -> None:
        import time

        from .render import output_width
        from .text.terminal import visible
        from .text.width import truncate

        now = time.monotonic()
        if now - self.start < self.delay or (not force and now - self.last_draw < 0.1):
            return
        self.last_draw = now
        text = f"{self.command}: {self.label}"
        if self.total:
            text += f" {self.count}/{self.total} ({100 * self.count // self.total}%)"
        elif self.count:
            text += f" {self.count}"
        if self.item:
            text += f"  {visible(self.item)}"
        text = truncate(text, output_width(self.stream) - 1)
        self.stream.write("\r\x1b[2K" + text)
        self.stream.flush()
        self.shown = True


def _say_upgrading(old: str, new: str) -> None:
    _say(
        f"Upgrading the store's schema from {old} to {new} (once; it can take a few "
        "seconds when the search index is rebuilt)...",
        err=True,
    )


class AppContext:
    def __init__(self, db: str | None):
        self.db = db
        self._engine = None
        self._created: Path | None = None  # the SQLite file this command created, if any

    @property
    def engine(self):
        if self._engine is None:
            from .store import open_store
            from .store.sql import sqlite_path

            path = sqlite_path(self.db)
            if path is not None and not path.exists():
                self._created = path
            self._engine = open_store(self.db, on_upgrade=_say_upgrading)
        return self._engine

    def discard_if_new(self) -> None:
        """The command failed: a store file it created, still without an edition, goes
        (store/sql.py: discard_unused_store), so a mistyped first ingest leaves nothing."""
        if self._created is None:
            return
        from .store.sql import discard_unused_store

        if self._engine is not None:
            self._engine.dispose()
        discard_unused_store(self._created)
        self._created = None

    @property
    def store_file(self) -> Path | None:
        """The store's SQLite file (None for PostgreSQL): outputs must never overwrite it."""
        from .store.sql import store_file

        return store_file(self.db)

    def check_outputs(self, *outputs: tuple[str, Path | None]) -> None:
        """Before any work: refuse outputs naming the store or each other (output.py)."""
        from .output import check_outputs

        check_outputs(outputs, store=self.store_file)

    def session(self, *, write: bool = True):
        """A transaction on the store; ``write=False`` for reads, which never wait for an
        ingest running in another process."""
        from .store import session_scope

        return session_scope(self.engine, write=write)

    @contextmanager
    def read(self):
        """A read transaction for a report. Reads never write: an alignment the store lacks
        (or that an older mtgrules made) is computed in memory, and when that took long a
        note on stderr says which `mtgrules align ... --store` keeps it."""
        from .align.storage import noting_unstored

        with noting_unstored() as notes, self.session(write=False) as s:
            yield s
            rules = [n.what[5:] for n in notes if n.what.startswith("rule ")]
            if rules:
                from .reports.common import older_alignments

                if older_alignments(s):
                    _say_older_alignments(rules)
                    return
        _say_unstored(notes)

    @contextmanager
    def reader(self):
        """A read transaction for show and search. A current, non-empty SQLite store is read
        straight through sqlite3 (no SQLAlchemy import: store/sql.py says why); anything
        else (PostgreSQL, a new or empty store, one needing a migration) takes the usual
        session, which migrates or ingests the bundled corpus first."""
        from .store.migrate import SCHEMA_HEAD
        from .store.sql import open_lite, sqlite_path

        path = sqlite_path(self.db)
        if path is not None:
            with open_lite(path, SCHEMA_HEAD) as lite:
                if lite is not None:
                    yield lite
                    return
        self.ensure_data()
        # A pure read: it neither waits for nor blocks an ingest (store/session.py).
        with self.session(write=False) as s:
            yield s

    def read_light(self, work):
        """``work(session)`` for a report that reads only what the store holds (update, export
        xliff, drift, trace): on a current, non-empty SQLite store through sqlite3 (no SQLAlchemy import,
        a quarter of such a command's time: store/sql.py), else, or when the work declines
        that path halfway (it needs an alignment the store lacks, computed in memory), in the
        usual read transaction, which migrates or ingests the bundled corpus first."""
        from .store.migrate import SCHEMA_HEAD
        from .store.sql import LiteDeclined, open_lite, sqlite_path

        path = sqlite_path(self.db)
        if path is not None:
            try:
                with open_lite(path, SCHEMA_HEAD) as lite:
                    if lite is not None:
                        return work(lite)
            except LiteDeclined:
                pass  # nothing was written; the same work again, on the usual session
        self.ensure_data()
        with self.read() as s:
            return work(s)

    def ensure_data(self) -> None:
        """A newcomer's first command works: an empty store gets the bundled corpus first."""
        from .store.queries import store_is_empty

        with self.session(write=False) as s:
            if not store_is_empty(s):
                return
        # Only now: the ingest's modules cost every read 0.03 s of CPU to import.
        from .align.plan import ingest_and_align
        from .ingest import BUNDLED_CORPUS

        _say(
            f"The store is empty: ingesting the bundled corpus ({BUNDLED_CORPUS}) first...",
            err=True,
        )
        with self.session() as s:
            report = ingest_and_align(s, [BUNDLED_CORPUS])
        _say(
            f"Ingested {_count(report.editions_added, 'edition')}, "
            f"{_count(report.clauses_added, 'clause')} (revision {report.revision_id}); "
            f"aligned {_count(len(report.alignments.aligned), 'pair')} of editions.",
            err=True,
        )


# In-memory alignment beyond this (seconds, in all) is worth a note on how to store it.
UNSTORED_NOTE_FROM = 1.0


def _say_older_alignments(rules: list[str]) -> None:
    """One note on stderr when a rule was aligned in memory because the store's alignments
    are an older aligner's: the history then stays within the rule, whatever it took."""
    _say(
        f"mtgrules: note: the store's alignments were made by another version of mtgrules, "
        f"so rule {rules[0]} was aligned in memory, within the rule, and a clause renumbered "
        f"from another rule shows as new; run `mtgrules ingest` to redo them (a read never "
        f"writes the store)",
        err=True,
    )


def _say_unstored(notes) -> None:
    """One note on stderr when a read aligned in memory for long (reads never write)."""
    seconds = sum(n.seconds for n in notes)
    if not notes or seconds < UNSTORED_NOTE_FROM:
        return
    names = ", ".join(n.what for n in notes[:3])
    if len(notes) > 3:
        names += f" and {len(notes) - 3} more"
    one = len(notes) == 1
    if one and notes[0].what.startswith("rule "):
        how = f"mtgrules align {notes[0].what[5:]} --store"
    elif one:
        how = "mtgrules align --editions " + notes[0].what.replace(" -> ", " ") + " --store"
    else:
        how = "mtgrules align --store (every pair of editions the commands read)"
    _say(
        f"mtgrules: note: {names} {'is' if one else 'are'} not in the store (or {'was' if one else 'were'}"
        f" stored by another version of mtgrules) and {'was' if one else 'were'} aligned in "
        f"memory ({seconds:.1f} s), as a read never writes the store; to keep "
        f"{'it' if one else 'them'}: {how}",
        err=True,
    )


pass_app = click.make_pass_decorator(AppContext)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="URL|PATH",
    envvar="MTGRULES_DB",
    help="The store: a SQLite file path or a SQLAlchemy URL (postgresql://...). "
    "Default: $MTGRULES_DB, else a file in your user data folder.",
)
@click.version_option(__version__, prog_name="mtgrules")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Corpus, aligner and diff tool for the Magic: The Gathering Comprehensive Rules.

    Ingest editions in any language and format (text, PDF, Word, RTF, web and wiki pages),
    then compare, align and search them. Start with: mtgrules show 107.3
    """
    ctx.obj = AppContext(db)


# Each command's examples, printed by --help one per line as written (click's \b: no
# rewrapping), so that each can be copied whole; none longer than 76 columns, none using a
# command of one operating system only. tests/test_cli.py checks both.
EXAMPLES: dict[str, list[str]] = {
    "ingest": [
        "mtgrules ingest",
        "mtgrules ingest rules.pdf",
        "mtgrules ingest ~/cr-archive/",
        "mtgrules ingest --lang pt-BR regras.pdf",
    ],
    "editions": ["mtgrules editions", "mtgrules editions --as-of 1"],
    "show": [
        "mtgrules show 107.3",
        "mtgrules show 107.3 --all",
        "mtgrules show 107.3g --lang fr",
    ],
    "remove": ["mtgrules remove en-2006-10-01-glossary", "mtgrules editions --as-of 1"],
    "history": ["mtgrules history"],
    "align": [
        "mtgrules align 107.3",
        "mtgrules align --editions en-2018-10-05 en-2019-10-04",
        "mtgrules align --date es-page-es-107.3",
        "mtgrules align --store",
        "mtgrules align --check",
    ],
    "drift": [
        "mtgrules drift 107.3",
        "mtgrules drift --edition zh-Hans-2022-06-10",
        "mtgrules drift 107.3 --format html -o report.html",
    ],
    "update": [
        "mtgrules update zh-Hans-2022-06-10",
        "mtgrules update zh-Hans-2022-06-10 --to en-2026-01-16",
        "mtgrules update zh-Hans-2022-06-10 --format html -o update.html",
    ],
    "diff": [
        "mtgrules diff en-2018-10-05 en-2019-10-04",
        "mtgrules diff en-2009-07-11 en-2026-01-16 --rule 107.3",
    ],
    "trace": ["mtgrules trace 107.3g"],
    "tmx": ["mtgrules export tmx --target-lang fr --rule 107.3 -o fr.tmx"],
    "xliff": ["mtgrules export xliff zh-Hans-2022-06-10 -o job.xlf"],
    "site": ["mtgrules site -o site/"],
    "cite": ["mtgrules cite src/ --against en-2026-02-27", "mtgrules cite notes.md --fix"],
    "fetch": [
        "mtgrules fetch",
        "mtgrules fetch --check",
        "mtgrules fetch --site site/",
        "mtgrules fetch --url https://magic.wizards.com/en/rules --timeout 60",
    ],
    "search": [
        "mtgrules search stack",
        'mtgrules search "coût de mana" --lang fr',
        "mtgrules search 107.3g",
        'mtgrules search "규칙 702.19b"',
        'mtgrules search "can a tapped creature block"',
    ],
}


def examples(name: str) -> str:
    """The epilog of command ``name``: its examples, each on a line of its own."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])


def _as_of_option(f):
    return click.option(
        "--as-of", type=int, metavar="REVISION", help="Read the store as it was at this revision."
    )(f)


@cli.command(epilog=examples("ingest"))
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--lang",
    "language",
    metavar="TAG",
    help="The language of the rules in these files (BCP 47: de, pt-BR, zh-Hant...), "
    "instead of detecting it.",
)
@click.option(
    "--archive",
    "whole_archive",
    is_flag=True,
    help="Also ingest the English archive packed inside mtgrules: all 110 editions, "
    "2003-2026 (the whole history, for historians).",
)
@pass_app
def ingest(
    app: AppContext,
    paths: tuple[Path, ...],
    as_json: bool,
    language: str | None,
    whole_archive: bool,
) -> None:
    """Parse rules files or folders (default: the bundled corpus/) into the store.

    Plain text, PDF (with a text layer), DOCX, Word .doc, RTF, HTML, Markdown and wiki
    pages, in any language; the format is read from the content. Files in a folder that
    hold no rules are skipped with a note. Every ingest that changes something is one
    revision, written in one transaction with the alignments its new editions need (each
    translation with its English source, each English edition with the one before it): on
    any error the store is left as it was. Unchanged files are skipped, and pairs already
    aligned are not aligned again. A translation whose English the store lacks gets it from
    the English archive packed inside mtgrules, and the summary says so.
    """
    from collections import Counter

    from .align.plan import ingest_and_align
    from .ingest import BUNDLED_CORPUS
    from .render import table, to_json, wrap
    from .text.language import language_tag

    tag = language_tag(language) if language is not None else None
    targets = list(paths) or ([] if whole_archive else [BUNDLED_CORPUS])
    # One reporter for the whole ingest (mtgrules.progress): the files, then the pairs of
    # editions aligned; shown only on a terminal, once the work has taken 2 s.
    progress = TerminalProgress.for_terminal("ingest", quiet=as_json)

    def tick(path: Path, done: int, total: int) -> None:
        if done <= 1:
            progress.stage("reading files", total)
        progress.advance(1, path.name)

    def tick_pair(planned, done: int, total: int) -> None:
        if done <= 1:
            progress.stage("aligning pairs of editions", total)
        progress.advance(1, f"{planned.a.slug} {planned.b.slug}")

    try:
        with app.session() as s:
            report = ingest_and_align(
                s,
                targets,
                on_file=tick,
                on_pair=tick_pair,
                language=tag,
                whole_archive=whole_archive,
            )
    finally:
        progress.done()
    if as_json:
        click.echo(to_json(report.as_json()))
        return
    width = _width()
    rows = [
        (Path(f.path).name, f.format, f.status, f.editions or "", f.clauses or "")
        for f in report.files
    ]
    _say(table(["file", "format", "status", "editions", "clauses"], rows, width))
    for f in report.files:
        if f.note:
            _say(wrap(f"{Path(f.path).name}: {f.note}", "", width))
    for skipped in report.skipped:
        _say(wrap(f"skipped {skipped.path}: {skipped.reason}", "", width))
    if report.changed:
        flag_text = ", ".join(f"{k} {v}" for k, v in sorted(report.damage.items())) or "none"
        _say(
            "\n"
            + wrap(
                f"Revision {report.revision_id}: {_count(report.editions_added, 'edition')}, "
                f"{_count(report.clauses_added, 'clause')} added; damage flagged: {flag_text}.",
                "",
                width,
            )
        )
    else:
        _say("\nNothing changed: every file is already in the store.")
    run = report.alignments
    if run.aligned or run.removed:
        why = ", ".join(f"{n} {w}" for w, n in sorted(Counter(p.why for p in run.aligned).items()))
        n = len(run.aligned)
        _say(
            wrap(
                f"Aligned {n} pair{'s' if n != 1 else ''} of editions ({why or 'none'}) in "
                f"{run.seconds:.1f} s; {run.kept} already aligned"
                + (f", {run.removed} no longer needed removed." if run.removed else "."),
                "",
                width,
            )
        )


@cli.command(epilog=examples("editions"))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@_as_of_option
@pass_app
def editions(app: AppContext, as_json: bool, as_of: int | None) -> None:
    """List the editions in the store, one row each."""
    from .render import table, to_json
    from .store.queries import list_editions

    app.ensure_data()
    with app.session(write=False) as s:
        infos = list_editions(s, as_of)
    if as_json:
        click.echo(to_json([e.as_json() for e in infos]))
        return
    rows = [
        (e.id, e.slug, e.language, e.kind, e.date or "-", e.rules, e.clauses, ", ".join(e.sources))
        for e in infos
    ]
    # Narrow, the language and kind go first: the edition's name says both (zh-Hans-...,
    # ...-glossary).
    _say(
        table(
            ["id", "edition", "lang", "kind", "date", "rules", "clauses", "source"],
            rows,
            _width(),
            optional=("lang", "kind"),
        )
    )


@cli.command(epilog=examples("show"))
@click.argument("rule")
@click.option(
    "--lang", "language", metavar="L", help="Only editions in this language (en, fr, es, zh...)."
)
@click.option(
    "--edition", metavar="E", help="Only this edition (id, name such as en-2026-01-16, or file)."
)
@click.option(
    "--all", "everything", is_flag=True, help="Every edition that has it, not only today's."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every edition).")
@_as_of_option
@pass_app
def show(
    app: AppContext,
    rule: str,
    language: str | None,
    edition: str | None,
    everything: bool,
    as_json: bool,
    as_of: int | None,
) -> None:
    """Show a rule such as 107.3, with its subrules: today's English and its translations,
    then a line counting the older editions that have it (--all shows them, newest first).

    A label marked * (107.3a*) was inferred by the aligner: the source has none.
    """
    from .align.inferred import show_rule_with_inferred_labels
    from .render import render_show, to_json, use_colour
    from .text.labels import parse_rule_label

    label = parse_rule_label(rule)
    with app.reader() as s:
        result = show_rule_with_inferred_labels(
            s, label, language=language, edition=edition, as_of=as_of
        )
    if as_json:
        click.echo(to_json(result.as_json()))
        return
    _styled(render_show(result.as_json(), use_colour(), _width(), everything=everything))


@cli.command(epilog=examples("remove"))
@click.argument("editions", nargs=-1, required=True, metavar="EDITION...")
@click.option("--json", "as_json", is_flag=True, help="Print what was removed as JSON.")
@pass_app
def remove(app: AppContext, editions: tuple[str, ...], as_json: bool) -> None:
    """Remove editions from the store (ids or names, as mtgrules editions lists them).

    The removal is a new revision: every command stops reading the editions, while
    mtgrules history keeps them and --as-of an earlier revision still reads them. The
    alignments the remaining editions need are brought up to date in the same
    transaction.
    """
    from .remove import remove_editions
    from .render import to_json, wrap

    with app.session() as s:
        report = remove_editions(s, list(editions))
    if as_json:
        click.echo(to_json(report.as_json()))
        return
    names = ", ".join(str(e["slug"]) for e in report.removed)
    n = len(report.removed)
    aligned = report.alignments.get("aligned") or []
    realigned = (
        f"; aligned {len(aligned)} new pair{'s' if len(aligned) != 1 else ''}" if aligned else ""
    )
    _say(
        wrap(
            f"Revision {report.revision_id}: removed {n} edition{'s' if n != 1 else ''} "
            f"({names}){realigned}. The store as it was before: mtgrules editions --as-of "
            f"{report.revision_id - 1}",
            "",
            _width(),
        )
    )


@cli.command(epilog=examples("history"))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def history(app: AppContext, as_json: bool) -> None:
    """List the store's revisions: when, which files, what changed."""
    from .render import table, to_json
    from .store.queries import list_revisions

    with app.session(write=False) as s:
        revisions = list_revisions(s)
    if as_json:
        click.echo(to_json([r.as_json() for r in revisions]))
        return
    if not revisions:
        click.echo("No revisions yet. Run: mtgrules ingest")
        return
    rows = [
        (
            r.id,
            r.when.strftime("%Y-%m-%d %H:%M:%S"),
            r.summary.get("files_changed", 0),
            r.summary.get("editions_added", 0),
            r.summary.get("clauses_added", 0),
            ", ".join(r.summary.get("removed", [])) or "-",
        )
        for r in revisions
    ]
    headers = ["revision", "when (UTC)", "files", "editions", "clauses", "removed"]
    if not any(r.summary.get("removed") for r in revisions):
        headers, rows = headers[:-1], [row[:-1] for row in rows]
    _say(table(headers, rows, _width()))
    for r in revisions:
        for d in r.downloads or []:
            # Last-Modified is the server's date of the file, the publisher's own.
            dated = f", dated {d['last_modified']}" if d.get("last_modified") else ""
            _say(
                f"revision {r.id}: fetched {d['url']} on {d['fetched_at'][:19].replace('T', ' ')} "
                f"UTC (sha256 {d['sha256']}{dated})"
            )


# --- align commands ---


@cli.command(epilog=examples("align"))
@click.argument("rule", required=False)
@click.option(
    "--editions",
    "edition_pair",
    nargs=2,
    metavar="A B",
    help="Align two whole editions (ids or names such as en-2018-10-05 en-2019-10-04).",
)
@click.option(
    "--date",
    "date_of",
    metavar="E",
    help="Which official English editions does edition E match (e.g. es-page-es-107.3).",
)
@click.option(
    "--learn-terms",
    is_flag=True,
    help="With --editions ENGLISH TRANSLATION: propose new termbase entries from the pairs.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Check the stored links: flag each link between differently labelled clauses of "
    "editions that share a date or a document whose content agrees weakly; exit 1 if any.",
)
@click.option("--refresh", is_flag=True, help="Recompute even if a stored alignment exists.")
@click.option(
    "--store",
    is_flag=True,
    help="Keep what RULE or --editions A B computes in the store (otherwise nothing is "
    "written); alone, store every alignment the other commands read, as an ingest does.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_as_of_option
@pass_app
def align(
    app: AppContext,
    rule: str | None,
    edition_pair: tuple[str, str] | None,
    date_of: str | None,
    learn_terms: bool,
    check: bool,
    refresh: bool,
    store: bool,
    as_json: bool,
    as_of: int | None,
) -> None:
    """Align a rule such as 107.3 across every edition and language, or two whole editions.

    Each clause is paired by content (numbers, symbols, game terms, cognates, labels), with
    a score and the evidence. Nothing is written unless --store is given (alone, it stores
    every alignment the other commands read). --check prints one line per suspicious
    stored link, then a summary, and exits 1 if any.
    """
    from .align.report import as_jsonable, render, run_align
    from .render import fit, to_json

    if check:
        from .errors import QueryError

        if rule or edition_pair or date_of or learn_terms or refresh or store or as_of is not None:
            raise QueryError("--check takes no rule, edition or other mode: mtgrules align --check")
        from .align.check import check_links, render_check

        app.ensure_data()
        with app.session(write=False) as s:
            result = check_links(s)
        if as_json:
            click.echo(to_json(result.as_json()))
        else:
            _say(fit(render_check(result), _width()))
        if result.found:
            sys.exit(1)
        return
    app.ensure_data()
    # Learning terms stores its proposals; --store keeps the alignment; anything else reads.
    with app.session() if store or learn_terms else app.read() as s:
        mode, result = run_align(
            s,
            rule=rule,
            editions=edition_pair or None,
            date=date_of,
            as_of=as_of,
            refresh=refresh,
            learn_terms=learn_terms,
            store=store,
        )
    if as_json:
        click.echo(to_json(as_jsonable(mode, result)))
    else:
        _say(fit(render(mode, result), _width()))


# --- drift, diff, trace and export commands ---


def _report_options(f):
    f = click.option(
        "-o",
        "--output",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Write the report to this file instead of the terminal.",
    )(f)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json", "md", "html"]),
        default="text",
        show_default=True,
        help="text for the terminal, json, md (Markdown) or html (one self-contained page).",
    )(f)


def _exit_code_option(f):
    return click.option(
        "--exit-code",
        is_flag=True,
        help="Exit 1 when differences are found, 0 when none (as git diff --exit-code).",
    )(f)


def _write_file(path: Path, text: str) -> None:
    from .output import write_file

    write_file(path, text)


def _emit(kind: str, report, fmt: str, output: Path | None) -> None:
    from .render import use_colour
    from .reports import render_report

    colour = output is None and use_colour()
    text = render_report(kind, report, fmt, colour=colour, width=_width())
    if output is None:
        if fmt == "text":
            _styled(text)  # sanitised by render_report, its colour codes its own
        else:
            # JSON escapes controls itself; Markdown and HTML are data for another program
            # when piped, and sanitised only when a person reads them on the terminal.
            click.echo(text if fmt == "json" or not sys.stdout.isatty() else _visible(text))
        return
    _write_file(output, text if text.endswith("\n") else text + "\n")
    _say(f"Wrote {output}", err=True)


@cli.command(epilog=examples("drift"))
@click.argument("rule", required=False)
@click.option(
    "--edition", metavar="E", help="A whole edition: every rule it lacks or adds (no RULE)."
)
@click.option(
    "--reference",
    metavar="R",
    help="Compare against this edition. Default: for RULE the newest English edition, "
    "for --edition the English edition it follows.",
)
@click.option("--lang", "language", metavar="L", help="Only editions in this language (columns).")
@_report_options
@_exit_code_option
@_as_of_option
@pass_app
def drift(
    app: AppContext,
    rule: str | None,
    edition: str | None,
    reference: str | None,
    language: str | None,
    fmt: str,
    output: Path | None,
    exit_code: bool,
    as_of: int | None,
) -> None:
    """Coverage of RULE in every edition: what each lacks or renumbered (drift 107.3).

    One row per clause of the reference, one column per edition, then for each edition the
    clauses it lacks (with the text to translate), its renumberings, and QA checks.
    """
    from .errors import QueryError

    if (rule is None) == (edition is None):
        raise QueryError(
            "give a rule (mtgrules drift 107.3) or a whole edition (mtgrules drift --edition E)"
        )
    app.check_outputs(("-o", output))
    if rule is not None:
        from .reports.drift import rule_drift
        from .text.labels import parse_rule_label

        label = parse_rule_label(rule)
        report = app.read_light(
            lambda s: rule_drift(s, label, reference=reference, language=language, as_of=as_of)
        )
        kind = "rule_drift"
    else:
        from .reports.drift import edition_drift

        assert edition is not None
        report = app.read_light(
            lambda s: edition_drift(s, edition, reference=reference, as_of=as_of)
        )
        kind = "edition_drift"
    _emit(kind, report, fmt, output)
    if exit_code and report.has_differences():
        sys.exit(1)


@cli.command(epilog=examples("update"))
@click.argument("translation")
@click.option(
    "--to",
    "target",
    metavar="N",
    help="The English edition to bring the translation up to. Default: the newest.",
)
@click.option(
    "--source",
    metavar="S",
    help="The English edition the translation was made from, if the store cannot tell "
    "(default: its own English, the English of its date, else the one it fits best).",
)
@_report_options
@_exit_code_option
@_as_of_option
@pass_app
def update(
    app: AppContext,
    translation: str,
    target: str | None,
    source: str | None,
    fmt: str,
    output: Path | None,
    exit_code: bool,
    as_of: int | None,
) -> None:
    """What a translation must change to follow a newer English edition.

    The translation is compared with the English it was made from, and that English with
    the newer one: each clause of the newer English is unchanged, changed (with the word
    diff beside the current translation), new, or renumbered; dropped clauses are removed.
    """
    from .reports.update import update_report

    app.check_outputs(("-o", output))
    report = app.read_light(
        lambda s: update_report(s, translation, to=target, source=source, as_of=as_of)
    )
    _emit("update", report, fmt, output)
    if exit_code and report.has_differences():
        sys.exit(1)


@cli.command(epilog=examples("diff"))
@click.argument("a")
@click.argument("b")
@click.option("--rule", metavar="RULE", help="Only this rule and its subrules (e.g. 107.3).")
@_report_options
@_exit_code_option
@_as_of_option
@pass_app
def diff(
    app: AppContext,
    a: str,
    b: str,
    rule: str | None,
    fmt: str,
    output: Path | None,
    exit_code: bool,
    as_of: int | None,
) -> None:
    """Word-level differences from edition A to edition B of one language.

    A renumbered clause shows as a move; new and removed clauses are listed.
    """
    from .reports.diff import edition_diff
    from .text.labels import parse_rule_label

    label = parse_rule_label(rule) if rule else None
    app.check_outputs(("-o", output))
    report = app.read_light(lambda s: edition_diff(s, a, b, rule=label, as_of=as_of))
    _emit("diff", report, fmt, output)
    if exit_code and report.has_differences():
        sys.exit(1)


@cli.command(epilog=examples("trace"))
@click.argument("rule")
@_report_options
@_as_of_option
@pass_app
def trace(app: AppContext, rule: str, fmt: str, output: Path | None, as_of: int | None) -> None:
    """Follow one clause through time and languages, with the dates it changed."""
    from .reports.trace import trace_clause
    from .text.labels import parse_rule_label

    label = parse_rule_label(rule)
    app.check_outputs(("-o", output))
    report = app.read_light(lambda s: trace_clause(s, label, as_of=as_of))
    _emit("trace", report, fmt, output)


@cli.group()
def export() -> None:
    """Export aligned text for other tools (translation memories)."""


@export.command("tmx", epilog=examples("tmx"))
@click.option(
    "--source-lang",
    "source_lang",
    default="en",
    show_default=True,
    metavar="L",
    help="The language of the source side.",
)
@click.option(
    "--target-lang", "target_lang", metavar="L", help="The language of the target side: fr, zh..."
)
# The names of an earlier mtgrules: --source is the English edition a translation was made
# from in update and export xliff, so here it names nothing any more (one name, one meaning).
@click.option("--source", "old_source", hidden=True)
@click.option("--target", "old_target", hidden=True)
@click.option("--rule", metavar="RULE", help="Only this rule and its subrules (e.g. 107.3).")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the TMX to this file (default: the terminal).",
)
@_as_of_option
@pass_app
def export_tmx(
    app: AppContext,
    source_lang: str,
    target_lang: str | None,
    old_source: str | None,
    old_target: str | None,
    rule: str | None,
    output: Path | None,
    as_of: int | None,
) -> None:
    """Aligned clause pairs as TMX 1.4, with rule labels and edition dates as <prop>s."""
    from .errors import QueryError
    from .reports.tmx import tmx_units, write_tmx
    from .text.labels import parse_rule_label
    from .text.xmlchars import XmlCleaner

    if old_source is not None or old_target is not None:
        raise QueryError(
            "export tmx names its languages --source-lang and --target-lang (--source is "
            "the English edition of update): mtgrules export tmx --target-lang "
            f"{old_target or 'fr'}"
        )
    if target_lang is None:
        raise QueryError("give the target language: mtgrules export tmx --target-lang fr")

    label = parse_rule_label(rule) if rule else None
    app.check_outputs(("-o", output))
    app.ensure_data()
    with app.read() as s:
        units, info = tmx_units(s, source_lang, target_lang, rule=label, as_of=as_of)
    cleaner = XmlCleaner()
    text = write_tmx(units, source_lang, cleaner)
    if output is None:
        click.echo(text, nl=False)
    else:
        _write_file(output, text)
        _say(f"Wrote {info['units']} translation units to {output}", err=True)
    if cleaner.total:
        _say(f"Note: {cleaner.summary()} (each segment says which).", err=True)


@export.command("xliff", epilog=examples("xliff"))
@click.argument("translation")
@click.option(
    "--to", "target", metavar="N", help="The English edition to update to (default: newest)."
)
@click.option("--source", metavar="S", help="The English the translation was made from, if needed.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the XLIFF to this file (default: the terminal); the TMX goes beside it.",
)
@click.option(
    "--tmx",
    "tmx_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write the unchanged pairs as TMX (default: -o with .tmx).",
)
@_as_of_option
@pass_app
def export_xliff(
    app: AppContext,
    translation: str,
    target: str | None,
    source: str | None,
    output: Path | None,
    tmx_path: Path | None,
    as_of: int | None,
) -> None:
    """The update job for a CAT tool: XLIFF 1.2 with one unit per new or changed clause,
    and the unchanged pairs as a TMX translation memory.

    """
    from .output import write_files
    from .reports.update import update_report
    from .reports.xliff import unchanged_memory, write_xliff
    from .text.xmlchars import XmlCleaner

    tmx_option = "--tmx"
    if tmx_path is None and output is not None:
        tmx_path = output.with_suffix(".tmx")
        tmx_option = "the TMX (-o with .tmx)"
    # -o job.tmx would put the memory over the job; -o k.xlf --tmx k.xlf likewise.
    app.check_outputs(("-o", output), (tmx_option, tmx_path))
    report = app.read_light(
        lambda s: update_report(s, translation, to=target, source=source, as_of=as_of)
    )
    cleaner = XmlCleaner()
    xliff = write_xliff(report, cleaner)
    memory, pairs = unchanged_memory(report, cleaner)
    if output is None:
        click.echo(xliff, nl=False)
    # Both or neither: a failure leaves the previous job and memory as they were.
    write_files([(p, data) for p, data in ((output, xliff), (tmx_path, memory)) if p is not None])
    counts = report.counts()
    where = f" to {output}" if output else ""
    memo = f"; {pairs} unchanged pairs to {tmx_path}" if tmx_path else ""
    _say(
        f"Wrote {counts['new'] + counts['changed']} units ({counts['new']} new, "
        f"{counts['changed']} to review){where}{memo}",
        err=True,
    )
    if cleaner.total:
        _say(f"Note: {cleaner.summary()} (each unit says which).", err=True)


# --- the website ---


@cli.command(epilog=examples("site"))
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="The folder to write the site to (created if missing).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into a folder that is not a site made by mtgrules (its other files stay).",
)
@pass_app
def site(app: AppContext, output: Path, force: bool) -> None:
    """Write a static website of the rules' history to DIR.

    One page per edition (its changes since the one before), one per rule of today's
    rules (each wording and when it held, where it came from, its translations), charts,
    and a search page. It works from file:// and any static host. A rebuild rewrites only
    the pages that changed; a build that was interrupted is finished by the next. Then
    open DIR/index.html in a browser.
    """
    from .site.build import build_site

    progress = TerminalProgress.for_terminal("site")
    # No bundled corpus on an empty store here: a site of editions nobody chose would be a
    # surprise; build_site says what to ingest instead.
    try:
        with app.read() as s:
            report = build_site(s, output, force=force, progress=progress)
    finally:
        progress.done()
    if report.up_to_date:
        _say(
            f"{output} is up to date: the store and mtgrules are as at its last build "
            f"({report.files} files, checked in {report.seconds.get('total', 0):.1f} s). "
            f"Open {output / 'index.html'}"
        )
        return
    resumed = " (an interrupted build, finished)" if report.resumed else ""
    _say(
        f"Wrote {len(report.written)} of {report.files} files to {output}{resumed} "
        f"({report.unchanged} unchanged, {len(report.removed)} removed): "
        f"{_count(report.editions, 'edition')}, {_count(report.rule_pages, 'rule page')}, in "
        f"{report.seconds.get('total', 0):.1f} s. Open {output / 'index.html'}"
    )


# --- citations in other texts ---


@cli.command(epilog=examples("cite"))
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--against",
    metavar="EDITION",
    help="The edition to check against (default: the newest English in the store).",
)
@click.option(
    "--written-for",
    "written_for",
    metavar="EDITION|DATE",
    help="The edition the texts were written for (a date: the edition in force then). "
    "Default: inferred from where their citations best exist and fit.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every citation as JSON.")
@click.option(
    "--fix",
    is_flag=True,
    help="Print a unified diff that renumbers the renumbered citations (files are never "
    "edited; apply it with git apply or patch -p1).",
)
@pass_app
def cite(
    app: AppContext,
    paths: tuple[str, ...],
    against: str | None,
    written_for: str | None,
    as_json: bool,
    fix: bool,
) -> None:
    """Check the rule numbers that files cite ("CR 702.19b", "see rule 601.2f", "规则702.19b").

    PATH: files or folders (source code, Markdown, HTML, text, PDF, DOCX; "-" for standard
    input). Each citation is current, renumbered (with its new number), removed (the last
    edition that had it), never-existed (with the nearest numbers), or quote-mismatch (the
    quotation beside it is not that rule's words). Exit code 1 when any citation is not
    current, 2 when a path cannot be read.
    """
    from .cite.render import citation_lines, file_heading, is_shown, json_chunks, summary_line
    from .cite.run import CiteRun, Skipped

    if fix and as_json:
        raise click.UsageError("--fix prints a diff; give it without --json")
    progress = TerminalProgress.for_terminal("cite")
    stage_now: list[str] = []

    def tick(path: str, done: int) -> None:
        if not stage_now:
            stage_now.append("checking files")
            progress.stage(stage_now[0])
        progress.advance(item=str(path))

    out = click.get_binary_stream("stdout") if fix else None

    def said(results):
        """The results, each skipped path told on stderr as it comes (an unreadable one
        always; a binary file's note in text mode, where JSON lists it under skipped); a
        file named on the command line is told by the run's error at the end."""
        for result in results:
            if isinstance(result, Skipped) and result.named:
                pass
            elif isinstance(result, Skipped) and (result.unreadable or not as_json):
                kind = "error" if result.unreadable else "note"
                progress.done()
                _say(f"mtgrules: {kind}: {result.path}: {result.reason}; skipped.", err=True)
            yield result

    with app.reader() as db:
        run = CiteRun(
            db,
            list(paths),
            against=against,
            written_for=written_for,
            fix=fix,
            on_file=tick,
        )
        results = said(run.results())
        if as_json:
            for chunk in json_chunks(run, results):
                click.echo(chunk, nl=False)
        else:
            for result in results:
                if isinstance(result, Skipped):
                    continue
                if fix:
                    if result.fix:
                        out.write(result.fix)
                        out.flush()
                    elif result.note:
                        _say(f"mtgrules: note: {result.path}: {result.note}", err=True)
                    continue
                lines = ["\n".join(citation_lines(c)) for c in result.citations if is_shown(c)]
                if lines:
                    progress.done()
                    if result.written_for.inferred:
                        # Each file is read as written for its own edition: say which.
                        _say(file_heading(result))
                for line in lines:
                    _say(line)  # quotes from the files read: through the sanitiser
        progress.done()
        if not as_json:
            line = summary_line(run)
            if fix:
                line += f" The diff replaces {run.summary.fixes or 0:,} numbers."
            _say(line, err=fix)
        error = run.named_error()
        if error is not None:
            raise error  # one line, exit code 2 (_Group)
    sys.exit(run.exit_code())


# --- a new edition from the web ---


@cli.command(epilog=examples("fetch"))
@click.option(
    "--url",
    default="https://magic.wizards.com/en/rules",
    show_default=True,
    metavar="PAGE",
    help="The rules page to read (a mirror, or a test server).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Only say whether a new edition is out: exit 0 up to date, 1 new edition (nothing "
    "is downloaded or written).",
)
@click.option(
    "--site",
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="After fetching a new edition, rebuild the site in DIR (only pages that changed).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 600),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait for the server to connect or send.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_app
def fetch(
    app: AppContext,
    url: str,
    check: bool,
    site: Path | None,
    timeout: float,
    as_json: bool,
) -> None:
    """Download the Comprehensive Rules the publisher's page links, if the store lacks them.

    Finds the rules documents the page links (the TXT, then the PDF and DOCX of the same
    edition), downloads the new ones (asking conditionally: an unchanged file is not
    downloaded again) and ingests them. Then reports what changed since the previous
    English, which translations now lag it, and with --site rebuilds the site. Network
    problems leave the store unchanged (exit code 5); a --url that is not an http or https
    URL is refused before anything is read (exit code 2).
    """
    from .fetch.http import page_url
    from .fetch.render import render_fetch
    from .fetch.run import check_for_new_edition, fetch_rules
    from .render import to_json

    url = page_url(url)  # a malformed --url is refused before the store is opened (exit 2)
    if check:
        checked = app
        if app.store_file is not None and not app.store_file.exists():
            # A check is a read, and reads never write: a store file that is not there yet
            # holds no edition, so the check runs against an empty store in memory instead
            # of creating the file.
            checked = AppContext("sqlite://")
        with checked.session(write=False) as s:
            report = check_for_new_edition(s, url=url, timeout=timeout)
    else:
        progress = TerminalProgress.for_terminal("fetch", quiet=as_json)
        try:
            with app.session() as s:
                report = fetch_rules(s, url=url, site=site, timeout=timeout, progress=progress)
        finally:
            progress.done()
    if as_json:
        click.echo(to_json(report.as_json()))
    else:
        _say(render_fetch(report, _width()))  # names and URLs from the web: sanitised
    if check and report.status == "new-edition":
        sys.exit(1)


# --- search commands ---


@cli.command(epilog=examples("search"), context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1)
@click.option(
    "--lang", "language", metavar="L", help="Only hits in this language (en, fr, es, zh...)."
)
@click.option(
    "--edition", metavar="E", help="Only this edition (id, name such as en-2026-01-16, or file)."
)
@click.option(
    "--kind",
    type=click.Choice(["rules", "glossary", "commentary"]),
    help="Only rules (with headings and examples), glossary entries, or commentary.",
)
@click.option(
    "--limit", type=click.IntRange(1, 500), default=20, show_default=True, help="At most N hits."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_as_of_option
@pass_app
def search(
    app: AppContext,
    query: tuple[str, ...],
    language: str | None,
    edition: str | None,
    kind: str | None,
    limit: int,
    as_json: bool,
    as_of: int | None,
) -> None:
    """Find QUERY (words in any language, or a rule number such as 107.3g) in every edition.

    Case, accents and Traditional/Simplified Chinese do not matter; typos fall back to a
    fuzzy search. Each hit shows its clauses in the other languages beneath it. A question
    in players' words works too; a rule cited with the word "rule" of a language (Regel,
    règle, 규칙, ルール) comes in that language first.
    """
    from .render import to_json, use_colour
    from .search import search as run_search
    from .search.render import render_search

    _refuse_unknown_options(query)
    hint = None
    with app.reader() as s:
        result = run_search(
            s,
            " ".join(query),
            language=language,
            edition=edition,
            kind=kind,
            limit=limit,
            as_of=as_of,
        )
        if not result.hits and result.mode == "rule" and not as_json:
            from .store.queries import rule_not_found

            where = f" in {edition or language}" if (edition or language) else ""
            hint = str(rule_not_found(s, result.words[0], as_of=as_of, where=where))
    if as_json:
        click.echo(to_json(result.as_json()))
        return
    _styled(render_search(result, use_colour(), _width(), hint=hint))


# A query word may open with a minus: "-1/-1 counters", "-X/-0", "-2". Click reads those as
# options, so search lets unknown options through (ignore_unknown_options) and refuses here
# only what is no power and toughness (text/fold.py reads those) nor a number: a mistyped
# option ("--limt") must still fail.
def _refuse_unknown_options(words: tuple[str, ...]) -> None:
    for word in words:
        if word.startswith("-") and not word[1:].isdigit():
            from .text.fold import spell_power_toughness

            if spell_power_toughness(word.lower()) == word.lower():
                raise click.NoSuchOption(word.split("=", 1)[0], ctx=click.get_current_context())


def main() -> None:
    import gc

    # What is alive now (click, this module) lives until exit: frozen, the collector no
    # longer walks it on each full collection. 20M of the 505M instructions `search stack`
    # executed over python (valgrind, bench_startup.py --instructions).
    gc.freeze()
    cli(prog_name="mtgrules")


if __name__ == "__main__":
    main()
