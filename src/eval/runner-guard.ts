/**
 * Starting the test runner so that the repository under test cannot stand in for it. `python3 -m
 * pytest`, run from the repository, puts the working directory first on sys.path before importing
 * pytest, so a `pytest.py` (or `_pytest/`, `pluggy.py` …) in the repository *is* the runner, and an
 * `*.egg-info/entry_points.txt` there registers a plugin pytest loads by itself. The guarded start
 * imports pytest from the environment first, then gives the tests the working directory on sys.path
 * exactly as `-m` would, and turns off plugins that only the repository's own metadata declares.
 * Code under test still runs inside the runner — the canaries are what catch tampering from there.
 */

/** Runs in place of `-m pytest`: sys.argv[1:] are pytest's arguments. Python ≥ 3.6, no imports of ours. */
export const PYTEST_BOOT = `import sys
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]
import os
import importlib.metadata as _md
import pytest


def _plugins():
    try:
        return {ep.name for ep in _md.entry_points(group="pytest11")}
    except Exception:
        return set()


_installed = _plugins()
sys.path.insert(0, os.getcwd())
_args = sys.argv[1:]
for _name in sorted(_plugins() - _installed):
    _args = ["-p", "no:" + _name] + _args
sys.argv = ["pytest"] + _args
raise SystemExit(pytest.console_main())
`;

const PYTHON = /(?:^|\/)python(?:\d+(?:\.\d+)?)?$/;

export interface GuardedCommand {
  argv: string[];
  /** What was changed, for eval.sh and the report; null when the command was left as it is. */
  guard: string | null;
}

/**
 * `python3 [interpreter flags] -m pytest ARGS` → `python3 [flags] -c PYTEST_BOOT ARGS`. Any other
 * command is returned unchanged: `pytest` (the console script imports pytest before the tests' paths
 * exist), node (whose loader is given by absolute path) and shell wrappers, which start the runner
 * themselves.
 */
export function guardTestCommand(argv: readonly string[]): GuardedCommand {
  const [exe, ...rest] = argv;
  if (exe === undefined || !PYTHON.test(exe)) return { argv: [...argv], guard: null };
  // Interpreter options up to `-m`: bare flags, and -X/-W with their value attached or next.
  let m = 0;
  while (m < rest.length && rest[m] !== "-m") {
    const flag = rest[m] as string;
    if (flag === "-X" || flag === "-W") m += 2;
    else if (/^-(?:[bBdEiIOqsSuv]+|X\S+|W\S+)$/.test(flag)) m += 1;
    else return { argv: [...argv], guard: null };
  }
  const flags = rest.slice(0, m);
  if (rest[m] !== "-m" || rest[m + 1] !== "pytest") return { argv: [...argv], guard: null };
  return {
    argv: [exe, ...flags, "-c", PYTEST_BOOT, ...rest.slice(m + 2)],
    guard: "pytest started from the environment, not the repository (python -c <boot> in place of -m pytest)",
  };
}
