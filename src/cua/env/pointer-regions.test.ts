import { describe, expect, it } from "vitest";
import { el, snapshotOf, text } from "../testing/snapshot.js";
import { SnapshotView } from "./dom-snapshot.js";
import { listening } from "./listeners.js";
import { type AxOfElement, pointerRegions } from "./pointer-regions.js";

/*
 * One page with each pattern MiniWoB's pages use for controls the accessibility tree does not list,
 * as a snapshot: listeners are given by backend id (node index + 100, see testing/snapshot.ts).
 */
const page = el(
  "BODY",
  [0, 0, 800, 600],
  [
    el(
      "svg",
      [0, 0, 160, 160],
      [
        el("text", [10, 10, 10, 20], [text("1", [10, 10, 10, 20])], { attrs: { id: "one" } }),
        el("rect", [40, 40, 20, 20], [], { attrs: { id: "hover" }, style: { fill: "rgb(0, 0, 255)" } }),
      ],
    ),
    el("DIV", [200, 0, 50, 50], [], {
      attrs: { id: "box" },
      style: { "background-color": "rgb(255, 0, 255)" },
    }),
    el(
      "UL",
      [0, 200, 100, 60],
      [
        el("LI", [0, 200, 100, 30], [text("Terry", [0, 200, 40, 20])]),
        el("LI", [0, 230, 100, 30], [text("Krissie", [0, 230, 50, 20])]),
      ],
      {
        attrs: { id: "sortable" },
      },
    ),
    el(
      "SPAN",
      [300, 0, 120, 20],
      [
        el("INPUT", [300, 0, 100, 20], [], { attrs: { id: "spin" } }),
        el("A", [400, 0, 20, 10], [el("SPAN", [400, 0, 20, 10], [text("▲", [400, 0, 10, 10])])], {
          attrs: { id: "up", "aria-hidden": "true", tabindex: "-1" },
        }),
      ],
    ),
    el(
      "DIV",
      [300, 100, 200, 40],
      [el("BUTTON", [300, 100, 80, 30], [text("Real", [300, 100, 40, 20])], { attrs: { id: "real" } })],
      {
        attrs: { id: "card" },
      },
    ),
    el(
      "DIV",
      [300, 200, 200, 40],
      [
        el("SPAN", [300, 200, 50, 20], [text("Alpha", [300, 200, 50, 20])], { attrs: { id: "alpha" } }),
        el("SPAN", [360, 200, 50, 20], [text("Beta", [360, 200, 50, 20])], { attrs: { id: "beta" } }),
      ],
      { attrs: { id: "wrap" } },
    ),
    el(
      "DIV",
      [300, 300, 200, 60],
      [
        text("Docs", [300, 300, 40, 20]),
        el("SPAN", [300, 330, 60, 20], [text("readme", [300, 330, 60, 20])], { attrs: { id: "file" } }),
      ],
      { attrs: { id: "folder" } },
    ),
    el("LABEL", [0, 400, 100, 20], [text("Remember", [0, 400, 80, 20])], { attrs: { id: "label" } }),
    el("LABEL", [0, 430, 100, 20], [text("Tied", [0, 430, 30, 20])], { attrs: { for: "spin" } }),
    el(
      "DIV",
      [0, 500, 300, 20],
      [text("8am", [0, 500, 30, 20]), el("DIV", [40, 500, 100, 20], [], { attrs: { id: "slot" } })],
    ),
  ],
);

const snap = snapshotOf(page);
const view = new SnapshotView(snap.documents[0]!, snap.strings);
const idOf = (id: string) => {
  for (let n = 0; n < view.count; n++) if (view.attr(n, "id") === id) return view.ids[n]!;
  throw new Error(id);
};
/** The accessibility tree knows the body, the textbox and the button; everything else is generic to it. */
const ax = new Map<number, AxOfElement>([
  [view.ids[0]!, { nodeId: "body", control: false, name: "" }],
  [idOf("spin"), { nodeId: "spin", control: true, name: "" }],
  [idOf("real"), { nodeId: "real", control: true, name: "Real" }],
]);
const press = ["one", "box", "sortable", "card", "wrap", "alpha", "beta", "folder", "file", "label", "slot"];

describe("pointerRegions: controls a script makes", () => {
  const regions = pointerRegions(
    view,
    ax,
    listening([
      ...press.map((id) => ({ type: id === "sortable" ? "mousedown" : "click", backendNodeId: idOf(id) })),
      { type: "mouseenter", backendNodeId: idOf("hover") },
      { type: "mouseleave", backendNodeId: idOf("hover") },
    ]),
  );
  const listed = (regions.byHost.get("body") ?? []).map((c) => [c.role, c.name, ...c.states]);

  it("lists each, named by what a person sees, in document order", () => {
    expect(listed).toEqual([
      // An SVG number with a click listener and no pointer cursor.
      ["clickable", "1"],
      // An SVG shape that answers only to the pointer resting on it.
      ["clickable", "blue rectangle", "hover"],
      // A box of colour with no text.
      ["clickable", "magenta box"],
      // A sortable list's container listens; its items are what a person drags.
      ["clickable", "Terry"],
      ["clickable", "Krissie"],
      // A spinner's arrow, aria-hidden, inside the widget that holds the textbox.
      ["button", "▲", "aria-hidden"],
      // A container of other controls with no text of its own is not one: its children are.
      ["clickable", "Alpha"],
      ["clickable", "Beta"],
      // A folder with a name of its own, listed at that name, and the file it holds.
      ["clickable", "Docs"],
      ["clickable", "readme"],
      // An unnamed slot named by the text before it in its row.
      ["clickable", "8am"],
    ]);
  });

  it("never lists an element holding a real control, nor a label", () => {
    const names = listed.map((l) => l[1]);
    expect(names).not.toContain("Real");
    expect(names).not.toContain("Remember");
    // The folder is listed at its label (the text node's parent is the folder: its own box), before the file.
    const folder = regions.byHost.get("body")?.find((c) => c.name === "Docs");
    expect(folder?.backendId).toBe(idOf("folder"));
  });

  it("keeps the text outside controls for fields' nearby labels", () => {
    expect(regions.texts.map((t) => t.text)).toContain("8am");
    expect(regions.texts.map((t) => t.text)).not.toContain("Real");
    expect(regions.texts.map((t) => t.text)).not.toContain("Alpha");
    // A label tied to its control (for=) names that one; a free <label> may name a neighbour.
    expect(regions.texts.map((t) => t.text)).not.toContain("Tied");
    expect(regions.texts.map((t) => t.text)).toContain("Remember");
  });
});

describe("listening", () => {
  it("reads a press listener over a hover one on the same element", () => {
    const l = listening([
      { type: "mouseover", backendNodeId: 1 },
      { type: "click", backendNodeId: 1 },
      { type: "mousemove", backendNodeId: 2 },
      { type: "keydown", backendNodeId: 3 },
    ]);
    expect([...l]).toEqual([
      [1, "press"],
      [2, "hover"],
    ]);
  });
});
