import {
  AuditLogEvent,
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  type Guild,
  type GuildAuditLogsEntry,
  type GuildBan,
  type GuildMember,
} from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { shardOf } from './gateway.ts';
import {
  DEFAULT_SIM_BOT_TOKEN,
  startDiscordSimulator,
  type DiscordSimulator,
  type SimGuild,
} from './index.ts';

// Gateway behaviour a bot meets on Discord: close codes, shard routing, op 7 Reconnect with resume,
// and the GuildModeration events (audit-log entries, bans), late when Discord writes them late.

let sim: DiscordSimulator & { url: string };
let guild: SimGuild;
let ownerId: string;
const clients: Client[] = [];

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  ownerId = sim.state.createUser({ username: 'gw_owner' }).id;
  guild = sim.state.createGuild({ name: 'Gateway realism', ownerId });
});
afterAll(() => sim.close());
afterEach(async () => {
  sim.state.unreliable.reset();
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
});

async function connect(intents: number[]): Promise<Client> {
  const client = new Client({
    intents,
    partials: [Partials.GuildMember, Partials.User],
    rest: { api: `${sim.url}/api` },
  });
  clients.push(client);
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(DEFAULT_SIM_BOT_TOKEN);
  await ready;
  return client;
}

/** A raw socket: HELLO, then our IDENTIFY; resolves with the close code (or 'ready'). */
function identifyRaw(d: Record<string, unknown>): Promise<number | 'ready'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
    ws.on('message', (raw: Buffer) => {
      const frame = JSON.parse(raw.toString()) as { op: number; t: string | null };
      if (frame.op === 10)
        ws.send(
          JSON.stringify({
            op: 2,
            d: { properties: { os: 'linux', browser: 'test', device: 'test' }, ...d },
          }),
        );
      if (frame.t === 'READY') {
        ws.close();
        resolve('ready');
      }
    });
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

let username = 0;
const newUser = () => sim.state.createUser({ username: `gw_user_${(username += 1)}` }).id;

describe('close codes', () => {
  const base = { token: DEFAULT_SIM_BOT_TOKEN, intents: GatewayIntentBits.Guilds };

  it('4004 for a bad token, 4013 for unknown intent bits, 4014 for a privileged intent not enabled, 4010 for a bad shard', async () => {
    expect(await identifyRaw({ ...base, token: 'nope' })).toBe(4004);
    expect(await identifyRaw({ ...base, intents: 1 << 30 })).toBe(4013);
    sim.state.gateway.allowedPrivilegedIntents = 0;
    try {
      expect(
        await identifyRaw({ ...base, intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers }),
      ).toBe(4014);
      expect(await identifyRaw(base)).toBe('ready'); // non-privileged intents need nothing
    } finally {
      sim.state.gateway.allowedPrivilegedIntents = (1 << 1) | (1 << 8) | (1 << 15);
    }
    expect(await identifyRaw({ ...base, shard: [2, 2] })).toBe(4010);
  });

  it('4011 past the configurable guilds-per-shard threshold, only for the shards over it', async () => {
    const extra = sim.state.createGuilds({ count: 4, ownerId, namePrefix: 'Threshold' });
    const saved = sim.state.gateway.maxGuildsPerShard;
    sim.state.gateway.maxGuildsPerShard = 3;
    try {
      expect(await identifyRaw(base)).toBe(4011); // 5 guilds on one shard
      // Two shards: ids 1 ms apart alternate, so each shard holds at most 3.
      expect(await identifyRaw({ ...base, shard: [0, 2] })).toBe('ready');
      expect(await identifyRaw({ ...base, shard: [1, 2] })).toBe('ready');
    } finally {
      sim.state.gateway.maxGuildsPerShard = saved;
      for (const g of extra) sim.state.deleteGuild(g.id);
    }
  });

  it('discord.js gives up on 4013 (it never retries a fatal code)', async () => {
    // An intent bit Discord does not define: what a broken build could send.
    const client = new Client({ intents: 1 << 30, rest: { api: `${sim.url}/api` } });
    clients.push(client);
    const disconnected = new Promise<number>((resolve) =>
      client.once(Events.ShardDisconnect, (e) => resolve(e.code)),
    );
    void client.login(DEFAULT_SIM_BOT_TOKEN).catch(() => undefined);
    expect(await disconnected).toBe(4013);
  });
});

describe('shards', () => {
  it('sends each guild only to its shard, (guild_id >> 22) % num_shards', async () => {
    const many = sim.state.createGuilds({ count: 10, ownerId, namePrefix: 'Spread' });
    try {
      const shards = await Promise.all(
        [0, 1].map(async (shard) => {
          const client = new Client({
            intents: [GatewayIntentBits.Guilds],
            shards: [shard],
            shardCount: 2,
            rest: { api: `${sim.url}/api` },
          });
          clients.push(client);
          const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
          await client.login(DEFAULT_SIM_BOT_TOKEN);
          await ready;
          return new Set(client.guilds.cache.keys());
        }),
      );
      for (const g of [...many, guild]) {
        const home = shardOf(g.id, 2);
        expect(shards[home]!.has(g.id), `${g.id} on shard ${home}`).toBe(true);
        expect(shards[1 - home]!.has(g.id)).toBe(false);
      }
    } finally {
      for (const g of many) sim.state.deleteGuild(g.id);
    }
  });
});

describe('op 7 Reconnect', () => {
  it('makes discord.js reconnect and resume, with events around it delivered exactly once', async () => {
    const client = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers]);
    const seen = new Map<string, number>();
    client.on(Events.GuildMemberAdd, (m: GuildMember) => seen.set(m.id, (seen.get(m.id) ?? 0) + 1));
    const resumed = new Promise((resolve) => client.once(Events.ShardResume, resolve));
    const before = Array.from({ length: 3 }, newUser);
    const during = Array.from({ length: 5 }, newUser);
    for (const id of before) sim.state.addMember(guild.id, id);
    const reconnect = await fetch(`${sim.url}/control/gateway/reconnect`, { method: 'POST' });
    expect(reconnect.status).toBe(204);
    // Sent while the client is closing its socket: whatever it missed is replayed on RESUME.
    for (const id of during) sim.state.addMember(guild.id, id);
    await resumed;
    const after = newUser();
    sim.state.addMember(guild.id, after);
    await waitUntil(() => seen.has(after));
    for (const id of [...before, ...during, after]) expect(seen.get(id), id).toBe(1);
  });
});

describe('GuildModeration events', () => {
  it('dispatches GUILD_AUDIT_LOG_ENTRY_CREATE and GUILD_BAN_ADD only to sessions with the intent', async () => {
    const withIntent = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration]);
    const without = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers]);
    const entries: { action: AuditLogEvent; target: string | null }[] = [];
    const bans: string[] = [];
    let leaked = 0;
    withIntent.on(Events.GuildAuditLogEntryCreate, (e: GuildAuditLogsEntry, g: Guild) => {
      if (g.id === guild.id) entries.push({ action: e.action, target: e.targetId });
    });
    withIntent.on(Events.GuildBanAdd, (b: GuildBan) => bans.push(b.user.id));
    without.on(Events.GuildAuditLogEntryCreate, () => (leaked += 1));
    without.on(Events.GuildBanAdd, () => (leaked += 1));

    const kicked = newUser();
    const banned = newUser();
    for (const id of [kicked, banned]) sim.state.addMember(guild.id, id);
    sim.state.removeMember(guild.id, kicked, { reason: 'kick', actorId: ownerId });
    sim.state.removeMember(guild.id, banned, { reason: 'ban', actorId: ownerId });
    await waitUntil(() => entries.length === 2 && bans.length === 1);
    expect(entries).toEqual([
      { action: AuditLogEvent.MemberKick, target: kicked },
      { action: AuditLogEvent.MemberBanAdd, target: banned },
    ]);
    expect(bans).toEqual([banned]);
    // Both sessions get a later event the same way, so nothing else is in flight for `without`.
    const marker = newUser();
    const markerSeen = new Promise((resolve) => without.once(Events.GuildMemberAdd, resolve));
    sim.state.addMember(guild.id, marker);
    await markerSeen;
    expect(leaked).toBe(0);
  });

  it('sends a late audit entry (REST and gateway) only once it is written', async () => {
    const client = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration]);
    sim.state.unreliable.configure({ auditDelayMs: 300 });
    const kicked = newUser();
    sim.state.addMember(guild.id, kicked);
    let arrived = false;
    client.on(Events.GuildAuditLogEntryCreate, (e: GuildAuditLogsEntry) => {
      if (e.targetId === kicked) arrived = true;
    });
    sim.state.removeMember(guild.id, kicked, { reason: 'kick', actorId: ownerId });
    const visible = () => sim.state.listAudit(guild.id, { targetId: kicked }).length;
    expect(visible()).toBe(0);
    expect(arrived).toBe(false);
    await waitUntil(() => arrived);
    expect(visible()).toBe(1);
  });
});

async function waitUntil(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
