"""Progress of long work (a site build, a folder or archive ingest, a fetch): what the core
tells, never how it is shown.

A core function takes a ``Progress`` and calls it as it goes:

    progress.stage("writing pages", total=len(pages))
    for page in pages:
        ...
        progress.advance(item=page)
    progress.done()

The core never prints. cli.py passes a reporter that draws one line on stderr, only on a
terminal and only once the work has run for 2 s (silence when piped, and for short work);
the API and the tests pass nothing, which is ``SILENT``.
"""

from __future__ import annotations


class Progress:
    """The reporter the core calls; this base class shows nothing (``SILENT``)."""

    def stage(self, label: str, total: int | None = None) -> None:
        """A new part of the work begins: ``label`` ("aligning", "writing pages"), with the
        number of steps it has when known."""

    def advance(self, n: int = 1, item: str | None = None) -> None:
        """``n`` more steps of the current stage are done; ``item`` names the last one."""

    def done(self) -> None:
        """The work is over (also called when it failed): clear what was shown."""


SILENT = Progress()
