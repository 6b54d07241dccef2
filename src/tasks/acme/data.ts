import { createHash } from "node:crypto";

/** One of Acme's orders as `get_order` returns it. Days count from the start of the contract. */
export interface AcmeOrder {
  id: string;
  customer: string;
  value: number;
  promised_day: number;
  delivered_day: number;
  shipping_log: string[];
}

export const CUSTOMER = "Acme";
export const PAGE_SIZE = 3;

/** The seven orders: A2 (3 days on $800), A4 (6 on $2,000), A6 (3 on $1,500), A7 (15 on $900) are late. */
const ORDERS: Array<[id: string, value: number, promised: number, delivered: number]> = [
  ["A1", 1200, 12, 12],
  ["A2", 800, 20, 23],
  ["A3", 450, 31, 30],
  ["A4", 2000, 44, 50],
  ["A5", 3000, 58, 58],
  ["A6", 1500, 63, 66],
  ["A7", 900, 75, 90],
];

const HUBS = ["Dallas", "Memphis", "Louisville", "Columbus", "Allentown"];

/**
 * A long, realistic shipping log: the part of each record a JSON agent must carry in its context and a
 * code agent never prints. Deterministic, so token counts are stable from run to run.
 */
function shippingLog(id: string, promised: number, delivered: number): string[] {
  const n = Number(id.slice(1));
  const tracking = `RWF${(4471002391 + n * 7919).toString()}`;
  const hubs = HUBS.slice(0, 3 + (n % 3));
  const start = promised - hubs.length - 2;
  const log = [
    `day ${start} 06:${10 + n} label created at DAL-3, carrier Ridgeway Freight, tracking ${tracking}`,
    `day ${start} 09:4${n} picked and packed, ${n + 1} cartons, ${(12.5 * (n + 1)).toFixed(1)} kg, seal ${8800 + n * 13}`,
    `day ${start} 17:05 loaded on trailer ${5500 + n * 31} at dock ${(n % 6) + 1}, temperature log attached`,
  ];
  let day = start + 1;
  for (const hub of hubs) {
    log.push(`day ${day} 03:2${n} arrived ${hub} sort centre, scanned by handheld ${200 + n * 3}`);
    log.push(
      `day ${day} 11:0${n} departed ${hub} sort centre on linehaul ${hub.slice(0, 3).toUpperCase()}-${40 + n}`,
    );
    day += 1;
  }
  if (delivered > promised)
    log.push(`day ${promised} 08:30 exception: consignee dock closed, delivery rescheduled by dispatcher`);
  log.push(`day ${delivered - 1} 19:45 out for delivery from the Allentown depot, driver route ${70 + n}`);
  log.push(
    `day ${delivered} 14:1${n} delivered, signed by receiving clerk, proof of delivery POD-${tracking.slice(3)}`,
  );
  return log;
}

export const ACME_ORDERS: readonly AcmeOrder[] = ORDERS.map(([id, value, promised, delivered]) => ({
  id,
  customer: CUSTOMER,
  value,
  promised_day: promised,
  delivered_day: delivered,
  shipping_log: shippingLog(id, promised, delivered),
}));

/** An opaque cursor for page k (1-based): the agent cannot guess it, it must read it from page k-1. */
export function cursorFor(page: number): string {
  return createHash("sha256").update(`acme-orders:${page}`).digest("base64url").slice(0, 12);
}

/** The contract: 1% of the value per day late, capped at 10%; computed in cents. */
export function lateFee(value: number, daysLate: number): number {
  const percent = Math.min(Math.max(daysLate, 0), 10);
  return Math.round(value * percent) / 100;
}

/** The answer the grader wants to see: $279.00 (A2 $24 + A4 $120 + A6 $45 + A7 $90). */
export const EXPECTED_TOTAL = ACME_ORDERS.reduce(
  (sum, o) => sum + lateFee(o.value, o.delivered_day - o.promised_day),
  0,
);

export function dollars(amount: number): string {
  return `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
