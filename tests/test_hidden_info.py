"""Hidden information by construction (issue 7, item 6).

A player receives its seat's view and a decision whose ``check``/``actions`` answer from a
state sampled from that view; nothing it can reach by following attributes, ``__dict__``,
``__slots__``, closures, bound methods, defaults, wrappers and containers leads to the true
state, to the match's generator or to a hidden card (the routes of ``reachable``; module
globals, the garbage collector and the call stack are out of scope: see docs/design.md).
The match judges every answer on the true state and asks again with the reason; bots'
generators do not give away the match seed, and the CLI draws 128-bit seeds.
"""

from __future__ import annotations

import functools
import hashlib
import io
import random
import re
import types
import weakref
import zlib
from collections import Counter

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulekit.cli.play
from rulekit import Action, Engine, RulesError, State, load, loads
from rulekit.cli import main
from rulekit.engine.compile import RulesRuntimeError
from rulekit.engine.runtime import Ctx
from rulekit.engine.state import Event
from rulekit.play.match import (MAX_REJECTIONS, IllegalAnswers, MatchTooLong, play_match, player_decision, seat_rng,
                                masked_state, view_state)
from rulekit.players import GenericBot, HumanPlayer, RandomBot
from rulekit.players.base import random_legal
from rulekit.players import determinize
from rulekit.players.determinize import sample_state
from strategies import COMBO_IDS, COMBOS, ROOT, walk

GAMES = ROOT / "games"
LUGENBEUTEL = GAMES / "lugenbeutel.rules"
COIN_BLUFF = ROOT / "docs" / "examples" / "coin_bluff.rules"

# A game whose rule reads a zone nobody sees (its size is hidden too): the decision's check,
# answering from a state sampled from the view, cannot know how many coins the box holds.
HIDDEN_COUNT = """\
game "Hidden count"
players 2

deck {
  card gold "gold coin": count 6
}

zone hand: per player, seen by owner
zone stock: shared, count only, holds the deck
zone box: shared, seen by nobody
zone bin: shared, seen by nobody

setup {
  deal 2 from stock to each hand
  move top 1 of stock to box
  set current = P1
  go to play
}

turn play {
  action give "gives {count of chosen} coin(s)" {
    choose 0..2 from your hand
    require count of chosen = count of box "as many coins as the box holds"
    move chosen to stock
    end deal
  }
}

match {
  winners: lowest count of your hand
}
"""


# ----------------------------------------------------------------------------- the walker
_LEAVES = (str, bytes, bytearray, int, float, complex, bool, type(None), range, types.ModuleType,
           type(Ellipsis), type(NotImplemented))


def _children(obj):
    """The objects one step away from ``obj`` by the routes a player may take."""
    if isinstance(obj, type):
        # classes of the library: a class attribute could hold a state (module globals are
        # out of scope, as are the classes of Python and of other libraries)
        if obj.__module__.startswith("rulekit") or obj.__module__ == __name__:
            yield from vars(obj).values()
        return
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, (tuple, list, set, frozenset)):
        yield from obj
    if isinstance(obj, types.CellType):
        try:
            yield obj.cell_contents
        except ValueError:          # an empty cell
            pass
        return
    if isinstance(obj, types.FunctionType):      # not __globals__: module globals are out of scope
        yield from obj.__closure__ or ()
        yield obj.__defaults__
        yield obj.__kwdefaults__
        yield obj.__dict__                        # holds __wrapped__ and any attribute set on it
        return
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        yield getattr(obj, "__self__", None)
        yield getattr(obj, "__func__", None)
        return
    if isinstance(obj, (staticmethod, classmethod)):
        yield obj.__func__
        return
    if isinstance(obj, property):
        yield from (obj.fget, obj.fset, obj.fdel)
        return
    if isinstance(obj, functools.partial):
        yield from (obj.func, obj.args, obj.keywords)
        return
    if isinstance(obj, weakref.ref):
        yield obj()
        return
    if isinstance(obj, (types.GeneratorType, types.CoroutineType)):
        yield getattr(obj, "gi_frame", None) or getattr(obj, "cr_frame", None)
        return
    if isinstance(obj, types.FrameType):          # only when some object holds one
        yield obj.f_locals
        yield obj.f_back
        return
    if isinstance(obj, types.TracebackType):
        yield from (obj.tb_frame, obj.tb_next)
        return
    if isinstance(obj, BaseException):
        yield from (obj.args, obj.__traceback__, obj.__context__, obj.__cause__)
    yield type(obj)
    wrapped = getattr(obj, "__wrapped__", None) if not isinstance(obj, (dict, tuple, list, set, frozenset)) else None
    if wrapped is not None:
        yield wrapped
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        yield d
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            try:
                yield getattr(obj, name)
            except AttributeError:
                pass


def reachable(*roots) -> list:
    """Every object reachable from ``roots`` through attributes, ``__dict__``, ``__slots__``,
    closure cells, bound methods' ``__self__``/``__func__``, defaults, ``__wrapped__``,
    containers, weak references, library classes, and frames or tracebacks if some object
    holds one; not through a module's globals, the garbage collector or the call stack."""
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, _LEAVES):
            continue
        todo.extend(_children(obj))
    return list(seen.values())


def _of_type(objects, cls) -> list:
    return [o for o in objects if isinstance(o, cls) and not isinstance(o, type)]


def _suspicious(objects) -> list:
    """Objects that should never be within a player's reach."""
    return [o for o in objects if isinstance(o, (Ctx, types.FrameType, types.TracebackType, types.GeneratorType))]


# ----------------------------------------------------------------------------- the cheater
class Cheater:
    """A bot that walks everything it can reach from its view, its decision, its engine and
    its generator before answering (with a random legal action), and keeps what it found.

    ``spy`` is the test's window on the truth (the true state, the match's generator); the
    cheater never walks it (it is not among the roots)."""

    uses_history = True

    def __init__(self, engine: Engine, rng: random.Random, spy: dict, walks: int = 40):
        self.engine = engine
        self.rng = rng
        self.spy = spy
        self.walks = walks
        self.asked = 0
        self.samples = 0

    def choose(self, view, decision):
        self.asked += 1
        walk = self.asked <= self.walks or self.asked % 10 == 0
        truth, match_rng = self.spy["state"], self.spy["rng"]
        knows: dict = {}            # what the seat was shown of hidden zones
        for name, owner, cards in view.known:
            knows[(name, owner)] = knows.get((name, owner), Counter()) | Counter(cards)
        hidden = [cards for (name, owner, count, seen), cards in zip(view.zones, truth.zones)
                  if seen is None and Counter(cards) - knows.get((name, owner), Counter())]
        # the route that used to give everything away
        assert getattr(decision.check, "__closure__", None) is None
        assert getattr(decision.actions, "__closure__", None) is None
        if walk:
            found = reachable(view, decision, self.engine, self.rng)
            # before check or actions is called, there is no state at all to find
            assert _of_type(found, State) == []
            self._no_truth(found, truth, match_rng, hidden)
        action = random_legal(decision, self.rng)
        if walk:
            decision.check(action)      # an exact option needs no check: make the sampled state anyway
            found = reachable(view, decision, self.engine, self.rng)
            states = _of_type(found, State)
            assert len(states) == 1 and states[0] is not truth
            # the state the check answered from is a function of the view alone: its
            # masked state where the phase's checks read only what the seat sees
            public = self.engine.public_checks[self.engine.phase_index(decision.phase)]
            assert states[0] == (masked_state if public else view_state)(self.engine, view)
            self.samples += 1
            self._no_truth(found, truth, match_rng, hidden)
        return action

    def _no_truth(self, found, truth, match_rng, hidden):
        ids = {id(o) for o in found}
        assert id(truth) not in ids, "the true state is within reach"
        assert id(truth.zones) not in ids
        assert id(match_rng) not in ids, "the match's generator is within reach"
        assert [r for r in _of_type(found, random.Random) if r is not self.rng] == []
        assert _suspicious(found) == []
        # the tuple of a hidden zone holding a card the seat does not know is never within reach
        assert not [cards for cards in hidden if id(cards) in ids]


#: the truth of the running match, for the test's eyes only (module globals are out of the
#: cheater's reach): the match's generator and the state after the last step
TRUTH: dict = {}


class SpyEngine(Engine):
    """An engine that shows the test (never the players) the match's generator."""

    def new_match(self, players, rng, events=True):
        TRUTH.clear()
        TRUTH["rng"] = rng
        return super().new_match(players, rng, events)


def _note_state(state, events):
    TRUTH["state"] = state


def test_the_walker_finds_the_state_behind_a_decision_of_the_api():
    """``Engine.decision(state)`` is for callers who own the state: its check is a closure
    over it, and the walker finds it (so the walker would have caught the old leak)."""
    engine = Engine(load(str(LUGENBEUTEL)))
    state, _ = engine.new_match(3, random.Random(1))
    found = reachable(engine.decision(state))
    assert any(o is state for o in found)
    assert any(o is state for o in reachable(engine.decision(state).check.__closure__))


def test_a_cheating_bot_reaches_no_state_no_generator_and_no_hidden_card():
    """Lügenbeutel, 3 players: a cheater walks everything it can reach at each decision;
    it finds no state before it asks a question, then only the state sampled from its own
    view, never the true state, the match's generator, a context or a hidden zone's cards."""
    engine = SpyEngine(load(str(LUGENBEUTEL)))
    cheaters = [Cheater(engine, seat_rng(11, 0), TRUTH)]
    players = cheaters + [RandomBot(seat_rng(11, s)) for s in (1, 2)]
    try:
        play_match(engine, players, 3, 11, on_events=_note_state, max_steps=400)
    except MatchTooLong:
        pass
    assert cheaters[0].samples >= 40
    # and after the match, the engine still holds no state, no generator, no context
    found = reachable(engine)
    assert _of_type(found, State) == [] and _of_type(found, random.Random) == [] and _suspicious(found) == []


def test_a_cheater_in_every_seat_of_every_game_finds_nothing():
    """Each shipped game (and a dice game): cheaters in every seat, a few decisions each."""
    for name, n in (("coup.rules", 3), ("skull.rules", 3), ("liars_dice.rules", 2), ("nimms_leich.rules", 3),
                    ("dtc.rules", 3)):
        engine = SpyEngine(load(str(GAMES / name)))
        samples = 0
        for seed in (4, 5, 6):
            players = [Cheater(engine, seat_rng(seed, s), TRUTH, walks=4) for s in range(n)]
            try:
                play_match(engine, players, n, seed, on_events=_note_state, max_steps=60)
            except MatchTooLong:
                pass
            samples += sum(p.samples for p in players)
        assert samples >= 6, name


def test_the_sampled_state_is_a_function_of_the_view():
    """The state a decision's check answers from is ``sample_state`` of the view with fixed
    chance (no shuffle, first faces, first choices), made faster: the same state, at every
    decision of random matches of every game (dice included)."""

    class Fixed(random.Random):
        def shuffle(self, x):
            pass

        def random(self):          # every card's sort key alike: no shuffle
            return 0.0

        def randint(self, a, b):
            return a

        def choice(self, seq):
            return seq[0]

    class Recorder(RandomBot):
        def __init__(self, rng, views):
            super().__init__(rng)
            self.views = views

        def choose(self, view, decision):
            self.views.append(view)
            return super().choose(view, decision)

    for path in sorted(GAMES.glob("*.rules")):
        engine = Engine(load(str(path)))
        n = engine.game.players[0] + 1 if engine.game.players[0] < engine.game.players[1] else engine.game.players[0]
        views: list = []
        try:
            play_match(engine, [Recorder(seat_rng(2, s), views) for s in range(n)], n, 2, max_steps=300)
        except MatchTooLong:
            pass
        assert views, path.name
        # the sampler deals Skull's discs by seat (determinize._owned), and fills what the
        # view hides besides cards (hidden counters as after setup, the votes cast)
        pooled = determinize._owned(engine) is None
        for view in views:
            made = view_state(engine, view)
            again = engine.view(made, view.seat, (), False)
            assert (again.zones, again.counters) == (view.zones, view.counters), path.name
            sampled = sample_state(engine, view, Fixed(0))
            bare = {"counters": (), "votes": ()} if pooled else {"zones": (), "counters": (), "votes": ()}
            assert made._replace(**bare) == sampled._replace(**bare), path.name


def test_the_engine_holds_no_state_after_matches_of_every_bot():
    """A bot built by the CLI holds the engine: the engine keeps no state, no generator and
    no context of any match, whether random or generic bots played it."""
    for name, n in (("lugenbeutel.rules", 3), ("coup.rules", 3)):
        engine = Engine(load(str(GAMES / name)))
        play_match(engine, [RandomBot(seat_rng(1, s)) for s in range(n)], n, 1)
        try:
            play_match(engine, [GenericBot(engine, seat_rng(2, s)) for s in range(n)], n, 2, max_steps=150)
        except MatchTooLong:
            pass
        found = reachable(engine)
        assert _of_type(found, State) == [], name
        assert _of_type(found, random.Random) == [], name
        assert _suspicious(found) == [], name


# ----------------------------------------------------------------------------- generators and seeds
_N, _M32 = 624, 0xFFFFFFFF


def _seeding_key(rng: random.Random, words: int) -> int:
    """The key ``rng`` was seeded with (``words`` 32-bit words, fewer than 622), recovered
    from its state alone by undoing the Mersenne Twister's ``init_by_array``: what any bot
    can do with its own generator."""
    def mix(x, c):
        return ((x ^ (x >> 30)) * c) & _M32
    final = rng.getstate()[1][:_N]
    after_first = [0] * _N          # the state between the two loops of init_by_array
    after_first[1] = ((final[1] + 1) ^ mix(final[_N - 1], 1566083941)) & _M32
    for i in range(3, _N):
        after_first[i] = ((final[i] + i) ^ mix(final[i - 1], 1566083941)) & _M32
    after_first[2] = ((final[2] + 2) ^ mix(after_first[1], 1566083941)) & _M32
    start = [19650218] + [0] * (_N - 1)
    for i in range(1, _N):
        start[i] = (1812433253 * (start[i - 1] ^ (start[i - 1] >> 30)) + i) & _M32
    key = {}
    for i in range(3, _N):
        j = (i - 1) % words
        key[j] = (after_first[i] - (start[i] ^ mix(after_first[i - 1], 1664525)) - j) & _M32
    return sum(key[j] << (32 * j) for j in range(words))


def test_a_seat_generator_gives_away_neither_the_match_generator_nor_the_seed():
    """A bot's generator is not the match's, draws differently, and its seeding key (which
    the bot can recover from its state) is a SHA-256 digest, not the seed. String seeding
    would spell the seed out: the same recovery reads it from such a generator."""
    seed = 2 ** 127 + 12345
    text = f"{seed}/seat/1"
    # the recovery works: from a generator seeded with the string, it reads the string
    words = (len(text) + 64 + 3) // 4
    key = _seeding_key(random.Random(text), words)
    assert key.to_bytes(words * 4, "big").lstrip(b"\0").startswith(text.encode())
    # the seat's generator: its key is the digest, which does not contain the seed
    mine = seat_rng(seed, 1)
    key = _seeding_key(mine, 8)
    assert key == int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")
    assert str(seed).encode() not in key.to_bytes(32, "big") and str(seed) not in str(key)
    # and it is neither the match's generator nor drawing the same numbers
    match_rng = random.Random(seed)
    assert mine is not match_rng
    assert [seat_rng(seed, 1).random() for _ in range(3)] != [match_rng.random() for _ in range(3)]
    assert seat_rng(seed, 0).getstate() != seat_rng(seed, 1).getstate()
    # the same seed still gives the same generator
    assert seat_rng(seed, 1).getstate() == mine.getstate()


TINY = """\
game "Tiny"
players 2
deck {
  card gold "gold": count 4
}
zone stock: shared, count only, holds the deck
zone hand: per player, seen by owner
setup {
  deal 1 from stock to each hand
  set current = P1
  go to turn
}
turn turn {
  action give "gives" {
    choose 1 from your hand
    move chosen to stock
    end deal
  }
}
"""


def _seed_printed(output: str) -> int:
    return int(re.search(r"seed (\d+)", output)[1])


def test_run_without_a_seed_draws_128_bits_from_the_system_and_prints_them(tmp_path, monkeypatch):
    """`rulekit run` without --seed prints a seed of 128 random bits (a bot could not find it by
    search); that seed plays the same match again."""
    path = tmp_path / "tiny.rules"
    path.write_text(TINY, encoding="utf-8")
    runs = [CliRunner().invoke(main, ["run", str(path), "--bots", "random"]) for _ in range(3)]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    seeds = [_seed_printed(r.stdout.splitlines()[0]) for r in runs]
    assert len(set(seeds)) == 3 and all(s < 2 ** 128 for s in seeds)
    assert max(seeds) >= 2 ** 100            # fails with probability 2**-84
    again = CliRunner().invoke(main, ["run", str(path), "--bots", "random", "--seed", str(seeds[0])])
    assert again.stdout == runs[0].stdout
    # the bits come from the operating system's generator, 128 of them
    asked = []

    def getrandbits(self, k):
        asked.append(k)
        return 2 ** 127 + 3

    monkeypatch.setattr(random.SystemRandom, "getrandbits", getrandbits)
    result = CliRunner().invoke(main, ["run", str(path), "-q"])
    assert asked == [128] and _seed_printed(result.stdout) == 2 ** 127 + 3


def test_simulate_without_a_seed_draws_one_prints_it_and_it_replays():
    """`rulekit simulate` without --seed prints the seed it drew; --seed with that seed gives
    the same figures; a typed seed is not printed again."""
    # random bots: the seed is what is tested (auto plays generic bots here, whose matches of
    # Coin bluff seldom end: three of 200,000 decisions took 1.5 minutes)
    result = CliRunner().invoke(main, ["simulate", str(COIN_BLUFF), "--games", "3", "--bots", "random"])
    assert result.exit_code == 0, result.output
    first, *table = result.stdout.splitlines()
    seed = _seed_printed(first)
    assert first == f"seed {seed} (--seed {seed} plays these matches again)"
    assert seed < 2 ** 128
    again = CliRunner().invoke(main, ["simulate", str(COIN_BLUFF), "--games", "3", "--bots", "random",
                                      "--seed", str(seed)])
    assert again.exit_code == 0 and again.stdout.splitlines() == table


# ----------------------------------------------------------------------------- the match judges
class Scripted:
    """Answers with the given actions first (None: a random legal one), keeping each decision."""

    def __init__(self, answers, rng):
        self.answers = list(answers)
        self.rng = rng
        self.decisions = []

    def choose(self, view, decision):
        self.decisions.append(decision)
        if self.answers:
            answer = self.answers.pop(0)
            if answer is not None:
                return answer
        return random_legal(decision, self.rng)


def test_an_illegal_answer_is_asked_again_with_the_reason():
    """A player that first answers with an illegal action is asked the same decision again,
    with (action, reason) in ``decision.rejected``; the match then goes on as if the player
    had answered legally at once (the rejection costs no chance, the log holds no trace)."""
    engine = Engine(load(str(COIN_BLUFF)))
    state, _ = engine.new_match(2, random.Random(5))
    first = engine.decision(state)
    wrong = Action("doubt")
    reason = engine.why_illegal(state, wrong)
    assert reason is not None
    stubborn = [Scripted([wrong], seat_rng(5, s)) if s == first.seat else Scripted([], seat_rng(5, s))
                for s in range(2)]
    record = play_match(engine, stubborn, 2, 5)
    asked = stubborn[first.seat].decisions
    assert asked[0].rejected is None
    assert asked[1].rejected == (wrong, reason)
    assert (asked[1].seat, asked[1].phase, asked[1].options) == (asked[0].seat, asked[0].phase, asked[0].options)
    assert asked[2].rejected is None
    clean = play_match(engine, [Scripted([], seat_rng(5, s)) for s in range(2)], 2, 5)
    assert record.log == clean.log


def test_endless_illegal_answers_stop_the_match_with_a_clear_error(tmp_path, monkeypatch):
    """After MAX_REJECTIONS illegal answers in a row the match stops with IllegalAnswers (a
    RulesRuntimeError, which the CLI reports as `path: error: …`, exit 2); an answer that is
    not an Action is rejected too, with a reason."""
    engine = Engine(load(str(COIN_BLUFF)))

    class Hopeless:
        def __init__(self, answer):
            self.answer = answer
            self.decisions = []

        def choose(self, view, decision):
            self.decisions.append(decision)
            return self.answer

    for answer, why in ((Action("doubt"), "'doubt' is not an action here"), (None, "must answer with an Action")):
        players = [Hopeless(answer), Hopeless(answer)]
        with pytest.raises(IllegalAnswers) as exc:
            play_match(engine, players, 2, 3)
        assert isinstance(exc.value, RulesRuntimeError)
        assert f"with {MAX_REJECTIONS} illegal actions in a row" in str(exc.value) and why in str(exc.value)
        asked = [d for p in players for d in p.decisions]
        assert len(asked) == MAX_REJECTIONS
        assert asked[-1].rejected[0] is answer and why in asked[-1].rejected[1]

    monkeypatch.setattr(rulekit.cli.play, "_make_players",
                        lambda engine, n, *rest: [Hopeless(Action("doubt")) for _ in range(n)])
    result = CliRunner().invoke(main, ["run", str(COIN_BLUFF), "--seed", "1", "-q"])
    assert result.exit_code == 2
    assert re.search(r"coin_bluff.rules: error: P\d answered 'play' with 100 illegal actions in a row "
                     r"\(the last: 'doubt' is not an action here", result.stderr)
    assert "Traceback" not in result.output


def test_a_check_that_misjudges_is_overruled_by_the_match_and_bots_recover():
    """The rule reads a zone nobody sees: the decision's check (from a state sampled from the
    view) accepts giving no coin, the true state wants one. The match rejects the answer with
    the rule's reason and asks again; random and generic bots then find the legal answer."""
    engine = Engine(loads(HIDDEN_COUNT, "hidden_count.rules"))
    state, _ = engine.new_match(2, random.Random(0))
    d = engine.decision(state)
    view = engine.view(state, d.seat)
    mine = player_decision(engine, view, d)
    assert mine.check(Action("give", (), ())) is None
    assert mine.check(Action("give", (0,), ())) == "as many coins as the box holds"
    assert engine.why_illegal(state, Action("give", (), ())) == "as many coins as the box holds"
    assert engine.why_illegal(state, Action("give", (0,), ())) is None

    class Counting:
        def __init__(self, bot):
            self.bot = bot
            self.rejected = []

        def choose(self, view, decision):
            if decision.rejected is not None:
                self.rejected.append(decision.rejected)
            return self.bot.choose(view, decision)

    for make in (lambda s: RandomBot(seat_rng(9, s)), lambda s: GenericBot(engine, seat_rng(9, s))):
        players = [Counting(make(s)) for s in range(2)]
        record = play_match(engine, players, 2, 9)
        assert record.state.is_terminal
        rejected = [r for p in players for r in p.rejected]
        # first the answer the check accepted; then unchecked answers, until one is legal
        assert rejected and rejected[0] == (Action("give", (), ()), "as many coins as the box holds")
        assert all(reason == "as many coins as the box holds" for _, reason in rejected)


def test_the_human_player_is_told_why_the_match_refused_and_asked_again():
    """A person whose answer passed the sampled check but not the true state reads the reason
    and types again; that answer goes to the match unchecked."""
    engine = Engine(loads(HIDDEN_COUNT, "hidden_count.rules"))
    answers = iter(["give", "", "give", "1"])
    out = Console(file=io.StringIO(), width=100)
    human = HumanPlayer(engine, out, lambda prompt: next(answers))
    record = play_match(engine, [human, RandomBot(seat_rng(1, 1))], 2, 0)
    assert "Not allowed: as many coins as the box holds. Try again." in out.file.getvalue()
    assert [(r["seat"], r["cards"]) for r in record.log if r["type"] == "decision"] == [("P1", ["gold coin"])]
    assert next(answers, None) is None


def test_a_card_known_in_a_zone_of_hidden_size_stays_in_sampled_states():
    """Skull: a seat that lost its skull into 'lost' (seen by nobody, size hidden) knows it
    is there; every state sampled from its view holds that skull there and every card of
    the match (the sampler used to drop it)."""
    import random
    from collections import Counter

    from rulekit.players.determinize import sample_state
    engine = Engine(load(str(GAMES / "skull.rules")))
    state, _ = engine.new_match(3, random.Random(1))
    skull = engine.kind_named("skull")
    lost = engine.zone_slot(state, "lost")
    hand = engine.zone_slot(state, "hand", 2)
    zones = list(state.zones)
    zones[hand] = tuple(k for k in zones[hand] if k != skull)
    zones[lost] = (skull,)
    state = state._replace(zones=tuple(zones), known=((2, lost, (skull,), False),))
    view = engine.view(state, 2)
    assert ("lost", None, (skull,)) in view.known
    for seed in range(20):
        drawn = sample_state(engine, view, random.Random(seed))
        assert skull in drawn.zones[lost]
        assert Counter(k for z in drawn.zones for k in z) == Counter(k for z in state.zones for k in z)
    assert skull in view_state(engine, view).zones[lost]


# ---------------------------------------------------------------------------- values routed to every seat
LEAKS = """\
game "Leaks"
players 2..4
deck {
  card gold: count 4
  card lead: count 8
}
zone hand: per player, seen by owner
zone stock: shared, holds the deck
group rich
claim golds(n) "{n} golds": true when n >= 0
setup {
  shuffle stock
  deal 3 from stock to each hand
  go to play
}
procedure tell(k) {
  let j = k + 1
  log "{j}"
}
procedure pass_on(k) {
  do tell(k)
}
turn play clockwise {
  action peek "peeks" {
    let n = count of (hand of P2 where gold)
    let public = count of hand of P2
    log "{public}"
    end deal
  }
}
match { deals until true }
"""

SECRET = "count of (hand of P2 where gold)"


def leak_error(route: str) -> str:
    """The first error of LEAKS with ``route`` after its 'let n' (it must be refused)."""
    text = LEAKS.replace('    log "{public}"\n', f'    log "{{public}}"\n{route}\n')
    with pytest.raises(RulesError) as exc:
        loads(text, "leaks.rules")
    return str(exc.value).splitlines()[0]


def test_a_public_value_through_let_and_a_procedure_is_accepted():
    """The count of a hand is public: a let and a procedure may show it."""
    loads(LEAKS.replace('    log "{public}"\n', '    log "{public}"\n    do pass_on(public)\n'))


@pytest.mark.parametrize("route, message", [
    ('    log "there are {n}"', "this text is shown to every seat, but it reads 'n', whose value reads the cards "
                                "of 'hand', which not every seat may see"),
    ('    let m = n * 2\n    log "{m}"', "it reads 'm', whose value reads 'n', whose value reads the cards of 'hand'"),
    ('    let m = if some card in hand of P2 is gold then 1 else 0\n    log "{m}"',
     "it reads 'm', whose value reads the cards of 'hand'"),
    ("    claim golds(n)", "a claim is announced to every seat, but this reads 'n'"),
    (f"    do tell({SECRET})", "'tell' shows its value 'k' to every seat (line 18), but this reads the cards of 'hand'"),
    ("    do pass_on(n)", "'pass_on' shows its value 'k' to every seat (line 21, then line 18), but this reads 'n'"),
    ("    let rich be (p in everyone where some card in hand of p is gold)",
     "every seat sees who is in a group, but this reads the cards of 'hand'"),
    ("    let s = first of (p in everyone where some card in hand of p is gold)\n    add s to rich",
     "every seat sees who is in a group, but this reads 's', whose value reads the cards of 'hand'"),
])
def test_a_hidden_value_is_refused_on_every_route_to_all_seats(route, message):
    """Issue 23, item 2: the rule follows the value, not its spelling: a hidden count shown
    through a let (also of a let, or of a conditional value), a claim's value, a
    procedure's value (also passed on), or a group's members is refused like the count
    itself."""
    assert message in leak_error(route)


# -- the play-by-play a person reads at the terminal
def _other_kind(engine: Engine, kind: int) -> int:
    """Another kind of piece of the same family (a card for a card, a face of the same die),
    or ``kind`` itself when it has no other."""
    kinds = engine.kinds
    if not 0 <= kind < len(kinds):
        return kind + 1
    same = [k for k in range(len(kinds)) if kinds[k].die == kinds[kind].die]
    return same[(same.index(kind) + 1) % len(same)]


def _falsified(engine: Engine, original, seen):
    """``original`` (an event's data) with every value missing or None in ``seen`` (what
    the people may perceive of it) changed to another."""
    if isinstance(original, dict):
        return {k: (_falsified(engine, v, seen[k]) if isinstance(seen, dict) and k in seen
                    else _falsified(engine, v, None) if seen is None or k in ("cards", "value")
                    else v[::-1] if isinstance(v, (tuple, list)) else v)
                for k, v in original.items()}
    if isinstance(original, (tuple, list)):
        parts = seen if isinstance(seen, (tuple, list)) and len(seen) == len(original) else (None,) * len(original)
        return tuple(_falsified(engine, v, s) for v, s in zip(original, parts))
    if seen is None and isinstance(original, int) and not isinstance(original, bool):
        return _other_kind(engine, original)
    return original


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
@pytest.mark.parametrize("people", [1, 2])
def test_the_play_by_play_tells_people_nothing_their_seats_may_not_see(combo, people):
    """`rulekit run --human`'s play-by-play prints the same lines when every card, face,
    count or order the people's seats may not see is changed to another: it gives none of
    them away (a private show to a person's own seat aside, and with people sharing the
    screen, the cards each one's move gave it, '  you get …', as its next prompt will)."""
    from rulekit.cli.play import _narrator

    engine, n = combo.engine, combo.players
    seed = zlib.crc32(combo.id.encode()) + people
    humans = sorted({seed % n, (seed + 1) % n}) if people == 2 else [seed % n]
    printed = []
    for falsify in (False, True):
        out = io.StringIO()
        narrate = _narrator(Console(file=out, width=400), engine, set(humans))
        for step in walk(engine, n, seed, max_steps=150):
            events = step.events
            if falsify:
                events = [ev if ev.seat in humans else
                          Event(ev.kind, ev.seat, _falsified(engine, ev.data, None if ev.seat is not None else
                                                            engine.observe_common(ev, humans, n).data))
                          for ev in events]
            narrate(step.after, events)
        printed.append([line for line in out.getvalue().splitlines()
                        if people == 1 or not line.startswith("  you get ")])
    assert printed[0] == printed[1]
    assert len(printed[0]) > 3


SHOWDOWN = """\
game "Showdown"
players 3
deck { card c: rank 1..6, count 2 }
combination high(x: rank) "{x} high": 1 of rank = x
combination pair(x: rank) "a pair of {x}s": 2 of rank = x
combinations poker: high < pair
zone stock: shared, holds the deck
zone hand: per player, seen by owner
zone box: shared, seen by nobody
zone board: shared, seen by all
die coin: 2 sides
counter gold per player = 0, seen by owner
group active
seat dealer = P1
setup {
  shuffle stock
  deal 2 from stock to each hand
  let active be everyone
  ROUTE
  end deal
}
"""


@pytest.mark.parametrize("route", [
    'log "{best 2 of hand of P2 by poker}"',
    'log "{hand of P2 has pair(6)}"',
    "let active be (p in everyone with highest best 2 of hand of p by poker)",
    "let active be (p in everyone where hand of p has pair(6))",
    # revealed, then the seats named otherwise before they are read
    "reveal every hand of active\n  let active be everyone\n  let active be (p in active where hand of p has pair(6))",
    'reveal hand of dealer\n  set dealer = P2\n  log "{best 2 of hand of dealer by poker}"',
    "reveal every hand of active\n  repeat 2 times { let active be (p in everyone where hand of p has pair(6)) }",
    # helper-38: a seat variable bound again inside, over seats whose hands were not revealed
    "let active be everyone except P2\n  reveal every hand of active\n"
    "  let active be (p in active where some p in everyone where (count of (hand of p where rank = 6) > 0))",
    "let active be everyone except P2\n  reveal every hand of active\n"
    "  log \"{highest of (count of seats in (p in active where true) + total rank of hand of p for p in everyone)}\"",
    "for each p in everyone except P2 {\n    reveal hand of p\n"
    "    log \"{count of seats in (p in everyone where total rank of hand of p >= 11)}\"\n  }",
    # helper-39: a counter hidden by a seat variable of its name, 'highest' of a hidden counter,
    # how many cards a zone seen by nobody holds, a seat taken out of a group, a set of seats
    # drawn by 'random', a seat variable read as 'r in G' bound again inside
    'set gold of P2 = 7\n  log "{total of (gold of gold for gold in everyone)}"',
    'log "{highest gold}"',
    'move (stock where rank > 4) to box\n  log "{count of box}"',
    "remove first of (p in everyone where total rank of hand of p >= 9) from active",
    "draw 2 from stock to board\n"
    "  reveal every hand of (p in everyone where count of (random 1 of board where rank > 3) = 1)\n"
    "  log \"{total rank of every hand of (p in everyone where count of (random 1 of board where rank > 3) = 1)}\"",
    "let active be (p in everyone where p = P2)\n  let r = P1\n  reveal every hand of (q in everyone where r in active)\n"
    "  log \"{total of (total of (total rank of hand of p for p in (q in everyone where r in active)) for r in everyone)}\"",
    "reveal every hand of (p in everyone where roll coin = 1)\n"
    "  log \"{total rank of every hand of (p in everyone where roll coin = 1)}\"",
])
def test_a_combination_of_hidden_cards_is_refused_where_every_seat_sees_it(route):
    """'best … by' and 'has' read the cards' faces as 'where' does: shown in a text or
    making a group, they told every seat of a hand it may not see (helper-37's Hold'em
    named the best hand's owner before any card was turned up)."""
    with pytest.raises(RulesError) as exc:
        loads(SHOWDOWN.replace("ROUTE", route))
    assert "which not every seat may see" in str(exc.value)


@pytest.mark.parametrize("route", [
    "reveal every hand of active\n  let active be (p in active with highest best 2 of hand of p by poker)",
    "reveal every hand of active\n  log \"{total of (best 2 of hand of p by poker for p in active)}\"",
    "reveal every hand of active\n  let active be (p in active where some q in everyone where (best 2 of hand of p by poker > 0))",
    'reveal hand of dealer\n  log "{best 2 of hand of dealer by poker}"',
])
def test_a_combination_of_revealed_cards_may_be_shown(route):
    """Right after 'reveal every hand of active' has turned them up, the hands of the
    seats of 'active' may be ranked and shown, also through a seat variable over them
    (a poker showdown: 'let winners be (p in active with highest best 5 of …)')."""
    loads(SHOWDOWN.replace("ROUTE", route))
