"""Benchmark: the closed-form G (second moments) against the literal G = 2 sum_i H_i^T H_i.

Problem: 500 samples, 30 features (d = 495), standard normal data. Both are timed in this run; the literal
construction builds each H_i = [(I_n kron x_i^T) D_n, I_n] with numpy, as Definition 2.1 of the paper reads.
Prints both times, the agreement, and a last line `RESULT gram ratio=X target=100` (X = literal / closed form).
"""
import time

import numpy as np

from l0qsvm.features import gram_matrix, n_params
from l0qsvm.vech import duplication_matrix


def gram_literal(X):
    m, n = X.shape
    D = duplication_matrix(n).toarray()
    G = np.zeros((n_params(n),) * 2)
    for xi in X:
        H = np.hstack([np.kron(np.eye(n), xi[None, :]) @ D, np.eye(n)])
        G += H.T @ H
    return 2 * G


def best_time(f, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); out = f(); times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def main():
    X = np.random.default_rng(0).standard_normal((500, 30))
    gram_matrix(X)                                   # warm-up (imports, first sparse call)
    t_fast, G_fast = best_time(lambda: gram_matrix(X), 20)
    t_lit, G_lit = best_time(lambda: gram_literal(X), 3)
    rel = np.abs(G_fast - G_lit).max() / np.abs(G_lit).max()
    print(f"problem: m=500, n=30, d={G_fast.shape[0]}")
    print(f"closed form (moments): {t_fast*1e3:9.2f} ms  (median of 20)")
    print(f"literal 2 sum H_i^T H_i: {t_lit*1e3:9.2f} ms  (median of 3)")
    print(f"max relative difference: {rel:.2e}")
    assert rel < 1e-10
    print(f"RESULT gram ratio={t_lit / t_fast:.1f} target=100")


if __name__ == "__main__":
    main()
