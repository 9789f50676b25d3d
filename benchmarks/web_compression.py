"""What permessage-deflate costs and saves on the messages ``hexkit serve`` sends.

    python benchmarks/web_compression.py [--games N] [--moves M]

Plays N random games of Focus and of HexAround in memory (M moves each at most), keeps
the change messages a move sends (to the browser holding the seat to move, with its legal
moves, and to the others), and compresses each socket's stream as permessage-deflate does
with the settings uvicorn negotiates (12-bit windows, memLevel 5, the context kept from
message to message): bytes a message before and after, and the CPU of compressing and
inflating one. ``hexkit serve --no-compression`` turns it off.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import zlib


def messages(name: str, games: int, moves: int) -> dict[str, list[bytes]]:
    from hexkit import plugins
    from hexkit.web.rooms import RoomStore

    store = RoomStore(None, plugins.registry())
    game = plugins.load_game(name)
    rng = random.Random(2)
    out: dict[str, list[bytes]] = {"to move": [], "others": []}
    for seed in range(games):
        room, _, _ = store.create(game, ["human", "human"], seed=seed)
        tokens = [room.take_seat(0), room.take_seat(1)]
        room.publish()
        while not room.finished and len(room.log) < moves:
            published = room.published
            assert published is not None
            seat = room.state.current_player
            move = rng.choice(published.data["moves"])["text"]
            store._work(room, lambda: room.play(tokens[seat], move))  # noqa: B023
            published = room.published
            assert published is not None and published.mover and published.others
            out["to move"].append(published.mover.encode())
            out["others"].append(published.others.encode())
    store.close()
    return out


def measure(texts: list[bytes]) -> tuple[float, float, float, float]:
    """Median bytes before and after, microseconds to compress and to inflate one."""
    packer = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -12, 5)
    unpacker = zlib.decompressobj(-12)
    packed = []
    started = time.process_time()
    for text in texts:
        packed.append(packer.compress(text) + packer.flush(zlib.Z_SYNC_FLUSH))
    middle = time.process_time()
    for data in packed:
        unpacker.decompress(data)
    done = time.process_time()
    count = max(1, len(texts))
    return (statistics.median(len(t) for t in texts), statistics.median(len(p) for p in packed),
            (middle - started) / count * 1e6, (done - middle) / count * 1e6)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games of each (default 10)")
    ap.add_argument("--moves", type=int, default=80, help="moves a game at most (default 80)")
    args = ap.parse_args()
    for name in ("focus", "hexaround"):
        for kind, texts in messages(name, args.games, args.moves).items():
            raw, packed, pack_us, unpack_us = measure(texts)
            print(f"web-compression: {name}, {kind}: {len(texts)} messages, median "
                  f"{raw:.0f} B -> {packed:.0f} B deflated ({raw / max(1, packed):.1f}x), "
                  f"compress {pack_us:.0f} us, inflate {unpack_us:.0f} us a message")


if __name__ == "__main__":
    main()
