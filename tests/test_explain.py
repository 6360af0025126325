"""`rulekit explain`: the plain-language rulebook written from a game's model.

Golden files: ``tests/golden/explain/GAME.txt`` holds the rulebook of ``games/GAME.rules`` and
``tests/golden/explain/GAME--VARIANT.txt`` that of each of its variants; the tests compare the
output with them exactly. After a deliberate change of wording, regenerate them and read the
difference before committing it::

    RULEKIT_REGEN_GOLDEN=1 pytest tests/test_explain.py

(with the variable set, the golden tests write the files instead of comparing, and files of
games or variants that no longer exist are removed).

Besides the goldens: every shipped rulebook names every action by its label, every claim and
every phase; no rulebook shows a Python repr; every construct of the model has its own wording;
explain never fails on any game written in the tests or the docs (a user's new game gets a
rulebook too); and the CLI command, its --variant and its errors.
"""

from __future__ import annotations

import ast
import os
import re

import pytest
from click.testing import CliRunner

from rulekit.lang import model as m
from rulekit.sema.load import load, loads
from rulekit.cli import main
from rulekit.errors import RulesError
from rulekit.explain import explain
from rulekit.explain.phrases import _Phrases
from rulekit.explain.steps import _Steps
from strategies import ROOT, game_paths

GOLDEN_DIR = ROOT / "tests" / "golden" / "explain"
REGEN = os.environ.get("RULEKIT_REGEN_GOLDEN", "") not in ("", "0")
LIARS_DICE = str(ROOT / "games" / "liars_dice.rules")
LUGENBEUTEL = str(ROOT / "games" / "lugenbeutel.rules")


def _shipped() -> list[tuple[str, str | None]]:
    """(path, variant or None) for every game file and each of its variants."""
    out = []
    for path in game_paths():
        out.append((str(path), None))
        out.extend((str(path), name) for name, _ in load(str(path)).variants)
    return out


SHIPPED = _shipped()


def _golden_name(path: str, variant: str | None) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    return f"{stem}--{variant}.txt" if variant else f"{stem}.txt"


def _ids(case) -> str:
    return _golden_name(*case)[:-4]


# ---------------------------------------------------------------------------- goldens
@pytest.mark.parametrize("path, variant", SHIPPED, ids=[_ids(c) for c in SHIPPED])
def test_rulebook_of_every_shipped_game_matches_its_golden_file(path, variant):
    text = explain(load(path, [variant] if variant else []))
    golden = GOLDEN_DIR / _golden_name(path, variant)
    if REGEN:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.exists(), f"no golden file {golden.name}: run RULEKIT_REGEN_GOLDEN=1 pytest {__file__}"
    assert text == golden.read_text(encoding="utf-8")


def test_every_golden_file_is_of_a_shipped_game_or_variant():
    expected = {_golden_name(p, v) for p, v in SHIPPED}
    found = {f.name for f in GOLDEN_DIR.glob("*.txt")} if GOLDEN_DIR.exists() else set()
    if REGEN:
        for stale in found - expected:
            (GOLDEN_DIR / stale).unlink()
        return
    assert found == expected


# ---------------------------------------------------------------------------- contents
def _literal_parts(template) -> list[str]:
    """The words of a quoted text of the file, without its holes."""
    return [part.strip() for part in template.parts if isinstance(part, str) and part.strip()]


@pytest.mark.parametrize("path, variant", SHIPPED, ids=[_ids(c) for c in SHIPPED])
def test_rulebook_names_every_action_claim_and_phase(path, variant):
    game = load(path, [variant] if variant else [])
    text = explain(game)
    for phase in game.phases:
        assert phase.name.replace("_", " ") in text
        for action in phase.actions:
            label = _literal_parts(action.label) if action.label is not None else [action.name]
            for part in label:
                assert part in text, (phase.name, action.name, part)
    for claim in game.claims:
        assert f"### {claim.name.replace('_', ' ').capitalize()}" in text
        for part in _literal_parts(claim.label) if claim.label else []:
            assert part in text
    assert text.count("It is true ") == len(game.claims)
    for zone in game.zones:
        assert f"- {zone.name.replace('_', ' ')}: " in text
    for counter in game.counters:
        assert f"- {counter.name.replace('_', ' ')}: " in text


@pytest.mark.parametrize("path, variant", SHIPPED, ids=[_ids(c) for c in SHIPPED])
def test_require_messages_are_quoted_in_the_rulebook(path, variant):
    game = load(path, [variant] if variant else [])
    text = explain(game)
    for phase in game.phases:
        for action in phase.actions:
            for stmt in action.body:
                if isinstance(stmt, m.Require) and stmt.message:
                    assert f"(“{stmt.message}”)" in text


def test_a_variant_section_says_what_changes():
    text = explain(load(LUGENBEUTEL, ["edition_b_in_hand"]))
    assert "## Variant edition_b_in_hand" in text
    assert "It builds on edition_b and in_hand." in text
    section = text.split("Variant edition_b_in_hand changes:")[1].split("\n## ")[0]
    assert "- joker: 26 cards (instead of: 20 cards)." in section
    assert "- It is for" not in section                 # 2..8 players, as in the base game
    assert "The steps “deal hands” become:" in section
    assert "- A new zone: aside:" in section
    dice = explain(load(LIARS_DICE, ["five_dice"]))
    assert "each player has 5 in their cup from the start of the match (instead of: each player has 1" in dice


def test_the_base_rulebook_lists_the_variants():
    text = explain(load(LUGENBEUTEL))
    assert "## Variants" in text and "- single_card: the challenger turns over one card of the play." in text
    assert "## Variant " not in text


_REPR = re.compile(r"\b(?:Name|SeatSet|SeatName|BinOp|ZoneRef|Template|Span|Num|Kind)\(|span=|<rulekit|\bNone\b"
                   r"|\{[a-z_ ]+\}|\b[a-z]+_[a-z_]+\(")


def _games_in_tests_and_docs() -> list[tuple[str, str]]:
    """(where, text) of every whole game written in the tests (a string that starts with
    ``game "``) and the docs (a ``rules`` block of a page, a file of docs/examples); only
    those that load are kept, each variant of them too."""
    texts: dict[str, str] = {}
    for f in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lstrip().startswith('game "'):
                texts[f"{f.name}:{node.lineno}"] = node.value
    for f in sorted((ROOT / "docs").rglob("*.md")):
        for i, block in enumerate(re.findall(r"```rules\n(.*?)```", f.read_text(encoding="utf-8"), re.S)):
            if re.search(r'^game "', block, re.M):
                texts[f"{f.name}#{i}"] = block
    for f in sorted((ROOT / "docs" / "examples").glob("*.rules")):
        texts[f"examples/{f.name}"] = f.read_text(encoding="utf-8")
    out = []
    for where, text in texts.items():
        try:
            loads(text)
        except RulesError:
            continue                    # a fragment, a template to fill, an error case
        out.append((where, text))
    return out


WRITTEN = _games_in_tests_and_docs()


def test_games_are_found_in_the_tests_and_the_docs():
    where = {w.split(":")[0].split("#")[0] for w, _ in WRITTEN}
    assert {"test_constructs.py", "test_constructs_more.py", "language.md", "examples/kuhn_poker.rules",
            "examples/coin_bluff.rules"} <= where
    assert len(WRITTEN) > 30


@pytest.mark.parametrize("where, text", WRITTEN, ids=[w for w, _ in WRITTEN])
def test_explain_never_fails_on_a_game_of_the_tests_or_the_docs(where, text):
    game = loads(text)
    for variant in [None] + [name for name, _ in game.variants]:
        try:
            applied = loads(text, "<rules>", [variant]) if variant else game
        except RulesError:
            continue
        book = explain(applied)
        assert book.startswith(f"# {applied.title}\n") and book.endswith("\n")
        assert "## Setup" in book and "## Play" in book and "## End of the deal and of the match" in book
        assert "do as the rules say" not in book        # every statement has its own wording
        body = book.split("\n", 1)[1]                   # (titles of the tests may hold anything)
        assert not _REPR.search(body), _REPR.search(body).group(0)


@pytest.mark.parametrize("path, variant", SHIPPED, ids=[_ids(c) for c in SHIPPED])
def test_shipped_rulebooks_show_no_python_reprs(path, variant):
    book = explain(load(path, [variant] if variant else []))
    assert not _REPR.search(book), _REPR.search(book).group(0)
    assert "  \n" not in book and not re.search(r" $", book, re.M)


def _kinds(union) -> set[str]:
    return {t.__name__ if isinstance(t, type) else str(t).strip("'\"") for t in union.__args__}


def test_every_kind_of_node_has_its_own_wording():
    """One method per class of expression, seat, card set, card condition and statement."""
    values = _kinds(m.Expr) | _kinds(m.Cards) | {"FirstOf", "SeatSet", "Member"}
    conditions = _kinds(m.CardPred)
    statements = _kinds(m.Stmt) | {"LetGroup", "EndTurn"}
    missing = [f"x_{k}" for k in sorted(values) if not hasattr(_Phrases, f"x_{k}")]
    missing += [f"p_{k}" for k in sorted(conditions) if not hasattr(_Phrases, f"p_{k}")]
    missing += [f"s_{k}" for k in sorted(statements) if not hasattr(_Steps, f"s_{k}")]
    assert missing == []
    # and every statement class of the model is in the list above
    model_statements = {name for name, cls in vars(m).items() if isinstance(cls, type) and name in statements}
    assert model_statements == statements


def test_a_node_without_wording_falls_back_to_the_text_of_the_file():
    game = load(LIARS_DICE)
    book = _Phrases(game)
    choose = next(s for ph in game.phases for a in ph.actions for s in a.body if isinstance(s, m.ChooseParam))
    assert book.fallback(choose.domain) == "“1..count of every cup”"
    assert book.fallback(m.Domain("range", low=m.Num(1), high=m.Num(6))) == "domain range 1 6"


def test_explain_refuses_what_is_not_a_game():
    with pytest.raises(TypeError, match="needs a checked Game"):
        explain("games/liars_dice.rules")


def test_the_explain_module_names_no_shipped_game():
    """Everything comes from the model: the module knows no game, card, zone or claim of them."""
    source = "".join(f.read_text(encoding="utf-8") for f in sorted((ROOT / "rulekit" / "explain").glob("*.py"))).lower()
    for name in ("lügenbeutel", "lugenbeutel", "joker", "skull", "flower", "coup", "duke", "contessa", "liar",
                 "dtc", "nimm", "revenge", "d6", "bidders", "thumb"):
        assert name not in source, name


# ---------------------------------------------------------------------------- the command
def test_cli_explain_prints_the_rulebook_unwrapped():
    result = CliRunner().invoke(main, ["explain", LIARS_DICE])
    assert 0 == result.exit_code, result.output
    assert result.stdout == explain(load(LIARS_DICE))
    assert any(len(line) > 100 for line in result.stdout.splitlines())     # long lines stay whole


def test_cli_explain_with_variants_applies_them_in_order():
    result = CliRunner().invoke(main, ["explain", LUGENBEUTEL, "--variant", "edition_b", "--variant", "in_hand"])
    assert 0 == result.exit_code, result.output
    assert result.stdout == explain(load(LUGENBEUTEL, ["edition_b", "in_hand"]))
    assert "Variant edition_b, in_hand changes:" in result.stdout


def test_cli_explain_a_bad_variant_is_a_clear_error():
    result = CliRunner().invoke(main, ["explain", LIARS_DICE, "--variant", "six_dice"])
    assert 2 == result.exit_code
    assert "Invalid value for '--variant': unknown variant 'six_dice' (this game has: five_dice)" in result.output
    assert "Traceback" not in result.output


def test_cli_explain_a_broken_file_reports_its_problem(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text((ROOT / "games" / "liars_dice.rules").read_text(encoding="utf-8").replace(
        "reveal every cup", "reveal every cap"), encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(broken)])
    assert 2 == result.exit_code
    assert "broken.rules:" in result.stderr and "error:" in result.stderr and result.stdout == ""


def test_cli_explain_help():
    short = CliRunner().invoke(main, ["explain", "-h"])
    assert 0 == short.exit_code and "-h, --help" in short.stdout and "--variant NAME" in short.stdout
    assert "explain" in CliRunner().invoke(main, ["--help"]).stdout
