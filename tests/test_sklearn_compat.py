"""scikit-learn's common estimator checks for `QSVM`, `L1QSVM` and `L0QSVM`, one pytest test per check.

The same contract is checked once more, as a lesson, by `check_estimator` in `nbs/08_estimators.ipynb`. The estimators
run with their default parameters (`L0QSVM` with a small `k`, so that the sparsity constraint is active on the
two-feature data sets of the checks). One check is expected to fail: `check_sample_weight_equivalence_on_dense_data`
for `QSVM()` (its default SMO tolerance, 1e-3, is far above the 1e-7 the check compares decision values at) and for
the hinge `L0QSVM` (its intercept may be another point of an interval of optimal intercepts). tests/test_weights.py
checks the equivalence at a tight tolerance, and the objective, z and intercept against repeated rows.
"""
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import QSVM, L1QSVM, L0QSVM


# Some checks fit deliberately badly scaled data (features around 100, so squares around 1e4), on which cvxopt may stop
# in "numerical difficulties"; the resulting ConvergenceWarning is the documented behaviour, not a failure.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def _expected_failures(estimator):
    if isinstance(estimator, QSVM) or (isinstance(estimator, L0QSVM) and estimator.loss == "hinge"):
        return {"check_sample_weight_equivalence_on_dense_data":
                "equal to the solver's tolerance, not to 1e-7 (see tests/test_weights.py)"}
    return {}


@parametrize_with_checks([QSVM(), L1QSVM(), L0QSVM(k=3), L0QSVM(k=3, loss="squared")],
                         expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)
