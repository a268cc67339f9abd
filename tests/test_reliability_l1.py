"""L1QSVM keeps `max_time` when its active set does not certify its point.

The last resort of the default solver is cvxopt's dense interior point on m + 2d - n + 1 unknowns: its cost grows like
m³ and no clock can stop it mid-call. Two layers keep it in bounds:

* degenerate problems (one small class whose optimum is the constant classifier, every other point on the margin) are
  certified by `l1_certificate`, a linear program for the multipliers, so the cvxopt route is not needed there;
* when it is, `cvxopt_budget` caps its iterations at those that fit in the time left and in memory: it does not start
  when fewer than 10 fit (a `ConvergenceWarning` naming max_time), and `solver="cvxopt"` is refused up front.
"""
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

import l0qsvm.qsvm as qsvm
from l0qsvm import L1QSVM, load_dataset

ROOT = Path(__file__).resolve().parents[1]


def _one_positive(m=4000, n=3, seed=0):
    "m points in n dimensions, only the first one positive: the optimum is the constant classifier."
    X = np.random.default_rng(seed).standard_normal((m, n)); y = np.zeros(m, int); y[0] = 1
    return X, y


_CHILD = r"""
import json, resource, sys, time, warnings
import numpy as np
from l0qsvm import L1QSVM
def data(m):
    X = np.random.default_rng(0).standard_normal((m, 3)); y = np.zeros(m, int); y[0] = 1
    return X, y
with warnings.catch_warnings():
    warnings.simplefilter("ignore"); L1QSVM(lam=0.1).fit(*data(400))      # compiled code loaded, same route
X, y = data(4000)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always"); L1QSVM(lam=0.1, max_time=1.0).fit(X, y)
seconds = time.perf_counter() - t
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024      # MiB (ru_maxrss is in KiB)
print(json.dumps(dict(seconds=seconds, grown_mib=grown, warnings=[str(x.message) for x in w])))
"""


def test_one_positive_in_4000_ends_within_max_time_and_small_memory():
    "4000 x 3 points, one positive, max_time=1: the fit ends within 2 x max_time + 1 s and its peak memory grows < 200 MiB."
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, timeout=900, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["seconds"] <= 2 * 1.0 + 1.0, r                 # a deadline, not a speed: the bound is 2 x max_time + 1 s
    assert r["grown_mib"] < 200, r                          # the dense cvxopt route needed about 1.2 GiB here


def test_one_positive_is_certified_without_cvxopt(monkeypatch):
    "The constant classifier of the one-positive problem is the certified optimum, found by the linear program."
    def no_cvxopt(*a, **k): raise AssertionError("the cvxopt route was taken")
    monkeypatch.setattr(qsvm, "_l1qsvm_cvxopt", no_cvxopt)
    X, y = _one_positive()
    fit = qsvm.fit_l1qsvm(X, np.where(y == 1, 1.0, -1.0), C=1.0, lam=0.1, tol=1e-7)
    assert fit.converged and fit.status == "converged" and fit.cause == ""
    assert np.all(fit.z == 0) and fit.c == -1.0 and fit.objective == pytest.approx(2.0, rel=1e-12)


def test_yeast_small_class_is_certified_without_cvxopt(monkeypatch):
    "Yeast, class ME2 (51 of 1484) against the rest, C=0.1, lambda=1: the active set stops uncertified; the LP certifies."
    from sklearn.preprocessing import StandardScaler
    calls = []
    def counted(*a, **k): calls.append(1); raise AssertionError("the cvxopt route was taken")
    monkeypatch.setattr(qsvm, "_l1qsvm_cvxopt", counted)
    b = load_dataset("yeast")
    X = StandardScaler().fit_transform(np.asarray(b.data, float)); y = np.where(np.asarray(b.target) == "ME2", 1.0, -1.0)
    fit = qsvm.fit_l1qsvm(X, y, C=0.1, lam=1.0, tol=1e-7)
    assert not calls and fit.converged and fit.gap <= 1e-7


def test_cvxopt_budget_caps_iterations_by_time_and_memory(monkeypatch):
    "No time budget: the full cap. One second for 4000 unknowns: not started, and the reason names max_time. 20000 unknowns in 1 GiB: not started."
    import l0qsvm.hinge_solvers as hs
    monkeypatch.setattr(hs, "_available_memory", lambda: 2.0**40)                     # 1 TiB left
    assert hs.cvxopt_budget(4000) == (200, "", False)
    cap, why, by_time = hs.cvxopt_budget(4000, time.perf_counter() + 1.0)
    assert cap == 0 and by_time and "max_time" in why and "4000 unknowns" in why
    cap, why, by_time = hs.cvxopt_budget(4000, time.perf_counter() + 1e6)               # plenty of time: the full cap
    assert cap == 200 and why == "" and not by_time
    monkeypatch.setattr(hs, "_available_memory", lambda: 2.0**30)                     # 1 GiB left
    cap, why, by_time = hs.cvxopt_budget(20_000)
    assert cap == 0 and not by_time and "GiB" in why


def test_uncertified_point_skips_cvxopt_at_the_deadline(monkeypatch):
    "Without the LP certificate the one-positive problem would go to cvxopt (about 1 min here): with max_time=1 it is not started."
    monkeypatch.setattr(qsvm, "l1_certificate", lambda *a, **k: None, raising=False)
    X, y = _one_positive()
    t = time.perf_counter()
    with pytest.warns(ConvergenceWarning, match="max_time") as rec:
        est = L1QSVM(lam=0.1, max_time=1.0).fit(X, y)
    assert time.perf_counter() - t <= 2 * 1.0 + 1.0
    msg = " ".join(str(w.message) for w in rec)
    assert "cvxopt route was not started" in msg
    assert np.isfinite(est.objective_).all()


def test_cvxopt_solver_refused_up_front_when_it_cannot_fit():
    "solver='cvxopt' on 4000 points with max_time=1: a ValueError naming max_time, at once (it used to run ~100 s)."
    X, y = _one_positive()
    t = time.perf_counter()
    with pytest.raises(ValueError, match="max_time"):
        L1QSVM(lam=0.1, solver="cvxopt", max_time=1.0).fit(X, y)
    assert time.perf_counter() - t <= 2 * 1.0 + 1.0


def test_cvxopt_polish_is_finished_by_smo_on_a_badly_scaled_feature():
    "cvxopt's point is polished by the sign-pattern loop; where the interior point on an ill-conditioned G_SS misses, SMO from its multipliers finishes the support's fit, and the fit is certified."
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler
    b = load_breast_cancer()
    X = StandardScaler().fit_transform(b.data)[:200, :15]; y = np.where(b.target[:200] == 1, 1.0, -1.0)
    X[:, 3] *= 1e4                                    # G_SS ill-conditioned: the interior point's sign-pattern fit misses
    fit = qsvm.fit_l1qsvm(X, y, 1.0, 1.0, solver="cvxopt")
    assert fit.converged and fit.status == "converged" and fit.gap <= qsvm._L1_KKT_TOL
