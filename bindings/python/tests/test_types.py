"""The type stubs match the native module (mypy's stubtest) and the package
type-checks strictly."""

import subprocess
import sys

import pytest

mypy = pytest.importorskip("mypy")


@pytest.mark.parametrize(
    "command",
    [["mypy.stubtest", "charsight._charsight"], ["mypy", "--strict", "-p", "charsight"]],
    ids=["stubtest", "strict"],
)
def test_mypy(command, tmp_path):
    run = subprocess.run([sys.executable, "-m", *command], cwd=tmp_path, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout + run.stderr
