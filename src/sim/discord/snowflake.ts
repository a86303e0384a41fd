/** Discord's epoch (2015-01-01T00:00:00Z) in milliseconds. */
export const DISCORD_EPOCH = 1420070400000;

let counter = 0;

/**
 * A real-looking snowflake built from a time (now by default), unique within this process: the
 * increment never resets, so ids made for earlier times (aged accounts) cannot collide with others.
 */
export function generateSnowflake(now: number = Date.now()): string {
  counter = (counter + 1) & 0xfff;
  return ((BigInt(now - DISCORD_EPOCH) << 22n) | BigInt(counter)).toString();
}

export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + BigInt(DISCORD_EPOCH));
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{15,20}$/.test(value);
}
