"""Where the repository keeps its committed files: a module below every other, so that the
catalogue and the strategies that read a committed tree (strategies/optimal.py) both take the
path from here and need not import each other."""

from pathlib import Path

#: The committed certificates (certificates/ beside the package).
CERTIFICATES = Path(__file__).resolve().parent.parent / "certificates"
