"""Each shared rule of the fits is one function, called by every fit that applies it.

* the best constant classifier (`checks.constant_fallback`): one tolerance, one phrase in `cause`, whichever fit stopped;
* the Lu-Zhang phrase (`penalty.lu_zhang_cause`), the ℓ1 sign correction (`qsvm.correct_signs`), the column balancing
  (`hinge_solvers.column_scales`), the primal z-step (`hinge_solvers.solve_hinge_primal`);
* the compiled SMO's control state read and written through named fields (the records `smo.CONTROL`, `smo.CLOCK`).
"""
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler

from l0qsvm.features import gram_matrix, quadratic_features
from l0qsvm.hinge_solvers import solve_hinge_ip
from l0qsvm.subproblems import primal_objective


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)[:300, :8]
    return X, np.where(y[:300] == 1, 1.0, -1.0)


def test_constant_fallback_one_phrase_for_every_fit(cancer):
    "A QSVM stopped after 3 SMO steps ends above the constant: it returns the constant with the one shared phrase."
    from l0qsvm.checks import WORSE_THAN_CONSTANT, constant_classifier
    from l0qsvm.qsvm import fit_qsvm
    X, y = cancer
    fit = fit_qsvm(X, y, 10.0, max_iter=3)
    assert not fit.converged and fit.cause.endswith("; " + WORSE_THAN_CONSTANT)
    z0, c0, F0 = constant_classifier(gram_matrix(X), quadratic_features(X), y, 10.0)
    assert not fit.z.any() and fit.c == c0 and fit.objective == F0


def test_constant_fallback_tolerance():
    "The constant replaces a point only when lower by more than 1e-6 relative (round-off never replaces a point)."
    from l0qsvm.checks import constant_classifier, constant_fallback
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 3)); y = np.where(X[:, 1] > 0, 1.0, -1.0)
    G, R = gram_matrix(X), quadratic_features(X)
    z0, c0, F0 = constant_classifier(G, R, y, 1.0, loss="squared")
    assert F0 == primal_objective(G, R, y, 1.0, z0, c0, loss="squared")
    assert constant_fallback(G, R, y, 1.0, z0 + 1e-3, c0, F0 * (1 + 1e-7), loss="squared")[3] is False
    z, c, F, worse = constant_fallback(G, R, y, 1.0, z0 + 1.0, c0, loss="squared")
    assert worse and F == F0 and c == c0 and not z.any()


def test_lu_zhang_cause():
    from l0qsvm.penalty import lu_zhang_cause
    cert = dict(residuals=dict(stationarity=3e-3, sparsity=0.0), tol=1e-4, passed=False)
    assert lu_zhang_cause(cert) == "Lu-Zhang certificate failed (worst residual: stationarity 3.00e-03, tol 0.0001)"


def test_correct_signs():
    "A wrong sign drops to zero, an entry at zero with |g_j| > lam (1 + tol) enters with the sign of -g_j; b stays 0."
    from l0qsvm.qsvm import correct_signs
    from l0qsvm.features import n_features_from_params
    d = 9                                                   # n = 3: z = (hvec(W), b), 6 + 3 entries
    nw = d - n_features_from_params(d)
    s = np.zeros(d); s[0], s[1] = 1.0, -1.0
    z = np.zeros(d); z[0], z[1] = -0.5, -0.2                # z_0 flipped, z_1 agrees
    g = np.zeros(d); g[2], g[3] = 2.0, 1.0 + 1e-12; g[nw:] = 5.0   # g_2 enters, g_3 is within tol, b is never signed
    assert correct_signs(s, z, g, 1.0, 1e-9)
    assert s.tolist() == [0.0, -1.0, -1.0] + [0.0] * (d - 3)
    assert not correct_signs(s, np.where(s != 0, s, 0.0), np.zeros(d), 1.0, 1e-9)


def test_column_scales():
    from l0qsvm.hinge_solvers import column_scales
    rng = np.random.default_rng(2)
    R = rng.standard_normal((20, 4)); R[:, 3] = 0.0
    G = R.T @ R; C = rng.uniform(0.5, 2.0, 20)
    T = column_scales(G, R, C)
    np.testing.assert_allclose(T[:3], np.sqrt(np.diag(G) + C.max() * (R**2).sum(0))[:3], rtol=1e-15)
    assert T[3] == 1.0


def test_primal_z_step_is_solve_hinge_primal(cancer):
    "Algorithm 1's primal z-step gives exactly the interior point on G + rho I with linear term -rho u."
    from l0qsvm.penalty import HingeZStep
    X, y = cancer
    G, R = gram_matrix(X), quadratic_features(X)
    u = np.zeros(G.shape[0]); u[:5] = 0.1
    z, c = HingeZStep(G, R, y, 1.0, route="ip")(0.5, u)
    r = solve_hinge_ip(R, y, 1.0, G + 0.5 * np.eye(G.shape[0]), -0.5 * u, tol=1e-10, max_iter=100, rcond=0.0)
    assert np.array_equal(z, r.w) and c == r.c


def test_smo_control_state_names():
    "SMOState.ctl and ColumnCache.clock are records with named fields (smo.CONTROL, smo.CLOCK) that count what a solve does."
    from l0qsvm import smo
    rng = np.random.default_rng(3)
    X = rng.standard_normal((200, 2)); y = np.where(X[:, 0] + 0.3 * rng.standard_normal(200) > 0, 1.0, -1.0)
    Q = smo.KernelQ(X, y, gamma=0.5)
    res = smo.smo_solve(Q, -np.ones(200), y, 1.0, tol=1e-6)
    c = Q._columns().clock
    assert c.dtype == smo.CLOCK and c.shape == (1,) and smo.CONTROL.names[0] == "active"
    c = c[0]
    assert Q.cache_stats() == dict(requests=int(c["requests"]), misses=int(c["misses"]),
                                   hit_rate=1 - c["misses"] / max(c["requests"], 1), kernel_values=int(c["kernel_values"]))
    assert c["time"] == c["requests"] > res.n_iter and c["update"] == 0 and 0 < c["slots"] <= 200
