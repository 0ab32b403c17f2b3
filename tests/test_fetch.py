"""`mtgrules fetch` against a real HTTP server on 127.0.0.1 (the standard library's, in a
thread), serving a rules page laid out like the publisher's and real CR files from
/work/shared: the English of 2026-02-27 plays the new edition. Never the internet.

The server counts what it sends, so that a test sees a second run download nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from email.utils import formatdate
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema import Draft202012Validator

from mtgrules.errors import QueryError
from mtgrules.fetch.http import page_url
from mtgrules.fetch.links import choose, rules_links
from mtgrules.schemas import load_schema

from .conftest import ROOT, SHARED, run_cli, table_counts

NEW_TXT = SHARED / "translations" / "en-2026-02-27.android.txt"
ARCHIVE = SHARED / "cr-archive"

# The publisher's page, as it links its files: anchors with a class, file names with a space
# in them, the Basic Rules and the Tournament Rules beside the Comprehensive Rules.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Rules</title></head><body>
<h2>Basic Rules</h2>
<p><a class="cta" href="https://media.example/downloads/MTG_BasicRules_EN.pdf">Download</a></p>
<h2>Comprehensive Rules</h2>
<p>These rules are effective as of {effective}.</p>
<p><a class="cta" href="{base}/downloads/MagicCompRules {stamp}.txt">TXT</a>
 <a class="cta" href="{base}/downloads/MagicCompRules {stamp}.pdf">PDF</a>
 <a class="cta" href="{base}/downloads/MagicCompRules {stamp}.docx">DOCX</a></p>
<h2>Magic Tournament Rules</h2>
<p><a href="{base}/downloads/MTG_MTR_2026_Feb27_EN.pdf">Magic Tournament Rules (PDF)</a></p>
</body></html>
"""


class Site:
    """What the test server serves, and a count of what it sent."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.pages: dict[str, str] = {}
        self.redirects: dict[str, str] = {}
        self.slow: dict[str, float] = {}
        self.status: dict[str, int] = {}
        self.undeclared: set[str] = set()  # sent without a Content-Length, to the close
        self.sent: Counter[str] = Counter()  # path -> 200 responses with a body
        self.not_modified: Counter[str] = Counter()
        self.base = ""

    def page(self, path: str, stamp: str, effective: str, formats=("txt",)) -> None:
        html = PAGE.format(base=self.base, stamp=stamp, effective=effective)
        for fmt in ("txt", "pdf", "docx"):
            if fmt not in formats:
                html = html.replace(
                    f' <a class="cta" href="{self.base}/downloads/MagicCompRules {stamp}.{fmt}">{fmt.upper()}</a>',
                    "",
                )
                html = html.replace(
                    f'<a class="cta" href="{self.base}/downloads/MagicCompRules {stamp}.{fmt}">{fmt.upper()}</a>',
                    "",
                )
        self.pages[path] = html


def _handler(site: Site):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _serve(self, with_body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            if path in site.slow:
                time.sleep(site.slow[path])
            if path in site.status:
                self.send_response(site.status[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path in site.redirects:
                self.send_response(301)
                self.send_header("Location", site.redirects[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path in site.pages:
                body, kind = site.pages[path].encode(), "text/html; charset=utf-8"
            elif path in site.files:
                body, kind = site.files[path], "application/octet-stream"
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                site.not_modified[path] += 1
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            if path not in site.undeclared:
                self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", formatdate(1772150400, usegmt=True))
            self.end_headers()
            if with_body:
                site.sent[path] += 1
                self.wfile.write(body)

        def do_GET(self) -> None:
            self._serve(True)

        def do_HEAD(self) -> None:
            self._serve(False)

    return Handler


@pytest.fixture
def server() -> Iterator[Site]:
    site = Site()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    site.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield site
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


def serve_new_edition(site: Site) -> str:
    """The rules page linking the 2026-02-27 English as TXT; returns the page's URL."""
    site.files["/downloads/MagicCompRules 20260227.txt"] = NEW_TXT.read_bytes()
    site.page("/en/rules", "20260227", "February 27, 2026")
    return site.base + "/en/rules"


def fetch(db, *args: str):
    result = run_cli("fetch", *args, db=db)
    if "--json" in args and result.returncode in (0, 1):
        # Every JSON report against its schema (tests/test_schemas.py leaves fetch to us).
        errors = list(SCHEMA.iter_errors(json.loads(result.stdout)))
        assert not errors, [f"{e.json_path}: {e.message[:200]}" for e in errors]
    return result


SCHEMA = Draft202012Validator(
    load_schema("fetch"), format_checker=Draft202012Validator.FORMAT_CHECKER
)


needs_shared = pytest.mark.skipif(not NEW_TXT.exists(), reason="needs /work/shared")


# --- the link finder -------------------------------------------------------------------------


def test_the_links_of_a_rules_page_like_the_publishers() -> None:
    html = PAGE.format(
        base="https://media.example", stamp="20260227", effective="February 27, 2026"
    )
    links = rules_links(html, "https://magic.example/en/rules")
    assert [(link.format, link.date, link.name) for link in links] == [
        ("txt", "2026-02-27", "MagicCompRules 20260227.txt"),
        ("pdf", "2026-02-27", "MagicCompRules 20260227.pdf"),
        ("docx", "2026-02-27", "MagicCompRules 20260227.docx"),
    ]
    # The space is percent-encoded; the Basic Rules and Tournament Rules are left out.
    assert links[0].url == "https://media.example/downloads/MagicCompRules%2020260227.txt"
    assert [link.format for link in choose(links)] == ["txt", "pdf", "docx"]


@pytest.mark.parametrize(
    ("html", "names"),
    [
        # Relative and protocol-relative addresses, underscores, a query string.
        (
            '<a href="//media.example/2026/downloads/MagicCompRules_20260116.txt?x=1">TXT</a>',
            ["MagicCompRules_20260116.txt"],
        ),
        ('<a href="/files/cr-20260227.docx">Comprehensive Rules (DOCX)</a>', ["cr-20260227.docx"]),
        # The text under a "Comprehensive Rules" heading names it.
        (
            '<h3>Comprehensive Rules</h3><a href="rules-2026-02-27.pdf">PDF</a>',
            ["rules-2026-02-27.pdf"],
        ),
        # Not the Comprehensive Rules, not a rules format, not a link at all.
        ('<h3>Comprehensive Rules</h3><a href="/MTG_MTR_EN.pdf">Tournament Rules</a>', []),
        ('<a href="/MagicCompRules.html">Comprehensive Rules</a>', []),
        ('<a href="mailto:rules@example.org">comprehensive rules</a>', []),
        # An address that cannot be read is no link; the others are still found.
        (
            '<a href="http://[::1/MagicCompRules 20260227.txt">TXT</a>'
            '<a href="/cr-20260227.txt">Comprehensive Rules</a>',
            ["cr-20260227.txt"],
        ),
        ("<p>No links here.</p>", []),
    ],
)
def test_which_links_are_rules_documents(html: str, names: list[str]) -> None:
    assert [link.name for link in rules_links(html, "https://magic.example/en/rules")] == names


def test_the_newest_edition_linked_is_chosen() -> None:
    html = (
        '<a href="MagicCompRules 20251114.txt">old</a>'
        '<a href="MagicCompRules 20260227.txt">new</a>'
        '<a href="MagicCompRules 20260227.pdf">new</a>'
    )
    chosen = choose(rules_links(html, "https://x.example/"))
    assert [link.name for link in chosen] == [
        "MagicCompRules 20260227.txt",
        "MagicCompRules 20260227.pdf",
    ]


# --- fetching ---------------------------------------------------------------------------------


@needs_shared
def test_a_new_edition_is_fetched_ingested_and_reported(store_copy, server) -> None:
    url = serve_new_edition(server)
    result = fetch(store_copy, "--url", url, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "fetched"
    assert [(f["name"], f["status"], f["ingest"]) for f in report["files"]] == [
        ("MagicCompRules 20260227.txt", "downloaded", "added")
    ]
    assert report["edition"]["slug"] == "en-2026-02-27"
    assert report["previous"]["slug"] == "en-2026-01-16"
    # The counts are diff's: 6 rules added and 9 changed is what SOURCES.md says of it.
    diff = run_cli("diff", "en-2026-01-16", "en-2026-02-27", "--format", "json", db=store_copy)
    assert report["changes"] == json.loads(diff.stdout)["summary"]
    assert report["top"] and report["top"][0]["kind"] in (
        "changed",
        "renumbered",
        "added",
        "removed",
    )
    lagging = {t["translation"]: t for t in report["lagging"]}
    assert lagging["zh-Hans-2026-01-16"]["follows"] == "en-2026-01-16"
    assert lagging["zh-Hans-2026-01-16"]["command"] == (
        "mtgrules update zh-Hans-2026-01-16 --to en-2026-02-27"
    )
    assert "zh-Hans-2022-06-10" in lagging
    # The URL, its date and its sha256 are the edition's source, shown by history.
    history = json.loads(run_cli("history", "--json", db=store_copy).stdout)
    downloads = history[-1]["downloads"]
    sha = hashlib.sha256(NEW_TXT.read_bytes()).hexdigest()
    assert [(d["kind"], d["url"], d["sha256"]) for d in downloads] == [
        ("page", url, hashlib.sha256(server.pages["/en/rules"].encode()).hexdigest()),
        ("file", server.base + "/downloads/MagicCompRules%2020260227.txt", sha),
    ]
    text = run_cli("history", db=store_copy).stdout
    assert f"fetched {server.base}/downloads/MagicCompRules%2020260227.txt" in text and sha in text
    editions = json.loads(run_cli("editions", "--json", db=store_copy).stdout)
    new = next(e for e in editions if e["slug"] == "en-2026-02-27")
    assert new["sources"] == ["MagicCompRules 20260227.txt"]


@needs_shared
def test_a_second_run_downloads_nothing_and_says_up_to_date(store_copy, server) -> None:
    url = serve_new_edition(server)
    assert fetch(store_copy, "--url", url).returncode == 0
    sent = sum(server.sent.values())
    before = table_counts(store_copy)
    again = fetch(store_copy, "--url", url)
    assert again.returncode == 0, again.stderr
    up = json.loads(fetch(store_copy, "--url", url, "--json").stdout)
    assert up["status"] == "up-to-date" and up["edition"]["slug"] == "en-2026-02-27"
    assert again.stdout.startswith("Up to date: nothing new at")
    assert "en-2026-02-27" in again.stdout
    # Nothing sent again: the page and the file were asked for conditionally, and answered 304.
    assert sum(server.sent.values()) == sent
    assert server.not_modified["/en/rules"] == 2
    assert server.not_modified["/downloads/MagicCompRules 20260227.txt"] == 2
    assert table_counts(store_copy) == before
    # The page changed (a new layout) but links the same file: that one is not downloaded.
    server.pages["/en/rules"] += "<!-- new layout -->"
    third = fetch(store_copy, "--url", url)
    assert third.returncode == 0 and third.stdout.startswith("Up to date")
    assert server.not_modified["/downloads/MagicCompRules 20260227.txt"] == 3
    assert server.sent["/downloads/MagicCompRules 20260227.txt"] == 1


class _Logged(SimpleHTTPRequestHandler):
    """The standard library's file server, as is (it sends Last-Modified, no ETag, and
    answers If-Modified-Since), keeping a list of what it answered."""

    answered: list[tuple[str, str, int]]

    def log_request(self, code="-", size="-") -> None:
        self.answered.append((self.command, unquote(urlsplit(self.path).path), int(code)))

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def file_server(tmp_path) -> Iterator[tuple[str, list, object]]:
    """A folder served by http.server's own file handler: (base URL, answers, folder)."""
    root = tmp_path / "www"
    (root / "downloads").mkdir(parents=True)
    answered: list[tuple[str, str, int]] = []
    handler = type("Handler", (_Logged,), {"answered": answered})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", answered, root
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


@needs_shared
def test_last_modified_alone_makes_the_second_run_conditional(store_copy, file_server) -> None:
    base, answered, root = file_server
    txt = root / "downloads" / "MagicCompRules 20260227.txt"
    txt.write_bytes(NEW_TXT.read_bytes())
    os.utime(txt, (1772150400, 1772150400))  # 2026-02-27 00:00 UTC, the file's own date
    (root / "rules.html").write_text(
        '<h2>Comprehensive Rules</h2><a href="downloads/MagicCompRules%2020260227.txt">TXT</a>',
        "utf-8",
    )
    url = base + "/rules.html"
    first = fetch(store_copy, "--url", url)
    assert first.returncode == 0, first.stderr
    assert ("GET", "/downloads/MagicCompRules 20260227.txt", 200) in answered
    before = table_counts(store_copy)
    answered.clear()
    again = fetch(store_copy, "--url", url)
    assert again.returncode == 0 and again.stdout.startswith("Up to date"), again.stderr
    # Asked with If-Modified-Since (the server sends no ETag), and answered 304.
    assert answered == [
        ("GET", "/rules.html", 304),
        ("GET", "/downloads/MagicCompRules 20260227.txt", 304),
    ]
    assert table_counts(store_copy) == before
    # history shows the file's URL, its date (the server's Last-Modified) and its sha256.
    text = run_cli("history", db=store_copy).stdout
    sha = hashlib.sha256(NEW_TXT.read_bytes()).hexdigest()
    line = next(x for x in text.splitlines() if "MagicCompRules%2020260227.txt" in x)
    assert sha in line and "dated Fri, 27 Feb 2026 00:00:00 GMT" in line, line


@needs_shared
def test_the_address_of_a_rules_file_itself_is_fetched(store_copy, file_server) -> None:
    base, answered, root = file_server
    (root / "downloads" / "MagicCompRules 20260227.txt").write_bytes(NEW_TXT.read_bytes())
    url = base + "/downloads/MagicCompRules%2020260227.txt"
    check = fetch(store_copy, "--url", url, "--check")
    assert check.returncode == 1 and "MagicCompRules 20260227.txt (2026-02-27)" in check.stdout
    result = fetch(store_copy, "--url", url, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["edition"]["slug"] == "en-2026-02-27"
    assert [f["ingest"] for f in report["files"]] == ["added"]
    assert [a[0] for a in answered] == ["HEAD", "GET"]  # no page read before it


@needs_shared
def test_pdf_and_docx_are_other_sources_of_the_same_edition(store_copy, server) -> None:
    for fmt in ("txt", "pdf", "docx"):
        server.files[f"/downloads/MagicCompRules 20260116.{fmt}"] = (
            ARCHIVE / fmt / f"2026-01-16.{fmt}"
        ).read_bytes()
    server.page("/en/rules", "20260116", "January 16, 2026", formats=("txt", "pdf", "docx"))
    result = fetch(store_copy, "--url", server.base + "/en/rules", "--json")
    assert result.returncode == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert [f["format"] for f in files] == ["txt", "pdf", "docx"]
    statuses = {f["format"]: f["ingest"] for f in files}
    # The store holds en-2026-01-16 from the corpus, the same bytes as the archive's TXT of
    # that date; its PDF and DOCX are the same edition (their text, once extracted, is the
    # same), recorded as other sources of it.
    assert statuses == {"txt": "unchanged", "pdf": "same-edition", "docx": "same-edition"}
    editions = json.loads(run_cli("editions", "--json", db=store_copy).stdout)
    jan = next(e for e in editions if e["slug"] == "en-2026-01-16")
    assert {"MagicCompRules 20260116.pdf", "MagicCompRules 20260116.docx"} <= set(jan["sources"])


@needs_shared
def test_a_pdf_that_cannot_be_downloaded_does_not_stop_the_edition(store_copy, server) -> None:
    """The page links TXT, PDF and DOCX; the PDF answers 500 and the DOCX is not there. The
    TXT is the edition: it is fetched and ingested, and the two others are reported."""
    url = serve_new_edition(server)
    server.page("/en/rules", "20260227", "February 27, 2026", formats=("txt", "pdf", "docx"))
    server.status["/downloads/MagicCompRules 20260227.pdf"] = 500
    result = fetch(store_copy, "--url", url, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["edition"]["slug"] == "en-2026-02-27"
    files = {f["format"]: f for f in report["files"]}
    assert files["txt"]["status"] == "downloaded" and files["txt"]["ingest"] == "added"
    assert files["pdf"]["status"] == "failed" and "HTTP 500" in files["pdf"]["error"]
    assert files["docx"]["status"] == "failed" and "HTTP 404" in files["docx"]["error"]
    # The next run asks for the TXT conditionally (304) and for the others again.
    again = fetch(store_copy, "--url", url)
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert lines[0].startswith("Up to date")
    # Laid out to 80 columns (piped): the line that names the PDF goes on, indented, below.
    pdf = next(k for k, x in enumerate(lines) if x.startswith("MagicCompRules 20260227.pdf: "))
    assert lines[pdf].startswith("MagicCompRules 20260227.pdf: not fetched:")
    assert "HTTP 500" in " ".join(" ".join(lines[pdf:]).split())


@needs_shared
def test_check_says_whether_a_new_edition_is_out_without_downloading_it(store_copy, server) -> None:
    url = serve_new_edition(server)
    before = table_counts(store_copy)
    new = fetch(store_copy, "--url", url, "--check")
    assert new.returncode == 1, new.stderr
    as_json = fetch(store_copy, "--url", url, "--check", "--json")
    assert json.loads(as_json.stdout)["status"] == "new-edition" and as_json.returncode == 1
    assert "A new edition is out: MagicCompRules 20260227.txt (2026-02-27)" in new.stdout
    assert server.sent["/downloads/MagicCompRules 20260227.txt"] == 0
    assert table_counts(store_copy) == before
    assert fetch(store_copy, "--url", url).returncode == 0
    up = fetch(store_copy, "--url", url, "--check")
    assert up.returncode == 0 and up.stdout.startswith("Up to date")
    assert server.sent["/downloads/MagicCompRules 20260227.txt"] == 1  # a HEAD, no body


@needs_shared
def test_check_on_a_store_not_there_yet_creates_no_file(tmp_path, server) -> None:
    url = serve_new_edition(server)
    missing = tmp_path / "not-yet.sqlite"
    result = fetch(missing, "--url", url, "--check")
    assert result.returncode == 1, result.stderr
    assert "A new edition is out: MagicCompRules 20260227.txt (2026-02-27)" in result.stdout
    assert not missing.exists()
    assert server.sent["/downloads/MagicCompRules 20260227.txt"] == 0


@needs_shared
def test_a_redirect_is_followed(store_copy, server) -> None:
    url = serve_new_edition(server)
    server.redirects["/rules"] = url
    result = fetch(store_copy, "--url", server.base + "/rules", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["edition"]["slug"] == "en-2026-02-27"
    history = json.loads(run_cli("history", "--json", db=store_copy).stdout)
    page = history[-1]["downloads"][0]
    assert page["url"] == server.base + "/rules" and page["final_url"] == url


# (what the server does, what the one line says, exit code)
BROKEN = [
    ("404", "HTTP 404 Not Found", 5),
    ("500", "HTTP 500 Internal Server Error", 5),
    ("no-rules-link", "the page links no Comprehensive Rules document", 3),
    ("not-rules", "downloaded from", 2),
    ("slow", "did not answer within 0.5 s", 5),
    ("redirect-loop", "more than 5 redirects", 5),
    # Every hop is checked: a redirect may not lead out of http and https.
    ("redirect-to-file", "only http and https addresses can be fetched (this one is file)", 5),
    ("too-large", "over the 50 MiB limit", 5),
    # No Content-Length: cut off while streaming, past the limit.
    ("too-large-undeclared", "over the 50 MiB limit", 5),
    # The address of a rules file that is not there, asked with --check.
    ("file-404", "HTTP 404 Not Found", 5),
    # A redirect to an address that cannot be read: the server's fault, not the user's.
    ("redirect-to-invalid", "Invalid URL in location header", 5),
]


@pytest.mark.parametrize(("case", "says", "code"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_cases_get_one_line_and_leave_the_store_unchanged(
    store_copy, server, case, says, code
) -> None:
    url = server.base + "/en/rules"
    args = ["--url", url]
    if case in ("404", "500"):
        server.status["/en/rules"] = int(case)
    elif case == "no-rules-link":
        server.pages["/en/rules"] = "<html><body><a href='/about'>About us</a></body></html>"
    elif case == "not-rules":
        server.files["/downloads/MagicCompRules 20260301.txt"] = (ROOT / "README.md").read_bytes()
        server.page("/en/rules", "20260301", "March 1, 2026")
    elif case == "slow":
        server.page("/en/rules", "20260227", "February 27, 2026")
        server.slow["/en/rules"] = 3.0
        args += ["--timeout", "0.5"]
    elif case == "redirect-loop":
        for i in range(7):
            server.redirects[f"/hop{i}"] = f"{server.base}/hop{i + 1}"
        args = ["--url", server.base + "/hop0"]
    elif case.startswith("too-large"):
        server.files["/downloads/MagicCompRules 20260227.txt"] = b"x" * (50 * 2**20 + 1)
        server.page("/en/rules", "20260227", "February 27, 2026")
        if case.endswith("undeclared"):
            server.undeclared.add("/downloads/MagicCompRules 20260227.txt")
    elif case == "redirect-to-file":
        server.redirects["/en/rules"] = "file:///etc/passwd"
    elif case == "redirect-to-invalid":
        server.redirects["/en/rules"] = "http://[::1/en/rules"
    elif case == "file-404":
        args = ["--url", server.base + "/downloads/MagicCompRules%2020260301.txt", "--check"]
    before = table_counts(store_copy)
    result = fetch(store_copy, *args)
    assert result.returncode == code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in result.stderr, lines
    assert table_counts(store_copy) == before


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://rules.example.invalid/en/rules", "cannot reach rules.example.invalid"),
        ("http://127.0.0.1:1/en/rules", "cannot reach 127.0.0.1:1 (connection refused)"),
        # Spaces around a pasted address are not part of it.
        ("  http://127.0.0.1:1/en/rules\n", "cannot reach 127.0.0.1:1 (connection refused)"),
    ],
)
def test_no_network_or_no_such_host(store_copy, url: str, says: str) -> None:
    before = table_counts(store_copy)
    result = fetch(store_copy, "--url", url)
    assert result.returncode == 5, result.stderr
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert table_counts(store_copy) == before


# --url as users type it wrong: (what they typed, what the one line says). Each is a usage
# error (exit 2, as a bad rule number is), said before the store is opened or the network used.
WANTED = "give a full URL such as https://magic.wizards.com/en/rules"
BAD_URLS = [
    ("not a url", f'--url "not a url" is not a web address; {WANTED}'),
    ("", f"--url is empty; {WANTED}"),
    ("   ", f"--url is empty; {WANTED}"),
    ("http://", f'--url "http://" names no host (the server\'s name after http://); {WANTED}'),
    ("https://", '--url "https://" names no host'),
    ("http:///en/rules", '--url "http:///en/rules" names no host'),
    (
        "ftp://example.org/rules",
        f'--url "ftp://example.org/rules": only http:// and https:// addresses can be fetched, '
        f"not ftp://; {WANTED}",
    ),
    (
        "file:///tmp/cr.txt",
        "not file://; a file on this machine is read by: mtgrules ingest /tmp/cr.txt",
    ),
    ("mailto:rules@example.org", "only http:// and https:// addresses can be fetched, not mailto:"),
    # A host typed without its scheme: the URL it probably meant.
    (
        "media.wizards.com/en/rules",
        '--url "media.wizards.com/en/rules" has no http:// or https:// in front; '
        "did you mean https://media.wizards.com/en/rules ?",
    ),
    ("//media.wizards.com/en/rules", "did you mean https://media.wizards.com/en/rules ?"),
    ("localhost:8000/rules", "did you mean https://localhost:8000/rules ?"),
    ("https:/media.wizards.com/en/rules", "did you mean https://media.wizards.com/en/rules ?"),
    # Hosts and ports that cannot be (two of them were internal errors).
    ("https://exa mple.org/rules", '"exa mple.org" is not a host name'),
    ("http://[::1/rules", "is not a valid URL (Invalid IPv6 URL)"),
    ("https://localhost:abc/rules", "the port must be a number from 1 to 65535"),
    ("http://127.0.0.1:99999/rules", "the port must be a number from 1 to 65535"),
]


@pytest.mark.parametrize(("url", "says"), BAD_URLS, ids=[repr(b[0]) for b in BAD_URLS])
def test_a_malformed_url_is_a_usage_error(url: str, says: str) -> None:
    with pytest.raises(QueryError) as raised:
        page_url(url)
    assert says in str(raised.value) and QueryError.exit_code == 2


@pytest.mark.parametrize(
    ("url", "check"),
    [(url, False) for url, _ in BAD_URLS] + [("not a url", True), ("http://", True)],
    ids=[repr(b[0]) for b in BAD_URLS] + ["check-not-a-url", "check-no-host"],
)
def test_a_malformed_url_exits_2_in_one_line_and_opens_no_store(
    store_copy, tmp_path, url: str, check: bool
) -> None:
    says = dict(BAD_URLS)[url]
    extra = ["--check"] if check else []
    before = table_counts(store_copy)
    result = fetch(store_copy, "--url", url, *extra)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtgrules: error: --url"), lines
    assert says in lines[0] and "Traceback" not in result.stderr
    assert result.stdout == ""
    assert table_counts(store_copy) == before
    new = tmp_path / "new.sqlite"  # a store not there yet is not created
    assert fetch(new, "--url", url, *extra).returncode == 2 and not new.exists()


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("https://magic.wizards.com/en/rules", "https://magic.wizards.com/en/rules"),
        ("  http://127.0.0.1:8000/en/rules\n", "http://127.0.0.1:8000/en/rules"),
        (
            "HTTPS://media.example/MagicCompRules 20260227.txt",
            "HTTPS://media.example/MagicCompRules 20260227.txt",
        ),
        ("http://règles.example/cr", "http://règles.example/cr"),
        ("http://[::1]:8080/rules", "http://[::1]:8080/rules"),
    ],
)
def test_a_well_formed_url_is_taken_as_given(url: str, kept: str) -> None:
    assert page_url(url) == kept


def test_a_malformed_url_from_python_is_a_query_error(store_copy) -> None:
    import mtgrules.api as mr

    with mr.open_store(store_copy) as store, pytest.raises(QueryError, match="names no host"):
        store.fetch("http://")


# COLUMNS as the environment gives it -> the width the report is laid out in: piped, with
# no COLUMNS, 80, as every other text report (render.output_width).
WIDTHS = [("", 80), ("60", 60), ("120", 120)]


@needs_shared
@pytest.mark.parametrize(
    ("env_columns", "width"), WIDTHS, ids=[f"COLUMNS={c!r}" for c, _ in WIDTHS]
)
def test_the_report_is_laid_out_to_the_output_width(
    store_copy, server, env_columns: str, width: int
) -> None:
    from mtgrules.text.width import columns

    url = serve_new_edition(server)
    result = run_cli("fetch", "--url", url, db=store_copy, env={"COLUMNS": env_columns})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Fetched MagicCompRules 20260227.txt")
    assert max(columns(line) for line in lines) <= width, [
        line for line in lines if columns(line) > width
    ]
    if width > 80:  # wider when there is room: the width followed, not a fixed 80
        assert max(columns(line) for line in lines) > 80
    # Nothing lost to the layout: each lagging translation's command is there, whole.
    text = " ".join(result.stdout.split())
    assert (
        "zh-Hans-2022-06-10 (made from en-2022-06-10): mtgrules update zh-Hans-2022-06-10 --to en-2026-02-27"
        in text
    )
    assert "since en-2026-01-16:" in text and f"From {url}" in text


@pytest.mark.slow
@needs_shared
def test_with_a_site_folder_the_site_is_rebuilt_incrementally(store_copy, server, tmp_path) -> None:
    site = tmp_path / "site"
    built = run_cli("site", "-o", str(site), db=store_copy, timeout=1800)
    assert built.returncode == 0, built.stderr
    result = fetch(store_copy, "--url", serve_new_edition(server), "--site", str(site), "--json")
    assert result.returncode == 0, result.stderr
    rebuilt = json.loads(result.stdout)["site"]
    assert 0 < rebuilt["written"] < rebuilt["files"] / 10
    assert (site / "rules" / "702.190.html").exists()  # a rule new in 2026-02-27


def test_the_user_agent_names_mtgrules(server, store_copy) -> None:
    seen = []

    class Spy(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.headers.get("User-Agent"))
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Spy)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        fetch(store_copy, "--url", f"http://127.0.0.1:{httpd.server_address[1]}/")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert seen and seen[0].startswith("mtgrules/")


@needs_shared
def test_from_python(store_copy, server) -> None:
    import mtgrules.api as mr

    url = serve_new_edition(server)
    with mr.open_store(store_copy) as store:
        assert store.fetch(url, check=True).status == "new-edition"
        report = store.fetch(url)
        assert report.status == "fetched" and report.edition.slug == "en-2026-02-27"
        assert store.fetch(url).status == "up-to-date"
