"""Downloads that fail say why, and none hangs: the data folder's failures against a local HTTP server on 127.0.0.1.

Each test names what was wrong and what the message must say: a host that does not resolve or refuses the connection
(the host and the OS error, never "cannot write"), a URL scheme the downloader does not speak (refused before any
connection, never "not the original"), a mirror that stalls or trickles (stopped at the time limit), a mirror that
sends more than the file has (stopped at the file's size), a device, a fifo or a folder in place of a data file (refused
before it is opened), and a data folder that is a file. Only loopback: the server below, a port where nothing listens,
and the reserved name `nonexistent.invalid` (RFC 6761: it never resolves, and fails at once without a network).
Patterns (the server, `files_in`, the `l0qsvm data` call) as in tests/test_datasets_download.py.
"""
import errno
import http.server
import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from l0qsvm import datasets
from l0qsvm.datasets import UCI_FILES, fetch_dataset, fetch_datasets, get_data_dir, load_dataset

SOURCE = Path(os.environ["L0QSVM_DATA_DIR"])       # the data folder the server serves (conftest.py sets it)
HOLD = 8.0                                         # seconds a stalling or trickling answer lasts at most
ENDLESS = 32 << 20                                 # bytes an endless answer sends at most


def files_in(folder):
    "Every file under `folder`, hidden or not (temporary files included)."
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


class Mirror(http.server.BaseHTTPRequestHandler):
    """`/ok/F` serves the data folder's file F; `/stall/F` announces F, sends 100 bytes and waits; `/trickle/F` sends F a
    byte at a time, 50 a second; `/endless/F` sends bytes without end (no Content-Length); `/huge/F` announces 10 GB
    and sends without end; `/missing/F` answers 404. Stalling, trickling and endless answers end after HOLD seconds or
    ENDLESS bytes, so that a client that never stops on its own still gets an answer."""
    requests = []
    done = threading.Event()                       # set at the end of the module: every answer ends

    def log_message(self, *args): pass

    def do_GET(self):
        mode, _, name = unquote(self.path).lstrip("/").partition("/")
        type(self).requests.append(f"{mode}/{name}")
        body = (SOURCE / name).read_bytes() if "/" not in name and (SOURCE / name).is_file() else b"x" * 1000
        if mode == "missing": return self.send_error(404)
        self.send_response(200)
        if mode == "huge": self.send_header("Content-Length", str(10 ** 10))
        elif mode != "endless": self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.close_connection = True
        t0 = time.monotonic()
        try:
            if mode == "ok": self.wfile.write(body)
            elif mode == "stall":
                self.wfile.write(body[:100]); self.wfile.flush()
                type(self).done.wait(HOLD)
            elif mode == "trickle":
                for i in range(len(body)):
                    if type(self).done.is_set() or time.monotonic() - t0 > HOLD: break
                    self.wfile.write(body[i:i + 1]); self.wfile.flush(); time.sleep(0.02)
            elif mode in ("endless", "huge"):
                sent, piece = 0, (body * (1 + (1 << 16) // len(body)))[: 1 << 16]
                while sent < ENDLESS and not type(self).done.is_set():
                    self.wfile.write(piece); sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass                                   # the client stopped reading: what the limits are for


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mirror)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    Mirror.done.set()
    httpd.shutdown(); httpd.server_close()


@pytest.fixture
def folder(tmp_path, monkeypatch, server):
    "An empty data folder (L0QSVM_DATA_DIR); downloads come from the server's `ok/` unless a test says otherwise."
    folder = tmp_path / "data"; folder.mkdir()
    monkeypatch.setenv("L0QSVM_DATA_DIR", str(folder))
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/ok/")
    monkeypatch.delenv("L0QSVM_DOWNLOAD_TIMEOUT", raising=False)
    Mirror.requests.clear()
    return folder


def free_port():
    "A port on 127.0.0.1 where nothing listens."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def timed(f):
    "(the exception f() raised, seconds it took); fails if f returns."
    t0 = time.monotonic()
    try: f()
    except Exception as e: return e, time.monotonic() - t0
    raise AssertionError("no error")


# a) a connection that fails names the host and the OS error, never the data folder
def unresolvable():
    try: socket.getaddrinfo("nonexistent.invalid", 80)
    except socket.gaierror as e: return e.strerror
    pytest.skip("this resolver answers for nonexistent.invalid")


def test_a_connection_that_fails_names_the_host_and_the_os_error(folder, monkeypatch):
    monkeypatch.setenv("L0QSVM_DATA_URL", "http://nonexistent.invalid/")
    e, seconds = timed(lambda: load_dataset("heart"))
    msg = str(e)
    assert isinstance(e, FileNotFoundError) and seconds < 20, (e, seconds)
    assert msg.startswith("heart.dat is not in the data folder") and "http://nonexistent.invalid/heart.dat" in msg
    assert f"the host name 'nonexistent.invalid' does not resolve ({unresolvable()})" in msg, msg
    assert "cannot write" not in msg and "Max retries" not in msg, msg
    port = free_port()
    monkeypatch.setenv("L0QSVM_DATA_URL", f"http://127.0.0.1:{port}/")
    e, _ = timed(lambda: fetch_dataset("heart"))
    assert isinstance(e, FileNotFoundError), e
    assert f"cannot connect to 127.0.0.1:{port} ({os.strerror(errno.ECONNREFUSED)})" in str(e), str(e)
    assert "cannot write" not in str(e) and files_in(folder) == []


def test_an_http_error_is_named_as_such(folder, server, monkeypatch):
    "A 404 is a failure to download, said as the server said it, not a file that differs from the original."
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/missing/")
    with pytest.raises(FileNotFoundError, match=r"could not be downloaded from .*/missing/heart\.dat: the server answered "
                                                r"404 Not Found; nothing was saved"):
        load_dataset("heart")
    assert files_in(folder) == []


# b) a scheme the downloader does not speak is refused before any connection, and never as a checksum mismatch
@pytest.mark.parametrize("url", ["ftp://nonexistent.invalid/", "ftp://127.0.0.1:{port}/", "file:///tmp/",
                                 "sftp://127.0.0.1:{port}/"])
def test_an_unsupported_url_scheme_is_refused_before_any_download(folder, monkeypatch, url):
    url = url.format(port=free_port())
    monkeypatch.setenv("L0QSVM_DATA_URL", url)
    e, seconds = timed(lambda: fetch_dataset("heart"))
    msg, scheme = str(e), url.split(":")[0]
    assert isinstance(e, ValueError) and seconds < 5, (e, seconds)
    assert msg.startswith(f"heart.dat: cannot download {url}heart.dat: its scheme {scheme}:// is not supported, only "
                          f"http:// and https://"), msg
    assert f"$L0QSVM_DATA_URL is {url!r}" in msg and "L0QSVM_DATA_DIR" in msg
    assert "not the original" not in msg and "cannot write" not in msg
    status = fetch_datasets(["heart"])
    assert status["heart"][0] == "failed" and "is not supported" in status["heart"][1]
    assert files_in(folder) == []


# c) a slow mirror stops at the time limit, with a message, and leaves nothing
@pytest.mark.parametrize("mode", ["stall", "trickle"])
def test_a_slow_mirror_stops_at_the_time_limit_and_leaves_nothing(folder, server, monkeypatch, mode):
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/{mode}/")
    monkeypatch.setenv("L0QSVM_DOWNLOAD_TIMEOUT", "1")
    e, seconds = timed(lambda: load_dataset("sonar"))
    msg = str(e)
    assert isinstance(e, FileNotFoundError) and 0.9 < seconds < 4, (e, seconds)
    assert msg.startswith(f"sonar.all-data is not in the data folder {str(folder)!r} and could not be downloaded from "
                          f"{server}/{mode}/sonar.all-data: the download took more than 1 s, its time limit"), msg
    assert "L0QSVM_DOWNLOAD_TIMEOUT" in msg and "nothing was saved" in msg
    assert files_in(folder) == []                  # no temporary file either
    e, seconds = timed(lambda: fetch_dataset("sonar", timeout=0.5))    # the argument before the environment
    assert isinstance(e, FileNotFoundError) and "took more than 0.5 s" in str(e) and 0.4 < seconds < 3, (e, seconds)
    assert files_in(folder) == []


@pytest.mark.parametrize("value", ["soon", "0", "-5", "nan"])
def test_a_time_limit_that_is_not_a_number_of_seconds_is_refused(folder, monkeypatch, value):
    monkeypatch.setenv("L0QSVM_DOWNLOAD_TIMEOUT", value)
    with pytest.raises(ValueError, match=rf"^\$L0QSVM_DOWNLOAD_TIMEOUT must be a number of seconds > 0; got '{value}'$"):
        fetch_dataset("heart")
    with pytest.raises(ValueError, match=r"^timeout must be a number of seconds > 0; got True$"):
        fetch_dataset("heart", timeout=True)
    assert Mirror.requests == [] and files_in(folder) == []


def test_within_the_time_limit_the_file_arrives(folder, monkeypatch):
    monkeypatch.setenv("L0QSVM_DOWNLOAD_TIMEOUT", "30")
    assert fetch_dataset("sonar") == folder / "sonar.all-data" and files_in(folder) == ["sonar.all-data"]
    assert Mirror.requests == ["ok/sonar.all-data"]


# d) a mirror that sends more than the file has is stopped there
@pytest.mark.parametrize("mode", ["endless", "huge"])
def test_a_mirror_that_sends_more_than_the_file_is_stopped_at_its_size(folder, server, monkeypatch, mode):
    monkeypatch.setenv("L0QSVM_DATA_URL", f"{server}/{mode}/")
    size = (SOURCE / "glass.data").stat().st_size
    e, seconds = timed(lambda: load_dataset("glass"))
    msg = str(e)
    assert isinstance(e, ValueError) and seconds < 5, (e, seconds)
    assert msg.startswith(f"glass.data: the file downloaded from {server}/{mode}/glass.data is not the original ("), msg
    said = f"the server sent more than {size} bytes" if mode == "endless" else "the server announces 10000000000 bytes"
    assert f"({said}, the original has {size}: stopped there); nothing was saved" in msg, msg
    assert "SHA-256" not in msg and files_in(folder) == []


def test_an_archive_that_never_ends_is_stopped_at_the_archive_cap(folder, server, monkeypatch):
    monkeypatch.delenv("L0QSVM_DATA_URL")
    monkeypatch.setattr(datasets, "_ARCHIVE_MAX_BYTES", 100_000, raising=False)
    monkeypatch.setitem(datasets.DATA_SOURCES, "raisin.csv",
                        (f"{server}/endless/raisin.zip", datasets.DATA_SOURCES["raisin.csv"][1]))
    e, seconds = timed(lambda: fetch_dataset("raisin"))
    assert isinstance(e, ValueError) and seconds < 5, (e, seconds)
    assert "(the server sent more than 100000 bytes, the most read of an archive: stopped there)" in str(e), str(e)
    assert files_in(folder) == []


# e) a device, a fifo or a folder in place of a data file is refused before it is opened
def test_a_device_a_fifo_or_a_folder_in_place_of_a_file_is_refused_unread(folder, tmp_path):
    (folder / "heart.dat").symlink_to("/dev/zero")
    os.mkfifo(folder / "glass.data")
    (folder / "sonar.all-data").mkdir()
    script = textwrap.dedent("""
        import json, sys
        from l0qsvm.datasets import fetch_dataset, fetch_datasets, load_dataset, sha256_file
        def error(f):
            try: f()
            except Exception as e: return [type(e).__name__, str(e)]
        folder = sys.argv[1]
        print(json.dumps({
            "load heart": error(lambda: load_dataset("heart")),
            "load glass": error(lambda: load_dataset("glass", download_if_missing=False)),
            "fetch sonar": error(lambda: fetch_dataset("sonar")),
            "hash glass": error(lambda: sha256_file(folder + "/glass.data")),
            "fetch_datasets": fetch_datasets(["heart", "glass", "sonar"])}))
    """)
    try:                                           # in a process of its own: reading /dev/zero or a fifo never ends
        run = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still reading after 60 s: a device or a fifo was opened")
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    heart = f"heart.dat: {str(folder / 'heart.dat')!r} (a symbolic link to '/dev/zero') is a character device, not a " \
            f"regular file: remove it, or put the file itself there"
    glass = f"glass.data: {str(folder / 'glass.data')!r} is a named pipe (fifo), not a regular file"
    sonar = f"sonar.all-data: {str(folder / 'sonar.all-data')!r} is a folder, not a regular file"
    assert got["load heart"] == ["ValueError", heart]
    assert got["load glass"][0] == "ValueError" and got["load glass"][1].startswith(glass)
    assert got["fetch sonar"][0] == "ValueError" and got["fetch sonar"][1].startswith(sonar)
    assert got["hash glass"][0] == "ValueError" and got["hash glass"][1].startswith(glass)
    assert got["fetch_datasets"] == {"heart": ["failed", heart], "glass": ["failed", got["load glass"][1]],
                                     "sonar": ["failed", got["fetch sonar"][1]]}
    assert Mirror.requests == []                   # nothing downloaded over them
    assert (folder / "heart.dat").is_symlink() and (folder / "sonar.all-data").is_dir()


# f) a data folder that is a file is said to be a file
def test_a_data_folder_that_is_a_file_is_named_so(tmp_path, monkeypatch):
    path = tmp_path / "data.txt"; path.write_text("not a folder\n")
    monkeypatch.setenv("L0QSVM_DATA_DIR", str(path))
    expected = f"Data directory {str(path)!r} (from L0QSVM_DATA_DIR) is a regular file, not a folder"
    for call in (get_data_dir, lambda: load_dataset("heart"), fetch_datasets):
        with pytest.raises(NotADirectoryError) as e: call()
        assert str(e.value).startswith(expected) and "does not exist" not in str(e.value), str(e.value)
    with pytest.raises(NotADirectoryError, match=r"\(from data_dir\) is a regular file, not a folder"):
        get_data_dir(path)
    run = subprocess.run([sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main(sys.argv[1:]))",
                          "data"], env={**os.environ, "L0QSVM_DATA_DIR": str(path)}, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [f"l0qsvm data: error: {expected}: give the folder that holds the UCI files "
                                       f"(missing files are downloaded into it), or leave L0QSVM_DATA_DIR unset to use "
                                       f"the per-user cache {str(datasets.data_cache())!r}"], run.stderr


def test_the_sizes_are_the_files():
    "The size cap of each file is its size in the data folder (the manifest's)."
    assert {name: (SOURCE / UCI_FILES[name][0]).stat().st_size for name in UCI_FILES} == datasets.UCI_SIZES
