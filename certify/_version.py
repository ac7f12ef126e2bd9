"""The package's version, in a module below every other: the modules that write it into a
file (certificate.py, search/proof.py) take it from here, not from the package, whose lazy API
imports them."""

__version__ = "0.1.0"
