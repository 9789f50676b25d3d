"""A trained policy evaluated against hexkit's bots: the docs' example (train a few steps,
save, play a tournament), the python seat's trust rule, and policies as plugin bots."""

from __future__ import annotations

import json
import textwrap

import pytest

import hexkit
from hexkit.adapters import policy_bot
from hexkit.bots import ProcessRefused, make_bot
from hexkit.cli import main
from hexkit.errors import HexkitError

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

AGENT = '''
from pathlib import Path

import numpy as np

weights = np.load(Path(__file__).with_name("policy.npy"))


def policy(observation, action_mask):
    logits = observation.reshape(-1) @ weights
    logits[action_mask == 0] = -np.inf
    return int(np.argmax(logits))
'''


def train_and_save(folder) -> None:
    """docs/ai.md's REINFORCE loop, one short episode of self-play."""
    from hexkit.adapters import pettingzoo_env

    env = pettingzoo_env("focus", max_plies=16)
    n_actions = env.action_space("player_0").n
    size = int(np.prod(env.observation_space("player_0")["observation"].shape))
    rng = np.random.default_rng(0)
    weights = rng.normal(0, 0.01, (size, n_actions)).astype(np.float32)
    env.reset(seed=0)
    trail: dict[str, list] = {agent: [] for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            for x, a, p in trail[agent]:
                grad = -p
                grad[a] += 1
                weights += 0.01 * reward * np.outer(x, grad)
            env.step(None)
            continue
        logits = obs["observation"].reshape(-1) @ weights
        logits[obs["action_mask"] == 0] = -np.inf
        p = np.exp(logits - logits.max())
        p /= p.sum()
        action = int(rng.choice(n_actions, p=p))
        trail[agent].append((obs["observation"].reshape(-1), action, p))
        env.step(action)
    np.save(folder / "policy.npy", weights)
    (folder / "agent.py").write_text(AGENT)


def test_a_trained_policy_plays_a_tournament_against_hexkits_bots(tmp_path, monkeypatch,
                                                                  capsys):
    train_and_save(tmp_path)
    monkeypatch.chdir(tmp_path)
    code = main(["tournament", "focus", "--bots", "python:agent.py:policy", "random",
                 "--games-per-pair", "2", "--seed", "3", "--max-moves", "40", "--quiet",
                 "--db", "t.sqlite", "--json", "t.json"])
    assert code == 0, capsys.readouterr().err
    report = json.loads((tmp_path / "t.json").read_text())
    rows = {row["bot"]: row for row in report["standings"]}
    assert rows["python:agent.py:policy"]["games"] == 2
    assert not rows["python:agent.py:policy"]["faults"]


def test_the_python_seat_runs_only_from_the_command_line(tmp_path):
    (tmp_path / "agent.py").write_text("def policy(state):\n    return state.legal_moves()[0]\n")
    game = hexkit.load_game("focus")
    spec = f"python:{tmp_path / 'agent.py'}:policy"
    with pytest.raises(ProcessRefused):
        make_bot(game, spec, 0)  # a record, a request, a database
    bot = make_bot(game, spec, 0, from_operator=True)
    state = game.new_state(seed=0)
    assert bot.choose(state) == state.legal_moves()[0]


def test_a_policy_on_the_state_may_answer_a_move_its_text_or_an_action():
    game = hexkit.load_game("hexaround")
    state = game.new_state(seed=0)
    first = state.legal_moves()[0]
    action = game.action_space().action_in(state, first)
    for answer in (first, str(first), action, np.int64(action)):
        bot = policy_bot(lambda s, answer=answer: answer)
        assert bot.choose(state) == first
    assert state.to_dict() == game.new_state(seed=0).to_dict()  # the bot changed nothing


def test_an_illegal_choice_is_one_line_naming_the_policy():
    game = hexkit.load_game("focus")
    state = game.new_state(seed=0)
    illegal = int(np.flatnonzero(game.action_space().action_mask(state) == 0)[0])
    bot = policy_bot(lambda observation, mask: illegal, name="mine")
    with pytest.raises(HexkitError) as caught:
        bot.choose(state)
    assert "mine chose action" in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(HexkitError):
        policy_bot(lambda state: "not a move at all").choose(state)


def test_a_plugin_registers_a_policy_as_a_named_bot(tmp_path, capsys):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "greedy_policy.py").write_text(textwrap.dedent('''
        from hexkit import hookimpl
        from hexkit.adapters import policy_bot_spec


        def first_legal(observation, action_mask):
            return int(action_mask.argmax())


        @hookimpl
        def hexkit_register_bots(register):
            register(policy_bot_spec("greedy", first_legal, "the first legal action"))
    '''))
    code = main(["--plugins-dir", str(plugins), "tournament", "focus", "--bots", "greedy",
                 "random", "--games-per-pair", "2", "--max-moves", "20", "--quiet",
                 "--db", str(tmp_path / "t.sqlite"), "--seed", "1"])
    assert code == 0, capsys.readouterr().err
    assert "greedy" in capsys.readouterr().out
