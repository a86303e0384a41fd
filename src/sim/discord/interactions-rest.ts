// REST side of interactions (see interactions.ts): command registration with the bot token, and the
// token-authenticated interaction callback and webhook routes. Mounted under /api/v10 (and /api/v9,
// /api) before the bot's rate limiter: Discord does not count interaction responses against the bot's
// global limit (they carry no Authorization header; discord.js sends them with `auth: false`).
import express, { type Request, type Router } from 'express';
import { handle, param, requireBot } from './http-util.ts';
import { SimError, type SimState } from './state.ts';

export function createInteractionsRouter(cfg: {
  state: SimState;
  botToken: string;
  log: (msg: string) => void;
}): Router {
  const { state } = cfg;
  const interactions = state.interactions;
  const router = express.Router();
  // @discordjs/rest percent-encodes '@original'; Discord decodes it.
  router.use((req, _res, next) => {
    if (req.url.includes('%40')) req.url = req.url.replace(/%40original(?=\/|\?|$)/gi, '@original');
    next();
  });

  const application = (req: Request): void => {
    requireBot(req, state, cfg.botToken);
    if (param(req, 'applicationId') !== state.botId) throw new SimError(403, 50001, 'Missing Access');
  };
  const guildFor = (req: Request): string => {
    const guild = state.guilds.get(param(req, 'guildId'));
    // The bot (with the applications.commands scope) must be in the guild.
    if (!guild?.botJoinedAt) throw new SimError(403, 50001, 'Missing Access');
    return guild.id;
  };

  router.get(
    '/applications/:applicationId/commands',
    handle((req, res) => {
      application(req);
      res.json(interactions.listCommands(null));
    }),
  );
  router.put(
    '/applications/:applicationId/commands',
    handle((req, res) => {
      application(req);
      const commands = interactions.overwriteCommands(null, req.body);
      cfg.log(`commands: ${commands.length} global command(s) registered`);
      res.json(commands);
    }),
  );
  router.get(
    '/applications/:applicationId/guilds/:guildId/commands',
    handle((req, res) => {
      application(req);
      res.json(interactions.listCommands(guildFor(req)));
    }),
  );
  router.put(
    '/applications/:applicationId/guilds/:guildId/commands',
    handle((req, res) => {
      application(req);
      res.json(interactions.overwriteCommands(guildFor(req), req.body));
    }),
  );

  router.post(
    '/interactions/:interactionId/:token/callback',
    handle((req, res) => {
      const response = interactions.callback(param(req, 'interactionId'), param(req, 'token'), req.body);
      // 204 unless ?with_response=true (then 200 with the interaction callback response object).
      if (req.query.with_response === 'true') res.json(response);
      else res.status(204).end();
    }),
  );

  router.post(
    '/webhooks/:applicationId/:token',
    handle((req, res) => {
      const id = param(req, 'applicationId');
      if (id !== state.botId) {
        // A channel webhook (Execute Webhook): 204, or the message with ?wait=true.
        const message = state.channelWebhooks.execute(id, param(req, 'token'), req.body);
        if (req.query.wait === 'true') res.json(message);
        else res.status(204).end();
        return;
      }
      res.json(interactions.followUp(id, param(req, 'token'), req.body));
    }),
  );
  router.get(
    '/webhooks/:applicationId/:token/messages/:messageId',
    handle((req, res) => {
      res.json(
        interactions.getWebhookMessage(
          param(req, 'applicationId'),
          param(req, 'token'),
          param(req, 'messageId'),
        ),
      );
    }),
  );
  router.patch(
    '/webhooks/:applicationId/:token/messages/:messageId',
    handle((req, res) => {
      res.json(
        interactions.editWebhookMessage(
          param(req, 'applicationId'),
          param(req, 'token'),
          param(req, 'messageId'),
          req.body,
        ),
      );
    }),
  );
  router.delete(
    '/webhooks/:applicationId/:token/messages/:messageId',
    handle((req, res) => {
      interactions.deleteWebhookMessage(
        param(req, 'applicationId'),
        param(req, 'token'),
        param(req, 'messageId'),
      );
      res.status(204).end();
    }),
  );
  return router;
}
