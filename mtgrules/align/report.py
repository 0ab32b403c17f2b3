"""What the `align` command prints: one entry point per mode, and plain-text renderings."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..errors import QueryError
from ..store.queries import find_edition, list_editions
from ..text.width import wrap
from .dating import Dating
from .model import EditionAlignment, RuleAlignment


def run_align(
    session: Session,
    *,
    rule: str | None = None,
    editions: tuple[str, str] | None = None,
    date: str | None = None,
    as_of: int | None = None,
    refresh: bool = False,
    learn_terms: bool = False,
    store: bool = False,
) -> tuple[str, Any]:
    """One of: ('rule', RuleAlignment), ('editions', EditionAlignment), ('dating', Dating),
    ('terms', list of learned terms; with --editions ENGLISH TRANSLATION), ('stored',
    AlignmentUpdate: ``store`` alone brings the alignments readers need up to date, as an
    ingest does). Only ``store`` writes what is computed."""
    if learn_terms and not editions:
        raise QueryError(
            "--learn-terms needs the English edition and its translation: "
            "mtgrules align --editions en-2026-01-16 zh-Hans-2026-01-16 --learn-terms"
        )
    modes = sum(x is not None and x != () for x in (rule, editions, date))
    if store and modes == 0:
        if as_of is not None or refresh:
            raise QueryError("--store alone takes no --as-of or --refresh: mtgrules align --store")
        from ..store.search_index import refresh_lineages
        from .plan import update_alignments

        update = update_alignments(session)
        refresh_lineages(session.connection())  # search follows the links just stored
        return "stored", update
    if store and (date is not None or as_of is not None):
        raise QueryError(
            "--store keeps what a RULE or --editions A B computes, as of now: "
            "mtgrules align --editions A B --store"
        )
    if modes != 1:
        raise QueryError(
            "give exactly one of: RULE (e.g. mtgrules align 107.3), --editions A B "
            "(e.g. --editions en-2018-10-05 en-2019-10-04), or --date EDITION; or --store "
            "alone to store every alignment the readers need"
        )
    if rule is not None:
        from ..text.labels import parse_rule_label
        from .storage import align_rule

        return "rule", align_rule(
            session, parse_rule_label(rule), as_of=as_of, refresh=refresh, store=store
        )
    infos = list_editions(session, as_of)
    if editions:
        from .storage import align_editions

        a = find_edition(infos, editions[0])
        b = find_edition(infos, editions[1])
        if a.id == b.id:
            # An edition against itself: every clause matches, and --store would record
            # that as a link between two editions.
            raise QueryError(
                f"--editions names one edition twice ({a.slug}); give two different ones, "
                "e.g. mtgrules align --editions en-2018-10-05 en-2019-10-04"
            )
        if learn_terms:
            from ..termbase import sync_termbase
            from .learning import learn_terms as learn

            sync_termbase(session)
            return "terms", learn(session, a.id, b.id)
        return "editions", align_editions(session, a.id, b.id, refresh=refresh, store=store)
    from .reference import date_edition

    target = find_edition(infos, date or "")
    return "dating", date_edition(session, target.id, as_of=as_of)


def _wrap(text: str, indent: str, width: int = 80) -> str:
    # By display columns (a CJK character takes two); cli.py fits the rest to the terminal.
    return wrap(text, width, indent)


def render_rule(result: RuleAlignment) -> str:
    slugs = {e.id: e.slug for e in [*result.editions, *result.ancestors]}
    lines = [
        f"Rule {result.rule}: {len(result.groups)} groups over {len(result.editions)} editions"
        + (f" and {len(result.ancestors)} older ones" if result.ancestors else "")
        + " (label? = inferred; the score is the link to a newer or reference edition)"
    ]
    for g in result.groups:
        lines.append("")
        lines.append(f"[{g.key or '-'}]")
        for m in g.members:
            label = m.label or (f"glossary {m.term}" if m.term else "-")
            if m.label_inferred:
                label += "?"
            if m.sentence is not None:
                label += f" (sentence {m.sentence + 1})"
            head = f"  {slugs.get(m.edition, m.edition):<26} {label:<24} {m.score:.2f}"
            lines.append(head)
            lines.append(_wrap(m.text[:300] + ("..." if len(m.text) > 300 else ""), "      "))
    return "\n".join(lines)


def render_editions(result: EditionAlignment, *, limit: int = 200) -> str:
    counts = result.counts()
    lines = [
        f"{result.a.slug} -> {result.b.slug}: "
        + ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        + " (pairs: a split or a merge is one pair per part)"
    ]
    # The same count and summary as `mtgrules diff A B` and every other reader.
    numbering = result.renumbering().lines()
    if numbering:
        lines += [numbering[0], *(f"  {line}" for line in numbering[1:]), ""]
    shown = 0
    for p in result.pairs:
        if p.kind == "match" and p.score >= 0.999:
            continue
        if shown >= limit:
            lines.append(f"... ({len(result.pairs)} pairs in all; use --json for every pair)")
            break
        shown += 1
        la = (p.a.label or p.a.kind) if p.a else "-"
        lb = (p.b.label or p.b.kind) if p.b else "-"
        lines.append(f"  {p.kind:<8} {la:>10} -> {lb:<10} {p.score:.2f}")
    return "\n".join(lines)


def render_dating(result: Dating) -> str:
    lines = [result.summary]
    for row in result.candidates:
        mark = "*" if row.matches else " "
        lines.append(f" {mark} {row.date}  fit {row.fit:.3f}  exact {row.exact}/{row.clauses}")
    return "\n".join(lines)


def render_terms(terms: list) -> str:
    lines = [
        f"{len(terms)} proposed terms (stored as learned; review, then add the good ones to "
        "mtgrules/data/termbase.tsv):",
        "english\tlanguage\tform\tdice\tpairs",
    ]
    lines += [t.tsv() for t in terms]
    return "\n".join(lines)


def render_stored(result: Any) -> str:
    aligned = ", ".join(f"{p.a} -> {p.b}" for p in result.aligned[:5])
    more = f" and {len(result.aligned) - 5} more" if len(result.aligned) > 5 else ""
    return (
        f"{result.planned} pairs of editions planned: {result.kept} already stored, "
        f"{len(result.aligned)} aligned and stored"
        + (f" ({aligned}{more})" if aligned else "")
        + f", {result.removed} no longer needed removed; {result.seconds:.1f} s."
    )


def as_jsonable(mode: str, result: Any) -> Any:
    if mode == "terms":
        return [t.as_json() for t in result]
    return result.as_json()


def render(mode: str, result: Any) -> str:
    if mode == "rule":
        return render_rule(result)
    if mode == "editions":
        return render_editions(result)
    if mode == "terms":
        return render_terms(result)
    if mode == "stored":
        return render_stored(result)
    return render_dating(result)
