"""Fuzz the importers (certify/importers.py), the five formats in one script. The first byte of an
input chooses the format (byte % 5: cpp-text, c-punchcard, c-yaml, cuda-dot, cuda-json) and, for
cuda-json, the --run option ((byte // 5) % 4: 0 none, else that run); the rest is the file.

import_certificate may raise certify.errors.CertifyError (ParseError, Mismatch, ...) and nothing
else. When it returns a certificate, the independent verifier must accept it (the CLI writes
nothing otherwise, so a refusal there is a disagreement between the two). Run: docs/fuzzing.md."""

import json

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

FORMATS = fuzzlib.IMPORT_FORMATS

# Not certify.strategies, certify.search or certify.compiled (numba compiles their functions from
# their bytecode, which instrumentation rewrites); cuda-json imports the builder when first used.
with fuzzlib.instrumenting(atheris, ["certify.importers", "certify.game", "certify.text",
                                         "certify.certificate", "certify.verify", "certify.errors",
                                         "certify.reader"]):
    from certify import certificate, errors, game, importers, text, verify  # noqa: F401

fuzzlib.cap_games(game, verify)


def TestOneInput(data: bytes) -> None:
    if not data:
        return
    fmt = FORMATS[data[0] % 5]
    run = (data[0] // 5) % 4 or None
    raw = data[1:]
    try:
        cert = importers.import_certificate(fmt, raw, "fuzz", run=run if fmt == "cuda-json" else None)
    except errors.CertifyError:
        return
    report = verify.verify_bytes(json.dumps(cert).encode(), "imported.json")
    fuzzlib.check_report(report, "verify_bytes(imported)")
    if report.status != 0:
        raise AssertionError(f"{fmt}: imported, but the verifier refuses the certificate: {report.error}")


def _warm() -> None:
    """Load the builder (numba) once before fuzzing, so that no input pays for it."""
    raw = (b'[{"run":{"Color Count":2,"Initial Guess":"11","Pin Count":2,"Strategy":"Knuth"}}]')
    importers.import_certificate("cuda-json", raw, "warm")


if __name__ == "__main__":
    _warm()
    fuzzlib.main(TestOneInput, atheris)
