import { describe, expect, it } from "vitest";
import { byId, el, text, viewOf } from "../testing/snapshot.js";
import type { Box } from "./dom-snapshot.js";
import {
  classWords,
  colourName,
  fileWords,
  iconName,
  kinOf,
  nearbyLabel,
  shapeName,
} from "./element-names.js";

const t = (s: string, box: Box) => ({ text: s, box });

describe("nearbyLabel: a field's label written beside it", () => {
  const field: Box = [200, 100, 360, 120];

  it("reads the words before it in its row as one label, without the colon", () => {
    const texts = [
      t("First", [100, 102, 140, 118]),
      t("name:", [143, 102, 190, 118]),
      t("Elsewhere", [10, 102, 60, 118]),
    ];
    expect(nearbyLabel(field, texts, { side: "before", above: true })).toBe("First name");
  });

  it("reads the text after a checkbox, and falls back to the line just above a field", () => {
    expect(
      nearbyLabel([10, 10, 23, 23], [t("Remember me", [28, 9, 120, 24])], { side: "after", above: false }),
    ).toBe("Remember me");
    const above = [t("Email address", [200, 78, 300, 95]), t("Far above", [200, 10, 300, 30])];
    expect(nearbyLabel(field, above, { side: "before", above: true })).toBe("Email address");
    expect(nearbyLabel(field, above, { side: "before", above: false })).toBe("");
  });

  it("ignores text in another row, behind it, or too far away", () => {
    const wide: Box = [400, 100, 560, 120];
    const texts = [
      t("Next row", [300, 140, 390, 160]),
      t("After", [570, 102, 620, 118]),
      t("Far", [0, 102, 100, 118]),
    ];
    expect(nearbyLabel(wide, texts, { side: "before", above: false })).toBe("");
  });
});

describe("kinOf: text that belongs with a field", () => {
  it("takes a label beside the field in its row, not a status panel elsewhere on the page", () => {
    const view = viewOf(
      el(
        "BODY",
        [0, 0, 800, 600],
        [
          el(
            "DIV",
            [0, 0, 160, 160],
            [
              el(
                "DIV",
                [0, 0, 160, 20],
                [
                  el("SPAN", [0, 0, 40, 20], [text("Name", [0, 0, 40, 20])]),
                  el("INPUT", [50, 0, 100, 20], [], { attrs: { id: "name" } }),
                ],
              ),
            ],
          ),
          el("DIV", [170, 0, 150, 20], [text("Time left: 10 s", [170, 0, 150, 20])]),
        ],
      ),
    );
    const related = kinOf(view, byId(view, "name"));
    const texts = [];
    for (let n = 0; n < view.count; n++)
      if (view.isText(n)) texts.push({ box: view.box(n)!, text: view.text(n), node: n });
    expect(texts.filter((t) => related(t.node)).map((t) => t.text)).toEqual(["Name"]);
    expect(nearbyLabel([50, 0, 150, 20], texts, { side: "after", above: false, related })).toBe("");
    expect(nearbyLabel([50, 0, 150, 20], texts, { side: "after", above: false })).toBe("Time left: 10 s");
  });
});

describe("names from what an element shows", () => {
  it("names colours as CSS does, and hex where no name is exact", () => {
    expect(colourName("rgb(255, 0, 255)")).toBe("magenta");
    expect(colourName("rgb(0, 255, 255)")).toBe("cyan");
    expect(colourName("rgba(0, 0, 0, 0)")).toBe("");
    expect(colourName("rgb(18, 52, 86)")).toBe("#123456");
  });

  it("reads the control words of class names, and nothing from layout or theme classes", () => {
    expect(classWords("ui-button ui-spinner-button ui-spinner-down ui-corner-br")).toBe("down");
    expect(classWords("glyphicon glyphicon-remove")).toBe("remove");
    expect(classWords("btn btn-primary col-md-4")).toBe("");
    expect(classWords("")).toBe("");
  });

  it("reads an icon's file name as words", () => {
    expect(fileWords("http://127.0.0.1:9/common/special/email-inbox/delete.png")).toBe("delete");
    expect(fileWords("/img/left-arrow_icon.svg?v=2")).toBe("left arrow");
    expect(fileWords("data:image/png;base64,AAAA")).toBe("");
    expect(fileWords("/img/3.png")).toBe("");
  });

  it("names an icon by its label, an SVG title inside, or the image it shows", () => {
    const view = viewOf(
      el(
        "BODY",
        [0, 0, 800, 600],
        [
          el("SPAN", [0, 0, 12, 12], [], {
            attrs: { id: "trash" },
            style: { content: 'url("/icons/delete.png")' },
          }),
          el(
            "BUTTON",
            [20, 0, 32, 12],
            [el("svg", [20, 0, 32, 12], [el("title", undefined, [text("Archive")])])],
            {
              attrs: { id: "archive" },
            },
          ),
          el("SPAN", [40, 0, 52, 12], [], { attrs: { id: "star", title: "Star it" } }),
          // jQuery UI's spinner arrow: an empty <a> around a sprite, named only by its classes.
          el(
            "A",
            [60, 0, 76, 8],
            [
              el("SPAN", [60, 0, 76, 8], [], {
                attrs: { class: "ui-button-icon ui-icon ui-icon-triangle-1-n" },
              }),
            ],
            {
              attrs: { id: "up", class: "ui-button ui-widget ui-spinner-button ui-spinner-up ui-corner-tr" },
            },
          ),
          el("I", [80, 0, 92, 12], [], { attrs: { id: "fa", class: "fa fa-arrow-left" } }),
          el("SPAN", [100, 0, 112, 12], [], { attrs: { id: "plain", class: "ui-widget ui-corner-all" } }),
        ],
      ),
    );
    expect(iconName(view, byId(view, "up"))).toBe("up");
    expect(iconName(view, byId(view, "fa"))).toBe("arrow left");
    expect(iconName(view, byId(view, "plain"))).toBe("");
    expect(iconName(view, byId(view, "trash"))).toBe("delete");
    expect(iconName(view, byId(view, "archive"))).toBe("Archive");
    expect(iconName(view, byId(view, "star"))).toBe("Star it");
  });

  it("names a shape by its fill, a box by its colour, a drawing by what it draws", () => {
    const view = viewOf(
      el(
        "BODY",
        [0, 0, 800, 600],
        [
          el(
            "svg",
            [0, 0, 100, 100],
            [
              el("circle", [0, 0, 10, 10], [], { attrs: { id: "c" }, style: { fill: "rgb(255, 0, 0)" } }),
              el("circle", [20, 0, 10, 10]),
            ],
            {
              attrs: { id: "svg" },
            },
          ),
          el("DIV", [0, 200, 50, 50], [], {
            attrs: { id: "box" },
            style: { "background-color": "rgb(0, 128, 0)" },
          }),
        ],
      ),
    );
    expect(shapeName(view, byId(view, "c"))).toBe("red circle");
    expect(shapeName(view, byId(view, "svg"))).toBe("drawing of 2 circles");
    expect(shapeName(view, byId(view, "box"))).toBe("green box");
  });
});
