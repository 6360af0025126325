"""The README's Python example runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from strategies import ROOT


def test_readme_python_example_runs():
    """The "From Python" example of README.md plays a Liar's Dice match and prints its returns."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "PYTHONHASHSEED": "0"}, timeout=120)
    assert "" == result.stderr
    winners, returns = result.stdout.strip().split(") (")
    assert returns.rstrip(")") in ("-1, 1", "1, -1")
