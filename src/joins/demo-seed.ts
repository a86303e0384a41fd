import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { DiscordSimulator } from '../sim/discord/index.ts';
import { DEMO_GUILDS, DEMO_USERS } from '../sim/discord/demo-data.ts';
import { servers, users } from '../db/schema.ts';
import { credit, debit, type TransactionType } from '../ledger/ledger.ts';
import { upsertUserFromDiscord } from '../users/users.ts';
import { HOUR } from '../clock.ts';

// Demo campaigns for Discover, pointing at the simulator's demo guilds. Ids are fixed so restarts
// find the rows again instead of duplicating them; every coin movement goes through the ledger.

import { CAMPAIGN_KIND_RULES, type CampaignKind as Kind } from '../shared/campaign-kinds.ts';

interface DemoCampaign {
  id: string;
  guildId: string;
  kind: Kind;
  slots: number;
}

const [pixel, lofi, code, anime, indie, chill] = DEMO_GUILDS;
const riley = DEMO_USERS[3];

/** A guild without our bot, added to the simulator's world for the second no-bot campaign. */
export const RETRO_GUILD = {
  id: '200000000000000101',
  channelId: '300000000000000101',
  name: 'Retro Arcade Club',
  ownerId: riley.id,
  inviteCode: 'retro-arcade',
  memberUsernames: ['casey'],
} as const;

export const DEMO_CAMPAIGNS: readonly DemoCampaign[] = [
  { id: 'de300000-0000-4000-8000-000000000001', guildId: pixel.id, kind: 'featured', slots: 100 },
  { id: 'de300000-0000-4000-8000-000000000002', guildId: lofi.id, kind: 'featured', slots: 100 },
  { id: 'de300000-0000-4000-8000-000000000003', guildId: code.id, kind: 'regular', slots: 25 },
  { id: 'de300000-0000-4000-8000-000000000004', guildId: anime.id, kind: 'regular', slots: 40 },
  { id: 'de300000-0000-4000-8000-000000000005', guildId: chill.id, kind: 'regular', slots: 15 },
  { id: 'de300000-0000-4000-8000-000000000006', guildId: indie.id, kind: 'nobot', slots: 20 },
  { id: 'de300000-0000-4000-8000-000000000007', guildId: RETRO_GUILD.id, kind: 'nobot', slots: 12 },
];

const DEMO_COINS_CENTS = 50_000;
const FEATURED_COST_CENTS = 10_000;

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

/** Our user for a simulator demo user, created like a first sign-in (welcome bonus) plus demo coins. */
function ensureOwner(ctx: AppContext, discordId: string, now: number): string {
  const existing = ctx.db.select({ id: users.id }).from(users).where(eq(users.discordId, discordId)).get();
  let userId = existing?.id;
  if (!userId) {
    const demoUser = DEMO_USERS.find((u) => u.id === discordId);
    if (!demoUser) throw new Error(`unknown demo user ${discordId}`);
    userId = upsertUserFromDiscord(ctx.db, { id: discordId, username: demoUser.username, avatar: null }, now)
      .user.id;
  }
  // Keyed, so a restart never pays twice (and a crash between the two steps is repaired).
  credit(ctx.sqlite, {
    userId,
    cents: DEMO_COINS_CENTS,
    type: 'purchase',
    description: 'Demo coins',
    idempotencyKey: `demo-coins:${discordId}`,
    now,
  });
  return userId;
}

function describeCampaign(
  kind: Kind,
  name: string,
  slots: number,
): { type: TransactionType; text: string; cents: number } {
  if (kind === 'featured')
    return { type: 'promote', text: `Promoted: ${name} (${slots} members)`, cents: FEATURED_COST_CENTS };
  if (kind === 'nobot')
    return { type: 'campaign', text: `No-bot campaign: ${name} (${slots} members)`, cents: slots * 100 };
  return { type: 'campaign', text: `Campaign: ${name} (${slots} members)`, cents: slots * 100 };
}

/** Idempotent: creates what is missing and refreshes demo invite links (the port may have changed). */
export function seedDiscoverDemo(ctx: AppContext, simulator: DiscordSimulator): void {
  ensureRetroGuild(simulator);
  const now = ctx.clock.now();
  const guilds = [...DEMO_GUILDS, RETRO_GUILD];

  DEMO_CAMPAIGNS.forEach((campaign, index) => {
    const guild = guilds.find((g) => g.id === campaign.guildId);
    if (!guild) throw new Error(`unknown demo guild ${campaign.guildId}`);
    const inviteLink = `${ctx.config.discord.baseUrl}/invite/${guild.inviteCode}`;
    const existing = ctx.db
      .select({ inviteLink: servers.inviteLink })
      .from(servers)
      .where(eq(servers.id, campaign.id))
      .get();
    if (existing) {
      if (existing.inviteLink !== inviteLink) {
        ctx.db.update(servers).set({ inviteLink }).where(eq(servers.id, campaign.id)).run();
      }
      return;
    }
    const ownerId = ensureOwner(ctx, guild.ownerId, now);
    const createdAt = now - (index + 1) * HOUR;
    const cost = describeCampaign(campaign.kind, guild.name, campaign.slots);
    ctx.db.transaction((tx) => {
      debit(ctx.sqlite, {
        userId: ownerId,
        cents: cost.cents,
        type: cost.type,
        description: cost.text,
        idempotencyKey: `demo-campaign:${campaign.id}`,
        now: createdAt,
      });
      tx.insert(servers)
        .values({
          id: campaign.id,
          ownerId,
          name: guild.name,
          inviteLink,
          inviteCode: guild.inviteCode,
          kind: campaign.kind,
          serverId: campaign.kind === 'nobot' ? null : guild.id,
          coinReward: CAMPAIGN_KIND_RULES[campaign.kind].rewardCents,
          membersRemaining: campaign.slots,
          initialMemberSlots: campaign.slots,
          isFeatured: campaign.kind === 'featured',
          featuredRemaining: campaign.kind === 'featured' ? campaign.slots : 0,
          inviteGuildId: guild.id,
          featuredAt: campaign.kind === 'featured' ? createdAt : null,
          createdAt,
        })
        .run();
    });
  });
}
