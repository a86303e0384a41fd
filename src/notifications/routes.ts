import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { notificationSettingsSchema } from '../shared/notification-schemas.ts';
import {
  getNotificationSettings,
  listDeliveries,
  sendTestNotification,
  updateNotificationSettings,
} from './settings.ts';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Owner notifications of a campaign (decision 052): settings, "Send test", the delivery log. */
export function notificationRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/campaigns/:id/notifications', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    res.json(await getNotificationSettings(ctx, userId, id));
  });

  router.put('/campaigns/:id/notifications', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const input = parseInput(notificationSettingsSchema, req.body);
    res.json(await updateNotificationSettings(ctx, userId, id, input));
  });

  router.post('/campaigns/:id/notifications/test', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    res.status(202).json(await sendTestNotification(ctx, userId, id));
  });

  router.get('/campaigns/:id/notifications/deliveries', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    res.json(await listDeliveries(ctx, userId, id));
  });

  return router;
}
