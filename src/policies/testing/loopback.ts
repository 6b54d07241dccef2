/**
 * A scripted HTTP server on 127.0.0.1 for testing policies against real wire formats: it records every
 * request and answers each from a queue. Bound to the loopback interface and an ephemeral port only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names, as node reports them. */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
}

/** One server-sent event; `event` is the `event:` line Anthropic sends and OpenAI leaves out. */
export interface SseEvent {
  event?: string;
  data: string;
}

export type ScriptedResponse =
  | { kind: "json"; status?: number; body: unknown; headers?: Record<string, string> }
  /**
   * `stallAfter`: send that many events, then go silent without ending the response.
   * `dropAfter`: send that many events, then break the connection.
   */
  | {
      kind: "sse";
      events: SseEvent[];
      headers?: Record<string, string>;
      stallAfter?: number;
      dropAfter?: number;
    }
  /** Accept the request and never answer, for timeout tests. */
  | { kind: "hang" }
  /** Close the connection without a response, as a crashing server or a proxy reset would. */
  | { kind: "drop" };

/** Status sent when the script runs out, chosen to be outside every retry rule so a test fails at once. */
const SCRIPT_EXHAUSTED_STATUS = 418;

export class LoopbackServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedResponse[] = [];
  private readonly stalled = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a server answering with `responses` in order. Close it with `close()` after the test. */
  static async start(responses: ScriptedResponse[] = []): Promise<LoopbackServer> {
    let self: LoopbackServer | undefined;
    const server = createServer((req, res) => {
      self?.handle(req, res).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    self = new LoopbackServer(server, `http://127.0.0.1:${port}`);
    self.reply(...responses);
    return self;
  }

  /** Adds responses to the end of the queue. */
  reply(...responses: ScriptedResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Resolves once `count` requests have arrived, so a test can act mid-request without guessing a delay. */
  async waitForRequests(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  /** Ends hanging and stalled responses too, so a test never waits on its own fixture. */
  async close(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    this.requests.push({
      method: req.method ?? "",
      path: req.url ?? "",
      headers: flattenHeaders(req),
      body: parseBody(text),
    });
    const next = this.queue.shift();
    if (!next) {
      sendJson(res, SCRIPT_EXHAUSTED_STATUS, {
        error: {
          type: "loopback_error",
          message: `no scripted response left for request ${this.requests.length}`,
        },
      });
      return;
    }
    switch (next.kind) {
      case "json":
        sendJson(res, next.status ?? 200, next.body, next.headers);
        return;
      case "hang":
        this.stalled.add(res);
        return;
      case "drop":
        req.socket.destroy();
        return;
      case "sse":
        await this.sendSse(res, next);
        return;
    }
  }

  private async sendSse(
    res: ServerResponse,
    script: Extract<ScriptedResponse, { kind: "sse" }>,
  ): Promise<void> {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...script.headers,
    });
    const limit = script.stallAfter ?? script.dropAfter ?? script.events.length;
    for (const event of script.events.slice(0, limit)) {
      const head = event.event === undefined ? "" : `event: ${event.event}\n`;
      res.write(`${head}data: ${event.data}\n\n`);
      // A turn of the event loop between events, so the client sees them in separate reads.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (limit >= script.events.length) res.end();
    else if (script.dropAfter !== undefined) res.socket?.destroy();
    else this.stalled.add(res);
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** A port nothing listens on: bound, then released. For connection-refused tests. */
export async function closedPortURL(): Promise<string> {
  const server = await LoopbackServer.start();
  const url = server.url;
  await server.close();
  return url;
}
