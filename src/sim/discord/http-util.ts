import type { RESTError } from 'discord-api-types/v10';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SimError, type SimState, type SimToken } from './state.ts';

export type Auth = { kind: 'bot' } | { kind: 'bearer'; token: SimToken };

/** Runs a handler and turns a thrown SimError into Discord's `{ message, code }` body. */
export function handle(fn: (req: Request, res: Response) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      fn(req, res);
    } catch (err) {
      if (err instanceof SimError) {
        res.status(err.status).json({ message: err.message, code: err.code } satisfies RESTError);
      } else {
        next(err);
      }
    }
  };
}

export function unauthorized(): SimError {
  return new SimError(401, 0, '401: Unauthorized');
}

export function parseAuth(req: Request, state: SimState, botToken: string): Auth | null {
  const header = req.get('authorization') ?? '';
  const [scheme, value] = header.split(/\s+/, 2);
  if (!scheme || !value) return null;
  if (scheme.toLowerCase() === 'bot')
    return value === botToken && state.botTokenValid ? { kind: 'bot' } : null;
  if (scheme.toLowerCase() === 'bearer') {
    const token = state.tokens.get(value);
    if (!token || token.expiresAt <= Date.now()) return null;
    return { kind: 'bearer', token };
  }
  return null;
}

export function requireBot(req: Request, state: SimState, botToken: string): void {
  if (parseAuth(req, state, botToken)?.kind !== 'bot') throw unauthorized();
}

export function param(req: Request, name: string): string {
  const value: unknown = req.params[name];
  return typeof value === 'string' ? value : '';
}

export function queryString(req: Request, name: string): string | undefined {
  const value: unknown = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

export function bodyField(req: Request, name: string): unknown {
  const body: unknown = req.body;
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

export function bodyString(req: Request, name: string): string | undefined {
  const value = bodyField(req, name);
  return typeof value === 'string' ? value : undefined;
}
