"""Hostile use, round two (issue 24): each test below failed before the fix; the issue says what each case gave.

Items covered here: 1 (result files that survive a kill at any byte), 5 (colliding term names), 6 (`--jobs`),
7 (one-line command-line errors), 8 (overflow, the estimators' part), 10 (validation gaps) and 12 (symbolic links).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV
from sklearn.preprocessing import StandardScaler

from l0qsvm import KLR, L0QSVM, L0QSVMCV, L1QSVM, L1QSVMCV, QSVM, SparseKLR
from l0qsvm.cli import main
from l0qsvm.features import term_scale
from l0qsvm.experiments import RESULT_COLUMNS, ResultFileWarning, run_protocol

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_STD = StandardScaler().fit_transform(X_IRIS)
RUN = dict(datasets=["iris"], models=["qsvm"], n_configs=3, n_folds=2, seed=0, n_jobs=1)
TIMINGS = ["seconds", "fit_seconds", "checksum"]          # what differs between two runs of the same protocol


def run(out):
    return run_protocol(RUN["datasets"], RUN["models"], n_configs=RUN["n_configs"], n_folds=RUN["n_folds"],
                        seed=RUN["seed"], n_jobs=RUN["n_jobs"], out=out)


def table(path, keys):
    "A result file without its timings and checksums, sorted by its keys."
    return pd.read_csv(path).drop(columns=TIMINGS, errors="ignore").sort_values(keys, ignore_index=True)


FOLD_KEYS, CONFIG_KEYS = ["dataset", "model", "fold"], ["dataset", "model", "fold", "config"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    "An uninterrupted run: its folder, its configs.csv and folds.csv as bytes."
    out = tmp_path_factory.mktemp("whole")
    run(out)
    return out, (out / "configs.csv").read_bytes(), (out / "folds.csv").read_bytes()


def resume_after_cut(whole, name, offset):
    "Copy the whole run, cut `name` at `offset` (the other file as a crash at that moment leaves it), resume."
    out_whole, configs, folds = whole
    data = {"configs.csv": configs, "folds.csv": folds}[name]
    tmp = Path(tempfile.mkdtemp(prefix="h24-cut-"))
    try:
        shutil.copy(out_whole / "run.json", tmp / "run.json")
        (tmp / name).write_bytes(data[:offset])
        if name == "folds.csv": (tmp / "configs.csv").write_bytes(configs)    # the refits run after every validation fit
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run(tmp)
        messages = [str(w.message) for w in caught if issubclass(w.category, ResultFileWarning)]
        return table(tmp / "folds.csv", FOLD_KEYS), table(tmp / "configs.csv", CONFIG_KEYS), messages
    finally:
        shutil.rmtree(tmp)


def cut_mid_line(data, offset):
    "Whether a cut at `offset` loses part of a line (a cut right after a newline, or of the newline alone, loses none)."
    return not (offset == 0 or offset == len(data) or data[offset - 1:offset] == b"\n" or data[offset:offset + 1] == b"\n")


def check_cut(whole, name, offset):
    out_whole, configs, folds = whole
    data = {"configs.csv": configs, "folds.csv": folds}[name]
    got_folds, got_configs, messages = resume_after_cut(whole, name, offset)
    pd.testing.assert_frame_equal(got_folds, table(out_whole / "folds.csv", FOLD_KEYS))
    pd.testing.assert_frame_equal(got_configs, table(out_whole / "configs.csv", CONFIG_KEYS))
    if cut_mid_line(data, offset):
        line = data[:offset].count(b"\n") + 1
        assert len(messages) == 1 and messages[0].startswith(f"{tempfile.gettempdir()}") and f"{name}: 1 " in messages[0]
        assert f"line(s) {line})" in messages[0], messages
    else:
        assert messages == []


# 1. A row cut by a crash was kept (a truncated val_accuracy changed the chosen configuration) or glued to the next.
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                 HealthCheck.function_scoped_fixture])
@given(fraction=st.floats(0, 1))
def test_configs_cut_at_any_byte_resumes_to_the_same_folds(whole, fraction):
    check_cut(whole, "configs.csv", int(round(fraction * len(whole[1]))))


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                 HealthCheck.function_scoped_fixture])
@given(fraction=st.floats(0, 1))
def test_folds_cut_at_any_byte_resumes_to_the_same_folds(whole, fraction):
    check_cut(whole, "folds.csv", int(round(fraction * len(whole[2]))))


def test_every_cut_inside_one_row_is_caught(whole):
    "Every byte of the last row of configs.csv, the one a kill cuts (the quoted params and the checksum included)."
    configs = whole[1]
    start = configs.rstrip(b"\n").rindex(b"\n") + 1
    for offset in range(start, len(configs) + 1, 3):
        check_cut(whole, "configs.csv", offset)


def legacy(rows, columns):
    "Rows as the writer before checksums wrote them (pandas, no checksum cell)."
    return pd.DataFrame(rows, columns=list(columns)).to_csv(index=False).encode()


def test_files_written_before_checksums_are_read_safely(whole, tmp_path):
    "The old format: a cut row glued to the next ('Expected 9 fields'), and a last row cut inside val_accuracy."
    out_whole = whole[0]
    rows = pd.read_csv(out_whole / "configs.csv", keep_default_na=False).drop(columns="checksum")
    text = legacy(rows.to_dict("records"), RESULT_COLUMNS["configs"])
    lines = text.split(b"\n")
    glued = b"\n".join(lines[:2] + [lines[2][:25] + lines[3]] + lines[4:])          # row 2 cut, row 3 appended to it
    for name, data, line in [("glued", glued, 3), ("last cut", text.rstrip(b"\n")[:-12], len(lines) - 1)]:
        out = tmp_path / name.replace(" ", "-")
        out.mkdir()
        shutil.copy(out_whole / "run.json", out / "run.json")
        (out / "configs.csv").write_bytes(data)
        with pytest.warns(ResultFileWarning, match=rf"configs.csv: .* \(line\(s\) {line}"):
            run(out)
        pd.testing.assert_frame_equal(table(out / "folds.csv", FOLD_KEYS), table(out_whole / "folds.csv", FOLD_KEYS))
        assert (out / "configs.csv").read_text().splitlines()[0].endswith(",checksum")        # rewritten with checksums


def test_a_cut_inside_the_quoted_params_names_the_file(whole, tmp_path):
    configs = whole[1]
    cut = configs.index(b'"{""C"": ', configs.index(b"\n") + 1) + 7                     # inside the first row's params
    shutil.copy(whole[0] / "run.json", tmp_path / "run.json")
    (tmp_path / "configs.csv").write_bytes(configs[:cut])
    with pytest.warns(ResultFileWarning, match=r"configs.csv: 1 incomplete or damaged row\(s\) left out \(line\(s\) 2\)"):
        run(tmp_path)


# 5. Columns `a` and `a²` gave two terms named `a²`: active_terms() showed 4 of 5 non-zero terms, equation() dropped one.
@pytest.mark.parametrize("columns", [["a", "a²"], ["a", "b", "a·b"]])
def test_colliding_feature_names_lose_no_term(columns):
    frame = pd.DataFrame(X_STD[:, :len(columns)], columns=columns)
    est = QSVM(C=10).fit(frame, Y_IRIS == 0)
    nonzero = int(np.count_nonzero(est.z_[0]))
    assert len(set(est.term_names_)) == len(est.term_names_)
    terms = est.active_terms(rtol=0)
    assert len(terms) == nonzero == len(est.z_[0])                                        # every term, once
    np.testing.assert_allclose(list(terms.values()), term_scale(len(columns)) * est.z_[0], rtol=1e-15)
    parts = re.split(" [+−] ", est.equation(rtol=0, precision=17).removeprefix("f(x) = "))
    assert [part.split("·", 1)[1] for part in parts[:nonzero]] == est.term_names_          # each term in the equation


# 6. `--jobs 1000` on a 2-task run started 157 workers (3.9 GB) and ran no task. No test below may start more than 2
#    workers even if the bound breaks: `at_most_two_workers` refuses a larger joblib.Parallel before it starts any.
@pytest.fixture(autouse=True)
def at_most_two_workers(monkeypatch):
    import joblib
    real = joblib.Parallel
    class Guarded(real):
        def __init__(self, n_jobs=None, **kw):
            n = joblib.effective_n_jobs(n_jobs)
            if n > 2: raise AssertionError(f"a test asked joblib for {n} workers (at most 2 here)")
            super().__init__(n_jobs=n_jobs, **kw)
    monkeypatch.setattr(joblib, "Parallel", Guarded)


@pytest.mark.skipif(__import__("joblib").cpu_count() >= 1000, reason="a machine with 1000 CPUs")
def test_jobs_is_bounded_by_the_cpus(tmp_path, capsys, monkeypatch):
    import joblib
    import l0qsvm.experiments as ex
    def no_run(*a, **kw): raise AssertionError("the run started")
    monkeypatch.setattr(ex, "run_protocol", no_run)                                      # refused before any work
    code = main(["reproduce", "--quick", "--quiet", "--jobs", "1000", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err == (f"l0qsvm reproduce: error: --jobs 1000: this machine has {joblib.cpu_count()} CPU(s); "
                                 f"use 1 to {joblib.cpu_count()}, or -1 for all of them\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("backend", ["loky", "threading", "sequential"])
def test_worker_count_is_at_most_the_tasks_and_the_cpus(backend):
    import joblib
    from l0qsvm.experiments import worker_count
    cpus = 1 if backend == "sequential" else joblib.cpu_count()
    with joblib.parallel_config(backend=backend), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [worker_count(1000, 2), worker_count(-1, 10**6), worker_count(None, 10**6), worker_count(1000, 10**6),
               worker_count(10**9, 10**9)]
    assert got == [min(2, cpus), cpus, 1, cpus, cpus]                       # n_jobs=None: the backend's default, 1
    messages = [str(w.message) for w in caught]
    expected = [f"n_jobs={n}: this machine has {cpus} CPU(s); starting {cpus} workers" for n in (1000, 10**9)]
    if backend == "sequential": assert messages == []
    else: assert [m.split(", not")[0] for m in messages[-2:]] == expected     # the two asks beyond the CPUs


def test_run_protocol_starts_no_more_workers_than_tasks(monkeypatch):
    "The workers run_protocol asks joblib for (recorded; the fits themselves run in this process)."
    import joblib
    asked = []
    class Recording(joblib.Parallel):
        def __init__(self, n_jobs=None, **kw):
            asked.append(n_jobs); super().__init__(n_jobs=1, **kw)
    monkeypatch.setattr(joblib, "Parallel", Recording)
    run_protocol(["iris"], ["qsvm"], n_configs=1, n_folds=2, seed=0, n_jobs=1000)
    assert asked == [min(2, joblib.cpu_count())] * 2                                      # 2 validation fits, then 2 refits


# 7. Raw tracebacks or unnamed files from the command line.
def one_line_error(argv, capsys, code=2):
    got = main(argv)
    err = capsys.readouterr().err
    assert got == code, err
    assert err.count("\n") == 1 and err.startswith("l0qsvm reproduce: error: ") and "Traceback" not in err, err
    return err


def reproduce(out, *more): return ["reproduce", "--quick", "--quiet", "--jobs", "1", "--configs", "1", "--folds", "2",
                                   "--models", "qsvm", "--out", str(out), *more]


def test_out_that_is_a_file_or_below_a_file(tmp_path, capsys):
    f = tmp_path / "results.txt"; f.write_text("not a folder")
    assert f"{f} is a file, not a folder" in one_line_error(reproduce(f), capsys)
    assert f"{f / 'run'}: {f} is a file, not a folder" in one_line_error(reproduce(f / "run"), capsys)


def as_nobody(argv):
    """Run the command in a child process as the user nobody (root may write in any folder): (exit code, stderr).
    The child imports the package as root, then gives up root (nobody may not be able to read the environment, as
    in CI, where the virtual environment sits in a private temporary folder), then runs the command."""
    child = ("import os, sys; import l0qsvm.experiments; from l0qsvm.cli import main; "
             "os.setgroups([]); os.setgid(65534); os.setuid(65534); sys.exit(main(sys.argv[1:]))")
    p = subprocess.run([sys.executable, "-c", child, *argv], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "HOME": tempfile.gettempdir()})
    return p.returncode, p.stderr


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("mode, below, message", [
    (0o555, False, "{out}: cannot write in this output folder (Permission denied)"),
    (0o000, True, "{out}: cannot use this output folder (Permission denied: {out})")])
def test_out_read_only_or_forbidden(capsys, mode, below, message):
    base = Path(tempfile.mkdtemp(prefix="h24-perm-")); base.chmod(0o755)              # others may enter `base`
    d = base / "locked"; d.mkdir(); d.chmod(mode)
    out = d / "run" if below else d
    try:
        if os.geteuid() != 0: err = one_line_error(reproduce(out), capsys)
        else:
            code, err = as_nobody(reproduce(out))
            assert code == 2 and err.count("\n") == 1 and err.startswith("l0qsvm reproduce: error: "), err
    finally:
        d.chmod(0o700); shutil.rmtree(base)
    assert message.format(out=out) in err, err
    assert not (d / "run").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /proc and /sys")
@pytest.mark.parametrize("out, reason", [("/proc/self", "cannot write in this output folder"),
                                         ("/sys/l0qsvm-h24", "cannot write in this output folder")])
def test_out_where_nobody_may_write(capsys, out, reason):
    "Even root cannot write in /proc/self (a read-only folder) or create a folder in /sys (forbidden)."
    err = one_line_error(reproduce(out), capsys)
    assert f"{out}: {reason}" in err


def test_unreachable_dask_scheduler_fails_fast(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    t0 = time.perf_counter()
    err = one_line_error(reproduce(tmp_path, "--backend", "dask", "--scheduler", "127.0.0.1:1"), capsys)
    assert time.perf_counter() - t0 < 10 and "--scheduler 127.0.0.1:1: no dask scheduler answers" in err


@pytest.mark.parametrize("name, content, message", [
    ("configs.csv", b"a,b,c\n1,2,3\n", "configs.csv is not a result file of l0qsvm's experiments: its first line is 'a,b,c'"),
    ("configs.csv", bytes(range(256)) * 8, "configs.csv is not a result file"),
    ("run.json", b'{"seed": 0, "n_fo', "run.json is damaged"),
    ("run.json", b"[1, 2]", "holds a run with [1, 2]"),
])
def test_unrelated_or_corrupt_files_are_named(tmp_path, capsys, name, content, message):
    if name != "run.json": (tmp_path / "run.json").write_text(json.dumps(dict(seed=0, n_folds=2)))
    (tmp_path / name).write_bytes(content)
    assert message in one_line_error(reproduce(tmp_path), capsys)


def test_result_files_without_run_json_are_refused(tmp_path, capsys):
    (tmp_path / "folds.csv").write_text("dataset\n")
    assert "holds result files but no run.json" in one_line_error(reproduce(tmp_path), capsys)


def test_a_full_disk_names_the_file_and_the_next_run_recovers(whole, tmp_path, capsys, monkeypatch):
    "The disk fills in the middle of a row (a short write, then ENOSPC): one line naming configs.csv; the rerun repairs."
    import errno
    import l0qsvm.experiments as ex
    calls = []
    class FullDisk:
        def __getattr__(self, name): return getattr(os, name)
        def write(self, fd, data):
            calls.append(len(data))
            if len(calls) == 4: return os.write(fd, data[:len(data) // 2])             # the 4th row: half of it fits
            if len(calls) > 4: raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return os.write(fd, data)
    out = tmp_path / "run"
    monkeypatch.setattr(ex, "os", FullDisk())
    err = one_line_error(reproduce(out, "--datasets", "iris", "--configs", "3"), capsys)
    monkeypatch.undo()
    assert err == f"l0qsvm reproduce: error: {out / 'configs.csv'}: No space left on device\n"
    with pytest.warns(ResultFileWarning, match=r"configs.csv: 1 incomplete or damaged row\(s\) left out \(line\(s\) 5\)"):
        run(out)
    pd.testing.assert_frame_equal(table(out / "folds.csv", FOLD_KEYS), table(whole[0] / "folds.csv", FOLD_KEYS))


def test_demo_with_an_extreme_C_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["demo", "--C", "1e308", "--quiet"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "argument --C: 1e308 is not a finite number in (0, 10000]" in err and "Traceback" not in err


def test_an_unexpected_failure_is_one_line_too(capsys, monkeypatch):
    import l0qsvm.cli as cli
    def broken(**kw): raise np.linalg.LinAlgError("Eigenvalues did not converge")
    monkeypatch.setattr(cli, "demo_report", broken)
    assert main(["demo", "--quiet"]) == 2
    assert capsys.readouterr().err == "l0qsvm demo: error: LinAlgError: Eigenvalues did not converge\n"


def test_ctrl_c_is_one_line_and_leaks_nothing(tmp_path):
    "SIGINT to the whole process group (as a terminal's Ctrl-C) while two loky workers fit."
    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main())", "reproduce",
           "--datasets", "glass", "--models", "l0-qsvm", "--jobs", "2", "--quiet", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        t0 = time.time()
        while time.time() - t0 < 120 and not ((out / "configs.csv").exists() and
                                              (out / "configs.csv").read_bytes().count(b"\n") > 3):
            time.sleep(0.2)
        assert p.poll() is None, p.communicate()
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None: os.killpg(p.pid, signal.SIGKILL)
    err = err.decode()                    # its end: loky's resource tracker (which holds stderr too) has exited
    assert p.returncode == 130, err
    line = f"l0qsvm reproduce: interrupted; the finished fits are in {out}; the same command resumes the run\n"
    assert err.startswith(line), err
    assert only_already_removed(err[len(line):]), err
    if Path("/dev/shm").is_dir():         # Linux: the run's named semaphores are files there; none is left behind
        assert not list(Path("/dev/shm").glob(f"sem.loky-{p.pid}-*"))


# The one exception to "one line": a race inside loky at interpreter exit (seen once in CI; here in 3 of 110 runs
# interrupted while the workers started, in none of 37 interrupted later). The process pool's queue thread drops the
# last reference to a semaphore while Python shuts down: the semaphore is removed, but the message that tells loky's
# resource tracker so is lost, and the tracker reports it as leaked, then finds it gone. Nothing leaked then; anything
# else after the line fails (a "leaked" without "already gone", another warning, a traceback).
TRACKER = r"\S*resource_tracker\.py:\d+: UserWarning: resource_tracker: "

def only_already_removed(tail:str)->bool:
    "Is `tail` empty, or loky's resource tracker reporting semaphores as leaked, then finding each of them already gone?"
    if not tail: return True
    head = re.match(TRACKER + r"There appear to be (\d+) leaked semlock objects to clean up at shutdown: (\{.*\})\n"
                    r"  warnings\.warn\(\n", tail)
    if not head: return False
    names = re.findall(r"'(/loky-\d+-\w+)': 1", head[2])
    if len(names) != int(head[1]) or head[2] != "{" + ", ".join(f"'{n}': 1" for n in names) + "}": return False
    gone = "".join(TRACKER + re.escape(n) + r": FileNotFoundError\(2, 'No such file or directory'\)\n"
                   r"  warnings\.warn\('resource_tracker: %s: %r' % \(name, e\)\)\n" for n in names)
    return re.fullmatch(gone, tail[head.end():]) is not None


# 8. Overflow: NaN coefficients from QSVM(C=10).fit(X * 1e100, y); "Eigenvalues did not converge" at x1e160; SparseKLR
#    said "gamma must be > 0" although the user passed 'scale'.
@pytest.mark.parametrize("make", [lambda: QSVM(C=10), L1QSVM, lambda: L0QSVM(k=3, C=10),
                                  lambda: L0QSVMCV(ks=[2], Cs=[1.0], cv=2), lambda: L1QSVMCV(lams=[1.0], Cs=[1.0], cv=2)])
@pytest.mark.parametrize("scale", [1e76, 1e100, 1e160])
def test_features_too_large_for_a_quadratic_surface_are_refused(make, scale):
    with pytest.raises(ValueError, match="too large for a quadratic surface.*Standardise the features"):
        make().fit(X_IRIS * scale, Y_IRIS)


@pytest.mark.parametrize("make", [lambda: QSVM(C=10), L1QSVM, lambda: L0QSVM(k=3, C=10)])
def test_below_the_limit_fits_are_finite(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = make().fit(X_IRIS * 1e73, Y_IRIS)                        # L0QSVM gave NaN coefficients from 1e76 on
    assert np.isfinite(est.z_).all() and np.isfinite(est.c_).all() and est.score(X_IRIS * 1e73, Y_IRIS) > 0.9


@pytest.mark.parametrize("make, scale, message", [
    (SparseKLR, 1e160, r"gamma='scale' is 1/\(n·Var X\), and Var X overflowed float64.*Standardise"),
    (KLR, 1e155, r"Var X overflowed float64"),
    (lambda: SparseKLR(gamma=1.0), 1e160, r"rbf kernel overflows float64.*Standardise"),
    (lambda: SparseKLR(kernel="poly", gamma=1.0), 1e60, r"poly kernel overflows float64"),
    (lambda: KLR(kernel="linear", gamma=1.0), 1e160, r"linear kernel overflows float64"),
])
def test_kernel_overflow_is_named(make, scale, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=message) as e:
            make().fit(X_IRIS * scale, Y_IRIS)
    assert "gamma must be > 0" not in str(e.value)


# 10. Validation gaps.
def test_poly_kernel_of_degree_0_is_refused_up_front():
    with pytest.raises(ValueError, match=r"'degree' parameter of SparseKLR must be an int in the range \[1, inf\)"):
        SparseKLR(kernel="poly", degree=0).fit(X_STD, Y_IRIS)


@pytest.mark.parametrize("make, name", [(lambda: L0QSVMCV(ks=[True, 2]), "ks"), (lambda: L0QSVMCV(Cs=[True, 10.0]), "Cs"),
                                        (lambda: L1QSVMCV(lams=[False, 1.0]), "lams")])
def test_booleans_in_a_grid_are_refused(make, name):
    with pytest.raises(ValueError, match=f"{name} must hold numbers, not booleans"):
        make().fit(X_STD, Y_IRIS)


def test_nan_scores_warn_as_gridsearchcv_does():
    nan_scorer = lambda est, X, y: float("nan")
    with pytest.warns(UserWarning, match="One or more of the test scores are non-finite") as record:
        cv = L0QSVMCV(ks=[1, 2], Cs=[1.0], cv=2, scoring=nan_scorer).fit(X_STD, Y_IRIS)
    gs = GridSearchCV(L0QSVM(), {"C": [1.0], "k": [1, 2]}, cv=2, scoring=nan_scorer)
    with pytest.warns(UserWarning, match="One or more of the test scores are non-finite") as gs_record:
        gs.fit(X_STD, Y_IRIS)
    assert cv.best_index_ == gs.best_index_ == 0
    ours = [str(w.message) for w in record if "non-finite" in str(w.message)]
    theirs = [str(w.message) for w in gs_record if "non-finite" in str(w.message)]
    assert ours == theirs


@pytest.mark.parametrize("precision", [-1, 0, 2.5, True])
def test_equation_precision_is_checked(precision):
    est = QSVM().fit(X_STD, Y_IRIS == 0)
    with pytest.raises(ValueError, match=r"precision must be an int >= 1 \(significant digits\)"):
        est.equation(precision=precision)


# 12. A configs.csv that was a symbolic link got rows appended to its target outside --out.
@pytest.mark.parametrize("name", ["configs.csv", "folds.csv", "run.json", "summary-v2.csv"])
def test_symbolic_links_among_the_result_files_are_refused(tmp_path, capsys, name):
    target = tmp_path / "elsewhere.txt"; target.write_text("someone else's file\n")
    out = tmp_path / "out"; out.mkdir()
    (out / name).symlink_to(target)
    err = one_line_error(reproduce(out), capsys)
    assert f"{out / name} is a symbolic link (to {target})" in err
    assert target.read_text() == "someone else's file\n"
    assert not (out / "configs.csv").exists() or (out / "configs.csv").is_symlink()          # no work was done


def test_a_hard_linked_result_file_is_refused(whole, tmp_path, capsys):
    "A configs.csv with another name elsewhere (a backup made with hard links): appending would change the backup."
    out = tmp_path / "out"; out.mkdir()
    shutil.copy(whole[0] / "run.json", out / "run.json")
    backup = tmp_path / "backup.csv"; backup.write_bytes(whole[1][:whole[1].index(b"\n") + 1])    # the header only
    os.link(backup, out / "configs.csv")
    err = one_line_error(reproduce(out, "--datasets", "iris", "--configs", "3"), capsys)
    assert f"{out / 'configs.csv'} has 2 hard links" in err
    assert backup.read_bytes() == whole[1][:whole[1].index(b"\n") + 1]
