"""The players: the human player re-asks after bad input; the bots choose legal actions."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from rulekit import Engine, load
from rulekit.cli import main
from rulekit.play.match import play_match, seat_rng
from rulekit.players import GenericBot, HumanPlayer, RandomBot

GAMES = Path(__file__).resolve().parent.parent / "games"


def _scripted(answers):
    it = iter(answers)

    def ask(prompt: str) -> str:
        return next(it)
    return ask


def _first_decision(name: str, players: int, seed: int = 1):
    engine = Engine(load(str(GAMES / name)))
    state, _ = engine.new_match(players, random.Random(seed))
    return engine, state, engine.decision(state)


def test_human_is_asked_again_after_an_unknown_option_and_an_illegal_choice():
    """A bad option number and an illegal card choice are explained, then a good entry is taken."""
    engine, state, decision = _first_decision("lugenbeutel.rules", 3)
    out = io.StringIO()
    console = Console(file=out, width=120)
    # option 9 does not exist; 'play' with no cards is illegal; then play card 1
    human = HumanPlayer(engine, console, _scripted(["9", "play", "", "play", "1"]))
    action = human.choose(engine.view(state, decision.seat), decision)
    text = out.getvalue()
    assert "'9' is not one of the options 1..3" in text
    assert "Not allowed: choose at least 1 card(s)" in text
    assert action.name == "play" and len(action.cards) == 1
    assert engine.is_legal(state, action)


def test_human_sees_only_its_own_hand():
    """The human's screen lists its own cards and only counts of the others' hands."""
    engine, state, decision = _first_decision("lugenbeutel.rules", 3)
    out = io.StringIO()
    human = HumanPlayer(engine, Console(file=out, width=200), _scripted(["pass"]))
    human.choose(engine.view(state, decision.seat), decision)
    text = out.getvalue()
    own = engine.view(state, decision.seat).zone("hand", decision.seat)[1]
    assert f"your hand: {human.grouped(own)}" in text
    assert text.count("hand 10 cards") == 2          # the two other hands, by count only
    others = [line for line in text.splitlines() if line.startswith(("P1", "P2", "P3"))]
    assert len(others) == 2 and all("hand 10 cards" in line for line in others)


def test_human_chooses_a_group_of_seats_by_name():
    """A choice of two seats is typed as 'P2 P3' and checked against the allowed groups."""
    engine = Engine(load(str(GAMES / "nimms_leich.rules")))
    state, _ = engine.new_match(4, random.Random(2))
    decision = engine.decision(state)
    assert decision.phase == "inspect"
    others = [s for s in range(4) if s != decision.seat]
    typed = f"P{others[0] + 1} P{others[1] + 1}"
    human = HumanPlayer(engine, Console(file=io.StringIO()), _scripted(["inspect", "P9 P1", "inspect", typed]))
    action = human.choose(engine.view(state, decision.seat), decision)
    assert action.params == ((others[0], others[1]),)


def test_cli_human_seat_plays_through_bad_input():
    """`rulekit run --human 1` shows the seat's view, rejects bad input and goes on."""
    runner = CliRunner()
    answers = "\n".join(["x", "offer", "1", "9", "offer", "1", "6"] + ["refuse"] * 200 + ["accept"] * 50) + "\n"
    result = runner.invoke(main, ["run", str(GAMES / "dtc.rules"), "--players", "2", "--seed", "4",
                                  "--human", "1", "--bots", "random", "--ask-always"], input=answers)
    assert "your decision" in result.output
    assert "'x' is not one of the options" in result.output
    assert "'9' is not one of 1, 2, 3, 4, 5, 6" in result.output
    assert "Traceback" not in result.output


def test_bots_only_choose_legal_actions_in_every_game():
    """Random and generic bots, from views alone, only ever choose legal actions."""
    for name, n in (("lugenbeutel.rules", 3), ("nimms_leich.rules", 4), ("dtc.rules", 3)):
        engine = Engine(load(str(GAMES / name)))
        for make in (lambda s: RandomBot(seat_rng(5, s)), lambda s: GenericBot(engine, seat_rng(5, s))):
            players = [make(s) for s in range(n)]
            rng = random.Random(5)
            state, _ = engine.new_match(n, rng)
            for _ in range(150):
                if state.is_terminal:
                    break
                d = engine.decision(state)
                action = players[d.seat].choose(engine.view(state, d.seat), d)
                assert engine.why_illegal(state, action) is None
                state, _ = engine.apply(state, action, rng)


def test_generic_bot_plays_whole_matches():
    """Generic bots finish a match of each game (Lügenbeutel with 2 players, to 500 points)."""
    for name, n in (("lugenbeutel.rules", 2), ("nimms_leich.rules", 3), ("dtc.rules", 4)):
        engine = Engine(load(str(GAMES / name)))
        record = play_match(engine, [GenericBot(engine, seat_rng(1, s)) for s in range(n)], n, 1,
                            max_steps=200_000)
        assert record.state.is_terminal and record.winners


def test_cli_simulate_reports_wins_for_every_seat():
    """`rulekit simulate` plays the matches and reports a row per seat and the match lengths."""
    result = CliRunner().invoke(main, ["simulate", str(GAMES / "dtc.rules"), "--games", "4", "--players", "3"])
    assert result.exit_code == 0, result.output
    for seat in ("P1", "P2", "P3"):
        assert seat in result.output
    assert "decisions per match: min" in result.output
    # the win share of each seat's row (the cell before its interval): they add up to 100 %
    first_table = result.output.split("└")[0]
    rows = [line.split("│") for line in first_table.splitlines() if line.startswith("│ P")]
    shares = [float(row[3].strip().rstrip("%")) for row in rows]
    assert len(shares) == 3 and abs(sum(shares) - 100.0) < 0.5


class _Historian(RandomBot):
    """A random bot that reads its public history and keeps what it saw at each decision."""

    uses_history = True

    def __init__(self, rng):
        super().__init__(rng)
        self.snapshots = []

    def choose(self, view, decision):
        self.snapshots.append((view.seat, tuple(view.history)))
        return super().choose(view, decision)


def test_a_player_that_reads_its_history_gets_what_its_seat_perceived():
    """View.history holds, in order, the events the seat perceived (no private show to
    another seat, no hidden card), and grows from one decision to the next."""
    engine = Engine(load(str(Path(__file__).resolve().parent.parent / "games" / "nimms_leich.rules")))
    bots = [_Historian(random.Random(s)) for s in range(4)]
    play_match(engine, bots, 4, seed=3)
    for bot in bots:
        previous = ()
        for seat, history in bot.snapshots:
            assert history[:len(previous)] == previous
            previous = history
            for e in history:
                assert not (e.kind == "show" and e.seat != seat)
                if e.kind in ("move", "draw") and any(c is not None for c in e.data["cards"]):
                    assert engine._sees(e.data["to"], seat, 4) or all(
                        engine._sees(s, seat, 4) for s in e.data.get("from", ()))
        assert bot.snapshots and len(previous) > 10
    assert () == tuple(engine.view(play_match(engine, [RandomBot(random.Random(0))] * 4, 4, 1).state, 0).history)


def test_the_generic_bot_weighs_the_claims_it_heard_earlier_in_the_deal():
    """An earlier bid of the claimant ("4 × 3") makes states with many threes likelier, so
    the bot rates the standing bid "5 × 3" as more probably true than without that history;
    a claim of its own, or one from before the deal began, changes nothing."""
    import attrs

    from rulekit import Action
    from rulekit.engine import Event

    engine = Engine(load(str(GAMES / "liars_dice.rules"), ["five_dice"]))
    state, _ = engine.new_match(2, random.Random(4))
    for bid in ((1, 1), (5, 3)):
        state, _ = engine.apply(state, Action("bid", (), bid), random.Random(0))
    view = engine.view(state, 0)
    assert ("bid", (5, 3), 1) == view.claim[:3]

    def estimate(*events):
        bot = GenericBot(engine, random.Random(7), samples=300)
        return bot.p_claim(attrs.evolve(view, history=(Event("deal_start", None, {"deal": 1}),) + events))

    def heard(seat, args):
        return Event("claim", None, {"seat": seat, "claim": "bid", "args": args, "text": ""})

    plain = estimate()
    assert 0 < plain < 1
    assert estimate(heard(1, (4, 3))) > plain
    assert estimate(heard(1, (4, 3)), heard(1, (5, 3))) == estimate(heard(1, (4, 3)))  # the standing bid is left out
    assert estimate(heard(0, (4, 3))) == plain                        # its own bid tells it nothing
    before = attrs.evolve(view, history=(heard(1, (4, 3)), Event("deal_start", None, {"deal": 2})))
    assert GenericBot(engine, random.Random(7), samples=300).p_claim(before) == plain


class _Reader(RandomBot):
    """A random bot that reads option texts (as a player that does not say otherwise)."""

    uses_texts = True

    def __init__(self, rng, seen):
        super().__init__(rng)
        self.seen = seen

    def choose(self, view, decision):
        self.seen.extend((o.name, o.label, o.shown) for o in decision.options)
        return super().choose(view, decision)


class _Skipper(_Reader):
    uses_texts = False


def test_option_texts_are_built_only_for_players_that_read_them():
    """A bot that says it reads no texts gets each option's name as its label and no value
    names; one that reads them gets the labels of the rules; the match is the same."""
    engine = Engine(load(str(GAMES / "liars_dice.rules")))
    logs, seen = [], {}
    for kind in (_Reader, _Skipper):
        seen[kind] = []
        record = play_match(engine, [kind(seat_rng(3, s), seen[kind]) for s in range(2)], 2, 3)
        logs.append(record.log)
    assert logs[0] == logs[1]
    assert any(label != name for name, label, _ in seen[_Reader])            # e.g. "bids {q} × {f}"
    assert any(shown for _, _, shown in seen[_Reader])
    assert all(label == name and shown == () for name, label, shown in seen[_Skipper])


def _game_setups():
    for path in sorted(GAMES.glob("*.rules")):
        base = load(str(path))
        for variant in (None,) + tuple(v[0] for v in base.variants):
            game = base if variant is None else load(str(path), variants=(variant,))
            low, high = game.players
            yield pytest.param(path.name, variant, low, high, id=f"{path.stem}-{variant or 'base'}")


@pytest.mark.parametrize("name, variant, low, high", list(_game_setups()))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 100))
def test_every_choice_within_an_exact_option_is_legal(name, variant, low, high, seed, pick):
    """An option marked exact (the bots take its choices unchecked) has no illegal choice:
    random choices within its cards, counts and values are all legal, at every decision
    of random matches of every shipped game and variant."""
    from rulekit.players.base import random_concrete, random_legal

    engine = Engine(load(str(GAMES / name), variants=() if variant is None else (variant,)))
    n = low + pick % (high - low + 1)
    rng = random.Random(seed)
    state, _ = engine.new_match(n, rng)
    for _ in range(300):
        if state.is_terminal:
            break
        decision = engine.decision(state, texts=False)
        for option in decision.options:
            if option.exact:
                for _ in range(3):
                    action = random_concrete(option, rng)
                    assert engine.why_illegal(state, action) is None, (option, action)
        state, _ = engine.apply(state, random_legal(decision, rng), rng, texts=False)


def test_an_option_whose_require_reads_a_choice_is_not_exact():
    """A bid that must beat the standing claim needs checking; a plain call does not."""
    engine, state, decision = _first_decision("liars_dice.rules", 2)
    state, _ = engine.apply(state, engine.legal_actions(state)[0], random.Random(1))
    exact = {o.name: o.exact for o in engine.decision(state).options}
    assert exact == {"bid": False, "liar": True}


def test_dealing_some_zones_deals_them_as_a_whole_state_would():
    """``sampler(...).zones(rng, slots)`` gives the hidden zones asked for their sizes, the
    cards the seat knows are there, and the same distribution of kinds as whole sampled
    states (compared on the mean count of each kind over 3,000 deals of each)."""
    from collections import Counter

    from rulekit.players.determinize import sampler

    engine = Engine(load(str(GAMES / "lugenbeutel.rules")))
    rng = random.Random(5)
    state, _ = engine.new_match(4, rng)
    for _ in range(40):                       # some play, so that the table holds cards
        state, _ = engine.apply(state, random_legal_of(engine, state, rng), rng, texts=False)
    view = engine.view(state, 0)
    draw = sampler(engine, view)
    hidden = [i for i, z in enumerate(view.zones) if z[3] is None and z[2]]
    assert len(hidden) >= 3
    whole, some = Counter(), Counter()
    for _ in range(3000):
        dealt = draw.zones(rng, hidden)
        full = draw(rng)
        for slot in hidden:
            assert len(dealt[slot]) == view.zones[slot][2]
            some.update((slot, k) for k in dealt[slot])
            whole.update((slot, k) for k in full.zones[slot])
    for key in set(whole) | set(some):
        a, b = whole[key] / 3000, some[key] / 3000
        assert abs(a - b) < 0.1 + 0.1 * max(a, b), (key, a, b)


def test_dealing_only_the_top_of_a_zone_deals_it_as_a_whole_state_would():
    """``zones(rng, slots, {slot: t})`` deals only the top ``t`` cards of that zone, with the
    same distribution of kinds as the top ``t`` cards of whole sampled states, the cards the
    seat knows to lie in the zone included (its own plays on the table: mean count of each
    kind over 4,000 deals of each); a zone without a top is dealt whole."""
    from collections import Counter

    from rulekit.players.determinize import sampler

    engine = Engine(load(str(GAMES / "lugenbeutel.rules")))
    rng = random.Random(5)
    state, _ = engine.new_match(4, rng)
    table = engine.zone_slot(state, "table")

    def known_on_table(state):
        view = engine.view(state, 0)
        return len(state.zones[table]) >= 6 and any(name == "table" for name, _, _ in view.known)
    for _ in range(400):                # play until seat 0 knows some of several cards on the table
        if known_on_table(state):
            break
        state, _ = engine.apply(state, random_legal_of(engine, state, rng), rng, texts=False)
    assert known_on_table(state)
    view = engine.view(state, 0)
    size = view.zones[table][2]
    hand = next(i for i, z in enumerate(view.zones) if z[0] == "hand" and z[1] == 1)
    draw = sampler(engine, view)
    top = 3
    whole, some = Counter(), Counter()
    for _ in range(4000):
        dealt = draw.zones(rng, [table, hand], {table: top})
        full = draw(rng)
        assert len(dealt[table]) == top and len(dealt[hand]) == view.zones[hand][2]
        some.update(("table", k) for k in dealt[table])
        whole.update(("table", k) for k in full.zones[table][size - top:])
        some.update(("hand", k) for k in dealt[hand])
        whole.update(("hand", k) for k in full.zones[hand])
    for key in set(whole) | set(some):
        a, b = whole[key] / 4000, some[key] / 4000
        assert abs(a - b) < 0.05 + 0.08 * max(a, b), (key, a, b)


def random_legal_of(engine, state, rng):
    from rulekit.players.base import random_legal

    return random_legal(engine.decision(state, texts=False), rng)


# ---------------------------------------------------------------------------- look-ahead helpers
def test_effects_runs_the_action_alone_and_judges_it():
    """Engine.effects: the claim a bid makes stands, nobody else has been asked (the phase
    and poll are those of the bid), an illegal action raises, a vote changes nothing."""
    from rulekit.errors import IllegalAction
    engine = Engine(load(str(GAMES / "liars_dice.rules")))
    state, _ = engine.new_match(2, random.Random(3))
    bid = next(a for a in engine.legal_actions(state) if a.name == "bid")
    after = engine.effects(state, bid, random.Random(0))
    assert after.claim is not None and after.claim[1] == bid.params
    assert engine.claim_rank(after) == engine.claim_order(state, "bid", bid.params)
    stepped, _ = engine.apply(state, bid, random.Random(0), False, False)
    assert stepped.claim == after.claim and engine.claim_holds_in(stepped) == engine.claim_holds_in(after)
    with pytest.raises(IllegalAction):
        engine.effects(stepped, bid, random.Random(0))          # a bid must beat the last one
    skull = Engine(load(str(GAMES / "skull.rules")))
    s, _ = skull.new_match(4, random.Random(1))
    place = skull.legal_actions(s)[0]
    assert skull.effects(s, place, random.Random(0)) == s


def test_claims_would_hold_agrees_with_claim_would_hold():
    engine = Engine(load(str(GAMES / "liars_dice.rules")))
    for seed in range(20):
        state, _ = engine.new_match(2, random.Random(seed))
        claims = [("bid", (q, f), seed % 2) for q in (1, 2) for f in range(1, 7)]
        assert engine.claims_would_hold(state, claims) == [engine.claim_would_hold(state, *c) for c in claims]
        assert any(engine.claims_would_hold(state, claims)) and not all(engine.claims_would_hold(state, claims))


def test_random_bot_is_uniform_over_the_options():
    """After a bid of 2 × 5 in one-die Liar's Dice only one bid of twelve (2 × 6) is legal:
    the bot still bids half the time and calls 'liar' half the time. It drew the option
    again after each illegal bid, and so called 'liar' about 92 % of the time."""
    from rulekit import Action
    engine = Engine(load(str(GAMES / "liars_dice.rules")))
    state, _ = engine.new_match(2, random.Random(1))
    state, _ = engine.apply(state, Action("bid", (), (2, 5)), random.Random(1))
    decision = engine.decision(state)
    bot = RandomBot(random.Random(7))
    picks = [bot.choose(None, decision) for _ in range(2000)]
    assert {a for a in picks if a.name == "bid"} == {Action("bid", (), (2, 6))}
    share = sum(a.name == "bid" for a in picks) / len(picks)
    assert 0.45 <= share <= 0.55, share
    # the same draws in a play-out step on a working copy
    from rulekit.players.base import random_step
    rng, bids = random.Random(7), 0
    for _ in range(600):
        live = engine.working_copy(state)
        random_step(engine, live, engine.decide_in_place(live, (False, False))[2], rng)
        bids += engine.snapshot(live).claim is not None and engine.snapshot(live).claim[1] == (2, 6)
    assert 0.42 <= bids / 600 <= 0.58, bids
