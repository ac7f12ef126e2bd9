"""Short, reproducible fuzzing runs of the trusted checkers and the importers (atheris, libFuzzer);
docs/fuzzing.md.

Each target's script (tests/fuzz/fuzz_TARGET.py) runs in a subprocess for a fixed number of
executions with a fixed seed, a fresh temporary folder as its first corpus (where libFuzzer writes
the inputs it finds new) and the committed seeds as the second. The test fails when the fuzzer exits
non-zero: an exception other than the allowed ones, a report outside the three statuses, an input
taking more than 20 s or more than 1024 MB. The input that did it is copied to
tests/fuzz/findings/TARGET/ and named in the message. A second test replays every committed past
finding (tests/fuzz/findings/, tests/fuzz/regressions/) through its target; the findings not fixed
yet are listed in tests/fuzz/regressions/open.txt, and a third test checks that they still fail.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent / "fuzz"
FINDINGS = FUZZ / "findings"
REGRESSIONS = FUZZ / "regressions"
#: Executions per target: about 5-10 s each here (one core; docs/fuzzing.md has the figures).
RUNS = {"verify": 6_000, "verify_bound": 3_000, "verify_mixed": 1_750, "import": 1_000}
LIMITS = ["-rss_limit_mb=1024", "-timeout=20"]
#: The whole run's limit: a safety net far above the expected 10-20 s (a hang fails the test).
WALL = 300
_DONE = re.compile(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/", re.M)


def fuzz_command(target: str, corpus: Path, artifacts: Path, *options: str) -> list[str]:
    return [sys.executable, str(FUZZ / f"fuzz_{target}.py"), str(corpus), str(FUZZ / "seeds" / target),
            f"-dict={FUZZ / 'dicts' / f'{target}.dict'}", *LIMITS, f"-artifact_prefix={artifacts}/",
            "-print_final_stats=1", *options]


def run_fresh(command: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run(command, capture_output=True, text=True, timeout=timeout) in a process whose
    peak memory starts from nothing: a process started straight from this one begins with this
    process's resident memory as its own peak (Linux keeps ru_maxrss across exec), and libFuzzer's
    -rss_limit_mb and the replay's REPLAY_RSS_MB read that peak. A pytest worker holding 1.9 GB of
    earlier tests' caches made every fuzzing run stop at once with an "out-of-memory" no input caused.
    So the command runs as a child of /bin/sh (which forks it, and waits); on a timeout the whole
    session is killed and TimeoutExpired raised with what was written."""
    proc = subprocess.Popen(["/bin/sh", "-c", '"$@"; exit $?', "sh", *command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, **kwargs)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise subprocess.TimeoutExpired(command, timeout, output=out, stderr=err) from None
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _save(target: str, artifacts: Path) -> list[Path]:
    """Copy the fuzzer's crash/timeout/oom inputs to tests/fuzz/findings/TARGET/."""
    saved = []
    for found in sorted(artifacts.iterdir()) if artifacts.is_dir() else []:
        if found.is_file() and not found.name.startswith("slow-unit-"):
            try:
                (FINDINGS / target).mkdir(parents=True, exist_ok=True)
                saved.append(Path(shutil.copy2(found, FINDINGS / target / found.name)))
            except OSError:  # (a read-only checkout: the input stays where libFuzzer wrote it)
                saved.append(found)
    return saved


@pytest.mark.parametrize("target", sorted(RUNS))
def test_fuzz_short_run(target, tmp_path):
    corpus, artifacts = tmp_path / "corpus", tmp_path / "artifacts"
    corpus.mkdir()
    artifacts.mkdir()
    command = fuzz_command(target, corpus, artifacts, f"-runs={RUNS[target]}", "-seed=1")
    try:
        done = run_fresh(command, WALL, cwd=tmp_path)
    except subprocess.TimeoutExpired as e:
        saved = _save(target, artifacts)
        pytest.fail(f"fuzz_{target}: still running after {WALL} s; saved: {[str(p) for p in saved]}\n"
                    f"{(e.stderr or b'')[-3000:]!r}")
    log = done.stderr
    stats = _DONE.search(log)
    if stats:
        print(f"fuzz_{target}: {stats.group(1)} runs, cov {stats.group(2)}, ft {stats.group(3)}, "
              f"corpus {stats.group(4)}")
    saved = _save(target, artifacts)
    assert done.returncode == 0, (
        f"fuzz_{target} found a failure (exit {done.returncode}); the input is saved as "
        f"{', '.join(map(str, saved)) or '(no artifact written)'}; "
        f"replay: python tests/fuzz/fuzz_{target}.py --replay FILE\n{log[-4000:]}")
    assert stats and int(stats.group(1)) >= RUNS[target], f"fuzz_{target}: no final DONE line\n{log[-2000:]}"


def _open() -> set[str]:
    """The findings not fixed yet (tests/fuzz/regressions/open.txt): TARGET/FILE names."""
    lines = (REGRESSIONS / "open.txt").read_text().splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


def _past(target: str) -> list[Path]:
    return sorted(p for folder in (FINDINGS / target, REGRESSIONS / target) if folder.is_dir()
                  for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def _replay(target: str, files, seconds: float = 20) -> dict[str, bool]:
    """{file: passed} from fuzz_TARGET.py --replay (one line "ok FILE" or "FAIL FILE: ..." each), each
    input stopped after ``seconds``; the "" key holds the output."""
    done = run_fresh([sys.executable, str(FUZZ / f"fuzz_{target}.py"), "--replay", *map(str, files)], WALL,
                     env={**os.environ, "FUZZ_REPLAY_SECONDS": str(seconds)})
    outcome = {}
    for line in (done.stdout + done.stderr).splitlines():
        word, _, rest = line.partition(" ")
        if word in ("ok", "FAIL"):
            outcome[rest.strip().split(" (")[0].split(": ")[0]] = word == "ok"
    assert set(outcome) == set(map(str, files)), f"--replay did not report every file:\n{done.stderr[-3000:]}"
    assert done.returncode == (0 if all(outcome.values()) else 1), done.stderr[-3000:]
    return outcome | {"": done.stdout + done.stderr}


@pytest.mark.parametrize("target", sorted(RUNS))
def test_past_findings_replay_cleanly(target):
    """Every committed past finding (tests/fuzz/findings/TARGET, tests/fuzz/regressions/TARGET) goes
    through the target without an exception, within the limits; those of open.txt are checked below."""
    files = [p for p in _past(target) if f"{target}/{p.name}" not in _open()]
    if not files:
        return  # nothing committed for this target
    outcome = _replay(target, files)
    failed = [name for name, ok in outcome.items() if name and not ok]
    assert not failed, f"fuzz_{target} --replay failed on {failed}:\n{outcome[''][-4000:]}"


@pytest.mark.parametrize("target", sorted(RUNS))
def test_open_findings_still_fail(target):
    """Each finding listed in open.txt is there and still fails: once fixed, its line is deleted
    (and the file, now a regression, replays in the test above). A slow one need only take more than
    5 s here (a fixed checker refuses it at once)."""
    listed = sorted(name for name in _open() if name.split("/")[0] == target)
    files = [REGRESSIONS / name for name in listed]
    assert all(p.is_file() for p in files), f"open.txt names missing files: {[str(p) for p in files if not p.is_file()]}"
    if not files:
        return
    outcome = _replay(target, files, seconds=5)
    fixed = [name for name, ok in outcome.items() if name and ok]
    assert not fixed, f"fixed, delete their lines from tests/fuzz/regressions/open.txt: {fixed}"


def test_a_fresh_process_does_not_start_from_this_ones_peak_memory():
    """run_fresh's child reports its own peak memory, not this process's (which run straight from
    here it would inherit): a 300 MB buffer held here stays out of the child's ru_maxrss."""
    held = bytearray(300 << 20)
    held[:: 4096] = b"\1" * len(held[:: 4096])  # (resident, not only reserved)
    peak = [sys.executable, "-c", "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"]
    straight = int(subprocess.run(peak, capture_output=True, text=True, check=True).stdout)
    fresh = run_fresh(peak, 60)
    assert fresh.returncode == 0 and int(fresh.stdout) < 200 < 300 <= straight, (fresh, straight)
    del held


def test_the_replay_mode_reports_a_failing_input(tmp_path):
    """--replay exits 1 on an input that fails (so the test above can fail): a TestOneInput that
    raises is run through fuzzlib.replay."""
    script = tmp_path / "fuzz_raises.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(FUZZ)!r})\nimport fuzzlib\n"
                      "def t(data):\n    if data == b'bad':\n        raise KeyError(data)\n"
                      "sys.exit(fuzzlib.replay(t, sys.argv[1:]))\n")
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.write_bytes(b"good")
    bad.write_bytes(b"bad")
    done = subprocess.run([sys.executable, str(script), str(good), str(bad)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 1 and "KeyError" in done.stderr and f"FAIL {bad}" in done.stderr
