"""Downloads, with httpx: timeouts, a size cap while streaming, at most 5 redirects followed
by hand (each one checked: http and https only), a User-Agent naming mtgrules, and
conditional requests (If-None-Match, If-Modified-Since), so that a file already fetched is
not downloaded again.

Every failure becomes one FetchError line that says what happened and what to do.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from .. import __version__
from ..errors import FetchError, QueryError
from ..progress import SILENT, Progress
from ..sources.formats import MAX_BYTES

USER_AGENT = (
    f"mtgrules/{__version__} (Comprehensive Rules corpus; +https://pypi.org/project/mtgrules/)"
)
MAX_REDIRECTS = 5
TIMEOUT = 30.0  # seconds for each connect, read and write
_CHUNK = 65536


@dataclass
class Fetched:
    """What one request gave: the body (None for 304 Not Modified, or for a HEAD)."""

    url: str  # as asked
    final_url: str  # after redirects
    status: int
    body: bytes | None
    etag: str | None
    last_modified: str | None
    content_type: str | None

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.body or b"").hexdigest()


EXAMPLE_URL = "https://magic.wizards.com/en/rules"
_WANT = f"give a full URL such as {EXAMPLE_URL}"
# "scheme:" at the start of an address.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# What a host (and port) typed without a scheme looks like: media.wizards.com/en/rules,
# localhost:8000, 127.0.0.1:8000/rules.
_HOST_FIRST = re.compile(
    r"(?:localhost|\[[0-9A-Fa-f:.]+\]|[\w-]+(?:\.[\w-]+)+\.?)(?::[0-9]{1,5})?(?:[/?#].*)?",
    re.DOTALL,
)
# What cannot be in a host name (spaces and controls aside).
_NOT_IN_HOST = set('<>"{}|\\^`%')


def page_url(url: str) -> str:
    """The address a user gave (``--url``), checked before anything is read or opened, with
    the spaces around it trimmed (a pasted line). Anything but an http or https URL naming
    a host is refused with one QueryError line (exit code 2) that says what a valid URL
    looks like; a host typed without its scheme gets the URL it probably meant."""
    url = url.strip()
    if not url:
        raise QueryError(f"--url is empty; {_WANT}")
    shown = f'--url "{url}"'
    m = _SCHEME.match(url)
    scheme = m[1].lower() if m else ""
    rest = url[m.end() :] if m else url
    if m and rest.startswith("//") and scheme not in ("http", "https"):
        raise QueryError(f"{shown}: {_only(scheme, rest)}")
    if scheme in ("http", "https") and not rest.startswith("//"):
        # https:/media.wizards.com/... or https:media.wizards.com/...: slashes missing.
        if _HOST_FIRST.fullmatch(rest.lstrip("/")):
            raise QueryError(
                f"{shown} is not a full URL; did you mean {scheme}://{rest.lstrip('/')} ?"
            )
        raise QueryError(f"{shown} names no host; {_WANT}")
    if scheme not in ("http", "https"):
        bare = url.lstrip("/")
        if _HOST_FIRST.fullmatch(bare):
            # media.wizards.com/en/rules, //media.wizards.com/..., localhost:8000/rules
            raise QueryError(
                f"{shown} has no http:// or https:// in front; did you mean https://{bare} ?"
            )
        if m and not any(c.isspace() for c in url):  # mailto:..., javascript:..., file:/...
            raise QueryError(f"{shown}: {_only(scheme, rest)}")
        raise QueryError(f"{shown} is not a web address; {_WANT}")
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError as exc:  # a bad IPv6 address, a port that is not a number
        why = (
            "the port must be a number from 1 to 65535" if "port" in str(exc).lower() else str(exc)
        )
        raise QueryError(f"{shown} is not a valid URL ({why}); {_WANT}") from None
    if not host:
        raise QueryError(f"{shown} names no host (the server's name after {scheme}://); {_WANT}")
    if any(c.isspace() or not c.isprintable() or c in _NOT_IN_HOST for c in host):
        raise QueryError(f'{shown}: "{host}" is not a host name; {_WANT}')
    if port == 0:
        raise QueryError(
            f"{shown} is not a valid URL (the port must be a number from 1 to 65535); {_WANT}"
        )
    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise QueryError(f"{shown} is not a valid URL ({exc}); {_WANT}") from None
    return url


def _only(scheme: str, rest: str) -> str:
    if scheme == "file":
        path = urlsplit(f"file:{rest}").path or rest
        return (
            "only http:// and https:// addresses can be fetched, not file://; a file on this "
            f"machine is read by: mtgrules ingest {path}"
        )
    sep = "//" if rest.startswith("//") else ""
    return f"only http:// and https:// addresses can be fetched, not {scheme}:{sep}; {_WANT}"


def check_scheme(url: str) -> None:
    """Each address a fetch goes to (a redirect's included) is http or https."""
    scheme = urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        raise FetchError(
            f"{url}: only http and https addresses can be fetched"
            + (f" (this one is {scheme})" if scheme else " (give a full URL: https://...)")
        )


class Client:
    """One HTTP client for a fetch (its connections are reused between the page and files)."""

    def __init__(self, *, timeout: float = TIMEOUT, limit: int = MAX_BYTES):
        self.limit = limit
        self.timeout = timeout
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout),
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        head: bool = False,
        progress: Progress = SILENT,
        label: str | None = None,
    ) -> Fetched:
        """GET (or HEAD) ``url``, conditionally when an ETag or Last-Modified is known;
        ``progress`` hears of the bytes as they come (a stage called ``label``)."""
        headers = {}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        current = url
        for _hop in range(MAX_REDIRECTS + 1):
            check_scheme(current)
            got = self._request(
                "HEAD" if head else "GET", current, headers, progress, label or f"reading {url}"
            )
            if isinstance(got, str):  # a redirect, to there
                current = got
                continue
            return Fetched(url, current, *got)
        raise FetchError(
            f"{url}: more than {MAX_REDIRECTS} redirects (the last to {current}); "
            "give the address the page is at now (--url)"
        )

    def _request(
        self, method: str, url: str, headers: dict, progress: Progress, label: str
    ) -> str | tuple:
        """One request: the URL a redirect points to, or (status, body, etag, last
        modified, content type)."""
        host = urlsplit(url).netloc
        try:
            with self._http.stream(method, url, headers=headers) as r:
                if r.is_redirect and "location" in r.headers:
                    return str(r.url.join(r.headers["location"]))
                if r.status_code == 304:
                    return (304, None, *_validators(r))
                if r.status_code >= 400:
                    raise FetchError(
                        f"{url}: HTTP {r.status_code} {r.reason_phrase}; "
                        + (
                            "check the address (--url)"
                            if r.status_code < 500
                            else "the server failed; try again later"
                        )
                    )
                if method == "HEAD":
                    return (r.status_code, None, *_validators(r))
                body = self._read(r, url, progress, label)
                return (r.status_code, body, *_validators(r))
        except httpx.TimeoutException:
            raise FetchError(
                f"{host} did not answer within {self.timeout:g} s ({url}); the store is "
                "unchanged: try again later, or give a longer --timeout"
            ) from None
        except httpx.ConnectError as exc:
            raise FetchError(
                f"cannot reach {host} ({_why(exc)}): no network, or the name does not "
                "resolve; the store is unchanged"
            ) from None
        except httpx.HTTPError as exc:  # a broken connection, a protocol error
            raise FetchError(
                f"{url}: the download failed ({_why(exc)}); the store is unchanged"
            ) from None

    def _read(self, r: httpx.Response, url: str, progress: Progress, label: str) -> bytes:
        declared = r.headers.get("content-length")
        expected = int(declared) if declared and declared.isdigit() else None
        if expected is not None and expected > self.limit:
            raise self._too_big(url, expected)
        progress.stage(label, total=expected)  # counted in bytes
        parts: list[bytes] = []
        received = 0
        for chunk in r.iter_bytes(_CHUNK):
            received += len(chunk)
            if received > self.limit:
                # Stopped while streaming: a server may send more than it declared.
                raise self._too_big(url, received)
            parts.append(chunk)
            progress.advance(len(chunk))
        return b"".join(parts)

    def _too_big(self, url: str, size: int) -> FetchError:
        return FetchError(
            f"{url}: over the {self.limit // 2**20} MiB limit for one source file "
            f"({'at least ' if size == self.limit + 1 else ''}{size / 1e6:,.0f} MB); refused, "
            "the store is unchanged"
        )


def _validators(r: httpx.Response) -> tuple[str | None, str | None, str | None]:
    return r.headers.get("etag"), r.headers.get("last-modified"), r.headers.get("content-type")


def _why(exc: Exception) -> str:
    text = str(exc).strip()
    for marker in ("Name or service not known", "nodename nor servname", "getaddrinfo failed"):
        if marker in text:
            return "the name does not resolve"
    if "Connection refused" in text:
        return "connection refused"
    return text.split("\n")[0][:200] or type(exc).__name__
