import { describe, expect, it } from "vitest";
import { setupFailure } from "./launch.js";

const ran = { signal: null, timedOut: false };
const cloned = '{ "child-pid": 4242 }\n';

describe("setupFailure (bwrap)", () => {
  it("reads bwrap's exit report as the program's result", () => {
    expect(
      setupFailure({ ...ran, code: 7, status: `${cloned}{ "exit-code": 7 }\n`, stderr: "" }),
    ).toBeUndefined();
  });

  it("reads a mount bwrap could not make as the sandbox's failure, in bwrap's words", () => {
    const stderr = "bwrap: Can't find source path /tmp/gone: No such file or directory\n";
    expect(setupFailure({ ...ran, code: 1, status: cloned, stderr })).toBe(
      "sandbox: bwrap could not set up the sandbox: bwrap: Can't find source path /tmp/gone: No such file or directory",
    );
  });

  it("reads a silent end after the clone as the program's: bwrap sometimes leaves its exit report out", () => {
    expect(setupFailure({ ...ran, code: 7, status: cloned, stderr: "" })).toBeUndefined();
    expect(setupFailure({ ...ran, code: 3, status: cloned, stderr: "my own error\n" })).toBeUndefined();
  });

  it("reads an end before any clone as the sandbox's failure", () => {
    expect(setupFailure({ ...ran, code: 1, status: "", stderr: "" })).toBe(
      "sandbox: bwrap could not set up the sandbox: exit 1",
    );
  });

  it("names the wrapper's own failure, and leaves a missing program to the model", () => {
    expect(
      setupFailure({ ...ran, code: 125, status: "", stderr: "acilab sandbox wrapper: ulimit refused\n" }),
    ).toBe("sandbox: could not start bwrap: acilab sandbox wrapper: ulimit refused");
    expect(
      setupFailure({
        ...ran,
        code: 1,
        status: cloned,
        stderr: "bwrap: execvp nope: No such file or directory\n",
      }),
    ).toBeUndefined();
  });
});
