"""L1QSVM's default solver (ADMM for the sign pattern, then an active set: `solver="active-set"`) against its cvxopt
route (`solver="cvxopt"`: cvxopt's interior point on the split QP, then the SMO polish), timed in the same run.

Breast cancer (scikit-learn, all 569 samples, standardised), lambda = 1, C = 1: median of `--repeats` fits each,
interleaved. The two answers must agree: objective to 1e-6 relative and the same exact zeros in W. Then, once each,
the cases the paper-reproduction protocol needs: sonar (UCI 151, d = 1,890) and yeast (UCI 110, 10 one-vs-rest
surfaces, d = 44) through the `L1QSVM` estimator, and breast cancer with one feature multiplied by 1e4 (the cvxopt
route, equilibrated, no longer raises `Rank(A) < p` there: it is timed too, with its status). `--skip-protocol` leaves those out.

Last line: `RESULT l1qsvm ratio=X target=20`, X = cvxopt time / active-set time on breast cancer.
Usage: python bench/l1qsvm.py [--repeats N] [--skip-protocol]
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler

from l0qsvm import L1QSVM, load_dataset
from l0qsvm.features import n_features_from_params
from l0qsvm.qsvm import fit_l1qsvm

TARGET = 20


def timed(f, *args, **kw):
    t0 = time.perf_counter(); out = f(*args, **kw); return out, time.perf_counter() - t0


def zeros(z):
    return z[:z.size - n_features_from_params(z.size)] == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-protocol", action="store_true")
    args = ap.parse_args()
    X, t = load_breast_cancer(return_X_y=True)
    X, y = StandardScaler().fit_transform(X), np.where(t == 1, 1.0, -1.0)
    fit_l1qsvm(X[:60, :4], y[:60], 1.0, 1.0)                              # numba: load the compiled code
    t_new, t_ref = [], []
    for _ in range(args.repeats):
        new, tn = timed(fit_l1qsvm, X, y, 1.0, 1.0); t_new.append(tn)
        ref, tr = timed(fit_l1qsvm, X, y, 1.0, 1.0, solver="cvxopt"); t_ref.append(tr)
    tn, tr = float(np.median(t_new)), float(np.median(t_ref))
    rel = abs(new.objective - ref.objective) / abs(ref.objective)
    same = bool(np.array_equal(zeros(new.z), zeros(ref.z)))
    print(f"breast cancer (m=569, d={new.z.size}), lambda=1, C=1: active-set {tn*1e3:.0f} ms | cvxopt {tr*1e3:.0f} ms | "
          f"ratio {tr/tn:.1f}x | objective {new.objective:.10f} vs {ref.objective:.10f} (rel {rel:.1e}) | "
          f"zeros in W {int(zeros(new.z).sum())} vs {int(zeros(ref.z).sum())}, same pattern {same} | "
          f"certified {new.converged} (residual {new.gap:.1e})", flush=True)
    assert rel <= 1e-6 and same, "the two solvers disagree"
    if not args.skip_protocol:
        b = load_dataset("sonar")
        Xs, ys = StandardScaler().fit_transform(np.asarray(b.data, float)), np.asarray(b.target)
        for lam in [0.1, 1.0, 10.0]:
            m_new, tn_s = timed(L1QSVM(C=1.0, lam=lam).fit, Xs, ys)
            line = f"sonar (m=208, d=1890), lambda={lam:g}, C=1: active-set {tn_s:.2f} s"
            if lam == 1.0:
                m_ref, tr_s = timed(L1QSVM(C=1.0, lam=lam, solver="cvxopt").fit, Xs, ys)
                line += (f" | cvxopt {tr_s:.2f} s | ratio {tr_s/tn_s:.1f}x | objective rel diff "
                         f"{abs(m_new.objective_[0] - m_ref.objective_[0]) / m_ref.objective_[0]:.1e}")
            print(line, flush=True)
        b = load_dataset("yeast")
        Xy, yy = StandardScaler().fit_transform(np.asarray(b.data, float)), np.asarray(b.target)
        m_new, tn_y = timed(L1QSVM(C=1.0, lam=1.0).fit, Xy, yy)
        m_ref, tr_y = timed(L1QSVM(C=1.0, lam=1.0, solver="cvxopt").fit, Xy, yy)
        worst = float(np.max(np.abs(m_new.objective_ - m_ref.objective_) / m_ref.objective_))
        print(f"yeast (m=1484, d=44, {len(m_new.classes_)} one-vs-rest surfaces), lambda=1, C=1: active-set {tn_y:.2f} s | "
              f"cvxopt {tr_y:.2f} s | ratio {tr_y/tn_y:.1f}x | worst objective rel diff {worst:.1e}", flush=True)
        Xb = X.copy(); Xb[:, 3] *= 1e4
        bad, tb = timed(fit_l1qsvm, Xb, y, 1.0, 1.0)
        try:
            ref_b, tr_b = timed(fit_l1qsvm, Xb, y, 1.0, 1.0, solver="cvxopt")
            cvx = (f"cvxopt {tr_b:.2f} s, status {ref_b.status}, objective rel diff "
                   f"{(ref_b.objective - bad.objective) / abs(bad.objective):.1e}")
        except ValueError as e:
            cvx = f"cvxopt raises ValueError({str(e)[:40]}...)"
        print(f"breast cancer, feature 3 x 1e4: active-set {tb:.2f} s, certified {bad.converged} "
              f"(residual {bad.gap:.1e}) | {cvx}", flush=True)
    print(f"RESULT l1qsvm ratio={tr/tn:.1f} target={TARGET}")


if __name__ == "__main__":
    main()
