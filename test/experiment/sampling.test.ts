/**
 * Experiments with samples: the file's checks (samples, selectors, chains against the task kinds),
 * and a real sampled run on built-in coding tasks — the scripted policy, the real sandbox and grader,
 * the selection evidence gathered once and kept, the report's pass@k and best-of-k.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { readExperimentDir } from "../../src/experiment/analysis-input.js";
import { analyzeExperiment } from "../../src/experiment/analyze.js";
import { checkExperiment } from "../../src/experiment/load.js";
import { ExperimentError } from "../../src/experiment/problems.js";
import { runExperiment } from "../../src/experiment/run.js";
import { DB_FILE } from "../../src/experiment/store.js";
import { LoopbackServer } from "../../src/policies/testing/loopback.js";
import { openaiError, openaiStream } from "../../src/policies/testing/openai-wire.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const load = (text: string) => checkExperiment("s.yaml", join(tmpdir(), "s.yaml"), text);

function problems(text: string): string[] {
  try {
    load(text);
  } catch (e) {
    if (!(e instanceof ExperimentError)) throw e;
    return e.problems.map((p) => `${p.line}: ${p.path}: ${p.message}`);
  }
  throw new Error("the file loaded");
}

const FILE = (extra: string, tasks = "[median-even]") =>
  `name: s\nbase: { policy: scripted }\narms: { a: {} }\ntasks: ${tasks}\n${extra}`;

describe("samples and selectors in an experiment file", () => {
  it("takes samples as the attempts per task and parses each chain", () => {
    const loaded = load(FILE("samples: 8\nselectors: [oracle, vote, regression > reproduction > vote]\n"));
    expect(loaded.experiment.repeats).toBe(8);
    expect(loaded.experiment.sampling?.samples).toBe(8);
    expect(loaded.experiment.sampling?.chains.map((c) => c.spec)).toEqual([
      "oracle",
      "vote",
      "regression>reproduction>vote",
    ]);
    expect(load(FILE("repeats: 3\n")).experiment.sampling).toBeNull();
  });

  it("refuses N = 0, an absurd N, and samples beside repeats", () => {
    expect(problems(FILE("samples: 0\n"))).toEqual([
      "5: samples: must be a whole number from 1 to 100 — candidates per task (Agentless samples 40), got 0",
    ]);
    expect(problems(FILE("samples: 100000\n"))[0]).toMatch(
      /^5: samples: must be a whole number from 1 to 100/,
    );
    expect(problems(FILE("samples: 2.5\n"))[0]).toMatch(/^5: samples: must be a whole number/);
    expect(problems(FILE("repeats: 2\nsamples: 4\n"))).toEqual([
      "5: repeats: repeats and samples both say how many attempts each task gets — samples are candidates a selector chooses among, repeats are independent trials; keep one",
    ]);
  });

  it("names a selector that does not exist, a bad chain, a repeated one, and selectors without samples", () => {
    expect(
      problems(FILE("samples: 4\nselectors: [oracle, votes, regression>>vote, oracle>vote, vote, vote]\n")),
    ).toEqual([
      '6: selectors[1]: selector "votes": no selector "votes" — the selectors are oracle, regression, reproduction, vote, verifier',
      '6: selectors[2]: selector "regression>>vote": an empty stage — write stages joined by ">", e.g. regression>vote',
      '6: selectors[3]: selector "oracle>vote": oracle reads the hidden tests; it is the ceiling (pass@n) and cannot be a stage of a chain',
      '6: selectors[5]: selector "vote" is listed twice',
    ]);
    expect(problems(FILE("selectors: [vote]\n"))).toEqual([
      "5: selectors: selectors choose among a task's samples: set samples: N (e.g. 8) as well",
    ]);
    expect(problems(FILE("samples: 2\nselectors: []\n"))[0]).toMatch(/selectors is empty/);
  });

  it("refuses a chain that needs data the tasks cannot give (patches of a tool-use run)", () => {
    expect(
      problems(FILE("samples: 2\nselectors: [oracle, regression>vote]\n", "[acme, median-even]")),
    ).toEqual([
      '6: selectors[1]: selector "regression>vote": regression reads a repository\'s tests, and the tool-use tasks here have none — keep such chains for coding tasks, or use oracle',
    ]);
    expect(load(FILE("samples: 2\nselectors: [oracle]\n", "[acme]")).experiment.sampling?.samples).toBe(2);
  });
});

describe("a verifier in an experiment file", () => {
  it("is a model, used by a chain, and needed by one", () => {
    expect(problems(FILE("samples: 2\nselectors: [regression>verifier]\n"))).toEqual([
      "6: selectors: a chain uses verifier, and no verifier model is set — add verifier: MODEL_SPEC (e.g. anthropic:claude-sonnet-4-5)",
    ]);
    expect(problems(FILE("samples: 2\nselectors: [verifier]\nverifier: scripted\n"))).toEqual([
      '7: verifier: verifier "scripted" is not a model — a verifier reads a prompt and replies with a score: use anthropic:MODEL, openai:MODEL or openai-compatible:MODEL@URL',
    ]);
    expect(problems(FILE("samples: 2\nselectors: [vote]\nverifier: openai:gpt-4.1\n"))).toEqual([
      "7: verifier: no selector uses the verifier — add a chain with verifier (e.g. regression>verifier), or drop it",
    ]);
    expect(
      load(FILE("samples: 2\nselectors: [verifier]\nverifier: openai:gpt-4.1\n")).experiment.sampling
        ?.verifier,
    ).toBe("openai:gpt-4.1");
  });
});

describe("a sampled experiment on built-in tasks (scripted policy, real grading)", () => {
  const dir = mkdtempSync(join(tmpdir(), "acilab-sampling-"));
  dirs.push(dir);
  const loaded = load(
    FILE(
      "samples: 2\nselectors: [oracle, vote, regression>reproduction>vote]\nworkers: 2\n",
      "[median-even, lru-recency]",
    ),
  );

  it("samples, gathers the evidence once per task, and reports pass@k against best-of-k", async () => {
    const lines: string[] = [];
    const run = await runExperiment(loaded, {
      dir,
      onEvidence: (e) => lines.push(`${e.group.task} ${e.error ?? "ok"}`),
    });
    expect(run.rows.map((r) => r.status)).toEqual(["done", "done", "done", "done"]);
    expect(run.evidence).toEqual({ groups: 2, failed: 0 });
    expect(lines.sort()).toEqual(["lru-recency ok", "median-even ok"]);

    const db = new Database(join(dir, DB_FILE), { readonly: true });
    const groups = db
      .prepare("SELECT task, tests, normalised, base_passing, base_error FROM selection_groups ORDER BY task")
      .all();
    const evidence = db
      .prepare("SELECT has_patch, applied, regressions, normalised FROM selection_evidence")
      .all() as {
      has_patch: number;
      applied: number;
      regressions: number;
      normalised: string;
    }[];
    db.close();
    expect(groups).toHaveLength(2);
    for (const g of groups as {
      tests: number;
      normalised: number;
      base_passing: number;
      base_error: null;
    }[]) {
      expect(g).toMatchObject({ tests: 1, normalised: 1, base_error: null });
      expect(g.base_passing).toBeGreaterThan(0);
    }
    // The reference script's fix applies and breaks nothing the base passed.
    expect(evidence).toHaveLength(4);
    for (const e of evidence) expect(e).toMatchObject({ has_patch: 1, applied: 1, regressions: 0 });
    expect(evidence.every((e) => /^[0-9a-f]{64}$/.test(e.normalised))).toBe(true);

    const analysis = analyzeExperiment(readExperimentDir(dir));
    const arm = analysis.sampling?.arms[0];
    expect(arm).toMatchObject({ arm: "a", n: 2, tasks: 2, incomplete: [], identicalCandidates: 2 });
    expect(arm?.passAtK).toEqual([1, 1]);
    for (const chain of arm?.selectors ?? []) {
      expect(chain.error).toBeUndefined();
      if (chain.error === undefined)
        expect(chain.bestOfK.map((p) => `${p.resolved}/${p.n}`)).toEqual(["2/2", "2/2"]);
    }
  });

  it("a second run gathers nothing again: the evidence is kept", async () => {
    const again = await runExperiment(loaded, { dir });
    expect(again.evidence).toEqual({ groups: 0, failed: 0 });
  });

  it("a store whose evidence was never gathered says so per chain instead of drawing a curve", () => {
    const db = new Database(join(dir, DB_FILE));
    db.exec("DELETE FROM selection_evidence; DELETE FROM selection_groups;");
    db.close();
    const arm = analyzeExperiment(readExperimentDir(dir)).sampling?.arms[0];
    const errors = Object.fromEntries((arm?.selectors ?? []).map((c) => [c.chain, c.error ?? null]));
    expect(errors.oracle).toBeNull();
    expect(errors.vote).toMatch(/^selector vote needs sample 1's normalised patch, and the run kept none/);
    expect(errors["regression>reproduction>vote"]).toMatch(
      /^selector regression needs the visible tests' results/,
    );
  });

  it("scores every candidate through a real adapter; a reply with no score is counted, not a crash", async () => {
    const replies = [
      "The fix is right.\nSCORE: 0.9",
      "SCORE: 0.8",
      "I cannot tell from this.",
      "score = 75%",
    ];
    const server = await LoopbackServer.start(
      replies.map((text) => openaiStream({ text, usage: { prompt_tokens: 900, completion_tokens: 20 } })),
    );
    try {
      const verified = load(
        FILE(
          `samples: 2\nselectors: [oracle, verifier, regression>verifier]\nverifier: openai-compatible:judge@${server.url}/v1\nworkers: 1\n`,
          "[median-even, lru-recency]",
        ),
      );
      const run = await runExperiment(verified, { dir });
      // The attempts are the same arm's: only the evidence is gathered again, now with scores.
      expect(run.rows.map((r) => r.runs)).toEqual([1, 1, 1, 1]);
      expect(run.evidence).toEqual({ groups: 2, failed: 0 });
      expect(server.requests).toHaveLength(4);
      const body = server.requests[0]?.body as { messages: { role: string; content: string }[] };
      expect(body.messages[0]?.content).toMatch(/^You review one candidate patch/);
      expect(body.messages[1]?.content).toMatch(
        /<issue>[\s\S]*<patch>\ndiff --git[\s\S]*<tests>\nVisible tests passing before the patch: \d+; of those, failing with the patch: 0/,
      );
      const arm = analyzeExperiment(readExperimentDir(dir)).sampling?.arms[0];
      expect(arm?.verifier).toMatchObject({ calls: 4, unparsable: 1, cost_usd: null });
      // Every sample resolves: the verifier chain submits a resolved one whatever the scores say.
      const chain = arm?.selectors.find((c) => c.chain === "verifier");
      expect(chain?.error === undefined && chain?.bestOfK.map((p) => p.resolved)).toEqual([2, 2]);
      expect(arm?.verifier?.fit).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("a verifier that fails leaves the group ungathered (retried next run), never another verifier's scores", async () => {
    const server = await LoopbackServer.start(
      Array.from({ length: 4 }, () =>
        openaiError(400, "model judge-2 does not exist", "invalid_request_error"),
      ),
    );
    try {
      const failing = load(
        FILE(
          `samples: 2\nselectors: [oracle, verifier]\nverifier: openai-compatible:judge-2@${server.url}/v1\nworkers: 1\n`,
          "[median-even, lru-recency]",
        ),
      );
      const errors: string[] = [];
      const run = await runExperiment(failing, { dir, onEvidence: (e) => errors.push(e.error ?? "ok") });
      expect(run.evidence).toEqual({ groups: 2, failed: 2 });
      expect(errors.every((e) => /judge-2 does not exist/.test(e))).toBe(true);
      // The store still holds the earlier verifier's scores: not shown under this one's name.
      const arm = analyzeExperiment(readExperimentDir(dir)).sampling?.arms[0];
      expect(arm?.selectors.find((c) => c.chain === "verifier")?.error).toMatch(/needs sample 1's score/);
    } finally {
      await server.close();
    }
  });
});
