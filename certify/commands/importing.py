"""Commands that bring in trees from other programs: ``import``."""

from __future__ import annotations

import sys

from .common import EXIT_INVALID, EXIT_OK, add_quiet, positive, print_json


def cmd_import(args) -> int:
    from .. import importers, verify
    from ..certificate import dumps
    from ..errors import CertifyError
    from ..files import check_output, write_output
    from ..text import shown

    if args.output == "-" and args.json:
        raise CertifyError("--json and -o - both want standard output: choose one")
    name = shown(args.file)
    source = "/dev/stdin" if args.file == "-" else args.file
    check_output(args.output, inputs=(args.file,))
    try:
        raw = verify.read_input(source, on_wait=None if args.quiet else
                                lambda note: print(note, file=sys.stderr, flush=True))
    except verify.Unreadable as e:
        raise CertifyError(f"cannot read {name}: {e}") from None
    except verify.Invalid as e:  # larger than the limit
        raise CertifyError(f"{name}: {e}") from None
    if len(raw) > importers.MAX_BYTES:
        raise CertifyError(f"{name}: larger than {importers.MAX_BYTES} bytes (the limit)")
    try:
        cert = importers.import_certificate(
            args.format, raw, name, pegs=args.pegs, colors=args.colors,
            repetition=False if args.no_repetition else None, run=args.run)
    except importers.Mismatch as e:
        print(f"{name}: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    del raw
    # What is written is what the independent verifier accepted, byte for byte.
    data = dumps(cert, compact=str(args.output).endswith(".gz"))
    report = verify.verify_bytes(data, file="standard output" if args.output == "-" else args.output)
    if not report.valid:
        print(f"{name}: invalid: the imported tree fails the verifier: {report.error}", file=sys.stderr)
        return EXIT_INVALID
    write_output(args.output, data, inputs=(args.file,))
    if not args.quiet and not args.json:  # what the certificate's params say, in words
        for note in importers.note_lines(cert["strategy"]["params"]):
            print(f"{name}: note: {note}", file=sys.stderr)
    if args.json:
        print_json({"file": args.file, "format": args.format, "output": args.output,
                    "game": report.game, "strategy": cert["strategy"], "claims": report.replayed}, "import")
    elif args.output != "-":
        print(f"{name} ({args.format}) -> {report.line()}")
    elif not args.quiet:  # standard output holds the certificate: the summary is a note on stderr
        print(f"{name} ({args.format}) -> {report.line()}", file=sys.stderr)
    return EXIT_OK


def register(sub) -> None:
    from ..importers import FORMATS, MAX_BYTES

    p = sub.add_parser("import", help="turn another program's strategy tree into a verified certificate",
                       description="Read a strategy tree another program wrote, replay every secret through "
                       "it, and write it\nas a certificate once the independent verifier accepts it. A tree "
                       "that fails exits 1\nnaming the first secret it fails; a file not in its format exits 2 "
                       f"with FILE:LINE\n(files up to {MAX_BYTES >> 20} MiB; a file past a work budget, "
                       "such as a cuda-json run\nwhose game is too big to rebuild, is refused before the "
                       "work: docs/import-formats.md,\nLimits). How each format maps: docs/import-formats.md.")
    p.add_argument("format", metavar="FORMAT", choices=tuple(FORMATS),
                   help="cpp-text: the C++ solver's strategy text (fancidev's mmstrat); c-punchcard, c-yaml: "
                        "the C solver's trees (arfst23); cuda-dot: the CUDA project's strategy dump, "
                        "cuda-json: its run results (mikemag)")
    p.add_argument("file", metavar="FILE", help="the other program's file, plain or gzipped (- for standard input)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the certificate written (.json, or .json.gz gzipped; - for standard output); required")
    p.add_argument("--pegs", type=positive, help="pegs, when the file does not say (else taken from its codes)")
    p.add_argument("--colors", "--colours", type=positive,
                   help="colours, when the file does not say (else the colours its codes use)")
    p.add_argument("--no-repetition", action="store_true",
                   help="codes never repeat a colour (else: when a code of the file repeats one)")
    p.add_argument("--run", type=positive, metavar="N", help="cuda-json: the file's N-th run (from 1)")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    add_quiet(p)
    p.set_defaults(func=cmd_import)
