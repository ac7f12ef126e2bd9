"""The one error type of the library. The CLI alone maps it to exit codes."""


class CertifyError(ValueError):
    """A user mistake or bad input: unknown strategy, invalid code, unwritable file...

    ``str(error)`` is a one-line message fit to print as it is.
    """


class Infeasible(CertifyError):
    """No strategy meets the limit asked for (e.g. ``build optimal --max-guesses`` below the
    game's least worst case): a finding about the game, not bad input."""


class NotFound(CertifyError):
    """A search that is incomplete by design (``build within``) did not find what was asked: no
    finding about the game either way."""


class Inconsistent(CertifyError):
    """What a search read from its state (a checkpoint) disagrees with what it proves again or
    with the checkers: the state is wrong (damaged or forged), nothing found from it is shown."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the CLI: unwind like Ctrl-C (a file being written is removed on the
    way) and exit with 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
