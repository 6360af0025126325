"""Fuzzing helpers for tests/test_fuzz.py: strategies that write ``.rules`` programs.

* :func:`grammar_programs` derives programs from ``grammar/rulekit.lark`` itself. The grammar
  is read with Lark's own API (``Lark(...).rules`` and ``.terminals``: the compiled BNF rules,
  ``[x]``, ``x*`` and templates already expanded into alternatives), and every choice among
  the alternatives of a rule is a Hypothesis draw, so nothing of the language is written out
  here: a new statement in the grammar is generated as soon as it is added. Three modes:

  - ``free``: ``start`` expanded from scratch;
  - ``skeleton``: the top-level items in the order one of the shipped games has them (the
    game, the players, a deck, zones, a setup, phases…), each item expanded from scratch;
  - ``splice``: a shipped game's derivation (its parse with the same grammar, rule by rule)
    with one to three subtrees regenerated from the grammar or swapped for a subtree of the
    same rule from another file (grammar-aware mutation: most such programs pass the checks,
    so they reach the engine).

  Choices are bounded: an alternative is only taken if it can be completed within the depth
  left (the minimal height of each rule is computed over the grammar), and past a budget of
  tokens only the alternatives of least size are taken. Alternatives are weighted by how
  often the shipped games use them (plus one, so every alternative is reachable), and listed
  simplest first, so that Hypothesis shrinks towards small programs.

  Terminals: the keywords are their literal text; NAME comes from a small pool plus the names
  the program has declared so far (the first name of a ``*_decl`` rule, of an ``action`` and
  of a ``param`` declares one); INT is small, now and then larger and rarely huge; STRING is a
  short quoted text with ``{…}`` holes (an expression generated from the grammar's ``expr``,
  or a broken hole) and terminal markup (``[/bold]``, ``[/]``). Any other terminal a future
  grammar adds is drawn with ``st.from_regex``.

* :func:`mutated_games` mutates every shipped ``games/*.rules`` file: lines deleted,
  duplicated or swapped, tokens replaced with other tokens of the file or keywords, numbers
  changed (0, -1, 10**20, 10**7…), stray characters and bytes inserted, tokens glued, the text
  truncated; a variant of the file (or none) is drawn to load it with.

* :func:`human_lines`: what a careless or hostile person types at a HumanPlayer's prompt.

* Issue 23's generators:

  - :func:`tainted_games`: a corpus file with a control character (C0, DEL, C1, a control
    of bidirectional text), a whole sequence (OSC 52, clear the screen, set the title…) or
    an odd character (a BOM, a zero-width space) inserted in a kind of place drawn first: a title, a
    card, claim or action label, a log text, a prompt, a variant label, a name, a comment;
  - :func:`leaky_games`: a small game where a value reading hidden cards reaches every seat
    (a log text, a claim, a group, a procedure that shows it, also through another) through
    lets, steps of computation and loops over its values, and its twin with a public value;
  - :func:`nested_loops`: an action nesting two to four loops (``repeat``, ``for each`` over
    a range or the seats, counts up to 100,000), the inner ones maybe in a procedure;
  - :func:`odd_inputs`: a command handed a device, a folder, a named pipe, a link to itself,
    random bytes, more than 1 MiB, a name holding control characters;
  - :func:`crafted_logs`: a real log with hostile JSON in its fields, truncated, nested
    100,000 deep, with raw U+2028 or bytes that are not UTF-8, lines lost or added.

* :func:`time_limit`: a SIGALRM guard that raises :class:`FuzzTimeout` (a BaseException, so
  that no ``except Exception`` in the code under test swallows it).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import json
import math
import re
import signal
from collections import Counter, defaultdict
from pathlib import Path
from typing import NamedTuple

from hypothesis import given, settings, strategies as st
from lark import Lark, Token

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_PATH = ROOT / "grammar" / "rulekit.lark"
GAMES_DIR = ROOT / "games"
#: the texts the grammar-driven strategy learns weights, item orders and subtrees from
CORPUS_PATHS = sorted(GAMES_DIR.glob("*.rules")) + sorted((ROOT / "docs" / "examples").glob("*.rules"))

#: names a program may use without declaring them (built-in seats, attributes) and a few
#: ordinary ones; "lügen" and "_q" check Unicode and underscores
NAME_POOL = ("a", "b", "x", "n", "p", "hand", "stock", "pile", "turn", "current", "actor", "claimant",
             "P1", "P2", "value", "face", "wild", "points", "lügen", "_q")
#: names for declarations (a name already declared is rarely drawn again: "declared twice")
DECL_POOL = ("hand", "stock", "pile", "table", "main", "bid", "play", "doubt", "score", "coins", "dealer",
             "gold", "lead", "d6", "suit", "rank", "team", "cup", "lügen", "x2")
#: at most this many frames of one rule at once (the items of a list, nested blocks)
LIST_LIMIT = 12
SMALL_INTS = (0, 1, 2, 3, 4, 5, 6)
MID_INTS = (10, 13, 52, 99, 100)
HUGE_INTS = (10**7, 10**20)
STRING_WORDS = ("gold", "bids", "x", "Lügen", "", " ", "P1", "a b", "ü", "💥", "%s", "{{", "}}", "\\")
MARKUP = ("[/bold]", "[/]", "[bold]", "[red]", "[/red]", "[link=x]", "[", "]", "\\[", "[bold")


# --------------------------------------------------------------------------- the grammar
class Alt(NamedTuple):
    """One compiled alternative of a rule: its symbols as (is_terminal, name)."""

    origin: str
    symbols: tuple
    height: int          # the least depth of a complete derivation
    size: int            # the fewest terminals of a complete derivation
    weight: int          # how strongly it is drawn


class Doc(NamedTuple):
    """A corpus file's derivation, flattened: its tokens and its nonterminal nodes in
    preorder as (origin, first token, end token, alternative)."""

    path: str
    tokens: tuple
    nodes: tuple
    names: tuple
    items: tuple          # the alternatives of its top-level items, in order


class Grammar:
    """The compiled rules and terminals of the grammar file, and what the corpus tells."""

    def __init__(self, text: str, corpus: list[Path]):
        lark = Lark(text, parser="lalr", start="start")
        self.start = "start"
        self.terminals = {t.name: t.pattern for t in lark.terminals}
        self.ignored = set(lark.ignore_tokens)
        raw: dict[str, list[tuple]] = defaultdict(list)
        for rule in lark.rules:
            raw[rule.origin.name].append(tuple((s.is_term, s.name) for s in rule.expansion))
        self.keywords = sorted({p.value for p in self.terminals.values() if p.type == "str" and p.value.isalpha()})
        height, size = self._least(raw)
        self.docs = self._parse_corpus(lark, corpus)
        usage = Counter((o, a) for d in self.docs for o, _, _, a in d.nodes)
        self.alts: dict[str, list[Alt]] = {}
        for origin, expansions in raw.items():
            alts = []
            for exp in expansions:
                h, s = self._measure(origin, exp, height, size)
                alts.append(Alt(origin, exp, h, s, 1 + usage[(origin, exp)]))
            # simplest first: Hypothesis shrinks choices towards index 0
            self.alts[origin] = sorted(alts, key=lambda a: (a.height, a.size))
        self.choice_cache: dict = {}
        self.samples = {name: self._samples(p) for name, p in self.terminals.items()
                        if p.type == "re" and name not in ("NAME", "INT", "STRING") and name not in self.ignored}
        self.by_origin: dict[str, list[tuple]] = defaultdict(list)
        for d in self.docs:
            for origin, lo, hi, _ in d.nodes:
                if hi - lo <= 60:
                    self.by_origin[origin].append(d.tokens[lo:hi])

    @staticmethod
    def _samples(pattern) -> tuple:
        """A few texts of a terminal this module has no generator for (from its regexp;
        computed once, outside any test)."""
        found = set()
        strategy = st.from_regex(pattern.to_regexp(), fullmatch=True)

        @settings(max_examples=20, database=None, derandomize=True)
        @given(strategy)
        def collect(text):
            if "\n" not in text:
                found.add(text)
        collect()
        return tuple(sorted(found)) or ("?",)

    @staticmethod
    def _step(origin: str) -> int:
        # helper rules (``_sep``, ``__x_star_0``, inlined ``_rule``) cost no depth: a list is
        # bounded by the token budget, not by the depth
        return 0 if origin.startswith("_") else 1

    def _measure(self, origin, exp, height, size):
        h = max((height[n] for t, n in exp if not t), default=0) + self._step(origin)
        s = sum(1 if t else size[n] for t, n in exp)
        return h, s

    def _least(self, raw):
        inf = math.inf
        height = {o: inf for o in raw}
        size = {o: inf for o in raw}
        changed = True
        while changed:
            changed = False
            for origin, exps in raw.items():
                for exp in exps:
                    h, s = self._measure(origin, exp, height, size)
                    if h < height[origin]:
                        height[origin], changed = h, True
                    if s < size[origin]:
                        size[origin], changed = s, True
        return height, size

    def _parse_corpus(self, lark: Lark, paths: list[Path]) -> list[Doc]:
        """Each corpus file parsed into its derivation: Lark's LALR parser calls one callback
        per reduced rule; they are replaced by callbacks that keep the rule and every child
        (keywords included). If Lark's internals change, the corpus is simply left empty."""
        try:
            callbacks = lark.parser.parser.parser.callbacks
        except AttributeError:
            return []
        for rule in list(callbacks):
            if not isinstance(rule, str):
                alt = tuple((s.is_term, s.name) for s in rule.expansion)
                callbacks[rule] = functools.partial(_node, rule.origin.name, alt)
        docs = []
        for path in paths:
            try:
                tree = lark.parse(path.read_text("utf-8"))
            except Exception:  # noqa: BLE001 - a corpus file the grammar no longer reads is skipped
                continue
            tokens: list[str] = []
            nodes: list = []
            items: list = []
            _flatten(tree, tokens, nodes)
            # the top-level items: nodes right under ``start`` through helper rules
            _items(tree, items)
            names = tuple(sorted({t for t in tokens if _is_name(t) and t not in self.keywords}))
            docs.append(Doc(str(path), tuple(tokens), tuple(nodes), names, tuple(items)))
        return docs


def _node(origin, alt, children):
    return (origin, alt, children)


def _flatten(tree, tokens, nodes):
    """Tokens in order and the nodes in preorder with their token ranges (iteratively: a
    long file is a deep left-recursive list)."""
    pending: list = [(tree, None)]
    while pending:
        node, end_of = pending.pop()
        if end_of is not None:
            origin, lo, _, alt = nodes[end_of]
            nodes[end_of] = (origin, lo, len(tokens), alt)
        elif isinstance(node, Token):
            tokens.append(str(node))
        else:
            origin, alt, children = node
            nodes.append((origin, len(tokens), None, alt))
            pending.append((None, len(nodes) - 1))
            pending.extend((child, None) for child in reversed(children))


def _items(tree, out):
    origin, alt, children = tree
    for child in children:
        if isinstance(child, Token):
            continue
        c_origin, c_alt, _ = child
        if c_origin.startswith("_"):
            _items(child, out)
        else:
            out.append((c_origin, c_alt))


_NAME_RE = re.compile(r"[^\W\d]\w*\Z")


def _is_name(text: str) -> bool:
    return bool(_NAME_RE.match(text))


@functools.cache
def grammar() -> Grammar:
    return Grammar(GRAMMAR_PATH.read_text("utf-8"), CORPUS_PATHS)


# --------------------------------------------------------------------------- generation
class ByteChoices:
    """Choices read from a byte string: a choice among ``n`` takes one byte (two when ``n`` >
    256), and once the bytes run out every choice is 0, the simplest. The bytes come from one
    Hypothesis draw per program (a big integer: ~2 ms, where a draw per choice costs ~60 µs
    each and a program takes hundreds of choices, and ``st.binary`` is slow for long
    strings); Hypothesis still shrinks that integer, which zeroes the last choices first and
    shrinks the program towards the simplest alternatives."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        width = 1 if n <= 256 else 2
        chunk = self.data[self.pos:self.pos + width]
        self.pos += width
        if len(chunk) < width:
            return 0
        return int.from_bytes(chunk, "big") % n


class DrawChoices:
    """Every choice is its own Hypothesis draw (``st.integers``): the finest shrinking, and
    slow (for small budgets or for shrinking a failure found with :class:`ByteChoices`)."""

    def __init__(self, draw):
        self.draw = draw

    def below(self, n: int) -> int:
        return 0 if n <= 1 else self.draw(st.integers(0, n - 1))


class _Builder:
    """Expands rules into tokens; every choice comes from ``choices``."""

    def __init__(self, g: Grammar, choices, max_depth: int, max_tokens: int, names=()):
        self.g = g
        self.c = choices
        self.max_depth = max_depth
        self.max_tokens = max_tokens
        self.out: list[str] = []
        self.declared: list[str] = list(names)
        self.active: dict[str, int] = {}      # frames of each rule under way

    def pick(self, seq):
        return seq[self.c.below(len(seq))]

    def choose(self, origin: str, room: int | None) -> Alt:
        """An alternative of ``origin`` that fits ``room`` levels of depth (None: past the
        token budget, the least in size), drawn by weight."""
        key = (origin, room)
        found = self.g.choice_cache.get(key)
        if found is None:
            alts = self.g.alts[origin]
            if room is None:
                least = min(a.size for a in alts)
                candidates = [a for a in alts if a.size == least]
            else:
                candidates = [a for a in alts if a.height <= room] or alts[:1]
            cumulative, total = [], 0
            for a in candidates:
                total += a.weight
                cumulative.append(total)
            found = self.g.choice_cache[key] = (candidates, cumulative, total)
        candidates, cumulative, total = found
        if len(candidates) == 1:
            return candidates[0]
        return candidates[bisect.bisect_right(cumulative, self.c.below(total))]

    def expand(self, origin: str, depth: int, alt: Alt | None = None) -> None:
        active = self.active.get(origin, 0)
        if alt is None:
            # past the token budget, or in a list already LIST_LIMIT deep (a helper rule costs
            # no depth, and a left-recursive list emits nothing before it recurses): the least
            # in size, which ends the list
            budget_spent = len(self.out) >= self.max_tokens or active >= LIST_LIMIT
            alt = self.choose(origin, None if budget_spent else self.max_depth - depth)
        depth += self.g._step(origin)
        declares = origin.endswith("_decl") or origin in ("action", "param")
        self.active[origin] = active + 1
        for is_term, name in alt.symbols:
            if is_term:
                self.terminal(name, declares)
                if name == "NAME":
                    declares = False
            else:
                self.expand(name, depth)
        self.active[origin] = active

    # -- terminals
    def terminal(self, name: str, declares: bool = False) -> None:
        if name == "NAME":
            self.out.append(self.declare() if declares else self.name())
        elif name == "INT":
            self.out.append(str(self.integer()))
        elif name == "STRING":
            self.out.append(self.string())
        else:
            pattern = self.g.terminals[name]
            if pattern.type == "str":
                self.out.append(pattern.value)
            else:   # a terminal this module does not know yet: one of a few sample texts
                self.out.append(self.pick(self.g.samples[name]))

    def declare(self) -> str:
        fresh = [n for n in DECL_POOL if n not in self.declared]
        if fresh and self.c.below(200):
            name = self.pick(fresh)
        else:
            name = self.pick(DECL_POOL)
        self.declared.append(name)
        return name

    def name(self) -> str:
        k = self.c.below(400)
        if k == 399:   # now and then a keyword where a name is expected
            return self.pick(self.g.keywords)
        if self.declared and k >= 100:
            return self.pick(self.declared)
        return self.pick(NAME_POOL)

    def integer(self) -> int:
        k = self.c.below(1000)
        if k < 940:
            return SMALL_INTS[k % len(SMALL_INTS)]
        if k < 997:
            return self.pick(MID_INTS)
        return self.pick(HUGE_INTS)

    def string(self) -> str:
        parts = []
        for _ in range(self.c.below(4)):
            k = self.c.below(200)
            if k < 100:
                parts.append(self.pick(STRING_WORDS))
            elif k < 174:
                parts.append("{" + self.hole() + "}")
            elif k < 175:
                parts.append(self.pick(("{", "}", "{}", "{ }", "{{x}}", "{count of}", "{1 +}", "{\u00e9}",
                                        "{999}", "{-}")))
            else:
                parts.append(self.pick(MARKUP))
        text = " ".join(parts).replace('"', "'").replace("\n", " ")
        return f'"{text}"'

    def hole(self) -> str:
        """An expression of the grammar (its ``expr`` rule), for a ``{…}`` hole."""
        if "expr" not in self.g.alts or self.c.below(4) == 0:
            return self.pick(NAME_POOL + tuple(self.declared))
        inner = _Builder(self.g, self.c, max_depth=self.g.alts["expr"][0].height + 3, max_tokens=12,
                         names=self.declared)
        inner.expand("expr", 0)
        return " ".join(t for t in inner.out if '"' not in t)


def join_tokens(tokens) -> str:
    """Tokens separated by spaces, with a new line after each brace (for readable lines)."""
    out = []
    for t in tokens:
        out.append(t)
        out.append("\n" if t in ("{", "}") else " ")
    return "".join(out).strip() + "\n"


class Program(NamedTuple):
    mode: str
    text: str


def _choices(draw, per_choice: bool, size: int):
    if per_choice:
        return DrawChoices(draw)
    # in chunks of 1,000 bytes: Hypothesis prints an integer in decimal, at most 4,300 digits
    chunks = []
    while size > 0:
        width = min(size, 1000)
        chunks.append(draw(st.integers(0, 2 ** (8 * width) - 1)).to_bytes(width, "little"))
        size -= width
    return ByteChoices(b"".join(chunks))


@st.composite
def _free(draw, g: Grammar, per_choice: bool = False):
    c = _choices(draw, per_choice, 1500)
    low = g.alts[g.start][-1].height
    b = _Builder(g, c, max_depth=low + c.below(40 - low), max_tokens=300)
    b.expand(g.start, 0)
    return Program("free", join_tokens(b.out))


@st.composite
def _skeleton(draw, g: Grammar, per_choice: bool = False):
    c = _choices(draw, per_choice, 3000)
    doc = g.docs[c.below(len(g.docs))]
    b = _Builder(g, c, max_depth=18 + c.below(12), max_tokens=400)
    for origin, alt_symbols in doc.items:
        alt = next(a for a in g.alts[origin] if a.symbols == alt_symbols)
        b.expand(origin, 0, alt)
    return Program("skeleton", join_tokens(b.out))


@st.composite
def _splice(draw, g: Grammar, per_choice: bool = False):
    c = _choices(draw, per_choice, 300)
    doc = g.docs[c.below(len(g.docs))]
    picks = sorted({1 + c.below(len(doc.nodes) - 1) for _ in range(1 + c.below(3))})
    out: list[str] = []
    pos = 0
    for i in picks:
        origin, lo, hi, _ = doc.nodes[i]
        if lo < pos:
            continue          # inside a subtree already replaced
        out.extend(doc.tokens[pos:lo])
        if c.below(5) == 0 and g.by_origin.get(origin):
            out.extend(g.by_origin[origin][c.below(len(g.by_origin[origin]))])
        else:
            b = _Builder(g, c, max_depth=g.alts[origin][0].height + c.below(13), max_tokens=40, names=doc.names)
            b.expand(origin, 0)
            out.extend(b.out)
        pos = hi
    out.extend(doc.tokens[pos:])
    return Program("splice", join_tokens(out))


def grammar_programs(modes=("free", "skeleton", "splice"), per_choice: bool = False):
    """Programs derived from the grammar file (see the module docstring); ``per_choice``:
    one Hypothesis draw per choice instead of one byte string per program."""
    g = grammar()
    strategies = {"free": _free(g, per_choice), "skeleton": _skeleton(g, per_choice),
                  "splice": _splice(g, per_choice)}
    if not g.docs:            # no corpus: only free generation is possible
        modes = ("free",)
    return st.one_of(*(strategies[m] for m in modes))


# --------------------------------------------------------------------------- mutations
_TOKEN_RE = re.compile(r'"[^"\n]*"|\d+|[^\W\d]\w*|\.\.|<=|>=|!=|#[^\n]*|\S')
NUMBERS = (0, -1, 10**20, 10**7, 1, 2, 3, 99)
STRAY = ("\x00", "\ufeff", "\u200b", "\u0663", "\u00b2", "\u00bd", "\U0001d7d9", "\u00e9", "\u00df", "\u2028",
         "\x85", "\r", "\t", "\x0c", "\x1b[31m", '"', "{", "}", "(", ")", "#", "[/]", "[/bold]", "\\", "..", ":",
         ",", "-", "<", "=", "'")
RAW_BYTES = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc", b"\xfe\xff")


class Mutated(NamedTuple):
    """A mutated game file: its text (or raw bytes that may not be UTF-8), the variant to
    load it with (None: the base game) and the mutations applied, for the report."""

    name: str
    text: str
    raw: bytes | None
    variant: str | None
    steps: tuple


@functools.cache
def shipped_games() -> tuple:
    """(name, text, variant names) of every games/*.rules file."""
    out = []
    for path in sorted(GAMES_DIR.glob("*.rules")):
        text = path.read_text("utf-8")
        variants = tuple(re.findall(r"^\s*variant\s+(\w+)", text, re.M))
        out.append((path.name, text, variants))
    return tuple(out)


@st.composite
def _mutate_once(draw, text: str):
    lines = text.split("\n")
    kind = draw(st.sampled_from(("delete_line", "duplicate_line", "swap_lines", "replace_token", "keyword",
                                 "number", "stray", "glue", "duplicate_block", "truncate", "delete_range")))
    if kind in ("delete_line", "duplicate_line", "swap_lines", "duplicate_block"):
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "delete_line":
            del lines[i]
        elif kind == "duplicate_line":
            lines.insert(i, lines[i])
        elif kind == "swap_lines":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            j = draw(st.integers(i, min(len(lines), i + 12)))
            lines[j:j] = lines[i:j]
        return kind, "\n".join(lines)
    if kind == "truncate":
        p = draw(st.integers(0, len(text)))
        return f"truncate@{p}", text[:p]
    if kind == "stray":
        p = draw(st.integers(0, len(text)))
        ch = draw(st.sampled_from(STRAY))
        return f"stray {ch!r}@{p}", text[:p] + ch + text[p:]
    if kind == "delete_range":
        p = draw(st.integers(0, len(text)))
        q = draw(st.integers(p, min(len(text), p + 40)))
        return f"delete {p}..{q}", text[:p] + text[q:]
    tokens = [m for m in _TOKEN_RE.finditer(text) if not m.group().startswith("#")]
    if not tokens:
        return "noop", text
    if kind == "number":
        numbers = [m for m in tokens if m.group().isdigit()] or tokens
        m = draw(st.sampled_from(numbers))
        new = str(draw(st.sampled_from(NUMBERS)))
    elif kind == "glue":
        i = draw(st.integers(0, len(tokens) - 2)) if len(tokens) > 1 else 0
        m = tokens[i]
        gap_end = tokens[i + 1].start() if i + 1 < len(tokens) else m.end()
        return f"glue@{m.start()}", text[:m.end()] + text[gap_end:]
    else:
        m = draw(st.sampled_from(tokens))
        if kind == "keyword":
            new = draw(st.sampled_from(grammar().keywords))
        else:
            new = draw(st.sampled_from(sorted({t.group() for t in tokens})))
    return f"{kind} {m.group()!r}->{new!r}@{m.start()}", text[:m.start()] + new + text[m.end():]


@st.composite
def mutated_games(draw, max_mutations: int = 4):
    """A shipped game file with 1..max_mutations mutations and a variant to load it with."""
    name, text, variants = draw(st.sampled_from(shipped_games()))
    variant = draw(st.sampled_from((None,) + variants))
    steps = []
    for _ in range(draw(st.integers(1, max_mutations))):
        step, text = draw(_mutate_once(text))
        steps.append(step)
    raw = None
    if draw(st.integers(0, 29)) == 0:     # now and then bytes that are not UTF-8
        data = text.encode("utf-8")
        p = draw(st.integers(0, len(data)))
        raw = data[:p] + draw(st.sampled_from(RAW_BYTES)) + data[p:]
        steps.append(f"raw bytes@{p}")
    return Mutated(name, text, raw, variant, tuple(steps))


# --------------------------------------------------------------------------- human input
GARBAGE_LINES = ("", " ", "\t", "[/]", "[/bold]", "[bold]x", "[red]", "\\", "\\[", "\\[/]", "0", "-1", "+1", "1.5",
                 "1e3", " 1 ", "1 1", "1,2", "99999999999999999999", "9" * 5000, "\u0663", "\u00b2", "\u2460",
                 "\U0001d7d9", "\x00", "\x1b[2J", "P1", "P2", "P2 P3", "p1,p2", "P0", "P99", "all", "none",
                 "yes", "no", "true", "\u00fc", "💥", "%s", "{}", "{0}", "\u202e1", "１")


def human_lines(option_names=(), words=()):
    """Lines a person might type: garbage, small numbers, number lists, option names, and
    whole moves made of ``words`` (the game's option, card and value names, seats, words of
    labels) after an option's name."""
    moves = []
    if option_names and words:
        moves.append(st.tuples(st.sampled_from(tuple(option_names)),
                               st.lists(st.sampled_from(tuple(words)), max_size=5)).map(
            lambda t: " ".join((t[0].replace("_", " "),) + tuple(t[1]))))
    line = st.one_of(
        st.sampled_from(GARBAGE_LINES),
        st.integers(1, 6).map(str),
        st.lists(st.integers(-1, 12), min_size=0, max_size=5).map(lambda xs: " ".join(map(str, xs))),
        st.text(max_size=12),
        *( [st.sampled_from(tuple(option_names))] if option_names else []),
        *moves,
    )
    return line


# --------------------------------------------------------------------------- guards
class FuzzTimeout(BaseException):
    """An example ran past its time bound (a BaseException: no ``except Exception`` in the
    code under test swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise :class:`FuzzTimeout` in the main thread after ``seconds`` (SIGALRM)."""
    def fire(signum, frame):
        raise FuzzTimeout(f"over {seconds}s")
    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------- hidden values
#: a game whose action (or a procedure it calls) shows a value to every seat: ``{BODY}`` is
#: the body of the action, ``{ROUTE}`` a procedure ``route`` (or nothing)
LEAK_GAME = """\
game "Leaks"
players 2..4
deck {{
  card gold: count 4, points 3
  card lead: count 8, points 1
}}
zone hand: per player, seen by owner
zone stock: shared, holds the deck
group rich
claim golds(n) "{{n}} golds": true when n >= 0
setup {{
  shuffle stock
  deal 3 from stock to each hand
  go to play
}}
procedure show(k) {{
  log "{{k}}"
}}
procedure tell(k) {{
  let j = k + 1
  log "{{j}}"
}}
procedure pass_on(k) {{
  do tell(k)
}}
procedure pass_twice(k) {{
  let k2 = k * 2
  do pass_on(k2)
}}
procedure announce(k) {{
  claim golds(k)
}}
procedure enrol(k) {{
  let s = if k > 0 then P1 else P2
  add s to rich
}}
procedure greet(s: seat) {{
  log "{{s}}"
}}
procedure count_to(k) {{
  for each i in 1..k {{
    log "{{i}}"
  }}
}}
{ROUTE}
turn play clockwise {{
  action peek "peeks" {{
    {BODY}
    end deal
  }}
}}
match {{ deals until true }}
"""

#: values that read cards not every seat sees (``{S}``: a seat), as (text, kind); the kinds
#: are "num", "bool", "seat" and "seats" (a set of seats, only where seats are written)
SECRETS = (("count of (hand of {S} where gold)", "num"), ("total points of hand of {S}", "num"),
           ("count of (hand of {S} where lead) + count of hand of {S}", "num"),
           ("some card in hand of {S} is gold", "bool"), ("every card in hand of {S} is lead", "bool"),
           ("first of (q in everyone where some card in hand of q is gold)", "seat"),
           ("(q in everyone where some card in hand of q is gold)", "seats"))
#: the same kinds of values, read from what every seat sees
PUBLICS = (("count of hand of {S}", "num"), ("count of stock", "num"), ("count of hand of {S} + 1", "num"),
           ("count of hand of {S} > 2", "bool"), ("count of stock = 0", "bool"),
           ("first of (q in everyone where count of hand of q > 2)", "seat"),
           ("(q in everyone where count of hand of q > 2)", "seats"))
#: one step of computation: (from kind, to kind, template of ``{x}``, None)
STEPS = (("num", "num", "{x} + 1", None), ("num", "num", "{x} * 2", None),
         ("num", "num", "if {x} > 1 then {x} else 0", None), ("num", "num", "min({x}, 2)", None),
         ("num", "bool", "{x} > 0", None), ("num", "bool", "{x} = 2", None),
         ("bool", "num", "if {x} then 1 else 0", None), ("bool", "bool", "not {x}", None),
         ("bool", "seat", "if {x} then P1 else P2", None), ("seat", "bool", "{x} = P1", None),
         ("seat", "seat", "left of {x}", None), ("seats", "seat", "first of {x}", None))
#: a loop over the values a value gives: (from kind, to kind, its first line, its variable)
#: (``{k}``: the step's number, for distinct names)
LOOPS = (("num", "num", "for each i{k} in 1..{x} {{", "i{k}"), ("num", "num", "for each i{k} in {x}..3 {{", "i{k}"),
         ("seats", "seat", "for each q{k} in {x} {{", "q{k}"))
#: where a value reaches every seat, by the kind it takes ("any": a text's hole)
SINKS = (("any", 'log "{{{x}}}"'), ("any", 'log "P2 holds {{{x}}} of them"'), ("num", "claim golds({x})"),
         ("num", "do show({x})"), ("num", "do tell({x})"), ("num", "do pass_on({x})"),
         ("num", "do pass_twice({x})"), ("num", "do announce({x})"), ("num", "do enrol({x})"),
         ("num", "do count_to({x})"), ("seat", "do greet({x})"), ("seat", "add {x} to rich"),
         ("bool", "let rich be (r in everyone where {x})"), ("bool", "let s = if {x} then P1 else P2\nadd s to rich"),
         ("seats", "let rich be {x}"))
#: where the route runs: (the action's body around ``{B}``, the procedure ``route``, the seat)
CONTEXTS = (("{B}", "", "P2"), ("{B}", "", "actor"), ("{B}", "", "current"),
            ("for each p in everyone {{\n{B}\n}}", "", "p"),
            ("if count of hand of P2 > 0 {{\n{B}\n}}", "", "P2"),
            ("do route", "procedure route {{\n{B}\n}}", "P2"),
            ("do route(P2)", "procedure route(p: seat) {{\n{B}\n}}", "p"),
            ("for each p in everyone {{\ndo route(p)\n}}", "procedure route(p: seat) {{\n{B}\n}}", "p"))


def _paths() -> dict:
    """The fewest steps from each kind to each kind they reach, {(from, to): [step, …]}."""
    paths = {(k, k): [] for k in ("num", "bool", "seat", "seats")}
    changed = True
    while changed:
        changed = False
        for (a, b), path in list(paths.items()):
            for step in STEPS:
                if step[0] == b and ((a, step[1]) not in paths or len(paths[a, step[1]]) > len(path) + 1):
                    paths[a, step[1]] = path + [step]
                    changed = True
    return paths


PATHS = _paths()


class Leak(NamedTuple):
    """A game that shows a secret value to every seat (``text``: it must be refused), the
    same game with a public value in its place (``public``: it must load), and the route
    (``context=…; value=…; moves=…; sink=…``)."""

    text: str
    public: str
    route: str


def _operand(x: str, kind: str) -> str:
    """``x`` as an operand: parenthesized, but a name or a seat (``first of (…)``, written
    without parentheses) or a set of seats (in its own)."""
    return x if re.fullmatch(r"\w+", x) or kind in ("seat", "seats") else f"({x})"


def _route_lines(value: str, kind: str, moves, lets, sink: str) -> str:
    """The statements that take ``value`` through ``moves`` (a step, through a ``let`` when
    its flag in ``lets`` is set, or a loop over its values) to ``sink``; a step to a seat
    is always through a ``let`` (a seat is written as a name in most places)."""
    lines, closing, x = [], 0, _operand(value, kind)
    for k, ((_, kind, template, var), let) in enumerate(zip(moves, lets)):
        if var is not None:                     # a loop: its variable takes the values
            lines.append(template.format(x=x, k=k))
            x, closing = var.format(k=k), closing + 1
        elif let or kind == "seat" and template != "{x}":
            lines.append(f"let v{k} = {template.format(x=x)}")
            x = f"v{k}"
        else:
            x = _operand(template.format(x=x), kind)
    return "\n".join(lines + [sink.format(x=x)] + ["}"] * closing)


@st.composite
def leaky_games(draw):
    """A value that reads hidden cards (or, in ``public``, one every seat sees) taken
    through zero to three moves (steps of computation, each through a ``let`` or not, and
    loops over its values) to a ``log`` text, a claim, a group or a procedure that shows its
    value (also through other procedures), in an action, a loop, a condition or a procedure
    of its own."""
    i = draw(st.integers(0, len(SECRETS) - 1))
    secret, kind = SECRETS[i]
    body, route, seat = draw(st.sampled_from(CONTEXTS))
    moves = []
    for _ in range(draw(st.integers(0, 3))):
        # the value itself (not of a set of seats, which no 'let' holds), a step or a loop
        same = [] if kind == "seats" else [(kind, kind, "{x}", None)]
        move = draw(st.sampled_from(same + [m for m in STEPS + LOOPS if m[0] == kind]))
        moves.append(move)
        kind = move[1]
    sink_kind, sink = draw(st.sampled_from([s for s in SINKS if (s[0] == "any" and kind != "seats")
                                            or (kind, s[0]) in PATHS]))
    moves += PATHS.get((kind, sink_kind), [])
    lets = [draw(st.booleans()) for _ in moves]
    texts = []
    for value in (secret, PUBLICS[i][0]):
        block = _route_lines(value.format(S=seat), SECRETS[i][1], moves, lets, sink)
        texts.append(LEAK_GAME.format(BODY=body.format(B=block), ROUTE=route.format(B=block)))
    shown = [("let " if let and m[3] is None else "") + m[2] for m, let in zip(moves, lets)]
    return Leak(texts[0], texts[1], f"context={body.split(chr(10))[0]}; value={secret}; moves={shown}; sink={sink}")


# --------------------------------------------------------------------------- control characters
#: control characters a rules file may not hold: C0 (but tab and newline; a carriage return
#: only before a newline), DEL, C1 (U+009B CSI, U+009D OSC, U+0085 NEL) and the controls of
#: bidirectional text, and the line breaks U+2028 and U+2029
CONTROLS = ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\r", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x8d", "\x9b",
            "\x9c", "\x9d", "\x9f", "\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
            "\u2066", "\u2067", "\u2068", "\u2069", "\u2028", "\u2029")
#: whole sequences: OSC 52 (write the clipboard), clear the screen, set the window's title,
#: erase a line, a right-to-left override that makes a name read backwards…
SEQUENCES = ("\x1b]52;c;aGk=\x07", "\x1b[2J", "\x1b]0;title\x07", "\x1b[31m", "\x1b[1A\x1b[2K", "\r\x1b[K", "\x9b2J",
             "\x9d0;t\x9c", "\x1bP+q\x1b\\", "\u202egnp.exe", "\u2066x\u2069", "\x00\x00")
#: characters that are no control: a text may hold them (a byte-order mark and a zero-width
#: space are invisible; U+2028 and U+2029, which break lines in some viewers, are refused
#: with the controls)
ODD_TEXT = ("\ufeff", "\u200b", "\ufeff\u200b")
#: what a file's name may hold of them (no NUL, no slash)
FILE_NAME_PARTS = tuple(s for s in SEQUENCES + CONTROLS + ODD_TEXT if "\x00" not in s and "/" not in s)
#: how the first word of a line names the quoted text on it
TEXT_PLACES = {"game": "title", "card": "card label", "claim": "claim label", "action": "action label",
               "log": "log text", "choose": "prompt", "variant": "variant label", "require": "require reason"}
#: the characters the rules refuse (the documented rule, as the test's oracle)
REFUSED_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]"
                        "|\r(?!\n)")


class Tainted(NamedTuple):
    """A corpus text with a control sequence (or an odd character) inserted at ``at``, in
    a place of kind ``place`` ("title", "card label", …, "name", "comment"); ``refused``:
    the text holds a character the rules refuse; ``file_part``: a control sequence for the
    file's name too (or "")."""

    name: str
    text: str
    place: str
    inserted: str
    at: int
    refused: bool
    file_part: str


def _places(text: str) -> list:
    """Every (kind of place, start, end) where a character may go: inside each quoted text
    (named by the first word of its line), inside or at the ends of each name, in each
    comment."""
    out = []
    keywords = set(grammar().keywords)
    for m in _TOKEN_RE.finditer(text):
        token, lo, hi = m.group(), m.start(), m.end()
        if token.startswith('"') and len(token) >= 2:
            first = text[text.rfind("\n", 0, lo) + 1:lo].split()
            out.append((TEXT_PLACES.get(first[0] if first else "", "text"), lo + 1, hi - 1))
        elif token.startswith("#"):
            out.append(("comment", lo + 1, hi))
        elif _is_name(token) and token not in keywords:
            out.append(("name", lo, hi))
    return out


@functools.cache
def _corpus_places() -> tuple:
    """(name, text, {kind of place: [(start, end), …]}) of each corpus file."""
    out = []
    for path in CORPUS_PATHS:
        text = path.read_text("utf-8")
        by_kind: dict = defaultdict(list)
        for kind, lo, hi in _places(text):
            by_kind[kind].append((lo, hi))
        out.append((path.name, text, dict(by_kind)))
    return tuple(out)


@st.composite
def tainted_games(draw):
    """A corpus file with one or two insertions, each a control character, a control
    sequence or an odd character (a byte-order mark, a zero-width space), into a kind of place (a
    title, a card, claim or action label, a log text, a prompt, a variant label, a name, a
    comment) drawn first, then one such place of the file."""
    name, text, by_kind = draw(st.sampled_from(_corpus_places()))
    inserted = []
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(sorted(by_kind)))
        lo, hi = draw(st.sampled_from(by_kind[kind]))
        at = draw(st.integers(lo, hi))
        piece = draw(st.one_of(st.sampled_from(CONTROLS), st.sampled_from(SEQUENCES), st.sampled_from(ODD_TEXT)))
        inserted.append((at, piece, kind))
    # from the last place to the first, so that each position still holds
    for at, piece, _ in sorted(inserted, reverse=True):
        text = text[:at] + piece + text[at:]
    at, piece, kind = inserted[0]
    file_part = draw(st.sampled_from(FILE_NAME_PARTS)) if draw(st.integers(0, 7)) == 0 else ""
    return Tainted(name, text, kind, "".join(p for _, p, _ in inserted), at, bool(REFUSED_RE.search(text)), file_part)


# --------------------------------------------------------------------------- nested loops
#: a game whose one action runs ``{BODY}`` (loops around ``add 1 to n``, or calls of the
#: procedure ``{PROCEDURE}`` holding the inner ones) and then logs ``n``
LOOP_GAME = """\
game "Loops"
players 2..4
deck {{
  card c: count 8
}}
zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
counter n = 0
{PROCEDURE}
setup {{
  deal 1 from stock to each hand
  set current = P1
  go to t
}}
turn t {{
  action a {{
    {BODY}
    log "n = {{n}}"
    end deal
  }}
}}
"""
#: loop counts: small, around the limits (100,000 rounds a loop, 1,000,000 a step)
LOOP_COUNTS = (0, 1, 2, 3, 7, 10, 99, 100, 999, 1000, 1001, 10_000, 99_999, 100_000)


class Loops(NamedTuple):
    """An action whose body nests ``len(counts)`` loops around ``add 1 to n`` (the inner
    ones in a procedure from ``in_procedure`` on; a ``for each p in everyone`` loop counts
    None, the number of seats); ``players``: the seats to play it with."""

    text: str
    counts: tuple
    in_procedure: int | None
    players: int

    def rounds(self) -> tuple[int, int]:
        """(the rounds of all the loops together, the rounds of the innermost block): a
        loop's count is run once per round of the loops around it."""
        total, product = 0, 1
        for count in self.counts:
            product *= self.players if count is None else count
            total += product
        return total, product


def _loop_header(count: int | None, depth: int, form: str) -> str:
    """The first line of a loop of ``count`` rounds (None: over the seats) of ``form``
    ("repeat", "range"), its variable named after its ``depth``."""
    if count is None:
        return f"for each p{depth} in everyone {{"
    if form == "repeat":
        return f"repeat {count} times {{"
    return f"for each i{depth} in 1..{count} {{"


@st.composite
def nested_loops(draw):
    """Two to four loops inside one another (``repeat N times``, ``for each i in 1..N``,
    ``for each p in everyone``), N up to 100,000, around ``add 1 to n``; the inner loops
    may be in a procedure the outer ones call."""
    depth = draw(st.integers(2, 4))
    counts, forms = [], []
    for _ in range(depth):
        kind = draw(st.sampled_from(("repeat", "range", "seats")))
        counts.append(None if kind == "seats" else draw(st.one_of(st.sampled_from(LOOP_COUNTS),
                                                                    st.integers(0, 100_000))))
        forms.append(kind)
    in_procedure = draw(st.one_of(st.none(), st.integers(0, depth)))
    lines = [_loop_header(c, k, f) for k, (c, f) in enumerate(zip(counts, forms))]
    outer, inner = (lines, []) if in_procedure is None else (lines[:in_procedure], lines[in_procedure:])
    core = "\n".join(inner + ["add 1 to n"] + ["}"] * len(inner))
    if in_procedure is None:
        body, procedure = "\n".join(outer + [core] + ["}"] * len(outer)), ""
    else:
        body = "\n".join(outer + ["do inner"] + ["}"] * len(outer))
        procedure = f"procedure inner {{\n{core}\n}}"
    players = draw(st.integers(2, 4))
    return Loops(LOOP_GAME.format(BODY=body, PROCEDURE=procedure), tuple(counts), in_procedure, players)


# --------------------------------------------------------------------------- inputs that are no rules file
#: what a command may be handed instead of a rules file or a log: a device, a folder, a
#: named pipe without a writer, a link to itself, a missing file, random bytes, more than
#: 1 MiB, a rules file whose name holds control characters (made by the test in its folder)
ODD_FILES = ("/dev/zero", "/dev/null", "folder", "fifo", "loop", "missing", "random", "big", "rules")
#: the commands, as their arguments before the file (run: random bots, a few decisions)
ODD_COMMANDS = (("check",), ("explain",), ("run", "--bots", "random", "--seed", "1", "--max-decisions", "5"),
                ("compile",), ("replay",), ("replay", "--rules"), ("check", "-"))


class OddInput(NamedTuple):
    """A command and what it is handed: a kind of ODD_FILES, random bytes (for "random" and
    for standard input) and a control sequence the file's name holds (or "")."""

    command: tuple
    kind: str
    data: bytes
    name_part: str


@st.composite
def odd_inputs(draw):
    """A command of ODD_COMMANDS on a kind of input of ODD_FILES (``check -``: random
    bytes, or more than 1 MiB, on standard input), its name holding a control sequence one
    time in three (always for "rules")."""
    command = draw(st.sampled_from(ODD_COMMANDS))
    kind = draw(st.sampled_from(ODD_FILES))
    data = draw(st.one_of(st.binary(max_size=300), st.sampled_from(SEQUENCES).map(lambda s: s.encode("utf-8"))))
    name_part = ""
    if kind == "rules" or draw(st.integers(0, 2)) == 0:
        name_part = draw(st.sampled_from(FILE_NAME_PARTS))
    return OddInput(command, kind, data, name_part)


# --------------------------------------------------------------------------- crafted logs
#: JSON values a crafted log puts where a header or record field was
HOSTILE_VALUES = (None, True, False, 0, -1, 1, 2, 10**30, -10**30, 1.5, 1e308, "", "x", "P1", "P0", "P99",
                  [], [1, 2], [None], ["nope"], {}, {"a": 1}, {"type": "header"}, "\x1b]52;c;aGk=\x07", "\x1b[2J",
                  "\x1b]0;title\x07", "\u202eevil", "a\u2028b", "a\u2029b", "a\x85b", "\x9b2J", "a\nb", "a\rb",
                  "/dev/zero", "/dev/null", "/", ".", "-", "../../../../etc/passwd", "x" * 100_000,
                  "0" * 64, "a" * 64, "decline", "header")
#: numbers as a log's text may write them: more digits than Python reads (4,300), past a
#: float, JSON's forbidden NaN and Infinity, a 64-bit edge
HUGE_NUMBERS = (b"9" * 5000, b"-" + b"9" * 4301, b"1" + b"0" * 400, b"1e999", b"-1e999", b"NaN", b"Infinity",
                b"-Infinity", b"18446744073709551617", b"1.0", b"-0")
#: the kinds of mutation of a log
LOG_MUTATIONS = ("header field", "drop header field", "record field", "truncate", "raw bytes", "line break",
                 "deep nesting", "huge number", "delete line", "duplicate line", "swap lines", "garbage line")
GARBAGE_LOG_LINES = (b"", b"{}", b"[]", b"null", b"1", b'"x"', b'{"type": 1}', b'{"type": "header"}',
                     b'{"type": "decision"}', b'{"type": "event"}', b"\xff\xfe", b"\x1b[2J", b"{" * 10,
                     b'{"type": "event", "kind": "log", "data": {"text": "\x1b]0;t\x07"}}')


def _json_line(record) -> bytes:
    # ensure_ascii=False: a U+2028 or a control character goes into the line as it is
    return json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass")


@st.composite
def _mutate_log(draw, lines: list):
    """One mutation of a log's lines (bytes, without their newlines), in place; returns its
    description."""
    kind = draw(st.sampled_from(LOG_MUTATIONS))
    i = draw(st.integers(0, len(lines) - 1))
    if kind in ("header field", "drop header field", "record field", "line break", "huge number"):
        if kind != "record field":
            i = 0
        try:
            record = json.loads(lines[i])
        except (ValueError, RecursionError):
            return f"{kind}: line {i + 1} is no JSON"
        if not isinstance(record, dict) or not record:
            return f"{kind}: line {i + 1} is no object"
        target = record
        if kind == "record field" and isinstance(record.get("data"), dict) and record["data"] and draw(st.booleans()):
            target = record["data"]
        key = draw(st.sampled_from(sorted(target) + ["seat", "extra"]))
        if kind == "drop header field":
            target.pop(key, None)
        elif kind == "line break":
            target[key] = f"{target.get(key)}{draw(st.sampled_from(ODD_TEXT + CONTROLS))}x"
        elif kind == "huge number":
            target[key] = "\0huge"              # replaced by the number's text below
        else:
            target[key] = draw(st.sampled_from(HOSTILE_VALUES))
        lines[i] = _json_line(record)
        if kind == "huge number":
            lines[i] = lines[i].replace(b'"\\u0000huge"', draw(st.sampled_from(HUGE_NUMBERS)))
        return f"{kind} {key!r} of line {i + 1}"
    if kind == "truncate":
        data = b"\n".join(lines)
        p = draw(st.integers(0, len(data)))
        lines[:] = data[:p].split(b"\n")
        return f"truncate at byte {p}"
    if kind == "raw bytes":
        p = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:p] + draw(st.sampled_from(RAW_BYTES)) + lines[i][p:]
        return f"raw bytes in line {i + 1} at {p}"
    if kind == "deep nesting":
        depth = draw(st.sampled_from((1000, 100_000)))
        lines[i] = b"[" * depth + b"]" * depth if draw(st.booleans()) else \
            lines[i][:-1] + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"
        return f"nesting {depth} deep in line {i + 1}"
    if kind == "delete line":
        del lines[i]
    elif kind == "duplicate line":
        lines.insert(i, lines[i])
    elif kind == "swap lines":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, draw(st.sampled_from(GARBAGE_LOG_LINES)))
    return f"{kind} {i + 1}"


class CraftedLog(NamedTuple):
    """A log written by ``rulekit run --log`` after one to three mutations (``steps``)."""

    data: bytes
    steps: tuple


@st.composite
def crafted_logs(draw, logs):
    """A log of ``logs()`` (a function giving real logs, as bytes: called when drawing,
    since they are written by rulekit) with one to three mutations: a header or record
    field set to a hostile JSON value or dropped, a line break or control character in a
    text, a huge number, nesting 100,000 deep, raw bytes that are not UTF-8, lines deleted,
    duplicated, swapped or added, the file truncated at any byte."""
    data = draw(st.sampled_from(logs()))
    lines = data.rstrip(b"\n").split(b"\n")
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        if not lines or lines == [b""]:
            break
        steps.append(draw(_mutate_log(lines)))
    ends = draw(st.booleans()) or "truncate" not in " ".join(steps)
    return CraftedLog(b"\n".join(lines) + (b"\n" if ends else b""), tuple(steps))
