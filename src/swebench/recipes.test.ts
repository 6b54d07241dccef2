import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDirectives } from "./directives.js";
import { completeRow, environmentYmlRequirements, needsRecipe, requirementLines } from "./published.js";
import { recipeFor, recipes } from "./recipes.js";

/** The twelve Python repositories of SWE-bench Verified. */
const VERIFIED = [
  "astropy/astropy",
  "django/django",
  "matplotlib/matplotlib",
  "mwaskom/seaborn",
  "pallets/flask",
  "psf/requests",
  "pydata/xarray",
  "pylint-dev/pylint",
  "pytest-dev/pytest",
  "scikit-learn/scikit-learn",
  "sphinx-doc/sphinx",
  "sympy/sympy",
];

describe("the recipes", () => {
  it("cover every Python repository of SWE-bench Verified, one file each, each version once", () => {
    const all = recipes();
    expect([...all.keys()].sort()).toEqual(VERIFIED);
    for (const recipe of all.values()) {
      const versions = recipe.environments.flatMap((e) => e.versions);
      expect(new Set(versions).size, recipe.repo).toBe(versions.length);
    }
  });

  it("know every (repo, version) of the 300 Lite rows as published", () => {
    const { pairs } = JSON.parse(
      readFileSync(join(import.meta.dirname, "fixtures", "lite-versions.json"), "utf8"),
    ) as { pairs: Array<[string, string]> };
    expect(pairs.length).toBeGreaterThan(40);
    expect(pairs.filter(([repo, version]) => "problem" in recipeFor(repo, version))).toEqual([]);
  });

  it("give sympy 1.7 what SWE-bench's harness gives it", () => {
    const found = recipeFor("sympy/sympy", "1.7");
    if (!("recipe" in found)) throw new Error(found.problem);
    expect(found.recipe).toMatchObject({
      python: "3.9",
      pip: ["mpmath==1.3.0", "flake8-comprehensions"],
      install: "python -m pip install -e .",
      test: ["bin/test", "-C", "--verbose"],
      log_parser: "sympy",
    });
  });

  it("name what is unknown: the repository, or the version and the versions there are", () => {
    expect(recipeFor("acme/nothing", "1.0")).toEqual({
      problem: expect.stringMatching(/^no recipe for the repository acme\/nothing/),
    });
    expect(recipeFor("sympy/sympy", "0.1")).toEqual({
      problem: expect.stringMatching(
        /^no recipe for sympy\/sympy version "0.1": SWE-bench's harness knows 0.7, 1.0/,
      ),
    });
  });
});

describe("test directives", () => {
  const patch = [
    "diff --git a/tests/admin_views/test_forms.py b/tests/admin_views/test_forms.py",
    "diff --git a/tests/admin_views/fixtures/data.json b/tests/admin_views/fixtures/data.json",
    "diff --git a/docs/notes.txt b/docs/notes.txt",
    "diff --git a/tests/i18n/sampleproject/templates/x.html b/tests/i18n/sampleproject/templates/x.html",
  ].join("\n");

  it("are the test patch's files, data files left out", () => {
    expect(testDirectives(patch, "files")).toEqual([
      "tests/admin_views/test_forms.py",
      "tests/i18n/sampleproject/templates/x.html",
    ]);
  });

  it("are dotted modules below tests/ for Django's runner", () => {
    expect(testDirectives(patch, "django-modules")).toEqual([
      "admin_views.test_forms",
      "i18n.sampleproject.templates.x.html",
    ]);
  });
});

describe("a published row completed from its recipe", () => {
  const row = {
    instance_id: "sympy__sympy-1",
    repo: "sympy/sympy",
    version: "1.7",
    base_commit: "abc",
    test_patch: "diff --git a/sympy/core/tests/test_basic.py b/sympy/core/tests/test_basic.py\n",
  };

  it("gets the test command with its directives, the parser, the environment and the store's repository", () => {
    const found = recipeFor("sympy/sympy", "1.7");
    if (!("recipe" in found)) throw new Error(found.problem);
    expect(needsRecipe(row)).toBe(true);
    expect(completeRow(row, found.recipe, { repoPath: "/store/sympy+sympy/repo" })).toMatchObject({
      test_command: [
        "env",
        "PYTHONWARNINGS=ignore::UserWarning,ignore::SyntaxWarning",
        "bin/test",
        "-C",
        "--verbose",
        "sympy/core/tests/test_basic.py",
      ],
      log_parser: "sympy",
      repo_path: "/store/sympy+sympy/repo",
      acilab_env: {
        python: "python3.9",
        packages: [
          ["mpmath", "flake8"],
          ["mpmath==1.3.0", "flake8-comprehensions"],
        ],
        install: ["python -m pip install -e ."],
        optional: ["flake8", "flake8-comprehensions"],
        recipe: "sympy/sympy 1.7",
      },
    });
  });

  it("leaves a requirement only other test files import optional for this row", () => {
    const found = recipeFor("sympy/sympy", "1.13");
    if (!("recipe" in found)) throw new Error(found.problem);
    const other = completeRow(row, found.recipe, { repoPath: "/r", requirements: "hypothesis\n" });
    expect((other.acilab_env as { optional: string[] }).optional).toContain("hypothesis");
    const own = completeRow(
      {
        ...row,
        test_patch:
          "diff --git a/sympy/ntheory/tests/test_hypothesis.py b/sympy/ntheory/tests/test_hypothesis.py\n",
      },
      found.recipe,
      { repoPath: "/r", requirements: "hypothesis\n" },
    );
    expect((own.acilab_env as { optional: string[] }).optional).not.toContain("hypothesis");
  });

  it("keeps what the row has of its own", () => {
    const found = recipeFor("sympy/sympy", "1.7");
    if (!("recipe" in found)) throw new Error(found.problem);
    const own = { ...row, test_command: ["bin/test", "x.py"], log_parser: "sympy" };
    expect(needsRecipe(own)).toBe(false);
    const done = completeRow({ ...row, test_command: ["bin/test", "x.py"] }, found.recipe, {
      repoPath: "/r",
    });
    expect(done.test_command).toEqual(["bin/test", "x.py"]);
  });
});

describe("requirements as SWE-bench reads them", () => {
  it("drops comments, editable installs, extras of the project and options; swaps yanked names", () => {
    expect(
      requirementLines(
        "# dev\n-e .\n.[test]\n--index-url https://x\npytest>=7  # runner\ntypes-pkg_resources==0.1\n\nmpmath==1.3.0\n",
      ),
    ).toEqual(["pytest>=7", "types-setuptools", "mpmath==1.3.0"]);
  });

  it("reads a conda environment.yml's dependencies as pip specifiers", () => {
    const yml =
      "name: x\ndependencies:\n  - python=3.10\n  - numpy=1.23\n  - scipy>=1.5\n  - pip\n  - pip:\n    - pytest-env\n";
    expect(environmentYmlRequirements(yml)).toEqual(["numpy==1.23.*", "scipy>=1.5", "pytest-env"]);
  });
});
