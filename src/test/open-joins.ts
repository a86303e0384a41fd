import { campaignJoins, users, type Campaign } from '../db/schema.ts';
import { campaignJoins as pgCampaignJoins, users as pgUsers } from '../db/schema.pg.ts';
import type { TxHandle } from '../db/engine.ts';
import type { SimGuild, SimUser } from '../sim/discord/index.ts';
import { generateSnowflake } from '../sim/discord/snowflake.ts';
import { DAY } from '../clock.ts';
import { insertCampaign } from './factories.ts';
import type { TestApp } from './harness.ts';

// Many open website joins at once, for reconciliation tests and the Discord benches: guilds (bot
// inside) with a campaign each, accounts that clicked Join on it, and — when asked — those accounts
// already in the guild on Discord's side, without any gateway event (as after an outage). Rows are
// written straight to the database through the store, on either engine (accounts with no coins,
// pending joins): what is measured is what reconciliation does with them.

export interface OpenJoinsPlan {
  /** Unique per call (usernames are made from it). */
  prefix: string;
  guilds: number;
  joinsPerGuild: number;
  /** Members of each guild besides the joiners (the guild's size for member-list paging). */
  otherMembers?: number;
  /** Slots of each campaign (default joinsPerGuild: the last join completes it and sends the owner's DM). */
  slots?: number;
  /** Whether the joiners are in the guild on Discord (default true): reconciliation should pay them. */
  arrived?: boolean;
}

export interface SeededGuild {
  guild: SimGuild;
  campaign: Campaign;
  /** Our user ids of the joiners, and their Discord ids (same order). */
  userIds: string[];
  discordIds: string[];
}

const CHUNK = 500;

/**
 * A simulator user, put straight into its map: createUser looks names up one by one, which is
 * quadratic for the tens of thousands of accounts a bench makes. Usernames must be unique per call.
 */
export function addSimUser(app: TestApp, username: string): SimUser {
  const users = app.sim.state.users;
  let id = generateSnowflake(Date.now() - 30 * DAY);
  while (users.has(id)) id = generateSnowflake(Date.now() - 30 * DAY);
  const user: SimUser = {
    id,
    username,
    globalName: null,
    avatar: null,
    email: `${username}@users.discord-sim.test`,
    acceptsDms: true,
    bot: false,
  };
  users.set(id, user);
  return user;
}

type NewUserRow = { discordId: string; discordUsername: string; createdAt: number };

/** Inserts users (skipping Discord ids that have one) and returns the new rows' ids, in order. */
async function insertUsers(tx: TxHandle, rows: NewUserRow[]): Promise<{ id: string }[]> {
  return tx.kind === 'sqlite'
    ? tx.db.insert(users).values(rows).onConflictDoNothing().returning({ id: users.id }).all()
    : tx.db.insert(pgUsers).values(rows).onConflictDoNothing().returning({ id: pgUsers.id });
}

export async function seedOpenJoins(app: TestApp, plan: OpenJoinsPlan): Promise<SeededGuild[]> {
  const { store } = app.server.ctx;
  const sim = app.sim.state;
  const now = app.clock.now();
  const ownerSim = sim.createUser({ username: `${plan.prefix}_owner` });
  const [owner] = await store.transaction((tx) =>
    insertUsers(tx, [{ discordId: ownerSim.id, discordUsername: ownerSim.username, createdAt: now }]),
  );
  if (!owner) throw new Error(`seedOpenJoins: prefix ${plan.prefix} used twice`);
  const joinedAt = new Date().toISOString();
  const out: SeededGuild[] = [];
  for (let g = 0; g < plan.guilds; g++) {
    const guild = sim.createGuild({
      name: `${plan.prefix} guild ${g}`,
      ownerId: ownerSim.id,
      botMember: false,
    });
    // Joiners spread evenly among the other members (member lists are sorted by user id).
    const others = plan.otherMembers ?? 0;
    const every = Math.max(1, Math.floor((others + plan.joinsPerGuild) / Math.max(1, plan.joinsPerGuild)));
    const discordIds: string[] = [];
    for (let i = 0, o = 0; discordIds.length < plan.joinsPerGuild || o < others; i++) {
      const joiner = discordIds.length < plan.joinsPerGuild && (i % every === every - 1 || o >= others);
      const u = addSimUser(
        app,
        joiner ? `${plan.prefix}_${g}_j${discordIds.length}` : `${plan.prefix}_${g}_o${o++}`,
      );
      if (!joiner) guild.members[u.id] = { joinedAt };
      else {
        discordIds.push(u.id);
        if (plan.arrived ?? true) guild.members[u.id] = { joinedAt };
      }
    }
    // The bot arrives last, so GUILD_CREATE carries the final member count.
    sim.setBotInGuild(guild.id, true);
    const campaign = await insertCampaign(store, {
      ownerId: owner.id,
      name: guild.name,
      guildId: guild.id,
      membersRemaining: plan.slots ?? plan.joinsPerGuild,
      createdAt: now,
    });
    const userIds: string[] = [];
    await store.transaction(async (tx) => {
      for (let i = 0; i < discordIds.length; i += CHUNK) {
        const chunk = discordIds.slice(i, i + CHUNK);
        const rows = await insertUsers(
          tx,
          chunk.map((id) => ({ discordId: id, discordUsername: `u${id}`, createdAt: now })),
        );
        if (rows.length !== chunk.length) throw new Error('seedOpenJoins: a joiner existed already');
        userIds.push(...rows.map((r) => r.id));
        const joins = rows.map((r) => ({ userId: r.id, campaignId: campaign.id, joinedAt: now }));
        if (tx.kind === 'sqlite') tx.db.insert(campaignJoins).values(joins).run();
        else await tx.db.insert(pgCampaignJoins).values(joins);
      }
    });
    out.push({ guild, campaign, userIds, discordIds });
  }
  return out;
}
