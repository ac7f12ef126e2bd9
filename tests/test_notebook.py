"""docs/example.ipynb, executed fresh in a kernel of this Python (nbclient), so it never rots."""

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "example.ipynb"
#: Graphviz's dot draws the picture; where it is missing (CI as a user) the note replaces it.
HAVE_DOT = shutil.which("dot") is not None


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook run from docs/ (where Jupyter starts it), {tag: cell}, in a kernel whose
    spec names this interpreter (the 'python3' spec says 'python', whichever is on PATH)."""
    home = tmp_path_factory.mktemp("jupyter")
    spec = home / "kernels" / "certify-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "certify test", "language": "python"}))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(home))
        mp.setenv("JUPYTER_RUNTIME_DIR", str(home / "runtime"))
        mp.setenv("IPYTHONDIR", str(home / "ipython"))
        nb = nbformat.read(NOTEBOOK, as_version=4)
        # One extra cell at the end says which interpreter ran the notebook.
        nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)", id="which"))
        nb.cells[-1].metadata["tags"] = ["which"]
        NotebookClient(nb, kernel_name="certify-test", timeout=120,
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return {c.metadata["tags"][0]: c for c in nb.cells if c.cell_type == "code"}


def _text(cell) -> str:
    """Everything a cell printed or displayed, as text (streams, text/plain and text/html)."""
    out = []
    for o in cell.outputs:
        if o.output_type == "stream":
            out.append(o.text)
        elif o.output_type in ("execute_result", "display_data"):
            out.extend(o.data.get(k, "") for k in ("text/plain", "text/html"))
    return "\n".join(out)


def _html(cell) -> str:
    return "".join(o.data.get("text/html", "") for o in cell.outputs if o.output_type == "execute_result")


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(c.outputs == [] for c in nb.cells if c.cell_type == "code")


def test_it_runs_without_errors_in_this_interpreter(executed):
    errors = [(tag, o.get("ename")) for tag, c in executed.items() for o in c.outputs if o.output_type == "error"]
    assert errors == []
    assert _text(executed["which"]).strip() == sys.executable
    assert all(c.execution_count for c in executed.values())


def _size(cell) -> int:
    """The bytes a cell's outputs add to the notebook file."""
    return len(json.dumps([dict(o) for o in cell.outputs]).encode())


def test_built_certificate_shows_its_table_and_picture(executed):
    cell = executed["build"]
    shown = _html(cell)
    assert "knuth</b> on 4 pegs x 6 colours (1296 secrets), verified" in shown
    assert "<td style=\"text-align:right\">694</td>" in shown  # the table's 5-guess row
    assert "<iframe" not in shown and "write_page(" in shown  # the interactive page: on demand
    assert not any("image/svg+xml" in o.data for o in cell.outputs if o.output_type == "execute_result")
    if HAVE_DOT:  # the picture, inline: the first level (the whole default picture is 85 KB)
        assert "<svg" in shown and "svg(depth=K) draws more" in shown
    else:
        assert "no picture: Graphviz" in shown


def test_a_certificates_display_stays_small(executed):
    """Issue 38: each certificate's display embedded 220-420 KB. Measured: 4x6's build cell."""
    assert _size(executed["build"]) < 20_000, _size(executed["build"])
    assert _size(executed["optimal"]) < 20_000, _size(executed["optimal"])


def test_the_page_is_written_on_demand_and_linked(executed):
    link = _html(executed["page"])
    assert link.startswith("<p>interactive tree: <a href=") and "knuth-4x6.html</a>" in link
    assert _size(executed["page"]) < 2_000


def test_a_refused_report_says_why_in_the_apis_words(executed):
    text = _text(executed["refused"])
    assert "strategy: invalid: secret 3553 needs 5 guesses, more than max_guesses=4" in text
    assert "--max-guesses" not in text


def test_why_compare_and_the_game_value(executed):
    assert "every strategy for 4x6 needs >= 5 guesses" in _text(executed["why"])
    assert "0011       90  256 after 0,0 or 0,1 or 1,0" in _text(executed["why"])
    frame = _html(executed["compare"])
    assert "entropy" in frame and "5722" in frame and "5801" in frame
    text = _text(executed["value"])
    assert "game value v = 219/68 (≈ 3.2206), proven from both sides" in text
    assert "valid mixed strategy" in text and "needs on average at most 219/68" in text


def test_verify_says_valid_with_the_replayed_claims(executed):
    text = _text(executed["verify"])
    assert "valid: 1296 secrets of 4x6, max 5 guesses (<= 5 as asked), total 5801" in text
    assert ">valid</b>" in _html(executed["verify"])


def test_stats_table_is_a_dataframe_of_the_distribution(executed):
    cell = executed["stats"]
    assert "total 5801 guesses over 1296 secrets, mean 4.476, max 5" in _text(cell)
    frame = _html(cell)
    assert "dataframe" in frame and "cumulative_pct" in frame
    for count in (1, 6, 62, 533, 694):
        assert f"<td>{count}</td>" in frame


def test_explain_hint_and_weight_table(executed):
    explained = _html(executed["explain"])
    assert "found in 4 guesses" in explained and "<td style=\"text-align:left\">3132</td>" in explained
    hint = _text(executed["hint"])
    assert "knuth would play 0123 (not a candidate: it cannot be the secret)" in hint
    assert "largest class 21" in hint
    table = _html(executed["table"])
    assert "least weight (21)" in table and table.count("<tr>") == 1 + 8


def test_optimality_of_knuth_and_of_the_exact_search(executed):
    assert "optimal: max 5 guesses = proven minimum 5" in _text(executed["optimality"])
    assert "every strategy for 4x6 needs &gt;= 5 guesses for some secret" in _html(executed["optimality"])
    text = _text(executed["optimal"])
    assert "optimal: total 73 guesses = proven minimum 73" in text
    assert "optimal-total</b> on 3 pegs x 3 colours (27 secrets), verified" in text
