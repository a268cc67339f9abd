"""Input validation of sample weights and numeric parameters across the estimators.

Weights: `check_weights` (01_features) is the one validation; a weight below float64's relative precision times the
largest counts as 0 (in the fit, `objective_` and the certificates alike), a class left without weight and a sum that
overflows are refused naming `sample_weight`. The QSVM models divide the weights by their mean (04b_hinge_solvers:
their objective is homogeneous in the weights), so uniform weights of any size give the unweighted fit. The kernel
models of the entropy SMO (KLR, SparseKLR) refuse loss weights C*weight their solver cannot resolve, naming what the
user set. Parameters: `check_no_booleans` (04d_multiclass) refuses a bool where a number is declared, in every
estimator; `L12KLR`/`IVM` share SparseKLR's rule degree >= 1.
"""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from l0qsvm import IVM, KLR, L0QSVM, L0QSVMCV, L12KLR, L1QSVM, L1QSVMCV, QSVM, SparseKLR


def _data():
    r = np.random.default_rng(0)
    X = r.standard_normal((60, 3))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


def _rel(a, b): return float(np.abs(np.asarray(a) - b).max() / max(1e-300, np.abs(b).max()))


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


# --- item 4: extreme weights ------------------------------------------------------------------------------------

@pytest.mark.parametrize("est", [KLR, SparseKLR])
def test_tiny_uniform_weights_klr_refused_naming_sample_weight(est):
    """KLR's loss weight is C*weight (uniform weights are a factor of C): 1e-302 is below what the entropy SMO
    resolves. Before: ZeroDivisionError (smo.py:807)."""
    X, y = _data()
    with pytest.raises(ValueError, match="sample_weight") as e: est().fit(X, y, sample_weight=np.full(60, 1e-302))
    assert "box_gap" not in str(e.value)


def test_tiny_C_klr_refused_naming_C():
    X, y = _data()
    with pytest.raises(ValueError, match=r"loss weights C go down to 1e-160.*raise C"): KLR(C=1e-160).fit(X, y)


@pytest.mark.parametrize("make", [lambda: L0QSVM(k=3, refine=None), lambda: L12KLR(), lambda: QSVM(), lambda: IVM(),
                                  lambda: KLR(), lambda: L0QSVMCV(ks=[2], Cs=[1.0], cv=3)],
                         ids=["L0QSVM-refine-None", "L12KLR", "QSVM", "IVM", "KLR", "L0QSVMCV"])
def test_one_huge_weight_refused_naming_sample_weight(make):
    """Next to a weight of 1e300 the weights of 1 are below float64's precision: they count as 0, which leaves class 1
    without weight. Before: OverflowError (subproblems.py:193, kernel_peers.py:268), a silent fit on one point (QSVM),
    or an error about box_gap (KLR)."""
    X, y = _data()
    w = np.ones(60); w[0] = 1e300
    with pytest.raises(ValueError, match=r"sample_weight leaves class 1 with zero total weight \(its weights are below"):
        make().fit(X, y, sample_weight=w)


def test_weights_whose_sum_overflows_are_refused():
    X, y = _data()
    with pytest.raises(ValueError, match="sample_weight sums to more than float64 holds"):
        QSVM().fit(X, y, sample_weight=np.full(60, 1e307))


def _subnormal():
    X, y = _data()
    w = np.ones(60); w[::2] = 1e-320
    return X, y, w


@pytest.mark.parametrize("refine", ["swap", None])
def test_subnormal_weights_count_as_zero_in_l0qsvm_and_its_certificate(refine):
    """Weights of 1e-320 next to 1s are dropped: the fit, objective_ and the swap certificate's objective are those of
    the data without those rows. Before: a constant model certified at objective 30.0 while objective_ was 28."""
    X, y, w = _subnormal()
    a = L0QSVM(k=3, refine=refine).fit(X, y, sample_weight=w)
    b = L0QSVM(k=3, refine=refine).fit(X[1::2], y[1::2])
    assert abs(a.objective_[0] - b.objective_[0]) <= 1e-9 * b.objective_[0]
    assert _rel(a.z_, b.z_) <= 1e-9
    if refine == "swap":
        assert abs(a.swap_certificate_[0]["objective"] - a.objective_[0]) <= 1e-9 * a.objective_[0]


@pytest.mark.parametrize("est", [KLR, SparseKLR])
def test_subnormal_weights_count_as_zero_in_klr(est):
    """Before: ValueError 'box_gap must satisfy 0 < box_gap < C/2', a parameter the user never set."""
    X, y, w = _subnormal()
    a = est().fit(X, y, sample_weight=w)
    b = est().fit(X[1::2], y[1::2])
    assert _rel(a.objective_, b.objective_) <= 1e-9
    assert set(a.support_.tolist()) <= set(range(1, 60, 2))


def test_swap_certificate_objective_equals_objective_with_weights():
    X, y = _data()
    w = np.random.default_rng(1).integers(1, 4, 60) * 1e-4
    e = L0QSVM(k=3).fit(X, y, sample_weight=w)
    assert abs(e.swap_certificate_[0]["objective"] - e.objective_[0]) <= 1e-9 * e.objective_[0]


@pytest.mark.parametrize("scale", [1e-302, 1e-4, 1e4, 1e300])
@pytest.mark.parametrize("make", [lambda: QSVM(), lambda: L0QSVM(k=3), lambda: L0QSVM(k=3, refine=None),
                                  lambda: L0QSVM(k=3, loss="squared")],
                         ids=["QSVM", "L0QSVM", "L0QSVM-refine-None", "LS-L0QSVM"])
def test_uniform_weights_give_the_unweighted_fit(make, scale):
    """The QSVM objective is homogeneous in the weights (loss and regulariser carry them): uniform weights give the
    unweighted surface, and objective_ is scale times the unweighted one. Before: 1e-302 gave the constant model
    (QSVM), 1e-4 another support (L0QSVM with the swap search, 0.14% worse), 1e300 overflowed."""
    X, y = _data()
    a, b = make().fit(X, y, sample_weight=np.full(60, scale)), make().fit(X, y)
    assert _rel(a.z_, b.z_) <= 1e-9 and abs(a.c_[0] - b.c_[0]) <= 1e-9
    assert abs(a.objective_[0] / scale - b.objective_[0]) <= 1e-9 * b.objective_[0]


@pytest.mark.parametrize("scale", [1e-4, 1e4])
def test_uniform_weights_l1qsvm_scale_lam(scale):
    """For l1-QSVM a common factor of the weights is the inverse factor of lam (the weights count copies)."""
    X, y = _data()
    a = L1QSVM(lam=0.1).fit(X, y, sample_weight=np.full(60, scale))
    b = L1QSVM(lam=0.1 / scale).fit(X, y)
    assert _rel(a.z_, b.z_) <= 1e-6 and abs(a.objective_[0] / scale - b.objective_[0]) <= 1e-8 * b.objective_[0]


def test_uniform_tiny_weights_cv_equal_the_unweighted_cv():
    X, y = _data()
    kw = dict(ks=[2, 3], Cs=[1.0, 10.0], cv=3)
    a, b = L0QSVMCV(**kw).fit(X, y, sample_weight=np.full(60, 1e-302)), L0QSVMCV(**kw).fit(X, y)
    np.testing.assert_allclose(a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"], atol=1e-12)
    assert a.best_params_ == b.best_params_


@pytest.mark.parametrize("est", [KLR, SparseKLR])
def test_klr_class_sizes_the_box_cannot_balance_refused(est):
    """Weighted class sizes 1e15 apart: no α in the box [u_iη, u_i(C − η)] has y^T α = 0. Before: 'no feasible start of
    the paper's form: (m_pos + m_neg) * box_gap / m_small > C'."""
    X, y = _data()
    w = np.where(y == 1, 1e15, 1.0)
    with pytest.raises(ValueError, match="weighted sizes of class 1 and the rest.*sample_weight") as e:
        est().fit(X, y, sample_weight=w)
    assert "box_gap" not in str(e.value)


# --- item 7: booleans where numbers are expected, degree 0 ------------------------------------------------------

_PARAMS = {   # estimator -> every numeric parameter it takes (a bool is refused in each)
    QSVM: ["C", "tol", "max_time", "max_iter"],
    L1QSVM: ["C", "tol", "max_time", "lam", "max_iter"],
    L0QSVM: ["C", "tol", "max_time", "k", "rho0", "beta", "eps_inner", "eps_outer", "max_inner", "max_outer"],
    SparseKLR: ["C", "lam", "gamma", "degree", "coef0", "box", "tol", "max_iter", "cache_size", "max_time"],
    KLR: ["C", "gamma", "degree", "coef0", "box", "tol", "max_iter", "cache_size", "max_time"],
    IVM: ["C", "gamma", "degree", "coef0", "n_add", "eps", "delta_k", "max_import", "eps_back", "tol", "cache_size",
          "max_time"],
    L12KLR: ["k", "lam", "gamma", "degree", "coef0", "tol", "max_iter", "max_time"],
    L0QSVMCV: ["Cs", "max_time", "n_jobs"],
    L1QSVMCV: ["Cs", "lams", "max_time", "n_jobs"],
}
_CASES = [(est, p) for est, ps in _PARAMS.items() for p in ps]


@pytest.mark.parametrize("est,param", _CASES, ids=[f"{e.__name__}-{p}" for e, p in _CASES])
@pytest.mark.parametrize("value", [True, np.True_], ids=["True", "np.True_"])
def test_booleans_are_not_numbers(est, param, value):
    """Interval(Real, ...) and Interval(Integral, ...) take True as 1. Before: max_time=True, k=True, degree=True, ...
    were accepted by SparseKLR, KLR, IVM, L12KLR and the CV estimators."""
    assert param in est().get_params(), param
    X, y = _data()
    extra = {"kernel": "poly"} if param in ("degree", "coef0") else {}
    with pytest.raises(ValueError, match=rf"'{param}' parameter of {est.__name__} must be|{param}.*bool"):
        est(**{param: value}, **extra).fit(X, y)


@pytest.mark.parametrize("est,param", [(L1QSVMCV, "lams"), (L1QSVMCV, "Cs"), (L0QSVMCV, "ks"), (L0QSVMCV, "Cs")])
def test_booleans_in_a_grid_are_not_numbers(est, param):
    X, y = _data()
    with pytest.raises(ValueError, match=f"{param} must hold numbers, not booleans"):
        est(**{param: [True, 2]}).fit(X, y)


@pytest.mark.parametrize("est", [SparseKLR, KLR, IVM, L12KLR])
def test_degree_zero_refused_by_every_kernel_model(est):
    """One rule (SparseKLR's, degree >= 1). Before: L12KLR and IVM fitted a constant classifier at degree 0."""
    X, y = _data()
    with pytest.raises(ValueError, match=rf"'degree' parameter of {est.__name__} must be an int in the range \[1, inf\)"):
        est(kernel="poly", degree=0).fit(X, y)
