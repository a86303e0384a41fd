import Database from 'better-sqlite3';
import { CAMPAIGN_KIND_RULES } from '../../src/shared/campaign-kinds.ts';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { openDatabase } from '../../src/db/client.ts';

// Scales a fresh database up BEFORE the product starts: users, campaigns whose guilds also exist in
// the Discord simulator's state file, historical joins and a few hundred thousand ledger rows.
// Writes go straight through better-sqlite3 in big transactions; balances are computed from the
// rows written, so balance == sum(transactions) holds from the start.

export interface SeedSize {
  users: number;
  campaigns: number;
  /** Campaigns that no longer show on Discover (completed or canceled). */
  inactiveCampaigns: number;
  /** Campaign owners (the first N users); each owns campaigns round-robin. */
  owners: number;
  transactions: number;
  /** Verified historical joins (each with its join_reward transaction). */
  joins: number;
  /** Users that also exist in the simulator (they can sign in): owners plus this many more. */
  simUsers: number;
}

export const FULL_SIZE: SeedSize = {
  users: 10_000,
  campaigns: 1_000,
  inactiveCampaigns: 300,
  owners: 200,
  transactions: 300_000,
  joins: 30_000,
  simUsers: 2_000,
};

export const QUICK_SIZE: SeedSize = {
  users: 1_000,
  campaigns: 200,
  inactiveCampaigns: 30,
  owners: 20,
  transactions: 20_000,
  joins: 2_000,
  simUsers: 150,
};

export interface SeededUser {
  id: string;
  discordId: string;
  username: string;
}

export interface SeedResult {
  users: SeededUser[];
  /** Users that can sign in through the simulator and own nothing (bench actors). */
  actors: SeededUser[];
  campaigns: number;
  transactions: number;
  joins: number;
  ms: number;
}

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same world. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const discordUserId = (i: number) => `7${String(i).padStart(17, '0')}`;
const guildId = (i: number) => `8${String(i).padStart(17, '0')}`;
const channelId = (i: number) => `6${String(i).padStart(17, '0')}`;

export function seedDatabase(
  dbPath: string,
  simStatePath: string,
  size: SeedSize,
  now = Date.now(),
): SeedResult {
  const started = Date.now();
  // Creates the file and applies the real migrations, then gets out of the way.
  openDatabase(dbPath).close();
  const sqlite = new Database(dbPath);
  // Bulk load without a journal (the file is thrown away if seeding fails); WAL again afterwards.
  sqlite.pragma('journal_mode = OFF');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -200000');
  const rnd = random(42);

  const users: SeededUser[] = [];
  const coins = new Map<string, number>();
  for (let i = 0; i < size.users; i++) {
    const id = randomUUID();
    users.push({ id, discordId: discordUserId(i), username: `bench_${i}` });
    coins.set(id, 0);
  }

  const insertTx = sqlite.prepare(
    'INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  let transactions = 0;
  const addTx = (
    userId: string,
    amount: number,
    type: string,
    description: string,
    key: string | null,
    at: number,
  ) => {
    insertTx.run(randomUUID(), userId, amount, type, description, key, at);
    coins.set(userId, (coins.get(userId) ?? 0) + amount);
    transactions += 1;
  };

  interface CampaignRow {
    id: string;
    ownerId: string;
    guildIndex: number | null;
    reward: number;
    active: boolean;
  }
  const campaigns: CampaignRow[] = [];

  sqlite.transaction(() => {
    const insertUser = sqlite.prepare(
      'INSERT INTO users (id, discord_id, discord_username, discord_avatar, email, coins, created_at) VALUES (?, ?, ?, NULL, ?, 0, ?)',
    );
    const insertHourly = sqlite.prepare(
      'INSERT INTO hourly_rewards (id, user_id, last_claim_date, last_bonus_claim_date, last_daily_claim_date) VALUES (?, ?, ?, NULL, NULL)',
    );
    users.forEach((u, i) => {
      const createdAt = now - 90 * DAY + Math.floor(rnd() * 60 * DAY);
      insertUser.run(u.id, u.discordId, u.username, `${u.username}@users.discord-sim.test`, createdAt);
      addTx(u.id, 500, 'welcome', 'Welcome bonus', `welcome:${u.id}`, createdAt);
      // Most users claimed an hourly reward at some point; all of them more than an hour ago.
      if (i % 4 !== 0) insertHourly.run(randomUUID(), u.id, now - 2 * HOUR - Math.floor(rnd() * 10 * DAY));
    });

    // Owners get a purchase first so their campaign debits never take them below zero.
    const insertServer = sqlite.prepare(
      `INSERT INTO servers (id, owner_id, name, invite_link, invite_code, kind, server_id, server_icon, coin_reward,
         members_remaining, initial_member_slots, is_featured, featured_at, completion_notification_sent,
         invite_valid, canceled_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, 0, 1, ?, ?)`,
    );
    const total = size.campaigns + size.inactiveCampaigns;
    for (let c = 0; c < total; c++) {
      const active = c < size.campaigns;
      const owner = users[c % size.owners]!;
      const featured = c % 20 === 0;
      const reward = CAMPAIGN_KIND_RULES[featured ? 'featured' : 'regular'].rewardCents;
      const slots = active ? 100_000 : 20;
      const createdAt = now - 30 * DAY + Math.floor((c / total) * 29 * DAY);
      const id = randomUUID();
      const code = `bench-${c}`;
      insertServer.run(
        id,
        owner.id,
        `Bench Guild ${c}`,
        `https://discord.gg/${code}`,
        code,
        featured ? 'featured' : 'regular',
        guildId(c),
        reward,
        active ? slots : 0,
        slots,
        featured ? 1 : 0,
        featured ? createdAt : null,
        !active && c % 2 === 0 ? createdAt + DAY : null,
        createdAt,
      );
      const cost = slots * reward;
      addTx(owner.id, cost, 'purchase', 'Bought coins', null, createdAt - 1000);
      addTx(owner.id, -cost, 'campaign', `Campaign: Bench Guild ${c} (${slots} members)`, null, createdAt);
      campaigns.push({ id, ownerId: owner.id, guildIndex: c, reward, active });
    }
  })();

  // Historical verified joins, paid long ago (outside every minimum stay, so reconciliation skips them).
  let joins = 0;
  sqlite.transaction(() => {
    const insertJoin = sqlite.prepare(
      `INSERT OR IGNORE INTO server_joins (id, user_id, server_id, joined_at, verified, verified_at, coins_awarded, has_left, penalized)
       VALUES (?, ?, ?, ?, 1, ?, 1, 0, 0)`,
    );
    for (let j = 0; j < size.joins; j++) {
      const user = users[size.owners + Math.floor(rnd() * (size.users - size.owners))]!;
      const campaign = campaigns[Math.floor(rnd() * campaigns.length)]!;
      const joinId = randomUUID();
      const at = now - 10 * DAY - Math.floor(rnd() * 20 * DAY);
      if (insertJoin.run(joinId, user.id, campaign.id, at, at + 60_000).changes === 0) continue;
      addTx(
        user.id,
        campaign.reward,
        'join_reward',
        `Joined Bench Guild ${campaign.guildIndex}`,
        `join:${joinId}`,
        at + 60_000,
      );
      joins += 1;
    }
  })();

  // Fill up to the requested number of ledger rows with timed rewards, in chunks.
  const kinds = [
    { type: 'hourly', amount: 100, description: 'Hourly reward' },
    { type: 'bonus', amount: 300, description: 'Bonus reward' },
    { type: 'daily', amount: 500, description: 'Daily reward' },
  ] as const;
  while (transactions < size.transactions) {
    sqlite.transaction(() => {
      const stop = Math.min(size.transactions, transactions + 50_000);
      while (transactions < stop) {
        const user = users[Math.floor(rnd() * users.length)]!;
        const kind = kinds[transactions % 3]!;
        addTx(
          user.id,
          kind.amount,
          kind.type,
          kind.description,
          null,
          now - 3 * HOUR - Math.floor(rnd() * 60 * DAY),
        );
      }
    })();
  }

  sqlite.transaction(() => {
    const setCoins = sqlite.prepare('UPDATE users SET coins = ? WHERE id = ?');
    for (const [id, balance] of coins) setCoins.run(balance, id);
  })();
  // No ANALYZE: the product never runs it, so the bench sees the query plans production gets.
  sqlite.pragma('journal_mode = WAL');
  sqlite.close();

  writeSimState(simStatePath, users, size, now);
  const actors = users.slice(size.owners, size.owners + size.simUsers);
  return { users, actors, campaigns: campaigns.length, transactions, joins, ms: Date.now() - started };
}

/** The simulator's persisted state (src/sim/discord/state.ts PersistedData): the guilds of every campaign, with the bot in each. */
function writeSimState(path: string, users: SeededUser[], size: SeedSize, now: number): void {
  const iso = (ms: number) => new Date(ms).toISOString();
  const simUsers = users.slice(0, size.owners + size.simUsers).map((u) => ({
    id: u.discordId,
    username: u.username,
    globalName: null,
    avatar: null,
    email: `${u.username}@users.discord-sim.test`,
    acceptsDms: true,
    bot: false,
  }));
  const total = size.campaigns + size.inactiveCampaigns;
  const guilds = [];
  const invites = [];
  for (let c = 0; c < total; c++) {
    const owner = users[c % size.owners]!;
    guilds.push({
      id: guildId(c),
      name: `Bench Guild ${c}`,
      icon: null,
      ownerId: owner.discordId,
      channelId: channelId(c),
      botJoinedAt: iso(now - 31 * DAY),
      members: { [owner.discordId]: { joinedAt: iso(now - 31 * DAY) } },
      bans: {},
    });
    invites.push({
      code: `bench-${c}`,
      guildId: guildId(c),
      channelId: channelId(c),
      maxAge: 0,
      createdAt: iso(now - 31 * DAY),
      expiresAt: null,
    });
  }
  const state = { users: simUsers, guilds, invites, audit: [], dmChannels: [], messages: [], tokens: {} };
  writeFileSync(path, JSON.stringify(state));
}
