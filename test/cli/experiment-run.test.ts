/** `acilab experiment run` through main(): real runs of the Acme tool task under its scripted policy. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-experiment-run-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (argv: string[], onLine?: (line: string) => void) => runCli(argv, onLine);

function experimentFile(repeats: number): string {
  const file = join(dir, "acme.yaml");
  writeFileSync(
    file,
    `name: acme-formats
base: { policy: scripted }
arms:
  json: { action_format: json }
  code: { action_format: code }
tasks: [acme]
repeats: ${repeats}
workers: 1
`,
  );
  return file;
}

describe("acilab experiment run", () => {
  it("prints one line per finished attempt and a table per arm, and exits 0", async () => {
    const out = join(dir, "out");
    const r = await cli(["experiment", "run", experimentFile(2), "--out", out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^\[1\/4\] json · acme #1: resolved \(submitted, \d+\.\d s\)$/m);
    expect(r.out).toMatch(/^\[4\/4\] code · acme #2: resolved \(submitted, \d+\.\d s\)$/m);
    expect(r.out).toMatch(
      /^json \(baseline\) +2\/2 \(100\.0 %, 95 % CI 34\.2–100\.0\) +0 +0 +0 +\$0\.0000$/m,
    );
    expect(r.out).toContain(`4/4 attempts finished · results in ${join(out, "experiment.db")}`);
    // A second run has nothing left to do.
    const again = await cli(["experiment", "run", experimentFile(2), "--out", out]);
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/^\[/m);
    expect(again.out).toContain("4/4 attempts finished");
  });

  it("exits 130 on Ctrl-C, having started nothing after it, and says how to finish", async () => {
    const out = join(dir, "out");
    const r = await cli(["experiment", "run", experimentFile(3), "--out", out], (line) => {
      if (line.startsWith("[1/6]")) process.emit("SIGINT", "SIGINT");
    });
    expect(r.code).toBe(130);
    expect(r.out).toContain(
      "interrupted: 5 attempt(s) not finished; run the same command again to finish them",
    );
    const db = new Database(join(out, "experiment.db"), { readonly: true });
    expect(
      db.prepare("SELECT status, count(*) AS n FROM attempts GROUP BY status ORDER BY status").all(),
    ).toEqual([
      { status: "done", n: 1 },
      { status: "pending", n: 5 },
    ]);
    db.close();
  });

  it("exits 1 on a bad file, printing its problems and creating nothing", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "name: bad\narms: { a: { tools: ful } }\ntasks: [acme]\n");
    const out = join(dir, "out");
    const r = await cli(["experiment", "run", file, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.yaml:2:\d+: arms\.a\.tools: no tool set "ful"/);
    expect(r.err).toContain("nothing was run");
    expect(existsSync(out)).toBe(false);
  });

  it("exits 1 on a database it must not use, saying why and what to do", async () => {
    const out = join(dir, "out");
    await cli(["experiment", "run", experimentFile(1), "--out", out]);
    const db = new Database(join(out, "experiment.db"));
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    const r = await cli(["experiment", "run", experimentFile(1), "--out", out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^acilab experiment run: .*experiment\.db was written by an older acilab \(schema version 0/,
    );
  });

  it("exits 1 naming a changed arm, and runs it as a new version with --new-arm-version", async () => {
    const out = join(dir, "out");
    const file = experimentFile(1);
    await cli(["experiment", "run", file, "--out", out]);
    writeFileSync(
      file,
      `name: acme-formats
base: { policy: scripted }
arms:
  json: { action_format: json, max_steps: 20 }
  code: { action_format: code }
tasks: [acme]
`,
    );
    const refused = await cli(["experiment", "run", file, "--out", out]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/arm "json" changed since .* — rerun with --new-arm-version/);
    const bumped = await cli(["experiment", "run", file, "--out", out, "--new-arm-version"]);
    expect(bumped.code, bumped.err).toBe(0);
    expect(bumped.out).toMatch(/^\[2\/2\] json@2 · acme #1: resolved/m);
    expect(bumped.out).toMatch(/^json@2 \(baseline\) /m);
  });
});
