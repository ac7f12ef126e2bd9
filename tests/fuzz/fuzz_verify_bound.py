"""Fuzz the lower-bound checker (certify/verify_bound.py): check_bytes (verdict_bytes, then
combine) must return a Report with one of the three statuses for every input and raise nothing;
a valid report's statement() works. Run: docs/fuzzing.md."""

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

with fuzzlib.instrumenting(atheris, ["certify.verify_bound", "certify.verify", "certify.reader"]):
    from certify import verify, verify_bound

fuzzlib.cap_games(verify, verify_bound)


def TestOneInput(data: bytes) -> None:
    report = verify_bound.check_bytes(data, "fuzz.json")
    fuzzlib.check_report(report, "check_bytes")
    if report.status == 0 and not isinstance(report.statement(), str):
        raise AssertionError("statement() is not a str")


if __name__ == "__main__":
    fuzzlib.main(TestOneInput, atheris)
