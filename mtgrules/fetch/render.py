"""How `mtgrules fetch` reports, in text: what it fetched, what changed, who lags.

Laid out to ``width`` columns as every text report is (render.output_width: the terminal's,
$COLUMNS, else 80 when piped): a longer line goes on under its own indent, two columns in."""

from __future__ import annotations

from ..render import PIPE_WIDTH, fit, wrap
from .run import FetchReport

_MARKS = {"changed": "~", "renumbered": ">", "added": "+", "removed": "-"}


def render_fetch(report: FetchReport, width: int = PIPE_WIDTH) -> str:
    return fit(_report_lines(report, width), width)


def _report_lines(report: FetchReport, width: int) -> str:
    failed = [f"{f.name}: not fetched: {f.error}" for f in report.files if f.status == "failed"]
    if report.status != "fetched":
        return "\n".join([report.message[:1].upper() + report.message[1:] + ".", *failed])
    out = []
    for f in report.files:
        if f.status == "failed":
            out.append(f"{f.name}: not fetched: {f.error}")
        elif f.status == "downloaded":
            what = {
                "added": "new",
                "same-edition": "another source of the same edition",
                "new-version": "a new version of an edition in the store",
                "unchanged": "already in the store",
            }.get(f.ingest or "", f.ingest or "")
            out.append(
                f"Fetched {f.name} ({(f.size or 0) / 1000:,.0f} KB, sha256 {(f.sha256 or '')[:12]}): "
                f"{what}"
            )
        else:
            out.append(f"{f.name}: {'not modified' if f.status == 'not-modified' else 'unchanged'}")
    out.append(
        f"From {report.url}" + (f"; revision {report.revision}." if report.revision else ".")
    )
    if report.edition is not None:
        out.append("")
        if report.previous is not None and report.changes is not None:
            s = report.changes
            out.append(
                f"{report.edition.slug}, since {report.previous.slug}: {s.get('changed', 0)} "
                f"reworded, {s.get('renumbered', 0)} renumbered, {s.get('added', 0)} added, "
                f"{s.get('removed', 0)} removed."
            )
            for c in report.top:
                label = c["to"] or c["from"] or ""
                if c["kind"] == "renumbered":
                    label = f"{c['from']} -> {c['to']}"
                kind = "reworded" if c["kind"] == "changed" else c["kind"]
                line = f"{_MARKS.get(c['kind'], '=')} {label} {kind}"
                if c.get("gist") and c["kind"] not in ("added", "renumbered"):
                    gist = c["gist"] if len(c["gist"]) <= 200 else c["gist"][:199] + "…"
                    line += f": {gist}"
                out.append("  " + wrap(line, "    ", width=width).lstrip())
            total = sum(v for k, v in s.items() if k not in ("unchanged", "notation"))
            if total > len(report.top):
                out.append(
                    f"  ... {total - len(report.top)} more: mtgrules diff "
                    f"{report.previous.slug} {report.edition.slug}"
                )
        else:
            out.append(f"The newest English is now {report.edition.slug}.")
    if report.lagging:
        out.append("")
        out.append(f"Translations that now lag {report.edition.slug if report.edition else 'it'}:")
        for t in report.lagging:
            out.append(f"  {t.translation} (made from {t.follows}): {t.command}")
    if report.site is not None:
        site = report.site
        out.append("")
        out.append(
            f"Site {site['output']}: {site['written']} of {site['files']} files rewritten "
            f"({site['unchanged']} unchanged, {site['removed']} removed)."
        )
    return "\n".join(out)
