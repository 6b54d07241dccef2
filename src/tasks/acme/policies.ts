import type { AssistantMessage, Message, ToolCall } from "../../messages/index.js";
import {
  estimateUsage,
  type Policy,
  PolicyError,
  type PolicyReply,
  type PolicyRequest,
} from "../../policies/index.js";
import type { ActionFormat } from "../../tools/index.js";
import { type AcmeOrder, CUSTOMER, dollars } from "./data.js";

/**
 * Two hand-written Acme agents, one per action format. Like a model, each decides from the request alone (the
 * observations so far): the cursors, the late orders and the total all come from tool results, never
 * from the task's data. The loop, the tools, the sandbox and the grader around them are real.
 */
abstract class AcmePolicy implements Policy {
  readonly model = undefined;
  private calls = 0;
  constructor(readonly spec: string) {}

  protected abstract decide(messages: readonly Message[]): {
    thought: string;
    calls: Array<Omit<ToolCall, "id">>;
  };

  async next(request: PolicyRequest): Promise<PolicyReply> {
    const { thought, calls } = this.decide(request.messages);
    const message: AssistantMessage = {
      role: "assistant",
      content: thought,
      toolCalls: calls.map((c) => ({ id: `call_${++this.calls}`, ...c })),
    };
    return { message, usage: estimateUsage(request, message), model: "scripted", finishReason: "tool_use" };
  }
}

interface Page {
  orders: string[];
  next_cursor: string | null;
}
interface Fee {
  value: number;
  days_late: number;
  fee: number;
}

/** Every tool result so far that parses as JSON, oldest first. */
function results(messages: readonly Message[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const m of messages) {
    if (m.role !== "tool" || m.isError) continue;
    try {
      const value: unknown = JSON.parse(m.content);
      if (value && typeof value === "object") out.push(value as Record<string, unknown>);
    } catch {
      // not a structured result
    }
  }
  return out;
}

const daysLate = (o: AcmeOrder) => o.delivered_day - o.promised_day;

/**
 * The best a tool-calling agent can do: one turn per page, because each cursor is
 * inside the previous page; then all orders in one turn of parallel calls; then the fees of the late
 * ones in parallel; then the answer. Six turns, the bound L_cp + 1.
 */
export class AcmeJsonPolicy extends AcmePolicy {
  constructor() {
    super("scripted:acme-json");
  }

  protected decide(messages: readonly Message[]) {
    const seen = results(messages);
    const pages = seen.filter((r): r is Record<string, unknown> & Page => Array.isArray(r.orders));
    const last = pages[pages.length - 1];
    if (!last) return { thought: "First page of Acme's orders.", calls: [listOrders()] };
    if (last.next_cursor !== null) {
      return {
        thought: `Page ${pages.length} points to another page; following its cursor.`,
        calls: [listOrders(last.next_cursor)],
      };
    }
    const ids = pages.flatMap((p) => p.orders);
    const orders = new Map(
      seen
        .filter((r) => Array.isArray(r.shipping_log))
        .map((r) => [r.id as string, r as unknown as AcmeOrder]),
    );
    const missing = ids.filter((id) => !orders.has(id));
    if (missing.length > 0) {
      return {
        thought: `All ${ids.length} order ids are in; fetching every order at once.`,
        calls: missing.map((id) => ({ name: "get_order", input: { id } })),
      };
    }
    const late = ids.map((id) => orders.get(id) as AcmeOrder).filter((o) => daysLate(o) > 0);
    const fees = seen.filter((r): r is Record<string, unknown> & Fee => typeof r.fee === "number");
    const feeOf = (o: AcmeOrder) => fees.find((f) => f.value === o.value && f.days_late === daysLate(o))?.fee;
    const unpriced = late.filter((o) => feeOf(o) === undefined);
    if (unpriced.length > 0) {
      return {
        thought: `${late.length} of ${ids.length} orders were late; asking the contract for each fee.`,
        calls: unpriced.map((o) => ({ name: "late_fee", input: { value: o.value, days_late: daysLate(o) } })),
      };
    }
    const total = late.reduce((sum, o) => sum + (feeOf(o) ?? 0), 0);
    const list = late.map((o) => `${o.id} (${daysLate(o)} days late) ${dollars(feeOf(o) ?? 0)}`).join(", ");
    const answer = `We owe ${CUSTOMER} ${dollars(total)} in late-delivery fees for ${late.length} of ${ids.length} orders: ${list}.`;
    return { thought: "Every fee is in.", calls: [{ name: "submit", input: { answer } }] };
  }
}

/** The code agent: a while loop walks the pages, a for loop fetches and adds up. */
export const ACME_PROGRAM = `order_ids, cursor = [], None
while True:
    page = list_orders("${CUSTOMER}", cursor)
    order_ids += page["orders"]
    cursor = page["next_cursor"]
    if cursor is None:
        break

late, total = [], 0.0
for order_id in order_ids:
    order = get_order(order_id)
    days_late = order["delivered_day"] - order["promised_day"]
    if days_late > 0:
        fee = late_fee(order["value"], days_late)["fee"]
        late.append(f"{order_id} ({days_late} days late) \${fee:,.2f}")
        total += fee

print(f"{len(late)} of {len(order_ids)} orders late: {', '.join(late)}; total late fees: \${total:,.2f}")`;

const TOTAL = /total late fees: (\$[\d,]+\.\d{2})/;

/** One program, then an answer read from the one line it printed: two turns. */
export class AcmeCodePolicy extends AcmePolicy {
  constructor() {
    super("scripted:acme-code");
  }

  protected decide(messages: readonly Message[]) {
    const last = messages[messages.length - 1];
    if (last?.role !== "tool") {
      return {
        thought: "Page through every order, fetch each one and add up the fees in one program.",
        calls: [{ name: "run_code", input: { language: "python", code: ACME_PROGRAM } }],
      };
    }
    const printed = last.content;
    const total = TOTAL.exec(printed)?.[1];
    if (!total) {
      throw new PolicyError(
        "script_exhausted",
        `scripted:acme-code: the program printed no total, so the script cannot answer; it printed:\n${printed}`,
      );
    }
    const answer = `We owe ${CUSTOMER} ${total} in late-delivery fees: ${printed.replace(/; total late fees: .*$/, "")}.`;
    return { thought: "The program printed the total.", calls: [{ name: "submit", input: { answer } }] };
  }
}

export function acmePolicy(format: ActionFormat): Policy {
  return format === "code" ? new AcmeCodePolicy() : new AcmeJsonPolicy();
}

function listOrders(cursor?: string): Omit<ToolCall, "id"> {
  return { name: "list_orders", input: { customer: CUSTOMER, ...(cursor ? { cursor } : {}) } };
}
