"""`mtgrules fetch`: a new edition from the publisher's rules page, into the store.

Read the rules page (conditionally: an unchanged page answers 304 and its links are the
ones stored), find the Comprehensive Rules documents it links (fetch/links.py), download
the new ones (TXT first, then the PDF and DOCX of the same edition, which ingest records as
other sources of it), and ingest them as any file, with their URL as their origin, in one
transaction with the downloads' record: any failure leaves the store as it was.

Then say what a user wants to know: what changed since the previous English (diff), which
translations now lag it (each with its `mtgrules update` command), and, with a site folder,
rebuild the site (only the pages that changed are written).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..errors import FetchError, MtgRulesError, NotFoundError
from ..progress import SILENT, Progress
from ..record import OPTIONAL, Record
from ..store.downloads import DownloadRecord, last_download, save_downloads
from ..store.queries import EditionInfo, list_editions
from .http import EXAMPLE_URL, Client, Fetched, page_url
from .links import RulesLink, choose, file_link, rules_links

DEFAULT_URL = EXAMPLE_URL
TOP_CHANGES = 12  # changes of the diff shown in the report


@dataclass
class FetchedFile(Record):
    """A rules document a fetch downloaded (or tried to): its status, and what ingest made of it."""

    url: str
    name: str
    format: str  # txt, pdf, docx
    status: str  # downloaded | not-modified (304) | unchanged (the same bytes again) | failed
    size: int | None = None
    sha256: str | None = None
    ingest: str | None = field(default=None, metadata=OPTIONAL)  # added, same-edition...
    error: str | None = field(default=None, metadata=OPTIONAL)  # why a PDF or DOCX failed


@dataclass
class Lagging(Record):
    """A translation made from an older English than the new edition."""

    translation: str
    follows: str
    command: str


@dataclass
class FetchReport(Record):
    """What a fetch (or `fetch --check`) found at a rules page and did: the documents it links, the
    files downloaded and, for a new edition, what changed since the previous English, the
    translations that now lag it and the site rebuilt."""

    url: str
    status: str  # up-to-date | fetched | new-edition (with --check)
    message: str
    links: list[RulesLink]
    files: list[FetchedFile] = field(default_factory=list)
    revision: int | None = None
    edition: EditionInfo | None = None  # the newest English after the fetch
    previous: EditionInfo | None = None  # the English edition before it
    changes: dict[str, int] | None = None  # diff's summary, previous -> edition
    top: list[dict[str, Any]] = field(default_factory=list)  # its first changes
    lagging: list[Lagging] = field(default_factory=list)
    site: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        out["links"] = [
            {"url": link.url, "format": link.format, "date": link.date, "text": link.text}
            for link in self.links
        ]
        for key in ("edition", "previous"):
            value = getattr(self, key)
            out[key] = value.header_json() if value is not None else None
        return out


def _page_links(client: Client, session: Session, url: str, progress: Progress = SILENT):
    """(the page as fetched, the rules documents it links, what to record of it).

    An address that is itself a rules document (a mirror's "MagicCompRules 20260227.txt")
    is its own one link: nothing is read before it."""
    direct = file_link(url)
    if direct is not None:
        return None, [direct], None
    before = last_download(session, url)
    page = client.get(
        url,
        etag=before.etag if before else None,
        last_modified=before.last_modified if before else None,
        progress=progress,
        label="reading the rules page",
    )
    if page.not_modified and before is not None and before.links is not None:
        links = [RulesLink(**link) for link in before.links]
        return page, links, None
    html = _decode_page(page)
    links = rules_links(html, page.final_url)
    if not links:
        raise NotFoundError(
            f"{url}: the page links no Comprehensive Rules document (a .txt, .pdf or .docx "
            "named for the rules); give the rules page with --url"
        )
    record = DownloadRecord(
        url,
        page.final_url,
        "page",
        page.etag,
        page.last_modified,
        page.sha256,
        len(page.body or b""),
        _now(),
        links=[link.__dict__ for link in links],
    )
    return page, links, record


def _decode_page(page: Fetched) -> str:
    charset = "utf-8"
    if page.content_type and "charset=" in page.content_type:
        charset = page.content_type.split("charset=")[-1].split(";")[0].strip() or "utf-8"
    try:
        return (page.body or b"").decode(charset, errors="replace")
    except LookupError:
        return (page.body or b"").decode("utf-8", errors="replace")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def check_for_new_edition(
    session: Session, *, url: str = DEFAULT_URL, timeout: float | None = None
) -> FetchReport:
    """Is a newer edition linked than the store holds? Reads the page (and asks about the
    TXT with a conditional HEAD), downloads no rules document and writes nothing."""
    url = page_url(url)
    with _client(timeout) as client:
        page, links, _record = _page_links(client, session, url)
        chosen = choose(links)
        txt = chosen[0]
        infos = list_editions(session)
        before = last_download(session, txt.url)
        if page is None and before is None:
            # The address of a file, not of a page: that it is there is asked too.
            client.get(txt.url, head=True)
        if before is not None:
            probe = client.get(
                txt.url, etag=before.etag, last_modified=before.last_modified, head=True
            )
            same = probe.not_modified or (probe.etag is not None and probe.etag == before.etag)
            if same:
                return FetchReport(
                    url, "up-to-date", f"up to date: {txt.name} is the one fetched last", links
                )
            return FetchReport(
                url, "new-edition", f"a new version of {txt.name} is out: run mtgrules fetch", links
            )
        held = _held(infos, txt)
        if held is not None:
            return FetchReport(
                url, "up-to-date", f"up to date: the store has {held.slug} ({txt.name})", links
            )
        return FetchReport(
            url,
            "new-edition",
            f"a new edition is out: {txt.name}"
            + (f" ({txt.date})" if txt.date else "")
            + "; run: mtgrules fetch",
            links,
        )


def _held(infos: list[EditionInfo], link: RulesLink) -> EditionInfo | None:
    """The store's English edition a linked document is, by its date or its file name."""
    for e in infos:
        if (
            e.language == "en"
            and e.kind == "rules"
            and ((link.date and e.date == link.date) or link.name in e.sources)
        ):
            return e
    return None


def _client(timeout: float | None) -> Client:
    return Client(timeout=timeout) if timeout is not None else Client()


def fetch_rules(
    session: Session,
    *,
    url: str = DEFAULT_URL,
    site: Path | None = None,
    timeout: float | None = None,
    progress: Progress = SILENT,
) -> FetchReport:
    """Fetch what the rules page links that the store lacks, and ingest it (see the module).
    ``progress`` hears of each stage: the page, each download (in bytes), the ingest, the
    site."""
    from ..align.plan import ingest_and_align
    from ..ingest import Source

    url = page_url(url)
    with _client(timeout) as client:
        _page, links, page_record = _page_links(client, session, url, progress)
        files: list[FetchedFile] = []
        downloaded: list[tuple[RulesLink, Fetched]] = []
        got_at: dict[str, dt.datetime] = {}  # when each file came
        records: list[DownloadRecord] = [page_record] if page_record else []
        for n, link in enumerate(choose(links)):
            before = last_download(session, link.url)
            try:
                got = client.get(
                    link.url,
                    etag=before.etag if before else None,
                    last_modified=before.last_modified if before else None,
                    progress=progress,
                    label=f"downloading {link.name}",
                )
            except FetchError as exc:
                if n == 0:
                    raise  # the edition's own text (the TXT when linked): nothing to ingest
                # A PDF or DOCX beside it is another source of the same edition: the edition
                # is fetched without it, and the report says why.
                files.append(
                    FetchedFile(link.url, link.name, link.format, "failed", error=str(exc))
                )
                continue
            if got.not_modified:
                files.append(FetchedFile(link.url, link.name, link.format, "not-modified"))
                continue
            got_at[link.url] = _now()
            body = got.body or b""
            if before is not None and before.sha256 == got.sha256:
                files.append(
                    FetchedFile(
                        link.url, link.name, link.format, "unchanged", len(body), got.sha256
                    )
                )
                continue
            files.append(
                FetchedFile(link.url, link.name, link.format, "downloaded", len(body), got.sha256)
            )
            downloaded.append((link, got))
    if not downloaded:
        if page_record is not None:
            # A page that changed (a new layout) but links nothing new: kept, so that the
            # next run asks for it conditionally too.
            save_downloads(session, [page_record])
        infos = list_editions(session)
        newest = _newest_english(infos)
        held = _held(infos, choose(links)[0])
        what = held.slug if held else (newest.slug if newest else "nothing")
        return FetchReport(
            url,
            "up-to-date",
            f"up to date: nothing new at {url} (the store has {what})",
            links,
            files,
            edition=newest,
        )
    sources = [
        Source(Path(link.name), {"name": link.name, "origin": link.url}, named=True, data=got.body)
        for link, got in downloaded
    ]
    progress.stage(f"ingesting {', '.join(link.name for link, _ in downloaded)}")
    try:
        report = ingest_and_align(session, [], sources=sources)
    except MtgRulesError as exc:
        # "a link to a file that is not rules": say which link it was.
        raise type(exc)(f"{exc} (downloaded from {downloaded[0][0].url})") from None
    by_name = {Path(f.path).name: f for f in report.files}
    for f in files:
        outcome = by_name.get(f.name)
        if outcome is not None:
            f.ingest = outcome.status
    for link, got in downloaded:
        records.append(
            DownloadRecord(
                link.url,
                got.final_url,
                "file",
                got.etag,
                got.last_modified,
                got.sha256,
                len(got.body or b""),
                got_at[link.url],
                revision_id=report.revision_id,
            )
        )
    if page_record is not None:
        page_record.revision_id = report.revision_id
    save_downloads(session, records)
    out = FetchReport(
        url,
        "fetched",
        f"fetched {len(downloaded)} file{'s' if len(downloaded) != 1 else ''} from {url}",
        links,
        files,
        report.revision_id,
    )
    _what_changed(session, out, report)
    if site is not None:
        from ..site.build import build_site

        progress.stage(f"rebuilding the site in {site}")
        built = build_site(session, site, progress=progress)
        out.site = {
            "output": built.output,
            "written": len(built.written),
            "unchanged": built.unchanged,
            "removed": len(built.removed),
            "files": built.files,
        }
    return out


def _newest_english(infos: list[EditionInfo]) -> EditionInfo | None:
    from ..align.reference import newest_english

    return newest_english(infos)


def _what_changed(session: Session, out: FetchReport, report) -> None:
    """The new English edition, what changed since the one before it, and the translations
    that now lag it."""
    from ..align.choice import stored_choices
    from ..align.reference import followed_english, is_official_english
    from ..reports.diff import edition_diff

    infos = list_editions(session)
    english = sorted((e for e in infos if is_official_english(e)), key=lambda e: e.date or "")
    if not english:
        return
    new = english[-1]
    out.edition = new
    earlier = [e for e in english if (e.date or "") < (new.date or "")]
    if earlier:
        out.previous = earlier[-1]
        diff = edition_diff(session, out.previous.slug, new.slug)
        out.changes = dict(diff.summary)
        out.top = [
            {"kind": c.kind, "from": c.from_label, "to": c.to_label, "gist": c.gist}
            for c in diff.changes
            if c.kind != "notation"
        ][:TOP_CHANGES]
    # The English each translation was made from, as ingest chose it (its document, its date,
    # else its content); a store from before those choices: its document or date.
    by_id = {e.id: e for e in infos}
    choices = stored_choices(session)
    for t in infos:
        if t.language == "en" or t.date is None or t.kind != "rules":
            continue
        choice = choices.get(t.id)
        follows = (
            by_id.get(choice.english_id) if choice is not None and choice.english_id else None
        ) or followed_english(t, infos, None)
        if follows is not None and (follows.date or "") < (new.date or ""):
            out.lagging.append(
                Lagging(t.slug, follows.slug, f"mtgrules update {t.slug} --to {new.slug}")
            )
