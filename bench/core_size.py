"""The size of the trusted core (issue 35: "the trusted core gets smaller, not larger").

    python bench/core_size.py [FILE...]

For each file (default: certify/verify.py, verify_bound.py, verify_mixed.py and reader.py, the
trusted checkers and their shared reader) prints its lines and its code lines, then the totals.
Code lines are the lines holding a token of code: blank lines, comment lines and the lines of
docstrings (a module's, class's or function's first statement when it is a string) are not
counted. Standard library only.
"""

import ast
import io
import os
import sys
import tokenize

CORE = ("certify/verify.py", "certify/verify_bound.py", "certify/verify_mixed.py", "certify/reader.py")
SKIPPED = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
           tokenize.ENDMARKER)


def sloc(path: str) -> tuple[int, int]:
    """(lines, code lines) of a Python file."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    docstrings = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    code = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type not in SKIPPED:
            code.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in docstrings)
    return len(src.splitlines()), len(code)


def main(argv=None) -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = (argv if argv is not None else sys.argv[1:]) or [os.path.join(root, p) for p in CORE]
    lines = code = 0
    for path in files:
        a, b = sloc(path)
        lines, code = lines + a, code + b
        print(f"{os.path.relpath(path)}: {a} lines, {b} code lines")
    print(f"total: {lines} lines, {code} code lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
