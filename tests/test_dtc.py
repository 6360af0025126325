"""DTC (games/dtc.rules) against shared/rules/digest.md section 3 and its resolutions D1..D8.

Scenarios start a match, rig hands, stock and penalty piles with ``attrs.evolve`` (every one
of the 66 cards stays somewhere), then play offers, acceptances and refusals.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import Action, IllegalAction

from strategies import GAMES_DIR, cards_in_state, deck_counter, engine_for, seat_value, zone

PATH = str(GAMES_DIR / "dtc.rules")
ENGINE = engine_for(PATH)
HIGHER = engine_for(PATH, "higher_counts")
LITERAL = engine_for(PATH, "higher_counts_literal")
ACCEPT, REFUSE = Action("accept"), Action("refuse")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def K(label) -> int:
    """The kind index of a card: 1..6 or 'joker'."""
    return ENGINE.kind_named(str(label))


J = K("joker")


def value(kind: int):
    """A card's value, or None for a joker."""
    k = ENGINE.kinds[kind]
    return None if "wild" in k.flags else k.attr("value")


def offer(cards, v: int) -> Action:
    return Action("offer", tuple(sorted(cards)), (v,))


def start(n: int, seed: int = 0, engine=ENGINE):
    rng = random.Random(seed)
    state, _ = engine.new_match(n, rng)
    return state, rng


def hand(state, seat, engine=ENGINE):
    return zone(engine, state, "hand", seat)


def penalty(state, seat, engine=ENGINE):
    return zone(engine, state, "penalty", seat)


def stock(state, engine=ENGINE):
    return zone(engine, state, "stock", None)


def layout(state, hands: dict, stock_cards=None, penalties: dict | None = None, sink: int | None = None,
           engine=ENGINE):
    """A copy of ``state`` with the given hands and penalty piles (lists of kinds).

    ``stock_cards``: the stock (top last), or None for every card not placed elsewhere.
    Cards left over when the stock is given go to the penalty pile of seat ``sink``.
    """
    pool = Counter(engine.deck)
    placed = [k for cards in hands.values() for k in cards]
    placed += [k for cards in (penalties or {}).values() for k in cards]
    placed += list(stock_cards or ())
    pool.subtract(placed)
    assert all(v >= 0 for v in pool.values()), "more cards of a kind than the deck holds"
    rest = sorted(pool.elements())
    zones = [()] * len(state.zones)
    for s in range(state.n):
        zones[engine.zone_slot(state, "hand", s)] = tuple(hands.get(s, ()))
        zones[engine.zone_slot(state, "penalty", s)] = tuple((penalties or {}).get(s, ()))
    if stock_cards is None:
        zones[engine.zone_slot(state, "stock", None)] = tuple(rest)
    else:
        zones[engine.zone_slot(state, "stock", None)] = tuple(stock_cards)
        if rest:
            assert sink is not None, "say where the leftover cards go"
            slot = engine.zone_slot(state, "penalty", sink)
            zones[slot] = zones[slot] + tuple(rest)
    rigged = state._replace(zones=tuple(zones), known=())
    assert cards_in_state(rigged) == deck_counter(engine)
    return rigged


def donor_of(state, engine=ENGINE) -> int:
    d = engine.decision(state)
    assert d.phase == "give"
    return d.seat


def truly(cards, v: int) -> bool:
    """The base game: every card is v or a joker."""
    return all(value(k) in (None, v) for k in cards)


# A hand of up to 12 cards, as kinds (values 1..6 or joker).
card_kinds = st.sampled_from([K(v) for v in range(1, 7)] + [J])


# ---------------------------------------------------------------------------- deck and deal
def test_deck_is_54_numbers_and_12_jokers():
    """The deck: 9 cards of each value 1..6 and 12 wild jokers, 66 cards."""
    kinds = ENGINE.kinds
    numbers = [k for k in kinds if "wild" not in k.flags]
    jokers = [k for k in kinds if "wild" in k.flags]
    assert sorted(k.attr("value") for k in numbers) == [1, 2, 3, 4, 5, 6]
    assert all(k.count == 9 for k in numbers)
    assert len(jokers) == 1 and jokers[0].count == 12 and jokers[0].label == "joker"
    assert ENGINE.game.deck_size == 66
    for eng in (HIGHER, LITERAL):
        assert [(k.label, k.count, k.flags) for k in eng.kinds] == [(k.label, k.count, k.flags) for k in kinds]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_deal_six_each_rest_is_stock(n):
    """Each player gets 6 cards, the stock holds 66 - 6n, penalty piles and table are empty."""
    state, _ = start(n, seed=n)
    assert all(len(hand(state, s)) == 6 for s in range(n))
    assert len(stock(state)) == 66 - 6 * n
    assert all(penalty(state, s) == () for s in range(n))
    assert zone(ENGINE, state, "table") == ()
    assert donor_of(state) == seat_value(ENGINE, state, "first_donor")
    assert state.claim is None


def test_first_donor_is_random():
    """The first donor varies with the seed."""
    donors = {donor_of(start(4, seed)[0]) for seed in range(40)}
    assert donors == {0, 1, 2, 3}


# ---------------------------------------------------------------------------- offers
@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6), data=st.data())
def test_offer_passes_k_cards_with_public_count(n, seed, data):
    """An offer lays the k chosen cards face down; its count k is exact and every seat sees (k, v)."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    picked = data.draw(st.sets(st.integers(0, 5), min_size=1), label="positions in the hand")
    cards = [hand(state, donor)[i] for i in sorted(picked)]
    v = data.draw(st.integers(1, 6))
    after, _ = ENGINE.apply(state, offer(cards, v), rng)
    k = len(cards)
    table = zone(ENGINE, after, "table")
    assert sorted(table) == sorted(cards)
    assert after.claim[1] == (k, v) and after.claim[2] == donor
    for s in range(n):
        view = ENGINE.view(after, s)
        assert view.claim[:4] == ("offer", (k, v), donor, k)
        assert view.zone("table") == (k, None)
    d = ENGINE.decision(after)
    assert d.phase == "decide" and d.seat == (donor + 1) % n
    assert {o.name for o in d.options} == {"accept", "refuse"}
    # the count cannot be announced: an offer takes only the value
    assert not ENGINE.is_legal(state, Action("offer", tuple(sorted(cards)), (k + 1, v)))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, Action("offer", (), (v,)), rng)


@SETTINGS
@given(n=st.integers(2, 6), k=st.integers(1, 6), stock_size=st.integers(0, 8), seed=st.integers(0, 1000))
def test_donor_refills_to_six_while_the_stock_lasts(n, k, stock_size, seed):
    """After offering, the donor draws back up to 6 cards from the stock, as far as it goes."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    pool = list(ENGINE.deck)
    random.Random(seed).shuffle(pool)
    hands = {s: pool[6 * s:6 * s + 6] for s in range(n)}
    rest = pool[6 * n:]
    state = layout(state, hands, rest[:stock_size], sink=(donor + 1) % n)
    after, _ = ENGINE.apply(state, offer(hand(state, donor)[:k], 3), rng)
    assert len(hand(after, donor)) == min(6, 6 - k + stock_size)
    assert len(stock(after)) == max(0, stock_size - k)
    drawn = Counter(hand(after, donor)) - (Counter(hand(state, donor)) - Counter(hand(state, donor)[:k]))
    assert sorted(drawn.elements()) == sorted(rest[:stock_size][::-1][:k])   # from the top of the stock


def test_donor_with_more_than_six_does_not_refill_and_acceptor_waits():
    """The acceptor does not refill when accepting; as donor with more than 6 he draws nothing."""
    state, rng = start(3, 3)
    donor = donor_of(state)
    receiver = (donor + 1) % 3
    state, _ = ENGINE.apply(state, offer(hand(state, donor)[:3], 2), rng)
    stock_before = len(stock(state))
    state, _ = ENGINE.apply(state, ACCEPT, rng)
    assert len(hand(state, receiver)) == 9
    assert len(stock(state)) == stock_before
    assert donor_of(state) == receiver
    state, _ = ENGINE.apply(state, offer(hand(state, receiver)[:3], 4), rng)
    assert len(hand(state, receiver)) == 6                # 9 - 3, no refill
    assert len(stock(state)) == stock_before


# ---------------------------------------------------------------------------- accept
@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6), k=st.integers(1, 5), v=st.integers(1, 6),
       k2=st.integers(1, 11), v2=st.integers(1, 6))
def test_accept_takes_the_cards_and_must_offer_higher(n, seed, k, v, k2, v2):
    """Accepting takes the offered cards; the next offer must have the same count and a higher value, or more cards."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    receiver = (donor + 1) % n
    given_cards = hand(state, donor)[:k]
    before = hand(state, receiver)
    state, _ = ENGINE.apply(state, offer(given_cards, v), rng)
    state, _ = ENGINE.apply(state, ACCEPT, rng)
    assert Counter(hand(state, receiver)) == Counter(before) + Counter(given_cards)
    assert zone(ENGINE, state, "table") == ()
    assert donor_of(state) == receiver
    h = hand(state, receiver)
    assert len(h) == 6 + k
    k2 = min(k2, len(h))
    legal = ENGINE.is_legal(state, offer(h[:k2], v2))
    assert legal == (k2 > k or (k2 == k and v2 > v))


# ---------------------------------------------------------------------------- refuse
@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6),
       cards=st.lists(card_kinds, min_size=1, max_size=4), v=st.integers(1, 6))
def test_refuse_true_offer_goes_to_receiver_false_to_giver(n, seed, cards, v):
    """A refused offer goes to the receiver's penalty pile if true, else to the giver's; the taker opens afresh."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    receiver = (donor + 1) % n
    pool = Counter(ENGINE.deck) - Counter(cards)
    others = sorted(pool.elements())
    random.Random(seed).shuffle(others)
    hands = {s: others[6 * s:6 * s + 6] for s in range(n)}
    hands[donor] = list(cards) + others[6 * n:6 * n + 6 - len(cards)]
    state = layout(state, hands)
    state, _ = ENGINE.apply(state, offer(cards, v), rng)
    assert ENGINE.claim_holds_in(state) == truly(cards, v)
    state, events = ENGINE.apply(state, REFUSE, rng)
    taker = receiver if truly(cards, v) else donor
    assert sorted(penalty(state, taker)) == sorted(cards)
    assert all(penalty(state, s) == () for s in range(n) if s != taker)
    revealed = [e for e in events if e.kind == "reveal" and e.seat is None]
    assert revealed and sorted(revealed[0].data["cards"]) == sorted(cards)
    assert not state.is_terminal
    # whoever took the cards opens a fresh sequence, with no minimum
    assert state.claim is None
    assert donor_of(state) == taker
    assert ENGINE.is_legal(state, offer(hand(state, taker)[:1], 1))


# ---------------------------------------------------------------------------- the end
def end_state(n: int, seed: int, receiver_hand: int = 3, stock_cards=(), offered=(K(4), K(4)), v: int = 4):
    """The stock empty (or as given), the donor offering ``offered`` as v."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    receiver = (donor + 1) % n
    pool = Counter(ENGINE.deck) - Counter(offered) - Counter(stock_cards)
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    hands = {s: rest[3 * s:3 * s + 3] for s in range(n)}
    hands[donor] = list(offered) + hands[donor]
    hands[receiver] = rest[3 * n:3 * n + receiver_hand]
    # the cards not in hands or stock go to a penalty pile that plays no part
    state = layout(state, hands, list(stock_cards), sink=(receiver + 1) % n if n > 2 else donor)
    state, _ = ENGINE.apply(state, offer(offered, v), rng)
    return state, rng, donor, receiver


@pytest.mark.parametrize("n", [2, 3, 5])
def test_first_refusal_with_empty_stock_ends_the_game(n):
    """Once the stock is empty, acceptances go on but the first refusal ends the game."""
    state, rng, donor, receiver = end_state(n, 40)
    assert stock(state) == ()
    accepted, _ = ENGINE.apply(state, ACCEPT, rng)
    assert not accepted.is_terminal
    ended, _ = ENGINE.apply(state, REFUSE, rng)
    assert ended.is_terminal
    assert ENGINE.decision(ended) is None


def test_refusal_with_stock_left_does_not_end():
    """A refusal while the stock still has cards starts a fresh sequence instead of ending."""
    state, rng, donor, receiver = end_state(3, 41, stock_cards=(K(1), K(2), K(3), K(4)))
    assert len(stock(state)) == 1              # the donor (3 cards left) drew 3 of the 4
    after, _ = ENGINE.apply(state, REFUSE, rng)
    assert not after.is_terminal


def test_refusal_ends_when_the_refill_just_emptied_the_stock():
    """D3: a refill that empties the stock right before the refusal makes that refusal the last."""
    state, rng, donor, receiver = end_state(3, 42, stock_cards=(K(1), K(2)))
    assert stock(state) == ()
    assert len(hand(state, donor)) == 5        # 3 left + 2 drawn: the stock was too short for 6
    after, _ = ENGINE.apply(state, REFUSE, rng)
    assert after.is_terminal


@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6), cards=st.lists(card_kinds, min_size=1, max_size=3),
       v=st.integers(1, 6), data=st.data())
def test_score_is_fewest_penalty_cards_with_hand(n, seed, cards, v, data):
    """At the end each hand joins its penalty pile; the fewest cards win and ties share."""
    state, rng = start(n, seed)
    donor = donor_of(state)
    pool = Counter(ENGINE.deck) - Counter(cards)
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    # cut the rest into 2n random parts: hands and penalty piles
    cuts = sorted(data.draw(st.lists(st.integers(0, len(rest)), min_size=2 * n - 1, max_size=2 * n - 1)))
    parts = [rest[a:b] for a, b in zip([0] + cuts, cuts + [len(rest)])]
    hands = {s: parts[s] for s in range(n)}
    hands[donor] = list(cards) + hands[donor]
    penalties = {s: parts[n + s] for s in range(n)}
    state = layout(state, hands, [], penalties)
    state, _ = ENGINE.apply(state, offer(cards, v), rng)
    taker = (donor + 1) % n if truly(cards, v) else donor
    totals = {s: len(hand(state, s)) + len(penalty(state, s)) + (len(cards) if s == taker else 0)
              for s in range(n)}
    state, _ = ENGINE.apply(state, REFUSE, rng)
    assert state.is_terminal
    for s in range(n):
        assert hand(state, s) == ()
        assert len(penalty(state, s)) == totals[s]
    best = min(totals.values())
    assert state.winners == tuple(s for s in range(n) if totals[s] == best)


@pytest.mark.parametrize("third_penalty, winners", [(10, "donor+third"), (11, "donor"), (9, "third")])
def test_tie_shares_the_win(third_penalty, winners):
    """Fewest penalty cards (hand included, values ignored) win; equal counts share the win."""
    state, rng = start(3, 43)
    donor = donor_of(state)
    receiver, third = (donor + 1) % 3, (donor + 2) % 3
    hands = {donor: [K(2), K(2)], receiver: [K(3)], third: [K(1), K(1)]}
    penalties = {donor: [J] * 12, third: [K(6)] * 9 + [K(5)] * (third_penalty - 9)}
    state = layout(state, hands, [], penalties, sink=receiver)
    state, _ = ENGINE.apply(state, offer([K(2), K(2)], 2), rng)    # true: the receiver takes them
    state, _ = ENGINE.apply(state, REFUSE, rng)
    assert state.is_terminal
    assert len(penalty(state, donor)) == 12
    assert len(penalty(state, third)) == third_penalty + 2
    assert len(penalty(state, receiver)) > 12
    expected = {"donor+third": (donor, third), "donor": (donor,), "third": (third,)}[winners]
    assert state.winners == tuple(sorted(expected))


# ---------------------------------------------------------------------------- D1
def test_accept_illegal_when_nothing_could_beat_the_offer():
    """D1: with an empty hand after the stock ran out, a 6-valued offer cannot be accepted."""
    state, rng, donor, receiver = end_state(3, 44, receiver_hand=0, offered=(K(6), K(6)), v=6)
    assert hand(state, receiver) == () and stock(state) == ()
    d = ENGINE.decision(state)
    assert d.seat == receiver
    assert {o.name for o in d.options} == {"refuse"}
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, ACCEPT, rng)


def test_accept_legal_when_a_higher_value_is_possible():
    """D1: an empty-handed receiver may accept a 5-valued offer and raise it to 6 with the same cards."""
    state, rng, donor, receiver = end_state(3, 45, receiver_hand=0, offered=(K(5), K(5)), v=5)
    assert ENGINE.is_legal(state, ACCEPT)
    state, _ = ENGINE.apply(state, ACCEPT, rng)
    assert donor_of(state) == receiver
    assert ENGINE.is_legal(state, offer([K(5), K(5)], 6))
    assert not ENGINE.is_legal(state, offer([K(5), K(5)], 5))


def test_accept_legal_with_a_card_in_hand_even_after_a_six():
    """D1: a receiver holding a card may accept a 6-valued offer: he can offer one card more."""
    state, rng, donor, receiver = end_state(3, 46, receiver_hand=1, offered=(K(6), K(6)), v=6)
    assert ENGINE.is_legal(state, ACCEPT)
    state, _ = ENGINE.apply(state, ACCEPT, rng)
    three = hand(state, receiver)
    assert len(three) == 3
    assert ENGINE.is_legal(state, offer(three, 1))
    assert not ENGINE.is_legal(state, offer(three[:2], 6))


# ---------------------------------------------------------------------------- variant
@pytest.mark.parametrize("cards, v, base, higher, literal", [
    ((2, 5, 6), 2, False, True, False),        # the digest's D5 example
    ((5, 6, 6), 2, False, True, True),         # all higher
    ((2, 2, "joker"), 2, True, True, True),    # all exact, jokers wild
    ((1, 2, 2), 2, False, False, False),       # a lower card is a lie in every reading
    ((4, "joker", 6), 3, False, True, True),   # all higher, a joker
    ((3, 3, 3), 4, False, False, False),
])
def test_variant_higher_counts(cards, v, base, higher, literal):
    """The variant: an offer is also true when its cards are higher; {2,5,6} as 'three 2' is true only there."""
    kinds = [K(c) for c in cards]
    for engine, expected in ((ENGINE, base), (HIGHER, higher), (LITERAL, literal)):
        state, rng = start(3, 47, engine)
        donor = donor_of(state, engine)
        pool = Counter(engine.deck) - Counter(kinds)
        rest = sorted(pool.elements())
        hands = {s: rest[6 * s:6 * s + 6] for s in range(3)}
        hands[donor] = kinds + rest[18:21]
        state = layout(state, hands, engine=engine)
        state, _ = engine.apply(state, offer(kinds, v), rng)
        assert engine.claim_holds_in(state) == expected, engine.game.applied
        after, _ = engine.apply(state, REFUSE, rng)
        taker = (donor + 1) % 3 if expected else donor
        assert sorted(penalty(after, taker, engine)) == sorted(kinds), engine.game.applied


# ---------------------------------------------------------------------------- bounded work
def test_random_bot_decides_with_bounded_work_on_a_big_hand(monkeypatch):
    """RandomBot finds a legal offer for a 35-card hand facing (34, 5), the match judging its
    answers as ``play_match`` does, judging a bounded number of candidate actions (work is
    counted, not timed: speed belongs to benchmarks; the listings it asks for have budgets)."""
    from rulekit.play.match import MAX_REJECTIONS, player_decision
    from rulekit.players import RandomBot
    state, rng = start(2, 50)
    donor = donor_of(state)
    receiver = 1 - donor
    big = [K(1)] * 4 + [K(2)] * 7 + [K(3)] * 6 + [K(4)] * 2 + [K(5)] * 6 + [K(6)] * 6 + [J] * 3
    state = layout(state, {donor: big, receiver: [K(6)]}, [], sink=donor)
    state, _ = ENGINE.apply(state, offer(big, 5), rng)
    state, _ = ENGINE.apply(state, ACCEPT, rng)
    d = ENGINE.decision(state)
    assert d.seat == receiver and len(hand(state, receiver)) == 35 and state.claim[1] == (34, 5)
    examined = []
    original = type(ENGINE)._judge_of

    def counting(self, *args, **kwargs):        # an action judged (why_illegal, is_legal, apply)
        examined.append(1)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(type(ENGINE), "_judge_of", counting)
    view = ENGINE.view(state, receiver)
    for seed in range(6):
        examined.clear()
        bot = RandomBot(random.Random(seed))
        rejected = None
        for _ in range(MAX_REJECTIONS):
            action = bot.choose(view, player_decision(ENGINE, view, d, rejected))
            reason = ENGINE.why_illegal(state, action)
            if reason is None:
                break
            rejected = (action, reason)
        assert ENGINE.is_legal(state, action)
        assert 0 < len(examined) <= 25_000, f"seed {seed}: {len(examined)} candidate actions examined"
