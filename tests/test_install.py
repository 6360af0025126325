"""The installed package carries its grammar: a non-editable install runs from anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "lugenbeutel.rules"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from the source tree (no dependencies fetched)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(out), str(ROOT)], check=True, cwd=out)
    return next(out.glob("rulekit-*.whl"))


def test_wheel_contains_the_grammar(wheel):
    """The wheel ships grammar/rulekit.lark as the package data rulekit/grammars/rulekit.lark."""
    names = zipfile.ZipFile(wheel).namelist()
    assert "rulekit/grammars/rulekit.lark" in names
    assert "rulekit/grammars/__init__.py" in names


def test_wheel_contains_every_module_of_the_source_tree(wheel):
    """Every module under rulekit/ is in the wheel (a package missing from pyproject.toml's
    list would be left out, and an editable install of the same tree would hide it)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rulekit").rglob("*.py")}
    assert modules - names == set()


def test_installed_wheel_runs_a_match_from_another_directory(wheel, tmp_path):
    """Installed (not editable) into a fresh folder, rulekit plays a match from elsewhere."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))
    probe = subprocess.run([sys.executable, "-c", "import rulekit.lang.syntax as s; print(s.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(target))
    result = subprocess.run([sys.executable, "-m", "rulekit.cli", "run", str(GAME), "--players", "3",
                             "--seed", "3", "--bots", "random", "--quiet"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Final standings" in result.stdout


def test_console_script_checks_a_file_from_another_directory(tmp_path):
    """The `rulekit` console script of this environment checks a game given by path."""
    script = shutil.which("rulekit", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("no rulekit console script in this environment")
    result = subprocess.run([script, "check", str(GAME)], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "ok — Lügenbeutel" in result.stdout
