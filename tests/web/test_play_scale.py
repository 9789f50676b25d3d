"""Play beyond the rules with several processes on one PostgreSQL: the clocks, endings and
offers live in the shared storage, so every process counts the same clocks and a flag,
a resignation or a draw offer decided by one is what the others find."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")


def two_stores(postgres_url: str) -> tuple[Any, Any, Any]:
    from hexkit import plugins
    from hexkit.web.pgstorage import PostgresStorage
    from hexkit.web.rooms import RoomStore

    registry = plugins.registry()
    one = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    two = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    return registry, one, two


def test_every_process_counts_the_same_clock_and_one_flag_ends_the_game_for_all(
        postgres_url):
    from hexkit.web.play import TimeControl
    from hexkit.web.rooms import RoomError

    registry, one, two = two_stores(postgres_url)
    try:
        game = registry.game_spec("focus").make_game({})
        room, _, red = one.create(game, ["human", "human"], seed=3, take=0,
                                  clock=TimeControl(1, 2))
        green = one._work(room, lambda: room.take_seat(1))
        one._work(room, lambda: room.play(red, str(room.state.legal_moves()[0])))
        # A process that opens the game later counts Green's clock from the same moment:
        # the clock is the stored one, not restarted when a process loads the game.
        there = two.load_room(room.id)
        assert there.flow.clock == room.flow.clock and there.flow.clock.running == 1
        # Green's time runs out (as if 61 s went by since the turn started).
        def later() -> None:
            room.flow.clock.since -= 61
            room.save_seats()

        one._work(room, later)
        assert two._work(there, there.check_time) is True
        assert there.result_text() == "Game over: Red wins (Green ran out of time)."
        # The other process, holding the game from before, finds it ended: no flag twice,
        # no move after it, no undo.
        assert one._work(room, room.check_time) is False
        assert room.finished and room.flow.ended == there.flow.ended
        with pytest.raises(RoomError, match="game is over"):
            one._work(room, lambda: room.play(green, str(room.state.legal_moves()[0])))
        with pytest.raises(RoomError, match="no longer taken back"):
            one._work(room, lambda: room.request_undo([red]))
        assert room.record.moves == there.record.moves and len(room.record.moves) == 1
    finally:
        one.close()
        two.close()


def test_a_draw_offered_on_one_process_is_accepted_on_another(postgres_url):
    from hexkit.web import referee

    registry, one, two = two_stores(postgres_url)
    try:
        game = registry.game_spec("focus").make_game({})
        room, _, red = one.create(game, ["human", "human"], seed=3, take=0)
        green = one._work(room, lambda: room.take_seat(1))
        there = two.load_room(room.id)
        one._work(room, lambda: referee.offer_draw(room, red))
        two._work(there, lambda: referee.answer_draw(there, green, True))
        one._work(room, lambda: None)
        assert room.finished and room.result_text() == "Game over: a draw (agreed)."
        assert room.flow.draw_offer is None
    finally:
        one.close()
        two.close()
