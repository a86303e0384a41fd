import { Client, Events, GatewayIntentBits, type GuildMember } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUILDS, DEMO_USERS } from './demo-data.ts';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';
import { GUILD_MEMBERS_INTENT } from './state.ts';

// The simulator as a new real application meets Discord (issue 26): no privileged intent until the
// owner enables it in the developer portal. Without the Server Members intent: 4014 when asked for,
// no member events, the member list refused with Missing Access, single members still readable.

let sim: DiscordSimulator & { url: string };
let client: Client | null = null;
const [pixel] = DEMO_GUILDS;
const [alex, , , , casey] = DEMO_USERS;
const BOT = { authorization: 'Bot sim-bot-token' };

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  sim.state.seedDemo();
});
afterEach(async () => {
  await client?.destroy();
  client = null;
  sim.state.gateway.allowedPrivilegedIntents = 0;
});
afterAll(() => sim.close());

const api = async (path: string) => {
  const res = await fetch(`${sim.url}/api/v10${path}`, { headers: BOT });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function login(intents: GatewayIntentBits[]): Promise<Client> {
  client = new Client({ intents, rest: { api: `${sim.url}/api` } });
  await client.login('sim-bot-token');
  if (!client.isReady()) await new Promise((r) => client!.once(Events.ClientReady, r));
  return client;
}

describe('a new application: no privileged intent', () => {
  it('has none enabled by default', () => {
    expect(sim.state.gateway.allowedPrivilegedIntents).toBe(0);
  });

  it('closes 4014 on an identify with the Server Members intent', async () => {
    await expect(login([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers])).rejects.toThrow(
      /disallowed intents/i,
    );
  });

  it('refuses the member list (403 50001) but answers single members, with joined_at or 10007', async () => {
    expect(await api(`/guilds/${pixel.id}/members?limit=10`)).toEqual({
      status: 403,
      body: { message: 'Missing Access', code: 50001 },
    });
    const one = await api(`/guilds/${pixel.id}/members/${alex.id}`);
    expect(one.status).toBe(200);
    expect(Date.parse(String(one.body.joined_at))).toBeGreaterThan(0);
    expect(await api(`/guilds/${pixel.id}/members/${casey.id}`)).toEqual({
      status: 404,
      body: { message: 'Unknown Member', code: 10007 },
    });
  });

  it('sends no member events to a session without the intent; kicks still come as audit-log entries', async () => {
    const c = await login([GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration]);
    const added: string[] = [];
    c.on(Events.GuildMemberAdd, (m: GuildMember) => added.push(m.id));
    const audit = new Promise<string | null>((resolve) =>
      c.once(Events.GuildAuditLogEntryCreate, (entry) => resolve(entry.targetId)),
    );
    sim.state.addMember(pixel.id, casey.id);
    sim.state.removeMember(pixel.id, casey.id, { reason: 'kick', actorId: alex.id });
    expect(await audit).toBe(casey.id);
    expect(added).toEqual([]);
  });

  it('enabled in the portal: the list answers and member events flow', async () => {
    sim.state.gateway.allowedPrivilegedIntents = GUILD_MEMBERS_INTENT;
    expect((await api(`/guilds/${pixel.id}/members?limit=10`)).status).toBe(200);
    const c = await login([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers]);
    const added = new Promise<string>((resolve) => c.once(Events.GuildMemberAdd, (m) => resolve(m.id)));
    sim.state.addMember(pixel.id, casey.id);
    expect(await added).toBe(casey.id);
  });
});
