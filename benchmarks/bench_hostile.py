"""Benchmark: what refusing (or running) each hostile file costs, in time and memory.

Run: python benchmarks/bench_hostile.py DIR [--timeout 60] [--json out.json]

For every ``*.rules`` file of DIR (e.g. the reproducers of ``shared/bugs/``), in a fresh
process each: ``rulekit check FILE``; then, if the check passes, ``rulekit run FILE --seed 1
--bots random -q``. Each row gives the exit status, the wall and CPU seconds and the peak
resident memory (MiB) of the process, and the first line it printed on stderr. Also measured:
``rulekit --version``, the floor every row pays to start Python and load rulekit.

A measurement, never a test: the tests (tests/test_limits.py, tests/test_robustness.py)
prove that each file ends cleanly; this says how quickly and in how much memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def run_one(args: list[str], timeout: float) -> dict:
    """Run ``rulekit ARGS`` in a new process: exit status, wall and CPU seconds, the first
    line on stderr (killed after ``timeout`` seconds: status -9)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "rulekit", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"status": proc.returncode, "wall": wall,
            "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "stderr": (err.splitlines() or [""])[0][:110]}


def _child(args: list[str], timeout: float) -> None:
    import resource

    row = run_one(args, timeout)
    row["rss_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps(row))


def isolated(args: list[str], timeout: float) -> dict:
    """``run_one`` in a helper process of its own, so that the peak memory is this row's."""
    out = subprocess.run([sys.executable, __file__, "--child", json.dumps([args, timeout])],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(*json.loads(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--json", type=Path)
    opts = parser.parse_args()
    rows = [{"file": "(rulekit --version)", "command": "version", **isolated(["--version"], opts.timeout)}]
    for path in sorted(opts.dir.glob("*.rules")):
        row = {"file": path.name, "command": "check", **isolated(["check", str(path)], opts.timeout)}
        rows.append(row)
        if row["status"] == 0:
            rows.append({"file": path.name, "command": "run",
                         **isolated(["run", str(path), "--seed", "1", "--bots", "random", "-q"], opts.timeout)})
    print(f"{'file':44} {'cmd':5} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'MiB':>6}  first line on stderr")
    for r in rows:
        print(f"{r['file'][:44]:44} {r['command']:5} {r['status']:>4} {r['wall']:7.2f} {r['cpu']:6.2f} "
              f"{r['rss_mib']:6.0f}  {r['stderr'].replace(os.fspath(opts.dir) + '/', '')[:70]}")
    worst = max(rows[1:], key=lambda r: r["wall"])
    print(f"\n{len(rows) - 1} runs; slowest {worst['file']} ({worst['command']}) {worst['wall']:.2f} s wall; "
          f"largest {max(r['rss_mib'] for r in rows):.0f} MiB; floor {rows[0]['wall']:.2f} s wall, "
          f"{rows[0]['rss_mib']:.0f} MiB")
    if opts.json:
        opts.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
