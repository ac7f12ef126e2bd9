#!/bin/sh
# System packages certify can use: none is needed to build, verify or play; the browser tests
# need chromium and its driver; the checker proven in Coq (make formal) needs coq and ocaml-nox.
# `make setup` runs this script. For each program missing from the PATH it installs the package
# with apt-get when it can (running as root, apt-get present), and otherwise says in one line
# what is missing, what needs it and how to install it. It never fails the set-up.
#
# One package a line: PROGRAM  APT-PACKAGE  WHAT-NEEDS-IT  (add lines, keep the columns).
PACKAGES='
dot           graphviz          certify render (the pictures)
chromium      chromium          tests/test_html.py (the page in a real browser)
chromedriver  chromium-driver   tests/test_html.py (selenium drives chromium through it)
coqc          coq               make formal and tests/test_formal.py (the checker proven in Coq)
ocamlopt      ocaml-nox         make formal and tests/test_formal.py (compiles the extracted checker)
'

echo "$PACKAGES" | while read -r program package needed_by; do
    [ -n "$program" ] || continue
    command -v "$program" >/dev/null 2>&1 && continue
    if [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing $package ($program, for ${needed_by}) with apt-get"
        if apt-get update -q >/dev/null 2>&1 &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null 2>&1; then
            continue
        fi
        echo "note: apt-get could not install $package; ${needed_by} will not work until it is installed"
    else
        why="not root"; command -v apt-get >/dev/null 2>&1 || why="no apt-get"
        echo "note: '$program' is missing ($why, so not installed): only ${needed_by} needs it;" \
             "install it with 'sudo apt-get install $package', 'brew install $package'" \
             "or 'conda install -c conda-forge $package'"
    fi
done
exit 0
