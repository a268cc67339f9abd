"""The same protocol run on a dask.distributed cluster (joblib's dask backend) gives the in-process results."""
import pandas as pd
import pytest

from l0qsvm.experiments import parallel_backend, run_protocol

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def cluster():
    "One local cluster of 2 single-threaded worker processes for the module (starting one takes seconds)."
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


@pytest.mark.slow
def test_local_two_worker_cluster_matches_in_process(cluster, tmp_path):
    kw = dict(n_configs=3, n_folds=2, seed=0)
    datasets, models = ["iris", "wine"], ["qsvm", "l0-qsvm"]
    local = run_protocol(datasets, models, n_jobs=1, **kw)
    with parallel_backend("dask", scheduler=cluster.scheduler_address) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        dask = run_protocol(datasets, models, n_jobs=-1, out=tmp_path, **kw)
    cols = ["dataset", "model", "fold", "best_config", "params", "val_accuracy", "test_accuracy", "nonzero", "parameters"]
    pd.testing.assert_frame_equal(local[cols], dask[cols])
    assert len(pd.read_csv(tmp_path / "configs.csv")) == 2 * 2 * 2 * 3     # every validation fit written


def test_dask_command_line(cluster, tmp_path, capsys):
    "`l0qsvm reproduce --backend dask --scheduler ADDRESS` runs end to end on the cluster."
    from l0qsvm.cli import main
    code = main(["reproduce", "--datasets", "iris", "--models", "l0-qsvm", "--configs", "2", "--folds", "2",
                 "--backend", "dask", "--scheduler", cluster.scheduler_address, "--quiet", "--out", str(tmp_path)])
    assert code == 0 and "L0-QSVM" in capsys.readouterr().out
    assert len(pd.read_csv(tmp_path / "folds.csv")) == 2


def test_local_cluster_from_parallel_backend():
    "Without an address, parallel_backend('dask') starts (and stops) a local cluster of the requested size."
    with parallel_backend("dask", n_workers=1) as client:
        assert len(client.scheduler_info()["workers"]) == 1
