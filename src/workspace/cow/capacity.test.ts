import { describe, expect, it } from "vitest";
import { DEFAULT_WORKSPACE_BYTES, parseByteSize, workspaceBytesFromEnv } from "./capacity.js";

describe("the workspace size cap", () => {
  it("reads bytes and binary units, with or without B or iB", () => {
    expect(parseByteSize("1048576")).toBe(1024 ** 2);
    expect(parseByteSize("512M")).toBe(512 * 1024 ** 2);
    expect(parseByteSize("4G")).toBe(DEFAULT_WORKSPACE_BYTES);
    expect(parseByteSize("1.5g")).toBe(1.5 * 1024 ** 3);
    expect(parseByteSize("64KiB")).toBe(64 * 1024);
    expect(parseByteSize(" 2 GB ")).toBe(2 * 1024 ** 3);
    for (const bad of ["", "lots", "-1G", "4X", "1e9", "G"]) expect(parseByteSize(bad), bad).toBeUndefined();
  });

  it("comes from ACILAB_WORKSPACE_BYTES, and a bad or tiny one says how to fix it", () => {
    expect(workspaceBytesFromEnv({})).toBeUndefined();
    expect(workspaceBytesFromEnv({ ACILAB_WORKSPACE_BYTES: "" })).toBeUndefined();
    expect(workspaceBytesFromEnv({ ACILAB_WORKSPACE_BYTES: "2G" })).toBe(2 * 1024 ** 3);
    expect(() => workspaceBytesFromEnv({ ACILAB_WORKSPACE_BYTES: "big" })).toThrow(
      /ACILAB_WORKSPACE_BYTES="big" is not a size: .*unset it for the default \(4G\)/,
    );
    expect(() => workspaceBytesFromEnv({ ACILAB_WORKSPACE_BYTES: "10K" })).toThrow(
      /ACILAB_WORKSPACE_BYTES is 10240: .* at least 1048576 \(1M\)/,
    );
  });
});
