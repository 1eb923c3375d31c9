"""A covering set of pairs: rows of axis values in which every pair of values of two axes that the
constraints allow appears in some row (pairwise testing; the greedy construction of AETG, Cohen et
al. 1997). Deterministic for a given random generator."""

import collections


def _pairs(axes, valid):
    """Every allowed pair ((axis a, value index), (axis b, value index)), a < b."""
    names = list(axes)
    out = set()
    for ai, a in enumerate(names):
        for b in names[ai + 1:]:
            for i, va in enumerate(axes[a]):
                for j, vb in enumerate(axes[b]):
                    if valid({a: va, b: vb}):
                        out.add(((a, i), (b, j)))
    return out


def _covered(row, axes, names):
    idx = {n: axes[n].index(row[n]) for n in names}
    return {((a, idx[a]), (b, idx[b])) for ai, a in enumerate(names) for b in names[ai + 1:]}


def covering_rows(axes, valid, rng, tries=24):
    """Rows (dicts axis -> value) covering every allowed pair of `axes` (dict name -> list of values).
    `valid(partial_row)` says whether a partial assignment can be completed; a row is only built
    from values it allows. Each row starts from an uncovered pair and takes, axis by axis in a random
    order, the value that covers the most pairs still uncovered; of `tries` such rows the best is
    kept. Ties go to the value used least so far, so that each axis's values appear about equally
    often."""
    names = list(axes)
    uncovered = _pairs(axes, valid)
    rows = []
    used = collections.Counter()
    while uncovered:
        pool = sorted(uncovered)
        best, best_gain = None, -1
        for _ in range(tries):
            (a, i), (b, j) = rng.choice(pool)
            row = {a: axes[a][i], b: axes[b][j]}
            rest = [n for n in names if n not in row]
            rng.shuffle(rest)
            for n in rest:
                choice, choice_rank = None, None
                for k, v in enumerate(axes[n]):
                    trial = dict(row, **{n: v})
                    if not valid(trial):
                        continue
                    gain = sum(1 for m in row
                               if tuple(sorted(((n, k), (m, axes[m].index(row[m]))),
                                               key=lambda p: names.index(p[0]))) in uncovered)
                    rank = (gain, -used[(n, k)], rng.random())
                    if choice_rank is None or rank > choice_rank:
                        choice, choice_rank = v, rank
                if choice is None:
                    break
                row[n] = choice
            if len(row) < len(names):
                continue
            gain = len(_covered(row, axes, names) & uncovered)
            if gain > best_gain:
                best, best_gain = row, gain
        if best is None:
            raise ValueError("covering_rows: no valid row completes an uncovered pair")
        rows.append(best)
        uncovered -= _covered(best, axes, names)
        used.update((n, axes[n].index(best[n])) for n in names)
    return rows
