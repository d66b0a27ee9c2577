"""The memos' caps are one documented setting (issue 17, item 15)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import json
import mentalhospital_env.env
from mentalhospital_env.knowledge import language
from mentalhospital_env.rewards import adjudication, coverage, embedders
print(json.dumps({
    "scale": language.MEMO_SCALE,
    "text": language.TEXT_MEMO_SIZE,
    "verdicts": adjudication._MEMO_SIZE,
    "phrasing_bytes": adjudication.PHRASING_STACK_BYTES,
    "matches": coverage.MATCH_MEMORY.max_entries,
    "embeddings": embedders.make_embedder("hashing").cache.max_size,
    "bucket": embedders._bucket.cache_info().maxsize,
}))
"""


def _caps(scale: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MENTALHOSPITAL_MEMO_SCALE"}
    if scale is not None:
        env["MENTALHOSPITAL_MEMO_SCALE"] = scale
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_memo_scale_sets_every_cap():
    default, quarter = _caps(None), _caps("0.25")
    assert default["scale"] == 1.0 and quarter["scale"] == 0.25
    assert default["text"] == 8192 and default["embeddings"] == 50_000 and default["matches"] == 1024
    for key in ("text", "verdicts", "phrasing_bytes", "matches", "embeddings", "bucket"):
        assert quarter[key] == default[key] // 4, key


@pytest.mark.parametrize("bad", ["0", "-1", "x", "nan"])
def test_a_bad_memo_scale_is_a_clear_error(bad):
    env = {**os.environ, "MENTALHOSPITAL_MEMO_SCALE": bad}
    done = subprocess.run([sys.executable, "-c", "import mentalhospital_env.env"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode != 0 and "MENTALHOSPITAL_MEMO_SCALE must be a number above 0" in done.stderr
