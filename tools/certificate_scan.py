"""Is the swap certificate a proof?  Random small problems; every certified support checked against every single swap.

For each problem: fit `L0QSVM(k, C, loss)` (with or without sample weights), and, when its swap certificate passed,
solve the restricted problem F*(A) of the returned support A and F*(A - i + j) of every single swap with cvxopt (an
interior point independent of the package's solvers). A certificate is false when some swap lowers the objective by
more than the tolerance it promises, `rtol * |F*(A)|`. The problems are those of the reliability probe: m in
{20, 40, 80, 150} points, n in {3, 4} features on scales 10^U(-0.5, 0.5), k in {2, 3, 4}, C = 10^U(-2, 2), weights
None, one uniform weight 10^U(-4, 2), or per point 10^U(-2, 2).

    python tools/certificate_scan.py --n 1000          # prints one line per false certificate, then a summary
"""
import argparse, sys, time, warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def problem(seed):
    "The probe's problem number `seed`: (X, y, k, C, loss, sample_weight)."
    r = np.random.default_rng(seed)
    m = int(r.choice([20, 40, 80, 150])); n = int(r.choice([3, 4])); k = int(r.choice([2, 3, 4]))
    X = r.standard_normal((m, n)) * (10 ** r.uniform(-0.5, 0.5))
    y = (X[:, 0] * X[:, 1] - 0.5 * X[:, -1] ** 2 + 0.5 * r.standard_normal(m) > -0.2).astype(int)
    C = float(10 ** r.uniform(-2, 2))
    loss = "squared" if seed % 2 else "hinge"
    kind = (seed // 2) % 3
    w = None if kind == 0 else np.full(m, 10 ** r.uniform(-4, 2)) if kind == 1 else 10 ** r.uniform(-2, 2, m)
    return X, y, k, C, loss, w


def restricted_value(G, R, y, Ci, S, loss):
    "F*(S) = min over z supported on S and c of 1/2 z^T G z + sum_i C_i loss_i, by cvxopt (on the problem divided by mean C_i)."
    s = float(np.mean(Ci))
    S = np.asarray(S)                          # z_j = t_j / N_j: the same problem in balanced columns
    N = np.sqrt(np.diag(G)[S] / s + Ci / s @ R[:, S] ** 2); N[N == 0] = 1.0
    GS, RS = G[np.ix_(S, S)] / s / np.outer(N, N), R[:, S] / N
    for tol in (1e-12, 1e-10, 1e-9, 1e-8):
        try: return s * _value(GS, RS, y, Ci / s, np.arange(S.size), loss, tol)
        except (ValueError, ArithmeticError): continue
    raise RuntimeError("cvxopt failed at every tolerance")


def _value(G, R, y, Ci, S, loss, tol):
    from cvxopt import matrix, solvers
    solvers.options.update(show_progress=False, abstol=tol, reltol=tol, feastol=min(1e-9, 10 * tol), maxiters=400)
    S = np.asarray(S); q, m = S.size, R.shape[0]
    GS, RS = G[np.ix_(S, S)], R[:, S]
    if loss == "squared":                       # min 1/2 z^T G z + sum C_i (1 - y_i (r_i^T z + c))^2 over (z, c)
        Yr = y[:, None] * np.c_[RS, np.ones(m)]
        P = 2 * Yr.T @ (Ci[:, None] * Yr); P[:q, :q] += GS
        qv = -2 * Yr.T @ Ci
        sol = solvers.qp(matrix(P + 1e-15 * np.trace(P) * np.eye(q + 1)), matrix(qv))
        x = np.array(sol["x"]).ravel()
        return float(0.5 * x[:q] @ GS @ x[:q] + Ci @ (1 - Yr @ x) ** 2)
    P = np.zeros((q + 1 + m,) * 2); P[:q, :q] = GS
    P[:q, :q] += 1e-15 * max(np.trace(GS), 1e-300) * np.eye(q)
    qv = np.r_[np.zeros(q + 1), Ci]
    Gi = np.zeros((2 * m, q + 1 + m)); h = np.zeros(2 * m)
    Gi[:m, :q] = -y[:, None] * RS; Gi[:m, q] = -y; Gi[:m, q + 1:] = -np.eye(m); h[:m] = -1.0
    Gi[m:, q + 1:] = -np.eye(m)
    sol = solvers.qp(matrix(P), matrix(qv), matrix(Gi), matrix(h))
    x = np.array(sol["x"]).ravel()
    z, c = x[:q], x[q]
    return float(0.5 * z @ GS @ z + Ci @ np.maximum(0.0, 1 - y * (RS @ z + c)))


def check(seed):
    "(seed, certified, false, worst relative decrease of a swap, F*(A), message)."
    from l0qsvm import L0QSVM
    from l0qsvm.features import quadratic_features, gram_matrix
    X, y, k, C, loss, w = problem(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = L0QSVM(k=k, C=C, loss=loss).fit(X, y, sample_weight=w)
    cert = est.swap_certificate_[0]
    if not cert["passed"]: return seed, False, False, np.nan, np.nan, cert["status"]
    ys = np.where(y == est.classes_[1], 1.0, -1.0)
    ww = np.ones(y.size) if w is None else np.asarray(w, float)
    R, G, Ci = quadratic_features(X), gram_matrix(X, None if w is None else ww), C * ww
    A = np.sort(est.support_[0]); d = G.shape[0]
    rtol = cert["rtol"]
    try:
        FA = restricted_value(G, R, ys, Ci, A, loss)
        best = np.inf
        for i in range(A.size):
            for j in np.setdiff1d(np.arange(d), A):
                best = min(best, restricted_value(G, R, ys, Ci, np.r_[np.delete(A, i), j], loss))
    except RuntimeError as e: return seed, True, None, np.nan, np.nan, f"unchecked: {e}"
    drop = (FA - best) / abs(FA)
    return seed, True, bool(drop > rtol), drop, FA, f"{loss} k={k} C={C:.4g} m={X.shape[0]} w={'none' if w is None else 'uniform' if np.ptp(ww) == 0 else 'varied'}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="problems (seeds start..start+n-1)")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    t0, n_cert, n_false, n_unchecked, worst = time.perf_counter(), 0, 0, 0, -np.inf
    with ProcessPoolExecutor(a.jobs) as ex:
        for seed, certified, false, drop, FA, msg in ex.map(check, range(a.start, a.start + a.n), chunksize=4):
            if false is None: n_unchecked += 1; print(f"UNCHECKED seed={seed}: {msg}", flush=True); continue
            n_cert += certified; n_false += false
            if certified: worst = max(worst, drop)
            if false: print(f"FALSE seed={seed} {msg}: a swap lowers F*={FA:.6g} by {drop:.3e} (relative)", flush=True)
    print(f"{a.n} problems, {n_cert} certified and checked, {n_unchecked} certified but not checked (cvxopt failed), "
          f"{n_false} false certificates; largest relative decrease by a swap of a "
          f"certified support: {worst:.3e}; {time.perf_counter() - t0:.0f} s")
    return n_false + n_unchecked


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
