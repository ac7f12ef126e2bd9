"""Every sub-command's --help: a description (its one-line help, unless it has its own) and
examples, in one place so that they stay alike. A test walks every sub-command."""

from __future__ import annotations

import argparse

#: Examples per sub-command, as typed (run from the repository, after `make setup`).
EXAMPLES = {
    "build": ["certify build knuth --pegs 4 --colors 6 -o knuth-4x6.json",
              "certify build viaud --pegs 5 --colors 8 -o viaud-5x8.json.gz",
              "certify build optimal --pegs 3 --colors 4 --proof total-3x4.json -o optimal-3x4.json"],
    "verify": ["certify verify certificates/knuth-4x6.json --max-guesses 5",
               "certify verify certificates/*.json --json",
               "certify verify parts-4x7/main.json.gz --parts parts-4x7 --jobs 2"],
    "stats": ["certify stats certificates/knuth-4x6.json",
              "certify stats certificates/knuth-4x6.json --plot distribution.png"],
    "explain": ["certify explain certificates/knuth-4x6.json 3132"],
    "compare": ["certify compare certificates/*4x6*.json",
                "certify compare certificates/*4x6*.json --sort mean --max-columns 6 --csv"],
    "strategies": ["certify strategies", "certify strategies --json"],
    "render": ["certify render certificates/knuth-4x6.json -o overview.svg",
               "certify render certificates/knuth-4x6.json --secret 3132 -o path.png",
               "certify render certificates/knuth-4x6.json --book -o knuth-4x6-book.pdf"],
    "html": ["certify html certificates/knuth-4x6.json -o knuth-4x6.html"],
    "bound": ["certify bound --pegs 3 --colors 3 --worst -o worst-3x3.json",
              "certify bound --pegs 3 --colors 3 --total --strategy-out best-3x3.json -o total-3x3.json"],
    "estimate": ["certify estimate --pegs 5 --colors 7 --worst",
                 "certify estimate --pegs 4 --colors 9 --worst --upto 7 --probes 40 --json"],
    "why": ["certify why certificates/bounds/worst-case-4x6.json",
            "certify why certificates/bounds/worst-case-4x7.json.gz --depth 2 --branches 3 --html why-4x7.html"],
    "split-proof": ["certify split-proof certificates/bounds/total-4x7.json.gz --depth 1 -o parts-4x7",
                    "certify split-proof certificates/bounds/total-4x6.json.gz --parts 8 -o parts-4x6"],
    "export": ["certify export certificates/knuth-4x6.json -o knuth.graphml"],
    "play": ["certify play certificates/knuth-4x6.json",
             "certify play --codemaker --pegs 4 --colors 6 --letters RGBYOP",
             "certify play --auto certificates/knuth-4x6.json --games 1000 --seed 1"],
    "consistent": ["certify consistent --pegs 4 --colors 6 0011=1,0 1234=0,2"],
    "hint": ["certify hint --pegs 3 --colors 3 001=1,0",
             "certify hint --pegs 3 --colors 3 --table --sort weight",
             "certify hint --certificate certificates/knuth-4x6.json 0011=1,0",
             "certify hint --strategy optimal \"0 0 1 1=2,0\""],
    "static": ["certify static build --pegs 2 --colors 8 -o s.json --proof p.json",
               "certify static verify s.json p.json"],
    "atlas": ["certify atlas", "certify atlas --json", "certify atlas --check --markdown > atlas.md"],
    "import": ["certify import c-punchcard tests/data/import/knuth-4x4.cards -o knuth-4x4.json",
               "certify import cpp-text tests/data/import/knuth-3x3.txt -o knuth-3x3.json",
               "certify import cuda-json mastermind_run_stats.json --run 3 -o knuth-4x6.json"],
}


def decorate(sub) -> None:
    """Give each sub-parser of ``sub`` a description and its examples (as the --help epilog)."""
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, parser in sub.choices.items():
        if not parser.description:
            help_text = helps.get(name) or ""
            parser.description = help_text[:1].upper() + help_text[1:] + "." if help_text else None
        examples = EXAMPLES.get(name)
        if examples and not parser.epilog:
            parser.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
            parser.formatter_class = argparse.RawDescriptionHelpFormatter
