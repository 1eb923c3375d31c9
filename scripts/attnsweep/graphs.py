"""A case as MLIR text and the attn-run command that checks it.

`Case(row, rng)` takes one value per axis (axes.py) and draws the rest from `rng`, in a fixed order,
so that a case depends only on its row and its generator's seed."""

from . import axes as ax


def tensor(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


# Hand-written #attn.schedule values: every parameter within the bounds the verifier states for any
# target (1 to 64 for the register blocks and lanes, up to 1024 rows per tile), beyond what the
# heuristic writes: blocks that do not divide, one-lane vectors, split-K on prefill.
HAND_SCHEDULE = {
    "tile_q": [1, 2, 4, 8, 16, 24, 32, 48, 64, 128],
    "block_k": [1, 8, 16, 32, 64, 128, 256, 1024],
    "vector": [1, 4, 8, 16],
    "reg_q": [1, 2, 3, 4, 6, 8],
    "reg_k": [1, 2, 5, 8, 12, 16],
    "reg_v": [1, 2, 3, 4],
    "chunk_k": [1, 4, 8, 16, 64, 128],
    "split_k": [0, 1],
    "group_q": [0, 1, 2, 4],
}
AUTOSCHEDULERS = ["adams2019", "mullapudi2016", "li2018"]


def hand_schedule(r):
    fields = [f"{k} = {r.choice(v)}" for k, v in HAND_SCHEDULE.items() if r.random() < 0.5]
    if r.random() < 0.3:
        fields.append(f'parallel = "{r.choice(["heads", "tiles"])}"')
    return "#attn.schedule<" + ", ".join(fields) + ">"


class Case:
    def __init__(self, row, rng):
        self.row = dict(row)
        r = self.rng = rng
        self.form, self.kind, self.elem = row["form"], row["kind"], row["elem"]
        self.tq, self.tk, self.dk, self.dv = row["tq"], row["tk"], row["dk"], row["dv"]
        self.target = ax.TARGETS[row["target"]]
        self.threads = row["threads"]
        b, hq, hkv = ax.LAYOUTS[row["layout"]]
        self.lead_q = [d for d in (b, hq) if d is not None]
        self.lead_k = [d for d in (b, hkv) if d is not None]
        self.args = []  # (name, type)
        # Drawn whatever the case uses, so that the draws after them do not depend on the form.
        self.scale = r.choice(["0.5", "0.125", "2.0"])
        self.dq = r.choice(ax.DIMS)
        self.da = r.choice([1, 4, 16, 33])
        self.window = r.choice([1, 2, 3, 7, 16, 64])
        self.align = r.choice(["top_left", "bottom_right"])
        self.mask_shape = r.choice(["full", "last2", "padding"])
        self.lengths_rank = r.choice([1, 2])
        self.e, self.e_out = r.choice([4, 8, 17, 24]), r.choice([4, 10, 16])
        self.cross = r.random() < 0.5
        self.biases = [r.random() < 0.4 for _ in range(4)]
        self.hand = [hand_schedule(r) for _ in range(4)]  # the op's, then the chain's others
        self.candidate = r.random()  # which of the tuner's candidates
        self.autoscheduler = r.choice(AUTOSCHEDULERS)
        self.schedules = self._schedules(row["schedule"])
        if self.form in ("multi_head", "multi_head_whole"):
            self._multi_head_operands()
        else:
            self._attention_operands()

    def _schedules(self, source):
        """The op's schedule text and the chain's other ops' (None: the heuristic's)."""
        if source == "hand":
            return self.hand
        if source == "autoscheduler":
            return [f'#attn.schedule<scheduler = "{self.autoscheduler}">'] * 4
        return [None] * 4  # heuristic; the tuner's is set by set_tuner_schedule

    def set_tuner_schedule(self, candidates):
        """One of attn-tune --list-candidates' schedules for this graph, as the op's."""
        if candidates:
            self.schedules[0] = candidates[int(self.candidate * len(candidates))]

    def arg(self, name, shape, elem=None):
        t = tensor(shape, elem or self.elem)
        self.args.append((name, t))
        return f"%{name}", t

    def _attention_operands(self):
        dq = self.dq if self.kind in ("bilinear", "additive") else self.dk
        self.q = self.arg("q", self.lead_q + [self.tq, dq])
        self.k = self.arg("k", self.lead_k + [self.tk, self.dk])
        self.v = self.arg("v", self.lead_k + [self.tk, self.dv])
        self.score = ""
        if self.kind == "scaled_dot_scale":
            self.score = f" scale({self.scale})"
        elif self.kind == "bilinear":
            w, t = self.arg("w", [dq, self.dk])
            self.score = f" weight({w} : {t})"
        elif self.kind == "additive":
            w, wt = self.arg("wa", [self.da, dq + self.dk])
            v, vt = self.arg("va", [self.da])
            self.score = f" weight({w} : {wt}) vec({v} : {vt})"
        self.mask = self._mask_clause()
        self.out_type = tensor(self.lead_q + [self.tq, self.dv], self.elem)

    def _multi_head_operands(self):
        b, hq, hkv = ax.LAYOUTS[self.row["layout"]]
        x, xt = self.arg("x", [b, self.tq, self.e])
        if self.cross or self.tq != self.tk:
            mem, memt = self.arg("mem", [b, self.tk, self.e])
        else:
            mem, memt = x, xt
        w = [self.arg(n, shape) for n, shape in (("wq", [self.e, hq * self.dk]),
                                                  ("wk", [self.e, hkv * self.dk]),
                                                  ("wv", [self.e, hkv * self.dv]),
                                                  ("wo", [hq * self.dv, self.e_out]))]
        biases = ""
        for on, (name, width) in zip(self.biases, (("q", hq * self.dk), ("k", hkv * self.dk),
                                                   ("v", hkv * self.dv), ("o", self.e_out))):
            if on:
                n, t = self.arg("b" + name, [width])
                biases += f" bias_{name}({n} : {t})"
        kind = "dot" if self.kind == "dot" else "scaled_dot"
        self.out_type = tensor([b, self.tq, self.e_out], self.elem)
        self.mask = self._mask_clause()
        self.op_head = (f"attn.multi_head {kind} {x}, {mem} heads({hq}) kv_heads({hkv}) proj("
                        + ", ".join(n for n, _ in w) + " : " + ", ".join(t for _, t in w) + ")"
                        + biases + self.mask)
        self.op_types = f"{xt}, {memt} -> {self.out_type}"

    def _mask_clause(self):
        m = self.row["mask"]
        parts = []
        causal = m in ("causal", "causal_window", "causal_key_lengths", "bool_causal", "all")
        window = m in ("window", "causal_window", "window_key_lengths", "all")
        if causal:
            parts.append("causal")
        if window:
            parts.append(f"window({self.window})")
        if causal or window:
            parts.append(f"align({self.align})")
        if "key_lengths" in m or m == "all":
            shape = self.lead_q[:min(self.lengths_rank, len(self.lead_q))]
            n, t = self.arg("len", shape, "i32")
            parts.append(f"key_lengths({n} : {t})")
        if m in ("bool", "bool_causal", "bias", "bias_key_lengths", "all"):
            elem = self.elem if m.startswith("bias") else "i1"
            full = self.lead_q + [self.tq, self.tk]
            shape = {"full": full, "last2": full[-2:],
                     "padding": full[:1] + [1] * (len(full) - 2) + [self.tk]}[self.mask_shape]
            n, t = self.arg("m", shape, elem)
            parts.append(f"mask({n} : {t})")
        return "".join(" " + p for p in parts)

    @staticmethod
    def _attr(schedule):
        return f" {{schedule = {schedule}}}" if schedule else ""

    def text(self):
        sig = ", ".join(f"%{n}: {t}" for n, t in self.args)
        s0, s1, s2, s3 = (self._attr(s) for s in self.schedules)
        if self.form in ("multi_head", "multi_head_whole"):
            body = [f"  %o = {self.op_head}{s0} : {self.op_types}"]
        elif self.form == "fused":
            (q, qt), (k, kt), (v, vt) = self.q, self.k, self.v
            kind = "scaled_dot" if self.kind == "scaled_dot_scale" else self.kind
            body = [f"  %o = attn.attention {kind} {q}, {k}, {v}{self.score}{self.mask}{s0}"
                    f" : {qt}, {kt}, {vt} -> {self.out_type}"]
        else:
            (q, qt), (k, kt), (v, vt) = self.q, self.k, self.v
            kind = "scaled_dot" if self.kind == "scaled_dot_scale" else self.kind
            st = tensor(self.lead_q + [self.tq, self.tk], self.elem)
            body = [f"  %s = attn.score {kind} {q}, {k}{self.score}{s0} : {qt}, {kt} -> {st}"]
            s = "%s"
            if self.mask:
                body.append(f"  %sm = attn.mask %s{self.mask}{s1} : {st}")
                s = "%sm"
            body.append(f"  %p = attn.softmax {s}{s2} : {st}")
            body.append(f"  %o = attn.weighted_sum %p, {v}{s3} : {st}, {vt} -> {self.out_type}")
        return (f"func.func @sweep({sig}) -> {self.out_type} {{\n" + "\n".join(body) +
                f"\n  return %o : {self.out_type}\n}}\n")

    def command(self, attn_run, path, seed):
        cmd = [attn_run, path, "--random-inputs", f"--seed={seed}", "--check",
               f"--threads={self.threads}"]
        if self.target:
            cmd.append(f"--target={self.target}")
        if self.form in ("chain", "multi_head_whole"):
            cmd.append("--fuse=false")
        return cmd

    def describe(self):
        order = list(ax.axes([]))
        return " ".join(f"{k}={self.row[k]}" for k in sorted(self.row, key=order.index))
