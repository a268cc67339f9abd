"""The experiments' command and table writer: `l0qsvm reproduce --quick` (tiny), argument errors, resume, the summary."""
import json

import numpy as np
import pandas as pd
import pytest

from l0qsvm.cli import main
from l0qsvm.experiments import (MODELS, ModelSpec, compare_with_paper, format_table, paper_table, register_model,
                                run_protocol, summarize)


def test_quick_command_tiny(tmp_path, capsys):
    "The README's main job, shrunk: --quick with 2 configurations and 2 folds prints our table beside the paper's."
    code = main(["reproduce", "--quick", "--configs", "2", "--folds", "2", "--jobs", "1", "--quiet",
                 "--models", "qsvm", "l0-qsvm", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    for text in ("Iris", "Wine", "QSVM", "L0-QSVM", "0.953 ± 0.061", "0.977 ± 0.021"):   # rows and the paper's numbers
        assert text in out, text
    folds = pd.read_csv(tmp_path / "folds.csv")
    assert len(folds) == 2 * 2 * 2 and set(folds.dataset) == {"iris", "wine"}
    assert folds.test_accuracy.between(0, 1).all() and (folds.error.isna()).all()
    assert len(pd.read_csv(tmp_path / "configs.csv")) == 2 * 2 * 2 * 2
    summary = pd.read_csv(tmp_path / "summary-v2.csv", index_col=[0, 1])
    assert summary.loc[("iris", "qsvm"), "paper_mean"] == pytest.approx(0.953)


@pytest.mark.parametrize("argv, message", [
    (["--datasets", "brain"], "not identified"),
    (["--datasets", "mnist"], "unknown data set"),
    (["--models", "svm2"], "unknown model"),
    (["--configs", "0"], "0 is not in [1, inf]"),
    (["--folds", "1"], "1 is not in [2, inf]"),
    (["--jobs", "0"], "0 workers"),
    (["--seed", "-3"], "-3 is not in [0, inf]"),
    (["--backend", "spark"], "invalid choice"),
    (["--paper", "v3"], "invalid choice"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
])
def test_bad_arguments_are_usage_errors(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["reproduce", "--quick", "--quiet", "--out", str(tmp_path), *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and message in err and "Traceback" not in err


def test_missing_data_directory_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("L0QSVM_DATA_DIR", str(tmp_path / "nowhere"))
    code = main(["reproduce", "--datasets", "glass", "--quiet", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("l0qsvm reproduce: error: ") and "does not exist" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_resume_and_settings_guard(tmp_path):
    "A second run refits nothing; more configurations add only the new draws; another seed is refused."
    kw = dict(n_folds=2, seed=3, n_jobs=1, out=tmp_path)
    first = run_protocol(["iris"], ["l0-qsvm"], n_configs=2, **kw)
    rows = len(pd.read_csv(tmp_path / "configs.csv"))
    again = run_protocol(["iris"], ["l0-qsvm"], n_configs=2, **kw)
    assert len(pd.read_csv(tmp_path / "configs.csv")) == rows == 4
    pd.testing.assert_frame_equal(first.drop(columns="fit_seconds"), again.drop(columns="fit_seconds"))
    run_protocol(["iris"], ["l0-qsvm"], n_configs=3, **kw)
    assert len(pd.read_csv(tmp_path / "configs.csv")) == 6
    with pytest.raises(ValueError, match="choose another output folder"):
        run_protocol(["iris"], ["l0-qsvm"], n_configs=2, n_folds=2, seed=4, out=tmp_path)


def test_same_results_in_memory_and_in_processes():
    "The seed fixes everything: one process and two loky workers give the same folds."
    kw = dict(n_configs=3, n_folds=2, seed=0)
    a = run_protocol(["iris"], ["qsvm", "l0-qsvm"], n_jobs=1, **kw)
    b = run_protocol(["iris"], ["qsvm", "l0-qsvm"], n_jobs=2, **kw)
    cols = ["dataset", "model", "fold", "best_config", "params", "val_accuracy", "test_accuracy", "nonzero"]
    pd.testing.assert_frame_equal(a[cols], b[cols])


def test_failed_fit_is_a_row_not_a_crash():
    "A configuration whose fit raises loses the selection and is recorded with its error."
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.dummy import DummyClassifier

    class Broken(ClassifierMixin, BaseEstimator):
        def __init__(self, C=1.0): self.C = C
        def fit(self, X, y):
            if self.C > 1: raise RuntimeError("too large")
            self.d_ = DummyClassifier().fit(X, y)
            return self
        def predict(self, X): return self.d_.predict(X)

    register_model("broken-test", ModelSpec("Broken", Broken, lambda rng, n: {"C": float(10 ** rng.uniform(-1, 1))},
                                            nonzero=lambda est: (0, 0)), replace=True)
    try:
        folds = run_protocol(["iris"], ["broken-test"], n_configs=4, n_folds=2, seed=0, n_jobs=1)
    finally:
        MODELS.pop("broken-test")
    assert all(json.loads(p)["C"] <= 1 for p in folds.params)     # the failing draws were never chosen
    assert len(folds) == 2 and (folds.error == "").all()


def test_table_writer():
    "summarize / compare_with_paper / format_table on hand-made folds: means, ddof-0 std, the paper's row, 'in std'."
    folds = pd.DataFrame(dict(dataset="iris", model=["qsvm"] * 5 + ["l0-qsvm"] * 5,
                              fold=list(range(5)) * 2, test_accuracy=[0.9, 1.0, 0.9, 1.0, 0.95] + [0.8] * 5,
                              nonzero=[45] * 5 + [10, 12, 14, 10, 14], parameters=45, fit_seconds=0.1,
                              warnings=[0] * 9 + [2], error=""))
    s = summarize(folds)
    assert s.loc[("iris", "qsvm"), "mean"] == pytest.approx(0.95)
    assert s.loc[("iris", "qsvm"), "std"] == pytest.approx(np.std([0.9, 1.0, 0.9, 1.0, 0.95]))
    assert s.loc[("iris", "l0-qsvm"), "nonzero"] == pytest.approx(12) and s.loc[("iris", "l0-qsvm"), "warnings"] == 2
    c = compare_with_paper(s, "v2")
    assert c.loc[("iris", "qsvm"), "within"] == True                                                # |0.95-0.953| <= 0.061
    assert c.loc[("iris", "l0-qsvm"), "within"] == False                                            # |0.8-0.953| > 0.034
    text = format_table(c)
    lines = text.splitlines()
    assert len(lines) == 3 and "Iris" in lines[1] and "0.950 ± 0.045" in lines[1] and "0.953 ± 0.061" in lines[1]
    assert "-0.153" in lines[2] and " no " in lines[2] and "12.0/45" in lines[2]
    v1 = compare_with_paper(s, "v1")
    assert v1.loc[("iris", "qsvm"), "paper_std"] == pytest.approx(0.0618)
    assert len(paper_table("v2").loc["Brain"]) == 4
