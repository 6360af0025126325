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
from rulekit.engine.stepgen import _STATEMENTS, StepWriter
from rulekit.engine.compile import Compiler
from rulekit.lang import model as m

TRANSFORM = Path(m.__file__).with_name("transform.py")

#: the statements that open an action: the compiler makes them steps of the intermediate form
OPENING = {m.Require: ir.Require, m.ChooseCards: (ir.ChooseCards, ir.ChooseBlind), m.ChooseParam: ir.ChooseValue}

#: nodes that are parts of a declaration or of another node, translated where that is
STRUCTURE = {m.Action, m.CardDecl, m.CardProp, m.ClaimDecl, m.CombinationDecl, m.CombinationsDecl, m.ComboCards,
             m.ComboRun, m.CounterDecl, m.DeckDecl, m.DieDecl, m.Domain,
             m.GameDecl, m.GroupDecl, m.MatchDecl, m.NamesDecl, m.Param, m.PhaseDecl, m.PlayersDecl,
             m.ProcedureDecl, m.RankKey, m.RemoveAction, m.RemoveCard, m.Rotation, m.RulesFile, m.SeatDecl,
             m.SeatSet, m.SetupDecl,
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
    # the steps write every statement (the Generator's own writers, where the steps do not
    # need their own)
    assert callable(getattr(StepWriter, f"st_{cls.__name__}", None)), f"no StepWriter.st_{cls.__name__}"
    assert cls.__name__ in _STATEMENTS, f"rulekit.engine.stepgen._STATEMENTS misses {cls.__name__}"


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
@pytest.mark.parametrize("writer", ["check_lines", "enumeration", "option_function"])
def test_every_step_is_handled_by_every_function_of_an_action(cls, writer):
    """The check, the listing and the option of an action each handle every kind of step
    (a Require is the fall-through of the listing, whose other branches name theirs)."""
    names = source_names(getattr(Generator, writer))
    assert cls.__name__ in names, f"Generator.{writer} does not handle ir.{cls.__name__}"


# ---------------------------------------------------------------- names, resolved once
def naming_names(fn) -> set:
    """The ``naming.X`` symbol classes the source of ``fn`` mentions."""
    return set(re.findall(r"\bnaming\.([A-Z][A-Za-z]*)\b", inspect.getsource(fn)))


#: what a name read as a value may stand for: each is given a kind by the compiler and a
#: translation by the generator
VALUE_SYMBOLS = {"Local", "Counter", "SeatSlot", "NumberedSeat", "Group", "SymbolValue"}
#: what a name read as a set of seats may stand for
SEAT_SET_SYMBOLS = {"Local", "Group", "Winners", "SeatSlot", "NumberedSeat"}
#: what the target of set/add/subtract may stand for
TARGET_SYMBOLS = {"Group", "SeatSlot", "Counter"}


def test_every_symbol_class_is_one_a_resolver_makes():
    made = set(re.findall(r"return ([A-Z][A-Za-z]*)\(", inspect.getsource(ir.names)))
    declared = {n for n, c in vars(ir.names).items() if isinstance(c, type) and issubclass(c, ir.names.Symbol)}
    assert made == declared - {"Symbol"}
    assert VALUE_SYMBOLS | SEAT_SET_SYMBOLS | TARGET_SYMBOLS <= declared


@pytest.mark.parametrize("reader, symbols", [
    (Compiler.name, VALUE_SYMBOLS), (Generator.value_of, VALUE_SYMBOLS),
    (Compiler.seat_set, SEAT_SET_SYMBOLS - {"Local", "Group", "Winners"}),    # the rest are sets as they are
    (Generator.seats_var, SEAT_SET_SYMBOLS),
    (Compiler.assign, TARGET_SYMBOLS), (Generator.st_Assign, TARGET_SYMBOLS),
    (Generator.cpred, {"Local", "CardTest"})], ids=lambda x: getattr(x, "__qualname__", ""))
def test_every_symbol_is_read_by_each_pass(reader, symbols):
    missing = symbols - naming_names(reader)
    assert not missing, f"{reader.__qualname__} does not handle naming.{', naming.'.join(sorted(missing))}"


class _Table:
    """A layout with one of each kind of name (as CompiledGame gives them)."""

    counter_index = {"score": 0, "chips": 1}
    seat_index = {"current": 0, "actor": 1, "claimant": 2, "dealer": 3}
    group_index = {"folded": 0}
    symbol_of = {"red": ("colour", 0), "blue": ("colour", 1)}
    symbols = {"colour": ("red", "blue")}
    flag_names = {"wild"}
    card_names = {"ace"}

    class game:
        class _C:
            def __init__(self, per_player):
                self.per_player = per_player

        counters = (_C(True), _C(False))


def test_a_bound_value_hides_every_declaration_of_its_name():
    n = ir.names
    assert n.resolve_value(_Table, "score", {"score": "num"}) == n.Local("score", "num")
    assert n.resolve_value(_Table, "score", {}) == n.Counter(0, True)
    assert n.resolve_value(_Table, "chips", {}) == n.Counter(1, False)
    assert n.resolve_value(_Table, "dealer", {}) == n.SeatSlot(3)
    assert n.resolve_value(_Table, "folded", {}) == n.Group(0)
    assert n.resolve_value(_Table, "blue", {}) == n.SymbolValue("colour", 1)
    assert n.resolve_value(_Table, "P3", {}) == n.NumberedSeat(3)
    assert n.resolve_value(_Table, "P0", {}) is None and n.resolve_value(_Table, "nothing", {}) is None


def test_a_name_read_as_seats():
    n = ir.names
    assert n.resolve_seats(_Table, "p", {"p": "seat"}) == n.Local("p", "seat")
    assert n.resolve_seats(_Table, "p", {"p": "num"}) is None              # a number is no set of seats
    assert n.resolve_seats(_Table, "folded", {"folded": "num"}) == n.Group(0)
    assert n.resolve_seats(_Table, "winners", {}) is None                  # known only in 'returns'
    assert n.resolve_seats(_Table, "winners", {"$winners": "group"}) == n.Winners()
    assert n.resolve_seats(_Table, "dealer", {}) == n.SeatSlot(3)
    assert n.resolve_seats(_Table, "P2", {}) == n.NumberedSeat(2)
    assert n.is_one_seat(_Table, "dealer", {}) and not n.is_one_seat(_Table, "folded", {})
    assert not n.is_one_seat(_Table, "g", {"g": "group"})


def test_names_in_card_conditions_targets_and_loops():
    n = ir.names
    assert n.resolve_card_test(_Table, "k", {"k": "kind"}) == n.Local("k", "kind")
    assert n.resolve_card_test(_Table, "s", {"s": "sym:colour"}) == n.Local("s", "sym:colour")
    assert n.resolve_card_test(_Table, "s", {"s": "num"}) is None
    assert [n.resolve_card_test(_Table, x, {}) for x in ("wild", "ace", "red")] == [
        n.CardTest("wild", "flag"), n.CardTest("ace", "card"), n.CardTest("red", "symbol")]
    assert n.resolve_target(_Table, "folded", False) == n.Group(0)
    assert n.resolve_target(_Table, "score", True) == n.Counter(0, True)
    assert n.resolve_target(_Table, "dealer", True) is None                 # 'set dealer of P1' means nothing
    assert n.resolve_loop(_Table, "colour", {}) == n.SymbolSet("colour")
    assert n.resolve_loop(_Table, "colour", {"colour": "group"}) is None
