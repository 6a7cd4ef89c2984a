"""The exceptions Sluice raises: one class per error code of the library's Status.

Each also derives from the built-in exception a Python caller would catch for it (a missing table
is a LookupError, a bad argument a ValueError, an I/O failure an OSError), and every one from
SluiceError. The message is the library's, naming the table, column, file or option concerned.
"""


class SluiceError(Exception):
    """Any error of the Sluice library."""


class InvalidArgumentError(SluiceError, ValueError):
    """A bad argument: an unknown column, a value that does not fit its type, a bad option."""


class NotFoundError(SluiceError, LookupError):
    """No such database, table, snapshot, tag, branch or file."""


class AlreadyExistsError(SluiceError, ValueError):
    """A database, table or tag of that name exists already."""


class CorruptionError(SluiceError):
    """A file of the table does not hold what its metadata says."""


class SluiceIOError(SluiceError, OSError):
    """The file system failed."""


class NotSupportedError(SluiceError, NotImplementedError):
    """Something the table asks for that Sluice does not do."""


class ConflictError(SluiceError, RuntimeError):
    """A concurrent commit changed what this commit depends on."""


class OutOfRangeError(SluiceError, ValueError):
    """A position past what the table still holds (an expired snapshot)."""
