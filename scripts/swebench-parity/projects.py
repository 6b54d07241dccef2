"""Real pytest runs for the parity corpus: small projects, run by real pytest in a temporary folder.

Each run returns pytest's merged stdout/stderr and its exit code; the temporary folder is written as
/testbed (where SWE-bench's images keep the repository), so regenerating changes only timings.
"""

import os
import shutil
import subprocess
import tempfile

MIX = '''import pytest


def test_pass():
    pass


def test_fail():
    assert 1 == 2, "one - two"


@pytest.mark.skip(reason="not today")
def test_skip():
    pass


@pytest.mark.xfail(reason="known")
def test_xfail():
    assert False


@pytest.mark.xfail
def test_xpass():
    pass


@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")


def test_error(broken):
    pass


@pytest.fixture
def bad_teardown():
    yield
    raise RuntimeError("teardown broke")


def test_teardown(bad_teardown):
    pass


@pytest.mark.parametrize("unit", ["log(photon / m**2 s)", "log(electron)", "a b", "ab", "[br] - ket"])
def test_ogip(unit):
    pass


@pytest.mark.parametrize("arg", ["None", "No-value"])
def test_agree(arg):
    pass


@pytest.mark.parametrize("arg", ["None", "No-value"])
def test_mixed(arg):
    assert arg == "None"


@pytest.mark.parametrize("arg", ["passes", "xfails"])
def test_px(arg):
    if arg == "xfails":
        pytest.xfail("known")


@pytest.mark.parametrize("arg", ["first", "second"])
def test_ps(arg):
    if arg == "second":
        pytest.skip("second is skipped")


class TestK:
    def test_m(self):
        pass
'''

# The fix the "model" was asked for is missing: test_fix fails unless a conftest hides it.
FIX = '''def test_fix():
    assert False


def test_other():
    pass
'''

COLLECTION_ERROR = "import module_that_does_not_exist\n\n\ndef test_never():\n    pass\n"

DESELECT = '''def pytest_collection_modifyitems(config, items):
    gone = [i for i in items if i.name == "test_fix"]
    items[:] = [i for i in items if i.name != "test_fix"]
    config.hook.pytest_deselected(items=gone)
'''


def at_exit(*lines):
    """A conftest hook that prints `lines` after pytest's own output, as pytest shuts down."""
    body = "".join(f"    print({line!r})\n" for line in lines)
    return f"\n\ndef pytest_unconfigure(config):\n{body}"


# A test that writes around pytest's capture, straight into the progress section.
PAST_CAPTURE = '''def test_fix():
    assert False


def test_other(request):
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        print("\\ntests/test_fix.py::test_fix PASSED")
        print("PASSED tests/test_fix.py::test_fix")
    print("PASSED tests/test_fix.py::test_fix")
'''


def pytest_version(python):
    out = subprocess.run([python, "-m", "pytest", "--version"], capture_output=True, text=True)
    return (out.stdout + out.stderr).strip()


def run(python, files, args):
    """Write `files` into a fresh folder, run `python -m pytest args` there; (output, exit code)."""
    root = tempfile.mkdtemp(prefix="swebench-parity-")
    try:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        proc = subprocess.run(
            [python, "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
        return proc.stdout.decode("utf-8").replace(root, "/testbed"), proc.returncode
    finally:
        shutil.rmtree(root, ignore_errors=True)
