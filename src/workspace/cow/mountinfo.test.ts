import { describe, expect, it } from "vitest";
import { mountsUnder, parseMountInfo } from "./mountinfo.js";

const SAMPLE = [
  "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw",
  "90 22 0:51 / /tmp/ws/c1/root rw,nosuid,nodev,relatime - overlay overlay rw,lowerdir=/tmp/ws/lower,upperdir=/tmp/ws/c1/layers/upper-1,workdir=/tmp/ws/c1/layers/work-1",
  "91 22 0:52 / /tmp/ws/c1/layers rw,nosuid,nodev master:3 propagate_from:2 - tmpfs acilab-cow rw,size=1024k",
  "92 22 254:0 /tmp/ws/lower /tmp/ws/lower ro,nosuid,nodev,relatime - ext4 /dev/vda rw",
  "93 22 0:53 / /tmp/with\\040space rw - tmpfs tmpfs rw",
  "",
].join("\n");

describe("mountinfo", () => {
  it("parses targets, optional tags, types and both option lists", () => {
    const entries = parseMountInfo(SAMPLE);
    expect(entries).toHaveLength(5);
    expect(entries[1]).toMatchObject({ id: 90, parent: 22, target: "/tmp/ws/c1/root", fsType: "overlay" });
    expect(entries[1]?.mountOptions).toEqual(["rw", "nosuid", "nodev", "relatime"]);
    expect(entries[1]?.superOptions).toContain("lowerdir=/tmp/ws/lower");
    expect(entries[2]).toMatchObject({ fsType: "tmpfs", superOptions: ["rw", "size=1024k"] });
    expect(entries[3]?.mountOptions[0]).toBe("ro");
    expect(entries[4]?.target).toBe("/tmp/with space");
  });

  it("lists the mounts below a directory deepest first, the order to unmount them in", () => {
    const under = mountsUnder("/tmp/ws", parseMountInfo(SAMPLE)).map((m) => m.target);
    expect(under).toEqual(["/tmp/ws/c1/layers", "/tmp/ws/c1/root", "/tmp/ws/lower"]);
    expect(mountsUnder("/tmp/w", parseMountInfo(SAMPLE))).toEqual([]);
  });
});
