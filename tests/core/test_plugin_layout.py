"""One plugin layout by role: the same file name for the same role in every built-in game
(docs/core.md, "Architecture"), so that a reader who knows one game finds their way in the
others, and a student's plugin (``hexkit new-plugin``) starts from the same shape."""

from __future__ import annotations

import ast
from pathlib import Path

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"
GAMES = ("focus", "hexaround", "hexbaron", "hive")

#: The file of each role.
ROLES = {
    "plugin.py": "the spec and the hooks (the entry point)",
    "game.py": "the Game and the State over the generic API",
    "rules.py": "which moves are legal and what they do",
    "notation.py": "the move types and their text",
    "narration.py": "what a move did, as events",
    "rulebook.py": "the rules in words",
    "render.py": "pictures: text and a BoardView",
    "policy.py": "the game's help for the bots",
    "actions.py": "the fixed action space",
    "observation.py": "the observation planes",
}

#: Names that once meant a role in one game and something else in another: no game uses them.
OTHER_NAMES = {
    "moves.py": "rules.py (how pieces move) or notation.py (the move types)",
    "describe.py": "rulebook.py", "events.py": "narration.py", "describe_rules.py": "rulebook.py",
    "narrate.py": "narration.py", "bots.py": "policy.py", "view.py": "render.py",
}

#: Where a role of a game is not in its own file yet, and why: each entry names a real gap
#: (the test fails when the file appears, so that the entry goes too).
NOT_IN_ITS_OWN_FILE: dict[tuple[str, str], str] = {}


def _docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def test_every_game_has_a_file_for_every_role():
    missing = [f"{game}/{name}" for game in GAMES for name in ROLES
               if not (PLUGINS / game / name).is_file()
               and (game, name) not in NOT_IN_ITS_OWN_FILE]
    assert missing == []


def test_every_listed_gap_is_still_a_gap():
    closed = [f"{game}/{name}" for game, name in NOT_IN_ITS_OWN_FILE
              if (PLUGINS / game / name).is_file()]
    assert closed == [], "remove these from NOT_IN_ITS_OWN_FILE"


def test_no_game_keeps_a_role_under_another_name():
    found = [f"{game}/{name} (use {OTHER_NAMES[name]})" for game in GAMES
             for name in OTHER_NAMES if (PLUGINS / game / name).is_file()]
    assert found == []


def test_every_module_of_a_game_says_what_it_is():
    silent = [str(path.relative_to(PLUGINS)) for game in GAMES
              for path in sorted((PLUGINS / game).glob("*.py")) if not _docstring(path)]
    assert silent == []


def test_the_template_and_the_tutorial_example_have_the_same_layout():
    root = Path(__file__).resolve().parents[2]
    for package in ("hexkit/templates/plugin/newgame", "examples/hex-connection/hexconnection"):
        names = {p.name for p in (root / package).glob("*.py")} - {"__init__.py"}
        assert {"plugin.py", "game.py"} <= names, package
        assert names <= ROLES.keys(), (package, names - ROLES.keys())
