"""The settings of ``mcts:...`` that the levels use (``random=P``, ``c=X``, ``tactics=``):
what they do, and bad values refused in one line before any game starts."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.bots import make_bot
from hexkit.bots.mcts import MctsBot
from hexkit.errors import OptionError


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:random=1.5", "random=P needs a probability between 0 and 1"),
    ("mcts:random=-0.1", "random=P needs a probability between 0 and 1"),
    ("mcts:random=nan", "random='nan' is not a finite number"),
    ("mcts:random=half", "random='half' is not a number"),
    ("mcts:sims=20,random=", "random='' is not a number"),
    ("mcts:c=-1", "c=X needs an exploration constant of 0 or more"),
    ("mcts:c=inf", "c='inf' is not a finite number"),
    ("mcts:c=1e999", "c='1e999' is not a finite number"),
    ("mcts:c=wide", "c='wide' is not a number"),
    ("mcts:tactics=maybe", "tactics='maybe' is not on or off"),
    ("mcts:random=" + "9" * 400, "random='999999999999999999999999999999...' is not a number"),
])
def test_bad_mcts_settings_are_refused_in_one_line(spec, message):
    game = hexkit.load_game("focus")
    with pytest.raises(OptionError) as caught:
        make_bot(game, spec, 1)
    text = str(caught.value)
    assert message in text and "\n" not in text and len(text) < 160


def test_bad_mcts_settings_on_the_command_line_are_one_line_without_a_traceback(capsys):
    from hexkit.cli import main

    assert main(["match", "focus", "--p1", "mcts:c=-2", "--p2", "random", "--games", "2"]) != 0
    err = capsys.readouterr().err
    assert "c=X needs an exploration constant of 0 or more" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("spec", "randomness", "exploration", "tactics"), [
    ("mcts:sims=30,random=0.5", 0.5, 1.0, True),
    ("mcts:random=0,c=0", 0.0, 0.0, True),
    ("mcts:random=1,c=0.25,tactics=off", 1.0, 0.25, False),
])
def test_good_mcts_settings_reach_the_bot(spec, randomness, exploration, tactics):
    bot = make_bot(hexkit.load_game("focus"), spec, 1)
    assert isinstance(bot, MctsBot)
    assert (bot.randomness, bot.exploration, bot.tactics is not None) == \
        (randomness, exploration, tactics)


def test_random_one_plays_a_legal_move_without_searching():
    game = hexkit.load_game("focus")
    state = game.new_state(seed=2)
    searched: list[int] = []
    bot = MctsBot(500, seed=3, randomness=1.0, policy=None,
                  progress=lambda done, total: searched.append(done))
    for _ in range(6):
        move = bot.choose(state)
        assert move in state.legal_moves()
        state.push(move)
    assert searched == []
