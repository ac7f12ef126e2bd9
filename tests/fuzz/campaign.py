"""A long fuzzing campaign: each target fuzzed for a given time, one after the other (one core), and a
report of what it did (docs/fuzzing.md).

    python tests/fuzz/campaign.py --seconds 600 --out fuzz-report.md [--work DIR] [TARGET...]

For each target it runs ``nice -n 10 python tests/fuzz/fuzz_TARGET.py CORPUS SEEDS -max_total_time=S
-rss_limit_mb=1024 -timeout=20 -dict=...``, its corpus kept in WORK/corpus/TARGET (so a second
campaign goes on from the first). libFuzzer stops at the first failure: the runner then starts it
again on the same corpus for the time left (at most --restarts times), so one finding does not end
the campaign. The report gives per target the executions (libFuzzer's
stat::number_of_executed_units, summed over the restarts), the final ``cov:`` and ``ft:`` figures
(its last status line), the corpus size and every finding (the crash-/timeout-/oom- input and the
first lines of its error); the inputs are in WORK/artifacts/TARGET and the logs in WORK/logs.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
TARGETS = ("verify", "verify_bound", "verify_mixed", "import")
_STATUS = re.compile(r"^#(\d+)\s+(?:INITED|NEW|REDUCE|pulse|DONE|RELOAD)\s+cov: (\d+) ft: (\d+) corp: (\d+)/", re.M)
_EXECS = re.compile(r"^stat::number_of_executed_units:\s+(\d+)", re.M)
_PEAK = re.compile(r"^stat::peak_rss_mb:\s+(\d+)", re.M)
_SLOWEST = re.compile(r"^stat::slowest_unit_time_sec:\s+(\d+)", re.M)


def run_target(target: str, seconds: int, work: Path, restarts: int, nice: int) -> dict:
    corpus, artifacts, logs = work / "corpus" / target, work / "artifacts" / target, work / "logs"
    ignore = work / f"ignore-{target}.txt"  # the findings' signatures, let go after a restart
    for folder in (corpus, artifacts, logs):
        folder.mkdir(parents=True, exist_ok=True)
    out = {"target": target, "execs": 0, "cov": None, "ft": None, "peak_rss_mb": 0, "slowest_s": 0,
           "runs": 0, "findings": [], "seconds": 0.0}
    start = time.monotonic()
    for attempt in range(restarts + 1):
        left = int(seconds - (time.monotonic() - start))
        if left < 5:
            break
        log = logs / f"{target}-{attempt}.log"
        before = set(artifacts.iterdir())
        env = {**os.environ, "FUZZ_IGNORE": str(ignore)}
        command = ["nice", "-n", str(nice), sys.executable, str(FUZZ / f"fuzz_{target}.py"), str(corpus),
                   str(FUZZ / "seeds" / target), f"-dict={FUZZ / 'dicts' / f'{target}.dict'}",
                   f"-max_total_time={left}", "-rss_limit_mb=1024", "-timeout=20", f"-seed={attempt + 1}",
                   f"-artifact_prefix={artifacts}/", "-print_final_stats=1"]
        with open(log, "w") as f:
            f.write(" ".join(command) + "\n")
            f.flush()
            code = subprocess.call(command, stdout=f, stderr=subprocess.STDOUT, env=env)
        text = log.read_text(errors="replace")
        out["runs"] += 1
        out["execs"] += sum(int(n) for n in _EXECS.findall(text)) or max(
            (int(m.group(1)) for m in _STATUS.finditer(text)), default=0)
        statuses = list(_STATUS.finditer(text))
        if statuses:
            out["cov"], out["ft"] = int(statuses[-1].group(2)), int(statuses[-1].group(3))
        out["peak_rss_mb"] = max([out["peak_rss_mb"], *map(int, _PEAK.findall(text))])
        out["slowest_s"] = max([out["slowest_s"], *map(int, _SLOWEST.findall(text))])
        for found in sorted(set(artifacts.iterdir()) - before):
            if found.name.startswith("slow-unit-"):
                continue
            sig = _signature(text)
            out["findings"].append({"file": str(found), "exit": code, "log": str(log), "error": _error(text),
                                    "signature": sig})
            if sig:
                with open(ignore, "a") as f:
                    f.write(sig + "\n")
        if code == 0:
            break
    out["seconds"] = round(time.monotonic() - start, 1)
    out["corpus"] = sum(1 for p in corpus.iterdir() if p.is_file())
    return out


_FRAME = re.compile(r'^\s*File "([^"]*)", line (\d+), in (\S+)', re.M)


def _signature(text: str) -> str | None:
    """fuzzlib.signature() of the uncaught exception in a log: its type and innermost frame."""
    at = text.rfind("=== Uncaught Python exception: ===")
    if at < 0:
        return None
    block = text[at:].splitlines()[1:]
    kind = block[0].split(":")[0].strip() if block else ""
    frames = _FRAME.findall("\n".join(block[:200]))
    if not kind or not frames:
        return None
    path, line, name = frames[-1]
    return f"{kind} at {os.path.basename(path)}:{line} in {name}"


def _error(text: str) -> str:
    """The first lines of what libFuzzer or atheris said about the failure."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if ("Uncaught Python exception" in line or "ERROR: libFuzzer" in line or "==ERROR" in line
                or "ALARM: working on the last Unit" in line):
            return "\n".join(lines[k:k + 40])
    return "\n".join(lines[-14:])


def report(results: list, seconds: int, commit: str) -> str:
    today = datetime.date.today().isoformat()
    rows = [f"Fuzzing campaign of {today}, {seconds} s per target (nice -n 10, one target at a time), "
            f"certify at {commit}.", "",
            "| target | executions | cov | ft | corpus | peak RSS MB | slowest input s | findings |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        rows.append(f"| {r['target']} | {r['execs']:,} | {r['cov']} | {r['ft']} | {r['corpus']} | "
                    f"{r['peak_rss_mb']} | {r['slowest_s']} | {len(r['findings'])} |")
    for r in results:
        for f in r["findings"]:
            rows += ["", f"## {r['target']}: {Path(f['file']).name}", "", f"input: {f['file']} (log {f['log']}, "
                     f"exit {f['exit']}); {f['signature'] or 'no Python exception (a timeout or memory limit)'}",
                     "", "```", f["error"], "```"]
    return "\n".join(rows) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", default=list(TARGETS), help=f"of {', '.join(TARGETS)} (default all)")
    parser.add_argument("--seconds", type=int, default=600, help="fuzzing time per target (default 600)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/certify-fuzz-campaign"),
                        help="corpora, artifacts and logs (default /tmp/certify-fuzz-campaign)")
    parser.add_argument("--out", type=Path, default=None, help="the report (default WORK/report.md)")
    parser.add_argument("--restarts", type=int, default=5, help="restarts after a finding (default 5)")
    parser.add_argument("--nice", type=int, default=10)
    args = parser.parse_args(argv)
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown target(s): {', '.join(sorted(unknown))}")
    where = subprocess.run([sys.executable, "-c", "import certify, os; print(os.path.dirname(certify.__file__))"],
                           capture_output=True, text=True, cwd=FUZZ).stdout.strip()
    commit = subprocess.run(["git", "-C", where or str(FUZZ), "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip() or "a tree outside git"
    commit = f"{commit} ({where})"
    results = []
    out = args.out or args.work / "report.md"
    for target in args.targets:
        results.append(run_target(target, args.seconds, args.work, args.restarts, args.nice))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report(results, args.seconds, commit))  # written after each target
        r = results[-1]
        print(f"{target}: {r['execs']} executions, cov {r['cov']}, ft {r['ft']}, corpus {r['corpus']}, "
              f"{len(r['findings'])} finding(s)", flush=True)
    print(out.read_text())
    return 1 if any(r["findings"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
