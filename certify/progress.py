"""A progress bar on stderr that appears only for work that takes more than about a second, and
only when stderr is a terminal: in a pipe or a log file a bar is a stream of carriage returns."""

from __future__ import annotations

import sys


def on_terminal(stream=None) -> bool:
    """Whether ``stream`` (default: stderr) is a terminal, i.e. a bar drawn there can be seen."""
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


class Progress:
    def __init__(self, total: int, desc: str = "", enabled: bool = True, delay: float = 1.0,
                 unit: str = "secret", initial: int = 0) -> None:
        self._bar = None
        if enabled and on_terminal():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, delay=delay, file=sys.stderr,
                             leave=False, dynamic_ncols=True, initial=initial)

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
