/**
 * `acilab agent`'s own costs: start-up of `acilab agent -p` to its first model request (the built
 * CLI as a user runs it, against a loopback server speaking OpenAI's wire format, on the built-in
 * libraries' repositories), and a checkpoint before an edit on the overlay.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Checkpoints, openAgentWorkspace } from "../src/agent/index.js";
import { buildLibraryRepo, listLibraries, loadLibrary } from "../src/tasks/index.js";
import { type BenchRow, summarise } from "./stats.js";

const ROOT = join(import.meta.dirname, "..", "..");
const STARTUP_TARGET_MS = 300;
const CHECKPOINT_TARGET_MS = 5;

/** A streamed chat completion (server-sent events) that answers in text: the turn ends at once. */
function answer(): string {
  const base = {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: "bench",
  };
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "done" }, finish_reason: null }] },
    {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    },
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
}

async function listen(onRequest: () => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    onRequest();
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(answer());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** One `acilab agent -p` from spawn to the server seeing its first request. */
async function startupOnce(
  repo: string,
  url: string,
  state: string,
  seen: { at: number; requests: number },
): Promise<number> {
  seen.at = 0;
  seen.requests = 0;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "bin", "acilab.js"),
      "agent",
      "-p",
      "hello",
      "--repo",
      repo,
      "--policy",
      `openai-compatible:bench@${url}`,
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        ACILAB_STATE_DIR: state,
        ACILAB_CONFIG_DIR: join(state, "config"),
        OPENAI_API_KEY: "bench",
      },
    },
  );
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0 || seen.at === 0)
    throw new Error(
      `acilab agent -p exited ${code} (${seen.at === 0 ? "no model request" : "after its request"}): ${out}`,
    );
  return seen.at - started;
}

export async function benchAgent(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const state = mkdtempSync(join(tmpdir(), "acilab-bench-agent-"));
  const seen = { at: 0, requests: 0 };
  const { server, url } = await listen(() => {
    seen.requests++;
    if (seen.at === 0) seen.at = performance.now();
  });
  try {
    const libsDir = join(ROOT, "tasks", "libs");
    const repos: string[] = [];
    for (const name of listLibraries(libsDir)) repos.push(await buildLibraryRepo(loadLibrary(libsDir, name)));
    await startupOnce(repos[0] as string, url, state, seen); // warm the page cache once
    const samples: number[] = [];
    for (let i = 0; i < 3; i++)
      for (const repo of repos) samples.push(await startupOnce(repo, url, state, seen));
    rows.push(
      summarise(
        `agent -p: start-up to first model request (${repos.length} library repos)`,
        samples,
        STARTUP_TARGET_MS,
      ),
    );

    const ws = await openAgentWorkspace(repos[0] as string);
    try {
      const cps = new Checkpoints(ws, join(state, "checkpoints"));
      const times: number[] = [];
      for (let i = 0; i < 50; i++) {
        // An edit between checkpoints, as in a session: three files changed, one of them each time.
        writeFileSync(join(ws.root, `bench-${i % 3}.txt`), `edit ${i}\n`.repeat(200));
        const t0 = performance.now();
        await cps.take(`edit ${i}`, 0);
        times.push(performance.now() - t0);
      }
      rows.push(summarise("checkpoint before an edit (3 changed files)", times, CHECKPOINT_TARGET_MS));
    } finally {
      await ws.dispose();
    }
  } finally {
    server.close();
    rmSync(state, { recursive: true, force: true });
  }
  return rows;
}
