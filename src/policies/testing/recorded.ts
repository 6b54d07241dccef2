/**
 * A recorded-response model server on 127.0.0.1: it speaks the OpenAI Chat Completions and the
 * Anthropic Messages streaming wire formats and answers each request from recordings, by what the
 * request asks rather than by arrival order, so concurrent runs of several tasks each get their own
 * answers.
 *
 * The key of a request is `<stage>/<issue hash>`:
 *  - stage: the rest of the system prompt's first line after `Agentless stage: ` (src/agentless/prompts.ts);
 *  - issue hash: the first 16 hex digits of sha256 of the trimmed text between the `<issue>` and
 *    `</issue>` lines of the user message (`issueHash`).
 * A key may hold several answers; they are given in turn and then again from the first, so the k
 * repair samples of a run differ as samples at a temperature do, and every repeat of the run sees the
 * same k. An answer may be an HTTP error instead. A request no recording matches gets a 404 naming its
 * key (not retried by the adapters), so a missing recording fails a run at once with a clear reason.
 * Usage is reported as 4 characters a token of the request and the answer.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicError, anthropicStream } from "./anthropic-wire.js";
import type { ScriptedResponse } from "./loopback.js";
import { openaiError, openaiStream } from "./openai-wire.js";

export type RecordedAnswer = { text: string } | { status: number; message: string };

export interface Recording {
  stage: string;
  issueHash: string;
  /** For people reading the recordings; the key does not use it. */
  task?: string;
  answers: RecordedAnswer[];
}

export const STAGE_PREFIX = "Agentless stage: ";

export function issueHash(issue: string): string {
  return createHash("sha256").update(issue.trim()).digest("hex").slice(0, 16);
}

/** The key of a request from its system prompt and user text; undefined when either marker is missing. */
export function requestKey(system: string, user: string): string | undefined {
  const first = system.split("\n")[0] ?? "";
  const issue = /^<issue>\n([\s\S]*?)\n<\/issue>$/m.exec(user)?.[1];
  if (!first.startsWith(STAGE_PREFIX) || issue === undefined) return undefined;
  return `${first.slice(STAGE_PREFIX.length).trim()}/${issueHash(issue)}`;
}

/**
 * Reads the recordings text format: `=== task <id>` opens a task's section, `=== <stage>` starts one
 * answer (repeat a stage for answers given in turn), `=== <stage> status=<code>` an HTTP error whose
 * body is the message; lines before the first `===` are comments. `issueOf` gives a task's issue.
 */
export function parseRecordings(text: string, issueOf: (task: string) => string): Recording[] {
  const byKey = new Map<string, Recording>();
  let task: string | undefined;
  let open: { stage: string; status: number | undefined; lines: string[] } | undefined;
  const close = () => {
    if (!open) return;
    if (task === undefined)
      throw new Error(`recordings: stage "${open.stage}" comes before any "=== task <id>" line`);
    const body = open.lines.join("\n").replace(/\n+$/, "");
    const hash = issueHash(issueOf(task));
    const key = `${open.stage}/${hash}`;
    const recording = byKey.get(key) ?? { stage: open.stage, issueHash: hash, task, answers: [] };
    recording.answers.push(
      open.status === undefined ? { text: body } : { status: open.status, message: body },
    );
    byKey.set(key, recording);
    open = undefined;
  };
  for (const line of text.split("\n")) {
    const header = /^=== (\S+)(?: (.*))?$/.exec(line);
    if (!header) {
      open?.lines.push(line);
      continue;
    }
    close();
    const [, word, rest = ""] = header as unknown as [string, string, string | undefined];
    if (word === "task") task = rest.trim();
    else {
      const status = /^status=(\d{3})$/.exec(rest.trim())?.[1];
      open = { stage: word, status: status === undefined ? undefined : Number(status), lines: [] };
    }
  }
  close();
  return [...byKey.values()];
}

interface Served {
  key: string | undefined;
  /** The answer's index within its recording, or -1 when nothing matched. */
  answer: number;
  wire: "openai" | "anthropic";
  /** The request's temperature, as sent. */
  temperature: unknown;
}

export class RecordedModelServer {
  /** Every request, in arrival order, with the answer it got. */
  readonly served: Served[] = [];
  private readonly next = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    private readonly recordings: ReadonlyMap<string, Recording>,
    /** `http://127.0.0.1:PORT`; OpenAI clients take `${url}/v1`, Anthropic ones `url`. */
    readonly url: string,
  ) {}

  static async start(recordings: readonly Recording[]): Promise<RecordedModelServer> {
    let self: RecordedModelServer | undefined;
    const server = createServer((req, res) => {
      self?.handle(req, res).catch((error: unknown) => res.destroy(error as Error));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const byKey = new Map(recordings.map((r) => [`${r.stage}/${r.issueHash}`, r]));
    self = new RecordedModelServer(server, byKey, `http://127.0.0.1:${port}`);
    return self;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const body = JSON.parse(raw || "{}") as Record<string, unknown>;
    const wire = req.url?.endsWith("/messages") ? "anthropic" : "openai";
    const { system, user } = wire === "anthropic" ? anthropicTexts(body) : openaiTexts(body);
    const key = requestKey(system, user);
    const recording = key === undefined ? undefined : this.recordings.get(key);
    const model = typeof body.model === "string" ? body.model : "recorded";
    if (!recording || recording.answers.length === 0) {
      this.served.push({ key, answer: -1, wire, temperature: body.temperature });
      const why =
        key === undefined
          ? `the request has no "${STAGE_PREFIX}…" first system line or no <issue> block`
          : `no recording for key ${key}`;
      return send(
        res,
        wire === "anthropic"
          ? anthropicError(404, "not_found_error", why)
          : openaiError(404, why, "not_found"),
      );
    }
    const index = (this.next.get(key as string) ?? 0) % recording.answers.length;
    this.next.set(key as string, index + 1);
    this.served.push({ key, answer: index, wire, temperature: body.temperature });
    const answer = recording.answers[index] as RecordedAnswer;
    if ("status" in answer)
      return send(
        res,
        wire === "anthropic"
          ? anthropicError(answer.status, "api_error", answer.message)
          : openaiError(answer.status, answer.message, "server_error"),
      );
    const input = Math.ceil(raw.length / 4);
    const output = Math.ceil(answer.text.length / 4);
    return send(
      res,
      wire === "anthropic"
        ? anthropicStream({
            model,
            blocks: [{ text: answer.text }],
            usage: { input_tokens: input, output_tokens: output },
          })
        : openaiStream({
            model,
            text: answer.text,
            usage: { prompt_tokens: input, completion_tokens: output },
          }),
    );
  }
}

function openaiTexts(body: Record<string, unknown>): { system: string; user: string } {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const text = (role: string) =>
    messages
      .filter((m) => m.role === role)
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
      .join("\n");
  return { system: text("system"), user: text("user") };
}

function anthropicTexts(body: Record<string, unknown>): { system: string; user: string } {
  const blocks = (body.system ?? []) as { text?: string }[];
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const user = messages
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : (m.content as { text?: string }[]).map((b) => b.text ?? ""),
    )
    .join("\n");
  return { system: blocks.map((b) => b.text ?? "").join("\n"), user };
}

async function send(res: ServerResponse, response: ScriptedResponse): Promise<void> {
  if (response.kind === "json") {
    const text = JSON.stringify(response.body);
    res.writeHead(response.status ?? 200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...response.headers,
    });
    res.end(text);
    return;
  }
  if (response.kind !== "sse") throw new Error(`recorded server: cannot send a "${response.kind}" response`);
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    ...response.headers,
  });
  for (const event of response.events)
    res.write(`${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`);
  res.end();
}
