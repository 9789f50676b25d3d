"""Hex Baron's and HexAround's named levels: each one stronger than the one below it by
construction (MCTS with more simulations and fewer random commands, then alpha-beta with
more positions a move and fewer random commands), and every level, the ones that play at
random on purpose included, still defends a baron it can save (issue 24)."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.bots import make_bot
from hexkit.bots.alphabeta import AlphaBetaBot
from hexkit.bots.levels import levels_for
from hexkit.bots.mcts import MctsBot


@pytest.mark.parametrize("game", ["hexbaron", "hexaround"])
def test_each_level_searches_more_and_plays_at_random_less_than_the_one_below(game):
    g = hexkit.load_game(game)
    bots = [make_bot(g, level.bot, 1) for level in levels_for(game)]
    mcts = [bot for bot in bots if isinstance(bot, MctsBot)]
    alphabeta = [bot for bot in bots if isinstance(bot, AlphaBetaBot)]
    assert bots == mcts + alphabeta, "MCTS levels first, then alpha-beta, nothing else"
    sims = [bot.simulations for bot in mcts]
    nodes = [bot.nodes for bot in alphabeta]
    for budgets in (sims, nodes):
        assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets), budgets
    randomness = [bot.randomness for bot in bots]
    assert randomness == sorted(randomness, reverse=True), randomness
    assert randomness[0] > 0  # easy blunders on purpose
    assert randomness[-1] == 0  # hard never plays at random on purpose
    assert all(bot.tactics is not None for bot in alphabeta)  # never blind to a win in one


@pytest.mark.parametrize("level", [2, 3, 4])
def test_hexbaron_levels_that_play_at_random_still_defend_their_baron(level):
    # The line (test_tactics.py has the same position for mcts:200 and bot:easy):
    # Player Two's PBDS is stuck beside its baron, and Player One's serf on 26 reaches 27,
    # the baron's last free neighbour, in two commands. A random command is drawn only
    # among the commands after which the baron can be kept, so every seed defends.
    game = hexkit.load_game("hexbaron")
    from hexbaron.policy import destroy_plan

    for seed in (1, 2):
        state = game.new_state(seed=3)
        for line in ("move 8 12", "move 0 4", "pass", "upgrade pbds 23", "dig 23", "pass",
                     "move 12 17", "move 17 21", "move 21 26"):
            state.push(line)
        bot = make_bot(game, f"bot:level={level}", seed)
        while state.current_player == 1:
            state.push(bot.choose(state))
        assert destroy_plan(state) is None, f"level {level}, seed {seed}: the baron is lost"


@pytest.mark.parametrize("game", ["hexbaron", "hexaround"])
def test_a_server_with_default_caps_offers_and_accepts_every_level(game):
    # A named level must never be refused by `hexkit serve`'s default caps: the lobby
    # offers all five, and a game is created with each (bot:hard included).
    from hexkit import plugins
    from hexkit.web.bots import BotPolicy
    from hexkit.web.settings import BotCaps

    policy = BotPolicy(BotCaps(), {}, plugins.registry())
    offered = [level["spec"] for level in policy.offered_for(game)["levels"]]
    assert offered == ["bot:easy", "bot:level=2", "bot:medium", "bot:level=4", "bot:hard"]
    for spec in offered:
        policy.check(spec)
        policy.check_for_game(spec, game)
