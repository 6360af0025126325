"""Test-suite settings: tests marked ``slow`` run only when asked for (``-m slow``)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/strategies.py


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


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
