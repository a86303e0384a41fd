import {
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  Partials,
  type GuildMember,
  type PartialGuildMember,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUILDS, DEMO_USERS } from './demo-data.ts';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';
import { GUILD_MEMBERS_INTENT } from './state.ts';

type Sim = DiscordSimulator & { url: string };

/** Resolves with the first emitted value satisfying `filter`, or rejects after `ms`. */
function waitFor<T extends unknown[]>(
  client: Client,
  event: string,
  filter: (...args: T) => boolean = () => true,
  ms = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`timed out waiting for ${event}`));
    }, ms);
    const listener = (...args: unknown[]) => {
      if (!filter(...(args as T))) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args as T);
    };
    client.on(event, listener);
  });
}

let sim: Sim;
let client: Client;
const [pixel, , , , indie] = DEMO_GUILDS;
const [alex, sam, jordan, riley, casey] = DEMO_USERS;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  // These tests use member events and lists: the application has the Server Members intent enabled.
  sim.state.gateway.allowedPrivilegedIntents = GUILD_MEMBERS_INTENT;
  sim.state.seedDemo();
  client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    partials: [Partials.GuildMember, Partials.User],
    rest: { api: `${sim.url}/api` },
  });
  const ready = waitFor(client, Events.ClientReady);
  await client.login('sim-bot-token');
  await ready;
});

afterAll(async () => {
  await client?.destroy();
  await sim?.close();
});

describe('discord.js 14 against the simulator gateway', () => {
  it('becomes ready with the guilds the bot is in', () => {
    expect(client.user?.id).toBe(sim.state.botId);
    expect(client.user?.bot).toBe(true);
    const ids = [...client.guilds.cache.keys()].sort();
    expect(ids).toEqual(
      DEMO_GUILDS.filter((g) => g.botMember)
        .map((g) => g.id)
        .sort(),
    );
    const guild = client.guilds.cache.get(pixel.id);
    expect(guild?.name).toBe('Pixel Raiders');
    expect(guild?.memberCount).toBe(4); // alex, sam, riley + bot
    expect(guild?.ownerId).toBe(alex.id);
  });

  it('emits guildMemberAdd and guildMemberRemove for control API changes', async () => {
    const added = waitFor<[GuildMember]>(client, Events.GuildMemberAdd);
    const res = await fetch(`${sim.url}/control/guilds/${pixel.id}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: casey.id }),
    });
    expect(res.status).toBe(201);
    const [member] = await added;
    expect(member.id).toBe(casey.id);
    expect(member.guild.id).toBe(pixel.id);
    expect(member.user.username).toBe('casey');
    expect(member.joinedTimestamp).toBeGreaterThan(0);

    const removed = waitFor<[GuildMember | PartialGuildMember]>(client, Events.GuildMemberRemove);
    const del = await fetch(`${sim.url}/control/guilds/${pixel.id}/members/${casey.id}?reason=kick`, {
      method: 'DELETE',
    });
    expect(del.status).toBe(204);
    const [gone] = await removed;
    expect(gone.id).toBe(casey.id);
  });

  it('delivers removals of members it never cached as partials (like real Discord)', async () => {
    // Seeded members are not in GUILD_CREATE without the presences intent.
    const removed = waitFor<[GuildMember | PartialGuildMember]>(client, Events.GuildMemberRemove);
    sim.state.removeMember(pixel.id, riley.id, { reason: 'leave' });
    const [gone] = await removed;
    expect(gone.id).toBe(riley.id);
    expect(gone.partial).toBe(true);
  });

  it('redispatches GUILD_MEMBER_ADD for an existing member only when asked', async () => {
    const events: string[] = [];
    const listener = (m: GuildMember) => events.push(m.id);
    client.on(Events.GuildMemberAdd, listener);
    const again = waitFor<[GuildMember]>(client, Events.GuildMemberAdd);
    expect(sim.state.addMember(pixel.id, sam.id)).toBe(false);
    sim.state.addMember(pixel.id, sam.id, { redispatch: true });
    await again;
    client.off(Events.GuildMemberAdd, listener);
    expect(events).toEqual([sam.id]);
  });

  it('fetches members and sends DMs over REST', async () => {
    const guild = client.guilds.cache.get(pixel.id)!;
    const member = await guild.members.fetch({ user: alex.id, force: true });
    expect(member.user.username).toBe('alex');
    await expect(guild.members.fetch({ user: jordan.id, force: true })).rejects.toMatchObject({
      code: 10007,
    });

    const message = await client.users.send(jordan.id, {
      content: 'Hello from the bot',
      embeds: [{ title: 'Hi' }],
    });
    expect(message.content).toBe('Hello from the bot');
    expect(sim.state.listDms({ userId: jordan.id })).toMatchObject([
      { recipientId: jordan.id, content: 'Hello from the bot', embeds: [{ title: 'Hi' }] },
    ]);

    sim.state.setAcceptsDms(riley.id, false);
    const err = await client.users.send(riley.id, 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect((err as DiscordAPIError).code).toBe(50007);
  });

  it('fetches all members through the gateway (op 8)', async () => {
    const guild = client.guilds.cache.get(pixel.id)!;
    const members = await guild.members.fetch();
    expect([...members.keys()].sort()).toEqual(
      [...Object.keys(sim.state.requireGuild(pixel.id).members), sim.state.botId].sort(),
    );
  });

  it('gets GUILD_CREATE when the bot is added and GUILD_DELETE when removed', async () => {
    const created = waitFor(client, Events.GuildCreate, (g: { id: string }) => g.id === indie.id);
    sim.state.setBotInGuild(indie.id, true);
    await created;
    expect(client.guilds.cache.has(indie.id)).toBe(true);

    const deleted = waitFor(client, Events.GuildDelete, (g: { id: string }) => g.id === indie.id);
    await fetch(`${sim.url}/control/guilds/${indie.id}/bot`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ present: false }),
    });
    await deleted;
    expect(client.guilds.cache.has(indie.id)).toBe(false);
  });

  it('loses events while offline and resumes when the gateway is back', async () => {
    const reconnecting = waitFor(client, Events.ShardReconnecting);
    sim.state.setGatewayOnline(false);
    await reconnecting;

    const missed: string[] = [];
    const listener = (m: GuildMember) => missed.push(m.id);
    client.on(Events.GuildMemberAdd, listener);
    sim.state.addMember(pixel.id, riley.id); // happens while the bot is offline
    await new Promise((r) => setTimeout(r, 300));
    expect(missed).toEqual([]);

    const resumed = waitFor(client, Events.ShardResume, () => true, 8000);
    sim.state.setGatewayOnline(true);
    await resumed;
    client.off(Events.GuildMemberAdd, listener);
    expect(missed).toEqual([]);

    const added = waitFor<[GuildMember]>(client, Events.GuildMemberAdd);
    sim.state.addMember(pixel.id, casey.id);
    expect((await added)[0].id).toBe(casey.id);
  }, 15000);
});

describe('gateway login failures', () => {
  it('rejects a wrong token like Discord (TokenInvalid)', async () => {
    const bad = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${sim.url}/api` } });
    await expect(bad.login('wrong-token')).rejects.toMatchObject({ code: 'TokenInvalid' });
    await bad.destroy();
  });
});
