import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../tools/index.js";
import { ACME_ORDERS, CUSTOMER, cursorFor, lateFee, PAGE_SIZE } from "./data.js";

/** Structured results: a program gets `data`, a JSON agent reads the same thing as JSON text. */
const ok = (data: unknown) => ({ output: JSON.stringify(data), data });

/** The state of one Acme episode: what was submitted. The world itself is read-only. */
export interface AcmeState {
  answer: string | null;
}

/** The Acme billing API (paginated orders, shipping logs, a fee rule), plus a submit that takes the answer text. */
export function acmeTools(state: AcmeState): ToolDefinition[] {
  const pages = Math.ceil(ACME_ORDERS.length / PAGE_SIZE);
  const listOrders = defineTool({
    name: "list_orders",
    description:
      "One page of a customer's order ids (three per page) and next_cursor, the cursor of the next page (null on the last page). Omit cursor for the first page.",
    kind: "read",
    schema: z.object({
      customer: z.string().describe('The customer\'s name, e.g. "Acme".'),
      cursor: z.string().optional().describe("next_cursor from the previous page; omit for the first page."),
    }),
    async execute({ customer, cursor }) {
      if (customer.toLowerCase() !== CUSTOMER.toLowerCase())
        return {
          error: "not_found",
          output: `error: no customer named "${customer}"; known customers: ${CUSTOMER}`,
        };
      const page = cursor === undefined ? 1 : pageOf(cursor, pages);
      if (page === undefined) {
        return {
          error: "invalid_arguments",
          output: `error: cursor "${cursor}" was not issued by list_orders; pass the next_cursor of the previous page, or omit it for the first page`,
        };
      }
      const orders = ACME_ORDERS.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((o) => o.id);
      return ok({ customer: CUSTOMER, orders, next_cursor: page < pages ? cursorFor(page + 1) : null });
    },
  });
  const getOrder = defineTool({
    name: "get_order",
    description:
      "One order: its value in dollars, the promised and the actual delivery day (days since the contract started), and its shipping log.",
    kind: "read",
    schema: z.object({ id: z.string().describe('The order id, e.g. "A1".') }),
    async execute({ id }) {
      const order = ACME_ORDERS.find((o) => o.id === id);
      if (!order) return { error: "not_found", output: `error: no order "${id}"; list_orders gives the ids` };
      return ok(order);
    },
  });
  const fee = defineTool({
    name: "late_fee",
    description:
      "The contract's late-delivery fee for one order: 1% of the value per day late, capped at 10% of the value.",
    kind: "read",
    schema: z.object({
      value: z.number().nonnegative().describe("The order's value in dollars."),
      days_late: z.number().int().describe("Days delivered after the promised day (0 or less = on time)."),
    }),
    async execute({ value, days_late }) {
      return ok({ value, days_late, fee: lateFee(value, days_late) });
    },
  });
  const submit = defineTool({
    name: "submit",
    description: "Give your final answer to the user. Nothing can be changed after this.",
    kind: "control",
    schema: z.object({
      answer: z.string().min(1).describe("The answer, with the amount in dollars and cents."),
    }),
    async execute({ answer }) {
      state.answer = answer;
      return { output: "Submitted. The run ends here.", submitted: true };
    },
  });
  return [listOrders, getOrder, fee, submit];
}

function pageOf(cursor: string, pages: number): number | undefined {
  for (let page = 2; page <= pages; page++) if (cursorFor(page) === cursor) return page;
  return undefined;
}
