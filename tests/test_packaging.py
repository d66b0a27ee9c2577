"""The package installs under one import name and lists every package folder."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> tuple[list[str], dict[str, str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return config["packages"], config["package-dir"]


def test_every_package_folder_is_listed_in_pyproject():
    packages, package_dir = _declared()
    found = set()
    for name, folder in package_dir.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            rel = init.parent.relative_to(base)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    assert sorted(found) == sorted(packages)


def test_agents_and_rewards_install_under_the_package_name():
    code = (
        "import mentalhospital_env.rewards.chart, mentalhospital_env.agents, importlib.util;"
        "print(importlib.util.find_spec('agents') is None or 'mentalhospital' not in str(importlib.util.find_spec('agents').origin))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True)
    assert out.stdout.strip() == "True"


def test_importing_the_package_is_fast_and_light():
    code = (
        "import sys, time; t=time.perf_counter(); import mentalhospital_env; "
        "heavy=[m for m in ('torch','transformers','trl','sentence_transformers') if m in sys.modules]; "
        "print(round(time.perf_counter()-t, 3), heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True)
    seconds, heavy = out.stdout.split(" ", 1)
    assert heavy.strip() == "[]"


@pytest.mark.slow
def test_the_wheel_ships_py_typed_and_the_case_format(tmp_path):
    """PEP 561: type checkers read the package's hints only when py.typed is installed beside it."""
    import zipfile

    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("mentalhospital_env-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for typed in ("mentalhospital_env/py.typed", "mentalhospital_env/agents/py.typed", "mentalhospital_env/rewards/py.typed"):
        assert typed in names, typed
    assert (ROOT / "docs" / "cases.md").exists()
    readme = (ROOT / "README.md").read_text()
    assert "docs/cases.md" in readme and "../shared" not in readme
