"""Shared pytest configuration: the `--slow` switch and the data directory for the UCI files."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run notebook cells flagged `#| slow` and tests marked `slow`")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test, run with --slow")
    # The UCI files are not shipped: tests and docs read them from ../shared/datasets unless told otherwise.
    os.environ.setdefault("L0QSVM_DATA_DIR", str((ROOT.parent / "shared" / "datasets").resolve()))
    os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"): return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords: item.add_marker(skip)
