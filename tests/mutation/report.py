"""Counts of a mutmut work directory's results for one file, by status, and the mutants that
were not killed (run from the work directory; tests/mutation/run.sh MODULE --report)."""

import collections
import json
import sys

STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", None: "not checked",
          34: "skipped", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          -11: "segfault", -9: "segfault", 2: "interrupted"}

path = sys.argv[1]
meta = json.load(open(f"mutants/{path}.meta"))
codes = meta["exit_code_by_key"]
counts = collections.Counter(STATUS.get(c, f"suspicious({c})") for c in codes.values())
print(f"{path}: {len(codes)} mutants: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
done = sum(v for k, v in counts.items() if k != "not checked")
if done:
    print(f"kill rate (killed + timeout) / checked: {(counts['killed'] + counts['timeout']) / done:.1%}")
for key, code in sorted(codes.items()):
    status = STATUS.get(code, f"suspicious({code})")
    if status not in ("killed", "timeout", "not checked"):
        print(status, key)
