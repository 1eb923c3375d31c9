#!/usr/bin/env python3
"""heatmap.py WEIGHTS.npy OUT.(svg|png) [--labels=a,b,c] [--query-labels=x,y] [--title=T]

Draws attention weights [..., Tq, Tk] with matplotlib: rows are query positions, columns key
positions, one panel per leading index (a head of a multi-head graph, a batch element). Called by
`attn-run --heatmap`; matplotlib (Debian's python3-matplotlib) does the drawing. Values are printed
in the cells when the matrix is small enough to read them. Writes OUT atomically.
"""
import math
import os
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(f"{os.path.basename(__file__)}: matplotlib is not installed (Debian: python3-matplotlib; "
             "scripts/setup.sh installs it)")

matplotlib.use("Agg")  # no display: files only
# SVG text stays text (not glyph outlines): smaller files, labels that can be searched and selected.
matplotlib.rcParams["svg.fonttype"] = "none"
# Labels are tokens, drawn as written: a `$` in one is no start of mathtext (whose parse error was
# the tool's traceback).
matplotlib.rcParams["text.parse_math"] = False
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def fail(msg):
    sys.stderr.write(f"heatmap.py: {msg}\n")
    sys.exit(1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 2:
        fail("usage: heatmap.py WEIGHTS.npy OUT.(svg|png) [--labels=...] [--query-labels=...] [--title=...]")
    src, out = args
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".svg", ".png"):
        fail(f"'{out}': the heatmap is written as .svg or .png")
    try:
        w = np.load(src).astype(np.float64)
    except (OSError, ValueError) as e:
        fail(f"cannot read '{src}': {e}")
    if w.ndim < 2:
        fail(f"attention weights need at least 2 dimensions [Tq, Tk], got shape {w.shape}")
    tq, tk = w.shape[-2:]
    panels = w.reshape(-1, tq, tk)
    keys = opts["labels"].split(",") if opts.get("labels") else None
    queries = opts["query-labels"].split(",") if opts.get("query-labels") else None
    if keys and len(keys) != tk:
        fail(f"--labels has {len(keys)} labels, but there are {tk} key positions")
    if queries and len(queries) != tq:
        fail(f"--query-labels has {len(queries)} labels, but there are {tq} query positions")
    if len(panels) > 64:
        fail(f"{len(panels)} panels (leading dims {w.shape[:-2]}) is more than 64: return fewer heads")

    cols = min(len(panels), 4)
    rows = math.ceil(len(panels) / cols)
    cell = 0.5 if max(tq, tk) <= 16 else max(2.5 / max(tq, tk), 0.05)
    width, height = max(2.5, tk * cell + 1.5), max(1.5, tq * cell + 1.2)
    fig, axes = plt.subplots(rows, cols, figsize=(cols * width, rows * height), squeeze=False,
                             layout="constrained")
    lead = list(np.ndindex(*w.shape[:-2])) if w.ndim > 2 else [()]
    for n, ax in enumerate(axes.flat):
        if n >= len(panels):
            ax.axis("off")
            continue
        im = ax.imshow(panels[n], cmap="viridis", vmin=0.0, vmax=max(1e-12, float(panels.max())),
                       aspect="auto", interpolation="nearest")
        if lead[n]:
            ax.set_title("[" + ", ".join(map(str, lead[n])) + "]", fontsize=9)
        ax.set_xlabel("key position")
        ax.set_ylabel("query position")
        step_k, step_q = max(1, tk // 16), max(1, tq // 16)  # integer positions, at most ~16 ticks
        ax.set_xticks(range(0, tk, step_k), keys[::step_k] if keys else range(0, tk, step_k),
                      rotation=45 if keys and sum(map(len, keys)) > 4 * tk else 0)
        ax.set_yticks(range(0, tq, step_q), queries[::step_q] if queries else range(0, tq, step_q))
        if tq * tk <= 256:
            for i in range(tq):
                for j in range(tk):
                    v = panels[n, i, j]
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                            color="black" if v > 0.5 * panels.max() else "white")
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8, label="weight")
    if opts.get("title"):
        fig.suptitle(opts["title"])
    tmp = os.path.join(os.path.dirname(os.path.abspath(out)), "." + os.path.basename(out) + ".tmp" + ext)
    fig.savefig(tmp, format=ext[1:], bbox_inches="tight")
    os.replace(tmp, out)


main()
