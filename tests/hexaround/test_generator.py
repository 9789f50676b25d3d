"""The fast legal-move generator against two independent readings of the rules: the slow
reference model in ``reference.py`` and the engine's own check of single requests."""

from __future__ import annotations

import json
import random

import pytest
from hexaround import movegen
from hexaround.hexgrid import OFFSETS, disc_offsets

import hexkit

from .reference import legal_moves

CASES = [
    ("level2", {}),
    ("level3", {}),
    ("level3", {"kamikaze_survives": True, "butterfly_deadline_blocks_moves": False}),
    ("menagerie", {}),
    ("menagerie", {"kamikaze_survives": True, "stack_limit": 2}),
    ("hivelike", {"intruding_traps_by_default": True}),
    ("submission1", {"stack_limit": 1, "intruding_traps_by_default": True}),
]


@pytest.fixture(params=["compiled", "python"])
def generator(request, monkeypatch) -> str:
    """Run the test with the compiled generator and again with the pure-Python one."""
    if request.param == "compiled":
        if movegen._movegen is None:
            pytest.skip("hexaround._movegen was not built (no C compiler)")
        monkeypatch.delenv(movegen.PURE_PYTHON_ENV, raising=False)
    else:
        monkeypatch.setenv(movegen.PURE_PYTHON_ENV, "1")
    return request.param


def _positions(config: str, options: dict, games: int, moves: int, seed: int):
    game = hexkit.load_game("hexaround", config=config, **options)
    rnd = random.Random(seed)
    for g in range(games):
        state = game.new_state(seed=g)
        for _ in range(moves):
            if state.is_over():
                break
            yield game, state
            legal = state.legal_moves()
            state.push(legal[rnd.randrange(len(legal))])


#: The reference's answers by configuration and position: both generators are compared with
#: it on the same positions, and the slow reference need not answer twice.
_REFERENCE: dict[str, set[str]] = {}


def _reference_moves(config: str, options: dict, game, data: dict) -> set[str]:
    key = json.dumps([config, options, data], sort_keys=True)
    if key not in _REFERENCE:
        _REFERENCE[key] = legal_moves(game.config, data)
    return _REFERENCE[key]


@pytest.mark.parametrize(("config", "options"), CASES,
                         ids=[f"{c}-{'-'.join(o) or 'defaults'}" for c, o in CASES])
def test_generated_moves_equal_the_reference_reading_of_the_rules(config, options,
                                                                   generator) -> None:
    checked = 0
    for game, state in _positions(config, options, games=2, moves=45, seed=11):
        mine = {str(m) for m in state.legal_moves()}
        theirs = _reference_moves(config, options, game, state.to_dict())
        assert mine == theirs, (config, state.render(), sorted(mine ^ theirs)[:10])
        checked += 1
    assert checked > 40


#: The single-request checks' answers by configuration and position. They use the plain
#: searches of hexaround.rules, never a generator: both generators are compared with the
#: same answers, asked once.
_CHECKED: dict[str, dict[tuple, bool]] = {}


def _single_request_answers(config: str, options: dict, state) -> dict[tuple, bool]:
    """Whether each candidate action near the colony passes the engine's check of single
    requests: every placement next to a creature, every move within a creature's range."""
    key = json.dumps([config, options, state.to_dict()], sort_keys=True)
    if key not in _CHECKED:
        engine = state.engine
        near = {k + o for k in engine.occ for o in (0, *OFFSETS)} - engine.occ
        candidates = [(kind, None, k) for k in near for kind in range(len(engine.names))]
        for src, stack in engine.stacks.items():
            for code in set(stack):
                if code & 1 == engine.to_move:
                    m = min(engine.kind_dist[code >> 1], 6)
                    candidates += [(code >> 1, src, src + o) for o in disc_offsets(m)]
        _CHECKED[key] = {action: engine.check(action) is None for action in candidates}
    return _CHECKED[key]


@pytest.mark.parametrize(("config", "options"), CASES[:4])
def test_generated_moves_equal_the_single_request_checks(config, options, generator) -> None:
    # Every candidate near the colony is asked one by one; exactly the generated ones pass.
    for _game, state in _positions(config, options, games=1, moves=60, seed=5):
        engine = state.engine
        legal = set(engine.legal_actions())
        if not engine.occ:
            continue
        for action, passes in _single_request_answers(config, options, state).items():
            assert passes == (action in legal), (action, state.render())


def test_undo_restores_the_generator_tables() -> None:
    # Moves pushed and popped at random leave the same legal moves as a fresh copy.
    game = hexkit.load_game("hexaround", config="level3")
    rnd = random.Random(3)
    state = game.new_state(seed=1)
    for step in range(160):
        legal = state.legal_moves()
        if not legal:
            break
        if step % 3 == 2 and len(state.move_stack) > 1:
            state.pop()
        else:
            state.push(legal[rnd.randrange(len(legal))])
        fresh = game.state_from_dict(state.to_dict())
        assert sorted(map(str, state.legal_moves())) == sorted(map(str, fresh.legal_moves()))
