"""A run of `l0qsvm reproduce` and its result folder: SIGTERM, refused runs, repeated names, two runs on one folder.

Each test failed before the change it covers: SIGTERM killed the command at once and left its loky workers and
resource trackers running (orphans, still there minutes later); a run refused before its first fit left `run.json`,
which then refused the next run in that folder; `--datasets iris iris` (or `--models qsvm qsvm`) fitted and wrote
every row twice; two runs on one `--out` both wrote every row, and the next resume said the repeated rows' fits
"run again" while none was run.
"""
import argparse
import io
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pandas as pd
import psutil
import pytest

from l0qsvm.cli import main, run_command
from l0qsvm.experiments import ResultFileWarning, ResultStore, run_protocol
from l0qsvm.sklr_comparison import run_comparison
from test_hostile2 import only_already_removed

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--datasets", "iris", "--models", "qsvm", "--configs", "2", "--folds", "2", "--jobs", "1", "--quiet"]
KEYS = ["dataset", "model", "fold", "config"]


def reproduce(out, *args):
    return main(["reproduce", *args, "--out", str(out)])


# 6. SIGTERM: the clean-up of Ctrl-C, exit code 143, and no process of the run left behind.
def _group(pgid):
    "The live processes of a process group (zombies aside)."
    alive = []
    for p in psutil.process_iter(["pid", "status"]):
        try:
            if os.getpgid(p.pid) == pgid and p.info["status"] != psutil.STATUS_ZOMBIE: alive.append(p)
        except (ProcessLookupError, psutil.NoSuchProcess): pass
    return alive


@pytest.mark.slow                                   # about 25 s here: the workers' start dominates
@pytest.mark.parametrize("target", ["process", "group"])
def test_sigterm_is_one_line_exit_143_and_leaves_no_process(tmp_path, target):
    "SIGTERM to the command alone (`kill PID`) or to its whole process group, while two loky workers fit."
    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main())", "reproduce",
           "--datasets", "glass", "--models", "l0-qsvm", "--jobs", "2", "--quiet", "--out", str(out)]
    with open(tmp_path / "stderr", "w+b") as err_file:    # a file, not a pipe: an orphan would hold a pipe open
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err_file, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            t0 = time.time()
            while time.time() - t0 < 180 and not ((out / "configs.csv").exists() and
                                                  (out / "configs.csv").read_bytes().count(b"\n") > 3):
                time.sleep(0.2)
            assert p.poll() is None, (tmp_path / "stderr").read_text()
            children = psutil.Process(p.pid).children(recursive=True)
            assert len(children) >= 2                    # the workers (and loky's resource trackers)
            if target == "process": os.kill(p.pid, signal.SIGTERM)
            else: os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=60)
            deadline = time.time() + 5
            while time.time() < deadline and _group(p.pid): time.sleep(0.1)
            left = [(q.pid, " ".join(q.cmdline())[-80:]) for q in _group(p.pid)]
        finally:
            for q in _group(p.pid): q.kill()             # what the command left: killed here, after the assertions' data
            if p.poll() is None: p.kill()
    err = (tmp_path / "stderr").read_text()
    assert left == [], err
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE], err
    assert p.returncode == 143, err
    line = f"l0qsvm reproduce: terminated; the finished fits are in {out}; the same command resumes the run\n"
    assert err.startswith(line), err
    assert only_already_removed(err[len(line):]), err
    assert not (out / "run.lock").exists()


def test_sigterm_handler_is_the_commands_only(capsys):
    "While a command runs, SIGTERM interrupts it as Ctrl-C does; before and after, SIGTERM's handler is the one it was."
    received = []
    def before(signum, frame): received.append(signum)
    def terminated(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(3)                                   # the command's handler interrupts this at once
        return 0
    previous = signal.signal(signal.SIGTERM, before)
    try:
        t0 = time.time()
        code = run_command(argparse.Namespace(func=terminated), "l0qsvm test")
        seconds = time.time() - t0
        assert signal.getsignal(signal.SIGTERM) is before
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert (code, capsys.readouterr().err, received) == (143, "l0qsvm test: terminated\n", [])
    assert seconds < 2


# 8a. A run refused before its first fit leaves no run.json, so the next run in that folder is not refused.
def test_refused_run_leaves_no_run_json(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["--datasets", "iris", "--models", "qsvm", "--configs", "2", "--folds", "60", "--jobs", "1", "--quiet"]
    assert reproduce(out, *args) == 2                     # 60 folds: iris has 50 samples per class
    assert "n_splits=60 cannot be greater" in capsys.readouterr().err
    assert not (out / "run.json").exists()
    assert reproduce(out, *SMALL) == 0, capsys.readouterr().err
    assert (out / "run.json").exists()


def test_refused_comparison_leaves_no_run_json(tmp_path, capsys):
    "The same for `--paper sklr` (its own protocol, the same result folder rules)."
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        reproduce(out, "--paper", "sklr", "--datasets", "iris", "--models", "klr", "--folds", "60", "--quick",
                  "--jobs", "1", "--quiet")
    assert e.value.code == 2
    assert not (out / "run.json").exists()


# 8b. A name given twice is run once.
def test_repeated_datasets_and_models_run_once(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["--datasets", "iris", "iris", "--models", "qsvm", "qsvm"] + SMALL[4:]
    assert reproduce(out, *args) == 0
    text = capsys.readouterr().out
    configs, folds = pd.read_csv(out / "configs.csv"), pd.read_csv(out / "folds.csv")
    assert len(configs) == 4 and not configs.duplicated(KEYS).any()       # 2 folds x 2 configurations
    assert len(folds) == 2 and not folds.duplicated(KEYS[:3]).any()
    assert "2 folds in" in text and text.count("Iris ") == 1


def test_repeated_names_run_once_in_run_protocol(tmp_path):
    folds = run_protocol(["iris", "iris"], ["qsvm", "qsvm"], n_configs=2, n_folds=2, n_jobs=1, out=tmp_path)
    assert len(folds) == 2 and len(pd.read_csv(tmp_path / "configs.csv")) == 4


def test_repeated_names_run_once_in_run_comparison(tmp_path):
    folds = run_comparison(["iris", "iris"], ["klr", "klr"], n_folds=2, quick=True, n_jobs=1, out=tmp_path)
    assert len(folds) == 2 and len(pd.read_csv(tmp_path / "sklr-folds.csv")) == 2


# 8c. One run at a time writes to a folder; a second is refused, naming the first one's process.
def test_second_store_on_a_folder_is_refused(tmp_path):
    first = ResultStore(tmp_path, seed=0, n_folds=2)
    with pytest.raises(ValueError, match=re.escape(f"another run is writing to {tmp_path} (pid {os.getpid()})")):
        ResultStore(tmp_path, seed=0, n_folds=2)
    first.close()
    assert not (tmp_path / "run.lock").exists()
    ResultStore(tmp_path, seed=0, n_folds=2).close()        # free again once the first is closed


def test_concurrent_run_is_refused_and_writes_nothing(tmp_path):
    "A second `l0qsvm reproduce` on the folder of a run in progress (another process) is refused at once."
    out = tmp_path / "run"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from l0qsvm.experiments import ResultStore; "
                               f"s = ResultStore({str(out)!r}, seed=0, n_folds=2); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline() == b"held\n"
        second = subprocess.run([sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main())",
                                 "reproduce", *SMALL, "--out", str(out)], capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    finally:
        holder.kill(); holder.wait()
    assert second.returncode == 2, second.stderr
    assert second.stderr == (f"l0qsvm reproduce: error: another run is writing to {out} (pid {holder.pid}); wait for it "
                             "to finish, or choose another output folder\n")
    assert sorted(p.name for p in out.iterdir()) == ["run.lock"]       # the holder's lock, left by its kill; no rows
    assert reproduce(out, *SMALL) == 0                       # a lock file without its process holds nothing


# 8c. The resume message says what happens: repeated rows are dropped (nothing runs again), damaged rows run again.
def test_resume_message_tells_what_runs_again(tmp_path):
    out = tmp_path / "run"
    run = dict(n_configs=3, n_folds=2, seed=0, n_jobs=1, out=out)
    run_protocol(["iris"], ["qsvm"], **run)
    whole = (out / "configs.csv").read_bytes()
    header, *rows = whole.splitlines(keepends=True)
    # what two runs writing to one folder left: every row twice, the header again in the middle; and one row damaged
    damaged = rows[1].replace(b"iris", b"irjs", 1)
    again = rows[:1] + rows[2:]
    (out / "configs.csv").write_bytes(header + rows[0] + damaged + b"".join(rows[2:]) + header + b"".join(again))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_protocol(["iris"], ["qsvm"], **run)
    messages = [str(w.message) for w in caught if issubclass(w.category, ResultFileWarning)]
    n = len(rows)
    assert len(messages) == 2, messages
    assert messages[0].endswith("configs.csv: 1 incomplete or damaged row(s) left out (line(s) 3); their fits run again")
    repeated = ", ".join(map(str, range(n + 2, 2 * n + 2)))
    assert messages[1].endswith(f"configs.csv: {n} repeated line(s) left out (line(s) {repeated}): a header or a "
                                "row already read, so nothing is lost and nothing runs again"), messages[1]
    configs = pd.read_csv(out / "configs.csv")
    assert len(configs) == n and not configs.duplicated(KEYS).any()
    # the damaged row's fit, and only it, was run again: appended after the rewritten rows
    assert list(configs.iloc[-1][KEYS]) == list(pd.read_csv(io.BytesIO(whole)).iloc[1][KEYS])
    assert (out / "configs.csv").read_bytes().startswith(header + rows[0] + b"".join(rows[2:]))
