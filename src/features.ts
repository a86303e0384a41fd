import type { Router } from 'express';
import type { AppContext } from './context.ts';

// Each feature contributes its routers here; they are mounted under /api (one line per feature).
export function featureRoutes(ctx: AppContext): Router[] {
  const routers: Router[] = [];
  void ctx;
  return routers;
}

/** Routers that need the raw request body (mounted before the JSON parser). */
export function rawBodyRoutes(ctx: AppContext): Router[] {
  const routers: Router[] = [];
  void ctx;
  return routers;
}
