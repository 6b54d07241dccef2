/** A database this run must not use, and why: the message names the file and what to do. */
export class StoreRefused extends Error {
  override name = "StoreRefused";
}
