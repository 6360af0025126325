"""Cold start: `rulekit --help` and `import rulekit` load only what they need (the speed
issue). Measured by which modules a fresh interpreter has loaded, never by time."""

from __future__ import annotations

import json
import subprocess
import sys

from strategies import ROOT

HEAVY = ("lark", "rich", "attrs", "attr", "rulekit.engine", "rulekit.sema.check", "rulekit.lang.model", "ray")


def _loaded(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_the_help_loads_neither_the_parser_nor_the_engine_nor_rich():
    loaded = _loaded("from rulekit.cli import main\n"
                     "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "click" in loaded
    assert sorted(m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY) == []


def test_importing_the_package_is_lazy_and_its_names_still_work():
    assert not {"lark", "rulekit.engine", "rulekit.sema.check"} & _loaded("import rulekit")
    loaded = _loaded("from rulekit import loads, Engine\nassert loads and Engine")
    assert {"lark", "rulekit.engine", "rulekit.sema.check"} <= loaded


def test_check_does_not_load_rich():
    loaded = _loaded("from rulekit.cli import main\n"
                     f"try:\n    main(['check', {str(ROOT / 'games' / 'dtc.rules')!r}])\nexcept SystemExit:\n    pass")
    assert "rulekit.sema.check" in loaded
    assert not any(m.split(".")[0] == "rich" for m in loaded)
