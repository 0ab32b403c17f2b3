"""Every JSON output of the `mtgrules` command against its shipped JSON Schema.

Each case runs the real command on the real corpus store (the session's shared one; a new
store for the ingest that writes a revision) and validates its JSON with jsonschema
(draft 2020-12, formats checked). Broken documents, made from the same real outputs, must
fail: that is what shows the schemas say something.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from mtgrules.errors import NotFoundError
from mtgrules.schemas import load_schema, schema_names

from .conftest import ON_PG, ROOT, SEEDS, pg_create_database, pg_drop_database, run_cli

ABSENT = object()  # in `expect`: this key must not be there

# (case id, command arguments, schema, store, {JSON pointer: value} the case is about).
# store: "corpus" is the session's shared corpus store, "new" an empty one. The expectations
# only make sure each case exercises what its id says (checked by hand against the code).
CASES: list[tuple[str, tuple[str, ...], str, str, dict[str, Any]]] = [
    ("ingest-nothing-new", ("ingest", "--json"), "ingest", "corpus", {"/revision": None}),
    ("ingest-revision", ("ingest", "--json", str(SEEDS)), "ingest", "new", {"/revision": 1}),
    ("editions", ("editions", "--json"), "editions", "corpus", {"/0/slug": "en-2006-02-01"}),
    ("show", ("show", "107.3", "--json"), "show", "corpus", {"/rule": "107.3"}),
    ("show-lang", ("show", "107.3g", "--lang", "fr", "--json"), "show", "corpus", {}),
    ("history", ("history", "--json"), "history", "corpus", {"/0/id": 1}),
    # On a store of the seeds from which one edition was removed first (removal_store).
    (
        "remove",
        ("remove", "es-001_6b17ef9efd2fae21", "--json"),
        "remove",
        "removal",
        {"/removed/0/language": "es"},
    ),
    (
        "history-removal",
        ("history", "--json"),
        "history",
        "removal",
        {"/1/summary/removed": ["fr-000_0b7a9445b617ebdb"]},
    ),
    ("align-rule", ("align", "107.3", "--json"), "align-rule", "corpus", {"/rule": "107.3"}),
    (
        # The pair diff compares below: diff reads the alignment these two store.
        "align-editions-computed",
        ("align", "--editions", "en-2018-10-05", "en-2019-10-04", "--refresh", "--json"),
        "align-editions",
        "corpus",
        {"/stats/links": ABSENT},
    ),
    (
        "align-editions-stored",
        ("align", "--editions", "en-2018-10-05", "en-2019-10-04", "--json"),
        "align-editions",
        "corpus",
        {"/b/slug": "en-2019-10-04"},
    ),
    (
        # Every pair the plan wants is stored in the corpus store already: none to align.
        "align-stored",
        ("align", "--store", "--json"),
        "align-stored",
        "corpus",
        {"/aligned": [], "/removed": 0},
    ),
    (
        "align-date-rules",
        ("align", "--date", "es-page-es-107.3", "--json"),
        "align-date",
        "corpus",
        {"/rules": ["107.3"]},
    ),
    (
        "align-date-glossary",
        ("align", "--date", "en-2006-10-01-glossary", "--json"),
        "align-date",
        "corpus",
        {"/rules": []},
    ),
    ("drift-rule", ("drift", "107.3", "--format", "json"), "drift-rule", "corpus", {}),
    (
        "drift-rule-lang",
        ("drift", "107.3", "--lang", "fr", "--format", "json"),
        "drift-rule",
        "corpus",
        {},
    ),
    (
        "drift-edition",
        ("drift", "--edition", "zh-Hans-2022-06-10", "--format", "json"),
        "drift-edition",
        "corpus",
        {"/reference/slug": "en-2022-06-10"},
    ),
    (
        "drift-edition-page",
        ("drift", "--edition", "fr-forum-fr-107.3", "--format", "json"),
        "drift-edition",
        "corpus",
        {"/reference/slug": "en-forum-fr-107.3"},
    ),
    (
        # The pair drift-edition just aligned: learning reads it back from the store.
        "align-learn-terms",
        ("align", "--editions", "en-2022-06-10", "zh-Hans-2022-06-10", "--learn-terms", "--json"),
        "align-terms",
        "corpus",
        {"/0/language": "zh-Hans"},
    ),
    (
        "diff",
        ("diff", "en-2018-10-05", "en-2019-10-04", "--format", "json"),
        "diff",
        "corpus",
        {"/rule": None},
    ),
    (
        "diff-rule",
        ("diff", "en-2018-10-05", "en-2019-10-04", "--rule", "107.3", "--format", "json"),
        "diff",
        "corpus",
        {"/rule": "107.3"},
    ),
    (
        # Added clauses with the lineage's ancestors (107.3 from the glossary entry "X").
        "diff-came-from",
        ("diff", "en-2009-05-01", "en-2026-01-16", "--rule", "107.3", "--format", "json"),
        "diff",
        "corpus",
        {"/changes/0/came_from/0/term": "X"},
    ),
    ("trace", ("trace", "107.3g", "--format", "json"), "trace", "corpus", {"/key": "107.3g"}),
    (
        "update",
        ("update", "zh-Hans-2025-11-14", "--to", "en-2026-01-16", "--format", "json"),
        "update",
        "corpus",
        {"/source/slug": "en-2025-11-14", "/source/how": "same-date"},
    ),
    (
        # Exit code 1: the small files' citations include stale ones.
        "cite",
        ("cite", str(ROOT / "tests" / "fixtures" / "cite"), "--json"),
        "cite",
        "corpus",
        {"/target/slug": "en-2026-01-16", "/citations/0/status": "current"},
    ),
    ("search-text", ("search", "stack", "--json"), "search", "corpus", {"/mode": "text"}),
    ("search-rule", ("search", "107.3g", "--json"), "search", "corpus", {"/mode": "rule"}),
    (
        "search-fuzzy",
        ("search", "stakc", "--json"),
        "search",
        "corpus",
        {"/fuzzy_words/stakc/0": "stack"},
    ),
]


def _broken_drift_rule(doc: dict) -> None:
    del doc["summary"]


def _broken_drift_edition(doc: dict) -> None:
    doc["checks"][0]["severity"] = "fatal"


def _broken_diff(doc: dict) -> None:
    # An added clause has no old text, so it cannot have a word diff.
    added = next(c for c in doc["changes"] if c["kind"] == "added")
    added["words"] = [{"op": "insert", "a": "", "b": added["b_text"]}]


def _broken_align_editions(doc: dict) -> None:
    inserted = next(p for p in doc["pairs"] if p["kind"] == "inserted")
    inserted["a"] = inserted["b"]
    doc["pairs"] = [inserted]  # the other 3,000 pairs only slow the validation down


def _broken_align_rule(doc: dict) -> None:
    member = doc["groups"][0]["members"][1]
    via = next(e for e in member["evidence"] if e["feature"] == "via")
    via["value"] = "guesswork"


def _broken_search(doc: dict) -> None:
    doc["hits"][0]["aligned"][0]["via"] = "guesswork"


def _broken_editions(doc: list) -> None:
    doc[0]["date"] = "2006-02-30"  # only format checking can see this one


def _broken_ingest(doc: dict) -> None:
    doc["flags"]["username"] = 7  # page furniture, not damage


def _broken_show(doc: dict) -> None:
    doc["editions"][0]["clauses"][0]["norm"] = "an extra key"


def _broken_history(doc: list) -> None:
    doc[0]["created_at"] = "yesterday"


def _broken_trace(doc: dict) -> None:
    reworded = next(s for s in doc["english"] if s["event"] == "reworded")
    del reworded["words"]


def _broken_align_date(doc: dict) -> None:
    doc["range"] = doc["range"][:1]


def _broken_align_terms(doc: list) -> None:
    doc[0]["dice"] = 1.5


def _broken_cite(doc: dict) -> None:
    # A renumbered citation must say its number now.
    renumbered = next(c for c in doc["citations"] if c["status"] == "renumbered")
    renumbered["now"] = None


# (case id whose real output is broken, how, the schema keyword that must catch it)
def _broken_remove(doc: dict) -> None:
    doc["removed"] = []  # a removal removes at least one edition


def _broken_update(doc: Any) -> None:
    doc["clauses"][0]["status"] = "translated"  # not one of the five statuses


BROKEN: list[tuple[str, Callable[[Any], None], str]] = [
    ("update", _broken_update, "enum"),
    ("cite", _broken_cite, "type"),
    ("drift-rule", _broken_drift_rule, "required"),
    ("drift-edition", _broken_drift_edition, "enum"),
    ("diff", _broken_diff, "false"),
    ("align-editions-stored", _broken_align_editions, "type"),
    ("align-rule", _broken_align_rule, "enum"),
    ("search-text", _broken_search, "enum"),
    ("editions", _broken_editions, "format"),
    ("ingest-revision", _broken_ingest, "enum"),
    ("show", _broken_show, "additionalProperties"),
    ("history", _broken_history, "pattern"),
    ("remove", _broken_remove, "minItems"),
    ("trace", _broken_trace, "required"),
    ("align-date-rules", _broken_align_date, "minItems"),
    ("align-learn-terms", _broken_align_terms, "maximum"),
]

CASE_BY_ID = {case[0]: case for case in CASES}


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(
        load_schema(name), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def pointer(doc: Any, path: str) -> Any:
    """The value at a JSON pointer, or ABSENT."""
    for part in path.strip("/").split("/"):
        if isinstance(doc, list):
            index = int(part)
            if index >= len(doc):
                return ABSENT
            doc = doc[index]
        elif isinstance(doc, dict):
            if part not in doc:
                return ABSENT
            doc = doc[part]
        else:
            return ABSENT
    return doc


@pytest.fixture(scope="module")
def new_store_ref(tmp_path_factory) -> Iterator[str]:
    """An empty store for the one ingest that writes a revision."""
    if not ON_PG:
        yield str(tmp_path_factory.mktemp("schemas-new") / "new.sqlite")
        return
    url = pg_create_database()
    yield url
    pg_drop_database(url)


@pytest.fixture(scope="module")
def removal_store(tmp_path_factory) -> Iterator[str]:
    """The seeds ingested, then one edition removed (revision 2)."""
    if not ON_PG:
        ref = str(tmp_path_factory.mktemp("schemas-removal") / "removal.sqlite")
    else:
        ref = pg_create_database()
    assert run_cli("ingest", str(SEEDS), db=ref).returncode == 0
    assert run_cli("remove", "fr-000_0b7a9445b617ebdb", db=ref).returncode == 0
    yield ref
    if ON_PG:
        pg_drop_database(ref)


@pytest.fixture(scope="module")
def outputs(corpus_db, new_store_ref, removal_store) -> Callable[[str], Any]:
    """The parsed JSON of a case, run once per module (the broken-document tests reuse it)."""
    cache: dict[str, Any] = {}

    def get(case_id: str) -> Any:
        if case_id not in cache:
            _, args, _, store, _ = CASE_BY_ID[case_id]
            db = {"corpus": corpus_db, "new": new_store_ref, "removal": removal_store}[store]
            result = run_cli(*args, db=db)
            # cite exits 1 when a citation is not current, as diff --exit-code does.
            assert result.returncode in ((0, 1) if args[0] == "cite" else (0,)), result.stderr
            cache[case_id] = json.loads(result.stdout)
        return copy.deepcopy(cache[case_id])

    return get


@pytest.mark.parametrize(
    "case_id,schema,expect", [(c[0], c[2], c[4]) for c in CASES], ids=[c[0] for c in CASES]
)
def test_output_matches_its_schema(outputs, case_id: str, schema: str, expect: dict) -> None:
    doc = outputs(case_id)
    errors = [f"{e.json_path}: {e.message[:200]}" for e in validator(schema).iter_errors(doc)]
    assert not errors, "\n".join(errors[:10])
    for path, value in expect.items():
        found = pointer(doc, path)
        assert found is value if value is ABSENT else found == value, (path, found)


@pytest.mark.parametrize("case_id,breaks,keyword", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_document_fails(outputs, case_id: str, breaks, keyword: str) -> None:
    doc = outputs(case_id)  # valid: test_output_matches_its_schema checks the same output
    breaks(doc)
    errors = list(validator(CASE_BY_ID[case_id][2]).iter_errors(doc))
    assert errors, "the broken document passed"
    # The error (or one beneath a oneOf) is the one the breakage should cause.
    seen = {_keyword(e) for top in errors for e in _walk(top)}
    assert keyword in seen, ([e.message[:100] for e in errors], seen)


def _walk(error: ValidationError) -> Iterator[ValidationError]:
    yield error
    for sub in error.context or ():
        yield from _walk(sub)


def _keyword(error: ValidationError) -> str:
    # A `false` schema (a key that must not be there) has no keyword of its own.
    return "false" if error.validator is None else str(error.validator)


@pytest.mark.parametrize("name", schema_names())
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:mtgrules:schema:{name}"
    assert schema["title"].startswith("mtgrules ") and schema["description"]


# Schemas of outputs that need more than a store, validated by their own tests.
VALIDATED_ELSEWHERE = {"fetch": "tests/test_fetch.py (its output needs an HTTP server)"}


def test_every_schema_is_used_by_a_case_and_every_case_has_a_schema() -> None:
    used = {case[2] for case in CASES}
    assert used | set(VALIDATED_ELSEWHERE) == set(schema_names())
    assert len(schema_names()) == 18


def test_shared_shapes_are_the_same_in_every_schema() -> None:
    """Each file stands alone (its own $defs), so a shared shape is copied: keep the copies
    identical."""
    seen: dict[str, tuple[str, Any]] = {}
    for name in schema_names():
        for key, shape in load_schema(name).get("$defs", {}).items():
            if key in seen:
                assert shape == seen[key][1], f"$defs/{key} differs in {name} and {seen[key][0]}"
            else:
                seen[key] = (name, shape)


def test_enums_follow_the_code() -> None:
    from mtgrules.align.model import PAIR_KINDS
    from mtgrules.model import CLAUSE_KINDS, EDITION_KINDS
    from mtgrules.store.queries import DAMAGE_FLAGS

    defs = load_schema("align-editions")["$defs"]
    assert defs["pair_kind"]["enum"] == list(PAIR_KINDS)
    assert defs["clause_kind"]["enum"] == list(CLAUSE_KINDS)
    fields = defs["edition_fields"]["properties"]
    assert fields["kind"]["enum"] == list(EDITION_KINDS)
    assert load_schema("ingest")["$defs"]["damage_flag"]["enum"] == list(DAMAGE_FLAGS)


@pytest.mark.parametrize("name", ["nope", "../pyproject", "ingest.schema"])
def test_an_unknown_schema_name_is_a_clear_error(name: str) -> None:
    with pytest.raises(NotFoundError, match="the schemas are: align-date"):
        load_schema(name)
