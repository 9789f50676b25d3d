"""The shared example transcripts replay byte for byte: through the console function and
through the real ``hexkit play hexbaron --classic`` command line."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from .conftest import EXAMPLES, classic, run_hexkit

pytestmark = pytest.mark.skipif(
    not (EXAMPLES / "cases.json").is_file(),
    reason=f"the shared Hex Baron examples are not beside the project ({EXAMPLES})",
)


def _cases() -> list[dict]:
    if not (EXAMPLES / "cases.json").is_file():
        return []
    return json.loads((EXAMPLES / "cases.json").read_text(encoding="utf-8"))["cases"]


def _prepare(case: dict, tmp_path):
    for name in case["fixtures"]:
        shutil.copyfile(EXAMPLES / "fixtures" / name, tmp_path / name)
    stdin = (EXAMPLES / f"{case['name']}.in").read_bytes()
    expected = (EXAMPLES / f"{case['name']}.out").read_bytes()
    assert hashlib.sha256(expected).hexdigest() == case["out_sha256"]
    return stdin, expected


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["name"])
def test_classic_console_replays_the_example_transcript_byte_for_byte(case, tmp_path):
    stdin, expected = _prepare(case, tmp_path)
    code, out, err = classic(stdin.decode("utf-8"), seed=case["seed"], cwd=tmp_path)
    assert out.encode("utf-8") == expected
    assert code == case["exit_code"]
    assert err == ""


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["name"])
def test_hexkit_play_classic_replays_the_example_transcript_byte_for_byte(case, tmp_path):
    stdin, expected = _prepare(case, tmp_path)
    result = run_hexkit("play", "hexbaron", "--classic", "--seed", str(case["seed"]),
                        stdin=stdin, cwd=tmp_path, real=True)
    assert result.stdout == expected
    assert result.returncode == case["exit_code"]
    assert result.stderr == b""
