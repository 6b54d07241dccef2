import { describe, expect, it } from "vitest";
import { jsonErrorPosition, positionAt } from "./json-position.js";

function errorOf(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error("parsed");
}

describe("jsonErrorPosition", () => {
  it("counts lines and columns from 1", () => {
    expect(positionAt("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });

  it("points at a trailing comma's closing brace", () => {
    const text = '{\n  "permissions": {\n    "allow": ["Bash"],\n  }\n}';
    expect(jsonErrorPosition(text, errorOf(text))).toEqual({ line: 4, column: 3 });
  });

  it("puts a truncated file's problem at its end", () => {
    const text = '{\n  "permissions": {\n    "allow": ["Ba';
    expect(jsonErrorPosition(text, errorOf(text))).toEqual({ line: 3, column: 18 });
  });

  it("reads newer engines' (line N column M) as given", () => {
    expect(
      jsonErrorPosition("", new SyntaxError("Unexpected token in JSON at position 9 (line 2 column 4)")),
    ).toEqual({
      line: 2,
      column: 4,
    });
  });

  it("says nothing when the message has no position", () => {
    expect(jsonErrorPosition("x", new Error("something else"))).toBeUndefined();
  });
});
