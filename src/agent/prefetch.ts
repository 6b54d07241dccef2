/**
 * The first model request of `acilab agent -p`, sent while the workspace is still being prepared:
 * the request needs only the prompt, the memory and the tools' declarations, and a copy of the
 * repository takes as long as a model's first byte. When the loop then asks for exactly that
 * request, it gets the reply already on its way; when it asks for anything else (a hook rewrote the
 * prompt), the early request is cancelled and its tokens, if any were spent, still go to the ledger.
 */
import { isDeepStrictEqual } from "node:util";
import type { Ledger } from "../ledger/index.js";
import type { Policy, PolicyReply, PolicyRequest } from "../policies/index.js";

/** The ledger's name for an early request the loop did not use. */
export const UNUSED_PREFETCH = "prefetch";

export class PrefetchPolicy implements Policy {
  readonly spec: string;
  readonly model: string | undefined;
  private pending:
    | { request: PolicyRequest; reply: Promise<PolicyReply>; started: number; abort: AbortController }
    | undefined;
  /** Requests answered by the early one (for tests and the benchmark's honesty). */
  hits = 0;

  constructor(
    private readonly inner: Policy,
    private readonly ledger: Ledger,
  ) {
    this.spec = inner.spec;
    this.model = inner.model;
  }

  prefetch(request: PolicyRequest): void {
    const abort = new AbortController();
    const reply = this.inner.next(request, abort.signal);
    reply.catch(() => undefined); // reported when the loop asks for it; dropped if it never does
    this.pending = { request: structuredClone(request), reply, started: performance.now(), abort };
  }

  async next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> {
    const early = this.pending;
    this.pending = undefined;
    if (early && isDeepStrictEqual(early.request, request)) {
      this.hits++;
      if (!signal) return early.reply;
      const onAbort = () => early.abort.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      return early.reply.finally(() => signal.removeEventListener("abort", onAbort));
    }
    if (early) this.discard(early);
    return this.inner.next(request, signal);
  }

  /** Drop an early request nobody will use (a changed prompt, or the session ending). */
  cancel(): void {
    if (this.pending) this.discard(this.pending);
    this.pending = undefined;
  }

  private discard(early: NonNullable<PrefetchPolicy["pending"]>): void {
    early.abort.abort(new Error("the first request changed before it was used"));
    early.reply.then(
      (reply) =>
        this.ledger.record({
          model: this.inner.model ?? reply.model,
          usage: reply.usage,
          latencyMs: performance.now() - early.started,
          agent: UNUSED_PREFETCH,
        }),
      () => undefined,
    );
  }
}
