"""The installed package carries its grammar and the shipped games: a non-editable install
runs from anywhere, a wheel installed in a fresh virtual environment with its dependencies
plays a shipped game by name, and the source distribution holds what its tests need."""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import time
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


def test_wheel_ships_the_games_and_its_metadata(wheel):
    """games/*.rules are the package data rulekit/games/*.rules; the metadata names the
    license (with its file), the authors, the classifiers and the README."""
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    games = {f"rulekit/games/{p.name}" for p in (ROOT / "games").glob("*.rules")}
    assert len(games) >= 8 and games <= names
    info = next(n.rsplit("/", 1)[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    meta = email.message_from_bytes(archive.read(f"{info}/METADATA"))
    assert meta["License-Expression"] == "MIT" and meta["Author"] == "rulekit authors"
    classifiers = meta.get_all("Classifier")
    for wanted in ("Programming Language :: Python :: 3.11", "Operating System :: OS Independent",
                   "Topic :: Games/Entertainment", "Topic :: Games/Entertainment :: Board Games"):
        assert wanted in classifiers
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "rulekit games" in meta.get_payload()


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
    by_name = subprocess.run([sys.executable, "-m", "rulekit.cli", "run", "lugenbeutel", "--players", "3",
                              "--seed", "3", "--bots", "random", "--quiet"],
                             cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600)
    assert (0, result.stdout) == (by_name.returncode, by_name.stdout), by_name.stderr
    listed = subprocess.run([sys.executable, "-m", "rulekit.cli", "games"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600)
    assert listed.returncode == 0, listed.stderr
    assert "lugenbeutel\tLügenbeutel\t2-8\t" in listed.stdout


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_plays_a_shipped_game_by_name(wheel, tmp_path):
    """The wheel, installed with its dependencies into a new virtual environment, plays
    `rulekit run lugenbeutel` and lists `rulekit games` from a folder without games/.
    (Fetches lark, attrs, click, rich, numpy, platformdirs: some 30 s.)"""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   capture_output=True, text=True)
    rulekit = str(bin_dir / "rulekit")
    played = subprocess.run([rulekit, "run", "lugenbeutel", "--bots", "random", "--seed", "3", "-q"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("Lügenbeutel — 4 players, seed 3, bots: random")
    assert "Final standings" in played.stdout
    listed = subprocess.run([rulekit, "games"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert listed.returncode == 0, listed.stderr
    names = [line.split("\t")[0] for line in listed.stdout.splitlines()[1:]]
    assert names == sorted(p.stem for p in (ROOT / "games").glob("*.rules"))
    missing = subprocess.run([rulekit, "run", "nope"], cwd=tmp_path, capture_output=True, text=True)
    assert missing.returncode == 2
    assert missing.stderr.startswith("nope: error: no such file, and no shipped game of that name (shipped: bluff, ")


def test_sdist_holds_the_games_and_the_tests_and_they_run(tmp_path):
    """The source distribution (python -m build --sdist) holds games/, tests/, docs/,
    grammar/, editors/, benchmarks/, README, LICENSE and CHANGELOG; unpacked, one of its
    test files passes against the installed package."""
    pytest.importorskip("build")
    out = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    sdist = next(out.glob("rulekit-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    top = tmp_path / sdist.name.removesuffix(".tar.gz")
    for name in ("README.md", "LICENSE", "CHANGELOG.md", "pyproject.toml", "grammar/rulekit.lark",
                 "tests/conftest.py", "tests/strategies.py", "docs/language.md", "editors/build.py",
                 "benchmarks/bench_engine.py", ".ci/run"):
        assert (top / name).is_file(), name
    assert sorted(p.name for p in (top / "games").glob("*.rules")) == \
        sorted(p.name for p in (ROOT / "games").glob("*.rules"))
    assert sorted(p.name for p in (top / "tests").glob("test_*.py")) == \
        sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert not list(top.rglob("__pycache__")) and not list(top.rglob("*.jsonl"))
    started = time.monotonic()
    # -P: the unpacked folder is not put on sys.path, so that pytest imports the installed rulekit
    tested = subprocess.run([sys.executable, "-P", "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                             "tests/test_readme.py"], cwd=top, capture_output=True, text=True, timeout=600)
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-2000:]
    assert "1 passed" in tested.stdout and time.monotonic() - started < 120


def test_console_script_checks_a_file_from_another_directory(tmp_path):
    """The `rulekit` console script of this environment checks a game given by path."""
    script = shutil.which("rulekit", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("no rulekit console script in this environment")
    result = subprocess.run([script, "check", str(GAME)], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "ok — Lügenbeutel" in result.stdout
