"""The default solvers of L1QSVM and L0QSVM against their references, at the estimator level.

L1QSVM: the active set (default) and the cvxopt route reach the same objective and the same exact zeros.
L0QSVM: the default (Algorithm 1 on screened terms + the swap search) never ends above Algorithm 1 as printed
(`refine=None`), carries both certificates, and `refine=None` carries no swap certificate.
"""
import numpy as np
import pytest

from l0qsvm import L0QSVM, L1QSVM


def problem(seed, m=80, n=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = np.where(X[:, 0] ** 2 - 1 + X[:, 1] * X[:, -1] + 0.5 * rng.standard_normal(m) > 0, "a", "b")
    return X, y


@pytest.mark.parametrize("seed", range(4))
def test_l1qsvm_active_set_matches_cvxopt(seed):
    X, y = problem(seed)
    lam = [0.1, 1.0, 3.0, 10.0][seed]
    new, ref = L1QSVM(C=2.0, lam=lam).fit(X, y), L1QSVM(C=2.0, lam=lam, solver="cvxopt").fit(X, y)
    np.testing.assert_allclose(new.objective_, ref.objective_, rtol=1e-6)
    n = X.shape[1]
    np.testing.assert_array_equal(new.z_[:, :-n] == 0, ref.z_[:, :-n] == 0)


@pytest.mark.parametrize("seed", range(4))
def test_l0qsvm_swap_never_worse_than_algorithm_1(seed):
    X, y = problem(10 + seed, m=120, n=5)
    k, C = [2, 3, 5, 8][seed], [1.0, 10.0, 1.0, 10.0][seed]
    swap, paper = L0QSVM(k, C=C).fit(X, y), L0QSVM(k, C=C, refine=None).fit(X, y)
    assert swap.objective_[0] <= paper.objective_[0] * (1 + 1e-7)
    assert swap.swap_certificate_[0]["passed"] and swap.certificate_[0]["passed"]
    assert np.count_nonzero(swap.z_) <= k
    assert paper.swap_certificate_ == [None]


@pytest.mark.parametrize("standardise", [False, True])
def test_l1qsvm_certifies_where_the_active_set_runs_out_of_corrections(standardise):
    "Iris at C = 100 (the docs' example): the active set alone ended uncertified with a ConvergenceWarning."
    import warnings
    from sklearn.datasets import load_iris
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import StandardScaler
    X, y = load_iris(return_X_y=True)
    if standardise: X = StandardScaler().fit_transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        new = L1QSVM(C=100.0, lam=1.0).fit(X, y)
    ref = L1QSVM(C=100.0, lam=1.0, solver="cvxopt").fit(X, y)
    np.testing.assert_allclose(new.objective_, ref.objective_, rtol=1e-6)


@pytest.mark.parametrize("loss", ["hinge", "squared"])
@pytest.mark.parametrize("k", [8, 20])
def test_a_zero_feature_changes_nothing_in_the_swap_search(loss, k):
    "A constant feature (zero after centring) adds a null term, x5²; the search must settle its swaps by the bound."
    X, y = problem(7, m=150, n=5)
    base = L0QSVM(k, C=10.0, loss=loss).fit(X, y)
    with_zero = L0QSVM(k, C=10.0, loss=loss).fit(np.c_[X, np.zeros(len(X))], y)
    c1, c0 = base.swap_certificate_[0], with_zero.swap_certificate_[0]
    assert c0["passed"] and c0["by_fit"] == 0
    assert (c0["n_fits"], c0["n_swaps"]) == (c1["n_fits"], c1["n_swaps"])
    np.testing.assert_allclose(c0["objective"], c1["objective"], rtol=1e-9)
    assert with_zero.equation() == base.equation()


@pytest.mark.parametrize("share", [0.2, 0.63, 0.5])
def test_the_screen_uses_the_constant_models_optimal_multipliers(share):
    "With unequal classes the best constant is c0 = ±1 and the larger class sits on the margin: alpha must not be 0."
    from l0qsvm.features import gram_matrix, quadratic_features
    from l0qsvm.subproblems import best_intercept
    from l0qsvm.swap import _forward_gain, _null_multipliers
    rng = np.random.default_rng(3)
    X = rng.standard_normal((200, 4)); y = np.where(rng.random(200) < share, 1.0, -1.0)
    a = _null_multipliers(y, 2.0)
    c0 = best_intercept(np.zeros(200), y, 2.0)
    assert abs(y @ a) <= 1e-9 * a.sum() and np.all((a >= 0) & (a <= 2.0))
    np.testing.assert_allclose(a.sum(), np.sum(2.0 * np.maximum(0.0, 1.0 - y * c0)), rtol=1e-12)
    gain = _forward_gain(gram_matrix(X), quadratic_features(X), y, 2.0, "hinge")
    assert np.count_nonzero(gain) == gain.size


@pytest.mark.parametrize("seed", range(3))
def test_the_rank_two_dual_answers_like_a_fit_from_scratch(seed):
    "SupportDual of A with the rank-two update of a swap (smo.py's engine): right answers at 1 % either side of F*(S), exact D_S(alpha)."
    from l0qsvm.features import gram_matrix, quadratic_features
    from l0qsvm.swap import SwapBounds
    from l0qsvm.fast_swap import SupportDual, _swap_factors, _point_of, support_fit
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((150, 6)); y = np.where(X[:, 0] ** 2 - 1 + X[:, 1] * X[:, 2] + 0.5 * rng.standard_normal(150) > 0, 1.0, -1.0)
    R, G, C = quadratic_features(X), gram_matrix(X), [0.5, 2.0, 20.0][seed]
    A = np.sort(rng.choice(G.shape[0], 16, replace=False))
    bd, start = SwapBounds(G, A), support_fit(G, R, y, C, A)
    dual = SupportDual(G, R, y, C, A, start.alpha, bd.Linv)
    for i, j in zip(rng.integers(0, 16, 12), rng.choice(np.setdiff1d(np.arange(G.shape[0]), A), 12)):
        S = np.sort(np.r_[np.delete(A, i), j])
        F = support_fit(G, R, y, C, S).UB
        u, v = np.empty(y.size), np.empty(y.size)
        _swap_factors(dual.dl, bd.t, int(i), int(j), u, v, np.empty(A.size))
        below = dual.run(u, v, below=F * 1.01, above=F * 1.01)
        above = dual.run(u, v, below=F * 0.99, above=F * 0.99)
        assert (below[2], above[2]) == (1, 2)
        assert _point_of(G, R, y, C, S, below[0])[2] < F * 1.01 and above[1] >= F * 0.99
        for a, D in (below[:2], above[:2]):
            w = R[:, S].T @ (y * a)
            np.testing.assert_allclose(D, a.sum() - 0.5 * w @ np.linalg.solve(G[np.ix_(S, S)], w), rtol=1e-10)


def test_a_search_where_smo_answers_is_certified_by_brute_force():
    "k = 16 > 15, so SMO answers the single swaps (the compiled loop); every swap of the final support, fitted from scratch, is no better."
    import l0qsvm.swap as sw
    from l0qsvm.features import gram_matrix, quadratic_features
    X, y = problem(21, m=150, n=6)
    est = L0QSVM(16, C=10.0).fit(X, y)
    cert, A = est.swap_certificate_[0], np.sort(est.support_[0])
    assert cert["smo_questions"] > 0 and cert["passed"] and est.certificate_[0]["passed"]
    R, G = quadratic_features(X), gram_matrix(X); ys = np.where(y == est.classes_[1], 1.0, -1.0)
    F = sw.support_fit(G, R, ys, 10.0, A).UB
    np.testing.assert_allclose(F, cert["objective"], rtol=1e-7)
    for i in range(A.size):
        for j in np.setdiff1d(np.arange(G.shape[0]), A):
            assert sw.support_fit(G, R, ys, 10.0, np.sort(np.r_[np.delete(A, i), j])).UB >= F * (1 - 2 * cert["rtol"])


def test_a_search_on_the_interior_point_route_is_certified_by_brute_force():
    """Tall data (m >= 100 (k + 1): the interior point's ground), so every question is an interior-point fit that stops
    once it knows (its "no" answers certified by weak duality), and every swap of the final support, fitted from
    scratch, is no better. Same end as the search as derived (fast=False)."""
    import l0qsvm.swap as sw
    from l0qsvm.features import gram_matrix, quadratic_features
    from l0qsvm.hinge_solvers import solver_route
    X, y = problem(5, m=1500, n=5)
    R, G = quadratic_features(X), gram_matrix(X); ys = np.where(y == "b", 1.0, -1.0)
    A0 = sw.screen_terms(G, R, ys, 1.0, 6)
    assert solver_route(R.shape[0], A0.size, True, True) == "ip"
    fast, ref = sw.swap_refine(G, R, ys, 1.0, A0), sw.swap_refine(G, R, ys, 1.0, A0, fast=False)
    cert, A = fast.certificate, np.sort(fast.support)
    assert cert["passed"] and ref.certificate["passed"] and cert["smo_questions"] == 0
    np.testing.assert_allclose(cert["objective"], ref.certificate["objective"], rtol=1e-7)
    fit = sw.support_fit(G, R, ys, 1.0, A); F = fit.UB
    np.testing.assert_allclose(F, cert["objective"], rtol=1e-7)
    for i in range(A.size):
        for j in np.setdiff1d(np.arange(G.shape[0]), A):
            S = np.sort(np.r_[np.delete(A, i), j]); FS = sw.support_fit(G, R, ys, 1.0, S, tol=1e-10).UB
            assert FS >= F * (1 - 2 * cert["rtol"])
            no = sw.support_fit(G, R, ys, 1.0, S, alpha0=fit.alpha, below=F * (1 - 1e-5), above=F * (1 - 1e-5))
            assert no.status == "above" and no.LB <= FS * (1 + 1e-10)   # the question's "no": a lower bound of F*(S)


@pytest.mark.parametrize("seed", range(3))
def test_the_accelerations_change_the_cost_not_the_answer(seed, monkeypatch):
    "fast=True (SMO on rank-two updates of A's dual, in the compiled loop) and fast=False (every question a support_fit): the same certified support."
    import l0qsvm.swap as sw
    from l0qsvm.features import gram_matrix, quadratic_features
    X, y = problem(40 + seed, m=160, n=6)
    R, G, ys = quadratic_features(X), gram_matrix(X), np.where(y == "a", 1.0, -1.0)
    loops, ask_loop = [], sw._ask_loop
    monkeypatch.setattr(sw, "_ask_loop", lambda s, *a: loops.append(s.fast) or ask_loop(s, *a))
    out = {fast: sw.swap_refine(G, R, ys, 5.0, np.arange(18), fast=fast, batch=False) for fast in (True, False)}
    ref = out[False]
    assert loops.count(True) > 0 and loops.count(False) == 0      # the rank-two questions: fast=True only
    for res in out.values():
        assert res.certificate["passed"] and np.array_equal(res.support, ref.support)
        np.testing.assert_allclose(res.certificate["objective"], ref.certificate["objective"], rtol=1e-8)


def test_best_pairs_takes_the_swaps_a_full_stable_sort_gives():
    "_best_pairs sorts nothing; with many ties and a few infinities it returns what the greedy pass over the full stable sort returns."
    from l0qsvm.swap import _best_pairs
    def _distinct_pairs(flat, d, k, limit):                         # the greedy pass over the fully sorted swaps
        used_i, used_j, out = set(), set(), []
        for f in flat:
            i, j = divmod(int(f), d)
            if i in used_i or j in used_j: continue
            used_i.add(i); used_j.add(j); out.append((i, j))
            if len(out) == limit: break
        return np.array(out, dtype=np.int64).reshape(-1, 2)
    rng = np.random.default_rng(0)
    for trial in range(20):
        k, d = int(rng.integers(5, 40)), int(rng.integers(60, 300))
        flat = np.sort(rng.choice(k * d, size=int(rng.integers(1, k * d)), replace=False))
        vals = np.round(rng.standard_normal(flat.size), 1)           # many ties
        vals[rng.random(flat.size) < 0.05] = -np.inf
        limit = max(2, k // 4)
        assert np.array_equal(_best_pairs(flat, vals, d, k, limit), _distinct_pairs(flat[np.argsort(vals, kind="stable")], d, k, limit))


def test_null_term_of_real_data_costs_no_fit():
    "Ionosphere's second feature is 0 in every row: its square is a null term, and the certified search spends no fit on it."
    from sklearn.preprocessing import StandardScaler
    from l0qsvm import load_dataset
    from l0qsvm.features import gram_matrix, term_names
    from l0qsvm.swap import null_terms
    iono = load_dataset("ionosphere")
    X = StandardScaler().fit_transform(np.asarray(iono.data, dtype=float))
    assert [term_names(34)[j] for j in np.flatnonzero(null_terms(gram_matrix(X)))] == ["x1²"]
    for loss in ("hinge", "squared"):
        cert = L0QSVM(68, C=10.0, loss=loss).fit(X, iono.target).swap_certificate_[0]
        assert cert["passed"] and cert["by_fit"] == 0 and cert["n_fits"] < 1000
