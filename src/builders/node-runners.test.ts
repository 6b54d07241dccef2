import { describe, expect, it } from "vitest";
import { detectTestSetup } from "./detect.js";
import { detectNodeRunner, keptFlags, shellCommands } from "./node-runners.js";

describe("shellCommands", () => {
  it("splits a script line into commands and words, quotes honoured", () => {
    expect(
      shellCommands(`npm run lint && nyc --reporter=lcov mocha --require "test/support env" | tee x; ava`),
    ).toEqual([
      ["npm", "run", "lint"],
      ["nyc", "--reporter=lcov", "mocha", "--require", "test/support env"],
      ["tee", "x"],
      ["ava"],
    ]);
  });
});

describe("detectNodeRunner: the test scripts of real packages", () => {
  it("expressjs/cors: follows npm run test-ci through nyc to mocha, keeping --require", () => {
    const r = detectNodeRunner({
      scripts: {
        test: "npm run lint && npm run test-ci",
        "test-ci": "nyc --reporter=lcov --reporter=text mocha --require test/support/env",
        lint: "eslint lib test",
      },
      devDependencies: { mocha: "10.1.0", nyc: "15.1.0" },
    });
    expect(r?.runner).toBe("mocha");
    expect(r?.command).toEqual(["mocha", "--require", "test/support/env", "--reporter", "json"]);
    expect(r?.logParser).toBe("mocha-json");
    expect(r?.how).toBe('mocha (from the "test-ci" script, with its --require test/support/env)');
  });

  it("vercel/ms: jest with its --env, through pnpm run", () => {
    const r = detectNodeRunner({
      scripts: { test: "pnpm run test:nodejs && pnpm run test:edge", "test:nodejs": "jest --env node" },
      devDependencies: { jest: "29.7.0" },
    });
    expect(r?.command).toEqual([
      "jest",
      "--env",
      "node",
      "--ci",
      "--json",
      "--watchAll=false",
      "--coverage=false",
    ]);
    expect(r?.logParser).toBe("jest-json");
  });

  it("isaacs/minimatch: tap 21 without its coverage gate, after the pretest build", () => {
    const r = detectNodeRunner({
      scripts: { prepare: "tshy", pretest: "npm run prepare", test: "tap" },
      devDependencies: { tap: "^21.1.0" },
    });
    expect(r?.command).toEqual([
      "bash",
      "-c",
      'npm run --silent pretest >&2 && exec "$@"',
      "run_tests",
      "tap",
      "--reporter=tap",
      "--disable-coverage",
      "--jobs=1",
    ]);
    expect(r?.how).toContain('after "npm run pretest" (npm run prepare)');
  });

  it("an old tap is told --no-coverage and one file at a time (no buffered subtests); a lint pretest is not run", () => {
    const r = detectNodeRunner({
      scripts: { pretest: "standard", test: "tap -J test/*.js" },
      devDependencies: { tap: "^14.0.0" },
    });
    expect(r?.command).toEqual(["tap", "--reporter=tap", "--no-coverage", "--jobs=1"]);
  });

  it("sindresorhus/camelcase: ava between xo and tsd", () => {
    const r = detectNodeRunner({
      scripts: { test: "xo && ava && tsd" },
      devDependencies: { ava: "^6.1.3", xo: "^0.58.0" },
    });
    expect(r?.command).toEqual(["ava", "--tap"]);
    expect(r?.logParser).toBe("node-tap");
  });

  it("pillarjs/path-to-regexp: a wrapper script names no runner, so the vitest devDependency is used", () => {
    const r = detectNodeRunner({
      scripts: { test: "ts-scripts test && npm run size" },
      devDependencies: { vitest: "^3.0.5" },
    });
    expect(r?.command).toEqual(["vitest", "run", "--reporter=json", "--coverage.enabled=false"]);
    expect(r?.how).toBe("vitest (a devDependency)");
  });

  it("tj/commander.js: node --test is node's own runner (no environment runner)", () => {
    expect(detectNodeRunner({ scripts: { test: "node --test && npm run check:type:ts" } })).toBeUndefined();
    expect(detectNodeRunner({ scripts: { test: "echo none" } })).toBeUndefined();
  });
});

describe("keptFlags", () => {
  it("keeps flags and their values, drops files, reporters and watch mode", () => {
    expect(
      keptFlags("mocha", ["--ui", "tdd", "-R", "spec", "--check-leaks", "test/**/*.js", "--watch"]),
    ).toEqual(["--ui", "tdd", "--check-leaks"]);
    expect(keptFlags("vitest", ["run", "--coverage.enabled", "--config=vitest.config.ts", "src"])).toEqual([
      "--config=vitest.config.ts",
    ]);
  });
});

describe("detectTestSetup with a runner", () => {
  const files = [
    "package.json",
    "index.js",
    "test.js",
    "test/helpers/x.js",
    "test/fixtures/a.js",
    "test/_util.js",
    "test/api.js",
  ];
  it("takes the files the runner collects (ava: test.js, test/*.js; not helpers, fixtures or _files)", () => {
    const setup = detectTestSetup("/r", files, undefined, {
      "package.json": JSON.stringify({ scripts: { test: "ava" }, devDependencies: { ava: "6" } }),
    });
    expect(setup.runner).toBe("ava");
    expect(setup.testFiles).toEqual(["test.js", "test/api.js"]);
    expect(setup.how).toBe('ava (from the "test" script): 2 test file(s)');
  });

  it("a package.json that is not JSON names no runner", () => {
    const setup = detectTestSetup("/r", ["package.json", "a.test.js"], undefined, { "package.json": "{" });
    expect(setup.runner).toBeUndefined();
    expect(setup.logParser).toBe("node-tap");
  });
});
