/**
 * A small real experiment for the rollouts export: one arm whose policy is a loopback "model" that
 * samples different trajectories for the same task (as a sampling model does), so some (arm, task)
 * groups get mixed rewards, and one arm playing a script that gives up. Everything else — the loop,
 * the tools, the sandbox, the hidden tests, the store — is the real thing, through `experiment run`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { openaiStream } from "../../policies/testing/openai-wire.js";
import { builtinTasksDir } from "../../tasks/index.js";
import { runCli } from "../testing.js";

type Sample = "fix" | "give-up";

/**
 * What the sampler does on each task's 1st, 2nd, 3rd conversation: median-even's group is mixed,
 * semver-range's all fixed (a group with no signal).
 */
export const PLAN: Record<string, Sample[]> = {
  "median-even": ["fix", "give-up", "fix"],
  "semver-range": ["fix", "fix", "fix"],
};
export const REPEATS = 3;
export const SAMPLER_MODEL = "loopback-sampler";

interface Call {
  name: string;
  input: Record<string, unknown>;
}

/** The task's fix, as the str_replace calls of its reference script that edit a source file. */
function fixOf(task: string): Call[] {
  const script = JSON.parse(readFileSync(join(builtinTasksDir(), task, "script.json"), "utf8")) as {
    turns: ({ tool?: string; input?: Record<string, unknown>; calls?: Call[] } & Partial<Call>)[];
  };
  const calls = script.turns.flatMap((t) =>
    t.calls
      ? t.calls.map((c) => ({ name: (c as { tool?: string }).tool ?? "", input: c.input }))
      : [{ name: t.tool ?? "", input: t.input ?? {} }],
  );
  return calls.filter((c) => c.name === "str_replace" && !String(c.input.path).startsWith("tests/"));
}

function titleOf(task: string): string {
  return readFileSync(join(builtinTasksDir(), task, "issue.md"), "utf8").split("\n")[0] ?? task;
}

/** The turns of one sample; turn n answers a request holding n − 1 assistant messages. */
function turnsOf(sample: Sample, fix: Call[]): { text: string; calls: Call[] }[] {
  const path = String(fix[0]?.input.path ?? "README.md");
  const look = { text: "Open the file the issue is about.", calls: [{ name: "view", input: { path } }] };
  if (sample === "give-up")
    return [
      look,
      { text: "I cannot find the cause; stopping here.", calls: [{ name: "submit", input: {} }] },
    ];
  return [
    look,
    { text: "Apply the fix.", calls: fix },
    { text: "Done.", calls: [{ name: "submit", input: { summary: "fixed the issue" } }] },
  ];
}

export async function startSampler(): Promise<{ url: string; close: () => Promise<void> }> {
  const tasks = Object.keys(PLAN);
  const titles = new Map(tasks.map((t) => [t, titleOf(t)]));
  const fixes = new Map(tasks.map((t) => [t, fixOf(t)]));
  const started = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as {
        messages: { role: string; content: unknown; tool_calls?: { id: string }[] }[];
      };
      const text = JSON.stringify(body.messages);
      const task = tasks.find((t) => text.includes(JSON.stringify(titles.get(t)).slice(1, -1))) ?? "";
      const assistants = body.messages.filter((m) => m.role === "assistant");
      // The conversation's number rides in its call ids, so concurrent attempts stay apart.
      let k: number;
      if (assistants.length === 0) {
        k = started.get(task) ?? 0;
        started.set(task, k + 1);
      } else k = Number(/^call-(\d+)-/.exec(assistants[0]?.tool_calls?.[0]?.id ?? "")?.[1] ?? 0);
      const sample = PLAN[task]?.[k] ?? "give-up";
      const turn = turnsOf(sample, fixes.get(task) ?? [])[assistants.length];
      const step = assistants.length + 1;
      const reply = openaiStream({
        model: SAMPLER_MODEL,
        text: turn?.text ?? "",
        toolCalls: (turn?.calls ?? []).map((c, i) => ({
          id: `call-${k}-${step}-${i}`,
          name: c.name,
          arguments: JSON.stringify(c.input),
        })),
        usage: { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: 20 },
      });
      if (reply.kind !== "sse") throw new Error("openaiStream returned no stream");
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of reply.events) res.write(`data: ${e.data}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the experiment into `dir` (files beside it in `work`); throws with the CLI's output on failure. */
export async function runSampledExperiment(work: string, dir: string): Promise<void> {
  const sampler = await startSampler();
  try {
    const giveUp = join(work, "give-up.json");
    writeFileSync(
      giveUp,
      JSON.stringify({
        description: "gives up at once",
        turns: [{ thought: "Nothing to do.", tool: "submit", input: {} }],
      }),
    );
    const file = join(work, "experiment.yaml");
    writeFileSync(
      file,
      [
        "name: rollouts-fixture",
        "base:",
        "  max_steps: 6",
        "  sandbox: auto",
        "arms:",
        "  - name: sampled",
        `    policy: "openai-compatible:${SAMPLER_MODEL}@${sampler.url}"`,
        "  - name: gives-up",
        `    policy: "scripted:${giveUp}"`,
        "tasks:",
        ...Object.keys(PLAN).map((t) => `  - ${t}`),
        `repeats: ${REPEATS}`,
        "workers: 2",
        "",
      ].join("\n"),
    );
    const r = await runCli(["experiment", "run", file, "--out", dir]);
    if (r.code !== 0) throw new Error(`experiment run failed (${r.code}):\n${r.out}\n${r.err}`);
  } finally {
    await sampler.close();
  }
}
