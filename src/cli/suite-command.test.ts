import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTask } from "../tasks/index.js";
import { runSuite, type SuiteRequest } from "./suite-command.js";

const root = mkdtempSync(join(tmpdir(), "acilab-suite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const noInterrupt = () => ({ signal: new AbortController().signal, dispose: () => undefined });

function request(overrides: Partial<SuiteRequest> = {}): SuiteRequest {
  return {
    tasks: [loadTask("median-even")],
    policySpec: "scripted",
    tools: "full",
    history: "all",
    root,
    sandbox: "auto",
    rules: "hardened",
    workers: 2,
    fresh: false,
    ...overrides,
  };
}

async function suite(overrides: Partial<SuiteRequest> = {}) {
  const lines: string[] = [];
  const code = await runSuite(request(overrides), (l) => lines.push(l), noInterrupt);
  return { code, out: lines.join("\n") };
}

describe("acilab suite", () => {
  it("runs, then resumes: a finished task is kept; one in an older result schema is run again", async () => {
    const first = await suite();
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/median-even: resolved \(submitted/);
    expect(first.out).toMatch(/resolved 1\/1/);
    const done = join(root, "median-even", "result.json");
    expect(JSON.parse(readFileSync(done, "utf8"))).toMatchObject({ kind: "coding", resolved: true });

    const again = await suite();
    expect(again.out).toMatch(/median-even: already done .*skipping/);
    expect(again.out).toMatch(/resolved 1\/1/);

    // A result.json from before the one-schema change has tokens_in and no kind/usage: not misread.
    const old = JSON.parse(readFileSync(done, "utf8"));
    const { kind: _k, usage: _u, ...rest } = old;
    writeFileSync(done, JSON.stringify({ ...rest, tokens_in: 1, tokens_out: 1 }));
    const rerun = await suite();
    expect(rerun.out).not.toMatch(/already done/);
    expect(rerun.out).toMatch(/median-even: resolved \(submitted/);
    expect(JSON.parse(readFileSync(done, "utf8")).usage).toBeDefined();
  });
});
