"""The tutorial (docs/tutorial.md) is checked step by step.

A comment right before a ```rules block marks it:

* ``<!-- step: N -->``: the whole file after step N; it must load, and the later steps are
  played by random bots, with each variant the file declares;
* ``<!-- step: N, error: FRAGMENT -->``: the whole, still unfinished file after step N;
  loading it must raise a RulesError whose text contains FRAGMENT;
* ``<!-- error: FRAGMENT -->``: a deliberately broken file, likewise.

Unmarked ```rules blocks show the lines a step adds: they must be lines of the next step's
file. The outputs of ``rulekit check`` shown after a step must be what it prints, and every
link to docs/language.md must name one of its headings.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekit
from rulekit import Engine
from rulekit.cli import main
from rulekit.players import RandomBot

DOCS = Path(__file__).resolve().parent.parent / "docs"
TUTORIAL = (DOCS / "tutorial.md").read_text(encoding="utf-8")
FIRST_PLAYED = 5            # the first step whose file is a complete game
MAX_STEPS = 50_000          # decisions; a random-bot match of the tutorial game takes a few thousand

BLOCK = re.compile(r"(?:<!--[ ]*(?P<marker>[^>\n]*?)[ ]*-->\n)?^```rules\n(?P<text>.*?)\n```$", re.S | re.M)


def _blocks() -> list[tuple[str | None, str, int]]:
    """Every ```rules block of the tutorial: (marker or None, text, offset)."""
    return [(m["marker"], m["text"] + "\n", m.start()) for m in BLOCK.finditer(TUTORIAL)]


def _parse_marker(marker: str) -> tuple[int | None, str | None]:
    """The step number and the expected error fragment of a marker."""
    found = re.fullmatch(r"(?:step:\s*(\d+))?\s*,?\s*(?:error:\s*(.+))?", marker)
    assert found and (found[1] or found[2]), f"unknown marker <!-- {marker} -->"
    return (int(found[1]) if found[1] else None), found[2]


def _steps() -> dict[int, tuple[str, str | None]]:
    """The whole file of each step, with the error its loading must raise (None if it loads)."""
    steps: dict[int, tuple[str, str | None]] = {}
    for marker, text, _ in _blocks():
        if marker is None:
            continue
        number, error = _parse_marker(marker)
        if number is not None:
            assert number not in steps, f"step {number} is marked twice"
            steps[number] = (text, error)
    return steps


STEPS = _steps()
BROKEN = [(error, text) for marker, text, _ in _blocks() if marker
          for number, error in [_parse_marker(marker)] if number is None]
PLAYED = [n for n, (_, error) in sorted(STEPS.items()) if error is None and n >= FIRST_PLAYED]


def test_steps_are_numbered_in_order():
    """The tutorial has 6 to 9 steps, numbered 1, 2, … in the order they appear."""
    numbers = [_parse_marker(m)[0] for m, _, _ in _blocks() if m]
    numbers = [n for n in numbers if n is not None]
    assert numbers == list(range(1, len(numbers) + 1))
    assert 6 <= len(numbers) <= 9
    assert PLAYED and PLAYED[-1] == numbers[-1], "the last step must be a complete game"


@pytest.mark.parametrize("number", sorted(STEPS))
def test_step_file_loads_or_fails_as_shown(number):
    """Each step's file loads, or an unfinished one fails with the message the tutorial shows."""
    text, error = STEPS[number]
    if error is None:
        rulekit.loads(text, f"step{number}.rules")
    else:
        with pytest.raises(rulekit.RulesError) as caught:
            rulekit.loads(text, f"step{number}.rules")
        assert error in str(caught.value)


@pytest.mark.parametrize("number", PLAYED)
@pytest.mark.parametrize("players", ["min", "max"])
def test_step_matches_end(number, players):
    """Seeded random-bot matches of each complete step end, with the fewest and most players."""
    game = rulekit.loads(STEPS[number][0], f"step{number}.rules")
    n = game.players[0] if players == "min" else game.players[1]
    engine = Engine(game)
    for seed in range(2):
        bots = [RandomBot(random.Random(seed * 10 + i)) for i in range(n)]
        record = rulekit.play_match(engine, bots, n, seed, max_steps=MAX_STEPS)
        assert record.state.is_terminal and record.winners


def test_variant_step_loads_and_plays():
    """Every variant declared by the last step loads and its matches end."""
    text = STEPS[PLAYED[-1]][0]
    names = re.findall(r"^variant\s+(\w+)", text, re.M)
    assert names, "the last step declares no variant"
    for name in names:
        game = rulekit.loads(text, "variant.rules", variants=[name])
        engine = Engine(game)
        for seed, n in enumerate(game.players):
            bots = [RandomBot(random.Random(seed * 10 + i)) for i in range(n)]
            record = rulekit.play_match(engine, bots, n, seed, max_steps=MAX_STEPS)
            assert record.state.is_terminal and record.winners


def test_variant_changes_the_game():
    """The variant's cards are in the deck only when it is applied."""
    text = STEPS[PLAYED[-1]][0]
    base = rulekit.loads(text)
    for name in re.findall(r"^variant\s+(\w+)", text, re.M):
        assert rulekit.loads(text, variants=[name]).deck_size != base.deck_size


@pytest.mark.parametrize("error,text", BROKEN, ids=[e for e, _ in BROKEN])
def test_broken_snippet_raises(error, text):
    """The deliberately broken snippet raises a RulesError with the message shown."""
    with pytest.raises(rulekit.RulesError) as caught:
        rulekit.loads(text, "broken.rules")
    assert error in str(caught.value)


def test_there_is_a_broken_snippet():
    """The tutorial shows the reader at least one error."""
    assert BROKEN


def test_added_lines_belong_to_the_next_step():
    """Each unmarked snippet consists of lines of the next marked step's file."""
    blocks = _blocks()
    for i, (marker, text, _) in enumerate(blocks):
        if marker is not None:
            continue
        later = [t for m, t, _ in blocks[i + 1:] if m and _parse_marker(m)[0] is not None]
        assert later, f"snippet without a step after it:\n{text}"
        lines = {line.strip() for line in later[0].splitlines()}
        missing = [line for line in text.splitlines() if line.strip() and line.strip() not in lines]
        assert not missing, f"lines not in the next step's file: {missing}"


def _check_outputs() -> list[tuple[str, str]]:
    """(file of the step, shown output) for every `$ rulekit check` in the tutorial."""
    found = []
    for block in re.finditer(r"```console\n(.*?)\n```", TUTORIAL, re.S):
        lines = block[1].splitlines()
        if not lines or lines[0] != "$ rulekit check tall_tales.rules":
            continue
        shown = []
        for line in lines[1:]:
            if line.startswith("$ "):
                break
            shown.append(line)
        before = [m for m in BLOCK.finditer(TUTORIAL, 0, block.start()) if m["marker"]]
        found.append((before[-1]["text"] + "\n", "\n".join(shown)))
    return found


@pytest.mark.parametrize("text,shown", _check_outputs())
def test_shown_check_output_is_real(text, shown, tmp_path, monkeypatch):
    """Every line the tutorial shows from `rulekit check` is printed by it for that file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tall_tales.rules").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "tall_tales.rules"])
    printed_lines = {line.rstrip() for line in result.output.splitlines()}     # stdout and stderr
    for line in shown.splitlines():
        if line.strip() != "…":
            assert line.rstrip() in printed_lines, f"not printed by rulekit check: {line!r}"


def _run_outputs() -> list[tuple[str, list[str], str]]:
    """(file of the step, arguments, shown output) for every `$ rulekit run` in the tutorial."""
    found = []
    for block in re.finditer(r"```console\n(.*?)\n```", TUTORIAL, re.S):
        before = [m for m in BLOCK.finditer(TUTORIAL, 0, block.start()) if m["marker"]]
        lines = block[1].splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ rulekit run "):
                continue
            shown = []
            for later in lines[i + 1:]:
                if later.startswith("$ "):
                    break
                shown.append(later)
            found.append((before[-1]["text"] + "\n", line.split()[3:], "\n".join(shown)))
    return found


@pytest.mark.parametrize("text,args,shown", _run_outputs())
def test_shown_run_output_is_real(text, args, shown, tmp_path, monkeypatch):
    """Every line the tutorial shows from `rulekit run --seed N` is printed by it, in that
    order (a '…' stands for lines left out). When the bots change, rewrite the transcripts
    with docs/tools/regen_transcripts.py."""
    assert "--seed" in args, "a transcript without --seed cannot be replayed"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tall_tales.rules").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", *args])
    assert result.exit_code == 0, result.output
    printed = [line.rstrip() for line in result.output.splitlines()]
    at = 0
    for line in shown.splitlines():
        if line.strip() == "…":
            continue
        assert line.rstrip() in printed[at:], f"not printed by rulekit run {' '.join(args)} after line {at}: {line!r}"
        at = printed.index(line.rstrip(), at) + 1


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(markdown: str) -> set[str]:
    """The anchors of the headings of a Markdown text (code blocks left out)."""
    anchors = set()
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            anchors.add(_slug(line.lstrip("#")))
    return anchors


def test_reference_links_exist():
    """Every link to a section of language.md, or of the tutorial, names a heading it has."""
    reference = _anchors((DOCS / "language.md").read_text(encoding="utf-8"))
    links = re.findall(r"\]\(language\.md#([^)]+)\)", TUTORIAL)
    assert links
    assert sorted(set(links) - reference) == []
    inner = re.findall(r"\]\(#([^)]+)\)", TUTORIAL)
    assert sorted(set(inner) - _anchors(TUTORIAL)) == []
