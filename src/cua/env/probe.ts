/**
 * The live-page reading behind the confirmation gate: PROBE_SCRIPT run over CDP in an isolated world
 * of the page's main frame. An isolated world shares the page's DOM but not its JavaScript globals,
 * so a page that redefines `elementsFromPoint` or `activeElement` cannot change what the gate reads.
 * For a point on an element that may host a closed shadow root, CDP's own hit test
 * (`DOM.getNodeForLocation`) names the deepest node there — inside shadow roots, closed ones too,
 * which no script can enter — and the script starts from it.
 * A focus the script cannot see (inside a closed shadow root) is read from that root, which CDP hands over.
 * A point is read at the page's next animation frame after the pointer arrived there.
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
        choice: z.array(control).optional(),
        links: z.array(control).optional(),
      })
      .optional(),
    /** The focus is on an element that cannot take it: the focused one is in its closed shadow root. */
    hidden: z.boolean().optional(),
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
  try {
    let value: unknown;
    try {
      value = await read(cdp, q, false);
    } catch (err) {
      if (err instanceof ProbeScriptError) throw err;
      // The world went with the last document (a navigation): make a new one and try once more.
      value = await read(cdp, q, true);
    }
    const parsed = reading.safeParse(value);
    if (!parsed.success) return { ok: false, reason: "the page's answer about its controls was malformed" };
    const probe = parsed.data;
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
              ...(focus.choice ? { choice: focus.choice.map(shift) } : {}),
              ...(focus.links ? { links: focus.links.map(shift) } : {}),
            },
          }
        : {}),
    } as Probe;
  } catch (err) {
    const cause = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { ok: false, reason: `the live page could not be read (${cause})` };
  }
}

/**
 * Resolves at the page's next animation frame, from the gate's world (a page that redefines its own
 * requestAnimationFrame cannot cut the wait short or hold it). The page's handlers for the pointer's
 * arrival have run by then, and what they scheduled for the next frame too.
 */
const NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => r(true)))";

/** The script's answer: for a point, from CDP's hit test's node; for a hidden focus, from the a11y tree's. */
async function read(cdp: CdpSender, q: ProbeQuery, fresh: boolean): Promise<unknown> {
  const contextId = await world(cdp, fresh);
  if (q.kind === "point") {
    await cdp.send("Runtime.callFunctionOn", {
      functionDeclaration: NEXT_FRAME,
      executionContextId: contextId,
      awaitPromise: true,
    });
    // Most points need no more than the script; one that may be on a closed shadow root's content
    // is read again from CDP's own hit test, which enters it.
    const first = (await call(cdp, contextId, q, undefined)) as { pierce?: boolean } | undefined;
    if (!first?.pierce) return first;
    const hit = await nodeAt(cdp, q.x, q.y, contextId);
    const again: ScriptQuery = { ...q, pierce: false };
    return call(cdp, contextId, again, hit);
  }
  const answer = (await call(cdp, contextId, q, undefined)) as { hidden?: boolean } | undefined;
  if (!answer?.hidden) return answer;
  const root = await hiddenFocus(cdp, contextId);
  if (!root) return { ok: false, reason: "where the focus is could not be read" };
  return call(cdp, contextId, q, root);
}

async function world(cdp: CdpSender, fresh: boolean): Promise<number> {
  const known = fresh ? undefined : worlds.get(cdp);
  if (known) return known.contextId;
  const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: { frame: { id: string } } };
  const { executionContextId } = (await cdp.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName: WORLD_NAME,
  })) as { executionContextId: number };
  worlds.set(cdp, { frameId: frameTree.frame.id, contextId: executionContextId });
  return executionContextId;
}

/** The deepest node at a viewport point, as an object in the gate's world; undefined if none. */
async function nodeAt(cdp: CdpSender, x: number, y: number, contextId: number): Promise<string | undefined> {
  let backendNodeId: number | undefined;
  try {
    ({ backendNodeId } = (await cdp.send("DOM.getNodeForLocation", {
      x: Math.round(x),
      y: Math.round(y),
    })) as { backendNodeId: number });
  } catch {
    return undefined; // nothing at the point (outside the page): the script says so itself
  }
  return resolve(cdp, backendNodeId, contextId);
}

/**
 * The closed shadow root the focus is in: the active element's own shadow root, which only CDP can
 * reach (`DOM.describeNode` with pierce); the script then takes that root's active element. Without
 * one, the active element itself (focused as a whole, like a dialog).
 */
async function hiddenFocus(cdp: CdpSender, contextId: number): Promise<string | undefined> {
  const host = (await cdp.send("Runtime.evaluate", { expression: "document.activeElement", contextId })) as {
    result?: { objectId?: string };
  };
  if (!host.result?.objectId) return undefined;
  const { node } = (await cdp.send("DOM.describeNode", { objectId: host.result.objectId, pierce: true })) as {
    node: { shadowRoots?: Array<{ backendNodeId: number }> };
  };
  const root = node.shadowRoots?.[0];
  return root ? resolve(cdp, root.backendNodeId, contextId) : host.result.objectId;
}

async function resolve(
  cdp: CdpSender,
  backendNodeId: number,
  contextId: number,
): Promise<string | undefined> {
  try {
    const { object } = (await cdp.send("DOM.resolveNode", {
      backendNodeId,
      executionContextId: contextId,
    })) as {
      object: { objectId?: string };
    };
    return object.objectId;
  } catch {
    return undefined;
  }
}

/** The query as the script takes it: `pierce: false` once CDP's hit test has been asked. */
type ScriptQuery = ProbeQuery & { pierce?: false };

async function call(
  cdp: CdpSender,
  contextId: number,
  q: ScriptQuery,
  node: string | undefined,
): Promise<unknown> {
  const answer = (await cdp.send("Runtime.callFunctionOn", {
    functionDeclaration: PROBE_SCRIPT,
    executionContextId: contextId,
    arguments: [{ value: q }, ...(node ? [{ objectId: node }] : [])],
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
