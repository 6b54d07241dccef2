import { describe, expect, it } from "vitest";
import { Resources } from "./resources.js";

describe("Resources", () => {
  it("releases newest first, each once, an early release not again", async () => {
    const order: string[] = [];
    const resources = new Resources();
    const checkout = resources.hold({ name: "checkout" }, (c) => void order.push(c.name));
    const sandbox = resources.hold({ name: "sandbox" }, (s) => void order.push(s.name));
    resources.defer(() => void order.push("listener"));
    await resources.release(sandbox);
    await resources.release(sandbox);
    await resources.dispose();
    expect(order).toEqual(["sandbox", "listener", "checkout"]);
    expect(checkout.name).toBe("checkout");
  });

  it("runs every release when one fails, then throws the first failure", async () => {
    const order: string[] = [];
    const resources = new Resources();
    resources.defer(() => void order.push("first held"));
    resources.defer(() => {
      throw new Error("second failed");
    });
    resources.defer(() => {
      throw new Error("third failed");
    });
    await expect(resources.dispose()).rejects.toThrow("third failed");
    expect(order).toEqual(["first held"]);
  });
});
