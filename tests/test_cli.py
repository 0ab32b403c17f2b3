"""The `mtgrules` command as a user runs it: real processes, real stores, JSON contracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_cli


def _command_paths(group=None, prefix=()):
    """Every command of the real CLI, subcommands too (export tmx): none can be left out."""
    from mtgrules.cli import cli

    group = group or cli
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        yield path
        if hasattr(command, "commands"):
            yield from _command_paths(command, path)


COMMANDS = list(_command_paths())

# (arguments, expected exit code, text the one stderr line must hold)
ERROR_CASES = [
    (["show", "banana"], 2, "not a rule label"),
    (["show", "999.9z"], 3, "has never existed"),
    (["show", "107.3", "--lang", "de"], 3, "no de edition"),
    (["show", "107.3", "--edition", "en-1999-01-01"], 3, "no edition 'en-1999-01-01'"),
    (["editions", "--as-of", "99"], 3, "no revision 99"),
    (["show"], 2, "Missing argument 'RULE'"),
    (["editions", "--as-of", "soon"], 2, "'soon' is not a valid integer"),
]


def test_help_is_instant_and_imports_nothing_heavy():
    code = (
        "import sys; from mtgrules.cli import cli;"
        "from click.testing import CliRunner;"
        "r = CliRunner().invoke(cli, ['--help']);"
        "assert r.exit_code == 0, r.output;"
        "heavy = [m for m in ('spacy', 'sqlalchemy', 'alembic', 'rapidfuzz', 'opencc') if m in sys.modules];"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _dataclasses_without_docstring() -> list[str]:
    import ast

    package = Path(__file__).resolve().parents[1] / "mtgrules"
    missing = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ClassDef)
                and any("dataclass" in ast.unparse(d) for d in node.decorator_list)
                and ast.get_docstring(node) is None
            ):
                missing.append(f"{path.relative_to(package)}:{node.name}")
    return missing


def test_every_dataclass_has_its_own_docstring():
    """Start-up (issue 22): for a class without one, Python 3.11's dataclass builds a
    docstring with inspect.signature, about as costly as the rest of the class's creation;
    search imports some twenty of them."""
    assert _dataclasses_without_docstring() == []


def test_the_command_list_is_complete():
    names = {" ".join(c) for c in COMMANDS}
    assert {"ingest", "editions", "show", "history", "align", "drift", "diff", "trace"} <= names
    assert {"search", "export", "export tmx"} <= names


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help(command):
    result = run_cli(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert f"Usage: mtgrules {' '.join(command)}" in result.stdout
    assert len(result.stdout.splitlines()) > 4


def test_version():
    result = run_cli("--version")
    assert result.returncode == 0 and "mtgrules" in result.stdout


def test_editions_json(corpus_db: Path):
    result = run_cli("editions", "--json", db=corpus_db)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    for row in rows:
        assert {"id", "language", "kind", "date", "source", "clauses"} <= row.keys()
    newest = [r for r in rows if r["language"] == "en" and r["date"] == "2026-01-16"]
    assert (
        len(newest) == 1
        and newest[0]["kind"] == "rules"
        and newest[0]["source"] == "cr-en-2026-01-16"
    )
    glossary = [r for r in rows if r["kind"] == "glossary"]
    assert [(g["language"], g["date"]) for g in glossary] == [("en", "2006-10-01")]


def test_show_json_contract(corpus_db: Path):
    result = run_cli("show", "107.3", "--json", db=corpus_db)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rule"] == "107.3"
    by_source = {}
    for ed in data["editions"]:
        assert {"id", "language", "kind", "date", "source", "clauses"} <= ed.keys()
        for c in ed["clauses"]:
            assert {"label", "text", "kind"} <= c.keys()
            assert c["kind"] in {"rule", "example", "heading", "glossary", "commentary", "noise"}
        by_source.setdefault(ed["source"], []).append(ed)
    # Editions before July 2009 numbered the X rule 104.3c: they have no 107.3.
    assert "cr-en-2006-10-01" not in by_source
    (spanish,) = by_source["page-es-107.3"]
    # The page's 14 unlabelled subrules carry the labels the aligner inferred at ingest,
    # flagged as inferred (the page itself has no l and no o: see test_align's gold).
    inferred = [
        c["label"] for c in spanish["clauses"] if c["kind"] == "rule" and c["label_inferred"]
    ]
    assert inferred == [f"107.3{ch}" for ch in "abcdefghijkmnp"]
    assert not [c for c in spanish["clauses"] if c["kind"] == "rule" and c["label"] is None]
    (newest,) = [ed for ed in data["editions"] if ed["source"] == "cr-en-2026-01-16"]
    labels = [c["label"] for c in newest["clauses"] if c["kind"] == "rule"]
    assert labels == ["107.3"] + [f"107.3{ch}" for ch in "abcdefghijkmnp"]
    # 107.30 and later are other rules, not subrules of 107.3.
    assert all(
        label is None or len(label) <= 6
        for ed in data["editions"]
        for label in [c["label"] for c in ed["clauses"]]
    )


def test_show_filters(corpus_db: Path):
    result = run_cli("show", "107.3g", "--lang", "fr", "--json", db=corpus_db)
    data = json.loads(result.stdout)
    assert [ed["language"] for ed in data["editions"]] == ["fr"]
    assert data["editions"][0]["clauses"][0]["text"].startswith("Toutes les occurrences de X")
    text = run_cli("show", "107.3", "--edition", "zh-Hans-2026-01-16", db=corpus_db)
    assert text.returncode == 0 and "一些物件上除了会使用字母X以外" in text.stdout


def test_history_json(corpus_db: Path):
    data = json.loads(run_cli("history", "--json", db=corpus_db).stdout)
    assert len(data) == 1
    rev = data[0]
    assert rev["id"] == 1 and len(rev["files"]) == 27
    assert all(len(f["sha256"]) == 64 for f in rev["files"])


@pytest.mark.parametrize("args,code,message", ERROR_CASES)
def test_errors_are_one_line(corpus_db: Path, args, code, message):
    result = run_cli(*args, db=corpus_db)
    assert result.returncode == code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_bad_db_url_is_one_line(tmp_path: Path):
    result = run_cli("--db", "nosuchdialect://x/y", "editions")
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    folder = run_cli("--db", str(tmp_path), "editions")
    assert folder.returncode == 4 and "is a folder" in folder.stderr


# The README's first command, a whole ingest of the corpus; CI's wheel step runs it again
# from the installed wheel, and the slow step runs this test.
@pytest.mark.slow
def test_first_command_on_an_empty_store_ingests_the_bundled_corpus(empty_db: Path):
    result = run_cli("show", "107.3", "--lang", "es", db=empty_db)
    assert result.returncode == 0, result.stderr
    assert "ingesting the bundled corpus" in result.stderr
    again = run_cli("show", "107.3", "--lang", "es", db=empty_db)
    assert "ingesting" not in again.stderr


# --- help examples ---------------------------------------------------------------------------

HELP_COMMANDS = [
    (name, name.split())
    for name in (
        "ingest",
        "editions",
        "show",
        "remove",
        "history",
        "align",
        "drift",
        "update",
        "diff",
        "trace",
        "site",
        "search",
        "cite",
    )
] + [("tmx", ["export", "tmx"]), ("xliff", ["export", "xliff"])]


@pytest.mark.parametrize("columns", ["60", "80"])
@pytest.mark.parametrize(("key", "command"), HELP_COMMANDS, ids=[k for k, _ in HELP_COMMANDS])
def test_help_examples_are_whole_lines_that_parse(
    key: str, command: list[str], columns: str
) -> None:
    """Each example of --help is printed on one line as written, whatever the width, so
    that it can be copied; it parses as a command (its options exist); none is longer than
    76 columns or uses a command of one operating system (open, pbcopy)."""
    import shlex

    from mtgrules.cli import EXAMPLES, cli

    result = run_cli(*command, "--help", env={"COLUMNS": columns})
    assert result.returncode == 0
    lines = [line.strip() for line in result.stdout.splitlines()]
    for example in EXAMPLES[key]:
        assert example in lines, (example, result.stdout[-400:])
        assert len(example) <= 76
        words = shlex.split(example)
        assert words[0] == "mtgrules" and not {"open", "pbcopy", "xdg-open"} & set(words)
        ctx = cli.make_context("mtgrules", words[1:])
        sub, rest = ctx.command, _unparsed(ctx)
        while rest:  # down the command groups: export, then xliff
            name, cmd, rest = sub.resolve_command(ctx, rest)
            ctx = cmd.make_context(name, rest, parent=ctx)  # a bad option raises here
            sub, rest = cmd, (_unparsed(ctx) if hasattr(cmd, "commands") else [])


def _unparsed(ctx) -> list[str]:
    """What a group left for its subcommand (click 8 keeps it in protected_args)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return [*getattr(ctx, "protected_args", []), *ctx.args]


# A rule number as people type or paste it: show, trace and align read it as they read
# 107.3a (before: "'１０７．３ａ' is not a rule label").
TYPED_LABELS = ["１０７．３ａ", "１０７.３ａ", "107\u200b.3a", "\ufeff107.3a", "107.3a\u2060"]


@pytest.mark.parametrize(
    "command", [["show", "--json"], ["trace", "--format", "json"], ["drift", "--format", "json"]]
)
@pytest.mark.parametrize(
    "typed", TYPED_LABELS, ids=[t.encode("unicode_escape").decode() for t in TYPED_LABELS]
)
def test_a_rule_number_typed_full_width_or_with_invisibles(corpus_db, command, typed):
    proc = run_cli(command[0], typed, *command[1:], db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    assert "107.3a" in proc.stdout


def test_an_error_shows_the_invisible_characters_it_quotes(corpus_db):
    """'107.3zz' with a zero-width space printed as '107.3zz': the reader could not see
    why the two differed."""
    proc = run_cli("show", "10\u200b7.3zz", db=corpus_db)
    assert proc.returncode == 2
    assert "10\\u200b7.3zz" in proc.stderr and "\u200b" not in proc.stderr
    proc = run_cli("diff", "en-2026\u200b-01-16", "en-2025-11-14", db=corpus_db)
    assert proc.returncode == 3 and "en-2026\\u200b-01-16" in proc.stderr
