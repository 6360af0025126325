"""The human seat through a real pseudo-terminal (pexpect): what a person sees and types in
``rulekit run --human``, with the terminal's line editing and Tab completion."""

from __future__ import annotations

import re
import sys

import pytest

from strategies import ROOT

pexpect = pytest.importorskip("pexpect")

RULEKIT = [sys.executable, "-m", "rulekit"]
PROMPT = "choose an option by number or name: "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str):
    child = pexpect.spawn(RULEKIT[0], RULEKIT[1:] + ["run", *args], encoding="utf-8", dimensions=(40, 120),
                          timeout=60, cwd=str(ROOT), env={"TERM": "xterm", "PATH": "/usr/bin:/bin"})
    return child


def screen(child) -> str:
    """What the terminal printed before the last match, without colours."""
    return ANSI.sub("", child.before)


def test_a_liars_dice_match_typed_at_a_terminal_with_tab_completion():
    child = spawn("games/liars_dice.rules", "--human", "1", "--bots", "generic", "--seed", "3")
    child.expect_exact("how many dice? ")               # the one option's first question, at once
    shown = screen(child)
    assert "P1, your decision: your turn" in shown and "your cup: " in shown and "1. bid: " in shown
    assert "P2: cup 1 die" in shown                      # a hidden cup: how many dice, not cards
    child.send("bi\t")                                   # Tab completes the option's name
    child.expect_exact("bid")
    child.send(" 1 1\r")                                 # the whole move on one line
    child.expect_exact(PROMPT)
    shown = screen(child)
    assert "P1 (you) bids 1 × 1" in shown and "standing claim of P2: 1 × 2" in shown
    assert "since your last decision" not in shown       # the play-by-play already told it
    child.send("liar\r")
    child.expect_exact("the match is over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_whole_lugenbeutel_match_where_p1_is_asked_to_call_only_on_large_plays():
    """Lügenbeutel as P1, a whole match: at each deal's first chance to call, 'only 3' stops
    the questions about plays of fewer than 3 cards for the rest of that deal; every other
    call prompt is about a play of 3 cards or more. P1 plays its first card on each turn."""
    child = spawn("games/lugenbeutel.rules", "--human", "1", "--seed", "11", "--bots", "human,random,random,random")
    turns = calls = 0
    covered_after_filter = []
    filtered = set()                # the deals whose filter is set
    deal = 1
    window = False
    while child.expect_exact([PROMPT, pexpect.EOF]) == 0:
        shown = screen(child)
        deals = re.findall(r"— deal (\d+) —", shown)
        deal = int(deals[-1]) if deals else deal
        if "your decision: " in shown:                   # a new decision (else the same one, asked again)
            window = "(your call)" in shown.split("your decision: ")[-1].split("\n")[0]
        elif window:                                     # 'only 3' on a claim that covers 3 or more
            child.send("\r")
            continue
        if not window:
            turns += 1
            first = re.findall(r"your hand: (?:\d+×)?([^,\n]+)", shown)[-1].strip()
            child.send(f"play {first}\r")              # the first card of the hand, by name
            continue
        calls += 1
        if deal not in filtered:
            filtered.add(deal)
            child.send("only 3\r")
            continue
        covered_after_filter.append(int(re.findall(r"standing claim of P\d: .*\((\d+) cards?\)", shown)[-1]))
        child.send("\r")                                # Enter declines
    child.close()
    assert child.exitstatus == 0
    assert "the match is over" in ANSI.sub("", child.before)
    assert turns > 10 and covered_after_filter
    assert all(covered >= 3 for covered in covered_after_filter), covered_after_filter
    assert calls == len(filtered) + len(covered_after_filter)
