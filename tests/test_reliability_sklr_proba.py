"""`SparseKLR.predict_proba` gives probabilities: at λ > 0 the model's own σ(f) is far too confident (`05_sklr` §10),
so `fit` calibrates a slope a of σ(af) by cross-validation on the training data (`05a_sklr_estimator`).

On small data sets, at sparse settings of the comparison of `12a_sklr_comparison`: the test log-loss is within 1.25 times
the larger of KLR's and of the SVM with Platt's sigmoid, the predictions are those of the uncalibrated model (the same
test accuracy), and the most probable class is the prediction on every row.
"""
import numpy as np
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer, load_wine, make_moons
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from l0qsvm import KLR, SparseKLR


def _split(name):
    if name == "breast_cancer": X, y = load_breast_cancer(return_X_y=True)
    elif name == "wine": X, y = load_wine(return_X_y=True)          # three classes: one-vs-rest
    else: X, y = make_moons(400, noise=0.35, random_state=0)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    sc = StandardScaler().fit(Xtr)
    return sc.transform(Xtr), sc.transform(Xte), ytr, yte


@pytest.mark.parametrize("name", ["breast_cancer", "wine", "moons"])
@pytest.mark.parametrize("C, lam", [(1000.0, 10 ** -2.5), (1000.0, 1e-2)])
def test_sklr_log_loss_near_klr_and_platt_svm(name, C, lam):
    Xtr, Xte, ytr, yte = _split(name)
    sk = SparseKLR(C=C, lam=lam, lam_scale="bound").fit(Xtr, ytr)
    assert sk.lam_ > 0 and sk.fraction_dropped_ > 0                    # a sparse model, where σ(f) is overconfident
    klr = KLR(C=10.0).fit(Xtr, ytr)
    svc = CalibratedClassifierCV(SVC(C=10.0), method="sigmoid", ensemble=False, cv=5).fit(Xtr, ytr)
    loss = {k: log_loss(yte, e.predict_proba(Xte), labels=sk.classes_) for k, e in (("sklr", sk), ("klr", klr), ("svc", svc))}
    assert loss["sklr"] <= 1.25 * max(loss["klr"], loss["svc"]), loss
    P = sk.predict_proba(Xte)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(sk.classes_[P.argmax(axis=1)], sk.predict(Xte))       # every row
    raw = SparseKLR(C=C, lam=lam, lam_scale="bound", probability=False).fit(Xtr, ytr)
    np.testing.assert_array_equal(sk.predict(Xte), raw.predict(Xte))  # calibration leaves the classifier as it is
    np.testing.assert_allclose(np.exp(sk.predict_log_proba(Xte)), P, atol=1e-12)


def test_argmax_is_the_prediction_where_sigma_rounds_classes_together():
    X, y = make_moons(60, noise=0.3, random_state=1)
    sk = SparseKLR(C=100.0, lam=1.0).fit(X, y)
    sk.dual_coef_ = sk.dual_coef_ * 1e-20; sk.intercept_ = np.array([1e-19])   # |a f| ≈ 1e-20: σ(±af) round to ½
    f = sk.decision_function(X)
    assert (f > 0).all() and np.all(0.5 * (1 + 0 * f) == 1 / (1 + np.exp(-sk.proba_slope_ * f)))
    np.testing.assert_array_equal(sk.classes_[sk.predict_proba(X).argmax(axis=1)], sk.predict(X))


def test_probability_switch_and_the_klr_case():
    Xtr, Xte, ytr, yte = _split("moons")
    off = SparseKLR(C=100.0, lam=2.0, probability=False).fit(Xtr, ytr)
    assert off.proba_slope_ is None and not hasattr(off, "predict_proba") and not hasattr(off, "predict_log_proba")
    with pytest.raises(AttributeError) as no_proba:
        off.predict_proba(Xte)
    assert "not available when probability=False" in str(no_proba.value.__cause__)     # the reason, as SVC gives it
    for est in (KLR(C=10.0), SparseKLR(C=10.0, lam=0.0)):                  # λ = 0: KLR's own σ(f), no extra fit
        est.fit(Xtr, ytr)
        assert est.proba_slope_ == 1.0
        np.testing.assert_allclose(est.predict_proba(Xte)[:, 1], 1 / (1 + np.exp(-est.decision_function(Xte))), atol=1e-15)
