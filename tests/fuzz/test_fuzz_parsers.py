"""Property-based fuzzing of every parser and loader a user's input reaches: move notation
of every built-in game and variant, YAML variants and configs, .hgc, AQA data files,
records and scenario files. Each input ends in success or exactly one HexkitError (one
line), never another exception; a refused move leaves the state unchanged. A small, fast
slice: ``max_examples`` is kept modest so the whole folder runs in a few seconds."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexkit import plugins
from hexkit.errors import HexkitError

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
#: Examples per target: a fast slice in the suite; HEXKIT_FUZZ_EXAMPLES=2000 fuzzes deeper.
EXAMPLES = int(os.environ.get("HEXKIT_FUZZ_EXAMPLES", "50"))
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=5), database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

GAMES = [
    ("focus", {}), ("focus", {"board": "cross", "players": 4}),
    ("hexbaron", {}), ("hexaround", {}), ("hexaround", {"config": "level3"}),
    ("hive", {}),
]

#: Text near the games' notations: their own symbols, digits, coordinates, junk.
NOTATION = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="abcdefghqrsxyz0123456789-+x,()[]:./ \t@#~*-=_ABCGRSLP", max_size=30),
    st.from_regex(r"[a-h][1-9]-[a-h][1-9](x[0-9]{1,20})?", fullmatch=True),
    st.from_regex(r"-?[0-9]{1,30},-?[0-9]{1,30}", fullmatch=True),
)


def one_line_hexkit_error(call, *args, **kwargs):
    """Run ``call``; a HexkitError must be printable as a message (any other exception
    fails the test by propagating)."""
    try:
        return call(*args, **kwargs)
    except HexkitError as exc:
        assert str(exc).strip()
        return None


@pytest.fixture(scope="module", autouse=True)
def bounded_memory():
    """The whole fuzz module must not grow the process by more than 300 MB (a bomb that
    slipped through would)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    yield
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 300 * 1024, f"fuzzing grew the process by {grown // 1024} MB"


@pytest.fixture(scope="module")
def states():
    registry = plugins.registry()
    out = []
    for name, options in GAMES:
        if name not in registry.games:  # a game whose plugin is not installed
            name, options = "focus", {}
        game = registry.load_game(name, **options)
        state = game.new_state(seed=0)
        for _ in range(3):  # a few moves in, so that moving pieces is possible too
            state.push(state.legal_moves()[0])
        out.append(state)
    return out


@FUZZ
@given(text=NOTATION, which=st.integers(0, len(GAMES) - 1))
def test_move_notation_parses_or_is_refused_without_a_change(states, text, which):
    state = states[which]
    before = state.to_dict()
    depth = len(state.move_stack)
    one_line_hexkit_error(state.parse_move, text)
    try:
        state.push(text)
    except HexkitError:
        assert state.to_dict() == before and len(state.move_stack) == depth
    else:
        state.pop()
        assert state.to_dict() == before


# -- YAML variants and configs ------------------------------------------------------------
def _mutations(text: str):
    """The shipped file with a slice replaced by fuzz: mostly-valid files reach deep into
    the validators."""
    return st.tuples(st.integers(0, len(text)), st.integers(0, 40),
                     st.text(alphabet=st.characters(blacklist_categories=("Cs",)),
                             max_size=30)).map(
        lambda t: text[:t[0]] + t[2] + text[t[0] + t[1]:])


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=False), st.text(max_size=12))
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)),
    max_leaves=25).map(lambda d: yaml.safe_dump(d, allow_unicode=True))


def _loaders():
    from focus.variant import parse_variant
    from hexaround.config import parse_config_text
    from hexbaron.commands import builtin_catalogue
    from hexbaron.setup import setup_from_yaml

    from hexkit.files.yamlfile import parse_yaml

    catalogue = builtin_catalogue()
    return {
        "focus": lambda text: parse_variant(parse_yaml(text, "v.yaml"), "v.yaml"),
        "hexaround": lambda text: parse_config_text(text, "c.yaml"),
        "hexbaron": lambda text: setup_from_yaml(parse_yaml(text, "s.yaml"), "s.yaml",
                                                 catalogue, True),
    }


SHIPPED = {
    "focus": (CONFIGS / "focus" / "cross.yaml").read_text(),
    "hexaround": (CONFIGS / "hexaround" / "menagerie.yaml").read_text(),
    "hexbaron": (CONFIGS / "hexbaron" / "default.yaml").read_text(),
}


@FUZZ
@given(data=st.data(), game=st.sampled_from(sorted(SHIPPED)))
def test_yaml_variants_and_configs_load_or_are_refused_in_one_error(data, game):
    text = data.draw(st.one_of(_mutations(SHIPPED[game]), DOCUMENTS))
    one_line_hexkit_error(_loaders()[game], text)


HGC_SAMPLE = "CREATURES:\n BUTTERFLY [WALKING QUEEN]\n ANT 4 [RUNNING]\n/* c */\n" \
             "PLAYERS:\n BLUE BUTTERFLY 1, ANT 2\n RED BUTTERFLY 1, ANT 2\n"


@FUZZ
@given(text=st.one_of(_mutations(HGC_SAMPLE),
                      st.text(alphabet="CREATURSPLAYBFQWNIGK:[],/* 0123456789\n", max_size=80)))
def test_hgc_files_load_or_are_refused_in_one_error(text):
    from hexaround.config import parse_config_text

    one_line_hexkit_error(parse_config_text, text, "c.hgc", "hgc")


AQA_SAMPLE = ("Player One,0,10,10,5\nPlayer Two,1,10,10,5\n4\n" + ",".join(" #~ #~ #")
              + "\n1,Baron,0\n2,Baron,7\n1,Serf,1\n\nhexkit-turn,1,0,0,0,0\n")


@FUZZ
@given(text=st.one_of(_mutations(AQA_SAMPLE),
                      st.text(alphabet="0123456789,#~ \n\rBaronSefLESPBD-", max_size=120)))
def test_aqa_data_files_load_or_are_refused_in_one_error(text):
    from hexbaron.commands import builtin_catalogue
    from hexbaron.setup import parse_data_file

    one_line_hexkit_error(parse_data_file, text, "g.txt", builtin_catalogue(), True)


# -- records and scenario files ---------------------------------------------------------------
def _record_text() -> str:
    from hexkit.files.records import GameRecord

    game = plugins.registry().load_game("focus")
    state = game.new_state(seed=2)
    for _ in range(4):
        state.push(state.legal_moves()[0])
    record = GameRecord.for_game(game, seed=2)
    record.update(state)
    return json.dumps(record.to_dict(), indent=1)


RECORD = _record_text()


@FUZZ
@given(text=st.one_of(_mutations(RECORD), st.text(alphabet='{}[]":,0123456789.eE-tfn',
                                                  max_size=80)))
def test_records_replay_or_are_refused_in_one_error(tmp_path, text):
    from hexkit.files.records import load_record, replay

    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    record = one_line_hexkit_error(load_record, path)
    if record is not None:
        one_line_hexkit_error(replay, record)


SCENARIO = """\
game: focus
seed: 3
moves:
  - a1-a2x1
  - {move: b1-b2x1, expect: illegal}
facts:
  - {path: turn, equals: 1}
"""


@FUZZ
@given(text=st.one_of(_mutations(SCENARIO), DOCUMENTS))
def test_scenario_files_load_or_are_refused_in_one_error(tmp_path, text):
    from hexkit.tools.scenarios import ScenarioFailure, load_scenarios, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    scenarios = one_line_hexkit_error(load_scenarios, path)
    for scenario in scenarios or ():
        try:
            run_scenario(scenario)
        except ScenarioFailure as exc:  # a scenario that does not hold: its own report
            assert str(exc).strip()


# -- UHP (hexkit uhp, the Hive engine protocol) -----------------------------------------------
UHP_WORDS = ["info", "newgame", "play", "pass", "validmoves", "undo", "options", "perft",
             "bestmove", "exit", "frobnicate", ""]
UHP_ARGS = st.one_of(
    st.just(""), st.text(max_size=30),
    st.sampled_from(["Base", "Base+MLP", "Base+MLP;InProgress;White[3];wS1;bG1 -wS1",
                     "wS1", "bG1 -wS1", "wQ wS1/", "1", "get", "set MaxBranchingFactor 5",
                     "depth 1", "0", "-1", "99999999999999999999999", "time 00:00:00"]),
)


@FUZZ
@given(lines=st.lists(st.tuples(st.sampled_from(UHP_WORDS), UHP_ARGS), min_size=1,
                      max_size=6))
def test_uhp_commands_always_answer_ok_and_never_an_internal_error(lines):
    uhp = pytest.importorskip("hive.uhp")
    session = uhp.UhpSession()
    for word, rest in lines:
        if word in ("bestmove", "perft"):
            rest = "depth 1" if word == "bestmove" else "1"  # bounded work per example
        answer = session.handle(f"{word} {rest}")
        if not (word + rest).strip():
            continue
        assert answer and answer[-1] == "ok", answer
        assert not any(line.startswith("err internal error") for line in answer), answer
        assert all("\n" not in line for line in answer)
        if session.exit_requested:
            break


@FUZZ
@given(raw=st.binary(max_size=60))
def test_uhp_input_bytes_are_answered_line_by_line(raw):
    uhp = pytest.importorskip("hive.uhp")
    import io

    out = io.StringIO()
    uhp.serve(io.BytesIO(raw.replace(b"exit", b"") + b"\ninfo\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "ok"
    assert not any(line.startswith("err internal error") for line in lines)
