/** Discord's epoch (2015-01-01T00:00:00Z) in milliseconds. */
export const DISCORD_EPOCH = 1420070400000;

let lastMs = 0;
let counter = 0;

/** A real-looking snowflake built from the current time, unique within this process. */
export function generateSnowflake(now: number = Date.now()): string {
  if (now === lastMs) {
    counter = (counter + 1) & 0xfff;
  } else {
    lastMs = now;
    counter = 0;
  }
  return ((BigInt(now - DISCORD_EPOCH) << 22n) | BigInt(counter)).toString();
}

export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + BigInt(DISCORD_EPOCH));
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{15,20}$/.test(value);
}
