import { afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { WorkerTimeoutError } from "./line-worker.js";
import { clearLintCache, lintFile } from "./lint.js";
import { createPythonLintWorker, pythonWorkerUnavailable, setPythonWorkerForTesting } from "./python.js";

afterEach(() => {
  setPythonWorkerForTesting(undefined);
  clearLintCache();
});

const summary = (issues: { line: number; code: string; message: string }[]) =>
  issues.map((i) => `${i.line} ${i.code} ${i.message}`);

/** A module with `n` functions, one of which (the last) uses an undefined name. */
function module(n: number, tag: string): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`def f_${tag}_${i}(x):`, `    return x + ${i}`, "");
  out.push(`print(undefined_${tag})`, "");
  return out.join("\n");
}

describe("the Python lint worker behind lintFile", () => {
  it("runs one long-lived worker for every lint", async () => {
    const worker = createPythonLintWorker();
    setPythonWorkerForTesting(worker);
    const first = await lintFile("a.py", module(3, "a"));
    const pid = worker.pid;
    const second = await lintFile("b.py", module(3, "b"));
    expect(worker.pid).toBe(pid);
    expect(first.engine).toMatch(/^lint worker \(pyflakes [\d.]+, Python 3\.[\d.]+\)$/);
    expect(summary(second.issues)).toEqual(["10 F821 undefined name 'undefined_b'"]);
  });

  it("restarts the worker after it is killed, and the next lint still answers", async () => {
    const worker = createPythonLintWorker();
    setPythonWorkerForTesting(worker);
    await lintFile("a.py", "x = 1\n");
    const pid = worker.pid as number;
    process.kill(pid, "SIGKILL");
    const report = await lintFile("b.py", "print(gone)\n");
    expect(summary(report.issues)).toEqual(["1 F821 undefined name 'gone'"]);
    expect(report.engine).toMatch(/^lint worker/);
    expect(worker.pid).not.toBe(pid);
  });

  it("answers concurrent lints each with its own file's issues", async () => {
    setPythonWorkerForTesting(createPythonLintWorker());
    const tags = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const reports = await Promise.all(tags.map((t, i) => lintFile(`${t}.py`, module(i * 20, t))));
    reports.forEach((report, i) => {
      expect(summary(report.issues)).toEqual([`${i * 60 + 1} F821 undefined name 'undefined_t${i}'`]);
    });
  });

  it("fails a lint that exceeds the timeout, and recovers for the next one", async () => {
    const worker = createPythonLintWorker(1);
    setPythonWorkerForTesting(worker);
    // Starting takes far longer than 1 ms, but only requests are timed; 20,000 functions take longer.
    await expect(lintFile("big.py", module(20_000, "big"))).rejects.toBeInstanceOf(WorkerTimeoutError);
    setPythonWorkerForTesting(createPythonLintWorker());
    expect(summary((await lintFile("small.py", "print(y)\n")).issues)).toEqual(["1 F821 undefined name 'y'"]);
  });

  it("falls back to flake8 and says why when the worker cannot start", async () => {
    const { LineWorker } = await import("./line-worker.js");
    setPythonWorkerForTesting(
      new LineWorker({ command: "/nonexistent/python3", args: [], requestTimeoutMs: HANG_GUARD_MS }),
    );
    const report = await lintFile("m.py", "print(nope)\n");
    expect(report.linter).toBe("flake8");
    expect(report.engine).toBe("flake8 process");
    expect(summary(report.issues)).toEqual(["1 F821 undefined name 'nope'"]);
    expect(pythonWorkerUnavailable()).toMatch(/did not start: .*ENOENT/);
  });
});
