import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { campaigns } from '../db/schema.ts';
import type { DbHandle, WriteTarget } from '../db/engine.ts';
import { inTransaction, readHandle } from '../db/engine.ts';
import { DAY } from '../clock.ts';
import { saveOAuthTokens } from '../auth/oauth-tokens.ts';
import { credit } from '../ledger/index.ts';
import { upsertUserFromDiscord } from '../users/users.ts';
import { submitNoBotCampaign, submitCampaign } from '../campaigns/submit-campaign.ts';
import { promoteCampaign } from '../campaigns/promote-campaign.ts';
import { socialRepo } from '../social/social-repo.ts';
import { assertNever } from '../shared/campaign-kinds.ts';
import { DEMO_USERS } from '../sim/discord/demo-data.ts';
import type { DiscordSimulator } from '../sim/discord/index.ts';
import {
  DEMO_CAMPAIGNS,
  DEMO_COINS_CENTS,
  DEMO_SOCIAL_TASKS,
  RETRO_GUILD,
  type DemoCampaign,
} from './demo-world.ts';

// The one place demo data is made. Everything goes through the product's own services — sign-in's
// user upsert and token store, campaign submit and promote (which resolve the invite, check the
// owner's guild list and the bot through Discord REST, here the simulator), the ledger, the social
// task store — so demo rows, balances and transaction texts are exactly what real use produces.
// Idempotent: runs on every start in demo mode and only creates what is missing.

/** Seeds the simulator's world, then our campaigns and social tasks on top of it. */
export async function seedDemo(ctx: AppContext, simulator: DiscordSimulator): Promise<void> {
  simulator.state.seedDemo();
  ensureRetroGuild(simulator);
  for (const campaign of DEMO_CAMPAIGNS) await ensureCampaign(ctx, simulator, campaign);
  await seedSocialTasks(ctx);
}

function ensureRetroGuild(simulator: DiscordSimulator): void {
  const state = simulator.state;
  if (state.guilds.has(RETRO_GUILD.id)) return;
  state.createGuild({
    id: RETRO_GUILD.id,
    channelId: RETRO_GUILD.channelId,
    name: RETRO_GUILD.name,
    ownerId: RETRO_GUILD.ownerId,
    botMember: false,
  });
  for (const username of RETRO_GUILD.memberUsernames) {
    const user = state.findUserByUsername(username);
    if (user) state.addMember(RETRO_GUILD.id, user.id);
  }
  state.createInvite(RETRO_GUILD.id, { code: RETRO_GUILD.inviteCode, maxAge: 0 });
}

/**
 * The demo owner signs in as sign-in would leave them: a user row (welcome bonus) and a Discord token
 * (minted in the simulator, stored encrypted) that the submit checks use for "owns this guild".
 * Plus demo coins through the ledger, keyed so a restart never pays twice.
 */
async function signInOwner(ctx: AppContext, simulator: DiscordSimulator, discordId: string): Promise<string> {
  const demoUser = DEMO_USERS.find((u) => u.id === discordId);
  if (!demoUser) throw new Error(`unknown demo user ${discordId}`);
  const now = ctx.clock.now();
  const { user } = await upsertUserFromDiscord(
    ctx.store,
    { id: discordId, username: demoUser.username, avatar: null },
    now,
    ctx.config.discordIdHashKey,
  );
  const accessToken = randomBytes(20).toString('base64url');
  const refreshToken = randomBytes(20).toString('base64url');
  const scope = 'identify guilds';
  simulator.state.tokens.set(accessToken, {
    userId: discordId,
    scope,
    expiresAt: Date.now() + 7 * DAY,
    refreshToken,
  });
  simulator.state.changed();
  await saveOAuthTokens(
    ctx.store,
    ctx.config.tokenEncryptionKey,
    user.id,
    { accessToken, refreshToken, expiresIn: 7 * 24 * 3600, scope },
    now,
  );
  await credit(ctx.store, {
    userId: user.id,
    cents: DEMO_COINS_CENTS,
    type: 'purchase',
    description: 'Demo coins',
    idempotencyKey: `demo-coins:${discordId}`,
    now,
  });
  return user.id;
}

async function ensureCampaign(
  ctx: AppContext,
  simulator: DiscordSimulator,
  campaign: DemoCampaign,
): Promise<void> {
  const { guild } = campaign;
  // Members open the simulator's invite page (a real submit stores https://discord.gg/CODE).
  const simulatorLink = `${ctx.config.discord.baseUrl}/invite/${guild.inviteCode}`;
  const existing = await findDemoCampaign(readHandle(ctx.store), guild.inviteCode, campaign.kind);
  if (existing) {
    // The port may have changed since the last start.
    if (existing.inviteLink !== simulatorLink) await setInviteLink(ctx.store, existing.id, simulatorLink);
    return;
  }
  const ownerId = await signInOwner(ctx, simulator, guild.ownerId);
  const inviteLink = `https://discord.gg/${guild.inviteCode}`;
  let id: string;
  switch (campaign.kind) {
    case 'regular':
      id = (
        await submitCampaign(ctx, ownerId, {
          name: guild.name,
          inviteLink,
          coinReward: String(campaign.slots),
        })
      ).id;
      break;
    case 'featured': {
      const intent = await submitCampaign(ctx, ownerId, {
        name: guild.name,
        inviteLink,
        isFeaturedIntent: true,
      });
      id = (await promoteCampaign(ctx, ownerId, intent.id)).id;
      break;
    }
    case 'nobot':
      id = (
        await submitNoBotCampaign(ctx, ownerId, {
          name: guild.name,
          inviteLink,
          memberCount: String(campaign.slots),
        })
      ).id;
      break;
    default:
      return assertNever(campaign.kind);
  }
  await setInviteLink(ctx.store, id, simulatorLink);
}

// The two demo-only statements on campaign rows (the campaigns repository has no use for them): the
// seeded campaign of an invite code, and pointing its invite at the simulator.

async function findDemoCampaign(
  h: DbHandle,
  inviteCode: string,
  kind: DemoCampaign['kind'],
): Promise<{ id: string; inviteLink: string } | undefined> {
  return h.q
    .select({ id: campaigns.id, inviteLink: campaigns.inviteLink })
    .from(campaigns)
    .where(and(eq(campaigns.inviteCode, inviteCode), eq(campaigns.kind, kind)))
    .get();
}

function setInviteLink(target: WriteTarget, id: string, inviteLink: string): Promise<void> {
  return inTransaction(target, async (tx) => {
    await tx.q.update(campaigns).set({ inviteLink }).where(eq(campaigns.id, id)).run();
  });
}

/** One task per platform, only into an empty table, so tasks an operator removed stay removed. */
async function seedSocialTasks(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.transaction(async (tx) => {
    const repo = socialRepo(tx);
    if ((await repo.listTasks()).length > 0) return;
    // 1 ms apart keeps the listing order stable (YouTube first).
    for (const [index, task] of DEMO_SOCIAL_TASKS.entries()) await repo.insertTask(task, now + index);
  });
}
