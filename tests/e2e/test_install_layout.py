"""Where the frontend finds the compiler and the runtime: inside the
installed package first (``pip install .``: ember/_bin, ember/_runtime,
ember/_install.json, as cmake/EmberInstall.cmake lays them out), then in the
build folder, else a NotAvailableError that says what is missing and why.

The installed layout is faked in a temporary folder (the package folder is
patched), so nothing is installed here; scripts/check_install.sh installs
for real, in a fresh virtual environment.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "frontend"))
import ember  # noqa: E402
from ember import _toolchain  # noqa: E402


@ember.program(slots=8)
def double(x):
    return x + x


def tools(folder: Path, driver: str | None = None) -> Path:
    """ember-opt and ember-translate in ``folder`` (empty: never run here)
    and, given its source, the driver ember-compile."""
    folder.mkdir(parents=True)
    for name in _toolchain.COMPILER_TOOLS:
        (folder / name).write_text("")
    if driver is not None:
        (folder / "ember-compile").write_text(driver)
    return folder


@pytest.fixture
def package(tmp_path, monkeypatch) -> Path:
    """A fake installed package folder, and an empty build folder."""
    pkg = tmp_path / "site-packages" / "ember"
    pkg.mkdir(parents=True)
    monkeypatch.setattr(_toolchain, "PACKAGE_DIR", pkg)
    monkeypatch.setenv("EMBER_BUILD_DIR", str(tmp_path / "build"))
    return pkg


def test_source_tree_is_not_an_installation():
    assert _toolchain.install_info() is None
    assert _toolchain.PACKAGE_DIR == ROOT / "frontend" / "ember"


def test_package_tools_come_before_the_build_folder(package, tmp_path):
    tools(tmp_path / "build" / "bin")
    installed = tools(package / "_bin", driver="WHERE = 'package'\n")
    assert _toolchain.bin_dir() == installed
    assert _toolchain._ember_compile(installed).WHERE == "package"


def test_build_folder_and_repository_driver_are_the_fallback(package, tmp_path):
    built = tools(tmp_path / "build" / "bin")
    assert _toolchain.bin_dir() == built
    driver = _toolchain._ember_compile(built)
    assert Path(driver.__file__) == ROOT / "compiler" / "tools" / "ember-compile"


def test_runtime_only_install_says_the_compiler_was_not_built(package):
    (package / "_install.json").write_text(
        json.dumps(
            {
                "compiler": False,
                "compiler_missing": "MLIR 22 was not found when it was built",
                "cuda": False,
                "cuda_missing": "nvcc was not found when it was built",
            }
        )
    )
    with pytest.raises(
        ember.NotAvailableError,
        match=r"compiler was not built.*runtime only \(MLIR 22 was not found",
    ) as err:
        ember.compile(double)
    assert "ember.load" in str(err.value)


def test_partial_installed_tools_are_not_used(package, tmp_path):
    (package / "_bin").mkdir()
    (package / "_bin" / "ember-opt").write_text("")  # no ember-translate
    (package / "_install.json").write_text('{"compiler": true, "cuda": false}')
    with pytest.raises(ember.NotAvailableError, match="ember-translate") as err:
        _toolchain.bin_dir()
    assert str(package / "_bin") in str(err.value)
    assert str(tmp_path / "build" / "bin") in str(err.value)


def test_no_compiler_anywhere_names_where_it_looked(package, tmp_path):
    with pytest.raises(ember.NotAvailableError, match="MLIR 22") as err:
        ember.compile(double)
    assert str(package / "_bin") in str(err.value)
    assert str(tmp_path / "build" / "bin") in str(err.value)


def test_developer_runtime_builds_against_the_source_tree():
    """Built without EMBER_PYTHON_PACKAGE, the module's paths are absolute,
    into this source tree and its build folder; installed, they resolve
    next to the module (checked by scripts/check_install.sh)."""
    try:
        er = _toolchain.runtime()
    except ember.NotAvailableError:
        pytest.skip("the runtime module is not built")
    assert Path(er.runtime_include_dir) == ROOT / "runtime" / "include"
    assert Path(er.runtime_library).is_file()
    command = er.program_build_command("SOURCE", "LIBRARY")
    assert er.runtime_include_dir in command and er.runtime_library in command
