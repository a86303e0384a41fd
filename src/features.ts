import type { Router } from 'express';
import type { AppContext } from './context.ts';

// Each feature contributes its routers here; they are mounted under /api.
export function featureRoutes(_ctx: AppContext): Router[] {
  return [];
}

/** Routers that need the raw request body (mounted before the JSON parser). */
export function rawBodyRoutes(_ctx: AppContext): Router[] {
  return [];
}
