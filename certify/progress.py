"""A progress bar on stderr that appears only for work that takes more than about a second."""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, total: int, desc: str = "", enabled: bool = True, delay: float = 1.0) -> None:
        self._bar = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="secret", delay=delay, file=sys.stderr,
                             leave=False, dynamic_ncols=True)

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.close()
