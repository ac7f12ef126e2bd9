"""Benchmark of the pages and the book (issue 15): sizes and times, targets printed, never asserted.

    python bench/bench_html.py [--out FILE]

* `certify html` on knuth 4x6 and 5x8: whole-process time and the page's size;
* the 5x8 page in headless chromium: load (the page replays all 32,768 secrets), unfolding the
  biggest reply, a search;
* `certify render --book` on knuth 4x6: time and pages.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CERTS = ROOT / "certificates"


def timed(cmd) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed: {proc.stderr.strip()}")
    return time.perf_counter() - start, proc.stdout


def browser_figures(page: Path) -> dict:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1000"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                         options=options)
    try:
        d.get(page.as_uri())
        nav = d.execute_script("var n = performance.getEntriesByType('navigation')[0];"
                               "return [n.domContentLoadedEventEnd, n.loadEventEnd];")
        unfold = d.execute_script("""
            var rows = document.querySelectorAll('#tree .row'), best = null, n = -1;
            rows.forEach(function (r) { var c = parseInt(r.querySelector('.info').textContent, 10);
                                        if (r.dataset.key && c > n) { n = c; best = r; } });
            var t0 = performance.now(); best.click(); document.body.offsetHeight;
            return performance.now() - t0;""")
        search = d.execute_script("""
            var box = document.getElementById('search'), t0 = performance.now();
            box.value = '76543'; box.dispatchEvent(new Event('input')); document.body.offsetHeight;
            return performance.now() - t0;""")
    finally:
        d.quit()
    return {"load_ms": nav[1], "script_done_ms": nav[0], "unfold_ms": unfold, "search_ms": search}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "results" / "html.json"))
    args = parser.parse_args(argv)
    exe = [sys.executable, "-m", "certify"]
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="certify-bench-html-") as tmp:
        tmp = Path(tmp)
        for name, cert in (("4x6", "knuth-4x6.json"), ("5x8", "knuth-5x8.json.gz")):
            page = tmp / f"{name}.html"
            s, _ = timed(exe + ["html", str(CERTS / cert), "-o", str(page)])
            out[f"html {name}"] = {"seconds": s, "bytes": page.stat().st_size}
            print(f"  certify html knuth {name:<4} {s:6.2f} s  {page.stat().st_size:>9,} bytes  "
                  "(target: 5x8 <= 3 s, <= 1 MB)", file=sys.stderr)
        b = browser_figures(tmp / "5x8.html")
        out["browser 5x8"] = b
        print(f"  5x8 page in chromium: loaded in {b['load_ms']:.0f} ms, biggest reply unfolds in "
              f"{b['unfold_ms']:.1f} ms, search in {b['search_ms']:.1f} ms  (targets: load <= 2000 ms, "
              "unfold <= 100 ms, search <= 200 ms)", file=sys.stderr)
        pdf = tmp / "book.pdf"
        s, said = timed(exe + ["render", str(CERTS / "knuth-4x6.json"), "--book", "--json", "-o", str(pdf)])
        info = json.loads(said)
        out["book 4x6"] = {"seconds": s, "pages": info["pages"], "bytes": info["bytes"]}
        print(f"  book knuth 4x6: {info['pages']} pages, {info['bytes']:,} bytes in {s:.1f} s  "
              "(target <= 30 s)", file=sys.stderr)
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
