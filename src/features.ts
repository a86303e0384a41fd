import type { Router } from 'express';
import type { AppContext } from './context.ts';
import { rewardRoutes } from './rewards/routes.ts';
import { socialRoutes } from './social/routes.ts';
import { joinRoutes } from './joins/routes.ts';
import { campaignRoutes } from './campaigns/routes.ts';
import { paymentRoutes, stripeWebhookRoutes } from './payments/routes.ts';
import { accountRoutes } from './account/routes.ts';
import { liveEventRoutes } from './events/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { accessTokenRoutes } from './access-tokens/routes.ts';
import { reminderRoutes } from './reminders/routes.ts';

// Each feature contributes its routers here; they are mounted under /api (one line per feature).
export function featureRoutes(ctx: AppContext): Router[] {
  const routers: Router[] = [];
  routers.push(joinRoutes(ctx));
  routers.push(campaignRoutes(ctx));
  routers.push(notificationRoutes(ctx));
  routers.push(rewardRoutes(ctx), socialRoutes(ctx));
  routers.push(paymentRoutes(ctx));
  routers.push(accountRoutes(ctx), accessTokenRoutes(ctx));
  routers.push(reminderRoutes(ctx));
  routers.push(
    liveEventRoutes(ctx, {
      heartbeatMs: ctx.options.liveHeartbeatMs,
      heartbeatSlice: ctx.options.liveHeartbeatSlice,
    }),
  );
  return routers;
}

/** Routers that need the raw request body (mounted before the JSON parser). */
export function rawBodyRoutes(ctx: AppContext): Router[] {
  const routers: Router[] = [];
  routers.push(stripeWebhookRoutes(ctx));
  return routers;
}
