#!/bin/sh
# Builds the verified checker in build/formal (nothing is written beside the sources):
# compiles the Coq development, refuses any Admitted/Axiom/admit in it, checks that
# `Print Assumptions` of each soundness theorem is empty, extracts the checkers to OCaml and
# compiles them with the file reader (formal/main.ml) into build/formal/mmcheck.
set -eu
cd "$(dirname "$0")/.."
for tool in coqc ocamlopt; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "error: $tool is missing: 'make setup' installs it as root (tools/system-packages.sh), or 'sudo apt-get install coq ocaml-nox'" >&2
        exit 2; }
done
out=build/formal
mkdir -p "$out"
# A private folder for this build (two test workers may build at once); the binary is renamed
# into build/formal at the end, in one step.
work=$(mktemp -d "$PWD/$out/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
if grep -nE '\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|Variables)\b' formal/*.v; then
    echo "error: formal/*.v holds an unproven assumption (above)" >&2; exit 1
fi
cp formal/Mastermind.v formal/Checkers.v formal/Extract.v formal/main.ml "$work"/
cd "$work"
for f in Mastermind Checkers; do coqc -q -Q . MM "$f.v"; done
# Print Assumptions: each soundness theorem must rest on nothing but Coq's own logic.
for thm in $(sed -n 's/^Theorem \([a-z_]*_sound\) .*/\1/p' Checkers.v); do
    printf 'Require Import MM.Checkers.\nPrint Assumptions %s.\n' "$thm" > assumptions.v
    said=$(coqc -q -Q . MM assumptions.v)
    if [ "$said" != "Closed under the global context" ]; then
        echo "error: Print Assumptions $thm:" >&2; echo "$said" >&2; exit 1
    fi
    echo "Print Assumptions $thm: $said"
done
coqc -q -Q . MM Extract.v
ocamlopt -O3 -o mmcheck checker.mli checker.ml main.ml 2>/dev/null \
    || ocamlopt -o mmcheck checker.mli checker.ml main.ml
cp checker.ml checker.mli ../  # the extracted checker, for reading (docs/formal.md counts its lines)
mv -f mmcheck ../mmcheck
echo "built $out/mmcheck"
