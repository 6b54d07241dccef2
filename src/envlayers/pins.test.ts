import { describe, expect, it } from "vitest";
import type { PythonEnvironmentSpec } from "../swebench/index.js";
import { decideMissing, missingRequirement, nearestVersion, packageName, pinnedVersion } from "./pins.js";

// pip's own words, from build logs of sympy's environments on this machine.
const NONE = `Looking in indexes: https://pypi.org/simple, file:///opt/pypi/simple
ERROR: Could not find a version that satisfies the requirement flake8-comprehensions (from versions: none)
ERROR: No matching distribution found for flake8-comprehensions
`;
const OTHER_PYTHON = `Processing /opt/pypi/files/mpmath-1.3.0-py3-none-any.whl
ERROR: Package 'flake8' requires a different Python: 3.9.18 not in '>=3.10'
`;
const SOME = `ERROR: Could not find a version that satisfies the requirement attrs==23.1.0 (from versions: 21.4.0, 25.3.0, 26.1.0)
ERROR: No matching distribution found for attrs==23.1.0
`;

const spec: PythonEnvironmentSpec = {
  python: "python3.9",
  packages: [
    ["mpmath", "flake8"],
    ["attrs==23.1.0", "flake8-comprehensions"],
  ],
  optional: ["flake8", "flake8-comprehensions"],
  install: ["python -m pip install -e ."],
  recipe: "acme/x 1.0",
};

describe("what pip could not find", () => {
  it("reads the requirement and the versions pip listed, or none", () => {
    expect(missingRequirement(NONE)).toEqual({ requirement: "flake8-comprehensions", versions: null });
    expect(missingRequirement(SOME)).toEqual({
      requirement: "attrs==23.1.0",
      versions: ["21.4.0", "25.3.0", "26.1.0"],
    });
    expect(missingRequirement(OTHER_PYTHON)).toEqual({
      requirement: "flake8",
      versions: null,
      python: "it requires Python >=3.10",
    });
    expect(missingRequirement("error: subprocess-exited-with-error\n")).toBeUndefined();
    // requests' environment on Python 3.9: pytest needs tomli, which these indexes hold for 3.11 only.
    const conflict = `ERROR: Cannot install pytest==8.4.2 and pytest==9.1.1 because these package versions have conflicting dependencies.

The conflict is caused by:
    pytest 9.1.1 depends on tomli>=1; python_version < "3.11"
    pytest 8.4.2 depends on tomli>=1; python_version < "3.11"

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/
`;
    expect(missingRequirement(conflict)).toEqual({
      requirement: "tomli>=1 (which pytest needs)",
      versions: null,
      neededBy: "pytest",
    });
    // pytest is optional here (sympy's bin/test does not use it): it is left out, not the environment.
    const d = decideMissing(
      { ...spec, packages: [["mpmath", "pytest"]], optional: ["pytest"] },
      missingRequirement(conflict) as never,
      "exact",
      "3.9",
    );
    expect(d).toMatchObject({
      relaxed: false,
      change: expect.stringMatching(/^pytest left out: it needs tomli>=1/),
    });
    if ("spec" in d) expect(d.spec.packages).toEqual([["mpmath"]]);
    // …and when a plugin still pulls pytest in, every requirement the tests do without goes at once.
    const again = decideMissing(
      {
        ...spec,
        packages: [["mpmath", "pytest-xdist", "pytest-timeout"]],
        optional: ["pytest", "pytest-xdist", "pytest-timeout"],
      },
      missingRequirement(conflict) as never,
      "exact",
      "3.9",
    );
    expect(again).toMatchObject({
      change: expect.stringMatching(/^pytest-xdist, pytest-timeout left out: one of them needs pytest/),
    });
    if ("spec" in again) expect(again.spec.packages).toEqual([["mpmath"]]);
  });

  it("names packages and pins as pip does", () => {
    expect(packageName("Jinja2==3.0.3")).toBe("jinja2");
    expect(packageName("typing_extensions>=4")).toBe("typing-extensions");
    expect(pinnedVersion("pytz==2023.3.post1")).toBe("2023.3.post1");
    expect(pinnedVersion("pytest>=7")).toBeUndefined();
  });
});

describe("the nearest version", () => {
  it("shares the most leading numbers, then takes the smallest step, then the newer", () => {
    expect(nearestVersion("23.1.0", ["21.4.0", "25.3.0", "26.1.0"])).toBe("25.3.0");
    expect(nearestVersion("23.1.0", ["21.4.0", "26.1.0"])).toBe("21.4.0");
    expect(nearestVersion("1.3.0", ["1.4.1", "1.3.5", "2.0"])).toBe("1.3.5");
    expect(nearestVersion("2.0", ["1.0", "3.0"])).toBe("3.0");
    expect(nearestVersion("1.0", [])).toBeUndefined();
  });
});

describe("deciding about a missing requirement", () => {
  it("leaves out an optional one, and says so", () => {
    const d = decideMissing(spec, missingRequirement(NONE) as never, "exact", "3.9");
    expect(d).toMatchObject({
      relaxed: false,
      change: expect.stringContaining("flake8-comprehensions left out"),
    });
    if ("spec" in d) expect(d.spec.packages).toEqual([["mpmath", "flake8"], ["attrs==23.1.0"]]);
  });

  it("makes the environment unavailable for a pin, naming it and what the indexes have", () => {
    expect(decideMissing(spec, missingRequirement(SOME) as never, "exact", "3.9")).toEqual({
      unavailable:
        "pin attrs==23.1.0 is not in the package indexes: the indexes have 21.4.0, 25.3.0, 26.1.0 for Python 3.9 (--pins available takes the nearest)",
    });
  });

  it("takes the nearest version when pins are relaxed, and says so", () => {
    const d = decideMissing(spec, missingRequirement(SOME) as never, "available", "3.9");
    expect(d).toMatchObject({ relaxed: true, change: "attrs==23.1.0 → attrs==25.3.0 (pins relaxed)" });
    if ("spec" in d) expect(d.spec.packages?.[1]).toEqual(["attrs==25.3.0", "flake8-comprehensions"]);
  });

  it("makes it unavailable when what is missing is a dependency no recipe line names", () => {
    const d = decideMissing(spec, { requirement: "tomli>=1", versions: null }, "available", "3.9");
    expect(d).toEqual({
      unavailable: expect.stringMatching(/^tomli>=1, which the environment's packages or install line need/),
    });
  });
});
