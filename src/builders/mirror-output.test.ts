/**
 * What a kill can leave behind, read back by `--resume`: a candidates log whose last line was cut
 * mid-write, and an instance written just before its candidate's line. Neither is taken as decided.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Instance } from "../swebench/index.js";
import { candidatesLogFor, MirrorOutput } from "./mirror-output.js";
import { commitFiles, initRepo } from "./testing.js";
import { WorkRepo } from "./workdir.js";

let scratch: string;
let work: WorkRepo;
const settings = { kind: "fix", max_src_lines: 40 };

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-output-"));
  const repo = join(scratch, "r");
  await initRepo(repo);
  await commitFiles(repo, { "a.py": "A = 1\n" }, "a");
  work = await WorkRepo.create(repo, "python");
});

afterAll(async () => {
  await work.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const instance = (id: string, base: string): Instance =>
  ({ instance_id: id, base_commit: base, repo_path: "" }) as Instance;

describe("the mirror's output, resumed after a kill", () => {
  it("drops a half-written log line and an instance whose candidate line never came", async () => {
    const out = join(scratch, "out", "t.jsonl");
    mkdirSync(join(scratch, "out"));
    const first = await MirrorOutput.open(
      out,
      work,
      { repo: "r", head: work.head, settings, resume: false },
      () => {},
    );
    const a = await work.commitTree("r-mirror-aaa", "a");
    await first.keep(instance("r-mirror-aaa", a), undefined);
    first.record({
      sha: "a".repeat(40),
      subject: "a",
      kept: true,
      reason: "1 FAIL_TO_PASS",
      instanceId: "r-mirror-aaa",
    });
    // Killed while deciding the next two: one instance written without its line, one line cut short.
    const b = await work.commitTree("r-mirror-bbb", "b");
    await first.keep(instance("r-mirror-bbb", b), undefined);
    appendFileSync(candidatesLogFor(out), '{"sha":"cccc","subject":"c","ke');

    const resumed = await MirrorOutput.open(
      out,
      work,
      { repo: "r", head: work.head, settings, resume: true },
      () => {},
    );
    expect([...resumed.decided.keys()]).toEqual(["a".repeat(40)]);
    expect(resumed.instances.map((i) => i.instance_id)).toEqual(["r-mirror-aaa"]);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("warns before replacing an earlier run's instances when not resuming", async () => {
    const out = join(scratch, "out2", "t.jsonl");
    mkdirSync(join(scratch, "out2"));
    writeFileSync(out, `${JSON.stringify(instance("old", "x"))}\n`);
    const said: string[] = [];
    await MirrorOutput.open(out, work, { repo: "r", head: work.head, settings, resume: false }, (l) =>
      said.push(l),
    );
    expect(said[0]).toMatch(
      /held 1 instance\(s\) of an earlier run: replaced \(--resume continues a stopped mirror instead\)/,
    );
    expect(readFileSync(out, "utf8")).toBe("");
  });
});
