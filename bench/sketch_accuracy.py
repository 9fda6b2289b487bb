"""Jaccard estimation error of fogsearch's MinHash kinds and datasketch against exact values.

For each k, draws set pairs with known Jaccard similarity, estimates it with fogsearch bottom-k,
fogsearch k-hash and datasketch (k-hash), and prints the root-mean-square error next to the
binomial standard error sqrt(J(1-J)/k) averaged over the pairs; draws the same as a log-log plot
in ``bench/plots/sketch_jaccard_error.png``.

Run: ``python bench/sketch_accuracy.py`` (about a minute).
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from fogsearch.sketch import MinHash  # noqa: E402


def pair(rng, jaccard, union_size):
    keys = np.unique(rng.integers(0, 2**32, size=union_size * 2, dtype=np.uint64))
    rng.shuffle(keys)
    keys = keys[:union_size]
    shared = round(jaccard * union_size)
    half = (union_size - shared) // 2
    return keys[: shared + half], np.concatenate([keys[:shared], keys[shared + half :]])


def estimates(a, b, k, seed):
    import datasketch

    out = {}
    for kind in ("bottom_k", "k_hash"):
        ma, mb = MinHash(k, seed=seed, kind=kind), MinHash(k, seed=seed, kind=kind)
        ma.update(a)
        mb.update(b)
        out[f"fogsearch {kind}"] = ma.jaccard(mb)
    da = datasketch.MinHash(num_perm=k, seed=seed, hashfunc=lambda x: x)
    db = datasketch.MinHash(num_perm=k, seed=seed, hashfunc=lambda x: x)
    da.update_batch(a.tolist())
    db.update_batch(b.tolist())
    out["datasketch k-hash"] = da.jaccard(db)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--union", type=int, default=4000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    ks = [16, 32, 64, 128, 256, 512]
    rmse = {}
    expected = []
    for k in ks:
        errors, binomial = {}, []
        for trial in range(args.pairs):
            j = rng.uniform(0.05, 0.95)
            a, b = pair(rng, j, args.union)
            truth = round(j * args.union) / args.union
            binomial.append(truth * (1 - truth) / k)
            for name, value in estimates(a, b, k, seed=trial).items():
                errors.setdefault(name, []).append((value - truth) ** 2)
        for name, squares in errors.items():
            rmse.setdefault(name, []).append(float(np.sqrt(np.mean(squares))))
        expected.append(float(np.sqrt(np.mean(binomial))))
    print("| k | " + " | ".join(rmse) + " | sqrt(J(1-J)/k) |")
    print("|---:|" + "---:|" * (len(rmse) + 1))
    for i, k in enumerate(ks):
        row = " | ".join(f"{rmse[name][i]:.4f}" for name in rmse)
        print(f"| {k} | {row} | {expected[i]:.4f} |")
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, values in rmse.items():
        ax.loglog(ks, values, marker="o", label=name)
    ax.loglog(ks, expected, "k--", label="sqrt(J(1-J)/k)")
    ax.set_xlabel("k")
    ax.set_ylabel("RMS error of Jaccard estimate")
    ax.legend()
    out = Path(__file__).parent / "plots" / "sketch_jaccard_error.png"
    out.parent.mkdir(exist_ok=True)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    print(f"plot: {out}")


if __name__ == "__main__":
    main()
