import { describe, expect, it } from "vitest";
import { detectTestSetup, srcLayout } from "./detect.js";
import { testPaths } from "./paths.js";
import { pytestConfig, shellSplit, withoutCoverage } from "./pytest-config.js";

describe("srcLayout", () => {
  it("finds the package under src/ when the root has none of that name", () => {
    expect(srcLayout(["src/cachetools/__init__.py", "src/cachetools/keys.py", "tests/test_keys.py"])).toBe(
      "cachetools",
    );
    expect(srcLayout(["src/single.py", "tests/test_single.py"])).toBe("single");
    expect(srcLayout(["toolz/__init__.py", "toolz/tests/test_x.py"])).toBeUndefined();
    // A src/ folder beside a root package of the same name is not the package.
    expect(srcLayout(["pkg/__init__.py", "src/pkg/__init__.py"])).toBeUndefined();
  });
});

describe("detectTestSetup", () => {
  it("runs pytest with src/ on the path for a src layout, and plainly for a flat one", () => {
    const files = ["pyproject.toml", "tox.ini", "src/humanize/__init__.py", "tests/test_time.py"];
    const src = detectTestSetup("/r", files, undefined, {
      "pyproject.toml": "[project]\n",
      "tox.ini": "[pytest]\naddopts = -v\n",
    });
    // tox.ini holds pytest's settings here: naming pyproject.toml with -c would drop them.
    expect(src.command.slice(-4)).toEqual(["-c", "tox.ini", "-o", "pythonpath=src"]);
    expect(src.how).toContain("src layout (humanize)");
    const bare = detectTestSetup("/r", ["src/pkg/__init__.py", "tests/test_pkg.py"]);
    expect(bare.command).not.toContain("pythonpath=src");
    expect(bare.how).toContain("install it in an environment");
    const flat = detectTestSetup("/r", ["parse.py", "test_parse.py"]);
    expect(flat.command).not.toContain("pythonpath=src");
  });
});

describe("pytestConfig", () => {
  it("takes the file pytest would read, in pytest's order, else any config file", () => {
    const files = ["pyproject.toml", "setup.cfg", "tox.ini"];
    expect(pytestConfig(files, { "setup.cfg": "[tool:pytest]\n" })).toBe("setup.cfg");
    expect(
      pytestConfig(files, { "pyproject.toml": "[tool.pytest.ini_options]\n", "tox.ini": "[pytest]\n" }),
    ).toBe("pyproject.toml");
    expect(pytestConfig([...files, "pytest.ini"], {})).toBe("pytest.ini");
    expect(pytestConfig(files, {})).toBe("pyproject.toml");
    expect(pytestConfig(["README.md"], {})).toBeUndefined();
  });
});

describe("withoutCoverage", () => {
  it("drops pytest-cov's options from an ini addopts and keeps the rest", () => {
    const ini =
      "[pytest]\naddopts = --cov=parse --cov-report=term-missing --cov-append --cov-branch --doctest-modules --doctest-glob=README.rst\n";
    expect(withoutCoverage([".pytest.ini"], { ".pytest.ini": ini })).toBe(
      "--doctest-modules --doctest-glob=README.rst",
    );
    // Continuation lines, a comment among them, `--cov PKG` with its value apart, another section first.
    const continued =
      "[flake8]\naddopts = --nope\n\n[tool:pytest]\naddopts =\n    -v\n    # coverage\n    --cov mypkg\n    --cov-report term\n    -ra\n";
    expect(withoutCoverage(["setup.cfg"], { "setup.cfg": continued })).toBe("-v -ra");
  });

  it("reads TOML strings and lists, and leaves a config without coverage alone", () => {
    const list =
      '[tool.pytest.ini_options]\naddopts = [ "--color=yes", "--cov", "--cov-report=xml", "-m", "not slow", "--deselect=t.py::x[1]", "-p", "pytest_cov" ]\n';
    const kept = withoutCoverage(["pyproject.toml"], { "pyproject.toml": list });
    expect(kept).toBe("--color=yes -m 'not slow' '--deselect=t.py::x[1]'");
    // Joined as a shell would, it splits back into the same arguments (pytest uses shlex).
    expect(shellSplit(kept ?? "")).toEqual(["--color=yes", "-m", "not slow", "--deselect=t.py::x[1]"]);
    const triple = '[tool.pytest.ini_options]\naddopts = """\n--cov=pkg\n-q\n"""\n';
    expect(withoutCoverage(["pyproject.toml"], { "pyproject.toml": triple })).toBe("-q");
    const plain = '[tool.pytest.ini_options]\naddopts = "-v --tb=short"\n';
    expect(withoutCoverage(["pyproject.toml"], { "pyproject.toml": plain })).toBeUndefined();
  });

  it("puts the rest back through -o addopts in the test command", () => {
    const ini = "[pytest]\naddopts = --cov=parse --doctest-modules\n";
    const setup = detectTestSetup("/r", [".pytest.ini", "parse.py", "tests/test_parse.py"], undefined, {
      ".pytest.ini": ini,
    });
    expect(setup.command.slice(-2)).toEqual(["-o", "addopts=--doctest-modules"]);
  });
});

describe("detectTestSetup with --test-files", () => {
  it("takes the named files as test modules, and says so when the globs match none", () => {
    const files = ["slugify/__init__.py", "slugify/slugify.py", "checks.py"];
    expect(detectTestSetup("/r", files, undefined, {}, testPaths(["checks.py"])).testFiles).toEqual([
      "checks.py",
    ]);
    expect(() => detectTestSetup("/r", files, undefined, {}, testPaths(["nothing/*.py"]))).toThrow(
      /--test-files nothing\/\*\.py matches no Python, JavaScript or TypeScript file/,
    );
  });
});
