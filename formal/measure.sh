#!/bin/sh
# Times the Python checker and the proven checker on the same files, one after the other (same
# machine load): CPU seconds (user + system) and maximum resident memory from /usr/bin/time -v.
# Usage: sh formal/measure.sh [LABEL ...]  (default: all rows; docs/formal.md shows a run).
# Needs build/formal/mmcheck (make formal) and .venv (make setup).
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
A=certificates/atlas
rows="knuth-4x6:certificates/knuth-4x6.json:
4x6:certificates/bounds/worst-case-4x6.json:
4x7:certificates/bounds/worst-case-4x7.json.gz:
5x7:$A/worst-case-5x7.json.gz:--max-codes 16807
6x4:$A/worst-case-6x4.json.gz:
strategy-5x6:$A/optimal-worst-case-5x6.json.gz:
strategy-5x7:$A/optimal-worst-case-5x7.json.gz:
strategy-4x10:$A/optimal-worst-case-4x10.json.gz:
strategy-6x4:$A/optimal-worst-case-6x4.json.gz:
5x6:$A/worst-case-5x6.json.gz:
4x10:$A/worst-case-4x10.json.gz:"
# cpu+rss of one command: "12.3 s, 45 MB" (and its exit code when not 0)
measure() {
    set +e
    /usr/bin/time -v -o "$tmp/time" "$@" > "$tmp/out" 2>&1
    rc=$?
    set -e
    awk -v rc="$rc" '/User time/ {u = $NF} /System time/ {s = $NF} /Maximum resident/ {m = $NF}
        END {printf "%.2f s, %d MB%s", u + s, (m + 1023) / 1024, rc ? " (exit " rc ")" : ""}' "$tmp/time"
}
echo "| file | Python checker | translation (untrusted) | proven checker |"
echo "|---|---|---|---|"
echo "$rows" | while IFS=: read -r label file extra; do
    if [ $# -gt 0 ]; then case " $* " in *" $label "*) ;; *) continue ;; esac; fi
    # shellcheck disable=SC2086  # extra is a list of options
    py=$(measure .venv/bin/certify verify $extra "$file")
    tr=$(measure .venv/bin/python -m certify.formal --text "$file")
    cp "$tmp/out" "$tmp/core.txt"
    pr=$(measure build/formal/mmcheck "$tmp/core.txt")
    verdict=$(cut -d" " -f1 "$tmp/out" | head -n 1)
    echo "| $label \`$file\` | $py | $tr | $pr: $verdict |"
done
