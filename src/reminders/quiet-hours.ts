// Quiet hours in the member's own time zone (decision 055): a reminder due inside them waits for their
// end. Times are minutes after local midnight; a window may wrap midnight (22:00–08:00).

/** Minutes after local midnight in `timeZone` at instant `at`. */
export function localMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

export function inQuietHours(minutes: number, start: number, end: number): boolean {
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/**
 * When the quiet hours around `at` end (the first whole minute at `end` local time), or null when `at`
 * is outside them. Stepping through local minutes keeps daylight-saving changes right.
 */
export function quietHoursEnd(at: number, timeZone: string, start: number, end: number): number | null {
  const now = localMinutes(at, timeZone);
  if (!inQuietHours(now, start, end)) return null;
  const minuteStart = at - (at % 60_000);
  let wait = (end - now + 24 * 60) % (24 * 60);
  let candidate = minuteStart + wait * 60_000;
  // A DST jump can move local time by up to an hour: adjust until the local clock reads `end`.
  for (let i = 0; i < 3 && localMinutes(candidate, timeZone) !== end; i++) {
    const off = ((localMinutes(candidate, timeZone) - end + 12 * 60 + 24 * 60) % (24 * 60)) - 12 * 60;
    wait -= off;
    candidate = minuteStart + wait * 60_000;
  }
  return candidate;
}
