/**
 * An error as one line, with its causes: drizzle wraps a driver's error as `Failed query: …` and keeps
 * the reason (PostgreSQL's "relation does not exist", SQLite's "database is locked") in `cause`, so a
 * message without its causes says what failed but not why. Depth-limited against cause cycles.
 */
export function errorMessage(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    parts.push(
      current instanceof Error
        ? current.message
        : typeof current === 'string'
          ? current
          : JSON.stringify(current),
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' — caused by: ');
}

/** The stack (or message) of `err`, followed by the message of each cause. */
export function errorDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const causes = err.cause === undefined ? '' : `\ncaused by: ${errorMessage(err.cause)}`;
  return (err.stack ?? err.message) + causes;
}
