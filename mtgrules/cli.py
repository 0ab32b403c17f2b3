"""The `mtgrules` command. Each command parses options, calls one core function, renders.

Only this module imports click. Errors become one stderr line and an exit code here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .errors import MtgRulesError

INTERNAL_ERROR_EXIT = 70


class _Group(click.Group):
    """Turns every MtgRulesError into one line on stderr and its exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except MtgRulesError as exc:
            click.echo(f"mtgrules: error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("mtgrules: interrupted; the store is unchanged.", err=True)
            sys.exit(130)
        except Exception as exc:  # a traceback must never reach a user
            click.echo(
                f"mtgrules: internal error: {type(exc).__name__}: {exc} "
                "(please report it; set MTGRULES_DEBUG=1 for the traceback)",
                err=True,
            )
            import os

            if os.environ.get("MTGRULES_DEBUG"):
                raise
            sys.exit(INTERNAL_ERROR_EXIT)


class AppContext:
    def __init__(self, db: str | None):
        self.db = db
        self._engine = None

    @property
    def engine(self):
        if self._engine is None:
            from .store import open_store

            self._engine = open_store(self.db)
        return self._engine

    def session(self):
        from .store import session_scope

        return session_scope(self.engine)

    def ensure_data(self) -> None:
        """A newcomer's first command works: an empty store gets the bundled corpus first."""
        from .ingest import BUNDLED_CORPUS, ingest_paths
        from .store.queries import store_is_empty

        with self.session() as s:
            if not store_is_empty(s):
                return
        click.echo(
            f"The store is empty: ingesting the bundled corpus ({BUNDLED_CORPUS}) first...",
            err=True,
        )
        with self.session() as s:
            report = ingest_paths(s, [BUNDLED_CORPUS])
        click.echo(
            f"Ingested {report.editions_added} editions, {report.clauses_added} clauses "
            f"(revision {report.revision_id}).",
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

    Ingest editions in English, French, Spanish and Chinese, then compare, align and
    search them. Start with: mtgrules show 107.3
    """
    ctx.obj = AppContext(db)


def _as_of_option(f):
    return click.option(
        "--as-of", type=int, metavar="REVISION", help="Read the store as it was at this revision."
    )(f)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_app
def ingest(app: AppContext, paths: tuple[Path, ...], as_json: bool) -> None:
    """Parse rules files or folders (default: the bundled corpus/) into the store.

    Every ingest that changes something is one revision, written in one transaction:
    on any error the store is left as it was. Unchanged files are skipped.
    """
    from .ingest import BUNDLED_CORPUS, ingest_paths
    from .render import table, to_json
    from .store.queries import DAMAGE_FLAGS

    targets = list(paths) or [BUNDLED_CORPUS]
    show_progress = sys.stderr.isatty() and not as_json
    with app.session() as s:
        if show_progress:
            with click.progressbar(length=0, label="Reading", file=sys.stderr) as bar:
                report = ingest_paths(s, targets, on_file=lambda p: bar.update(1, p.name))
        else:
            report = ingest_paths(s, targets)
    damage = {k: v for k, v in report.flags.items() if k in DAMAGE_FLAGS}
    if as_json:
        click.echo(
            to_json(
                {
                    "revision": report.revision_id,
                    "editions_added": report.editions_added,
                    "clauses_added": report.clauses_added,
                    "flags": damage,
                    "files": [f.__dict__ for f in report.files],
                }
            )
        )
        return
    rows = [(Path(f.path).name, f.status, f.editions or "", f.clauses or "") for f in report.files]
    click.echo(table(["file", "status", "editions", "clauses"], rows))
    if report.changed:
        flag_text = ", ".join(f"{k} {v}" for k, v in sorted(damage.items())) or "none"
        click.echo(
            f"\nRevision {report.revision_id}: {report.editions_added} editions, "
            f"{report.clauses_added} clauses added; damage flagged: {flag_text}."
        )
    else:
        click.echo("\nNothing changed: every file is already in the store.")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@_as_of_option
@pass_app
def editions(app: AppContext, as_json: bool, as_of: int | None) -> None:
    """List the editions in the store, one row each."""
    from .render import table, to_json
    from .store.queries import list_editions

    app.ensure_data()
    with app.session() as s:
        infos = list_editions(s, as_of)
    if as_json:
        click.echo(to_json([e.as_json() for e in infos]))
        return
    rows = [
        (e.id, e.slug, e.language, e.kind, e.date or "-", e.rules, e.clauses, ", ".join(e.sources))
        for e in infos
    ]
    click.echo(table(["id", "edition", "lang", "kind", "date", "rules", "clauses", "source"], rows))


@cli.command()
@click.argument("rule")
@click.option(
    "--lang", "language", metavar="L", help="Only editions in this language (en, fr, es, zh...)."
)
@click.option(
    "--edition", metavar="E", help="Only this edition (id, name such as en-2026-01-16, or file)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_as_of_option
@pass_app
def show(
    app: AppContext,
    rule: str,
    language: str | None,
    edition: str | None,
    as_json: bool,
    as_of: int | None,
) -> None:
    """Show RULE (e.g. 107.3) and its subrules in every edition that has it."""
    from .render import render_show, to_json, use_colour
    from .sources.labels import parse_rule_label
    from .store.queries import show_rule

    label = parse_rule_label(rule)
    app.ensure_data()
    with app.session() as s:
        result = show_rule(s, label, language=language, edition=edition, as_of=as_of)
    if as_json:
        click.echo(to_json(result))
        return
    click.echo(render_show(result, use_colour()))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def history(app: AppContext, as_json: bool) -> None:
    """List the store's revisions: when, which files, what changed."""
    from .render import table, to_json
    from .store.queries import list_revisions

    with app.session() as s:
        revisions = list_revisions(s)
    if as_json:
        click.echo(to_json(revisions))
        return
    if not revisions:
        click.echo("No revisions yet. Run: mtgrules ingest")
        return
    rows = [
        (
            r["id"],
            r["created_at"][:19].replace("T", " "),
            r["summary"].get("files_changed", 0),
            r["summary"].get("editions_added", 0),
            r["summary"].get("clauses_added", 0),
        )
        for r in revisions
    ]
    click.echo(table(["revision", "when (UTC)", "files", "editions", "clauses"], rows))


# --- align commands (issue 3) ---


# --- drift, diff, trace and export commands (issue 4) ---


# --- search commands (issue 5) ---


def main() -> None:
    cli(prog_name="mtgrules")


if __name__ == "__main__":
    main()
