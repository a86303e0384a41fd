import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { LOCALE_COOKIE, localeCookieOptions } from '../auth/login-locale.ts';
import { signOutEverywhere } from '../auth/sign-out-everywhere.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { accountLocaleSchema, deleteAccountSchema } from '../shared/history-schemas.ts';
import { setUserLocale, toApiUser } from '../users/users.ts';
import { anonymiseAccount, exportAccountData } from './account-data.ts';

export function accountRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/account/export', async (req, res) => {
    const userId = requireUser(req);
    const data = await exportAccountData(ctx, userId);
    const day = data.exportedAt.slice(0, 10);
    res.setHeader('Content-Disposition', `attachment; filename="coinsync-data-${day}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/json').send(JSON.stringify(data, null, 2));
  });

  // The language switcher (decision 050): kept across sign-ins, unlike the Discord locale.
  router.put('/account/locale', async (req, res) => {
    const userId = requireUser(req);
    const { locale } = parseInput(accountLocaleSchema, req.body);
    const user = await setUserLocale(ctx.store, userId, locale);
    // Remembered for the pages shown signed out (decision 061).
    res.cookie(LOCALE_COOKIE, locale, localeCookieOptions(ctx.config.production));
    res.json(toApiUser(user, ctx.config.discord.cdnUrl));
  });

  router.delete('/account', async (req, res, next) => {
    const userId = requireUser(req);
    const { confirmUsername } = parseInput(deleteAccountSchema, req.body);
    await anonymiseAccount(ctx, userId, confirmUsername);
    await signOutEverywhere(ctx, userId);
    req.session.destroy((err) => {
      if (err) return next(err);
      ctx.sessions.clearCookie(res);
      res.json({ ok: true });
    });
  });

  return router;
}
