"""Surfaces that respect hierarchy: `hierarchy="weak"` / `"strong"` of the swap search, `L0QSVM` and `L0QSVMCV`.

A quadratic term x_i·x_j (or x_i²) is in a hierarchical support only with its linear parents x_i, x_j (strong: all of
them; weak: at least one). The search's moves are the single swaps that keep the hierarchy; these tests check it
against an exhaustive search over the hierarchical supports of size k, solved by cvxopt.
"""
import itertools
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import L0QSVM, L0QSVMCV
from l0qsvm.features import quadratic_features, gram_matrix, term_names
from l0qsvm.subproblems import qsvm_primal_cvxopt
from l0qsvm.swap import (is_hierarchical, term_parents, hierarchical_screen, swap_refine, swap_refined_fit, fit_l0qsvm,
                         _hierarchy_moves, _hierarchical_fill)
from l0qsvm.cv import l0_path


def problem(seed, n, m=40):
    "Random data whose labels follow a quadratic surface (with noise): X (m, n), y, R, G."
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    f = X[:, 0] * X[:, -1] - 0.5 * X[:, 1] ** 2 + 0.5 * X[:, 0] + 0.3 + 0.5 * rng.standard_normal(m)
    y = np.where(f > 0, 1.0, -1.0)
    return X, y, quadratic_features(X), gram_matrix(X)


def test_parents_follow_term_names():
    names = term_names(3)
    P = term_parents(3)
    got = [tuple(names[p] for p in row) if row[0] >= 0 else () for row in P]
    assert got == [("x0", "x0"), ("x0", "x1"), ("x0", "x2"), ("x1", "x1"), ("x1", "x2"), ("x2", "x2"), (), (), ()]


def test_is_hierarchical_examples():
    # n = 3: 0 x0², 1 x0·x1, 2 x0·x2, 3 x1², 4 x1·x2, 5 x2², 6 x0, 7 x1, 8 x2
    assert is_hierarchical([1, 6, 7], 3, "strong") and is_hierarchical([1, 6], 3, "weak")
    assert not is_hierarchical([1, 6], 3, "strong") and not is_hierarchical([1, 8], 3, "weak")
    assert is_hierarchical([0, 6], 3, "strong") and not is_hierarchical([0, 7], 3, "weak")
    assert is_hierarchical([1, 8], 3, None)


@pytest.mark.parametrize("hierarchy", ["weak", "strong"])
def test_moves_are_the_hierarchical_swaps(hierarchy):
    "The mask of moves the search uses equals is_hierarchical of every single swap of random hierarchical supports."
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(2, 6)); P = term_parents(n); d = P.shape[0]
        A = _hierarchical_fill(rng.permutation(d), [], int(rng.integers(1, d)), P, hierarchy)
        assert is_hierarchical(A, n, hierarchy)
        brute = np.array([[j not in A and is_hierarchical(np.r_[np.delete(A, i), j], n, hierarchy) for j in range(d)]
                          for i in range(A.size)])
        np.testing.assert_array_equal(_hierarchy_moves(A, P, hierarchy), brute)


@pytest.mark.parametrize("hierarchy", ["weak", "strong"])
def test_screen_respects_hierarchy_at_every_size(hierarchy):
    X, y, R, G = problem(0, 4)
    for s in range(1, G.shape[0] + 1):
        A = hierarchical_screen(G, R, y, 1.0, s, hierarchy=hierarchy)
        assert A.size == s and is_hierarchical(A, 4, hierarchy)


# ---- brute force: the best hierarchical support of size k ----------------------------------------------------------

def reference(G, R, y, C, loss):
    "F* of the model on all the terms of G, by cvxopt (at a looser tolerance where its interior point meets a domain error)."
    for tol in (1e-10, 1e-9, 1e-8):
        try: return qsvm_primal_cvxopt(G, R, y, C, loss=loss, tol=tol)[2]
        except ValueError: continue
    raise RuntimeError("cvxopt failed at every tolerance")


def brute_best(G, R, y, C, k, n, loss):
    """{hierarchy: min F*(S)} over the hierarchical supports of size exactly k (F* is monotone in S and every
    hierarchical support of size < k extends to one of size k by linear terms or children of present parents, so these
    are the best supports of size <= k too)."""
    best = {"weak": np.inf, "strong": np.inf}
    for S in itertools.combinations(range(G.shape[0]), k):
        if not is_hierarchical(S, n, "weak"): continue    # (strong supports are weak ones)
        S = list(S)
        F = reference(G[np.ix_(S, S)], R[:, S], y, C, loss)
        best["weak"] = min(best["weak"], F)
        if is_hierarchical(S, n, "strong"): best["strong"] = min(best["strong"], F)
    return best


def brute_cells(seeds):
    rows = []
    for seed, n, loss in itertools.product(seeds, (3, 4), ("hinge", "squared")):
        X, y, R, G = problem(seed, n)
        for k, C in itertools.product(range(2, 6), (1.0, 10.0)):
            best = brute_best(G, R, y, C, k, n, loss)
            for h in ("weak", "strong"):
                fit = swap_refined_fit(G, R, y, k, C, loss=loss, hierarchy=h)
                assert is_hierarchical(fit.support, n, h) and np.count_nonzero(fit.z) <= k
                assert fit.swap["hierarchy"] == h
                rel = (fit.objective - best[h]) / abs(best[h])
                rows.append(dict(seed=seed, n=n, loss=loss, k=k, C=C, hierarchy=h, rel=rel, passed=fit.swap["passed"]))
    return rows


def check_brute(rows):
    for h in ("weak", "strong"):
        sub = [r for r in rows if r["hierarchy"] == h]
        hits = sum(r["rel"] <= 1e-6 for r in sub)
        print(f"{h}: best hierarchical objective reached in {hits} of {len(sub)} cells ({hits / len(sub):.1%})")
        assert min(r["rel"] for r in sub) >= -1e-6, [r for r in sub if r["rel"] < -1e-6]   # never below the optimum
        assert hits >= 0.95 * len(sub), [r for r in sub if r["rel"] > 1e-6]


def test_brute_force_small():
    check_brute(brute_cells(range(2)))


@pytest.mark.slow
def test_brute_force_many_draws():
    check_brute(brute_cells(range(2, 12)))


# ---- every fit respects its hierarchy ------------------------------------------------------------------------------

@pytest.mark.parametrize("hierarchy", ["weak", "strong"])
@pytest.mark.parametrize("loss", ["hinge", "squared"])
def test_fitted_supports_respect_hierarchy(hierarchy, loss):
    rng = np.random.default_rng({"hinge": 1, "squared": 2}[loss] + 10 * (hierarchy == "strong"))
    for _ in range(12):
        n = int(rng.integers(1, 7)); m = int(rng.integers(15, 90))
        X = rng.standard_normal((m, n)) * rng.uniform(0.1, 5.0, n)
        y = np.where(rng.random(m) < 0.5, 1.0, -1.0); y[:2] = [1.0, -1.0]
        d = n * (n + 3) // 2; k = int(rng.integers(1, d + 1)); C = float(10 ** rng.uniform(-1, 2))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = fit_l0qsvm(X, y, k, C, loss=loss, hierarchy=hierarchy)
            est = L0QSVM(k, C=C, loss=loss, hierarchy=hierarchy).fit(X, y)
        assert is_hierarchical(fit.support, n, hierarchy) and np.count_nonzero(fit.z) <= k
        assert fit.swap["hierarchy"] == hierarchy
        assert all(is_hierarchical(np.flatnonzero(z), n, hierarchy) for z in est.z_)
        assert all(is_hierarchical(S, n, hierarchy) for S in est.support_)


@pytest.mark.parametrize("warm_start", [True, False])
def test_cv_path_respects_hierarchy(warm_start):
    X, y, R, G = problem(3, 5, m=80)
    for h in ("weak", "strong"):
        fits = list(l0_path(G, R, y, [1, 3, 6, 10], 10.0, warm_start=warm_start, hierarchy=h))
        assert all(is_hierarchical(f.support, 5, h) and f.swap["hierarchy"] == h for f in fits)
    cv = L0QSVMCV(ks=[2, 4], Cs=[1.0], cv=3, hierarchy="strong").fit(X, y)
    assert cv.best_estimator_.hierarchy == "strong"
    assert is_hierarchical(np.flatnonzero(cv.best_estimator_.z_[0]), 5, "strong")


def test_unconstrained_fit_can_break_hierarchy():
    "The hierarchy is not free: on this problem the plain fit keeps a quadratic term without its parents."
    X, y, R, G = problem(0, 4, m=80)
    plain = swap_refined_fit(G, R, y, 5, 10.0)
    strong = swap_refined_fit(G, R, y, 5, 10.0, hierarchy="strong")
    assert not is_hierarchical(plain.support, 4, "strong") and is_hierarchical(strong.support, 4, "strong")
    assert strong.objective >= plain.objective * (1 - 1e-9)


# ---- parameters ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["Strong", "both", 1, True])
def test_bad_hierarchy_value(bad):
    X, y, R, G = problem(0, 3)
    with pytest.raises(ValueError, match="hierarchy"):
        fit_l0qsvm(X, y, 3, hierarchy=bad)
    with pytest.raises(ValueError, match="hierarchy"):
        swap_refine(G, R, y, 1.0, [6, 7], hierarchy=bad)
    with pytest.raises(ValueError, match="hierarchy"):
        L0QSVM(3, hierarchy=bad).fit(X, y)
    with pytest.raises(ValueError, match="hierarchy"):
        L0QSVMCV(ks=[2], Cs=[1.0], cv=2, hierarchy=bad).fit(X, y)


def test_hierarchy_needs_the_swap_search():
    X, y, R, G = problem(0, 3)
    with pytest.raises(ValueError, match="refine='swap'"):
        fit_l0qsvm(X, y, 3, refine=None, hierarchy="strong")
    with pytest.raises(ValueError, match="refine='swap'"):
        L0QSVM(3, refine=None, hierarchy="weak").fit(X, y)
    with pytest.raises(ValueError, match="start_from"):
        swap_refined_fit(G, R, y, 3, 1.0, start_from="algorithm1", hierarchy="strong")
    with pytest.raises(ValueError, match="support must respect"):
        swap_refine(G, R, y, 1.0, [1, 6], hierarchy="strong")    # x0·x1 without x1


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([L0QSVM(k=3, hierarchy="strong")])
def test_sklearn_compatible(estimator, check):
    check(estimator)
