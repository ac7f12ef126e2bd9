"""The one error type of the library. The CLI alone maps it to exit codes."""


class CertifyError(ValueError):
    """A user mistake or bad input: unknown strategy, invalid code, unwritable file...

    ``str(error)`` is a one-line message fit to print as it is.
    """
