"""The distribution of a verified certificate as a bar chart (matplotlib, Agg backend).

Drawn like the charts in the published studies: secrets per number of guesses, each bar labelled
with its count, the mean marked. Only the verifier's replayed figures are plotted.
"""

from __future__ import annotations

import io
from pathlib import Path

from .errors import CertifyError

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
BAR = "#0072B2"
MEAN = "#D55E00"

__all__ = ["plot_format", "plot_distribution"]


def plot_format(path) -> str:
    from .files import format_from_extension

    return format_from_extension(path, FORMATS, "chart")


def plot_distribution(report, out, inputs=()) -> None:
    """Write the bar chart of ``report.replayed`` (a valid verifier Report) to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from .files import write_output
    from .report import game_text
    from .text import shown

    fmt = plot_format(out)
    stats = report.replayed
    n = stats["secrets"]
    ks = list(range(1, stats["max_guesses"] + 1))
    counts = [stats["histogram"].get(str(k), 0) for k in ks]
    mean = stats["total_guesses"] / n

    fig = Figure(figsize=(7, 4.2), dpi=120)
    ax = fig.subplots()
    bars = ax.bar(ks, counts, color=BAR, width=0.7, zorder=2)
    ax.bar_label(bars, labels=[f"{c}\n{100 * c / n:.1f}%" if c else "0" for c in counts],
                 padding=3, fontsize=9)
    ax.axvline(mean, color=MEAN, linestyle="--", linewidth=1.5, zorder=3)
    top = max(counts) * 1.25
    ax.set_ylim(0, top)
    ax.text(mean, top * 0.97, f" mean {mean:.3f}", color=MEAN, va="top", ha="left", fontsize=10)
    ax.set_xticks(ks)
    ax.set_xlabel("guesses needed")
    ax.set_ylabel("secrets")
    ax.grid(axis="y", color="#dddddd", zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(f"{shown(report.strategy['name'], 80)} on {game_text(report.game)}: {n} secrets, "
                 f"max {stats['max_guesses']}, total {stats['total_guesses']} (verified)", fontsize=11)
    fig.tight_layout()

    buf = io.BytesIO()
    # No dates or software versions in the file, so re-running gives the same bytes.
    metadata = {"svg": {"Date": None, "Creator": None}, "pdf": {"CreationDate": None, "Creator": None,
                                                               "Producer": None},
                "png": {"Software": None}}[fmt]
    with matplotlib.rc_context({"svg.hashsalt": "certify", "svg.fonttype": "none"}):
        fig.savefig(buf, format=fmt, metadata=metadata)
    write_output(out, buf.getvalue(), inputs)
