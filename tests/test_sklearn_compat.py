"""scikit-learn's common estimator checks for `QSVM`, `L1QSVM` and `L0QSVM`, one pytest test per check.

The same contract is checked once more, as a lesson, by `check_estimator` in `nbs/08_estimators.ipynb`. The estimators
run with their default parameters (`L0QSVM` with a small `k`, so that the sparsity constraint is active on the
two-feature data sets of the checks); no check is expected to fail.
"""
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import QSVM, L1QSVM, L0QSVM


# Some checks fit deliberately badly scaled data (features around 100, so squares around 1e4), on which cvxopt may stop
# in "numerical difficulties"; the resulting ConvergenceWarning is the documented behaviour, not a failure.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([QSVM(), L1QSVM(), L0QSVM(k=3), L0QSVM(k=3, loss="squared")])
def test_sklearn_compatible(estimator, check):
    check(estimator)
