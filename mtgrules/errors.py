"""One base exception; the CLI turns each subclass into one stderr line and an exit code."""


class MtgRulesError(Exception):
    """Base of every error a user may see. The message says what to do next."""

    exit_code = 1


class InputError(MtgRulesError):
    """A source file or folder that cannot be ingested (missing, binary, empty, no rules...)."""

    exit_code = 2


class QueryError(MtgRulesError):
    """A command argument that cannot be answered (bad rule label, bad search query...)."""

    exit_code = 2


class NotFoundError(MtgRulesError):
    """The store has no such edition, rule or revision."""

    exit_code = 3


class StoreError(MtgRulesError):
    """The store cannot be opened, migrated or written."""

    exit_code = 4
