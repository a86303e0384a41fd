// Control API for interactions (not part of Discord): run a slash command or press a button as a
// simulated user and get the bot's answer back, as the user would see it.
import express, { type Router } from 'express';
import { z } from 'zod';
import { handle, param, queryString } from './http-util.ts';
import { SimError, type SimState } from './state.ts';
import { isSettled, type SimInteraction, type SimInteractions } from './interactions.ts';

const runBody = z.object({
  userId: z.string().optional(),
  username: z.string().optional(),
  guildId: z.string().nullable().optional(),
  command: z.string().min(1).max(33),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** How long to wait for a complete answer (ms, default 5000, at most 20000). */
  waitMs: z.number().int().min(0).max(20_000).optional(),
});
const pressBody = z.object({
  userId: z.string().optional(),
  username: z.string().optional(),
  messageId: z.string(),
  customId: z.string().min(1).max(100),
  waitMs: z.number().int().min(0).max(20_000).optional(),
});
const settingsBody = z.object({
  responseDeadlineMs: z.number().int().min(0).max(60_000).optional(),
  tokenLifetimeMs: z.number().int().min(0).optional(),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success)
    throw new SimError(
      400,
      50035,
      `Invalid Form Body: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return result.data;
}

/** What the control API answers after a run or a press: the interaction and the messages it made. */
export interface InteractionOutcome {
  interactionId: string;
  /** Callback types in order (4, 5, 6, 7); empty if the bot never answered. */
  callbacks: number[];
  /** Error codes the simulator answered to callbacks (10062 late, 40060 twice). */
  refused: number[];
  settled: boolean;
  /** The response message (for type 6/7: the updated message) and follow-ups, as Discord JSON. */
  message: Record<string, unknown> | null;
  followups: Record<string, unknown>[];
}

export function describeOutcome(
  interactions: SimInteractions,
  interaction: SimInteraction,
): InteractionOutcome {
  const message = interaction.responseMessageId
    ? interactions.messages.get(interaction.responseMessageId)
    : undefined;
  return {
    interactionId: interaction.id,
    callbacks: interaction.callbacks.map((c) => c.type),
    refused: interaction.refused.map((r) => r.code),
    settled: isSettled(interaction),
    message: message ? interactions.messageJson(message) : null,
    followups: interaction.followups
      .map((id) => interactions.messages.get(id))
      .filter((m) => m !== undefined)
      .map((m) => interactions.messageJson(m)),
  };
}

export function resolveUserId(state: SimState, input: { userId?: string; username?: string }): string {
  if (input.userId) return input.userId;
  const user = input.username ? state.findUserByUsername(input.username) : undefined;
  if (!user) throw new SimError(404, 10013, 'Unknown User');
  return user.id;
}

/** Runs `/command` and waits for the bot's complete answer (a deferral alone is not one). */
export async function runCommandAndWait(
  state: SimState,
  input: {
    userId: string;
    guildId: string | null;
    command: string;
    options?: Record<string, unknown>;
    waitMs?: number;
    /** Without a guild: a private channel (context 2) instead of the bot's DM (context 1). */
    privateChannel?: boolean;
  },
): Promise<InteractionOutcome> {
  const interaction = state.interactions.runCommand({
    userId: input.userId,
    guildId: input.guildId,
    name: input.command,
    options: input.options,
    privateChannel: input.privateChannel,
  });
  await state.interactions.settle(interaction, input.waitMs ?? 5000);
  return describeOutcome(state.interactions, interaction);
}

export async function pressButtonAndWait(
  state: SimState,
  input: { userId: string; messageId: string; customId: string; waitMs?: number },
): Promise<InteractionOutcome> {
  const interaction = state.interactions.pressButton(input);
  await state.interactions.settle(interaction, input.waitMs ?? 5000);
  return describeOutcome(state.interactions, interaction);
}

export function createInteractionsControlRouter(state: SimState): Router {
  const router = express.Router();
  const interactions = state.interactions;

  /** Handlers that await: SimErrors become Discord-shaped bodies, like handle(). */
  const handleAsync =
    (fn: (req: express.Request, res: express.Response) => Promise<void>): express.RequestHandler =>
    (req, res, next) => {
      fn(req, res).catch((err: unknown) => {
        if (err instanceof SimError) res.status(err.status).json({ message: err.message, code: err.code });
        else next(err);
      });
    };

  router.post(
    '/interactions/commands',
    handleAsync(async (req, res) => {
      const input = parse(runBody, req.body);
      const outcome = await runCommandAndWait(state, {
        userId: resolveUserId(state, input),
        guildId: input.guildId ?? null,
        command: input.command,
        options: input.options,
        waitMs: input.waitMs,
      });
      res.json(outcome);
    }),
  );
  router.post(
    '/interactions/buttons',
    handleAsync(async (req, res) => {
      const input = parse(pressBody, req.body);
      res.json(await pressButtonAndWait(state, { ...input, userId: resolveUserId(state, input) }));
    }),
  );
  router.get(
    '/interactions/:interactionId',
    handle((req, res) => {
      const interaction = interactions.interactions.get(param(req, 'interactionId'));
      if (!interaction) throw new SimError(404, 10062, 'Unknown interaction');
      res.json(describeOutcome(interactions, interaction));
    }),
  );
  router.get(
    '/commands',
    handle((req, res) => {
      const guildId = queryString(req, 'guildId');
      res.json({
        global: interactions.listCommands(null),
        guild: guildId ? interactions.listCommands(guildId) : [],
      });
    }),
  );
  router.put(
    '/interactions/settings',
    handle((req, res) => {
      interactions.configure(parse(settingsBody, req.body));
      res.json(interactions.settings);
    }),
  );
  return router;
}
