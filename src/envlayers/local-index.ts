/**
 * The versions of a package this machine's folder indexes hold (a `file://…/simple` index, a
 * find-links folder) for one Python: read from file names, no pip run. `--pins available` uses it to
 * move every pin these indexes lack before the first build, rather than one per failed build (pip
 * names one missing requirement at a time). A remote index is not read: pip still has the last word.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PythonEnvironmentSpec } from "../swebench/index.js";
import { nearestVersion, packageName, pinnedVersion } from "./pins.js";
import type { PipSources } from "./sources.js";

/** Folders of local distributions, and simple-index roots, the sources name. */
function localSources(sources: PipSources): { indexes: string[]; folders: string[] } {
  const local = (url: string) =>
    url.startsWith("file://")
      ? decodeURIComponent(new URL(url).pathname)
      : url.startsWith("/")
        ? url
        : undefined;
  const indexes = (sources.noIndex ? [] : [sources.indexUrl ?? "", ...sources.extraIndexUrls])
    .map(local)
    .filter((p): p is string => p !== undefined && existsSync(p));
  const folders = sources.findLinks
    .map(local)
    .filter((p): p is string => p !== undefined && existsSync(p) && statSync(p).isDirectory());
  return { indexes, folders };
}

/** The distributions' file names for `name` in the local sources, or undefined when there are none. */
function fileNames(name: string, sources: PipSources): string[] | undefined {
  const { indexes, folders } = localSources(sources);
  if (indexes.length === 0 && folders.length === 0) return undefined;
  const wanted = packageName(name);
  const names: string[] = [];
  for (const root of indexes) {
    const page = join(root, wanted, "index.html");
    if (!existsSync(page)) continue;
    for (const m of readFileSync(page, "utf8").matchAll(/href="([^"#]+)/g))
      names.push(decodeURIComponent((m[1] as string).split("/").at(-1) as string));
  }
  for (const folder of folders) names.push(...readdirSync(folder));
  return names.filter((f) => distribution(f)?.name === wanted);
}

/** A distribution file's name and version, or undefined for other files. */
export function distribution(file: string): { name: string; version: string; wheel: boolean } | undefined {
  if (file.endsWith(".whl")) {
    const parts = file.slice(0, -4).split("-");
    if (parts.length < 5) return undefined;
    return { name: packageName(parts[0] as string), version: parts[1] as string, wheel: true };
  }
  const sdist = /^(.+?)-(\d[^-]*)\.(?:tar\.gz|zip|tar\.bz2)$/.exec(file);
  return sdist
    ? { name: packageName(sdist[1] as string), version: sdist[2] as string, wheel: false }
    : undefined;
}

/** Whether a wheel installs on CPython `python` ("3.9") on x86-64 Linux; an sdist always may. */
export function installsOn(file: string, python: string): boolean {
  if (!file.endsWith(".whl")) return true;
  const parts = file.slice(0, -4).split("-");
  const [py = "", abi = "", plat = ""] = parts.slice(-3);
  const [major, minor] = python.split(".").map(Number) as [number, number];
  const platformOk = plat
    .split(".")
    .some(
      (p) => p === "any" || (p.endsWith("x86_64") && (p.startsWith("manylinux") || p.startsWith("linux"))),
    );
  const pythonOk = py.split(".").some((t) => {
    if (t === `py${major}` || t === `py${major}${minor}` || t === `cp${major}${minor}`) return true;
    const cp = /^cp(\d)(\d+)$/.exec(t);
    return abi === "abi3" && cp !== null && Number(cp[1]) === major && Number(cp[2]) <= minor;
  });
  return platformOk && pythonOk;
}

/** The versions of `name` the local sources hold for `python`, or undefined when there are no local sources. */
export function localVersions(name: string, sources: PipSources, python: string): string[] | undefined {
  const files = fileNames(name, sources);
  if (files === undefined) return undefined;
  return [
    ...new Set(files.filter((f) => installsOn(f, python)).map((f) => distribution(f)?.version as string)),
  ];
}

/**
 * `--pins available` before the first build: each exact pin whose version the local sources lack
 * for this Python, while they hold others, becomes the nearest of those. Pins they hold nothing of
 * are left for pip (a remote index may have them; if not, pip says so and the build decides).
 */
export function relaxLocally(
  spec: PythonEnvironmentSpec,
  sources: PipSources,
  python: string,
): { spec: PythonEnvironmentSpec; changes: string[] } {
  if (!/^\d+\.\d+$/.test(python)) return { spec, changes: [] };
  const changes: string[] = [];
  const packages = (spec.packages ?? []).map((group) =>
    group.map((requirement) => {
      const pinned = pinnedVersion(requirement);
      if (pinned === undefined) return requirement;
      const versions = localVersions(requirement, sources, python);
      if (!versions || versions.length === 0 || versions.includes(pinned)) return requirement;
      const nearest = nearestVersion(pinned, versions) as string;
      const used = `${requirement.split(/[=<>!~;[\s]/)[0]}==${nearest}`;
      changes.push(`${requirement} → ${used} (pins relaxed)`);
      return used;
    }),
  );
  return { spec: { ...spec, packages }, changes };
}
