"""The comparison of `12a_sklr_comparison`: its selection rule, the splits every method shares, resuming a run, and the
command line (`l0qsvm reproduce --paper sklr`), whose bad arguments are usage errors."""
import json

import numpy as np
import pandas as pd
import pytest

from l0qsvm.cli import main
from l0qsvm.sklr_comparison import (METHODS, comparison_fold, comparison_rows, method_grid, run_comparison,
                                    select_setting)


@pytest.mark.parametrize("seed", range(20))
def test_selection_rule_is_the_sparsest_within_the_slack(seed):
    rng = np.random.default_rng(seed)
    acc, kept = rng.uniform(0.8, 1.0, 12).round(2), rng.uniform(0.01, 1.0, 12)
    j = select_setting(acc, kept, slack=0.01)
    near = np.flatnonzero(acc >= acc.max() - 0.01 - 1e-12)
    assert j in near and kept[j] == kept[near].min()


def test_every_method_sees_the_same_points_and_the_rule_picks_the_setting():
    rows = {m: comparison_fold("breast_cancer", m, 2, quick=True) for m in METHODS}
    assert len({(r["n_train"], r["n_test"]) for _, r in rows.values()}) == 1
    for m, (configs, row) in rows.items():
        assert len(configs) == len(method_grid(m, quick=True)) and row["error"] == ""
        assert row["best_config"] == select_setting([c["val_accuracy"] for c in configs], [c["kept"] for c in configs])
        assert json.loads(row["params"]) == method_grid(m, quick=True)[row["best_config"]]
        assert 0 < row["kept"] <= 1 and 0 <= row["log_loss"] and 0.9 < row["test_accuracy"] <= 1


def test_resume_runs_nothing_and_settings_are_guarded(tmp_path):
    first = run_comparison(["breast_cancer"], ["klr"], n_folds=2, quick=True, n_jobs=1, out=tmp_path)
    again = run_comparison(["breast_cancer"], ["klr"], n_folds=2, quick=True, n_jobs=1, out=tmp_path)
    pd.testing.assert_frame_equal(first, again)
    assert len(comparison_rows(tmp_path, ["breast_cancer"], ["klr"], quick=True, n_folds=2)) == 2
    with pytest.raises(ValueError, match="holds a run"):
        run_comparison(["breast_cancer"], ["klr"], n_folds=3, quick=True, n_jobs=1, out=tmp_path)
    with pytest.raises(ValueError, match="unknown method"):
        run_comparison(["breast_cancer"], ["svm"], quick=True)


def test_command_line(tmp_path, capsys):
    code = main(["reproduce", "--paper", "sklr", "--quick", "--models", "klr", "--folds", "2", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "accuracy:" in out and "breast_cancer" in out and "2 folds in" in out
    summary = pd.read_csv(tmp_path / "summary-sklr.csv", index_col=[0, 1])
    assert summary.loc[("breast_cancer", "klr"), "kept"] == 1.0


@pytest.mark.parametrize("argv, message", [
    (["--configs", "3"], "fixed grid"),
    (["--models", "svm"], "choose from"),
    (["--models", "nothing"], "unknown model"),
])
def test_bad_arguments_are_usage_errors(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["reproduce", "--paper", "sklr", "--quick", "--quiet", "--out", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "usage:" in err and message in err and "Traceback" not in err
