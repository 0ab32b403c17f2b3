"""One base exception; the CLI turns each subclass into one stderr line and an exit code."""


class MtgRulesError(Exception):
    """Base of every error a user may see. The message says what to do next.

    The message is always one line: a line break inside it (from a name the user typed, a
    file name, a driver's message) is shown as its escape (\\n), so the error stays one
    line on stderr and in a log."""

    exit_code = 1

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(one_line(str(message)), *args)


# What str.splitlines() breaks on, each shown as its escape.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


def one_line(message: str) -> str:
    """``message`` with its line breaks escaped (and surrounding space trimmed)."""
    return message.strip().translate(_LINE_BREAKS)


class InputError(MtgRulesError):
    """A source file or folder that cannot be ingested (missing, binary, empty, no rules...)."""

    exit_code = 2


class NotRulesError(InputError):
    """A readable file that holds no rules: an image, an archive, a README, a manifest.
    Named on the command line it is an error; met in a folder it is skipped with a note."""


class QueryError(MtgRulesError):
    """A command argument that cannot be answered (bad rule label, bad search query...)."""

    exit_code = 2


class NotFoundError(MtgRulesError):
    """The store has no such edition, rule or revision."""

    exit_code = 3


class StoreError(MtgRulesError):
    """The store cannot be opened, migrated or written."""

    exit_code = 4


class FetchError(MtgRulesError):
    """The web could not be read (`mtgrules fetch`): no network, a name that does not resolve,
    a timeout, an HTTP error, too many redirects, a file over the size limit."""

    exit_code = 5
