"""The public Python API: certificates, reports, hints and lower bounds as values that show
themselves in Jupyter.

Everything here comes from what a trusted checker accepted: a :class:`Certificate` holds the
bytes the independent verifier (``certify/verify.py``) read and the very document it parsed from
them, and its numbers are the verifier's replay, not the file's claims; a :class:`Bound` holds
the bytes the lower-bound checker (``certify/verify_bound.py``) accepted. The functions call the
same library code as the CLI's commands. They raise :class:`~certify.errors.CertifyError` (one
line, fit to show) and never print or exit.

Every command has its call here, with the CLI's verdict (tests/test_api_agreement.py runs both
on the committed certificates): build, import (:func:`import_tree`), verify, stats, explain,
compare (:func:`compare_certificates`), hint, bound, build optimal, why (:func:`why_bound`),
split-proof (:func:`split_proof`, :func:`verify_parts`) and value (:func:`game_value`,
:func:`verify_value`); mixed strategies load as :class:`MixedStrategy`, Static Mastermind files
as :class:`StaticCertificate`. Some names differ from the CLI's commands because ``certify.build``,
``certify.verify``, ``certify.hint``, ``certify.compare``, ``certify.why`` and ``certify.value``
are modules of the package. Messages name the API's parameters (``max_guesses=4``), not the CLI's
options.

Display: ``_repr_html_`` (and ``_repr_mimebundle_`` for a certificate) as python-chess does for
boards, kept small (a certificate's is under 20 KB: its table and a picture of its first
levels, or of its first guess only); the interactive page is written on demand
(:meth:`Certificate.write_page`) or shown in a frame when asked (:meth:`Certificate.interactive`).
Text from a file is escaped (:func:`certify.text.shown`, then HTML).
"""

from __future__ import annotations

import html
import os
import re
from fractions import Fraction

from .errors import CertifyError, Infeasible
from .kinds import CHECKERS as _CHECKERS  # the trusted checker of each kind (cheap: constants)
from .kinds import WORDS as _WORDS  # each kind in words
from .text import shown

__all__ = ["Certificate", "Bound", "MixedStrategy", "StaticCertificate", "Report", "Optimality", "GameValue",
           "Comparison", "WhyExplanation", "Explanation", "Hint", "WeightTable", "PageLink", "InvalidCertificate",
           "UnusableCertificate",
           "build_certificate", "load", "verify_certificate", "stats", "explain", "hint_after", "bound",
           "build_optimal", "verify_optimality", "compare_certificates", "import_tree", "why_bound",
           "split_proof", "verify_parts", "game_value", "verify_value"]

#: A certificate's notebook display draws the default picture when its SVG is at most this many
#: characters, else the first guess only (the default of 4x6 is 85 KB, its first level 7 KB).
PICTURE_INLINE = 12_000
#: A weight table's HTML shows at most this many rows (a whole 4x6 table has 1296).
HTML_ROWS = 200

_STATS_COLUMNS = ("guesses", "count", "frequency_pct", "cumulative_pct")


class InvalidCertificate(CertifyError):
    """A checker refused the bytes (or the file could not be read); ``report`` says why."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.line)
        self.report = report


class UnusableCertificate(CertifyError):
    """A limit of the checker (``max_codes``, ``max_work``) stopped the check: the file was not
    checked, which is no verdict on it. ``report.status`` is 'unusable', ``limit`` says which limit
    and the keyword that raises it ({'option': 'max_codes', 'limit': 10000, 'needed': 16807})."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.line)
        self.report = report
        self.limit = report.limit


def _refused(report: Report):
    """The exception for a report a checker did not accept: unusable when a limit stopped it."""
    return UnusableCertificate(report) if report.limit is not None else InvalidCertificate(report)


# -- helpers ------------------------------------------------------------------------------------

#: The CLI's options that the messages of the checkers and commands name, and the API's parameter
#: for each (``--max-guesses 4`` -> ``max_guesses=4``).
_OPTIONS = {"max-guesses": "max_guesses", "max-codes": "max_codes", "max-work": "max_work", "max-nodes": "max_nodes",
            "depth": "depth",
            "branches": "branches",
            "run": "run", "pegs": "pegs", "colors": "colors", "no-repetition": "no_repetition",
            "part": "parts", "parts": "parts", "letters": "letters", "layout": "layout", "at": "at",
            "candidates-only": "candidates_only", "up-to-symmetry": "up_to_symmetry"}
_OPTION = re.compile(r"--(" + "|".join(sorted(map(re.escape, _OPTIONS), key=len, reverse=True))
                     + r")\b(?:[ =](\d+|[A-Z]+)\b)?")  # a value: a number, or a placeholder (N, FILE)


def _words(text):
    """A message in the API's words: each CLI option it names as the API's parameter."""
    if not isinstance(text, str):
        return text
    return _OPTION.sub(lambda m: _OPTIONS[m.group(1)] + (f"={m.group(2)}" if m.group(2) else ""), text)


class _LibraryWords:
    """Re-raise a CertifyError from the code the API calls in the API's words (same type, same
    attributes: only its message changes). A context manager, and a decorator of the calls."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if isinstance(error, CertifyError) and error.args:
            error.args = (_words(str(error.args[0])), *error.args[1:])
        return False

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def call(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return call


_in_api_words = _LibraryWords()

def _e(value, limit: int | None = None) -> str:
    """Text from a file, fit for HTML: control characters escaped, then markup."""
    return html.escape(shown(value, limit))


def _table(header, rows, right_from: int = 0, strong=()) -> str:
    """An HTML table of already escaped cells; columns from ``right_from`` on are right-aligned,
    the rows whose index is in ``strong`` are bold."""
    def cells(tag, row, bold=False):
        out = []
        for i, cell in enumerate(row):
            style = ' style="text-align:right"' if i >= right_from else ' style="text-align:left"'
            out.append(f"<{tag}{style}>{'<b>' + cell + '</b>' if bold and cell else cell}</{tag}>")
        return "".join(out)

    body = "".join(f"<tr>{cells('td', row, i in strong)}</tr>" for i, row in enumerate(rows))
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


def _frame(records: list[dict], as_frame, columns, index: str | None = None):
    """``records``, or a pandas DataFrame of them (indexed by the column ``index`` when given): when
    asked, or (``as_frame=None``) when pandas can be imported."""
    if as_frame is False:
        return records
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise CertifyError("as_frame=True needs pandas ('pip install pandas')") from None
        return records
    frame = pandas.DataFrame.from_records(records, columns=list(columns))
    return frame.set_index(index) if index else frame


def _game(pegs, colors, no_repetition, feedback="black-white"):
    from .game import Game

    game = Game(pegs, colors, not no_repetition, feedback)
    game.check_size()
    return game


def _positive(value, name: str):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise CertifyError(f"{name} must be an integer >= 1, got {shown(repr(value), 40)}")
    return value


def _plain(data: bytes) -> bytes:
    """The JSON bytes the verifier parsed (its own gunzip, so the very same bytes)."""
    from . import reader, verify

    return reader.gunzip(data, verify.MAX_BYTES) if data[:2] == b"\x1f\x8b" else data


def _document_bytes(doc: dict) -> bytes:
    """A certificate given as a dict (parsed JSON), as the JSON bytes the checkers read."""
    import json

    try:
        return json.dumps(doc, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise CertifyError(f"the dict is not a JSON document: {shown(str(e), 120)}") from None


def _read(source) -> tuple[bytes, str, str | None]:
    """(bytes, name, path or None) of a path, bytes or a dict, read once."""
    from . import verify

    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>", None
    if isinstance(source, dict):
        return _document_bytes(source), "<dict>", None
    if not isinstance(source, (str, os.PathLike)):
        raise CertifyError(f"expected a certificate, a path, bytes or a dict, got {type(source).__name__}")
    try:
        return verify.read_input(source), os.fspath(source), os.fspath(source)
    except verify.Unreadable as e:
        raise CertifyError(f"cannot read {shown(os.fspath(source))}: {e}") from None
    except verify.Invalid as e:
        raise CertifyError(f"{shown(os.fspath(source))}: {e}") from None


def _not_a_manifest(data: bytes, name: str) -> None:
    from .kinds import MANIFESTS, manifest_of

    form = manifest_of(data)
    if form is not None:
        raise CertifyError(f"{shown(name)} is a manifest ({form}), not a certificate: "
                           f"{MANIFESTS[form].split(' / ')[-1]} checks it")


def _checked(data: bytes, name: str, path=None, max_codes=None, max_work=None, max_nodes=None):
    """A Certificate, a Bound or a MixedStrategy of bytes a trusted checker accepted (the checker
    certify.kinds picks); else InvalidCertificate."""
    from .kinds import LOWER_BOUND, MIXED, STRATEGY, check_bytes

    _not_a_manifest(data, name)
    kind, report = check_bytes(data, name, keep=True, max_codes=max_codes, max_work=max_work, max_nodes=max_nodes)
    if not report.valid:
        raise _refused(Report(report, kind))
    if kind in (STRATEGY, LOWER_BOUND, MIXED):
        return {STRATEGY: Certificate, LOWER_BOUND: Bound, MIXED: MixedStrategy}[kind](data, report, path)
    return StaticCertificate(data, report, kind, path)


def _of_kind(source, cls, **limits):
    found = source if isinstance(source, _VALUES) else load(source, **limits)
    if not isinstance(found, cls):
        raise CertifyError(f"{shown(found.file)} is a {found.report.kind_words} certificate, "
                           f"not a {_KIND_WORDS[cls]} certificate")
    return found


def _strategy(source, **limits) -> Certificate:
    return _of_kind(source, Certificate, **limits)


def _bound(source, **limits) -> Bound:
    return _of_kind(source, Bound, **limits)


def _mixed(source, **limits) -> MixedStrategy:
    return _of_kind(source, MixedStrategy, **limits)


def _game_text(game: dict) -> str:
    from .report import game_text

    return game_text(game)


# -- values -------------------------------------------------------------------------------------

class _Checked:
    """What every checked file of the API shares: ``data`` (the bytes its checker accepted) and
    ``_path`` (where they were read, never written over)."""

    def to_json(self) -> str:
        """The JSON text the checker accepted (decompressed)."""
        return _plain(self.data).decode("utf-8")

    def save(self, path) -> None:
        """Write the checked bytes to ``path`` atomically (gzipped when it ends in ``.gz``)."""
        from .files import write_output

        write_output(path, _plain(self.data), inputs=[self._path] if self._path else ())


class _CheckedReport(_Checked):
    """A checked file described by its checker's report (mixed and static files)."""

    file = property(lambda self: self._report.file)
    game = property(lambda self: dict(self._report.game))
    claims = property(lambda self: dict(self._report.claims))
    statement = property(lambda self: self._report.statement(), doc="what it proves, in words")

    def __str__(self) -> str:
        return self.statement


class Report:
    """A trusted checker's verdict on one file: ``kind`` ('strategy', 'lower-bound' or 'mixed'),
    ``valid``, ``status`` ('valid', 'invalid', 'unusable'), ``error``, and what it replayed or
    proved. Its text names the API's parameters where the checker's names the CLI's options."""

    def __init__(self, report, kind: str) -> None:
        self._report = report
        self.kind = kind

    valid = property(lambda self: self._report.valid, doc="whether the checker accepted the file")
    exit_code = property(lambda self: self._report.status, doc="the CLI's exit code: 0, 1 or 2")
    status = property(lambda self: ("valid", "invalid", "unusable")[self._report.status])
    error = property(lambda self: _words(self._report.error), doc="why the file was refused (None when valid)")
    file = property(lambda self: self._report.file, doc="the file's name, as the checker shows it")
    game = property(lambda self: self._report.game)
    claims = property(lambda self: self._report.claims, doc="the file's claims (checked when valid)")
    line = property(lambda self: _words(self._report.line()), doc="the checker's one line")
    checker = property(lambda self: _CHECKERS[self.kind], doc="the trusted checker that read the file")
    kind_words = property(lambda self: _WORDS[self.kind], doc="'strategy', 'lower-bound' or 'mixed-strategy'")

    @property
    def limit(self) -> dict | None:
        """When a limit stopped the check (status 'unusable'): {'option', 'limit', 'needed'}, the
        option in the API's words ('max_codes', 'max_work'); else None."""
        found = getattr(self._report, "limit", None)
        if found is None:
            return None
        return dict(found, option=_OPTIONS.get((found["option"] or "").lstrip("-"), found["option"]))

    @property
    def replayed(self) -> dict | None:
        """A strategy's distribution as the verifier replayed it (None for a lower bound)."""
        return getattr(self._report, "replayed", None)

    @property
    def statement(self) -> str | None:
        """What a valid lower bound or mixed strategy proves, in words (None otherwise)."""
        return self._report.statement() if self.kind != "strategy" and self.valid else None

    def to_json(self) -> dict:
        """The checker's JSON report, as ``certify verify --json`` writes each result (a valid
        strategy's replayed figures also under the keys stats, compare and explain use); its
        error in the API's words."""
        out = dict(self._report.to_json(), kind=self.kind)
        out["error"] = _words(out.get("error"))
        if "limit" in out:
            out["limit"] = self.limit
        if self.kind == "strategy" and self.valid:
            from .report import figures

            out.update(figures(self.replayed))
        return out

    def __str__(self) -> str:
        return self.line

    def __repr__(self) -> str:
        why = "" if self.valid else f": {shown(self.error, 160)}"
        return f"<Report {shown(self.file, 80)!r} {self.kind}: {self.status}{why}>"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.valid else "#cf222e"
        head = (f'<p><b style="color:{colour}">{self.status}</b> {_e(self.file)} '
                f"<small>({html.escape(self.kind_words)} certificate, checked by {self.checker})</small></p>")
        if not self.valid:
            return f'<div class="certify-report">{head}<p>{_e(self.error)}</p></div>'
        if self.kind != "strategy":
            return f'<div class="certify-report">{head}<p>{_e(self.statement)}</p></div>'
        r, c = self.replayed, self.claims
        rows = [[label, str(c[key]), str(r[key])] for label, key in
                (("secrets", "secrets"), ("max guesses", "max_guesses"), ("total guesses", "total_guesses"))]
        rows.append(["mean"] + [f"{x['total_guesses'] / x['secrets']:.3f}" for x in (c, r)])
        bound = self._report.max_guesses_bound
        asked = "" if bound is None else f"<p>max guesses &lt;= {bound}, as asked</p>"
        return (f'<div class="certify-report">{head}<p>{_e(_game_text(self.game))}, strategy '
                f"{_e(self._report.strategy['name'], 80)}</p>"
                f"{_table(['', 'claimed', 'replayed'], rows, 1)}{asked}</div>")


class Certificate(_Checked):
    """A strategy certificate the independent verifier accepted.

    ``data`` is the bytes it read (maybe gzipped), ``document`` the dict it parsed from them and
    ``report`` its :class:`Report`. Numbers (``secrets``, ``total``, ``max``, ``distribution``)
    are the verifier's replay. Make one with :func:`build_certificate` or :func:`load`."""

    def __init__(self, data: bytes, report, path=None) -> None:
        self.data = data
        self._report = report
        self._path = path
        self._svg = None  # the default picture, drawn once: (svg or None, why not)

    document = property(lambda self: self._report.document, doc="the verified document (a dict)")
    file = property(lambda self: self._report.file, doc="where it came from, as the verifier names it")
    report = property(lambda self: Report(self._report, "strategy"), doc="the verifier's report")
    game = property(lambda self: dict(self.document["game"]), doc="{'pegs', 'colors', 'repetition'}")
    strategy = property(lambda self: dict(self.document["strategy"]), doc="{'name', 'params', 'reference'}")
    secrets = property(lambda self: self._report.replayed["secrets"])
    total = property(lambda self: self._report.replayed["total_guesses"], doc="guesses over all secrets")
    max = property(lambda self: self._report.replayed["max_guesses"], doc="the most guesses a secret needs")
    mean = property(lambda self: self.total / self.secrets)

    @property
    def distribution(self) -> dict[int, int]:
        """{guesses: secrets found with that many}, as replayed."""
        return {int(k): v for k, v in self._report.replayed["histogram"].items()}

    def stats(self, as_frame: bool | None = None):
        """The distribution table (guesses, count, frequency_pct, cumulative_pct; percentages to
        two decimals, as ``certify stats`` prints them), one record per number of guesses: a
        pandas DataFrame indexed by guesses (1, 2, ...) when ``as_frame`` (default: when pandas is
        installed), else a list of dicts."""
        hist, n = self.distribution, self.secrets
        records, cumulative = [], 0
        for k in range(1, self.max + 1):
            cumulative += hist.get(k, 0)
            records.append({"guesses": k, "count": hist.get(k, 0),
                            "frequency_pct": round(100 * hist.get(k, 0) / n, 2),
                            "cumulative_pct": round(100 * cumulative / n, 2)})
        return _frame(records, as_frame, _STATS_COLUMNS, index="guesses")

    @_in_api_words
    def explain(self, secret: str) -> Explanation:
        """The game ``secret`` plays through the tree, guess by guess."""
        from .report import explain_secret

        if not isinstance(secret, str):
            raise CertifyError(f"a secret is a code written as text (e.g. '3132'), "
                               f"got {type(secret).__name__}")
        lines, steps = explain_secret(self.document, secret)
        return Explanation(secret.lower(), lines, steps)

    @_in_api_words
    def svg(self, depth: int | None = None, secret: str | None = None, at: str | None = None,
            layout: str | None = None) -> str:
        """The tree drawn by Graphviz (``certify render``'s picture) as SVG text: ``depth`` levels,
        ``secret``'s path, the subtree ``at`` ('1,0/0,2'), ``layout`` 'dot' or 'twopi'."""
        import graphviz

        from . import render

        g, info = render.build_graph(self.document, depth=_positive(depth, "depth"), secret=secret,
                                     at=render.parse_at(at), layout=layout)
        layout = info.get("layout") or layout or "dot"  # the one render chose when not given
        try:
            data = g.pipe(format="svg", engine=layout, quiet=True)
        except graphviz.ExecutableNotFound:
            raise CertifyError(f"Graphviz's {layout!r} program is not installed: "
                               f"{render.INSTALL_DOT}") from None
        except graphviz.CalledProcessError as e:
            msg = (e.stderr or b"").decode(errors="replace").strip().splitlines()
            raise CertifyError(f"{layout} failed: {msg[0] if msg else e}") from None
        text = data.decode("utf-8")
        return text[text.find("<svg"):]  # no XML prolog: the text goes inside HTML too

    def page(self) -> str:
        """The self-contained interactive page (``certify html``) as text."""
        from .htmltree import page

        with _LibraryWords():
            return page(self._report, self.document)[0]

    def write_page(self, path) -> PageLink:
        """Write the interactive page (``certify html``) to ``path`` atomically; the returned
        link shows itself in a notebook (open it from Jupyter's file browser, or in a browser)."""
        from .files import write_output

        write_output(path, self.page().encode("utf-8"), inputs=[self._path] if self._path else ())
        return PageLink(path)

    def interactive(self, height: int = 640) -> InteractivePage:
        """The interactive page in a sandboxed frame, shown where it is displayed: the page itself
        is embedded (a few hundred KB in the notebook), so only when asked."""
        return InteractivePage(self.page(), height)

    def __str__(self) -> str:
        from .report import distribution_table

        return distribution_table(self.document["strategy"], self.document["game"], self._report.replayed)

    def __repr__(self) -> str:
        g = self.document["game"]
        rep = "" if g["repetition"] else " without repetition"
        name = shown(self.document["strategy"]["name"], 60)
        return (f"<Certificate {name} {g['pegs']}x{g['colors']}{rep}: {self.secrets} secrets, "
                f"max {self.max}, total {self.total}>")

    # -- display

    def _picture(self) -> tuple[str | None, str]:
        """(SVG of the display's picture or None, a note or why there is none): the default
        picture when it is small, else the first guess only."""
        if self._svg is None:
            try:
                svg, note = self.svg(), ""
                if len(svg) > PICTURE_INLINE:
                    svg = self.svg(depth=1)
                    note = "the first guess only, to keep the notebook small: svg(depth=K) draws more"
                self._svg = (svg, note)
            except CertifyError as e:  # no Graphviz, or a tree too big to draw: the table still shows
                self._svg = (None, str(e))
        return self._svg

    def _stats_html(self) -> str:
        rows = [[str(r["guesses"]), str(r["count"]), f"{r['frequency_pct']:.2f}",
                 f"{r['cumulative_pct']:.2f}"] for r in self.stats(as_frame=False)]
        rows.append(["total", str(self.secrets), "100.00", ""])
        return _table(["guesses", "count", "frequency %", "cumulative %"], rows)

    def _repr_html_(self) -> str:
        strategy = self.document["strategy"]
        svg, why = self._picture()
        if svg is None:
            picture = f"<p><i>no picture: {html.escape(why)}</i></p>"
        else:
            picture = svg + (f"<p><small>{html.escape(why)}</small></p>" if why else "")
        picture += ("<p><small>the interactive tree (unfold it, find a secret, play): "
                    "write_page('page.html') or interactive()</small></p>")
        reference = strategy.get("reference") or ""
        return (f'<div class="certify-certificate"><p><b>{_e(strategy["name"], 80)}</b> on '
                f"{_e(_game_text(self.document['game']))} ({self.secrets} secrets), verified: "
                f"max {self.max} guesses, total {self.total}, mean {self.mean:.3f}</p>"
                + (f"<p><small>{_e(reference, 600)}</small></p>" if reference else "")
                + self._stats_html() + picture + "</div>")

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """The table and a small picture (under 20 KB together); the interactive page is
        written or shown on demand (write_page, interactive)."""
        bundle = {"text/plain": repr(self), "text/html": self._repr_html_()}
        return {k: v for k, v in bundle.items()
                if (include is None or k in include) and (exclude is None or k not in exclude)}


class PageLink:
    """An interactive page written to a file: shows as a link to it."""

    def __init__(self, path) -> None:
        self.path = os.fspath(path)

    def __str__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"<PageLink {self.path!r}>"

    def _repr_html_(self) -> str:
        from urllib.parse import quote

        return (f'<p>interactive tree: <a href="{html.escape(quote(self.path), quote=True)}" target="_blank">'
                f"{_e(self.path)}</a></p>")


class InteractivePage:
    """The interactive page in a sandboxed frame (it runs where the notebook runs scripts)."""

    def __init__(self, page: str, height: int = 640) -> None:
        self.page, self.height = page, _positive(height, "height")

    def __repr__(self) -> str:
        return f"<InteractivePage {len(self.page)} characters>"

    def _repr_html_(self) -> str:
        return (f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(self.page, quote=True)}" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ccc" title="interactive tree">'
                "</iframe>")


class Explanation:
    """One secret's game through a certificate: ``steps`` (guess, black, white, candidates_left,
    candidate) and ``guesses``, the number it needs."""

    def __init__(self, secret: str, lines: list[str], steps: list[dict]) -> None:
        self.secret, self.lines, self.steps = secret, lines, steps

    guesses = property(lambda self: len(self.steps))

    def __str__(self) -> str:
        return "\n".join(self.lines)

    def __repr__(self) -> str:
        return f"<Explanation {self.secret}: {self.guesses} guesses>"

    def _repr_html_(self) -> str:
        rows = []
        for i, s in enumerate(self.steps, 1):
            note = ("found" if (s["black"], s["white"]) == (len(s["guess"]), 0)
                    else "" if s["candidate"] else "not a candidate: it could not be the secret")
            rows.append([str(i), html.escape(s["guess"]), f"{s['black']},{s['white']}",
                         str(s["candidates_left"]), note])
        return (f'<div class="certify-explain"><p>{_e(self.lines[0])}: found in {self.guesses} '
                f"guess{'es' if self.guesses != 1 else ''}</p>"
                + _table(["", "guess", "answer", "candidates left", ""], rows, 2) + "</div>")


class Hint:
    """What a strategy (or a certificate) plays next after some rows, and why: ``guess``,
    ``candidates``, ``partition`` {answer: candidates giving it}, ``score``; ``doc`` is the
    JSON of ``certify hint --json``."""

    def __init__(self, doc: dict) -> None:
        self.doc = doc

    guess = property(lambda self: self.doc["guess"])
    candidates = property(lambda self: self.doc["candidates"], doc="how many secrets are left")
    partition = property(lambda self: dict(self.doc["partition"]))
    score = property(lambda self: self.doc["score"])
    guess_is_candidate = property(lambda self: self.doc["guess_is_candidate"])

    def __str__(self) -> str:
        from .hint import hint_lines

        return "\n".join(hint_lines(self.doc))

    def __repr__(self) -> str:
        return f"<Hint {self.guess}: {self.candidates} candidates>"

    def _repr_html_(self) -> str:
        from .hint import hint_lines

        parts = self.doc["partition"]
        table = _table(["answer"] + [html.escape(k) for k in parts],
                       [["candidates"] + [str(v) for v in parts.values()]], 1)
        # The text's lines, its indented partition line as a table.
        body = "".join(table if line.startswith("  ") else f"<p>{_e(line)}</p>"
                       for line in hint_lines(self.doc))
        return f'<div class="certify-hint">{body}</div>'


class WeightTable:
    """The papers' weight table after some rows: for each code, how many candidates give each
    answer, its weight (the largest class), whether it has the least weight and whether it can
    still be the secret. ``doc`` is the JSON of ``certify hint --table --json``."""

    def __init__(self, doc: dict) -> None:
        self.doc = doc

    candidates = property(lambda self: self.doc["candidates"], doc="how many secrets are left")
    least_weight = property(lambda self: self.doc["least_weight"])
    feedbacks = property(lambda self: list(self.doc["feedbacks"]), doc="the answer columns, 'B,W'")

    def rows(self, as_frame: bool | None = None):
        """One record per code: code, one column per answer, weight, least, candidate; a pandas
        DataFrame when ``as_frame`` (default: when pandas is installed), else a list of dicts."""
        records = [{"code": r["code"], **r["classes"], "weight": r["weight"], "least": r["least"],
                    "candidate": r["candidate"]} for r in self.doc["rows"]]
        return _frame(records, as_frame, ["code", *self.doc["feedbacks"], "weight", "least", "candidate"])

    def to_csv(self) -> str:
        from .hint import table_csv

        return table_csv(self.doc)

    def __str__(self) -> str:
        from .hint import table_lines

        return "\n".join(table_lines(self.doc))

    def __repr__(self) -> str:
        return f"<WeightTable {len(self.doc['rows'])} rows, {self.candidates} candidates>"

    def _repr_html_(self) -> str:
        from .hint import table_lines

        head = table_lines(self.doc)[:2]
        keys = self.doc["feedbacks"]
        shown_rows = self.doc["rows"][:HTML_ROWS]
        rows = [[html.escape(r["code"])] + [str(r["classes"][k]) for k in keys]
                + [str(r["weight"]), "*" if r["least"] else "", "yes" if r["candidate"] else "no"]
                for r in shown_rows]
        strong = {i for i, r in enumerate(shown_rows) if r["least"]}
        more = len(self.doc["rows"]) - len(shown_rows)
        note = f"<p>... {more} more rows (see rows(), or give top=N)</p>" if more > 0 else ""
        return ('<div class="certify-weights">' + "".join(f"<p>{html.escape(line)}</p>" for line in head)
                + _table(["code"] + [html.escape(k) for k in keys] + ["weight", "least", "candidate"],
                         rows, 1, strong) + note + "</div>")


class Bound(_Checked):
    """A lower-bound certificate the checker (``certify/verify_bound.py``) accepted: ``data`` (the
    bytes it read), ``report``, ``claims``, ``statement``; ``strategy``, a Certificate that meets
    it, when it comes from :func:`bound` with ``kind='total'`` or :func:`build_optimal`. A proof a
    search wrote in parts (``proof_parts=N``): ``data`` is its main file, ``parts`` the bytes of its
    part files (gzipped), all checked together; ``save(folder)`` writes them as ``--proof-parts``."""

    def __init__(self, data: bytes, report, path=None, strategy: Certificate | None = None,
                 parts: list | None = None) -> None:
        self.data = data
        self._report = report
        self._path = path
        self.strategy = strategy
        self.parts = parts

    def save(self, path) -> None:
        """Write the checked bytes to ``path`` atomically (gzipped when it ends in ``.gz``); a split
        proof into the folder ``path`` (new or empty): main.json.gz and part-NNNN.json.gz."""
        if self.parts is None:
            return super().save(path)
        from .proofparts import write_folder

        write_folder(os.fspath(path), self.data, self.parts, gz=True)

    file = property(lambda self: self._report.file)
    report = property(lambda self: Report(self._report, "lower-bound"), doc="the checker's report")
    game = property(lambda self: dict(self._report.game))
    claims = property(lambda self: dict(self._report.claims),
                      doc="{'worst_case'} or {'total'[, 'max_guesses']}")
    statement = property(lambda self: self._report.statement(), doc="what it proves, in words")

    @property
    def proof(self) -> dict:
        """The proof document, parsed from the checked bytes."""
        import json

        return json.loads(_plain(self.data))

    def __str__(self) -> str:
        return self.statement

    def __repr__(self) -> str:
        return f"<Bound {self.statement}>"

    def _repr_html_(self) -> str:
        return (f'<div class="certify-bound"><p><b style="color:#1a7f37">valid lower bound</b> '
                f"{_e(self.file)}</p><p>{_e(self.statement)}</p></div>")


class Optimality:
    """A verified strategy beside a checked lower bound: ``optimal``, ``achieved``,
    ``proven_minimum``, ``gap`` and ``text`` (``certify verify S --optimal B``'s last line)."""

    def __init__(self, result: dict, strategy: Certificate, bound: Bound) -> None:
        self.result, self.strategy, self.bound = result, strategy, bound

    optimal = property(lambda self: self.result["optimal"])
    achieved = property(lambda self: self.result["achieved"])
    proven_minimum = property(lambda self: self.result["proven_minimum"])
    gap = property(lambda self: self.result["gap"])
    text = property(lambda self: self.result["text"])

    def to_json(self) -> dict:
        return dict(self.result)

    def __str__(self) -> str:
        return "\n".join([self.strategy.report.line, self.bound.report.line, self.text])

    def __repr__(self) -> str:
        return f"<Optimality {self.text}>"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.optimal else "#cf222e"
        return (f'<div class="certify-optimality"><p><b style="color:{colour}">{html.escape(self.text)}</b></p>'
                f"<p>{_e(self.strategy.report.line)}</p><p>{_e(self.bound.report.line)}</p></div>")


class MixedStrategy(_CheckedReport):
    """A mixed strategy (the codebreaker's side of the game value) the checker
    (``certify/verify_mixed.py``) accepted: ``data``, ``report``, ``game``, ``strategies`` (how many
    trees it mixes), ``orbits``, ``maximum`` (its exact expected guesses against the worst secret,
    a Fraction) and ``statement``."""

    def __init__(self, data: bytes, report, path=None) -> None:
        self.data = data
        self._report = report
        self._path = path

    report = property(lambda self: Report(self._report, "mixed"), doc="the checker's report")
    strategies = property(lambda self: self._report.strategies, doc="how many trees it mixes")
    orbits = property(lambda self: [dict(o) for o in self._report.orbits],
                      doc="[{'orbit', 'codes', 'expected'}]: the expected guesses per orbit of secrets")
    maximum = property(lambda self: self._report.maximum, doc="the expected guesses against the worst secret")
    mean = property(lambda self: float(self.maximum))

    def __repr__(self) -> str:
        return f"<MixedStrategy {self.file}: {self.strategies} trees, at most {self.maximum} guesses on average>"

    def _repr_html_(self) -> str:
        rows = [[_e(o["orbit"]), str(o["codes"]), _e(o["expected"])] for o in self._report.orbits]
        return (f'<div class="certify-mixed"><p><b style="color:#1a7f37">valid mixed strategy</b> '
                f"{_e(self.file)}</p><p>{_e(self.statement)}</p>"
                + _table(["orbit", "codes", "expected guesses"], rows, 1) + "</div>")


class StaticCertificate(_CheckedReport):
    """A Static Mastermind certificate or lower bound (all questions asked at once) the static
    checker (``certify/verify_static.py``) accepted: ``data``, ``report``, ``kind`` ('static' or
    'static-lower-bound'), ``game``, ``claims`` and ``statement``."""

    def __init__(self, data: bytes, report, kind: str, path=None) -> None:
        self.data, self._report, self.kind, self._path = data, report, kind, path

    report = property(lambda self: Report(self._report, self.kind), doc="the checker's report")

    def __repr__(self) -> str:
        return f"<StaticCertificate {self.statement}>"

    def _repr_html_(self) -> str:
        return self.report._repr_html_()


class GameValue:
    """The game value from both sides: ``codemaker`` (a weighted :class:`Bound`), ``codebreaker``
    (a :class:`MixedStrategy`), ``lower`` and ``upper`` (Fractions), ``proven``, ``value`` (the
    Fraction when proven, else None) and ``text`` (``certify verify MIXED --value BOUND``'s last line)."""

    def __init__(self, result: dict, codebreaker: MixedStrategy, codemaker: Bound) -> None:
        self.result, self.codebreaker, self.codemaker = result, codebreaker, codemaker

    proven = property(lambda self: self.result["proven"])
    lower = property(lambda self: Fraction(self.result["lower"]))
    upper = property(lambda self: Fraction(self.result["upper"]))
    value = property(lambda self: None if self.result["value"] is None else Fraction(self.result["value"]))
    text = property(lambda self: self.result["text"])

    def to_json(self) -> dict:
        return dict(self.result)

    def __str__(self) -> str:
        return "\n".join([self.codebreaker.report.line, self.codemaker.report.line, self.text])

    def __repr__(self) -> str:
        return f"<GameValue {self.text}>"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.proven else "#cf222e"
        return (f'<div class="certify-value"><p><b style="color:{colour}">{html.escape(self.text)}</b></p>'
                f"<p>{_e(self.codebreaker.report.line)}</p><p>{_e(self.codemaker.report.line)}</p></div>")


class Comparison:
    """Verified strategy certificates side by side (``certify compare``): ``rows`` (one dict per
    certificate, every number from the verifier's replay), ``table()``, ``to_csv()``, ``to_json()``
    and ``frame()``."""

    def __init__(self, rows: list) -> None:
        self.rows = rows

    def table(self, max_columns: int | None = 8) -> str:
        from . import compare

        return _words(compare.table(self.rows, max_columns))

    def to_csv(self) -> str:
        from . import compare

        return compare.csv_text(self.rows)

    def to_json(self) -> dict:
        from . import compare

        return compare.to_json(self.rows)

    def frame(self, as_frame: bool | None = None):
        """One record per certificate (file, strategy, game, secrets, max_guesses, total_guesses,
        mean): a pandas DataFrame when ``as_frame`` (default: when pandas is installed)."""
        from .compare import game_label

        columns = ("file", "strategy", "game", "secrets", "max_guesses", "total_guesses", "mean")
        records = [{"file": r["file"], "strategy": r["strategy"]["name"], "game": game_label(r["game"]),
                    "secrets": r["secrets"], "max_guesses": r["max_guesses"], "total_guesses": r["total_guesses"],
                    "mean": round(r["mean"], 4)} for r in self.rows]
        return _frame(records, as_frame, columns)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"<Comparison of {len(self.rows)} certificates>"

    def _repr_html_(self) -> str:
        lines = self.table(None).splitlines()
        return f'<div class="certify-compare"><pre>{html.escape(chr(10).join(lines))}</pre></div>'


class WhyExplanation:
    """Why a worst-case lower bound holds, in plain words (``certify why``), from the bytes the
    checker accepted: ``bound`` (the :class:`Bound`), ``doc`` (``certify why --json``), ``lines``."""

    def __init__(self, why, bound: Bound) -> None:
        self._why, self.bound = why, bound

    doc = property(lambda self: self._why.doc)

    @property
    def lines(self) -> list[str]:
        from .why import text_lines

        return text_lines(self._why)

    def page(self) -> str:
        """The explanation as a self-contained HTML page (``certify why --html``)."""
        from .why import html_page

        return html_page(self._why)

    def __str__(self) -> str:
        return "\n".join(self.lines)

    def __repr__(self) -> str:
        return f"<WhyExplanation {self.bound.statement}>"

    def _repr_html_(self) -> str:
        return f'<div class="certify-why"><pre>{html.escape(str(self))}</pre></div>'


# -- functions ----------------------------------------------------------------------------------

@_in_api_words
def build_certificate(strategy: str, pegs: int = 4, colors: int = 6, no_repetition: bool = False,
                      first: str | None = None, sequence=None, feedback: str = "black-white",
                      max_guesses: int | None = None, width: int | None = None) -> Certificate:
    """Expand a strategy (an id of ``certify strategies``) into its certificate, verified
    (``certify build``). ``first`` overrides the opening guess; ``sequence`` is greenwell's;
    ``feedback="black-only"`` plays black-peg Mastermind; ``max_guesses`` and ``width`` are
    ``within``'s (it raises :class:`~certify.errors.NotFound` when its search finds no strategy
    within ``max_guesses``)."""
    from .certificate import dumps, make_certificate
    from .strategies import get_strategy

    if not isinstance(strategy, str):
        raise CertifyError(f"a strategy is named by its id (e.g. 'knuth'), got {type(strategy).__name__}")
    if strategy == "optimal":
        raise CertifyError("'optimal' is the exact search: use build_optimal(pegs, colors)")
    game = _game(pegs, colors, no_repetition, feedback)
    cls = get_strategy(strategy)
    kwargs = {"first": first}
    if sequence is not None:
        if "sequence" not in getattr(cls, "options", ()):
            raise CertifyError(f"strategy {strategy!r} does not take a sequence")
        kwargs["sequence"] = sequence
    for name, value in (("max_guesses", max_guesses), ("width", width)):
        if value is not None:
            if name not in getattr(cls, "options", ()):
                raise CertifyError(f"strategy {strategy!r} does not take {name}")
            kwargs[name] = value
    cert = make_certificate(cls(game, **kwargs))
    return _checked(dumps(cert), f"<{cls.id} {game.slug}>")


def _max_codes(max_codes):
    from .verify_bound import CODES_CEILING

    _positive(max_codes, "max_codes")
    if max_codes is not None and max_codes > CODES_CEILING:
        raise CertifyError(f"max_codes: at most {CODES_CEILING}, got {max_codes}")
    return max_codes


def _max_work(max_work):
    _positive(max_work, "max_work")
    return max_work


def _max_nodes(max_nodes):
    _positive(max_nodes, "max_nodes")
    return max_nodes


def load(source, max_codes: int | None = None, max_work: int | None = None, max_nodes: int | None = None
         ) -> Certificate | Bound | MixedStrategy | StaticCertificate:
    """A certificate from a path, bytes (plain or gzipped JSON) or a dict (the parsed JSON), read
    once and checked by the checker of its kind (certify.kinds): a :class:`Certificate`
    (strategy), a :class:`Bound` (lower bound), a :class:`MixedStrategy` or a
    :class:`StaticCertificate` (Static Mastermind). ``max_codes`` lets the lower-bound and
    mixed-strategy checkers take games past 10,000 codes; ``max_work`` replaces the work budget
    (default: by the file's size); ``max_nodes`` the node limit (default 2,000,000). Raises :class:`InvalidCertificate` when the checker refuses it,
    :class:`UnusableCertificate` when a limit stopped the check (the message names the keyword
    that raises it), CertifyError for a manifest or a file that cannot be read."""
    if isinstance(source, _VALUES):
        return source
    data, name, path = _read(source)
    return _checked(data, name, path, _max_codes(max_codes), _max_work(max_work), _max_nodes(max_nodes))


def verify_certificate(source, max_guesses: int | None = None, max_codes: int | None = None,
                       max_work: int | None = None, max_nodes: int | None = None) -> Report:
    """The trusted checker's report on a path, bytes, a dict or a checked value (``certify
    verify``): a report that says invalid or unusable is returned, not raised (unusable: a limit
    stopped the check, ``report.limit`` says which). ``max_guesses`` also requires a strategy to
    find every secret within that many guesses; ``max_codes`` lets the lower-bound checker take
    games past 10,000 codes, ``max_work`` replaces the work budget, ``max_nodes`` the node limit. A manifest
    (certificates/index.json...) is not a certificate: CertifyError, where ``certify verify``
    skips it."""
    from .kinds import STRATEGY, check_bytes, manifest_of, read

    _positive(max_guesses, "max_guesses")
    _max_codes(max_codes), _max_work(max_work), _max_nodes(max_nodes)
    if isinstance(source, _VALUES):
        data, name = source.data, source.file
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), "<bytes>"
    elif isinstance(source, dict):
        data, name = _document_bytes(source), "<dict>"
    elif isinstance(source, (str, os.PathLike)):
        data, unread = read(source)
        if data is None:
            return Report(unread, STRATEGY)
        name = source
    else:
        raise CertifyError(f"expected a certificate, a path, bytes or a dict, got {type(source).__name__}")
    if manifest_of(data) is not None:
        _not_a_manifest(data, os.fspath(name))
    kind, report = check_bytes(data, name, max_guesses, max_codes=max_codes, max_work=max_work, max_nodes=max_nodes)
    if kind != STRATEGY and max_guesses is not None:
        raise CertifyError(f"max_guesses applies to strategy certificates; {shown(report.file)} is a "
                           f"{_WORDS[kind]} certificate (its claims say what it proves)")
    return Report(report, kind)


_KIND_WORDS = {Certificate: "strategy", Bound: "lower-bound", MixedStrategy: "mixed-strategy"}
_VALUES = (Certificate, Bound, MixedStrategy, StaticCertificate)


def stats(source, as_frame: bool | None = None):
    """A strategy certificate's distribution table (see :meth:`Certificate.stats`)."""
    return _strategy(source).stats(as_frame)


def explain(source, secret: str) -> Explanation:
    """The game ``secret`` plays through a strategy certificate (``certify explain``)."""
    return _strategy(source).explain(secret)


def _answers(game, rows) -> list:
    from .consistent import parse_clue

    if rows is None:
        return []
    if isinstance(rows, str):  # one row
        rows = [rows]
    out = []
    for row in rows:
        if isinstance(row, (tuple, list)) and len(row) == 2:
            guess, answer = row
            if isinstance(answer, (tuple, list)) and len(answer) == 2:
                answer = f"{answer[0]},{answer[1]}"
            row = f"{guess}={answer}"
        if not isinstance(row, str):
            raise CertifyError(f"a row is 'GUESS=B,W' or (guess, (black, white)) ('GUESS=B' or (guess, black) in "
                               f"black-peg Mastermind), got {shown(repr(row), 60)}")
        out.append(parse_clue(game, row))
    return out


@_in_api_words
def hint_after(rows=(), pegs: int | None = None, colors: int | None = None, no_repetition: bool = False,
               strategy: str | None = None, certificate=None, table: bool = False,
               candidates_only: bool = False, sort: str = "code", top: int | None = None,
               feedback: str | None = None):
    """What to play after ``rows`` ('GUESS=B,W' strings or (guess, (black, white)) pairs; in
    black-peg Mastermind 'GUESS=B' or (guess, black)), as ``certify hint`` says: a :class:`Hint`
    with the guess of ``strategy`` (default knuth) or of a ``certificate`` the rows follow. With
    ``table``, the :class:`WeightTable` instead (``candidates_only``, ``sort`` 'code' or 'weight',
    ``top`` N rows). ``feedback``: 'black-white' (default) or 'black-only'; a certificate's game
    sets its own rule (a ``feedback`` that disagrees is refused, never computed under another rule)."""
    from . import hint
    from .game import Game

    cert = None
    if certificate is not None:
        if strategy is not None:
            raise CertifyError("give either strategy or certificate, not both")
        cert = _strategy(certificate)
        g = cert.document["game"]
        game = Game(g["pegs"], g["colors"], g["repetition"], g.get("feedback", "black-white"))  # its rule
        if any(v is not None and v != w for v, w in zip((pegs, colors), (game.pegs, game.colors))) or (
                no_repetition and game.repetition) or (feedback is not None and feedback != game.feedback_rule):
            raise CertifyError(f"the certificate's game is {game}: pegs, colors, no_repetition and feedback "
                               "must agree with it (or be left out)")
    else:
        game = _game(4 if pegs is None else pegs, 6 if colors is None else colors, no_repetition,
                     feedback or "black-white")
    game.check_size()
    answers = _answers(game, rows)
    if table:
        return WeightTable(hint.table(game, answers, candidates_only, sort, _positive(top, "top")))
    if candidates_only or sort != "code" or top is not None:
        raise CertifyError("candidates_only, sort and top go with table=True")
    if strategy is not None and not isinstance(strategy, str):
        raise CertifyError(f"a strategy is named by its id (e.g. 'knuth'), got {type(strategy).__name__}")
    return Hint(hint.hint(game, answers, strategy or "knuth", cert.document if cert else None))


def _proof(result, kind: str, game) -> Bound:
    """A Bound of a proof the search wrote and the lower-bound checker accepted before the search
    returned (search.exact: with the budgets the search's own output needs), and its strategy,
    when there is one, checked again here as any file."""
    from .certificate import dumps

    cert = None
    if result.strategy is not None:
        cert = _checked(dumps(result.strategy), f"<{result.strategy['strategy']['name']} {game.slug}>")
        if not isinstance(cert, Certificate):
            raise CertifyError(f"<{kind} {game.slug}>: the search wrote a strategy of the wrong kind")
    return Bound(result.data, result.checked, strategy=cert, parts=result.parts)


@_in_api_words
def bound(pegs: int = 4, colors: int = 6, no_repetition: bool = False, kind: str = "worst",
          max_guesses: int | None = None, feedback: str = "black-white", checkpoint=None,
          checkpoint_every: float = 300.0, proof_parts: int | None = None, at_least: int | None = None) -> Bound:
    """Prove what every strategy needs (``certify bound``): ``kind='worst'``, the least worst case
    ("every strategy needs >= D guesses for some secret"); ``kind='total'``, the least total of
    guesses (among strategies within ``max_guesses``), with ``strategy``, a certificate meeting it.
    The proof is checked by the lower-bound checker before it is returned. ``checkpoint`` (a
    file; kind='worst', as ``bound --worst --checkpoint FILE``): the search's finished sets are
    saved there every ``checkpoint_every`` seconds and read back by the next call (hints only: a
    damaged or forged file costs time or raises, never a false bound). ``proof_parts`` N: the
    proof cut into about N parts and checked so (``--proof-parts``): for a proof past the
    checker's size or node limit as one file. ``at_least`` K (``--at-least K``): prove only that
    every strategy needs >= K (kind='worst': guesses for some secret; kind='total': guesses in
    total, within ``max_guesses``), without looking for the optimum; no ``strategy``."""
    from .search import exact

    if kind not in ("worst", "total"):
        raise CertifyError(f"kind must be 'worst' or 'total', got {shown(repr(kind), 40)}")
    if kind == "worst" and max_guesses is not None:
        raise CertifyError("max_guesses goes with kind='total' "
                           "(kind='worst' finds the least worst case itself)")
    if checkpoint is not None and kind != "worst":
        raise CertifyError("checkpoint goes with kind='worst' (build_optimal(checkpoint=DIR) keeps a total search)")
    if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, (int, float)) or not checkpoint_every > 0:
        raise CertifyError(f"checkpoint_every must be a number of seconds > 0, got {shown(repr(checkpoint_every), 40)}")
    game = _game(pegs, colors, no_repetition, feedback)
    _positive(max_guesses, "max_guesses"), _positive(proof_parts, "proof_parts"), _positive(at_least, "at_least")
    kept = {} if checkpoint is None else {"checkpoint": (os.fspath(checkpoint), float(checkpoint_every))}
    if at_least is not None and kind == "total":
        return _proof(exact.total_at_least(game, at_least, max_guesses, parts=proof_parts), "total", game)
    if at_least is not None:
        return _proof(exact.at_least(game, at_least, parts=proof_parts, **kept), "worst-case", game)
    if kind == "worst":
        return _proof(exact.worst_case(game, parts=proof_parts, **kept), "worst-case", game)
    return _proof(exact.total(game, max_guesses, parts=proof_parts), "total", game)


@_in_api_words
def build_optimal(pegs: int = 4, colors: int = 6, no_repetition: bool = False,
                  max_guesses: int | None = None, objective: str = "total",
                  feedback: str = "black-white", checkpoint=None,
                  proof_parts: int | None = None) -> tuple[Certificate, Bound]:
    """A strategy of least total guesses (within ``max_guesses``) by exact search, and the proof
    that none does better (``certify build optimal``), both checked. ``objective``
    ``"total,max-count"`` (least total within max_guesses D, then fewest secrets needing D) or
    ``"max-count,total"`` (those two the other way round) need ``max_guesses``. When no strategy
    fits within ``max_guesses``, raises :class:`~certify.errors.Infeasible` whose ``bound`` is the
    checked proof of the least worst case. ``checkpoint`` (a folder, as ``build optimal
    --checkpoint DIR``; any of these objectives, the folder bound to it): the split search's
    finished tasks are kept there and read back by the next call (hints only: every figure
    returned is the checked proof's). ``proof_parts`` N: the proof written in parts, as
    :func:`bound`'s."""
    from .search import exact

    orders = {"total": None, "total,max-count": "total", "max-count,total": "at_max"}
    if objective not in orders:
        raise CertifyError(f"objective must be one of {', '.join(orders)}, got {shown(repr(objective), 40)} "
                           "(least worst case, then total: bound(kind='worst'), then max_guesses=D)")
    if orders[objective] and max_guesses is None:
        raise CertifyError(f"objective {objective!r} counts the secrets needing the maximum: give max_guesses")
    game = _game(pegs, colors, no_repetition, feedback)
    _positive(max_guesses, "max_guesses"), _positive(proof_parts, "proof_parts")
    counting = {"at_max": orders[objective] is not None, "first": orders[objective] or "total", "parts": proof_parts}
    try:
        if checkpoint is not None:  # the split search, its tasks kept as they finish
            from .search.checkpoint import Checkpoint, describe

            folder = os.fspath(checkpoint)
            run = Checkpoint(folder, describe(game, max_guesses, objective), say=lambda line: None)
            result = exact.total(game, max_guesses, run=run, checkpoint=folder, **counting)
        else:
            result = exact.total(game, max_guesses, **counting)
    except Infeasible:
        worst = _proof(exact.worst_case(game, parts=proof_parts), "worst-case", game)
        error = Infeasible(f"no strategy for {game} settles every secret within {max_guesses} guesses: "
                           f"every strategy needs {worst.claims['worst_case']} for some secret")
        error.bound = worst
        raise error from None
    proof = _proof(result, "total", game)
    return proof.strategy, proof


def verify_optimality(strategy, proof, max_codes: int | None = None, max_work: int | None = None,
                      max_nodes: int | None = None) -> Optimality:
    """How a strategy certificate meets a lower-bound certificate (``certify verify S --optimal B``):
    both checked (paths, bytes, or values of this module; ``max_codes``, ``max_work``,
    ``max_nodes``: the checkers' limits, as for :func:`load`); raises CertifyError when they cannot
    be compared (another game...)."""
    from .optimality import compare

    limits = {"max_codes": max_codes, "max_work": max_work, "max_nodes": max_nodes}
    cert, lower = _strategy(strategy, **limits), _bound(proof, **limits)
    return Optimality(compare(cert._report, lower._report), cert, lower)


def compare_certificates(*sources, sort: str = "file", max_work: int | None = None) -> Comparison:
    """Strategy certificates side by side (``certify compare``): each a path, bytes, a dict or a
    Certificate, verified (``max_work``: the verifier's limit, as for :func:`load`); ``sort`` 'file'
    (the order given), 'strategy', 'mean', 'max' or 'total'."""
    from . import compare

    if len(sources) == 1 and isinstance(sources[0], (list, tuple)):
        sources = tuple(sources[0])
    if not sources:
        raise CertifyError("compare_certificates needs at least one certificate")
    if sort not in compare.SORTS:
        raise CertifyError(f"sort must be one of {', '.join(compare.SORTS)}, got {shown(repr(sort), 40)}")
    certs = [_strategy(x, max_work=max_work) for x in sources]
    return Comparison(compare.sort([compare.row(c._report) for c in certs], sort))


def import_tree(fmt: str, source, pegs: int | None = None, colors: int | None = None,
                no_repetition: bool = False, run: int | None = None) -> Certificate:
    """Another program's strategy tree as a verified certificate (``certify import``): ``fmt`` one
    of certify.importers.FORMATS ('cpp-text', 'c-punchcard', 'c-yaml', 'cuda-dot', 'cuda-json'),
    ``source`` a path or bytes (plain or gzipped). A tree that fails a secret raises
    :class:`~certify.importers.Mismatch`; a file not in its format, ParseError (both CertifyError)."""
    from . import importers
    from .certificate import dumps

    if isinstance(source, dict):
        raise CertifyError("import_tree reads another program's file: a path or bytes")
    raw, name, _ = _read(source)
    if len(raw) > importers.MAX_BYTES:
        raise CertifyError(f"{shown(name)}: larger than {importers.MAX_BYTES} bytes (the limit)")
    _positive(pegs, "pegs"), _positive(colors, "colors"), _positive(run, "run")
    with _LibraryWords():
        cert = importers.import_certificate(fmt, raw, shown(name), pegs=pegs, colors=colors,
                                            repetition=False if no_repetition else None, run=run)
    return _checked(dumps(cert), f"<{fmt} {shown(name)}>")


def why_bound(proof, depth: int = 1, branches: int = 5, max_codes: int | None = None,
              max_work: int | None = None, max_nodes: int | None = None) -> WhyExplanation:
    """Why a worst-case lower-bound proof holds, in plain words (``certify why``): checked first
    (``max_codes``, ``max_work``, ``max_nodes``: the checker's limits, as for :func:`load`), then explained from
    the very bytes the checker accepted, ``depth`` levels below the root and at most ``branches``
    guesses at each. Raises InvalidCertificate when the checker refuses it, UnusableCertificate
    when a limit stopped the check."""
    from .kinds import LOWER_BOUND
    from .why import explain_bytes

    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise CertifyError(f"depth must be an integer >= 0, got {shown(repr(depth), 40)}")
    _positive(branches, "branches")
    _max_codes(max_codes), _max_work(max_work), _max_nodes(max_nodes)
    if isinstance(proof, Bound):
        data, name, path = proof.data, proof.file, proof._path
        if max_codes is None:  # a Bound was checked already, with the limits its load was given
            from .verify import _n_codes

            game = proof.game
            max_codes = min(max(10_000, _n_codes(game["pegs"], game["colors"], game["repetition"])), 46_656)
    else:
        data, name, path = _read(proof)
    with _LibraryWords():
        report, found = explain_bytes(data, name, depth, branches, max_codes=max_codes, max_work=max_work,
                                      max_nodes=max_nodes)
    if found is None:
        raise _refused(Report(report, LOWER_BOUND))
    return WhyExplanation(found, Bound(data, report, path))


def split_proof(proof, folder, depth: int | None = None, parts: int | None = None, max_codes: int | None = None,
                max_nodes: int | None = None) -> dict:
    """Cut a lower-bound proof file into a main file and part files in ``folder`` (new or empty),
    to be checked in parallel (``certify split-proof``): the nodes first reached after ``depth``
    guesses, or about ``parts`` parts. Untrusted: :func:`verify_parts` checks the result (give it
    the same limits). ``max_codes``, ``max_nodes``: the limits of that check; a proof over one is
    not split (CertifyError naming the keyword that raises it). Returns {'main', 'parts', 'nodes',
    'codes'}."""
    from .proofparts import write_split

    if (depth is None) == (parts is None):
        raise CertifyError("give depth or parts (one of them)")
    _positive(depth, "depth"), _positive(parts, "parts")
    if not isinstance(proof, (str, os.PathLike)):
        raise CertifyError(f"split_proof reads a proof file: a path, got {type(proof).__name__}")
    with _LibraryWords():
        return write_split(os.fspath(proof), os.fspath(folder), depth=depth, parts=parts,
                           max_codes=_max_codes(max_codes), max_nodes=_max_nodes(max_nodes))


def verify_parts(main, parts, jobs: int = 1, max_codes: int | None = None,
                 max_work: int | None = None, max_nodes: int | None = None) -> list[Report]:
    """The checker's verdict on split proofs (``certify verify MAIN --parts DIR``): ``main`` a
    path or a list of paths (the main files), ``parts`` a folder or a list of part files, checked
    in ``jobs`` processes. One report per main file."""
    from . import verify_bound
    from .kinds import LOWER_BOUND

    _positive(jobs, "jobs")
    mains = [main] if isinstance(main, (str, os.PathLike)) else list(main)
    try:
        files = (verify_bound.part_files(parts) if isinstance(parts, (str, os.PathLike)) and os.path.isdir(parts)
                 else [parts] if isinstance(parts, (str, os.PathLike)) else list(parts))
    except verify_bound.verify.Unreadable as e:
        raise CertifyError(f"cannot read parts folder {e}") from None
    reports = verify_bound.check_split([os.fspath(m) for m in mains], [os.fspath(f) for f in files], jobs,
                                       None, None, _max_codes(max_codes) or verify_bound.MAX_CODES,
                                       _max_work(max_work), _max_nodes(max_nodes))
    return [Report(r, LOWER_BOUND) for r in reports]


def game_value(pegs: int = 3, colors: int = 3, no_repetition: bool = False,
               feedback: str = "black-white", max_codes: int | None = None, max_work: int | None = None,
               max_nodes: int | None = None) -> GameValue:
    """The value of the game in which the codemaker draws the secret from a distribution and the
    codebreaker may randomise (``certify value``), for games of at most 1296 codes: the
    codemaker's weighted lower bound and the codebreaker's mixed strategy, each checked by its
    trusted checker (under the files' rule), then compared. ``feedback="black-only"``: black-peg
    Mastermind. ``max_codes``, ``max_work``, ``max_nodes``: the checkers' limits, as for
    :func:`load`. Save them with ``.codemaker.save(path)`` and ``.codebreaker.save(path)``."""
    import orjson

    from ._version import __version__
    from .commands.value import MAX_VALUE_CODES
    from .optimality import compare_value
    from .value import game_value as solve
    from .value import mixed_document

    game = _game(pegs, colors, no_repetition, feedback)
    limits = {"max_codes": _max_codes(max_codes), "max_work": _max_work(max_work), "max_nodes": _max_nodes(max_nodes)}
    if game.size > MAX_VALUE_CODES:
        raise CertifyError(f"game {game} has {game.size} codes; the game value is searched for games of at most "
                           f"{MAX_VALUE_CODES} codes (4x6)")
    generator = {"name": "certify", "version": __version__}
    result = solve(game.pegs, game.colors, game.repetition, generator=generator, feedback=game.feedback_rule)
    maker = _checked(orjson.dumps(result.proof, option=orjson.OPT_SORT_KEYS) + b"\n", f"<value {game.slug} codemaker>",
                     **limits)
    breaker = _checked(orjson.dumps(mixed_document(result, generator), option=orjson.OPT_INDENT_2) + b"\n",
                       f"<value {game.slug} codebreaker>", **limits)
    return GameValue(compare_value(breaker._report, maker._report), breaker, maker)


def verify_value(mixed, bound, max_codes: int | None = None, max_work: int | None = None,
                 max_nodes: int | None = None) -> GameValue:
    """A mixed strategy beside a weighted lower bound (``certify verify MIXED --value BOUND``): both
    checked (paths, bytes, dicts or values of this module; the checkers' limits as for
    :func:`load`), then compared; CertifyError when they cannot be (another game, a bound without
    weights)."""
    from .optimality import compare_value

    limits = {"max_codes": max_codes, "max_work": max_work, "max_nodes": max_nodes}
    breaker, maker = _mixed(mixed, **limits), _bound(bound, **limits)
    return GameValue(compare_value(breaker._report, maker._report), breaker, maker)
