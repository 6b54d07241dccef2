import type { DetectedEnvironment, ReadRepoFile } from "./detect.js";

/** Test runners a package.json may depend on, for the decisions a person reads. */
const RUNNERS = ["mocha", "jest", "vitest", "ava", "tap", "tape", "uvu", "jasmine"];

/**
 * A Node environment from the repository's files: `npm ci` from its npm lock file (exactly the
 * versions it names, and an error when the lock does not match package.json); `npm install` from
 * package.json when there is no npm lock (the versions are then today's, which each decision says).
 */
export async function detectNodeEnvironment(
  read: ReadRepoFile,
  options: { node?: string } = {},
): Promise<DetectedEnvironment> {
  const node = options.node ?? "node";
  const text = await read("package.json");
  if (text === undefined)
    throw new Error(
      "no package.json at the repository root: there is nothing for npm to install — give --install LINE, or an --env spec file",
    );
  let pkg: { devDependencies?: Record<string, string>; dependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as typeof pkg;
  } catch (err) {
    throw new Error(`package.json is not JSON (${(err as Error).message}); fix it or give --install LINE`);
  }
  const decisions: string[] = [`node: ${node}`];
  const lock =
    (await read("npm-shrinkwrap.json")) !== undefined
      ? "npm-shrinkwrap.json"
      : (await read("package-lock.json")) !== undefined
        ? "package-lock.json"
        : undefined;
  let install: string;
  if (lock) {
    install = "npm ci";
    decisions.push(`${lock}: npm ci installs exactly the versions it locks`);
  } else {
    const other =
      (await read("yarn.lock")) !== undefined
        ? "yarn.lock"
        : (await read("pnpm-lock.yaml")) !== undefined
          ? "pnpm-lock.yaml"
          : undefined;
    install = "npm install --no-package-lock";
    decisions.push(
      other
        ? `${other} but no npm lock file: npm install from package.json — versions resolved today, not the ones ${other} locks`
        : "no lock file: npm install from package.json — versions resolved today, so a later build may differ",
    );
  }
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const runners = RUNNERS.filter((r) => deps[r] !== undefined);
  if (runners.length > 0) decisions.push(`test runner dependencies: ${runners.join(", ")}`);
  return { spec: { node, install: [install] }, decisions };
}
