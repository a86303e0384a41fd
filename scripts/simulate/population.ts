import { and, eq } from 'drizzle-orm';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/clock.ts';
import { campaignJoins, campaigns, transactions, users } from '../../src/db/schema.ts';
import { findLedgerMismatchesSync } from '../../src/ledger/ledger.ts';
import { startBotTestApp } from '../../src/bot/bot-test-kit.ts';
import type { TestApp, TestClient } from '../../src/test/harness.ts';
import type { ApiDiscoverServer, ApiServer } from '../../src/shared/api-types.ts';
import { CAMPAIGN_KIND_RULES, PROMOTION, type CampaignKind } from '../../src/shared/campaign-kinds.ts';
import { REWARD_TYPES, REWARDS, type RewardType } from '../../src/shared/rewards-constants.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../../src/shared/join-schemas.ts';
import { WELCOME_BONUS_CENTS } from '../../src/users/users.ts';
import { seededRandom, type Random } from './random.ts';

// A population of members, owners and abusers driven through the real product and the Discord simulator
// (decision 024). Every action an actor takes is what a browser or a Discord client does: the website's
// API over HTTP from the actor's own address, and on Discord's side the simulator's invite page, its
// "Leave server" form and its control API for an owner's kick. Time moves on the injected clock, so
// days of minimum stays, cooldowns and account ages pass in seconds. At the end the ledger is read by
// transaction type and compared, per actor type, with what the rules allow.

export const ACTOR_TYPES = [
  'honest_member',
  'honest_owner',
  'alt_ring',
  'nobot_farmer',
  'churner',
  'colluder_ring',
  'new_account',
  'manager_funnel',
  'ban_colluder',
] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const ACTOR_LABELS: Record<ActorType, string> = {
  honest_member: 'honest members',
  honest_owner: 'honest owners',
  alt_ring: 'alt rings (main + alts)',
  nobot_farmer: 'no-bot farmers',
  churner: 'churners',
  colluder_ring: 'colluder rings',
  new_account: 'new-account farmers',
  manager_funnel: 'funnels through managers',
  ban_colluder: 'ban-after-leave colluders',
};

export interface PopulationSize {
  honestMembers: number;
  honestOwners: number;
  altRings: number;
  altsPerRing: number;
  nobotFarmers: number;
  churners: number;
  colluderRings: number;
  colludersPerRing: number;
  newAccounts: number;
  /** A farmer's guild with throwaway accounts (0 days old) given Manage Server (issue 29 item 2). */
  funnelRings: number;
  funnelsPerRing: number;
  /** An owner who bans members after they left early, to wipe their penalties (issue 29 item 1). */
  banRings: number;
  bannedPerRing: number;
}

export const QUICK_POPULATION: PopulationSize = {
  honestMembers: 6,
  honestOwners: 2,
  altRings: 1,
  altsPerRing: 5,
  nobotFarmers: 2,
  churners: 3,
  colluderRings: 1,
  colludersPerRing: 2,
  newAccounts: 2,
  funnelRings: 1,
  funnelsPerRing: 3,
  banRings: 1,
  bannedPerRing: 1,
};

export const FULL_POPULATION: PopulationSize = {
  honestMembers: 16,
  honestOwners: 4,
  altRings: 2,
  altsPerRing: 5,
  nobotFarmers: 5,
  churners: 6,
  colluderRings: 2,
  colludersPerRing: 3,
  newAccounts: 4,
  funnelRings: 2,
  funnelsPerRing: 4,
  banRings: 1,
  bannedPerRing: 2,
};

export interface SimulationOptions {
  seed: number;
  mode: 'quick' | 'full';
  population: PopulationSize;
  /** Simulated duration. */
  durationMs: number;
  /** Simulated time between two rounds of actions. */
  tickMs: number;
  /** Wall-clock cap: the run stops at the end of the round that passes it (and says so). */
  wallClockCapMs: number;
  /** Progress lines (one per simulated day). */
  log?: (line: string) => void;
}

export const QUICK_OPTIONS: Omit<SimulationOptions, 'seed'> = {
  mode: 'quick',
  population: QUICK_POPULATION,
  durationMs: 3 * DAY,
  tickMs: 6 * HOUR,
  // Generous: a loaded machine must not cut the quick run short (the test would then prove less).
  wallClockCapMs: 150_000,
};

export const FULL_OPTIONS: Omit<SimulationOptions, 'seed'> = {
  mode: 'full',
  population: FULL_POPULATION,
  // Past the 7-day account age (young accounts become eligible) and the 5-day featured stay.
  durationMs: 8 * DAY,
  tickMs: 3 * HOUR,
  wallClockCapMs: 300_000,
};

/** Per actor type: what the ledger says they got, and what the rules allow them. Hundredths. */
export interface TypeRow {
  type: ActorType;
  accounts: number;
  welcome: number;
  timed: number;
  joinRewards: number;
  nobotRewards: number;
  penalties: number;
  refunds: number;
  spent: number;
  forfeited: number;
  /** Sum of every transaction of the type's accounts (credits minus debits). */
  created: number;
  /** Honest faucet: welcome once per Discord account + the timed rewards granted on the actor's schedule. */
  faucet: number;
  /** What the rules allow: the faucet, plus (honest members only) the reward of each join kept. */
  allowed: number;
  /** Coins that reached the type through its abuse channel (must be 0). */
  abuseCoins: number;
  /** Forbidden actions the product accepted (must be 0). */
  abuseWins: number;
  /** Abuse attempts made (so a 0 above means something). */
  abuseAttempts: number;
  /** Sum of negative balances (penalties the accounts could not pay). */
  debt: number;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SimulationReport {
  seed: number;
  mode: 'quick' | 'full';
  simulatedMs: number;
  wallMs: number;
  rounds: number;
  stoppedByWallClock: boolean;
  requests: number;
  rows: TypeRow[];
  checks: Check[];
  ok: boolean;
}

// ---------------------------------------------------------------------------------------------------

interface JoinRecord {
  campaignId: string;
  guildId: string;
  kind: CampaignKind;
  /** The actor accepted the invite on Discord (is, or was, in the guild through this join). */
  accepted: boolean;
  acceptedAt: number | null;
  claimed: boolean;
  left: boolean;
}

interface Actor {
  type: ActorType;
  /** Index within its type (and ring). */
  name: string;
  discordId: string;
  client: TestClient;
  /** Our user ids for this Discord account (a deleted account signs up again as a new row). */
  userIds: string[];
  startedAt: number;
  lastClaim: Partial<Record<RewardType, number>>;
  joins: Map<string, JoinRecord>;
  /** Guilds the actor is in on Discord. */
  guilds: Set<string>;
  /** Owners: the guilds they own, and the invite codes. */
  ownGuild?: { id: string; code: string };
  ownNoBotGuild?: { id: string; code: string };
  /** Ring owner of an alt or colluder. */
  ringOwner?: Actor;
  accountCreatedAt: number;
  deleted: boolean;
  promoted: boolean;
  /** Timed rewards the product granted this actor (hundredths), by its answers. */
  timedClaimed: number;
  /** Ban colluders: how many times their owner banned them after a charged leave. */
  bans: number;
}

interface LedgerRow {
  userId: string;
  amount: number;
  type: string;
  createdAt: number;
  idempotencyKey: string | null;
}

interface Counters {
  abuseAttempts: number;
  abuseWins: number;
  abuseCoins: number;
}

const TIMED_ORDER: readonly RewardType[] = REWARD_TYPES;
const MIN_ACCOUNT_AGE_MS = 7 * DAY;

function inviteCodeOf(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}

export async function runPopulation(options: SimulationOptions): Promise<SimulationReport> {
  const wallStart = Date.now();
  const random = seededRandom(options.seed);
  // The simulator's own record of every account it made is the seed's, not the clock's: usernames carry
  // the seed so two runs in one process (tests) never share accounts.
  const app = await startBotTestApp();
  try {
    return await simulate(app, random, options, wallStart);
  } finally {
    await app.close();
  }
}

async function simulate(
  app: TestApp,
  random: Random,
  options: SimulationOptions,
  wallStart: number,
): Promise<SimulationReport> {
  const sim = app.sim;
  const db = app.server.ctx.db;
  const clock = app.clock;
  const size = options.population;
  const start = clock.now();
  const actors: Actor[] = [];
  const counters = new Map<ActorType, Counters>(
    ACTOR_TYPES.map((t) => [t, { abuseAttempts: 0, abuseWins: 0, abuseCoins: 0 }]),
  );
  const failures: string[] = [];
  let requests = 0;
  const count = (type: ActorType): Counters => counters.get(type)!;
  /** Bot effects to wait for at the end of a round. */
  let expectations: { what: string; done: () => boolean }[] = [];

  const api = async <T = unknown>(actor: Actor, method: string, path: string, body?: unknown) => {
    requests += 1;
    return actor.client.request<T>(method, path, body);
  };

  // ---- Discord side (the simulator's pages and control API, over HTTP) ----------------------------

  const discord = async (method: string, path: string, form?: Record<string, string>) => {
    requests += 1;
    const res = await fetch(`${sim.url}${path}`, {
      method,
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const acceptInvite = async (actor: Actor, code: string, guildId: string) => {
    const status = await discord('POST', `/invite/${code}`, { user_id: actor.discordId });
    if (status !== 200) throw new Error(`${actor.name}: accepting invite ${code} answered ${status}`);
    actor.guilds.add(guildId);
  };
  const leaveGuild = async (actor: Actor, guildId: string) => {
    const status = await discord('POST', `/guilds/${guildId}/members/${actor.discordId}/leave`);
    if (status >= 400) throw new Error(`${actor.name}: leaving ${guildId} answered ${status}`);
    actor.guilds.delete(guildId);
  };
  const kick = async (owner: Actor, member: Actor, guildId: string) => {
    const status = await discord(
      'DELETE',
      `/control/guilds/${guildId}/members/${member.discordId}?reason=kick&actorId=${owner.discordId}`,
    );
    if (status !== 204) throw new Error(`${owner.name}: kicking ${member.name} answered ${status}`);
    member.guilds.delete(guildId);
  };

  // ---- database reads (the report and the bot's effects) ----------------------------------------

  const joinRowOf = (userId: string, campaignId: string) =>
    db
      .select()
      .from(campaignJoins)
      .where(and(eq(campaignJoins.campaignId, campaignId), eq(campaignJoins.userId, userId)))
      .get();
  const joinRow = (actor: Actor, campaignId: string) => joinRowOf(actor.userIds.at(-1)!, campaignId);

  const expectVerified = (actor: Actor, campaignId: string) => {
    const userId = actor.userIds.at(-1)!;
    expectations.push({
      what: `${actor.name} verified on ${campaignId}`,
      done: () => joinRowOf(userId, campaignId)?.verified === true,
    });
  };
  const expectLeft = (actor: Actor, campaignId: string) => {
    const userId = actor.userIds.at(-1)!;
    expectations.push({
      what: `${actor.name} left ${campaignId}`,
      done: () => joinRowOf(userId, campaignId)?.hasLeft === true,
    });
  };

  async function settle(): Promise<void> {
    await app.server.background.bot?.idle();
    const deadline = Date.now() + 15_000;
    while (expectations.some((e) => !e.done())) {
      if (Date.now() > deadline) {
        for (const e of expectations.filter((x) => !x.done()))
          failures.push(`the bot never handled: ${e.what}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expectations = [];
  }

  // ---- accounts ---------------------------------------------------------------------------------

  let serial = 0;
  async function makeActor(
    type: ActorType,
    name: string,
    opts: { accountAgeMs?: number; address?: string } = {},
  ): Promise<Actor> {
    serial += 1;
    const username = `p${options.seed % 100000}_${serial}_${type.slice(0, 6)}`;
    const simUser = sim.state.createUser({ username, accountAgeMs: opts.accountAgeMs ?? 60 * DAY });
    requests += 4;
    const client = await app.signIn(username, opts.address ? { address: opts.address } : {});
    return {
      type,
      name,
      discordId: simUser.id,
      client,
      userIds: [client.user!.id],
      startedAt: clock.now(),
      lastClaim: {},
      joins: new Map(),
      guilds: new Set(),
      accountCreatedAt: clock.now() - (opts.accountAgeMs ?? 60 * DAY),
      deleted: false,
      promoted: false,
      timedClaimed: 0,
      bans: 0,
    };
  }

  function giveGuild(owner: Actor, bot: boolean): { id: string; code: string } {
    const guild = sim.state.createGuild({
      name: `${owner.name} ${bot ? 'hall' : 'corner'}`,
      ownerId: owner.discordId,
      botMember: bot,
    });
    const invite = sim.state.createInvite(guild.id, { maxAge: 0 });
    owner.guilds.add(guild.id);
    return { id: guild.id, code: invite.code };
  }

  const honestOwners: Actor[] = [];
  for (let i = 0; i < size.honestOwners; i++) {
    const owner = await makeActor('honest_owner', `owner${i}`);
    owner.ownGuild = giveGuild(owner, true);
    owner.ownNoBotGuild = giveGuild(owner, false);
    honestOwners.push(owner);
    actors.push(owner);
  }
  for (let i = 0; i < size.honestMembers; i++) actors.push(await makeActor('honest_member', `member${i}`));
  const altMains: Actor[] = [];
  for (let r = 0; r < size.altRings; r++) {
    const main = await makeActor('alt_ring', `altmain${r}`);
    main.ownGuild = giveGuild(main, true);
    altMains.push(main);
    actors.push(main);
    for (let i = 0; i < size.altsPerRing; i++) {
      const alt = await makeActor('alt_ring', `alt${r}.${i}`, { address: main.client.address });
      alt.ringOwner = main;
      actors.push(alt);
    }
  }
  for (let i = 0; i < size.nobotFarmers; i++) actors.push(await makeActor('nobot_farmer', `farmer${i}`));
  for (let i = 0; i < size.churners; i++) {
    // Every third churner is a throwaway Discord account a day or two old; another third has a guild of
    // its own and spends everything on it first, so its penalties become debt it then tries to shed.
    const young = i % 3 === 2;
    const churner = await makeActor(
      'churner',
      `churner${i}`,
      young ? { accountAgeMs: random.int(1, 2) * DAY } : {},
    );
    if (i % 3 === 1) churner.ownGuild = giveGuild(churner, true);
    actors.push(churner);
  }
  const colluderOwners: Actor[] = [];
  for (let r = 0; r < size.colluderRings; r++) {
    const owner = await makeActor('colluder_ring', `ringowner${r}`);
    owner.ownGuild = giveGuild(owner, true);
    colluderOwners.push(owner);
    actors.push(owner);
    for (let i = 0; i < size.colludersPerRing; i++) {
      const member = await makeActor('colluder_ring', `ring${r}.${i}`);
      member.ringOwner = owner;
      actors.push(member);
    }
  }
  for (let i = 0; i < size.newAccounts; i++) {
    actors.push(await makeActor('new_account', `fresh${i}`, { accountAgeMs: random.int(0, 2) * DAY + HOUR }));
  }
  for (let r = 0; r < size.funnelRings; r++) {
    // The farmer owns the guild and spends nothing; its throwaways hold Manage Server there.
    const farmer = await makeActor('manager_funnel', `funnelowner${r}`);
    farmer.ownGuild = giveGuild(farmer, true);
    actors.push(farmer);
    for (let i = 0; i < size.funnelsPerRing; i++) {
      const throwaway = await makeActor('manager_funnel', `funnel${r}.${i}`, { accountAgeMs: HOUR });
      throwaway.ringOwner = farmer;
      sim.state.addMember(farmer.ownGuild.id, throwaway.discordId);
      sim.state.setManageGuild(farmer.ownGuild.id, throwaway.discordId, true);
      throwaway.guilds.add(farmer.ownGuild.id);
      actors.push(throwaway);
    }
  }
  for (let r = 0; r < size.banRings; r++) {
    const owner = await makeActor('ban_colluder', `banowner${r}`);
    owner.ownGuild = giveGuild(owner, true);
    actors.push(owner);
    for (let i = 0; i < size.bannedPerRing; i++) {
      const member = await makeActor('ban_colluder', `banned${r}.${i}`);
      member.ringOwner = owner;
      actors.push(member);
    }
  }

  // ---- behaviours -------------------------------------------------------------------------------

  const balance = (actor: Actor) =>
    db
      .select({ coins: users.coins })
      .from(users)
      .where(eq(users.id, actor.userIds.at(-1)!))
      .get()?.coins ?? 0;

  async function claimTimed(actor: Actor): Promise<void> {
    const now = clock.now();
    for (const type of TIMED_ORDER) {
      const last = actor.lastClaim[type];
      if (last !== undefined && now - last < REWARDS[type].periodMs) continue;
      const res = await api(actor, 'POST', '/api/hourly/claim', { type });
      if (res.status === 200) {
        actor.lastClaim[type] = now;
        actor.timedClaimed += REWARDS[type].cents;
      } else failures.push(`${actor.name}: ${type} claim due but answered ${res.status}`);
    }
  }

  async function discover(actor: Actor): Promise<ApiDiscoverServer[]> {
    const res = await api<ApiDiscoverServer[]>(actor, 'GET', '/api/servers');
    if (res.status !== 200) throw new Error(`${actor.name}: Discover answered ${res.status}`);
    return res.body;
  }

  const guildOfInvite = (link: string): string | undefined =>
    sim.state.findInvite(inviteCodeOf(link))?.guildId;

  /** Website join, then (when `accept`) the invite on Discord; returns the join's HTTP status. */
  async function join(actor: Actor, campaign: ApiDiscoverServer, accept: boolean): Promise<number> {
    const guildId = guildOfInvite(campaign.inviteLink);
    if (!guildId) return 0;
    const res = await api(actor, 'POST', `/api/servers/${campaign.id}/join`);
    if (res.status !== 200) return res.status;
    const record: JoinRecord = {
      campaignId: campaign.id,
      guildId,
      kind: campaign.kind,
      accepted: false,
      acceptedAt: null,
      claimed: false,
      left: false,
    };
    actor.joins.set(campaign.id, record);
    if (accept) {
      await acceptInvite(actor, inviteCodeOf(campaign.inviteLink), guildId);
      record.accepted = true;
      record.acceptedAt = clock.now();
      if (CAMPAIGN_KIND_RULES[campaign.kind].needsBot) expectVerified(actor, campaign.id);
    }
    return 200;
  }

  async function claimNoBot(actor: Actor, record: JoinRecord): Promise<number> {
    const res = await api(actor, 'POST', `/api/servers/${record.campaignId}/claim-nobot`);
    if (res.status === 200) record.claimed = true;
    return res.status;
  }

  /** Candidates on Discover: not joined yet, and a guild the actor is not in. */
  async function candidates(actor: Actor, filter: (c: ApiDiscoverServer) => boolean) {
    const list = await discover(actor);
    return list.filter((c) => {
      if (actor.joins.has(c.id) || !filter(c)) return false;
      const guildId = guildOfInvite(c.inviteLink);
      return guildId !== undefined && !actor.guilds.has(guildId);
    });
  }

  const ownerSubmissions = new Map<Actor, number>();

  async function honestOwnerRound(owner: Actor): Promise<void> {
    await claimTimed(owner);
    const mine = await api<ApiServer[]>(owner, 'GET', '/api/servers/mine');
    const open = mine.body.filter((c) => c.membersRemaining > 0).length;
    const coins = Math.floor(balance(owner) / 100);
    if (open < 2 && coins >= 8) {
      // Every honest owner's second campaign is a no-bot one (so every run, however short, has honest
      // no-bot joins to check), then either kind.
      const submitted = ownerSubmissions.get(owner) ?? 0;
      ownerSubmissions.set(owner, submitted + 1);
      const noBot = submitted === 1 || (submitted > 1 && random.chance(0.4));
      const spend = Math.min(coins - 2, random.int(4, 8));
      const res = noBot
        ? await api(owner, 'POST', '/api/servers/no-bot', {
            name: `${owner.name} corner`,
            inviteLink: `https://discord.gg/${owner.ownNoBotGuild!.code}`,
            memberCount: spend,
          })
        : await api(owner, 'POST', '/api/servers', {
            name: `${owner.name} hall`,
            inviteLink: `https://discord.gg/${owner.ownGuild!.code}`,
            coinReward: String(spend),
          });
      if (res.status !== 201) failures.push(`${owner.name}: submitting a campaign answered ${res.status}`);
    }
    // Full runs: an owner with enough coins promotes an open regular campaign once (frozen terms).
    const promotable = mine.body.find((c) => c.kind === 'regular' && c.membersRemaining > 0);
    if (!owner.promoted && promotable && coins >= PROMOTION.costCoins + 5) {
      const res = await api(owner, 'POST', `/api/servers/${promotable.id}/promote`);
      if (res.status === 200) owner.promoted = true;
      else failures.push(`${owner.name}: promoting answered ${res.status}`);
    }
  }

  async function honestMemberRound(member: Actor): Promise<void> {
    await claimTimed(member);
    const now = clock.now();
    for (const record of member.joins.values()) {
      // No-bot: claim once Discord shows the membership (the spec's 10 s have passed by the next round).
      if (record.kind === 'nobot' && record.accepted && !record.claimed) {
        const status = await claimNoBot(member, record);
        // 409: the campaign filled up meanwhile (no slots) is the only other honest answer.
        if (status !== 200 && status !== 409)
          failures.push(`${member.name}: honest no-bot claim answered ${status}`);
      }
      // Bot kinds: leave only after the frozen minimum stay (free), now and then.
      if (record.kind !== 'nobot' && record.accepted && !record.left && random.chance(0.15)) {
        const row = joinRow(member, record.campaignId);
        if (
          row?.verified &&
          row.verifiedAt !== null &&
          now >= row.verifiedAt + (row.minStayMs ?? 0) + MINUTE
        ) {
          await leaveGuild(member, record.guildId);
          record.left = true;
          expectLeft(member, record.campaignId);
        }
      }
    }
    if (random.chance(0.6)) {
      const pick = random.pick(await candidates(member, () => true));
      if (pick) {
        const status = await join(member, pick, true);
        if (status !== 200 && status !== 409) failures.push(`${member.name}: honest join answered ${status}`);
      }
    }
  }

  async function altRound(actor: Actor): Promise<void> {
    await claimTimed(actor);
    if (!actor.ringOwner) {
      // The main: funds campaigns for its own guild, which its alts then fill.
      const mine = await api<ApiServer[]>(actor, 'GET', '/api/servers/mine');
      const coins = Math.floor(balance(actor) / 100);
      if (mine.body.every((c) => c.membersRemaining === 0) && coins >= 6) {
        const res = await api(actor, 'POST', '/api/servers', {
          name: `${actor.name} hall`,
          inviteLink: `https://discord.gg/${actor.ownGuild!.code}`,
          coinReward: String(Math.min(coins, 8)),
        });
        if (res.status !== 201) failures.push(`${actor.name}: main's own campaign answered ${res.status}`);
      }
      return;
    }
    const main = actor.ringOwner;
    const c = count('alt_ring');
    // 1. Fund or feature a campaign for the main's guild (item 1): must be refused.
    if (random.chance(0.3)) {
      c.abuseAttempts += 1;
      const featured = random.chance(0.5);
      const res = await api(actor, 'POST', '/api/servers', {
        name: `${main.name} hall`,
        inviteLink: `https://discord.gg/${main.ownGuild!.code}`,
        ...(featured ? { isFeaturedIntent: true } : { coinReward: '3' }),
      });
      if (res.status < 300) c.abuseWins += 1;
    }
    // 2. Fill the main's campaigns from the main's own address (decision 022 caps the paid ones).
    const mains = (await discover(actor)).filter(
      (x) => !actor.joins.has(x.id) && guildOfInvite(x.inviteLink) === main.ownGuild!.id,
    );
    const target = random.pick(mains);
    if (target && !actor.guilds.has(main.ownGuild!.id)) {
      c.abuseAttempts += 1;
      await join(actor, target, true);
    } else if (target) {
      // Already in the main's guild through an earlier campaign: leave after the stay, rejoin next round.
      const record = [...actor.joins.values()].find((r) => r.guildId === main.ownGuild!.id && !r.left);
      const row = record && joinRow(actor, record.campaignId);
      if (
        record &&
        row?.verified &&
        row.verifiedAt !== null &&
        clock.now() >= row.verifiedAt + (row.minStayMs ?? 0) + MINUTE
      ) {
        await leaveGuild(actor, record.guildId);
        record.left = true;
        expectLeft(actor, record.campaignId);
      }
    }
  }

  async function farmerRound(farmer: Actor): Promise<void> {
    await claimTimed(farmer);
    const c = count('nobot_farmer');
    // Claim every pending no-bot join without ever accepting the invite (item 2).
    for (const record of farmer.joins.values()) {
      if (record.kind !== 'nobot' || record.claimed) continue;
      c.abuseAttempts += 1;
      if ((await claimNoBot(farmer, record)) < 300) c.abuseWins += 1;
    }
    const list = await candidates(farmer, () => true);
    const nobot = random.pick(list.filter((x) => x.kind === 'nobot'));
    if (nobot) await join(farmer, nobot, false);
    // Join a bot guild on Discord first, then ask the website for the reward of a member it already is (item 5).
    const botKind = random.pick(list.filter((x) => x.kind !== 'nobot'));
    if (botKind && random.chance(0.5)) {
      const guildId = guildOfInvite(botKind.inviteLink)!;
      await acceptInvite(farmer, inviteCodeOf(botKind.inviteLink), guildId);
      c.abuseAttempts += 1;
      const res = await api(farmer, 'POST', `/api/servers/${botKind.id}/join`);
      if (res.status < 300) {
        c.abuseWins += 1;
        farmer.joins.set(botKind.id, {
          campaignId: botKind.id,
          guildId,
          kind: botKind.kind,
          accepted: true,
          acceptedAt: clock.now(),
          claimed: false,
          left: false,
        });
      }
    }
  }

  async function deleteAndSignUpAgain(churner: Actor): Promise<void> {
    const me = await api<{ discordUsername: string }>(churner, 'GET', '/api/auth/user');
    const res = await api(churner, 'DELETE', '/api/account', { confirmUsername: me.body.discordUsername });
    if (res.status !== 200) failures.push(`${churner.name}: account deletion answered ${res.status}`);
    churner.deleted = true;
    requests += 4;
    const again = await app.signIn(me.body.discordUsername, { address: churner.client.address });
    churner.client = again;
    churner.userIds.push(again.user!.id);
    churner.joins = new Map();
    churner.lastClaim = {};
    count('churner').abuseAttempts += 1;
  }

  async function churnerRound(churner: Actor): Promise<void> {
    const c = count('churner');
    // A spender in debt (its penalties came after it spent everything) deletes the account and signs up
    // again with the same Discord account, before any reward pays the debt: the debt must follow it.
    if (churner.ownGuild && !churner.deleted && balance(churner) < 0) return deleteAndSignUpAgain(churner);
    await claimTimed(churner);
    const young = clock.now() - churner.accountCreatedAt < MIN_ACCOUNT_AGE_MS;
    // A spender puts every whole coin into its own guild's campaign before churning.
    const coins = Math.floor(balance(churner) / 100);
    if (churner.ownGuild && !churner.deleted && coins >= 3) {
      const res = await api(churner, 'POST', '/api/servers', {
        name: `${churner.name} hall`,
        inviteLink: `https://discord.gg/${churner.ownGuild.code}`,
        coinReward: String(coins),
      });
      if (res.status !== 201) failures.push(`${churner.name}: own campaign answered ${res.status}`);
    }
    // Leave everything joined last round, inside the minimum stay.
    let left = false;
    for (const record of churner.joins.values()) {
      if (record.kind === 'nobot' || !record.accepted || record.left) continue;
      const row = joinRow(churner, record.campaignId);
      if (!row?.verified) continue;
      await leaveGuild(churner, record.guildId);
      record.left = true;
      left = true;
      c.abuseAttempts += 1;
      expectLeft(churner, record.campaignId);
    }
    // The others, now and then, in a round after their leaves were handled: delete and sign up again
    // (a second welcome bonus must not be paid).
    if (!left && !churner.deleted && !churner.ownGuild && churner.joins.size >= 2 && random.chance(0.3))
      return deleteAndSignUpAgain(churner);
    const pick = random.pick(await candidates(churner, (x) => x.kind !== 'nobot'));
    if (pick) {
      if (young) c.abuseAttempts += 1;
      const status = await join(churner, pick, true);
      if (young && status === 200) c.abuseWins += 1;
    }
  }

  /** The ring owner keeps two campaigns open; each ring member is kicked from one and leaves the other early. */
  async function colluderRound(actor: Actor): Promise<void> {
    await claimTimed(actor);
    const c = count('colluder_ring');
    if (!actor.ringOwner) {
      const mine = await api<ApiServer[]>(actor, 'GET', '/api/servers/mine');
      const open = mine.body.filter((x) => x.membersRemaining > 0).length;
      const coins = Math.floor(balance(actor) / 100);
      if (open < 2 && coins >= 3) {
        const res = await api(actor, 'POST', '/api/servers', {
          name: `${actor.name} den`,
          inviteLink: `https://discord.gg/${actor.ownGuild!.code}`,
          coinReward: String(Math.min(coins, 4)),
        });
        if (res.status !== 201) failures.push(`${actor.name}: ring campaign answered ${res.status}`);
      }
      return;
    }
    const owner = actor.ringOwner;
    const guildId = owner.ownGuild!.id;
    const current = [...actor.joins.values()].find((r) => r.guildId === guildId && r.accepted && !r.left);
    if (current) {
      const row = joinRow(actor, current.campaignId);
      if (!row?.verified) return;
      const kicks = [...actor.joins.values()].filter((r) => r.guildId === guildId && r.left).length;
      if (kicks % 2 === 0) {
        // The owner kicks the member inside the stay: a kick is never charged (the member keeps the reward).
        await kick(owner, actor, guildId);
      } else {
        // Back through another campaign, the member leaves on its own a minute later: the earlier kick
        // must not excuse this removal (item 4).
        clock.advance(MINUTE);
        await leaveGuild(actor, guildId);
        c.abuseAttempts += 1;
      }
      current.left = true;
      expectLeft(actor, current.campaignId);
      return;
    }
    const ring = (await discover(actor)).filter(
      (x) => !actor.joins.has(x.id) && guildOfInvite(x.inviteLink) === guildId,
    );
    const pick = random.pick(ring);
    if (pick) await join(actor, pick, true);
  }

  async function newAccountRound(fresh: Actor): Promise<void> {
    await claimTimed(fresh);
    // A throwaway account farms its first days only: joins must be refused until it is 7 days old.
    if (clock.now() - fresh.accountCreatedAt >= MIN_ACCOUNT_AGE_MS - options.tickMs) return;
    const c = count('new_account');
    const pick = random.pick(await candidates(fresh, (x) => x.kind !== 'nobot'));
    if (pick) {
      c.abuseAttempts += 1;
      if ((await join(fresh, pick, true)) === 200) c.abuseWins += 1;
    }
  }

  /**
   * Funnels through managers: the farmer only claims; each throwaway (0 days old, Manage Server in the
   * farmer's guild) claims its welcome bonus and timed rewards and tries to spend them all on campaigns
   * for the farmer's guild, during its first days (a throwaway is replaced, not aged).
   */
  async function funnelRound(actor: Actor): Promise<void> {
    if (!actor.ringOwner) return claimTimed(actor);
    if (clock.now() - actor.accountCreatedAt >= MIN_ACCOUNT_AGE_MS - options.tickMs) return;
    await claimTimed(actor);
    const coins = Math.floor(balance(actor) / 100);
    if (coins < 3) return;
    const c = count('manager_funnel');
    c.abuseAttempts += 1;
    const res = await api(actor, 'POST', '/api/servers', {
      name: `${actor.ringOwner.name} hall`,
      inviteLink: `https://discord.gg/${actor.ringOwner.ownGuild!.code}`,
      coinReward: String(coins),
    });
    if (res.status < 300) c.abuseWins += 1;
  }

  /** Bans of one run in quick mode: each waits out the order-of-events margin on the wall clock. */
  const maxBans = options.mode === 'quick' ? 2 : 6;
  let bansDone = 0;

  /**
   * Ban-after-leave colluders: the owner keeps campaigns open; a member joins, leaves early (charged),
   * and the owner bans it seconds later (the issue's 21.6 s, here just past the 2 s margin), then unbans
   * it so it can come back: the ban must refund nothing and give no slot back twice.
   */
  async function banColluderRound(actor: Actor): Promise<void> {
    await claimTimed(actor);
    if (!actor.ringOwner) {
      const mine = await api<ApiServer[]>(actor, 'GET', '/api/servers/mine');
      const open = mine.body.filter((x) => x.membersRemaining > 0).length;
      const coins = Math.floor(balance(actor) / 100);
      if (open < 2 && coins >= 3) {
        const res = await api(actor, 'POST', '/api/servers', {
          name: `${actor.name} lodge`,
          inviteLink: `https://discord.gg/${actor.ownGuild!.code}`,
          coinReward: String(Math.min(coins, 4)),
        });
        if (res.status !== 201) failures.push(`${actor.name}: ban ring campaign answered ${res.status}`);
      }
      return;
    }
    const owner = actor.ringOwner;
    const guildId = owner.ownGuild!.id;
    const current = [...actor.joins.values()].find((r) => r.guildId === guildId && r.accepted && !r.left);
    if (current) {
      const row = joinRow(actor, current.campaignId);
      if (!row?.verified || !row.coinsAwarded) return;
      const leftWall = Date.now();
      await leaveGuild(actor, guildId);
      current.left = true;
      expectLeft(actor, current.campaignId);
      if (bansDone >= maxBans) return;
      // Within the same minute of the product's clock (the late-refund window is ten minutes).
      const userId = actor.userIds.at(-1)!;
      const deadline = Date.now() + 10_000;
      while (joinRowOf(userId, current.campaignId)?.hasLeft !== true && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      const wait = leftWall + 2_500 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      bansDone += 1;
      actor.bans += 1;
      count('ban_colluder').abuseAttempts += 1;
      const status = await discord(
        'DELETE',
        `/control/guilds/${guildId}/members/${actor.discordId}?reason=ban&actorId=${owner.discordId}`,
      );
      if (status !== 204) failures.push(`${owner.name}: banning ${actor.name} answered ${status}`);
      // The bot hears of the ban (GUILD_BAN_ADD, then the audit entry) before the owner lifts it.
      await new Promise((r) => setTimeout(r, 300));
      await app.server.background.bot?.idle();
      sim.state.unban(guildId, actor.discordId);
      return;
    }
    const ring = (await discover(actor)).filter(
      (x) => !actor.joins.has(x.id) && guildOfInvite(x.inviteLink) === guildId,
    );
    const pick = random.pick(ring);
    if (pick) await join(actor, pick, true);
  }

  const behaviour: Record<ActorType, (actor: Actor) => Promise<void>> = {
    honest_member: honestMemberRound,
    honest_owner: honestOwnerRound,
    alt_ring: altRound,
    nobot_farmer: farmerRound,
    churner: churnerRound,
    colluder_ring: colluderRound,
    new_account: newAccountRound,
    manager_funnel: funnelRound,
    ban_colluder: banColluderRound,
  };

  // ---- the run -----------------------------------------------------------------------------------

  let rounds = 0;
  let stoppedByWallClock = false;
  let lastDay = -1;
  while (clock.now() - start < options.durationMs) {
    for (const actor of random.shuffle(actors)) {
      await behaviour[actor.type](actor);
      // The no-bot claim delay is seconds: a round's actions are spread over its first minutes.
      clock.advance(SECOND);
    }
    await settle();
    rounds += 1;
    clock.advance(options.tickMs - Math.min(options.tickMs - SECOND, actors.length * SECOND));
    const day = Math.floor((clock.now() - start) / DAY);
    if (day !== lastDay) {
      lastDay = day;
      options.log?.(
        `day ${day}: ${rounds} rounds, ${requests} requests, ${((Date.now() - wallStart) / 1000).toFixed(1)} s`,
      );
    }
    if (Date.now() - wallStart > options.wallClockCapMs) {
      stoppedByWallClock = true;
      break;
    }
  }
  await settle();
  if (NOBOT_CLAIM_DELAY_MS > options.tickMs)
    failures.push('the round is shorter than the no-bot claim delay');

  return buildReport(app, {
    options,
    actors,
    counters,
    failures,
    rounds,
    requests,
    simulatedMs: clock.now() - start,
    wallMs: Date.now() - wallStart,
    stoppedByWallClock,
  });
}

// ---- the report ------------------------------------------------------------------------------------

interface RunFacts {
  options: SimulationOptions;
  actors: Actor[];
  counters: Map<ActorType, Counters>;
  failures: string[];
  rounds: number;
  requests: number;
  simulatedMs: number;
  wallMs: number;
  stoppedByWallClock: boolean;
}

function buildReport(app: TestApp, facts: RunFacts): SimulationReport {
  const db = app.server.ctx.db;
  const sqlite = app.server.ctx.sqlite;
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

  const typeOf = new Map<string, ActorType>();
  const actorOf = new Map<string, Actor>();
  for (const actor of facts.actors) {
    for (const id of actor.userIds) {
      typeOf.set(id, actor.type);
      actorOf.set(id, actor);
    }
  }
  const allIds = [...typeOf.keys()];
  // In insertion order (rowid): several writes share one instant of the injected clock.
  const ours = new Set(allIds);
  const txs = sqlite
    .prepare<[], LedgerRow>(
      'SELECT user_id AS userId, amount, type, created_at AS createdAt, idempotency_key AS idempotencyKey FROM transactions ORDER BY rowid',
    )
    .all()
    .filter((t) => ours.has(t.userId));
  const joins = db.select().from(campaignJoins).all();
  const campaignRows = db.select().from(campaigns).all();

  const rows = new Map<ActorType, TypeRow>(
    ACTOR_TYPES.map((type) => [
      type,
      {
        type,
        accounts: 0,
        welcome: 0,
        timed: 0,
        joinRewards: 0,
        nobotRewards: 0,
        penalties: 0,
        refunds: 0,
        spent: 0,
        forfeited: 0,
        created: 0,
        faucet: 0,
        allowed: 0,
        abuseCoins: facts.counters.get(type)!.abuseCoins,
        abuseWins: facts.counters.get(type)!.abuseWins,
        abuseAttempts: facts.counters.get(type)!.abuseAttempts,
        debt: 0,
      },
    ]),
  );

  for (const t of txs) {
    const row = rows.get(typeOf.get(t.userId)!)!;
    row.created += t.amount;
    switch (t.type) {
      case 'welcome':
        row.welcome += t.amount;
        break;
      case 'hourly':
      case 'bonus':
      case 'daily':
        row.timed += t.amount;
        break;
      case 'join_reward':
        row.joinRewards += t.amount;
        break;
      case 'nobot_reward':
        row.nobotRewards += t.amount;
        break;
      case 'leave_penalty':
        row.penalties -= t.amount;
        break;
      case 'penalty_refund':
        row.refunds += t.amount;
        break;
      case 'campaign':
      case 'promote':
        row.spent -= t.amount;
        break;
      case 'account_deleted':
        row.forfeited -= t.amount;
        break;
      default:
        break;
    }
  }

  // Faucet and allowance per account.
  for (const actor of facts.actors) {
    const row = rows.get(actor.type)!;
    row.accounts += 1;
    // The honest faucet: one welcome bonus per Discord account, and the timed rewards the product granted
    // at the moments this actor asked (what an honest member on the same schedule gets).
    const faucet = WELCOME_BONUS_CENTS + actor.timedClaimed;
    row.faucet += faucet;
    row.allowed += faucet;
    if (actor.type === 'honest_member') {
      for (const record of actor.joins.values()) {
        if (record.accepted) row.allowed += CAMPAIGN_KIND_RULES[record.kind].rewardCents;
      }
    }
    for (const id of actor.userIds) {
      const coins = db.select({ coins: users.coins }).from(users).where(eq(users.id, id)).get()?.coins ?? 0;
      if (coins < 0) row.debt -= coins;
    }
  }

  // Abuse channels measured from the database (besides the accepted forbidden actions counted live).
  const joinsBy = (type: ActorType) => joins.filter((j) => typeOf.get(j.userId) === type);
  const campaignById = new Map(campaignRows.map((c) => [c.id, c]));
  // No-bot farmers never accept a no-bot invite and only web-join bot guilds they are already in.
  const farmerRow = rows.get('nobot_farmer')!;
  farmerRow.abuseCoins += farmerRow.joinRewards + farmerRow.nobotRewards;
  // New accounts: any join reward paid while younger than the minimum age.
  const freshRow = rows.get('new_account')!;
  for (const t of txs) {
    if (t.type !== 'join_reward' || typeOf.get(t.userId) !== 'new_account') continue;
    const actor = actorOf.get(t.userId)!;
    if (t.createdAt - actor.accountCreatedAt < MIN_ACCOUNT_AGE_MS) freshRow.abuseCoins += t.amount;
  }
  // Churners: a young churner's join reward; a second welcome bonus; an early voluntary leave unpaid.
  const churnRow = rows.get('churner')!;
  for (const t of txs) {
    if (typeOf.get(t.userId) !== 'churner') continue;
    const actor = actorOf.get(t.userId)!;
    if (t.type === 'join_reward' && t.createdAt - actor.accountCreatedAt < MIN_ACCOUNT_AGE_MS)
      churnRow.abuseCoins += t.amount;
  }
  // A debt left on a deleted account is a penalty nobody pays: counted as coins the churner kept.
  for (const actor of facts.actors.filter((a) => a.type === 'churner')) {
    for (const id of actor.userIds.slice(0, -1)) {
      const coins = db.select({ coins: users.coins }).from(users).where(eq(users.id, id)).get()?.coins ?? 0;
      if (coins < 0) {
        churnRow.abuseWins += 1;
        churnRow.abuseCoins -= coins;
        churnRow.created -= coins;
      }
    }
  }
  for (const type of ACTOR_TYPES) {
    const row = rows.get(type)!;
    const welcomes = txs.filter((t) => t.type === 'welcome' && typeOf.get(t.userId) === type).length;
    const discordAccounts = facts.actors.filter((a) => a.type === type).length;
    if (welcomes > discordAccounts) {
      row.abuseWins += welcomes - discordAccounts;
      row.abuseCoins += (welcomes - discordAccounts) * WELCOME_BONUS_CENTS;
    }
  }
  // Ban-after-leave colluders: no refund of a penalty, and every leave stays the leave it was.
  const banRow = rows.get('ban_colluder')!;
  banRow.abuseCoins += banRow.refunds;
  for (const j of joinsBy('ban_colluder')) if (j.hasLeft && j.leftReason !== 'leave') banRow.abuseWins += 1;
  // Funnels through managers: coins spent by accounts on campaigns of a guild they do not own.
  const funnelRow = rows.get('manager_funnel')!;
  funnelRow.abuseCoins += funnelRow.spent;
  // Early voluntary leaves (churners, colluders): each must have been charged its frozen penalty.
  for (const type of ['churner', 'colluder_ring', 'ban_colluder'] as const) {
    const row = rows.get(type)!;
    for (const j of joinsBy(type)) {
      if (
        !j.hasLeft ||
        j.leftReason !== 'leave' ||
        !j.coinsAwarded ||
        j.verifiedAt === null ||
        j.leftAt === null
      )
        continue;
      // Leaving a campaign canceled before the leave costs nothing (issue 12 item 4).
      const canceledAt = campaignById.get(j.campaignId)?.canceledAt ?? null;
      if (canceledAt !== null && canceledAt <= j.leftAt) continue;
      const early = j.leftAt < j.verifiedAt + (j.minStayMs ?? 0);
      if (early && !j.penalized) {
        row.abuseWins += 1;
        row.abuseCoins += j.penaltyCents ?? 0;
      }
    }
  }
  // Colluders: a removal excused as a kick must be one the owner really made (the member's own leave is not).
  const colluderRow = rows.get('colluder_ring')!;
  for (const j of joinsBy('colluder_ring')) {
    if (j.hasLeft && j.leftReason !== 'leave' && j.leftReason !== 'kick') {
      colluderRow.abuseWins += 1;
      colluderRow.abuseCoins += j.penaltyCents ?? 0;
    }
  }
  // Alt rings: campaigns listed by an account for a guild it does not own, and paid same-address joins
  // beyond the cap of each campaign.
  const altRow = rows.get('alt_ring')!;
  const cap = app.server.ctx.config.sameAddress.maxPaidJoins;
  for (const actor of facts.actors.filter((a) => a.type === 'alt_ring' && a.ringOwner)) {
    const listed = campaignRows.filter((c) => actor.userIds.includes(c.ownerId));
    altRow.abuseWins += listed.length;
  }
  const paidSameAddress = new Map<string, number>();
  for (const j of joinsBy('alt_ring')) {
    if (!j.coinsAwarded || !j.sameAddress) continue;
    paidSameAddress.set(j.campaignId, (paidSameAddress.get(j.campaignId) ?? 0) + 1);
  }
  for (const [campaignId, paid] of paidSameAddress) {
    if (paid > cap) {
      altRow.abuseWins += paid - cap;
      altRow.abuseCoins += (paid - cap) * (campaignById.get(campaignId)?.coinReward ?? 0);
    }
  }

  // ---- invariants ----
  const timedLedger = txs.filter((t) => t.type === 'hourly' || t.type === 'bonus' || t.type === 'daily');
  const timedAnswered = facts.actors.reduce((sum, a) => sum + a.timedClaimed, 0);
  const timedSum = timedLedger.reduce((sum, t) => sum + t.amount, 0);
  check(
    'timed rewards: the ledger holds exactly the claims answered 200',
    timedSum === timedAnswered,
    `${timedSum} in the ledger, ${timedAnswered} answered`,
  );
  const mismatches = findLedgerMismatchesSync(sqlite);
  check(
    'ledger: balance == sum(transactions) for every user',
    mismatches.length === 0,
    `${mismatches.length} mismatch(es)`,
  );

  // One reward per join, and each paid join has exactly its frozen reward in the ledger.
  const rewardTx = db
    .select()
    .from(transactions)
    .all()
    .filter((t) => t.type === 'join_reward' || t.type === 'nobot_reward');
  const paidJoins = joins.filter((j) => j.coinsAwarded && (j.rewardCents ?? 0) > 0);
  const byKey = new Map<string, number>();
  for (const t of rewardTx)
    if (t.idempotencyKey) byKey.set(t.idempotencyKey, (byKey.get(t.idempotencyKey) ?? 0) + 1);
  const doublePaid = paidJoins.filter(
    (j) => (byKey.get(`join:${j.id}`) ?? 0) + (byKey.get(`nobot:${j.id}`) ?? 0) !== 1,
  );
  const rewardSum = rewardTx.reduce((s, t) => s + t.amount, 0);
  const frozenSum = paidJoins.reduce((s, j) => s + (j.rewardCents ?? 0), 0);
  check(
    'one reward per paid join, equal to its frozen reward',
    doublePaid.length === 0 && rewardTx.length === paidJoins.length && rewardSum === frozenSum,
    `${rewardTx.length} reward rows for ${paidJoins.length} paid joins; ${doublePaid.length} join(s) without exactly one; ${rewardSum} vs ${frozenSum}`,
  );

  // No overdraft: replaying each user's ledger, only a leave penalty may take a balance below zero.
  const overdrafts: string[] = [];
  const running = new Map<string, number>();
  for (const t of txs) {
    const next = (running.get(t.userId) ?? 0) + t.amount;
    if (next < 0 && t.amount < 0 && t.type !== 'leave_penalty')
      overdrafts.push(`${actorOf.get(t.userId)?.name}: ${t.type} ${t.amount} → ${next}`);
    running.set(t.userId, next);
  }
  check(
    'no spend overdraws a balance (only penalties make debt)',
    overdrafts.length === 0,
    `${overdrafts.length} overdraft(s)${overdrafts.length ? `: ${overdrafts.slice(0, 3).join('; ')}` : ''}`,
  );

  // Owner costs: each campaign's debit is its slots × the kind's cost (+ the promotion), and it paid
  // no more members than it bought slots; the slots left are bought − held.
  let costMismatch = 0;
  let slotMismatch = 0;
  const spendTx = db
    .select()
    .from(transactions)
    .all()
    .filter((t) => t.type === 'campaign' || t.type === 'promote');
  const spendByOwner = new Map<string, number>();
  for (const t of spendTx) spendByOwner.set(t.userId, (spendByOwner.get(t.userId) ?? 0) - t.amount);
  const expectedByOwner = new Map<string, number>();
  /** Coins that reached each guild's campaigns (slots × cost + promotions), whoever spent them. */
  const reachingByGuild = new Map<string, number>();
  for (const c of campaignRows) {
    if (c.initialMemberSlots === 0 && c.featuredAt === null) continue;
    const promoted = c.featuredAt !== null ? PROMOTION.costCoins * 100 : 0;
    // A promotion adds its slots to initialMemberSlots? Count bought slots from the campaign debit instead.
    const regularSlots = c.initialMemberSlots - (c.featuredAt !== null ? PROMOTION.slots : 0);
    const cost =
      regularSlots * CAMPAIGN_KIND_RULES[c.kind === 'nobot' ? 'nobot' : 'regular'].costPerSlotCents +
      promoted;
    expectedByOwner.set(c.ownerId, (expectedByOwner.get(c.ownerId) ?? 0) + cost);
    const guildId = c.guildId ?? c.inviteGuildId;
    if (guildId) reachingByGuild.set(guildId, (reachingByGuild.get(guildId) ?? 0) + cost);
    const campaignJoins = joins.filter((j) => j.campaignId === c.id);
    const paid = campaignJoins.filter((j) => j.coinsAwarded && (j.rewardCents ?? 0) > 0).length;
    const returned = campaignJoins.filter((j) => j.penalized).length;
    // A canceled campaign (its owner deleted the account) keeps no slots.
    const left = c.canceledAt !== null ? 0 : c.initialMemberSlots - paid + returned;
    if (paid - returned > c.initialMemberSlots || c.membersRemaining !== left) slotMismatch += 1;
  }
  for (const [ownerId, expected] of expectedByOwner)
    if ((spendByOwner.get(ownerId) ?? 0) !== expected) costMismatch += 1;
  check(
    'owners paid exactly slots × cost (+ promotions)',
    costMismatch === 0,
    `${costMismatch} owner(s) off`,
  );
  check(
    'slots: paid members held ≤ slots bought, and slots left = bought − held',
    slotMismatch === 0,
    `${slotMismatch} campaign(s) off, of ${campaignRows.length}`,
  );

  // Funnels (issue 29 item 2): the coins that reach a guild's campaigns come from its real owner (the
  // Discord owner): no more than that owner ever earned or bought. Managers who do not own the guild
  // (here throwaway accounts) must not be a way around the owner's own faucet.
  const ownerOfGuild = new Map<string, Actor>();
  for (const actor of facts.actors) {
    if (actor.ownGuild) ownerOfGuild.set(actor.ownGuild.id, actor);
    if (actor.ownNoBotGuild) ownerOfGuild.set(actor.ownNoBotGuild.id, actor);
  }
  const earned = new Map<string, number>();
  for (const t of txs) if (t.amount > 0) earned.set(t.userId, (earned.get(t.userId) ?? 0) + t.amount);
  const funnelled: string[] = [];
  for (const [guildId, reaching] of reachingByGuild) {
    const owner = ownerOfGuild.get(guildId);
    const ownerEarned = owner ? owner.userIds.reduce((sum, id) => sum + (earned.get(id) ?? 0), 0) : 0;
    if (reaching > ownerEarned) funnelled.push(`${owner?.name ?? guildId}: ${reaching} > ${ownerEarned}`);
  }
  check(
    "coins reaching a guild's campaigns ≤ what its real owner earned",
    funnelled.length === 0,
    `${funnelled.length} guild(s) over${funnelled.length ? `: ${funnelled.slice(0, 3).join('; ')}` : ''}`,
  );

  // ---- per type ----
  for (const row of rows.values()) {
    const abuser = row.type !== 'honest_member' && row.type !== 'honest_owner';
    check(
      `${ACTOR_LABELS[row.type]}: created ≤ allowed`,
      row.created <= row.allowed,
      `${row.created} ≤ ${row.allowed}`,
    );
    if (abuser) {
      check(
        `${ACTOR_LABELS[row.type]}: abuse channel yields nothing`,
        row.abuseCoins === 0 && row.abuseWins === 0 && row.abuseAttempts > 0,
        `${row.abuseWins} of ${row.abuseAttempts} attempts accepted, ${row.abuseCoins} coins`,
      );
      check(
        `${ACTOR_LABELS[row.type]}: nothing beyond the honest faucet`,
        row.created <= row.faucet,
        `${row.created} ≤ ${row.faucet}`,
      );
    }
  }
  const honest = rows.get('honest_member')!;
  check(
    'honest members are paid for real joins and never penalised',
    honest.joinRewards > 0 && honest.nobotRewards > 0 && honest.penalties === 0,
    `join ${honest.joinRewards}, no-bot ${honest.nobotRewards}, penalties ${honest.penalties}`,
  );
  check(
    'every round completed (no stuck bot effect, no unexpected answer)',
    facts.failures.length === 0,
    facts.failures.slice(0, 5).join('; ') || 'none',
  );

  return {
    seed: facts.options.seed,
    mode: facts.options.mode,
    simulatedMs: facts.simulatedMs,
    wallMs: facts.wallMs,
    rounds: facts.rounds,
    stoppedByWallClock: facts.stoppedByWallClock,
    requests: facts.requests,
    rows: [...rows.values()],
    checks,
    ok: checks.every((c) => c.ok),
  };
}
