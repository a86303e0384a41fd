import type { Request, RequestHandler } from 'express';
import { AppError } from '../shared/errors.ts';

/** First line of every protected handler: the signed-in user's id, or a 401. */
export function requireUser(req: Request): string {
  const id = req.user?.id;
  if (!id) throw new AppError('unauthorized', 'Not signed in');
  return id;
}

/**
 * Refuses cross-site state-changing requests (a second line behind SameSite=Lax cookies).
 * Browsers send Sec-Fetch-Site and Origin; requests without either (scripts, webhooks) are let through.
 */
export function sameOriginOnly(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const sameHost = origin !== undefined && origin === `${req.protocol}://${req.get('host') ?? ''}`;
    if (
      site === 'cross-site' ||
      (origin !== undefined && origin !== 'null' && !allowed.has(origin) && !sameHost)
    ) {
      res.status(403).json({ message: 'Cross-site request refused' });
      return;
    }
    if (origin === 'null') {
      res.status(403).json({ message: 'Cross-site request refused' });
      return;
    }
    next();
  };
}

/** Parses input with a zod schema and turns the first problem into a 400 `{ message }`. */
export function parseInput<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new AppError('bad_request', issue?.message ?? 'Invalid input');
}
