"""Fuzz the lower-bound checker (certify/verify_bound.py): check_bytes (verdict_bytes, then
combine) must return a Report with one of the three statuses for every input and raise nothing;
a valid report's statement() works. Run: docs/fuzzing.md."""

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

TestOneInput = fuzzlib.checker_input(atheris, "verify_bound")


if __name__ == "__main__":
    fuzzlib.main(TestOneInput, atheris)
