"""certify: Mastermind strategies as machine-checked proof certificates.

The public Python API (``certify.api``, documented in docs/python-api.md)::

    import certify
    cert = certify.build_certificate("knuth", pegs=4, colors=6)   # built, then verified
    cert.stats()                                                  # the distribution table
    certify.verify_certificate("certificates/knuth-4x6.json")     # the verifier's report

Importing the package is cheap: the API and the submodules (numpy-based builder, verifier,
renderer) are imported only when used.
"""

from ._version import __version__

# The API's names, found in certify.api when first used (module __getattr__, PEP 562).
_API = ("Certificate", "Bound", "MixedStrategy", "StaticCertificate", "Report", "Optimality", "GameValue", "Comparison",
        "WhyExplanation", "Explanation", "Hint", "WeightTable", "PageLink", "InvalidCertificate", "UnusableCertificate",
        "build_certificate", "load", "verify_certificate", "stats", "explain", "hint_after", "bound",
        "build_optimal", "verify_optimality", "compare_certificates", "import_tree", "why_bound",
        "split_proof", "verify_parts", "game_value", "verify_value")

__all__ = ["__version__", "CertifyError", *_API]


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "CertifyError":
        from .errors import CertifyError

        return CertifyError
    raise AttributeError(f"module 'certify' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
