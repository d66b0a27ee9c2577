"""scripts/fit_entailment_reader.py wrote the packaged reader (rewards/data/entailment_reader.npz) by default, so a
plain run after stop 54's refit (which did worse and was not shipped) replaced the shipped reader. A fit now goes to
a scratch file unless --write is given, and --out naming the packaged file without --write is refused before any
fitting starts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ROOT / "rewards" / "data" / "entailment_reader.npz"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("fit_entailment_reader", ROOT / "scripts" / "fit_entailment_reader.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_plain_run_does_not_write_the_packaged_reader(script):
    assert script.output_path([]).resolve() != PACKAGED.resolve()


def test_write_replaces_the_packaged_reader(script):
    assert script.output_path(["--write"]).resolve() == PACKAGED.resolve()


def test_another_out_is_kept(script, tmp_path):
    assert script.output_path(["--out", str(tmp_path / "r.npz")]) == tmp_path / "r.npz"


def test_out_naming_the_packaged_reader_needs_write(script):
    with pytest.raises(SystemExit):
        script.output_path(["--out", str(PACKAGED)])
    with pytest.raises(SystemExit):
        script.main(["--out", str(PACKAGED)])
