"""Fuzz the strategy-certificate verifier (certify/verify.py): verify_bytes must return a Report
with one of the three statuses for every input, and raise nothing. A valid certificate must be
refused when --max-guesses is one below its replayed maximum (the path that names the deepest
secret). Run: docs/fuzzing.md."""

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

with fuzzlib.instrumenting(atheris, ["certify.verify", "certify.reader"]):
    from certify import verify

fuzzlib.cap_games(verify)


def TestOneInput(data: bytes) -> None:
    report = verify.verify_bytes(data, "fuzz.json")
    fuzzlib.check_report(report, "verify_bytes")
    if report.status == 0:
        most = report.replayed["max_guesses"]
        if most >= 1:
            again = verify.verify_bytes(data, "fuzz.json", max_guesses=most - 1)
            fuzzlib.check_report(again, "verify_bytes(max_guesses)")
            if again.status != 1:
                raise AssertionError(f"valid with max {most} guesses, but --max-guesses {most - 1} "
                                     f"gives status {again.status}: {again.error}")


if __name__ == "__main__":
    fuzzlib.main(TestOneInput, atheris)
