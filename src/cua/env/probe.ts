/**
 * The live-page reading behind the confirmation gate: PROBE_SCRIPT run over CDP in an isolated world
 * of the page's main frame. An isolated world shares the page's DOM but not its JavaScript globals,
 * so a page that redefines `elementsFromPoint` or `activeElement` cannot change what the gate reads.
 * Any failure is a `{ ok: false }` reading with the reason: the gate then refuses (fails closed).
 */
import { z } from "zod";
import type { Probe, ProbeQuery } from "../types.js";
import type { CdpSender } from "./a11y.js";
import { PROBE_SCRIPT } from "./probe-script.js";

const WORLD_NAME = "acilab-confirmation-gate";

const point = z.object({ x: z.number(), y: z.number() });
const control = z.object({
  role: z.string(),
  name: z.string(),
  label: z.string(),
  via: z.string().optional(),
  point,
});
const reading = z.union([
  z.object({
    ok: z.literal(true),
    controls: z.array(control),
    focus: z
      .object({
        kind: z.enum(["none", "text", "multiline", "control", "opaque"]),
        self: control.optional(),
        submit: control.optional(),
        accessKeyed: z.array(control).optional(),
      })
      .optional(),
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);

/** One isolated world per CDP session and frame, made again when a navigation destroys it. */
const worlds = new WeakMap<CdpSender, { frameId: string; contextId: number }>();

/**
 * What `query` reaches on the page behind `cdp`; `offset` is where the page's viewport sits on the
 * screen (0,0 headless; the window's content origin on an X11 desktop). Points in and out are screen px.
 */
export async function probeThroughCdp(
  cdp: CdpSender,
  query: ProbeQuery,
  offset: { x: number; y: number } = { x: 0, y: 0 },
): Promise<Probe> {
  const q = query.kind === "point" ? { ...query, x: query.x - offset.x, y: query.y - offset.y } : query;
  const expression = `(${PROBE_SCRIPT})(${JSON.stringify(q)})`;
  try {
    let value: unknown;
    try {
      value = await evaluateIsolated(cdp, expression, false);
    } catch {
      // The world went with the last document (a navigation): make a new one and try once more.
      value = await evaluateIsolated(cdp, expression, true);
    }
    const parsed = reading.safeParse(value);
    if (!parsed.success) return { ok: false, reason: "the page's answer about its controls was malformed" };
    const probe = parsed.data as Probe;
    if (!probe.ok) return probe;
    const shift = <T extends { point: { x: number; y: number } }>(c: T): T => ({
      ...c,
      point: { x: Math.round(c.point.x + offset.x), y: Math.round(c.point.y + offset.y) },
    });
    const { focus } = probe;
    return {
      ok: true,
      controls: probe.controls.map(shift),
      ...(focus
        ? {
            focus: {
              kind: focus.kind,
              ...(focus.self ? { self: shift(focus.self) } : {}),
              ...(focus.submit ? { submit: shift(focus.submit) } : {}),
              ...(focus.accessKeyed ? { accessKeyed: focus.accessKeyed.map(shift) } : {}),
            },
          }
        : {}),
    };
  } catch (err) {
    const cause = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { ok: false, reason: `the live page could not be read (${cause})` };
  }
}

async function evaluateIsolated(cdp: CdpSender, expression: string, fresh: boolean): Promise<unknown> {
  let world = fresh ? undefined : worlds.get(cdp);
  if (!world) {
    const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: { frame: { id: string } } };
    const { executionContextId } = (await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: WORLD_NAME,
    })) as { executionContextId: number };
    world = { frameId: frameTree.frame.id, contextId: executionContextId };
    worlds.set(cdp, world);
  }
  const answer = (await cdp.send("Runtime.evaluate", {
    expression,
    contextId: world.contextId,
    returnByValue: true,
  })) as {
    result?: { value?: unknown };
    exceptionDetails?: { text?: string; exception?: { description?: string } };
  };
  if (answer.exceptionDetails) {
    const d = answer.exceptionDetails;
    // Not a stale world: the script itself failed on this page. Fail closed with what it said.
    throw new ProbeScriptError(d.exception?.description?.split("\n")[0] ?? d.text ?? "an exception");
  }
  return answer.result?.value;
}

class ProbeScriptError extends Error {}
