"""certify: Mastermind strategies as machine-checked proof certificates.

Importing the package is cheap: submodules (numpy-based builder, verifier,
renderer) are imported only when used.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
