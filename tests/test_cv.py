"""`L0QSVMCV` and `L1QSVMCV`: scikit-learn's estimator checks, agreement with `GridSearchCV`, the selection rules, errors.

The agreement with `GridSearchCV` is checked where both make the same fits: `warm_start=False` makes, cell by cell, the
cold `L0QSVM(k, C=C, loss=loss)` fit that `GridSearchCV(L0QSVM(loss=loss))` makes, and `L1QSVMCV` makes `L1QSVM`'s fit
on each cell; the scores must then agree to 1e-9.
"""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import L0QSVM, L1QSVM, L0QSVMCV, L1QSVMCV
from l0qsvm.cv import select_cell


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([L0QSVMCV(ks=[1, 3], Cs=[1.0, 10.0], cv=3),
                          L0QSVMCV(ks=[1, 3], Cs=[1.0, 10.0], cv=3, loss="squared", select="1se"),
                          L1QSVMCV(lams=[0.1, 1.0], Cs=[1.0, 10.0], cv=3)],
                         expected_failed_checks=lambda e: {"check_sample_weight_equivalence_on_dense_data":
                                                           "the folds of the repeated rows are other folds"})
def test_sklearn_compatible(estimator, check, request):
    if (getattr(check, "func", check).__name__ == "check_sample_weight_equivalence_on_dense_data"
            and not request.config.getoption("--slow")):
        pytest.skip("an expected failure that takes long (the folds of the repeated rows are other folds): --slow runs it")
    check(estimator)


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X)[::2], y[::2]


KEYS = ["split0_test_score", "split1_test_score", "split2_test_score", "mean_test_score", "std_test_score"]


def _compare(ours, gs):
    for key in KEYS: np.testing.assert_allclose(ours.cv_results_[key], gs.cv_results_[key], rtol=0, atol=1e-9)
    np.testing.assert_array_equal(ours.cv_results_["rank_test_score"], gs.cv_results_["rank_test_score"])
    assert ours.cv_results_["params"] == gs.cv_results_["params"]
    assert ours.best_params_ == gs.best_params_ and ours.best_index_ == gs.best_index_
    assert ours.best_score_ == pytest.approx(gs.best_score_, abs=1e-9)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("loss", ["hinge", "squared"])
def test_same_fits_as_gridsearch(breast_cancer, loss):
    X, y = breast_cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    grid = {"k": [1, 4, 7], "C": [0.3, 30.0]}
    gs = GridSearchCV(L0QSVM(loss=loss), grid, cv=cv).fit(X, y)
    ours = L0QSVMCV(ks=grid["k"], Cs=grid["C"], loss=loss, cv=cv, warm_start=False).fit(X, y)
    _compare(ours, gs)
    np.testing.assert_allclose(ours.z_, gs.best_estimator_.z_, atol=1e-12)
    assert ours.equation() == gs.best_estimator_.equation()


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_l1_same_fits_as_gridsearch(breast_cancer):
    X, y = breast_cancer
    X = X[:, :8]
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    grid = {"lam": [0.1, 3.0], "C": [1.0, 10.0]}
    gs = GridSearchCV(L1QSVM(), grid, cv=cv).fit(X, y)
    ours = L1QSVMCV(lams=grid["lam"], Cs=grid["C"], cv=cv).fit(X, y)
    _compare(ours, gs)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_warm_path_agrees_where_supports_agree(breast_cancer):
    "The warm path's scores equal the cold fits' on cells where both found the same support (same convex problem)."
    X, y = breast_cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    kw = dict(ks=range(1, 9), Cs=[1.0], cv=cv, loss="squared")
    warm, cold = L0QSVMCV(**kw).fit(X, y), L0QSVMCV(**kw, warm_start=False).fit(X, y)
    assert abs(warm.best_score_ - cold.best_score_) <= 0.02
    from l0qsvm.cv import l0_path
    from l0qsvm.features import quadratic_features, gram_matrix
    train, test = next(cv.split(X, y))
    R, G, yt = quadratic_features(X[train]), gram_matrix(X[train]), np.where(y[train] == 1, 1.0, -1.0)
    same = 0
    for w, c in zip(l0_path(G, R, yt, range(1, 9), 1.0, loss="squared"),
                    l0_path(G, R, yt, range(1, 9), 1.0, loss="squared", warm_start=False)):
        if np.array_equal(w.support, c.support):
            same += 1
            assert w.objective == pytest.approx(c.objective, rel=1e-9)
            np.testing.assert_allclose(w.z, c.z, atol=1e-7)
    assert same >= 4


def test_select_rules():
    mean, std, k = np.array([0.90, 0.95, 0.96, 0.94]), np.array([0.02, 0.02, 0.03, 0.01]), np.array([1, 2, 3, 4])
    assert select_cell(mean, std, k, 4, "best") == 2
    assert select_cell(mean, std, k, 4, "1se") == 1
    assert select_cell(mean, np.zeros(4), k, 4, "1se") == 2
    assert select_cell(np.array([0.9, 0.9]), np.zeros(2), np.array([2, 1]), 3, "best") == 0


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_1se_picks_sparser(breast_cancer):
    X, y = breast_cancer
    best = L0QSVMCV(ks=range(1, 11), Cs=[1.0, 10.0], cv=3).fit(X, y)
    se = L0QSVMCV(ks=range(1, 11), Cs=[1.0, 10.0], cv=3, select="1se").fit(X, y)
    assert se.k_ <= best.k_
    b = best.best_index_
    assert se.best_score_ >= best.best_score_ - best.cv_results_["std_test_score"][b] / np.sqrt(3) - 1e-12


def test_multiclass_and_scoring():
    X, y = load_iris(return_X_y=True)
    m = L0QSVMCV(ks=[1, 2, 3], Cs=[1.0, 10.0], cv=3, scoring="balanced_accuracy", n_jobs=2).fit(X, y)
    assert m.z_.shape == (3, 14) and m.score(X, y) > 0.9 and len(m.equation().splitlines()) == 3


def test_errors(breast_cancer):
    X, y = breast_cancer
    with pytest.raises(ValueError, match="ks must be a non-empty list of integers"): L0QSVMCV(ks=[0, 2]).fit(X, y)
    with pytest.raises(ValueError, match="Cs must be"): L0QSVMCV(Cs=[1.0, -1.0]).fit(X, y)
    with pytest.raises(ValueError, match="'Cs' parameter of L0QSVMCV must be an int, not a bool"): L0QSVMCV(Cs=True).fit(X, y)
    with pytest.raises(ValueError, match="select"): L0QSVMCV(select="2se").fit(X, y)
    with pytest.raises(ValueError, match="lams must be"): L1QSVMCV(lams=[-1.0]).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"): L0QSVMCV().fit(X, np.zeros(len(y)))
    m = L0QSVMCV(ks=[1], Cs=[1.0], cv=2, refit=False).fit(X, y)
    with pytest.raises(AttributeError, match="refit=False"): m.predict(X)


def test_max_time_and_verbose(breast_cancer, capsys):
    X, y = breast_cancer
    with pytest.warns(ConvergenceWarning, match="time budget"):
        L0QSVMCV(ks=range(1, 40), Cs=[10.0, 100.0, 1000.0], max_time=0.05).fit(X, y)
    L0QSVMCV(ks=[1, 2], Cs=[1.0], cv=2, verbose=1).fit(X, y)
    assert "fold" in capsys.readouterr().err


def test_plot_and_feature_names(breast_cancer):
    import matplotlib
    matplotlib.use("Agg")
    import pandas as pd
    from l0qsvm import plot_cv_path
    X, y = breast_cancer
    df = pd.DataFrame(X[:, :5], columns=[f"f{j}" for j in range(5)])
    m = L0QSVMCV(ks=[1, 2, 3], Cs=[1.0, 10.0], cv=3).fit(df, y)
    assert "f" in m.equation() and m.predict(df).shape == (len(y),)
    ax = plot_cv_path(m)
    assert len(ax.lines) >= 3 and "k" in ax.get_xlabel()
    l1 = L1QSVMCV(lams=[0.1, 1.0], Cs=[1.0], cv=3).fit(df, y)
    assert plot_cv_path(l1).get_xscale() == "log"
