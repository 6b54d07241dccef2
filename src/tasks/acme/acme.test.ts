import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../tools/index.js";
import { ACME_ORDERS, acmeTask, cursorFor, EXPECTED_TOTAL, lateFee } from "./index.js";

const tool = (tools: ToolDefinition[], name: string): ToolDefinition => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};
// The Acme tools never touch the context; an empty one is enough.
const ctx = {} as Parameters<ToolDefinition["execute"]>[1];

describe("the Acme task", () => {
  it("applies the contract: 1% a day, capped at 10%, in cents", () => {
    expect(lateFee(800, 3)).toBe(24);
    expect(lateFee(2000, 6)).toBe(120);
    expect(lateFee(1500, 3)).toBe(45);
    expect(lateFee(900, 15)).toBe(90);
    expect(lateFee(450, -1)).toBe(0);
    expect(lateFee(123.45, 3)).toBe(3.7);
    expect(EXPECTED_TOTAL).toBe(279);
    expect(ACME_ORDERS.filter((o) => o.delivered_day > o.promised_day).map((o) => o.id)).toEqual([
      "A2",
      "A4",
      "A6",
      "A7",
    ]);
  });

  it("pages three ids at a time behind opaque cursors", async () => {
    const { tools } = acmeTask.start();
    const list = tool(tools, "list_orders");
    const page1 = await list.execute({ customer: "Acme" }, ctx);
    expect(page1.data).toEqual({ customer: "Acme", orders: ["A1", "A2", "A3"], next_cursor: cursorFor(2) });
    expect(JSON.parse(page1.output)).toEqual(page1.data);
    const page3 = await list.execute({ customer: "Acme", cursor: cursorFor(3) }, ctx);
    expect(page3.data).toEqual({ customer: "Acme", orders: ["A7"], next_cursor: null });
    const guessed = await list.execute({ customer: "Acme", cursor: "2" }, ctx);
    expect(guessed).toMatchObject({ error: "invalid_arguments" });
    expect(guessed.output).toContain("pass the next_cursor of the previous page");
    expect(await list.execute({ customer: "Globex" }, ctx)).toMatchObject({ error: "not_found" });
  });

  it("returns each order with a long shipping log", async () => {
    const { tools } = acmeTask.start();
    const order = await tool(tools, "get_order").execute({ id: "A7" }, ctx);
    expect(order.data).toMatchObject({ id: "A7", value: 900, promised_day: 75, delivered_day: 90 });
    expect(order.output.length).toBeGreaterThan(800);
    expect(await tool(tools, "get_order").execute({ id: "B1" }, ctx)).toMatchObject({ error: "not_found" });
  });

  it("grades the submitted answer, per episode", async () => {
    const right = acmeTask.start();
    expect(right.grade()).toMatchObject({ resolved: false, answer: null });
    const submitted = await tool(right.tools, "submit").execute({ answer: "We owe Acme $279.00." }, ctx);
    expect(submitted.submitted).toBe(true);
    expect(right.grade()).toEqual({
      resolved: true,
      answer: "We owe Acme $279.00.",
      detail: "the answer states $279.00",
    });
    const wrong = acmeTask.start();
    await tool(wrong.tools, "submit").execute({ answer: "We owe Acme $189.00." }, ctx);
    expect(wrong.grade().resolved).toBe(false);
    expect(right.grade().resolved).toBe(true); // episodes do not share state
  });
});
