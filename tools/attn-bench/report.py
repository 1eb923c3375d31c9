#!/usr/bin/env python3
"""report.py RESULTS.json REPORT.html: attn-bench's results as one self-contained HTML page.

attn-bench --report runs this after every measurement, so the page follows the run: until the
results say `complete`, the page reloads itself every few seconds. Charts are drawn by matplotlib
(Debian's python3-matplotlib) and embedded as SVG data URIs: the page needs no network and no other
file. Sections:
  - latency and throughput against sequence length, per scheme, with the measured FMA peak, for each
    thread count;
  - the other shapes (causal, batched, decode, additive, score kinds): median time per scheme;
  - the comparison table (sortable): median, spread, GFLOP/s, % of peak, ratio to the best
    baseline, GB/s, G tanh/s, peak memory;
  - the pipeline of one kernel: the graph, the IR after each attn pass, the #attn.schedule chosen,
    the schedule of every stage, Halide's loop nest, and the machine code's instruction counts.
"""
import base64
import html
import io
import json
import os
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(f"{os.path.basename(__file__)}: matplotlib is not installed (Debian: python3-matplotlib; "
             "scripts/setup.sh installs it)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RELOAD_SECONDS = 3
# One colour and marker per scheme, stable across charts and rewrites.
SCHEMES = ["attn-fused", "attn-tuned", "attn-unfused", "halide-adams2019", "halide-mullapudi2016",
           "halide-li2018", "openblas", "onednn", "numpy"]
STYLE = {s: (f"C{i}", "os^v<>Dpx"[i]) for i, s in enumerate(SCHEMES)}


def esc(text):
    return html.escape(str(text), quote=True)


def svg_uri(fig):
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue().encode()).decode()


def figure(fig_id, caption, fig):
    return (f'<figure id="{fig_id}"><img alt="{esc(caption)}" src="{svg_uri(fig)}">'
            f"<figcaption>{esc(caption)}</figcaption></figure>\n")


def sweep_rows(rows, threads):
    """The sequence-length sweep: prefill shapes with Tq = Tk, no mask, B = 1, H = 8, D = 64."""
    return [r for r in rows if r["group"] == "prefill" and r["Tq"] == r["Tk"] and not r["causal"]
            and r["B"] == 1 and r["H"] == 8 and r["D"] == 64 and r["threads"] == threads]


def sweep_charts(doc, threads):
    rows = sweep_rows(doc["rows"], threads)
    peak = doc["peak_gflops"].get(str(threads))
    out = ""
    for kind in ("latency", "throughput"):
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        for scheme in SCHEMES:
            pts = sorted((r["Tq"], r["median_ms"] if kind == "latency" else r["gflops"])
                         for r in rows if r["scheme"] == scheme and r.get("ok"))
            if pts:
                color, marker = STYLE[scheme]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, label=scheme)
        if kind == "throughput" and peak:
            ax.axhline(peak, color="black", linestyle="--", linewidth=1,
                       label=f"measured FMA peak ({peak:.0f} GFLOP/s)")
        ax.set_xscale("log", base=2)
        if kind == "latency":
            ax.set_yscale("log")
        ax.set_xlabel("sequence length S (B=1, H=8, D=64)")
        ax.set_ylabel("median time (ms)" if kind == "latency" else "GFLOP/s")
        ax.set_title(f"{kind}, {threads} thread{'s' if threads > 1 else ''}")
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
        else:
            ax.text(0.5, 0.5, "not measured yet", ha="center", va="center", transform=ax.transAxes)
        out += figure(f"chart-{kind}-{threads}T", f"{kind.capitalize()} against sequence length, "
                      f"{threads} thread(s)", fig)
    return out


def shapes_chart(doc, threads):
    sweep = {id(r) for r in sweep_rows(doc["rows"], threads)}
    rows = [r for r in doc["rows"] if r["threads"] == threads and id(r) not in sweep]
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    fig, ax = plt.subplots(figsize=(7.0, 0.45 * max(3, len(shapes)) + 1.2))
    schemes = [s for s in SCHEMES if any(r["scheme"] == s for r in rows)]
    height = 0.8 / max(1, len(schemes))
    for k, scheme in enumerate(schemes):
        ys, xs = [], []
        for i, shape in enumerate(shapes):
            r = next((r for r in rows if r["shape"] == shape and r["scheme"] == scheme and r.get("ok")), None)
            if r:
                ys.append(i + k * height)
                xs.append(r["median_ms"])
        if xs:
            ax.barh(ys, xs, height=height, color=STYLE[scheme][0], label=scheme)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(shapes))], shapes)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("median time (ms), log scale")
    ax.set_title(f"other shapes, {threads} thread{'s' if threads > 1 else ''}")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    if schemes:
        ax.legend(fontsize=7)
    return figure(f"chart-shapes-{threads}T", f"Median time of every scheme on the other shapes, "
                  f"{threads} thread(s)", fig)


def num(v, fmt):
    return format(v, fmt) if isinstance(v, (int, float)) and v > 0 else ""


def table(doc):
    head = ["shape", "scheme", "T", "median ms", "spread ms", "GFLOP/s", "% peak", "x best",
            "GB/s", "G tanh/s", "RSS MB", "status"]
    out = ['<table id="comparison-table" class="sortable"><thead><tr>' +
           "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for r in doc["rows"]:
        status = "ok" if r.get("ok") else (r.get("error") or "failed") if r.get("measured") else "pending"
        cells = [r["shape"], r["scheme"], r["threads"], num(r.get("median_ms"), ".3f"),
                 f"{r['min_ms']:.3f}-{r['max_ms']:.3f}" if r.get("ok") else "",
                 num(r.get("gflops"), ".1f"), num(r.get("pct_peak"), ".1f"),
                 num(r.get("ratio_to_best_baseline"), ".2f"), num(r.get("gbps"), ".1f"),
                 num(r.get("gtanh_per_s"), ".2f"), num(r.get("rss_mb"), ".0f"), status]
        cls = "ok" if r.get("ok") else "pending" if not r.get("measured") else "failed"
        out.append(f'<tr class="{cls}">' + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def pairs_table(doc):
    pairs = doc.get("pairs") or []
    if not pairs:
        return ""
    head = ["A/B", "shape", "T", "A ms", "B ms", "A/B", "spread", "rounds", "status"]
    out = ['<section id="pairs"><h2>Side by side</h2>'
           f"<p>Each pair's two kernels called alternately in one process, {doc.get('pair_rounds')} "
           "rounds (fewer where that would take over a minute); A/B is the median of the rounds' "
           "ratios (heuristic/tuned: the heuristic's schedule over the tuner's pick; "
           "unmasked/causal: the speedup of the causal mask; &lt;baseline&gt;/fused: the fused "
           "kernel's speedup over the fastest library baseline of the shape; peak/fused: the fused "
           "kernel's fraction of the FMA peak, each round 0.1 s of the probe, then the median of "
           "the kernel's calls over as long).</p>",
           '<table id="pairs-table"><thead><tr>' + "".join(f"<th>{esc(h)}</th>" for h in head) +
           "</tr></thead><tbody>"]
    for p in pairs:
        status = "ok" if p.get("ok") else (p.get("error") or "failed") if p.get("measured") else "pending"
        shape = p["shape_a"] if p["shape_a"] == p["shape_b"] else f"{p['shape_a']} / {p['shape_b']}"
        cells = [p["comparison"], shape, p["threads"], num(p.get("median_ms_a"), ".3f"),
                 num(p.get("median_ms_b"), ".3f"), num(p.get("ratio_median"), ".3f"),
                 f"{p['ratio_min']:.3f}-{p['ratio_max']:.3f}" if p.get("ok") else "",
                 # (Files of runs before pairs had rounds of their own: every pair ran all of them.)
                 p.get("rounds", doc.get("pair_rounds")) if p.get("ok") else "", status]
        cls = "ok" if p.get("ok") else "pending" if not p.get("measured") else "failed"
        out.append(f'<tr class="{cls}">' + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table></section>")
    return "\n".join(out)


def pipeline(doc):
    p = doc.get("pipeline") or {}
    if not p:
        return "<p>No pipeline recorded (attn-bench --report records one).</p>"
    out = [f"<p>The kernel of <b>{esc(p['shape'])}</b> ({esc(p['describe'])}), target "
           f"<code>{esc(p['target'])}</code>, from the graph as written to machine code.</p>"]
    for i, step in enumerate(p["passes"]):
        title = "the graph as written" if step["pass"] == "input" else f"after --{step['pass']}"
        out.append(f'<details class="stage" id="stage-{i}"{" open" if i in (0, len(p["passes"]) - 1) else ""}>'
                   f"<summary>{i + 1}. {esc(title)}</summary><pre>{esc(step['ir'])}</pre></details>")
    n = len(p["passes"])
    out.append(f'<details class="stage" id="stage-schedule" open><summary>{n + 1}. the schedule: '
               f"<code>{esc(p['schedule_attr'])}</code></summary><pre>{esc(p['schedule_log'])}</pre></details>")
    out.append(f'<details class="stage" id="stage-stmt"><summary>{n + 2}. Halide\'s loop nest '
               f"({p['stmt_lines']} lines; the first 400)</summary><pre>{esc(p['stmt'])}</pre></details>")
    a = p["asm_summary"]
    labels = [("instructions", "instructions"), ("vector_fma", "vector FMAs"),
              ("zmm", "512-bit (zmm) instructions"), ("ymm", "256-bit (ymm) instructions"),
              ("xmm", "128-bit (xmm) instructions"), ("broadcasts", "broadcasts"),
              ("scalar_fp", "scalar float instructions"), ("calls", "calls")]
    rows = "".join(f"<tr><td>{esc(t)}</td><td>{a.get(k, 0)}</td></tr>" for k, t in labels)
    out.append(f'<details class="stage" id="stage-asm" open><summary>{n + 3}. machine code</summary>'
               f'<table id="asm-summary"><tbody>{rows}</tbody></table></details>')
    return "\n".join(out)


STYLE_SHEET = """
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { margin-bottom: 0.2em; } .status { font-weight: bold; }
figure { display: inline-block; margin: 0.5em; vertical-align: top; }
figure img { max-width: 640px; } figcaption { font-size: 0.85em; color: #555; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; cursor: pointer; } td:nth-child(-n+2) { text-align: left; }
tr.pending td { color: #999; } tr.failed td { color: #b00; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 0.8em; max-height: 30em; }
details.stage { margin: 0.3em 0; } summary { cursor: pointer; }
"""

SCRIPT = """
window.addEventListener('error', function (e) {
  document.body.setAttribute('data-js-error', String(e.message));
});
// Click a column heading to sort the comparison table by it (numbers numerically).
document.querySelectorAll('table.sortable th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var up = th.getAttribute('data-sorted') !== 'up';
    rows.sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    th.setAttribute('data-sorted', up ? 'up' : 'down');
  });
});
document.body.setAttribute('data-js', 'ok');
"""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py RESULTS.json REPORT.html")
    src, out = sys.argv[1:]
    try:
        with open(src) as f:
            doc = json.load(f)
        doc["rows"], doc["peak_gflops"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"report.py: '{src}' is not attn-bench's results JSON: {e!r}")
    rows = doc["rows"]
    measured = sum(1 for r in rows if r.get("measured"))
    complete = bool(doc.get("complete"))
    pairs = doc.get("pairs") or []
    pairs_done = (f", {sum(1 for p in pairs if p.get('measured'))} of {len(pairs)} pairs"
                  if pairs else "")
    threads = sorted({r["threads"] for r in rows})
    peaks = ", ".join(f"{t} thread(s): {doc['peak_gflops'][str(t)]:.1f} GFLOP/s"
                      for t in threads if str(t) in doc["peak_gflops"])
    status = (f"complete: {measured} measurements in {doc.get('seconds', 0):.0f} s" if complete else
              f"running: {measured} of {len(rows)} measured{pairs_done}; this page reloads every "
              f"{RELOAD_SECONDS} s")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">']
    if not complete:
        parts.append(f'<meta http-equiv="refresh" content="{RELOAD_SECONDS}">')
    parts.append(f"<title>attn-bench report</title><style>{STYLE_SHEET}</style></head>")
    parts.append(f'<body data-complete="{str(complete).lower()}">')
    parts.append(f"<h1>attn-bench</h1><p class=\"status\" id=\"status\">{esc(status)}</p>")
    parts.append(f"<p>{esc(doc.get('date', ''))}; target <code>{esc(doc.get('target', ''))}</code>; "
                 f"measured FMA peak {esc(peaks)}; median of {doc.get('reps')} runs after a warm-up.<br>"
                 f"<code>{esc(doc.get('command', ''))}</code></p>")
    parts.append('<section id="sweep"><h2>Latency and throughput against sequence length</h2>')
    for t in threads:
        parts.append(sweep_charts(doc, t))
    parts.append('</section><section id="shapes"><h2>The other shapes</h2>')
    for t in threads:
        parts.append(shapes_chart(doc, t))
    parts.append('</section><section id="comparison"><h2>Comparison</h2>'
                 "<p>x best: the best library baseline's median time over this row's, same shape and "
                 "thread count (above 1: faster). Click a heading to sort.</p>")
    parts.append(table(doc))
    parts.append("</section>" + pairs_table(doc))
    parts.append('<section id="pipeline"><h2>Pipeline of one kernel</h2>')
    parts.append(pipeline(doc))
    parts.append(f"</section><script>{SCRIPT}</script></body></html>\n")
    tmp = os.path.join(os.path.dirname(os.path.abspath(out)), "." + os.path.basename(out) + ".tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(parts))
    os.replace(tmp, out)


main()
