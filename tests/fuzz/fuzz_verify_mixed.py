"""Fuzz the mixed-strategy checker (certify/verify_mixed.py): check_bytes must return a Report with
one of the three statuses for every input and raise nothing. Run: docs/fuzzing.md."""

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

with fuzzlib.instrumenting(atheris, ["certify.verify_mixed", "certify.verify", "certify.reader"]):
    from certify import verify, verify_mixed

fuzzlib.cap_games(verify, verify_mixed)


def TestOneInput(data: bytes) -> None:
    report = verify_mixed.check_bytes(data, "fuzz.json")
    fuzzlib.check_report(report, "check_bytes")
    if report.status == 0 and not isinstance(report.statement(), str):
        raise AssertionError("statement() is not a str")


if __name__ == "__main__":
    fuzzlib.main(TestOneInput, atheris)
