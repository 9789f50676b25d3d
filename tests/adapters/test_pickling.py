"""Pickles of every game's states: the same position, the same legal moves, the same future
(random draws included), and every move on the stack can still be popped."""

from __future__ import annotations

import ast
import copy
import pickle
import random
from dataclasses import dataclass

import pytest

import hexkit
from hexkit.game import Game, GameSpec, Move, Outcome, State


def play(game, plies, seed=0):
    """A state after ``plies`` random moves (fewer if the game ends)."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state.push(legal[rng.randrange(len(legal))])
    return state


def same_game_from_here(one, other, plies=6):
    """The two states agree now, after the same moves, and back at the start."""
    assert other.to_dict() == one.to_dict()
    assert [str(m) for m in other.legal_moves()] == [str(m) for m in one.legal_moves()]
    rng = random.Random(1)
    for _ in range(plies):
        legal = one.legal_moves()
        if not legal:
            break
        text = str(legal[rng.randrange(len(legal))])
        one.push(text)
        other.push(text)
        assert other.to_dict() == one.to_dict()
    while one.move_stack:
        one.pop()
        other.pop()
        assert other.to_dict() == one.to_dict()
    assert not other.move_stack


def test_a_pickled_state_is_the_same_game_and_pops_back_to_the_start(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    state = play(game, 30, seed=4)
    twin = pickle.loads(pickle.dumps(state))
    assert twin is not state and type(twin) is type(state)
    assert [str(m) for m in twin.move_stack] == [str(m) for m in state.move_stack]
    same_game_from_here(state, twin)


def test_states_pickled_along_a_game_and_after_a_take_back_each_pop_back_exactly(any_game):
    # Later states reuse the chunks of history their earlier states wrote; a state that
    # took moves back and played others must not get the old chunks; a process that has
    # not seen the chunks (the tables cleared) reads them from the pickle.
    from hexkit.kit import statepickle

    registry, name = any_game
    game = registry.load_game(name)
    state = play(game, 2 * statepickle.CHUNK + 3, seed=6)
    plies = len(state.move_stack)
    early = state.copy()
    for _ in range(min(plies, statepickle.CHUNK + 2)):
        early.pop()
    blobs = [pickle.dumps(s) for s in (early, state)]
    branch = early.copy()
    legal = branch.legal_moves()
    if legal:
        branch.push(legal[-1])
    blobs.append(pickle.dumps(branch))
    for table in (statepickle._CHUNK_ENTRIES, statepickle._MOVES):
        table.clear()
    for original, blob in zip((early, state, branch), blobs, strict=True):
        twin = pickle.loads(blob)
        assert [str(m) for m in twin.move_stack] == [str(m) for m in original.move_stack]
        same_game_from_here(original.copy(), twin, plies=2)


def test_a_history_chunk_is_reused_only_for_the_very_same_entries():
    # Two histories whose chunks end with the same object (moves are shared values) but
    # differ before it: each reads back as itself.
    from hexkit.kit.statepickle import CHUNK, History

    last = ("shared",)
    one = [(i,) for i in range(CHUNK - 1)] + [last]
    other = [(-i,) for i in range(CHUNK - 1)] + [last]
    assert pickle.loads(pickle.dumps(History(one))) == one
    assert pickle.loads(pickle.dumps(History(other))) == other
    assert pickle.loads(pickle.dumps(History(one + other[:3]))) == one + other[:3]
    longer = one + other  # a block of 16 that ends with the same object and starts alike
    assert pickle.loads(pickle.dumps(History(longer))) == longer
    # The same entries written another way (an encoder) are not the blocks written before.
    from hexkit.kit import statepickle

    pickle.dumps(History(one))
    written = pickle.dumps(History(one, repr, ast.literal_eval))
    statepickle._CHUNK_ENTRIES.clear()  # read as a process that never saw the blocks
    assert pickle.loads(written) == one


def test_moves_read_after_their_module_is_imported_again_are_of_its_new_classes(
        tmp_path, monkeypatch):
    # (A notebook that reloads a plugin: moves pickled before are read as the new classes,
    # not as moves of the old ones found in the kit's table.)
    import importlib
    import sys

    from hexkit.kit.statepickle import MoveList

    (tmp_path / "kit_reloaded_moves.py").write_text(
        "from dataclasses import dataclass\n"
        "from hexkit.game import Move\n"
        "@dataclass(frozen=True)\n"
        "class Step(Move):\n"
        "    to: int\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("kit_reloaded_moves")
    try:
        moves = [module.Step(i % 3) for i in range(5)]
        blob = pickle.dumps(MoveList(moves))
        assert pickle.loads(blob) == moves
        del sys.modules["kit_reloaded_moves"]
        again = importlib.import_module("kit_reloaded_moves")
        read = pickle.loads(blob)
        assert again.Step is not module.Step
        assert read == [again.Step(i % 3) for i in range(5)]
        assert all(type(move) is again.Step for move in read)
    finally:
        sys.modules.pop("kit_reloaded_moves", None)


def test_mid_game_hex_baron_keeps_its_random_digs():
    # Digs draw from the state's generator: the unpickled state draws the same, and undoes
    # a dig's draw too.
    game = hexkit.load_game("hexbaron")
    state = play(game, 40, seed=2)
    assert not state.is_over()
    assert any(entry[0] == 6 for entry in state.journal.entries)  # a dig drew from the rng
    twin = pickle.loads(pickle.dumps(state))
    assert twin.rng.getstate() == state.rng.getstate()
    assert twin.journal is twin.pos.journal and twin.rng is twin.pos.rng
    same_game_from_here(state, twin, plies=20)


def test_hive_and_hexaround_pickle_as_their_engines_changes_from_the_games_template():
    for name in ("hive", "hexaround"):
        game = hexkit.load_game(name)
        state = play(game, 30, seed=2)
        # A position loaded from its saved form is a copy of the template too.
        loaded = game.state_from_dict(play(game, 12, seed=3).to_dict())
        assert loaded.engine.template is game.__dict__["_template"]
        for original in (state, loaded):
            data = pickle.dumps(original)
            twin = pickle.loads(data)
            assert twin.engine.template is not None  # copies of it pickle small too
            same_game_from_here(original, twin)
            again = pickle.loads(pickle.dumps(twin))
            same_game_from_here(original, again)


def test_a_loaded_position_and_moves_after_it_pickle_and_pop_back_to_it(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    loaded = game.state_from_dict(play(game, 12, seed=8).to_dict())
    rng = random.Random(2)
    for _ in range(6):
        legal = loaded.legal_moves()
        if not legal:
            break
        loaded.push(legal[rng.randrange(len(legal))])
    twin = pickle.loads(pickle.dumps(loaded))
    assert [str(m) for m in twin.move_stack] == [str(m) for m in loaded.move_stack]
    same_game_from_here(loaded, twin)


def test_a_hive_state_pickled_after_a_take_back_lists_its_moves_in_the_same_order():
    # After undo the engine gives back the legal list it made before the move, whose order
    # follows the tables' changes and can differ from a list made afresh: the pickle holds
    # the list (as a copy shares it), so the unpickled state lists the moves alike.
    state = play(hexkit.load_game("hive"), 12, seed=1)
    state.pop()
    fresh = state.copy()
    fresh.engine.clear_caches()
    fresh._listed = None
    listed = [str(m) for m in state.legal_moves()]
    assert [str(m) for m in fresh.legal_moves()] != listed  # (the case this is about)
    assert [str(m) for m in pickle.loads(pickle.dumps(state)).legal_moves()] == listed


def test_many_states_of_one_game_share_one_unpickled_game():
    game = hexkit.load_game("hexaround")
    states = pickle.loads(pickle.dumps([play(game, n, seed=n) for n in (3, 5)]))
    later = pickle.loads(pickle.dumps(play(game, 4)))
    assert states[0].game is states[1].game is later.game
    assert str(later.game) == str(game)


def test_deepcopy_and_copy_are_the_states_own_copy():
    for make in (copy.deepcopy, copy.copy):
        state = play(hexkit.load_game("focus"), 10)
        same_game_from_here(state, make(state))


def test_a_states_generator_reads_back_exactly_before_and_after_each_kind_of_draw():
    # The state's generator remembers the state it was set to or read until something is
    # drawn (copies and pickles then need not read 625 words): every kind of draw, and
    # gauss's spare value, must still show in what it gives, its copies and its pickles.
    from hexkit.kit.rng import KitRandom, rng_copy

    kit, plain = KitRandom(5), random.Random(5)
    draws = [lambda r: r.random(), lambda r: r.getrandbits(70), lambda r: r.choice("abcdefg"),
             lambda r: r.gauss(0, 1), lambda r: r.gauss(0, 1), lambda r: r.sample(range(50), 5),
             lambda r: r.seed(9), lambda r: r.randbytes(5), lambda r: r.shuffle([1, 2, 3])]
    for draw in draws:
        before = plain.getstate()
        assert kit.getstate() == before
        twin, saved = rng_copy(kit), pickle.dumps(kit)
        assert draw(kit) == draw(plain)
        assert kit.getstate() == plain.getstate()
        assert twin.getstate() == pickle.loads(saved).getstate() == before
    state = hexkit.load_game("focus").new_state(seed=4)  # a generator never drawn from
    assert pickle.loads(pickle.dumps(state)).rng.getstate() == state.rng.getstate()
    state.rng.random()
    twin = pickle.loads(pickle.dumps(state))
    assert twin.rng.getstate() == state.rng.getstate() and twin.rng.random() == state.rng.random()


def test_a_copied_or_unpickled_generator_set_at_its_first_draw_draws_exactly_the_same():
    # A copy's or an unpickled state's generator is given its state only at its first draw:
    # each kind of first draw (gauss's spare value first of all) gives what the original
    # gives, and a state no generator could have is refused at once, not at a later draw.
    from hexkit.kit.rng import KitRandom, rng_copy

    original = KitRandom(11)
    original.gauss(0, 1)  # leaves a spare value
    firsts = [lambda r: r.gauss(0, 1), lambda r: r.random(), lambda r: r.getrandbits(40),
              lambda r: r.randrange(1000), lambda r: r.randbytes(3), lambda r: r.getstate()]
    for first in firsts:
        for twin in (rng_copy(original), pickle.loads(pickle.dumps(original))):
            reference = random.Random()
            reference.setstate(original.getstate())
            assert first(twin) == first(reference)
            assert [twin.gauss(0, 1), twin.random()] == [reference.gauss(0, 1), reference.random()]
            assert twin.getstate() == reference.getstate()
    version, words, gauss = original.getstate()
    with pytest.raises(ValueError):
        KitRandom.__new__(KitRandom).set_known_state((version, words[:-1] + (700,), gauss))


def test_a_dropped_copy_or_unpickled_state_is_freed_at_once_not_by_the_garbage_collector():
    # No reference cycle (a journal holds its state weakly; HexAround's legal list does not
    # hold its state): a worker that unpickles and drops states does not pile them up.
    import gc
    import weakref

    gc.disable()
    try:
        for name in ("focus", "hexbaron", "hexaround", "hive"):
            state = play(hexkit.load_game(name), 9, seed=1)
            for make in (lambda s: s.copy(), lambda s: pickle.loads(pickle.dumps(s))):
                twin = make(state)
                twin.push(twin.legal_moves()[0])
                twin.legal_moves()
                twin.pop()
                freed = weakref.ref(twin)
                del twin
                assert freed() is None, name
    finally:
        gc.enable()


# -- states pickle cannot write ------------------------------------------------------------

@dataclass(frozen=True)
class Step(Move):
    n: int

    def __str__(self) -> str:
        return str(self.n)


class CounterGame(Game):
    def new_state(self, seed=None):
        return CounterState(self, seed)


class CounterState(State):
    """Counts to 5; holds a lambda (pickle cannot write it)."""

    def __init__(self, game, seed=None):
        super().__init__(game, seed)
        self.total = 0
        self.scorer = lambda: self.total

    def legal_moves(self):
        return [] if self.total >= 5 else [Step(1), Step(2)]

    def parse_move(self, text):
        return Step(int(text))

    def apply(self, move):
        self.journal.set("total", self.total + move.n)
        self.advance_turn()

    def outcome(self):
        return Outcome((0,), "five") if self.total >= 5 else None

    def render(self):
        return str(self.total)


def counter_game():
    return GameSpec("counter", "counts", CounterGame).make_game()


def test_a_state_holding_a_lambda_pickles_by_its_saved_form_and_moves():
    state = counter_game().new_state(seed=3)
    state.push("2")
    state.push("1")
    twin = pickle.loads(pickle.dumps(state))
    assert twin.total == 3 and [str(m) for m in twin.move_stack] == ["2", "1"]
    twin.pop()
    assert twin.total == 2


def test_a_state_that_cannot_be_pickled_at_all_says_which_attribute_in_one_line():
    game = counter_game()
    state = game.state_from_dict({"seed": 1, "moves": []})
    state._kit_origin = None  # as a state made without a seed: no saved form
    with pytest.raises(TypeError) as caught:
        pickle.dumps(state)
    message = str(caught.value)
    assert "'scorer'" in message and "CounterState" in message and "\n" not in message


# -- the compact layout (Focus): the position now, the histories replayed on first need ----

@pytest.mark.parametrize("name", ["focus", "hexbaron", "hexaround", "hive"])
def test_an_unpickled_state_answers_at_once_and_replays_its_history_only_when_asked(name):
    game = hexkit.load_game(name)
    state = play(game, 25, seed=5)
    picture = state.render()
    twin = pickle.loads(pickle.dumps(state))
    assert "_kit_lazy" in twin.__dict__  # the undo records below it not made yet
    assert list(twin.legal_moves()) == list(state.legal_moves())
    assert twin.to_dict() == state.to_dict() and twin.outcome() == state.outcome()
    assert twin.render() == picture and twin.move_stack == state.move_stack
    again = pickle.loads(pickle.dumps(twin))  # pickled again before it was touched
    assert "_kit_lazy" in twin.__dict__ and again.to_dict() == state.to_dict()
    twin.need_history()  # the very undo records, journal and events of the original
    assert "_kit_lazy" not in twin.__dict__
    for kept in type(state)._kit_histories:  # Focus's undo records, Hex Baron's notes
        assert getattr(twin, kept) == getattr(state, kept)
    assert twin._kit_events == state._kit_events and twin._kit_marks == state._kit_marks
    assert twin.journal.entries == state.journal.entries
    same_game_from_here(state.copy(), again)


@pytest.mark.parametrize("name", ["focus", "hexbaron", "hexaround", "hive"])
def test_moves_pushed_after_unpickling_then_popped_below_it_list_moves_as_the_original(name):
    # Hive lists the moves of a position reached by undo in the order it first listed them:
    # the replay makes the same lists, so the order is the original's all the way back.
    game = hexkit.load_game(name)
    state = play(game, 16, seed=8)
    twin = pickle.loads(pickle.dumps(state))
    for _ in range(2):
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[len(legal) // 2]
        state.push(move)
        twin.push(move)
    assert twin.render() == state.render()
    copied = twin.copy()  # a copy of it makes its own history, not the state's first
    assert "_kit_lazy" in twin.__dict__ and "_kit_lazy" in copied.__dict__
    for other in (twin, copied, pickle.loads(pickle.dumps(twin))):
        original = state.copy()
        while original.move_stack:
            assert other.events() == original.events()
            original.pop()
            other.pop()
            assert other.to_dict() == original.to_dict()
            assert list(other.legal_moves()) == list(original.legal_moves())


@pytest.mark.parametrize("name", ["hexbaron", "hexaround", "hive"])
def test_a_long_game_of_moves_without_an_action_table_pickles_and_pops_back_exactly(name):
    # Past statepickle.VALUE_BLOCKS moves, moves numbered by no table are written in
    # blocks shared by the game's later states; a process that never saw the game reads
    # them from the pickle, and a state pickled again before it was touched writes them.
    from hexkit.kit import statepickle

    game = hexkit.load_game(name)
    state = play(game, statepickle.VALUE_BLOCKS + 6, seed=2)
    assert len(state.move_stack) > statepickle.VALUE_BLOCKS
    blobs = [pickle.dumps(s) for s in (state, play(game, statepickle.VALUE_BLOCKS + 3, seed=2))]
    for table in (statepickle._CHUNK_ENTRIES, statepickle._MOVES, statepickle._HEADERS):
        table.clear()
    twin, earlier = map(pickle.loads, blobs)
    assert len(earlier.move_stack) == statepickle.VALUE_BLOCKS + 3
    assert twin.move_stack == state.move_stack and "_kit_lazy" in twin.__dict__
    assert list(twin.legal_moves()) == list(state.legal_moves())
    again = pickle.loads(pickle.dumps(twin))
    assert again.move_stack == state.move_stack and again.render() == state.render()
    same_game_from_here(state.copy(), again, plies=2)


def test_a_focus_state_of_typed_moves_pickles_exactly():
    # Moves parsed from text are not the action table's objects: numbered one by one.
    game = hexkit.load_game("focus")
    state = game.new_state(seed=2)
    for text in [str(m) for m in play(game, 12, seed=2).move_stack]:
        state.push(text)
    same_game_from_here(state.copy(), pickle.loads(pickle.dumps(state)))


def test_a_pickled_focus_state_whose_generator_drew_keeps_its_draws():
    state = play(hexkit.load_game("focus"), 10, seed=3)
    state.rng.random()
    state.rng.gauss(0, 1)  # a gauss value pending
    twin = pickle.loads(pickle.dumps(state))
    assert [twin.rng.gauss(0, 1), twin.rng.random()] == [state.rng.gauss(0, 1),
                                                         state.rng.random()]
    twin.need_history()
    assert twin._undo == state._undo


def test_a_focus_state_with_an_attribute_of_its_own_pickles_by_its_attributes():
    state = play(hexkit.load_game("focus"), 10, seed=3)
    state.note = "kept"  # unknown to the compact layout: the attribute layout keeps it
    twin = pickle.loads(pickle.dumps(state))
    assert twin.note == "kept" and twin._undo == state._undo  # (attribute layout: whole)


# -- the plain layout: plugin states whose undo data is all in the journal ------------------

def fresh_process_tables():
    """Forget what this process learnt from pickles (as a worker that never saw the game)."""
    from hexkit.kit import statepickle

    for table in (statepickle._HEADERS, statepickle._ROOT_VALUES, statepickle._TABLES_READ,
                  statepickle._TURNS, statepickle._MOVES, statepickle._CHUNK_ENTRIES):
        table.clear()


@pytest.mark.parametrize("kind", ["example", "new"])
def test_a_plugin_state_pickles_its_position_and_replays_its_history_on_first_need(
        kind, plugin_games):
    registry, names = plugin_games
    state = play(registry.load_game(names[kind]), 9, seed=3)
    blob = pickle.dumps(state)
    fresh_process_tables()
    twin = pickle.loads(blob)
    assert "_kit_lazy" in twin.__dict__  # the journal below it not made yet
    assert twin.move_stack == state.move_stack and twin.turn_order == state.turn_order
    assert [str(m) for m in twin.legal_moves()] == [str(m) for m in state.legal_moves()]
    assert twin.to_dict() == state.to_dict() and twin.render() == state.render()
    assert twin.events() == state.events()  # (events() makes the histories)
    assert "_kit_lazy" not in twin.__dict__
    assert twin.journal.entries == state.journal.entries
    assert twin._kit_marks == state._kit_marks and twin._kit_events == state._kit_events
    same_game_from_here(state, twin)


@dataclass(frozen=True)
class Note:
    text: str


class TallyGame(Game):
    """Counts to 9 in steps of 1 and 2, every change through the journal."""

    def new_state(self, seed=None):
        return TallyState(self, seed)


class TallyState(State):
    def __init__(self, game, seed=None):
        super().__init__(game, seed)
        self.total = 0
        self.steps = []

    def legal_moves(self):
        return [] if self.total >= 9 else [Step(1), Step(2)]

    def parse_move(self, text):
        return Step(int(text))

    def apply(self, move):
        self.journal.set("total", self.total + self.step_of(move))
        self.journal.append("steps", move.n)
        self.advance_turn()

    def step_of(self, move):
        return move.n

    def outcome(self):
        return Outcome((self.turn_order.seat,), "nine") if self.total >= 9 else None

    def render(self):
        return f"{self.total} {self.steps}"


class DriftGame(TallyGame):
    def new_state(self, seed=None):
        return DriftState(self, seed)


class DriftState(TallyState):
    """Steps by one more the first ``drifts`` times any state applies a move (not by the
    moves alone)."""

    drifts = 0

    def step_of(self, move):
        DriftState.drifts -= 1
        return move.n + (DriftState.drifts >= 0)


def tally(kind=TallyGame):
    state = GameSpec("tally", "counts", kind).make_game().new_state(seed=5)
    for text in "1211":
        state.push(text)
    return state


def test_a_plugin_state_with_an_attribute_that_is_not_plain_data_pickles_by_its_attributes():
    state = tally()
    assert "_kit_lazy" in pickle.loads(pickle.dumps(state)).__dict__  # (plain: replayed)
    state.note = Note("kept")  # an object, not plain data: the attribute layout takes it
    twin = pickle.loads(pickle.dumps(state))
    assert "_kit_lazy" not in twin.__dict__ and twin.note == Note("kept")
    same_game_from_here(state, twin)


def test_a_state_without_moves_changed_in_place_between_pickles_reads_back_as_it_is_now():
    # A state with no moves is its own start: pickled again, or a copy of it, it writes the
    # start it wrote before, but never one it no longer is (nor an equal value of another
    # type: True is not 1).
    state = GameSpec("tally", "counts", TallyGame).make_game().new_state(seed=5)
    blobs = [pickle.dumps(state), pickle.dumps(state.copy())]
    state.total = 1
    blobs.append(pickle.dumps(state))
    state.total = True
    blobs.append(pickle.dumps(state))
    state.rng.random()
    blobs.append(pickle.dumps(state))
    twins = [pickle.loads(blob) for blob in blobs]
    assert [twin.total for twin in twins] == [0, 0, 1, True, True]
    assert [type(twin.total) for twin in twins] == [int, int, int, bool, bool]
    assert twins[3].rng.getstate() != state.rng.getstate() == twins[4].rng.getstate()
    assert twins[4].rng.random() == state.rng.random()


def test_a_state_whose_moves_do_not_replay_alike_is_refused_at_its_first_pop_in_one_line():
    DriftState.drifts = 4  # the original's moves drift, their replay's do not
    state = tally(DriftGame)
    twin = pickle.loads(pickle.dumps(state))
    assert twin.total == state.total and twin.steps == state.steps  # its position is exact
    with pytest.raises(pickle.UnpicklingError) as caught:
        twin.pop()
    message = str(caught.value)
    assert "DriftState" in message and "did not reach its position" in message
    assert "\n" not in message
    assert twin.total == state.total and len(twin.move_stack) == 4  # refused: unchanged


def test_a_state_class_with_its_own_undo_pickles_by_its_attributes():
    class OwnUndoState(TallyState):
        def undo(self, move):
            return None

    class OwnUndoGame(TallyGame):
        def new_state(self, seed=None):
            return OwnUndoState(self, seed)

    from hexkit.kit import statepickle

    assert statepickle.plain_class(TallyState)
    assert not statepickle.plain_class(OwnUndoState)
    state = tally(OwnUndoGame)
    assert statepickle.reduce_state(state)[0] is not statepickle.rebuild_plain


def test_a_turn_order_pickles_as_the_same_value():
    from hexkit.kit.turns import TurnOrder

    order = TurnOrder(3, actions_per_turn=2).act().act().drop(1)
    twin = pickle.loads(pickle.dumps(order))
    assert twin == order and twin.next_active(0) == 2 and twin.act().turns_taken == (1, 0, 0)
