/**
 * A mirror that is stopped keeps what it found (issue 33): each kept instance is written the moment it
 * is decided, a signal ends the mirror after the table of what was decided, and `--resume` goes on
 * from the next candidate to the same result as a mirror that was never stopped.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuildReport, mirror } from "../../src/builders/mirror.js";
import { candidatesLogFor } from "../../src/builders/mirror-output.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { spawnCliFromSource } from "../../src/cli/testing.js";
import { EVENTUALLY } from "../../src/testing/time.js";

const FUNCS = ["alpha", "beta", "gamma", "delta"];
const source = (fixed: ReadonlySet<string>) =>
  FUNCS.map((f, i) => `def ${f}(x):\n    return x + ${fixed.has(f) ? i + 1 : i}\n`).join("\n\n");
const testOf = (f: string, i: number) =>
  `from calc import ${f}\n\n\ndef test_${f}():\n    assert ${f}(0) == ${i + 1}\n`;

let scratch: string;
let repo: string;
let whole: BuildReport;
const children: ChildProcess[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-resume-"));
  repo = join(scratch, "calc");
  await initRepo(repo);
  await commitFiles(repo, { "calc.py": source(new Set()), "tests/__init__.py": "" }, "calc");
  const fixed = new Set<string>();
  for (const [i, f] of FUNCS.entries()) {
    fixed.add(f);
    await commitFiles(
      repo,
      { "calc.py": source(fixed), [`tests/test_${f}.py`]: testOf(f, i) },
      `${f}: off by one`,
    );
  }
  whole = await mirror({ repo, out: join(scratch, "whole", "t.jsonl") });
});

afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

const table = (r: BuildReport) =>
  r.candidates.map(({ sha, kept, reason, instanceId }) => ({ sha, kept, reason, instanceId }));

describe("a mirror stopped halfway", () => {
  it("keeps every instance found so far, and --resume finishes it as an uninterrupted mirror would", async () => {
    expect(whole.instances).toHaveLength(4);
    const out = join(scratch, "stopped", "t.jsonl");
    const stop = new AbortController();
    let decided = 0;
    const halfway = await mirror({
      repo,
      out,
      signal: stop.signal,
      onCandidate: () => {
        if (++decided === 2) stop.abort();
      },
    });
    expect(halfway.stopped).toEqual({ decided: 2, total: 4, log: candidatesLogFor(out) });
    expect(halfway.instances).toHaveLength(2);
    // Written as found: the JSONL and the bundle hold the two, the log names the two decided.
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).instance_id)).toEqual(halfway.instances.map((i) => i.instance_id));
    expect(existsSync(join(scratch, "stopped", "t.bundle"))).toBe(true);
    expect(readFileSync(candidatesLogFor(out), "utf8").trim().split("\n")).toHaveLength(3); // header + 2

    const resumed = await mirror({ repo, out, resume: true });
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.candidates.filter((c) => c.resumed)).toHaveLength(2);
    expect(table(resumed)).toEqual(table(whole));
    // The same instances, byte for byte (the base commits are made with fixed dates), in one bundle.
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(scratch, "whole", "t.jsonl"), "utf8"));
  });

  it("--resume refuses another mirror's log, and other settings", async () => {
    const out = join(scratch, "whole", "t.jsonl");
    await expect(mirror({ repo, out, resume: true, maxSrcLines: 3 })).rejects.toThrow(
      /--resume: the stopped mirror ran with other settings \(max_src_lines: 40 then, 3 now\)/,
    );
    await expect(mirror({ repo, out: join(scratch, "never", "t.jsonl"), resume: true })).rejects.toThrow(
      /never\/t\.candidates\.jsonl is not there — nothing to resume/,
    );
  });

  it("SIGTERM to acilab tasks mirror: the table of what was decided, exit 130, the kept instance on disk", async () => {
    // The newest fix is quick; the one before it hangs in its test until the signal comes.
    const hanging = join(scratch, "hanging");
    await initRepo(hanging);
    await commitFiles(hanging, { "calc.py": source(new Set()), "tests/__init__.py": "" }, "calc");
    await commitFiles(
      hanging,
      {
        "calc.py": source(new Set(["alpha"])),
        "tests/test_alpha.py": `import time\n\n${testOf("alpha", 0)}\n\ndef test_wait():\n    time.sleep(600)\n`,
      },
      "alpha: off by one",
    );
    await commitFiles(
      hanging,
      { "calc.py": source(new Set(["alpha", "beta"])), "tests/test_beta.py": testOf("beta", 1) },
      "beta: off by one",
    );
    const out = join(scratch, "sigterm", "t.jsonl");
    const child = spawnCliFromSource(
      ["tasks", "mirror", "--repo", hanging, "--out", out, "--test-timeout", "110"],
      ["ignore", "pipe", "pipe"],
    );
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((done) => child.on("close", done));
    // The first candidate decided (its line in the candidates log): the second is in its hanging run.
    await vi.waitFor(() => {
      const log = existsSync(candidatesLogFor(out)) ? readFileSync(candidatesLogFor(out), "utf8") : "";
      expect(log.trim().split("\n").length).toBeGreaterThanOrEqual(2);
    }, EVENTUALLY);
    child.kill("SIGTERM");
    expect(await exited, `${stdout}\n${stderr}`).toBe(130);
    expect(stdout).toMatch(/kept +\w{10} +beta: off by one/);
    expect(stdout).toContain("stopped: 1 of 2 candidates decided");
    expect(stdout).toContain("--resume goes on from there");
    const kept = readFileSync(out, "utf8").trim().split("\n");
    expect(kept).toHaveLength(1);
    expect(JSON.parse(kept[0] as string).FAIL_TO_PASS).toEqual(["tests/test_beta.py::test_beta"]);
  });
});
