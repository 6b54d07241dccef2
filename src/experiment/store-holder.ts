/**
 * Who holds an experiment database: one `experiment run` at a time, or two would run the same
 * attempts. The holder's owner token (src/owners) is in `meta`; a holder whose process is dead is
 * taken over, a live one refuses, and one this process cannot check (another container's) is taken
 * over only once its heartbeat is stale.
 */
import type Database from "better-sqlite3";
import type { OwnerState } from "../owners/index.js";
import { StoreRefused } from "./store-errors.js";

/** A holder beats every HEARTBEAT_MS; twenty missed beats is not a slow machine but a gone holder. */
export const HEARTBEAT_MS = 30_000;
export const STALE_MS = 20 * HEARTBEAT_MS;

interface Holder {
  token: string;
  heartbeat: string | undefined;
}

function holder(db: Database.Database): Holder | undefined {
  const get = db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?");
  const token = get.get("holder")?.value;
  return token === undefined ? undefined : { token, heartbeat: get.get("heartbeat_at")?.value };
}

/**
 * Claims the database for `token`, or throws StoreRefused naming the holder. Returns a sentence when
 * it took the database over from another holder. The check is compare-and-swap: between reading the
 * holder and writing ours, another run may have claimed it; then we look again.
 */
export async function claimDatabase(
  db: Database.Database,
  file: string,
  token: string,
  stateOf: (token: string) => Promise<OwnerState>,
  now: () => number = Date.now,
): Promise<string | undefined> {
  for (;;) {
    const seen = holder(db);
    let tookOver: string | undefined;
    if (seen && seen.token !== token) {
      const state = await stateOf(seen.token);
      const age = seen.heartbeat ? now() - Date.parse(seen.heartbeat) : Number.POSITIVE_INFINITY;
      if (state === "alive")
        throw new StoreRefused(
          `${file} is held by another "acilab experiment run" (owner ${seen.token}, alive) — wait for it to finish or stop it (Ctrl-C); two runs on one database would run attempts twice. Nothing was changed.`,
        );
      if (state === "unknown" && age < STALE_MS)
        throw new StoreRefused(
          `${file} is held by "acilab experiment run" owner ${seen.token}, which this process cannot check (another container or user?) and which wrote ${Math.round(age / 1000)} s ago — stop it there, or try again once it has been silent for ${STALE_MS / 60_000} minutes. Nothing was changed.`,
        );
      tookOver =
        state === "dead"
          ? `took over ${file} from a run that is gone (owner ${seen.token}, dead)`
          : `took over ${file} from owner ${seen.token}: it cannot be checked from here and has been silent for ${Math.round(age / 60_000)} minutes`;
    }
    const swapped = db
      .transaction(() => {
        if (holder(db)?.token !== seen?.token) return false;
        const put = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
        put.run("holder", token);
        put.run("heartbeat_at", new Date(now()).toISOString());
        return true;
      })
      .immediate();
    if (swapped) return tookOver;
  }
}

/** Lets go, if this token still holds it (a run that was taken over has nothing to release). */
export function releaseDatabase(db: Database.Database, token: string): void {
  db.transaction(() => {
    if (holder(db)?.token !== token) return;
    db.prepare("DELETE FROM meta WHERE key IN ('holder', 'heartbeat_at')").run();
  }).immediate();
}
