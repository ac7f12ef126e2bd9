"""Fuzz the mixed-strategy checker (certify/verify_mixed.py): check_bytes must return a Report with
one of the three statuses for every input and raise nothing. Run: docs/fuzzing.md."""

import atheris

import fuzzlib  # beside this script (the script's folder is sys.path[0])

fuzzlib.mend_array_compares(atheris)  # (an atheris leak: fuzzlib.py)

TestOneInput = fuzzlib.checker_input(atheris, "verify_mixed")


if __name__ == "__main__":
    fuzzlib.main(TestOneInput, atheris)
