"""Test-suite settings: tests marked ``slow`` run only when asked for (``-m slow``)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/strategies.py


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason=SLOW_REASON)
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


SLOW_REASON = "slow: run with -m slow"


def _slow_not_run(terminalreporter) -> int:
    """How many tests marked slow this session skipped (without -m slow) or deselected
    (-m "not slow")."""
    skipped = sum(1 for r in terminalreporter.stats.get("skipped", ())
                  if "slow" in getattr(r, "keywords", {}) and r.when == "setup")
    deselected = 0
    if not terminalreporter.config.option.keyword:     # deselected by -k: not asked for anyway
        deselected = sum(1 for item in terminalreporter.stats.get("deselected", ())
                         if "slow" in getattr(item, "keywords", {}))
    return skipped + deselected


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say, at the end, that the slow tests were not run and how to run them."""
    k = 0 if config.option.collectonly else _slow_not_run(terminalreporter)
    if k:
        terminalreporter.write_line(f"{k} test{'' if k == 1 else 's'} marked slow {'was' if k == 1 else 'were'} "
                                    f"not run: `pytest -m slow` runs them")


@pytest.fixture(autouse=True, scope="session")
def _solved_cache(tmp_path_factory):
    """Solved policies (``--bots auto`` and ``solved``) go to a cache of this test session,
    never to the user's: a test that solves a game solves it once per session. (A test
    may point ``RULEKIT_CACHE`` elsewhere with monkeypatch.)"""
    import os

    folder = tmp_path_factory.mktemp("rulekit-cache")
    before = os.environ.get("RULEKIT_CACHE")
    os.environ["RULEKIT_CACHE"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("RULEKIT_CACHE", None)
    else:
        os.environ["RULEKIT_CACHE"] = before
