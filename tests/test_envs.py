"""rulekit.pettingzoo and rulekit.gym: every game file as a PettingZoo AEC environment and
as a Gymnasium environment of one seat (docs/rl.md): the libraries' own checks, seeding,
masks, rewards, illegal actions and opponents."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import rulekit.gym as rgym  # noqa: E402
import rulekit.pettingzoo as rpz  # noqa: E402
from strategies import ROOT, game_paths  # noqa: E402

GAMES = [str(p) for p in game_paths()] + [str(ROOT / "docs" / "examples" / "kuhn_poker.rules")]
IDS = [p.rsplit("/", 1)[-1][:-6] for p in GAMES]
SHORT = 600


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_pettingzoo_api_test(path):
    """PettingZoo's api_test passes (spaces, observations within them, masks, rewards
    accumulated, agents removed once done, step returning nothing, seeded reset)."""
    env = rpz.env(path, max_decisions=SHORT, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_gymnasium_check_env(path):
    """Gymnasium's check_env passes on seat P1 against random bots."""
    env = rgym.make(path, max_decisions=SHORT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def _play(env, seed, rng):
    env.reset(seed=seed)
    out = []
    for agent in env.agent_iter(5_000):
        obs, reward, terminated, truncated, _ = env.last()
        out.append((agent, float(obs["observation"].sum()), reward))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
    return out


def test_a_seeded_reset_plays_the_same_match():
    """Two resets with the same seed and the same actions give the same observations and
    rewards; another seed deals otherwise."""
    env = rpz.env(str(ROOT / "games" / "coup.rules"), players=3)
    first = _play(env, 11, np.random.default_rng(0))
    second = _play(env, 11, np.random.default_rng(0))
    other = _play(env, 12, np.random.default_rng(0))
    assert first == second
    assert first != other


def test_every_agent_is_rewarded_its_return_at_the_end():
    """Liar's Dice: at the end one agent gets +1, the other -1, and both are terminated."""
    env = rpz.env(str(ROOT / "games" / "liars_dice.rules"))
    env.reset(seed=3)
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][-1]))     # the highest legal id: liar once it may
    assert sorted(rewards.values()) == [-1.0, 1.0] and set(rewards) == {"P1", "P2"}


def test_an_illegal_action_is_refused_with_the_legal_ids():
    """PettingZoo: stepping an id the mask forbids raises ValueError naming the legal ids."""
    env = rpz.env(str(ROOT / "games" / "liars_dice.rules"))
    env.reset(seed=1)
    with pytest.raises(ValueError, match="P1: 12 \\(liar\\) is not legal here; the legal ids are 0 \\(bid q=1 f=1\\)"):
        env.step(12)


def test_the_gym_seat_ends_an_episode_on_an_illegal_action():
    """Gymnasium: an illegal id ends the episode with the lowest return and says why."""
    env = rgym.make(str(ROOT / "games" / "liars_dice.rules"))
    _, info = env.reset(seed=1)
    assert info["action_mask"][12] == 0 and info["action_mask"][:12].all()
    _, reward, terminated, truncated, info = env.step(12)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "is not legal here" in info["illegal"]


def test_the_gym_seat_plays_against_generic_bots_to_the_end():
    """Seat P2 of Coup for 3 against two generic bots: the episode ends with a return of
    +1 or -1, and every observation has the space's shape."""
    env = rgym.make(str(ROOT / "games" / "coup.rules"), seat=2, opponents="generic", players=3)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(2_000):
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(info["action_mask"].nonzero()[0])))
        if terminated or truncated:
            break
    assert terminated and reward in (-1.0, 1.0)


def test_bad_options_are_named():
    """A seat outside the game and a wrong number of opponents name what they accept."""
    from rulekit.errors import OptionError
    with pytest.raises(OptionError, match="seat must be between 1 and 2, not 3"):
        rgym.make(str(ROOT / "games" / "liars_dice.rules"), seat=3)
    env = rgym.make(str(ROOT / "games" / "coup.rules"), players=3, opponents=["random"])
    with pytest.raises(OptionError, match="opponents: 2 needed"):
        env.reset(seed=1)
