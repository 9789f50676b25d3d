"""Hex Baron's own words in ``hexkit play``: ``savefile`` (an AQA data file, apart from
hexkit's own ``save``, which writes a hexkit record) and ``ids`` (the tile numbers laid out
as on the grid)."""

from __future__ import annotations

from pathlib import Path

from hexbaron.game import HexBaronState
from hexbaron.render import tile_number_map
from hexbaron.setup import write_data_file
from hexkit.errors import HexkitError
from hexkit.files.fileio import write_text_atomic
from hexkit.game import State


def savefile_command(state: State, argument: str) -> str:
    """``savefile [-f] FILE``: write the game as an AQA data file (refuses to replace a file
    unless ``-f`` is given)."""
    if not isinstance(state, HexBaronState):
        raise HexkitError("savefile works in Hex Baron games only")
    words = argument.strip()
    force = False
    if words == "-f" or words.startswith("-f "):
        force, words = True, words[2:].strip()
    if not words:
        raise HexkitError("usage: savefile [-f] FILE (writes an AQA data file, e.g. "
                          "savefile game.txt)")
    path = Path(words)
    if path.suffix.lower() in (".yaml", ".yml"):
        raise HexkitError("savefile writes AQA data files, not YAML: use a name such as "
                          "game.txt")
    if path.exists() and not force:
        raise HexkitError(f"{words} already exists; type 'savefile -f {words}' to replace it")
    if path.is_dir():
        raise HexkitError(f"{words} is a folder")
    text = write_data_file(state.to_setup(), state.catalogue)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise HexkitError(f"cannot save to {words}: there is no folder {folder}")
    write_text_atomic(path, text, newline="\n")  # a crash leaves the old file or the new
    return f"saved to {words}; continue it later with: hexkit play hexbaron -o setup={words}"


def ids_command(state: State, argument: str) -> str:
    """``ids``: print the tile numbers laid out as on the grid."""
    if not isinstance(state, HexBaronState):
        raise HexkitError("ids works in Hex Baron games only")
    return "\n".join(tile_number_map(state.pos.size, state.pos.n))
