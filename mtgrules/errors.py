"""One base exception; the CLI turns each subclass into one stderr line and an exit code."""


class MtgRulesError(Exception):
    """Base of every error a user may see. The message says what to do next."""

    exit_code = 1


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
