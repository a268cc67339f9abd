"""Data that downloads itself: `load_dataset` and `l0qsvm data` against a local HTTP server on 127.0.0.1.

The data's home (the UCI archive) cannot be reached from the machines these tests run on, so they serve the data
folder the tests use (`$L0QSVM_DATA_DIR`, by default ../shared/datasets: tests/conftest.py) through the base-URL
override `L0QSVM_DATA_URL`, each file at that URL followed by its name. The client side starts as on a new machine:
no `L0QSVM_DATA_DIR` and an empty per-user cache (`XDG_CACHE_HOME` in a temporary folder). The server can also
damage what it sends: `/bad/` changes one byte, `/short/` sends the first half of the file (with a matching
Content-Length), `/cut/` announces the whole file and closes the connection halfway, `/stall/` sends half and
waits (for Ctrl-C); `/zip/raisin.zip` is an archive laid out as UCI's (a zip in a zip holding the workbook).
"""
import functools
import hashlib
import http.server
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from l0qsvm import datasets
from l0qsvm.datasets import UCI_FILES, data_cache, fetch_dataset, fetch_datasets, load_dataset

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(os.environ["L0QSVM_DATA_DIR"])       # the data folder the server serves (conftest.py sets it)
SONAR = "sonar.all-data"


def raisin_zip(edit=lambda xlsx: xlsx):
    "raisin.zip as UCI lays it out: Raisin_Dataset.zip inside, holding Raisin_Dataset/Raisin_Dataset.xlsx."
    inner, outer = io.BytesIO(), io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("Raisin_Dataset/Raisin_Dataset.xlsx", edit((SOURCE / "Raisin_Dataset.xlsx").read_bytes()))
    with zipfile.ZipFile(outer, "w") as z: z.writestr("Raisin_Dataset.zip", inner.getvalue())
    return outer.getvalue()


class Handler(http.server.BaseHTTPRequestHandler):
    requests = []                     # "MODE/FILE" of every GET, in order
    stalled = threading.Event()       # set once a /stall/ download has sent its first half
    release = threading.Event()       # set to let stalled handlers finish

    def log_message(self, *args): pass

    def do_GET(self):
        mode, _, name = unquote(self.path).lstrip("/").partition("/")
        type(self).requests.append(f"{mode}/{name}")
        if mode == "zip": body = raisin_zip()
        elif (SOURCE / name).is_file() and "/" not in name: body = (SOURCE / name).read_bytes()
        else: return self.send_error(404)
        if mode == "bad": body = body[:100] + bytes([body[100] ^ 1]) + body[101:]
        if mode == "short": body = body[: len(body) // 2]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode in ("cut", "stall"):
            self.wfile.write(body[: len(body) // 2]); self.wfile.flush()
            if mode == "stall":
                type(self).stalled.set(); type(self).release.wait(30)
            self.close_connection = True
            return
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    Handler.release.set()
    httpd.shutdown(); httpd.server_close()


@pytest.fixture
def fresh(tmp_path, monkeypatch, server):
    "A new user's machine: no L0QSVM_DATA_DIR, an empty per-user cache; downloads come from the server's `ok/`."
    monkeypatch.delenv("L0QSVM_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/ok/")
    Handler.requests.clear()
    assert data_cache() == tmp_path / "cache" / "l0qsvm" / "datasets" and not data_cache().exists()
    return data_cache()


def files_in(folder):
    "Every file under `folder`, hidden or not (temporary files included)."
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def sha256(path): return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_first_use_downloads_verifies_and_loads_and_the_second_makes_no_request(fresh):
    sonar = load_dataset("sonar")
    assert sonar.data.shape == (208, 60) and sorted(set(sonar.target)) == ["M", "R"]
    assert Handler.requests == [f"ok/{SONAR}"]
    assert files_in(fresh) == [SONAR] and sha256(fresh / SONAR) == UCI_FILES["sonar"][1]
    again = load_dataset("sonar")
    assert Handler.requests == [f"ok/{SONAR}"]                    # no second request
    assert (again.data == sonar.data).all()


def test_a_file_name_with_a_space_is_fetched_by_its_url(fresh):
    assert load_dataset("wholesale").data.shape == (440, 6)
    assert Handler.requests == ["ok/Wholesale customers data.csv"]


@pytest.mark.parametrize("mode", ["bad", "short"])
def test_a_corrupted_or_truncated_download_is_refused_and_leaves_nothing(fresh, server, monkeypatch, mode):
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/{mode}")          # no final slash: one is added
    with pytest.raises(ValueError) as e:
        load_dataset("sonar")
    msg = str(e.value)
    assert msg.startswith(f"{SONAR}: the file downloaded from {server}/{mode}/{SONAR} is not the original")
    assert "SHA-256 differs" in msg and "nothing was saved" in msg
    assert Handler.requests == [f"{mode}/{SONAR}"] and files_in(fresh) == []


def test_an_interrupted_download_is_refused_and_leaves_nothing(fresh, server, monkeypatch):
    "The server announces the whole file and closes the connection halfway."
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/cut/")
    with pytest.raises(FileNotFoundError) as e:
        load_dataset("sonar")
    assert str(e.value).startswith(f"{SONAR} is not in the data folder") and f"{server}/cut/{SONAR}" in str(e.value)
    assert files_in(fresh) == []


def test_ctrl_c_during_a_download_leaves_nothing(fresh, server, tmp_path):
    "Ctrl-C (SIGINT) while the file arrives: the process stops and the cache holds no file, not even a partial one."
    Handler.stalled.clear()
    env = {**os.environ, "L0QSVM_DATA_URL": f"{server}/stall/"}
    proc = subprocess.Popen([sys.executable, "-c", "from l0qsvm.datasets import fetch_dataset; fetch_dataset('sonar')"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # a shell's background job ignores SIGINT, and a child inherits that: Ctrl-C's default back
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert Handler.stalled.wait(60), "the download never started"
        time.sleep(0.5)
        assert [f for f in files_in(fresh) if not f.startswith(SONAR)], "no partial file while downloading"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None: proc.kill()
    assert proc.returncode != 0 and "KeyboardInterrupt" in err
    assert files_in(fresh) == []


def test_offline_the_error_names_the_file_and_the_url(fresh, monkeypatch):
    with socket.socket() as s:                                     # a port where nothing listens
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    monkeypatch.setenv("L0QSVM_DATA_URL", f"http://127.0.0.1:{port}/")
    with pytest.raises(FileNotFoundError) as e:
        load_dataset("heart")
    msg = str(e.value)
    assert msg.startswith("heart.dat is not in the data folder") and f"http://127.0.0.1:{port}/heart.dat" in msg
    assert "L0QSVM_DATA_DIR" in msg and "L0QSVM_DATA_URL" in msg
    with pytest.raises(FileNotFoundError, match=r"it comes from http://127\.0\.0\.1:\d+/heart\.dat"):
        load_dataset("heart", download_if_missing=False)
    assert files_in(fresh) == []


def test_without_the_override_each_file_comes_from_its_home(monkeypatch):
    monkeypatch.delenv("L0QSVM_DATA_URL", raising=False)
    assert datasets.data_source("sonar") == (
        "https://archive.ics.uci.edu/ml/machine-learning-databases/undocumented/connectionist-bench/sonar/"
        "sonar.all-data", ())
    assert datasets.data_source("raisin")[0] == "https://archive.ics.uci.edu/static/public/850/raisin.zip"
    assert datasets.data_source("pima")[0].startswith("https://raw.githubusercontent.com/")


def test_the_registry_is_the_manifest():
    "The package's file names and checksums are those of the data folder's SHA256SUMS (the manifest's)."
    sums = dict(reversed(line.split(None, 1)) for line in (SOURCE / "SHA256SUMS").read_text().splitlines())
    assert {fname: sha for fname, sha, *_ in UCI_FILES.values()} == {f: sums[f] for f, *_ in UCI_FILES.values()}
    assert sorted(datasets.DATA_SOURCES) == sorted(f for f, *_ in UCI_FILES.values())


def test_raisin_from_uci_s_archive(fresh, server, monkeypatch):
    "UCI serves raisin only as a zip in a zip: unpacked by pooch, the workbook written as CSV, the CSV verified."
    monkeypatch.delenv("L0QSVM_DATA_URL")
    url, members = datasets.DATA_SOURCES["raisin.csv"]
    monkeypatch.setitem(datasets.DATA_SOURCES, "raisin.csv", (f"{server}/zip/raisin.zip", members))
    raisin = load_dataset("raisin")
    assert raisin.data.shape == (900, 7) and Handler.requests == ["zip/raisin.zip"]
    assert files_in(fresh) == ["raisin.csv"] and sha256(fresh / "raisin.csv") == UCI_FILES["raisin"][1]


def test_an_archive_whose_contents_differ_is_refused(fresh, server, monkeypatch):
    monkeypatch.delenv("L0QSVM_DATA_URL")
    monkeypatch.setitem(datasets.DATA_SOURCES, "raisin.csv",
                        (f"{server}/zip/raisin.zip", ("Raisin_Dataset.zip", "Raisin_Dataset/another.xlsx")))
    with pytest.raises(ValueError, match=r"^raisin\.csv: the file downloaded from .*/zip/raisin\.zip is not the original"):
        fetch_dataset("raisin")
    assert files_in(fresh) == []


def test_a_data_directory_gets_the_missing_files_and_keeps_its_own(fresh, tmp_path, monkeypatch):
    "With L0QSVM_DATA_DIR set, a missing file is downloaded there; a file that is there is used, never replaced."
    folder = tmp_path / "data"; folder.mkdir()
    (folder / "heart.dat").write_bytes((SOURCE / "heart.dat").read_bytes() + b"\n")     # an edited copy
    monkeypatch.setenv("L0QSVM_DATA_DIR", str(folder))
    assert fetch_dataset("glass") == folder / "glass.data" and sha256(folder / "glass.data") == UCI_FILES["glass"][1]
    status = fetch_datasets(["glass", "heart", "ionosphere"])
    assert status["glass"] == ("present", "glass.data") and status["heart"][0] == "failed"
    assert status["ionosphere"][0] == "downloaded"
    assert Handler.requests == ["ok/glass.data", "ok/ionosphere.data"]
    with pytest.raises(ValueError, match="not the original"): load_dataset("heart")
    assert files_in(fresh) == []                                   # the cache is not used


def cli(args, env, cwd):
    return subprocess.run([sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main(sys.argv[1:]))",
                           *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_l0qsvm_data_fetches_every_file_from_a_local_http_server(tmp_path):
    "`l0qsvm data` on a new machine, against `python -m http.server --bind 127.0.0.1` serving the data folder."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    log = open(tmp_path / "server.log", "w")
    httpd = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(SOURCE),
                              str(port)], stdout=log, stderr=log)
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0: break
            time.sleep(0.1)
        env = {k: v for k, v in os.environ.items() if k != "L0QSVM_DATA_DIR"}
        env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), L0QSVM_DATA_URL=f"http://127.0.0.1:{port}/")
        cache = tmp_path / "cache" / "l0qsvm" / "datasets"
        first = cli(["data"], env, tmp_path)
        assert first.returncode == 0, first.stdout + first.stderr
        assert first.stdout.splitlines()[0] == f"data folder: {cache}"
        assert first.stdout.splitlines()[-1] == "16 of 16 files ready"
        assert sum(" downloaded " in line for line in first.stdout.splitlines()) == 16
        assert files_in(cache) == sorted(f for f, *_ in UCI_FILES.values())
        assert all(sha256(cache / f) == sha for f, sha, *_ in UCI_FILES.values())
        log.flush(); n_requests = (tmp_path / "server.log").read_text().count('"GET ')
        assert n_requests == 16
        second = cli(["data"], env, tmp_path)
        assert second.returncode == 0 and sum(" present " in line for line in second.stdout.splitlines()) == 16
        log.flush(); assert (tmp_path / "server.log").read_text().count('"GET ') == n_requests     # no request
        (cache / "yeast.data").write_bytes(b"edited\n")
        third = cli(["data"], env, tmp_path)
        assert third.returncode == 1 and third.stdout.splitlines()[-1] == "15 of 16 files ready; failed: yeast"
        listed = cli(["data", "--list"], env, tmp_path)
        assert listed.returncode == 0 and f"http://127.0.0.1:{port}/sonar.all-data" in listed.stdout
    finally:
        httpd.terminate(); httpd.wait(10); log.close()
