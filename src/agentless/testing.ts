/**
 * The recorded model server loaded with the built-in tasks' Agentless recordings
 * (src/agentless/fixtures/recordings/<task>.txt), for tests and experiments that run
 * `agentless:…` offline. Recordings are keyed by the task's issue, hashed when they are loaded, so
 * an edited issue.md cannot silently serve stale answers: its requests find no recording (a 404).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRecordings, RecordedModelServer, type Recording } from "../policies/testing/recorded.js";
import { loadTask } from "../tasks/index.js";

export const RECORDINGS_DIR = join(import.meta.dirname, "fixtures", "recordings");

/** The tasks that have recordings. */
export function recordedTasks(): string[] {
  return readdirSync(RECORDINGS_DIR)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => f.slice(0, -4))
    .sort();
}

export function loadRecordings(tasks: readonly string[] = recordedTasks()): Recording[] {
  return tasks.flatMap((task) =>
    parseRecordings(readFileSync(join(RECORDINGS_DIR, `${task}.txt`), "utf8"), (id) => loadTask(id).issue),
  );
}

export interface RecordedAgentless {
  server: RecordedModelServer;
  /**
   * The policy spec to run against it. `model` is what the ledger prices (default gpt-4o-mini, so
   * result.json shows dollars for the server's 4-characters-a-token counts); `options` go before
   * it, e.g. "k=4:".
   */
  spec(options?: { k?: number; temperature?: number; model?: string }): string;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with the recordings of `tasks` (default: every recorded task). */
export async function startRecordedAgentless(
  tasks?: readonly string[],
  extra: readonly Recording[] = [],
): Promise<RecordedAgentless> {
  const server = await RecordedModelServer.start([...loadRecordings(tasks), ...extra]);
  return {
    server,
    spec: (o = {}) =>
      [
        "agentless",
        ...(o.k !== undefined ? [`k=${o.k}`] : []),
        ...(o.temperature !== undefined ? [`temperature=${o.temperature}`] : []),
        `openai-compatible:${o.model ?? "gpt-4o-mini"}@${server.url}/v1`,
      ].join(":"),
    close: () => server.close(),
  };
}
