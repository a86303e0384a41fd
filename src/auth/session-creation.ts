import type { SessionData } from 'express-session';

// "Saving never re-creates a session" (issue 27, decision 039). express-session saves a session with
// the store's `set`, which every store implements as create-or-replace: a request that still holds a
// session object after that session was ended elsewhere (a live-event stream, a slow request across a
// sign-out everywhere) would write it back. The stores therefore only UPDATE an existing signed-in
// session, and create one only for the request that is signing in (marked below before req.logIn).
// A session without a user (the OAuth2 state of a sign-in under way) carries no authority and may be
// created by any request.

const signingIn = new WeakSet<object>();

/** Marks `req` as the sign-in whose session the store may create (call before req.logIn). */
export function allowSessionCreation(req: object): void {
  signingIn.add(req);
}

/**
 * Whether a store may create this session if its row/key does not exist. express-session hands the
 * store the request's own Session object, which carries its request (a non-enumerable `req`).
 */
export function mayCreateSession(sess: SessionData): boolean {
  const user = (sess as { passport?: { user?: unknown } }).passport?.user;
  if (user === undefined || user === null) return true;
  const req = (sess as { req?: unknown }).req;
  return typeof req === 'object' && req !== null && signingIn.has(req);
}
