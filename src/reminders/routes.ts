import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { updateRemindersSchema } from '../shared/reminder-schemas.ts';
import { getReminderSettings, updateReminderSettings } from './reminder-settings.ts';

/** The Account page's reminder settings (decision 055). */
export function reminderRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/account/reminders', async (req, res) => {
    const userId = requireUser(req);
    res.json(await getReminderSettings(ctx.store, userId));
  });

  router.put('/account/reminders', async (req, res) => {
    const userId = requireUser(req);
    const input = parseInput(updateRemindersSchema, req.body);
    res.json(await updateReminderSettings(ctx.store, userId, input, ctx.clock.now()));
  });

  return router;
}
