/**
 * The consequence gate's decisions: a state-changing request the page made (./request-hold.ts holds
 * fetches, forms and beacons in the browser; the egress proxy holds WebSocket opens) goes through when
 * a task rule allows it (`allowRequests`), or when the approver says yes — a person in interactive
 * use; a headless run has nobody to ask and refuses. Every decision is kept with the action that was
 * in flight when the page made the request, for the run's `blocked` list and the model's next view.
 */
import type { HeldRequest, RequestHook } from "../types.js";
import { allowedByRules, parseRequestRules, type RequestKind, type RequestRule } from "./request-rules.js";

/** Decisions kept per episode; a page that posts in a loop must not grow memory without bound. */
export const MAX_HELD_RECORDS = 1000;

/** The headless answer: nobody is there to approve, so nothing changes state. */
export const refuseRequests: RequestHook = () => false;

export interface AskedRequest {
  kind: RequestKind;
  method: string;
  url: string;
  bodyBytes: number | null;
}

export class RequestGate {
  readonly held: HeldRequest[] = [];
  /** Decisions past MAX_HELD_RECORDS (counted, not kept). */
  dropped = 0;
  private rules: RequestRule[] = [];
  private appOrigin = "";
  private approve: RequestHook = refuseRequests;
  private cause = "the first page loading";

  /** A new episode on `url`'s origin, with the task's rules; no decisions yet. */
  configure(url: string, allowRequests: readonly string[] = []): void {
    this.rules = parseRequestRules(allowRequests);
    try {
      this.appOrigin = new URL(url).origin;
    } catch {
      this.appOrigin = "";
    }
    this.held.length = 0;
    this.dropped = 0;
    this.cause = "the first page loading";
  }

  /** Who is asked about a request no rule allows (kept across episodes, like the environment). */
  setApprover(hook: RequestHook): void {
    this.approve = hook;
  }

  /** An input action is being sent to the page: what it causes is attributed to it. */
  acting(action: string): void {
    this.cause = action;
  }

  /**
   * The action has landed: later requests come after it — still its doing when the page was slow to
   * send them (a form posted late on a loaded machine), or the page's own (a timer).
   */
  acted(action: string): void {
    this.cause = `after ${action}`;
  }

  /** Whether the request may go on; asks the approver when no rule allows it, and keeps the decision. */
  async judge(asked: AskedRequest): Promise<boolean> {
    const request = { ...asked, cause: this.cause };
    if (allowedByRules(this.rules, asked.method, asked.url, this.appOrigin)) {
      this.keep({ ...request, decision: "rule" });
      return true;
    }
    let yes = false;
    try {
      yes = (await this.approve(request)) === true;
    } catch {
      yes = false; // an approver that fails has not said yes
    }
    this.keep({ ...request, decision: yes ? "approved" : "refused" });
    return yes;
  }

  private keep(record: HeldRequest): void {
    if (this.held.length < MAX_HELD_RECORDS) this.held.push(record);
    else this.dropped++;
  }
}

/** One line for `blocked` and the model: `POST http://…/account/delete (form submission, 14-byte body; during click (200, 120))`. */
export function describeHeld(r: HeldRequest): string {
  const what: Record<HeldRequest["kind"], string> = {
    request: "request",
    form: "form submission",
    beacon: "beacon",
    navigation: "navigation",
    websocket: "WebSocket open",
  };
  const body = r.bodyBytes === null ? "body size unknown" : `${r.bodyBytes}-byte body`;
  const during = /^(the |after )/.test(r.cause) ? r.cause : `during ${r.cause}`;
  return `${r.method} ${r.url} (${what[r.kind]}, ${body}; ${during})`;
}
