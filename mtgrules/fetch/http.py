"""Downloads, with httpx: timeouts, a size cap while streaming, at most 5 redirects followed
by hand (each one checked: http and https only), a User-Agent naming mtgrules, and
conditional requests (If-None-Match, If-Modified-Since), so that a file already fetched is
not downloaded again.

Every failure becomes one FetchError line that says what happened and what to do.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from .. import __version__
from ..errors import FetchError
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


def check_scheme(url: str) -> None:
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
