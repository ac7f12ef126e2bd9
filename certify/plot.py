"""The distribution of a verified certificate as a bar chart (matplotlib, Agg backend).

Drawn like the charts in the published studies: secrets per number of guesses, each bar labelled
with its count, the mean marked. Only the verifier's replayed figures are plotted.
"""

from __future__ import annotations

import io


FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
BAR = "#0072B2"
MEAN = "#D55E00"

__all__ = ["plot_format", "plot_distribution"]


def plot_format(path) -> str:
    from .files import format_from_extension

    return format_from_extension(path, FORMATS, "chart")


def percent(count: int, total: int) -> str:
    """``count`` of ``total`` as a percentage with one decimal that never reads 0.0% for a non-zero
    count, nor 100.0% for less than all."""
    p = 100 * count / total
    if count and p < 0.05:
        return "<0.1%"
    if count < total and p >= 99.95:
        return ">99.9%"
    return f"{p:.1f}%"


def _overlaps(boxes) -> bool:
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def figure(report):
    """The chart's matplotlib Figure and its bar labels (Text objects, drawn: none overlaps another)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .report import game_text
    from .text import shown

    stats = report.replayed
    n = stats["secrets"]
    ks = list(range(1, stats["max_guesses"] + 1))
    counts = [stats["histogram"].get(str(k), 0) for k in ks]
    mean = stats["total_guesses"] / n

    fig = Figure(figsize=(max(7, 1.5 + 0.3 * len(ks)), 4.2), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    bars = ax.bar(ks, counts, color=BAR, width=0.7, zorder=2)
    ax.axvline(mean, color=MEAN, linestyle="--", linewidth=1.5, zorder=3)
    ax.set_xticks(ks)
    ax.tick_params(axis="x", labelsize=9 if len(ks) <= 20 else 7)
    ax.set_xlabel("guesses needed")
    ax.set_ylabel("secrets")
    ax.grid(axis="y", color="#dddddd", zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    # The mean goes in the title, where no bar label can run into it.
    ax.set_title(f"{shown(report.strategy['name'], 80)} on {game_text(report.game)}\n{n} secrets, "
                 f"max {stats['max_guesses']}, mean {mean:.3f} (dashed line), total {stats['total_guesses']} "
                 "(verified)", fontsize=11)
    # Count and percentage above each bar if they fit side by side; else the count alone, upright,
    # smaller and smaller until no two labels touch.
    styles = [({"fontsize": 9}, True), ({"fontsize": 8, "rotation": 90}, False),
              ({"fontsize": 6, "rotation": 90}, False), ({"fontsize": 5, "rotation": 90}, False)]
    for style, with_percent in styles:
        labels = [f"{c}\n{percent(c, n)}" if with_percent and c else str(c) for c in counts]
        texts = ax.bar_label(bars, labels=labels, padding=3, zorder=4, **style)  # above the mean line
        ax.set_ylim(0, max(counts) * 1.25)
        fig.tight_layout()
        renderer = fig.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in texts]
        top = max(b.y1 for b in boxes)
        limit = ax.get_window_extent(renderer).y1
        if top > limit:  # room above the highest label
            ax.set_ylim(0, max(counts) * 1.25 * (1 + (top - limit) / ax.get_window_extent(renderer).height + 0.05))
            fig.tight_layout()
            boxes = [t.get_window_extent(renderer) for t in texts]
        if not _overlaps(boxes) or style is styles[-1][0]:
            break
        for t in texts:
            t.remove()
    return fig, texts


def plot_distribution(report, out, inputs=()) -> None:
    """Write the bar chart of ``report.replayed`` (a valid verifier Report) to ``out``."""
    fmt = plot_format(out)
    fig, _ = figure(report)

    save(fig, out, fmt, inputs)


def save(fig, out, fmt: str, inputs=()) -> None:
    """Write a matplotlib figure with no dates or software versions in the file, so re-running
    gives the same bytes."""
    import matplotlib

    from .files import write_output

    buf = io.BytesIO()
    metadata = {"svg": {"Date": None, "Creator": None}, "pdf": {"CreationDate": None, "Creator": None,
                                                               "Producer": None},
                "png": {"Software": None}}[fmt]
    with matplotlib.rc_context({"svg.hashsalt": "certify", "svg.fonttype": "none"}):
        fig.savefig(buf, format=fmt, metadata=metadata)
    write_output(out, buf.getvalue(), inputs)
