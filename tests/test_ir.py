"""Exhaustiveness: every kind of node the parser makes is checked by the compiler and has a
translation in the code generator, and every step of the intermediate form is handled by
each function the generator writes for an action.

A new construct fails here until it is classified (expression, statement, cards, card
condition or declaration) and every pass handles it: the generator has no fallback, so a
node it cannot translate would otherwise be found only by a game that uses it.
"""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

import attrs
import pytest

from rulekit import ir
from rulekit.engine.codegen import Generator
from rulekit.engine.compile import Compiler
from rulekit.lang import model as m

TRANSFORM = Path(m.__file__).with_name("transform.py")

#: the statements that open an action: the compiler makes them steps of the intermediate form
OPENING = {m.Require: ir.Require, m.ChooseCards: (ir.ChooseCards, ir.ChooseBlind), m.ChooseParam: ir.ChooseValue}

#: nodes that are parts of a declaration or of another node, translated where that is
STRUCTURE = {m.Action, m.CardDecl, m.CardProp, m.ClaimDecl, m.CombinationDecl, m.CombinationsDecl, m.ComboCards,
             m.ComboRun, m.CounterDecl, m.DeckDecl, m.DieDecl, m.Domain,
             m.GameDecl, m.GroupDecl, m.MatchDecl, m.NamesDecl, m.Param, m.PhaseDecl, m.PlayersDecl,
             m.ProcedureDecl, m.RankKey, m.Rotation, m.RulesFile, m.SeatDecl, m.SeatSet, m.SetupDecl,
             m.SymbolsDecl, m.TableDecl, m.Target, m.Template, m.VariantDecl, m.ZoneDecl}

EXPRESSIONS = set(typing.get_args(m.Expr))
STATEMENTS = set(typing.get_args(m.Stmt))
CARDS = set(typing.get_args(m.Cards))
CARD_CONDITIONS = set(typing.get_args(m.CardPred))


def made_by_the_parser() -> set:
    """Every model class the transform of a parse tree constructs."""
    names = set(re.findall(r"\bm\.([A-Z][A-Za-z]*)\(", TRANSFORM.read_text(encoding="utf-8")))
    return {getattr(m, name) for name in names}


def test_every_node_the_parser_makes_is_classified():
    kinds = [EXPRESSIONS, STATEMENTS, CARDS, CARD_CONDITIONS, STRUCTURE]
    for cls in made_by_the_parser():
        homes = [k for k in kinds if cls in k]
        assert len(homes) == 1, f"model.{cls.__name__} is in {len(homes)} of the kinds of node"
    assert all(attrs.has(cls) for kind in kinds for cls in kind)


@pytest.mark.parametrize("cls", sorted(EXPRESSIONS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_every_expression_is_checked_and_translated(cls):
    assert cls in Compiler._EXPR, f"the compiler does not check model.{cls.__name__}"
    assert callable(getattr(Generator, f"ex_{cls.__name__}", None)), f"no Generator.ex_{cls.__name__}"


@pytest.mark.parametrize("cls", sorted(STATEMENTS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_every_statement_is_checked_and_translated(cls):
    assert cls in Compiler._STMT, f"the compiler does not check model.{cls.__name__}"
    if cls in OPENING:
        return                  # a step of the intermediate form (below)
    assert callable(getattr(Generator, f"st_{cls.__name__}", None)), f"no Generator.st_{cls.__name__}"


def source_names(fn) -> set:
    """The ``m.X`` and ``ir.X`` class names the source of ``fn`` mentions."""
    return set(re.findall(r"\b(?:m|ir)\.([A-Z][A-Za-z]*)\b", inspect.getsource(fn)))


@pytest.mark.parametrize("cls", sorted(CARDS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_every_kind_of_cards_is_selected(cls):
    assert cls.__name__ in source_names(Generator._selection), f"Generator._selection misses model.{cls.__name__}"
    assert cls.__name__ in source_names(Compiler.cards), f"Compiler.cards misses model.{cls.__name__}"


@pytest.mark.parametrize("cls", sorted(CARD_CONDITIONS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_every_card_condition_is_translated(cls):
    assert cls.__name__ in source_names(Generator.cpred), f"Generator.cpred misses model.{cls.__name__}"
    assert cls.__name__ in source_names(Compiler.cpred), f"Compiler.cpred misses model.{cls.__name__}"


STEPS = [cls for cls in vars(ir).values() if isinstance(cls, type) and issubclass(cls, ir.Step) and cls is not ir.Step]


def test_the_steps_are_those_the_opening_statements_make():
    made = set()
    for target in OPENING.values():
        made |= set(target) if isinstance(target, tuple) else {target}
    assert set(STEPS) == made | {ir.Forced}


@pytest.mark.parametrize("cls", STEPS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("writer", ["checker", "enumerator", "option_function"])
def test_every_step_is_handled_by_every_function_of_an_action(cls, writer):
    """The check, the listing and the option of an action each handle every kind of step
    (a Require is the fall-through of the listing, whose other branches name theirs)."""
    names = source_names(getattr(Generator, writer))
    assert cls.__name__ in names, f"Generator.{writer} does not handle ir.{cls.__name__}"
