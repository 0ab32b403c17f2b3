"""One clause's line through time and languages (the X clause: glossary 2006, 104.3c,
107.3f in 2009, 107.3g today, and its translations), with the dates it changed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import NotFoundError, QueryError
from ..record import OPTIONAL, Record, key
from ..store.queries import EditionInfo, glossary_terms, list_editions, rule_not_found
from ..text.labels import rule_of
from .common import RULE_KINDS, followed_english, is_translation, newest_english
from .worddiff import changed, similarity, summarize, word_diff

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass
class Span(Record):
    """A stretch of official English editions in which the clause kept one label and wording,
    on one track: the numbered rule, or the glossary sentences that carried it."""

    track: str  # rule | glossary
    from_date: str | None = field(metadata=key("from"))
    to_date: str | None = field(metadata=key("to"))
    editions: list[str]
    label: str | None
    kind: str | None
    text: str
    event: str | None = field(default=None, metadata=OPTIONAL)
    previous_label: str | None = field(default=None, metadata=OPTIONAL)
    words: list[dict[str, Any]] | None = field(default=None, metadata=OPTIONAL)
    gist: str | None = field(default=None, metadata=OPTIONAL)


# The events that end a track: the span after them holds nothing, from its first edition on.
ENDED = ("removed", "left the glossary")


def span_when(span: dict[str, Any], sep: str = "..") -> str:
    """When a span (as_json) held: its first and last editions' dates; an ended track is
    dated by the edition it ended in, as the site shows it."""
    if span["from"] == span["to"] or span.get("event") in ENDED:
        return str(span["from"])
    return f"{span['from']}{sep}{span['to']}"


def span_event(span: dict[str, Any]) -> str:
    """What happened, with the number an ended track had: "left the glossary (was
    glossary: X)" (the site's words too)."""
    event = span.get("event") or ""
    if event in ENDED and span.get("previous_label"):
        return f"{event} (was {span['previous_label']})"
    return event


@dataclass
class Closest(Record):
    """The stretch of official English editions whose wording an English copy is closest to: its
    dates and the clause's label then."""

    from_date: str | None = field(metadata=key("from"))
    to_date: str | None = field(metadata=key("to"))
    label: str | None


@dataclass
class Copy(Record):
    """An English copy outside the official line (a scraped page) and the official wording
    it carries."""

    edition: EditionInfo
    label: str | None
    text: str
    closest: Closest | None
    similarity: float
    words: list[dict[str, Any]] | None = field(default=None, metadata=OPTIONAL)
    gist: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class Translation(Record):
    """The clause in one translation: its label and text there, and the English edition it follows
    with that edition's text of the clause."""

    edition: EditionInfo
    language: str
    label: str | None
    label_inferred: bool
    text: str
    follows: str | None  # the slug of the English edition it was translated from
    source_text: str | None
    event: str | None = field(default=None, metadata=OPTIONAL)  # reworded | unchanged


@dataclass
class Event(Record):
    """One entry of the clause's history, for each span of the official English line: the date the
    span begins, its track, what happened then (appeared, renumbered, reworded...), its label and
    the gist of the change."""

    date: str | None
    track: str
    event: str | None
    label: str | None
    gist: str | None


@dataclass
class Trace(Record):
    """One clause through time (the official English line, copies) and languages."""

    clause: str
    rule: str
    key: str | None
    english: list[Span]
    copies: list[Copy]
    translations: list[Translation]
    events: list[Event]


def _find_group(groups: list[Any], label: str, infos: list[EditionInfo]) -> Any:
    """The group a label names: the one keyed by it, and of several (107.14 of 2012-2016
    was removed, and today's 107.14 is another rule) the one in the newest official English
    edition, as the site places it."""
    rank = {
        e.id: e.date or "" for e in infos if e.language == "en" and e.kind == "rules" and e.date
    }
    keyed = [g for g in groups if g.key == label]
    if keyed:
        return max(
            keyed,
            key=lambda g: max(
                (rank[m.edition] for m in g.members if m.edition in rank and m.kind == "rule"),
                default="",
            ),
        )
    # An older label (107.3f in 2009): the group holding a member that carried it.
    for g in groups:
        if any(m.label == label for m in g.members):
            return g
    return None


def trace_clause(session: Session, label: str, *, as_of: int | None = None) -> Trace:
    from ..align import align_rule

    if "." not in label:
        raise QueryError(f"trace follows one clause; give a rule such as {label}.1 or 107.3g")
    rule = rule_of(label)
    try:
        ra = align_rule(session, rule, as_of=as_of)
    except NotFoundError:
        if rule == label:
            raise
        # The clause asked for, not its rule: "999.9z has never existed", with the nearest
        # numbers of that shape, as `show 999.9z` says them (the same function).
        raise rule_not_found(session, label, as_of=as_of) from None
    infos = list_editions(session, as_of)
    group = _find_group(ra.groups, label, infos)
    if group is None:
        raise NotFoundError(
            f"no clause {label} in any edition; list the clauses of {rule} with: "
            f"mtgrules show {rule}"
        )
    return trace_members(
        label,
        group.key,
        group.members,
        infos,
        lambda ids: keyed_terms(glossary_terms(session, ids)),
    )


# Glossary terms are compared as a reader would: "X" of 2003 is "X" of 2008.
def _term_key(term: str) -> str:
    return " ".join(term.casefold().split())


# The glossary terms of editions (ids): edition id -> {term key: term} (keyed_terms of
# store.queries.glossary_terms, or the site's copy of them read once for every edition).
GlossaryTerms = Callable[[list[int]], dict[int, dict[str, str]]]


def keyed_terms(held: dict[int, set[str]]) -> dict[int, dict[str, str]]:
    """Each edition's glossary terms by their key (the first of its spellings of a key)."""
    out: dict[int, dict[str, str]] = {}
    for edition, terms in held.items():
        keyed = out[edition] = {}
        for term in sorted(terms):
            keyed.setdefault(_term_key(term), term)
    return out


def reach_glossary_entry(
    trace: Trace, members: Iterable[Any], infos: list[EditionInfo], terms_of: GlossaryTerms
) -> None:
    """Take the line back through the glossary entry that first carried the clause.

    The aligner follows wording: 107.3's sentence ("Many cards use the letter X as a
    placeholder...") entered the glossary entry "X" in July 2008, but the entry itself is in
    every edition since 2003. A historian reads the entry as the clause's ancestor, so each
    run of older official English editions holding an entry of that term becomes a span "in
    the glossary entry" (without these words), and the sentence's first span says it was
    added to that entry. Runs are consecutive editions: an edition without the entry ends
    one."""
    glossary = [s for s in trace.english if s.track == "glossary" and s.kind == "glossary"]
    if not glossary:
        return
    first = min(glossary, key=lambda s: s.from_date or "")
    first_ids = {e.id for e in infos if e.slug in set(first.editions[:1])}
    terms = {
        _term_key(m.term)
        for m in members
        if m.kind == "glossary" and m.term and m.edition in first_ids
    }
    official = sorted(
        (e for e in infos if e.language == "en" and e.kind == "rules" and e.date),
        key=lambda e: e.date or "",
    )
    older = [e for e in official if (e.date or "") < (first.from_date or "")]
    if not terms or not older:
        return
    held = terms_of([e.id for e in older])
    runs: list[list[tuple[EditionInfo, str]]] = []
    for info in older:
        keyed = held.get(info.id, {})
        term = min((keyed[k] for k in terms if k in keyed), default=None)
        if term is None:
            if runs and runs[-1]:
                runs.append([])
            continue
        if not runs:
            runs.append([])
        runs[-1].append((info, term))
    spans = []
    for run in (r for r in runs if r):
        term = run[-1][1]
        spans.append(
            Span(
                "glossary",
                run[0][0].date,
                run[-1][0].date,
                [e.slug for e, _ in run],
                f"glossary: {term}",
                "glossary",
                "",
                event="in the glossary entry",
            )
        )
    if not spans:
        return
    if spans[-1].editions[-1] == older[-1].slug and first.event == "appeared in the glossary":
        first.event = "added to the glossary entry"
    trace.english = sorted(
        [*spans, *trace.english], key=lambda sp: (sp.from_date or "", sp.track != "glossary")
    )
    trace.events = [Event(s.from_date, s.track, s.event, s.label, s.gist) for s in trace.english]


def trace_members(
    clause: str,
    key: str | None,
    members: Iterable[Any],
    all_infos: list[EditionInfo],
    terms_of: GlossaryTerms | None = None,
) -> Trace:
    """The Trace of one group of aligned clauses (alignment Members: edition, label, kind,
    text...), however the group was found: align_rule for one rule, or the chain of stored
    edition alignments the site reads for every rule at once. With ``terms_of`` the line
    goes back through the glossary entry that first carried the clause
    (reach_glossary_entry)."""
    members = list(members)
    infos = {e.id: e for e in all_infos}
    per: dict[int, list[Any]] = defaultdict(list)
    for m in members:
        if m.kind in RULE_KINDS:
            per[m.edition].append(m)

    english = _english_line(per, infos, all_infos)
    undated = _undated(per, infos, english)
    translations = _translations(per, infos, all_infos, english)
    events = [Event(s.from_date, s.track, s.event, s.label, s.gist) for s in english]
    trace = Trace(clause, rule_of(clause), key, english, undated, translations, events)
    if terms_of is not None:
        reach_glossary_entry(trace, members, all_infos, terms_of)
    return trace


def _joined(ms: list[Any]) -> str:
    return " ".join(m.text for m in ms)


def _labels(ms: list[Any]) -> str | None:
    labels = []
    for m in ms:
        text = m.label or (f"glossary: {m.term}" if m.kind == "glossary" else None)
        if text and text not in labels:
            labels.append(text)
    return " + ".join(labels) if labels else None


def _english_line(
    per: dict[int, list[Any]], infos: dict[int, EditionInfo], all_infos: list[EditionInfo]
) -> list[Span]:
    """Spans of official English editions with the same label and wording, oldest first.

    Two tracks: the numbered rule, and the glossary sentences that carried the same rule
    before it had a number (and often beside it). Each track has its own events; mixing them
    would read as the text jumping back and forth within one edition.
    """
    dated = sorted(
        (
            infos[eid]
            for eid in per
            if infos[eid].language == "en" and infos[eid].date and infos[eid].kind == "rules"
        ),
        key=lambda e: e.date or "",
    )
    spans: list[Span] = []
    last: dict[str, Span] = {}
    for info in dated:
        for track in ("glossary", "rule"):
            ms = [m for m in per[info.id] if (m.kind == "glossary") == (track == "glossary")]
            if not ms:
                continue
            text, label = _joined(ms), _labels(ms)
            prev = last.get(track)
            if prev and prev.text == text and prev.label == label:
                prev.to_date = info.date
                prev.editions.append(info.slug)
                continue
            span = Span(track, info.date, info.date, [info.slug], label, ms[0].kind, text)
            if prev is None:
                if (
                    track == "rule"
                    and "glossary" in last
                    and last["glossary"].from_date != info.date
                ):
                    span.event = "became a numbered rule"
                else:
                    span.event = "appeared" + (" in the glossary" if track == "glossary" else "")
            else:
                words = word_diff(prev.text, text)
                renumbered = prev.label != label
                reworded = changed(words)
                if renumbered and reworded:
                    span.event = "renumbered and reworded"
                elif renumbered:
                    span.event = "renumbered"
                else:
                    span.event = "reworded"
                span.previous_label = prev.label
                if reworded:
                    span.words = words
                    span.gist = summarize(words)
            spans.append(span)
            last[track] = span
    # A track that stops before the newest edition was dropped then.
    rules_editions = sorted(
        (e for e in all_infos if e.language == "en" and e.kind == "rules" and e.date),
        key=lambda e: e.date or "",
    )
    for track, span in list(last.items()):
        later = [e for e in rules_editions if (e.date or "") > (span.to_date or "")]
        if later:
            spans.append(
                Span(
                    track,
                    later[0].date,
                    later[-1].date,
                    [e.slug for e in later],
                    None,
                    None,
                    "",
                    event="left the glossary" if track == "glossary" else "removed",
                    previous_label=span.label,
                )
            )
    spans.sort(key=lambda sp: (sp.from_date or "", sp.track != "glossary"))
    return spans


def _undated(
    per: dict[int, list[Any]], infos: dict[int, EditionInfo], english: list[Span]
) -> list[Copy]:
    """English copies outside the official line (scraped pages, a glossary page): which
    official wording each carries."""
    out = []
    for eid, ms in per.items():
        info = infos[eid]
        if info.language != "en" or (info.date and info.kind == "rules"):
            continue
        text = _joined(ms)
        best: Span | None = None
        best_sim = 0.0
        for span in english:
            if (span.kind == "glossary") != (ms[0].kind == "glossary"):
                continue
            sim = similarity(span.text, text) if span.text else 0.0
            if sim > best_sim:
                best, best_sim = span, sim
        entry = Copy(
            info,
            _labels(ms),
            text,
            Closest(best.from_date, best.to_date, best.label) if best else None,
            round(best_sim, 3),
        )
        if best is not None:
            entry.words = word_diff(best.text, text)
            entry.gist = summarize(entry.words)
        out.append(entry)
    return out


def _translations(
    per: dict[int, list[Any]],
    infos: dict[int, EditionInfo],
    all_infos: list[EditionInfo],
    english: list[Span],
) -> list[Translation]:
    out = []
    fallback = newest_english(all_infos)
    chosen = sorted(
        (infos[eid] for eid in per if is_translation(infos[eid])),
        key=lambda e: (e.language, e.date is None, e.date or "", e.id),
    )
    previous: dict[str, str] = {}
    for info in chosen:
        ms = per[info.id]
        text = _joined(ms)
        src = followed_english(info, all_infos, fallback)
        entry = Translation(
            info,
            info.language,
            _labels(ms),
            any(m.label_inferred for m in ms),
            text,
            src.slug if src else None,
            _joined(per.get(src.id, [])) if src else None,
        )
        if info.date and info.language in previous:
            entry.event = "reworded" if previous[info.language] != text else "unchanged"
        if info.date:
            previous[info.language] = text
        out.append(entry)
    return out
