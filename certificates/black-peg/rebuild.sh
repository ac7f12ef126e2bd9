#!/bin/sh
# Rebuild the black-peg results (docs/black-peg.md): for each game, the least worst case and the least
# total, each as a lower-bound proof with a strategy that meets it (files already there are kept). A
# search that runs past LIMIT seconds (default 150) is skipped; each game's outcome and its wall time
# are printed. Proofs over 300 KB are then written gzipped (the same bytes certify bound -o X.json.gz
# writes). Usage, from the repository's root:
#   sh certificates/black-peg/rebuild.sh [GAME...]     GAME: PxC or PxC-norep (default: the list below)
set -u
cd "$(dirname "$0")"
CERTIFY=${CERTIFY:-../../.venv/bin/certify}  # (and PYTHON, the venv's python, for the gzip step)
LIMIT=${LIMIT:-150}
GAMES=${*:-"2x2 2x3 2x4 2x5 2x6 2x7 2x8 2x9 2x10 3x2 3x3 3x4 3x5 3x6 4x2 4x3 4x4 5x2 5x3 5x4 6x2
2x2-norep 2x3-norep 2x4-norep 2x5-norep 2x6-norep 2x7-norep 2x8-norep 2x9-norep 2x10-norep 3x3-norep 3x4-norep
3x5-norep 3x6-norep 3x7-norep 3x8-norep 3x9-norep 3x10-norep 4x4-norep 4x5-norep 4x6-norep 4x7-norep 4x8-norep
5x5-norep 5x6-norep 5x7-norep 6x6-norep"}
for g in $GAMES; do
    p=${g%%x*}; rest=${g#*x}; c=${rest%-norep}
    rep=""; [ "$rest" != "$c" ] && rep="--no-repetition"
    for kind in worst total; do
        name=$kind-case-$g-black; [ $kind = total ] && name=total-$g-black
        if [ -f "$name.json" ] || [ -f "$name.json.gz" ]; then continue; fi
        start=$(date +%s)
        if timeout "$LIMIT" "$CERTIFY" bound --$kind --pegs "$p" --colors "$c" $rep --feedback black-only -q \
            -o "$name.json" --strategy-out "optimal-$name.json" >/dev/null; then
            echo "$name $(( $(date +%s) - start )) s"
        else
            rm -f "$name.json" "optimal-$name.json"; echo "$name: skipped (over $LIMIT s or failed)"
        fi
    done
done
for f in worst-case-*-black.json total-*-black.json; do
    [ -f "$f" ] && [ "$(wc -c <"$f")" -gt 300000 ] && "${PYTHON:-../../.venv/bin/python}" -c \
        "import gzip, os, sys; p = sys.argv[1]; open(p + '.gz', 'wb').write(gzip.compress(open(p, 'rb').read(), 9, mtime=0)); os.remove(p)" "$f"
done
exit 0
