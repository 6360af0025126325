"""tests/conftest.py: the tests marked slow run only with -m slow, and the end of the run
says how many were not run and how to run them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

TESTS = '''\
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_slow_one():
    pass

@pytest.mark.parametrize("k", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_some_slow(k):
    pass
'''


def _run(tmp_path: Path, *args: str) -> str:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "strategies.py").write_text("", encoding="utf-8")     # conftest puts its folder on the path
    (tmp_path / "test_it.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: long\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("args", [(), ("-m", "not slow")])
def test_the_slow_tests_not_run_are_told_at_the_end(tmp_path, args):
    out = _run(tmp_path, *args)
    assert "2 tests marked slow were not run: `pytest -m slow` runs them" in out.splitlines()


def test_nothing_is_told_when_the_slow_tests_run_or_none_is_asked_for(tmp_path):
    assert "marked slow" not in _run(tmp_path, "-m", "slow")
    assert "marked slow" not in _run(tmp_path, "-k", "quick")


def test_one_slow_test_is_told_in_the_singular(tmp_path):
    out = _run(tmp_path, "-k", "slow_one or quick")
    assert "1 test marked slow was not run: `pytest -m slow` runs them" in out.splitlines()
