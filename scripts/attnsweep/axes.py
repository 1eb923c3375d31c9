"""What the sweep varies, and which combinations exist.

A case is one value per axis below plus details drawn from the case's own random generator (scale,
window width, mask and key-length shapes, widths of bilinear and additive operands, the hand-written
schedule or the tuner's candidate). The axes are what users write and what the kernels branch on:
the op form, the score kind, the mask options and their combinations, the batch and head layout
(GQA and MQA), sizes that straddle every vector width and block, the element type, the target, and
where the schedule comes from."""

FORMS = ["fused", "chain", "multi_head", "multi_head_whole"]
KINDS = ["dot", "scaled_dot", "scaled_dot_scale", "bilinear", "additive"]
MASKS = ["none", "causal", "window", "causal_window", "key_lengths", "causal_key_lengths", "bool",
         "bool_causal", "bias", "bias_key_lengths", "window_key_lengths", "all"]
# (batch, query heads, kv heads); None: that dim is absent. "2d" is [T, D], "3d" [B, T, D].
LAYOUTS = {
    "2d": (None, None, None),
    "3d": (2, None, None),
    "gqa1": (2, 2, 2),
    "gqa3": (1, 6, 2),
    "gqa4": (1, 8, 2),
    "mqa4": (2, 4, 1),
    "mqa9": (1, 9, 1),
}
SIZES = [1, 2, 3, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 65, 127, 129]
DIMS = [1, 3, 8, 16, 24, 64, 80, 128]
ELEMS = ["f32", "f16", "bf16"]
SCHEDULES = ["heuristic", "hand", "tuner"]
THREADS = [1, 2]

# attn's CPU targets by name (Halide target strings; None: attn's default, the host minus what the
# CPU lacks) and the GPU schedules through OpenCL.
TARGETS = {
    "host": None,
    "avx2": "x86-64-linux-avx-avx2-f16c-fma-sse41",
    "avx512_skylake": "x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41",
    "avx512_cannonlake": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
    "avx512_sapphirerapids": "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-"
                             "avx512_skylake-f16c-fma-sse41",
    "opencl": "host-opencl",
}
# The Halide feature a CPU target needs beyond the one before it (what attn-opt --version's default
# target must name for attn-run to run it here).
TARGET_FEATURE = {"avx512_skylake": "avx512_skylake", "avx512_cannonlake": "avx512_cannonlake",
                  "avx512_sapphirerapids": "avx512_sapphirerapids"}


def axes(targets):
    """The axes of the covering set, with the targets this machine runs."""
    return {
        "form": FORMS,
        "kind": KINDS,
        "mask": MASKS,
        "layout": list(LAYOUTS),
        "tq": SIZES,
        "tk": SIZES,
        "dk": DIMS,
        "dv": DIMS,
        "elem": ELEMS,
        "target": targets,
        "schedule": SCHEDULES,
        "threads": THREADS,
    }


def valid(row):
    """Whether a (partial) case exists: the ops' rules, and what each target and schedule source
    takes. Only the pairs this allows are covered."""
    form, kind, layout = row.get("form"), row.get("kind"), row.get("layout")
    mask, target, schedule = row.get("mask"), row.get("target"), row.get("schedule")
    multi = form in ("multi_head", "multi_head_whole")
    # attn.score has no GQA: the unfused chain's heads agree.
    if form == "chain" and layout in ("gqa3", "gqa4", "mqa4", "mqa9"):
        return False
    # attn.multi_head: dot or scaled_dot scores, [B, T, E] inputs split into heads.
    if multi and (kind in ("bilinear", "additive") or layout in ("2d", "3d")):
        return False
    # Key lengths run over batch dims.
    if mask and "key_lengths" in mask and layout == "2d":
        return False
    # PoCL's CPU device has no 16-bit types; Halide's autoschedulers are CPU-only.
    if target == "opencl" and (row.get("elem") not in (None, "f32") or schedule == "autoscheduler"):
        return False
    # PoCL corrupts its memory running the fused kernel of a decomposed multi_head layer with a
    # head dim below 4 on OpenCL (the kernel's source, run as C under ASan, stays in bounds:
    # docs/HARDENING.md); a real GPU would settle it.
    if form == "multi_head" and target == "opencl" and row.get("dk", 4) < 4:
        return False
    # The tuner tunes attn.attention ops.
    if schedule == "tuner" and form not in (None, "fused"):
        return False
    return True
