"""``rulekit simulate --plot FILE.png``: the figures of a simulation drawn with matplotlib.

matplotlib is an optional extra (``pip install "rulekit[plot]"``); nothing else of rulekit
imports this module. It draws with the Agg backend on a figure of its own (never through
``pyplot``), so it needs no display and leaves a caller's matplotlib settings alone.
"""

from __future__ import annotations

EXTRA = 'pip install "rulekit[plot]"'


class PlotUnavailable(ImportError):
    """matplotlib is not installed; the message names the extra that brings it."""


def require() -> None:
    """Check that matplotlib can be imported.

    Raises:
        PlotUnavailable: it cannot (the message says how to install it).
    """
    try:
        import matplotlib  # noqa: F401
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
    except ImportError:
        raise PlotUnavailable(f"needs matplotlib, which is not installed here: {EXTRA}") from None


def render(path: str, title: str, figures: dict, summary) -> None:
    """Draw a simulation into the PNG file ``path``, in three panels: the win share of each
    seat (and of each bot kind, when several play) with its 95 % interval, beside the
    share every seat would have if all were equal; the distribution of match length
    (decisions and turns per finished match); the bluffing shares by seat, by bot kind and
    over every seat (false claims, challenges that succeeded, lies caught), the last with
    its interval.

    Args:
        path: the PNG file to write.
        title: the figure's title (the game and its line-up).
        figures: :func:`rulekit.analysis.simulation.figures` of the simulation.
        summary: its :class:`rulekit.analysis.simulation.Summary` (for the lengths of every match).

    Raises:
        PlotUnavailable: matplotlib is not installed.
    """
    require()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(16, 5.2), layout="constrained")
    FigureCanvasAgg(fig)
    fig.suptitle(title)
    wins, length, bluff = fig.subplots(1, 3, width_ratios=(1.1, 1, 1.3))
    _win_shares(wins, figures)
    _lengths(length, summary, figures)
    _bluffing(bluff, figures)
    fig.savefig(path, format="png", dpi=100)


def _groups(figures: dict) -> list[tuple[str, dict]]:
    """(label, figures) of each seat, then of each bot kind when there are several."""
    groups = [(f"P{f['seat']}", f) for f in figures["seats"]]
    if len(figures["kinds"]) > 1:
        groups += [(f["kind"], f) for f in figures["kinds"]]
    return groups


def _win_shares(ax, figures: dict) -> None:
    groups = _groups(figures)
    xs = list(range(len(groups)))
    shares = [f["win_share"] or 0.0 for _, f in groups]
    low = [s - f["win_interval"][0] for s, (_, f) in zip(shares, groups)]
    high = [f["win_interval"][1] - s for s, (_, f) in zip(shares, groups)]
    n = len(figures["seats"])
    colours = ["tab:blue"] * n + ["tab:orange"] * (len(groups) - n)
    ax.bar(xs, shares, color=colours, alpha=0.8)
    # an interval only where there is a share: none over 0 matches (its interval would be all of 0–1)
    drawn = [i for i, (_, f) in enumerate(groups) if f["win_share"] is not None]
    if drawn:
        ax.errorbar([xs[i] for i in drawn], [shares[i] for i in drawn],
                    yerr=[[low[i] for i in drawn], [high[i] for i in drawn]], fmt="none", ecolor="black", capsize=4,
                    label="95 % interval")
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"equal share (1/{n})")
    ax.set_xticks(xs, [label for label, _ in groups])
    ax.set_ylabel("win share (a shared win counts 1/k)")
    p = figures["fairness"]["p"]
    ax.set_title("Win share" + ("" if p is None else f" (seat fairness p = {p:.3g})"))
    top = max((f["win_interval"][1] for _, f in groups if f["win_share"] is not None), default=1 / n)
    ax.set_ylim(0, min(1.0, max(top, 1 / n) * 1.15 + 0.02))
    ax.legend(loc="upper right", fontsize="small")


def _lengths(ax, summary, figures: dict) -> None:
    series = [(name, values) for name, values in (("decisions", summary.decisions), ("turns", summary.turns))
              if values and max(values) > 0]
    if len(series) == 2 and series[0][1] == series[1][1]:
        series = [("decisions = turns", summary.decisions)]       # a game of turns alone: one histogram
    if not series:
        ax.set_title("Match length: no finished match")
        return
    low = min(min(values) for _, values in series)
    top = max(max(values) for _, values in series)
    if top - low < 50:                  # one bar per whole number
        bins = [x - 0.5 for x in range(low, top + 2)]
    else:
        bins = [low + (top + 1 - low) * i / 40 for i in range(41)]
    for name, values in series:
        median = figures["length"][name.split()[0]]["median"]
        ax.hist(values, bins=bins, histtype="stepfilled", alpha=0.45, label=f"{name} (median {median:g})")
    ax.set_xlabel("per finished match")
    ax.set_ylabel("matches")
    deals = figures["length"]["deals"]
    median = None if deals is None else deals["median"]
    ax.set_title("Match length" if median is None else
                 f"Match length (median {median:g} deal{'' if median == 1 else 's'})")
    ax.legend(loc="upper right", fontsize="small")


def _bluffing(ax, figures: dict) -> None:
    bluff = figures["bluffing"]
    if not bluff["claims"]:
        ax.set_title("Bluffing: no claim was made")
        ax.set_axis_off()
        return
    groups = _groups(figures) + [("all", bluff)]
    measures = (("false_share", "false_interval", "false claims"),
                ("challenge_success", "challenge_success_interval", "challenges that succeeded"),
                ("lies_caught_share", "lies_caught_interval", "lies caught"))
    width = 0.8 / len(measures)
    for m, (key, interval, label) in enumerate(measures):
        xs = [g + (m - (len(measures) - 1) / 2) * width for g in range(len(groups))]
        values = [f[key] if f[key] is not None else 0.0 for _, f in groups]
        ax.bar(xs, values, width=width, label=label)
        iv = bluff[interval]            # over every seat: its interval
        if bluff[key] is None or iv is None:
            continue                    # a share of nothing (no challenge made…): an empty bar, no interval
        ax.errorbar([xs[-1]], [values[-1]], yerr=[[values[-1] - iv[0]], [iv[1] - values[-1]]], fmt="none",
                    ecolor="black", capsize=3)
    ax.set_xticks(range(len(groups)), [label for label, _ in groups])
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("share")
    ax.set_title(f"Bluffing ({bluff['claims_per_match']:.1f} claims, {bluff['challenges_per_match']:.1f} challenges "
                 f"per match)")
    ax.legend(loc="upper left", fontsize="small", ncols=3)
