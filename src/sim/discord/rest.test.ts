import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUILDS, DEMO_USERS } from './demo-data.ts';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';
import { GUILD_MEMBERS_INTENT } from './state.ts';

let sim: DiscordSimulator & { url: string };
const BOT = { authorization: 'Bot sim-bot-token' };
const [pixel, lofi, , , indie] = DEMO_GUILDS;
const [alex, sam, jordan, riley, casey] = DEMO_USERS;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  // These tests use member events and lists: the application has the Server Members intent enabled.
  sim.state.gateway.allowedPrivilegedIntents = GUILD_MEMBERS_INTENT;
  const seeded = await fetch(`${sim.url}/control/seed-demo`, { method: 'POST' });
  expect(seeded.status).toBe(200);
});
afterAll(async () => {
  await sim.close();
});

async function api(path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers ?? BOT);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${sim.url}/api/v10${path}`, { ...init, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('bot REST', () => {
  it('requires the bot token', async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bot wrong' },
      { authorization: 'sim-bot-token' },
    ];
    for (const headers of cases) {
      expect(await api(`/guilds/${pixel.id}`, { headers })).toEqual({
        status: 401,
        body: { message: '401: Unauthorized', code: 0 },
      });
    }
    const gw = await api('/gateway/bot');
    expect(gw.body).toMatchObject({ url: sim.url.replace('http', 'ws') + '/gateway', shards: 1 });
    expect((await api('/users/@me')).body).toMatchObject({ id: sim.state.botId, bot: true });
  });

  it('serves /api without the version prefix and 404s unknown routes', async () => {
    const res = await fetch(`${sim.url}/api/invites/pixel-raiders`);
    expect(res.status).toBe(200);
    expect(await api('/nope')).toEqual({ status: 404, body: { message: '404: Not Found', code: 0 } });
  });

  it('resolves invites with counts and 404s unknown or expired ones', async () => {
    const res = await api('/invites/pixel-raiders?with_counts=true');
    expect(res.body).toMatchObject({
      type: 0,
      code: 'pixel-raiders',
      guild: { id: pixel.id, name: 'Pixel Raiders', icon: null, features: [] },
      channel: { type: 0 },
      expires_at: null,
      approximate_member_count: 4,
    });
    expect(await api('/invites/missing')).toEqual({
      status: 404,
      body: { message: 'Unknown Invite', code: 10006 },
    });

    const temp = sim.state.createInvite(lofi.id, { maxAge: 3600 });
    const t = await api(`/invites/${temp.code}`);
    expect(Date.parse(String(t.body?.expires_at))).toBeGreaterThan(Date.now());
    temp.expiresAt = new Date(Date.now() - 1000).toISOString();
    expect((await api(`/invites/${temp.code}`)).status).toBe(404);
  });

  it('gets guilds and members with Discord error codes', async () => {
    expect((await api(`/guilds/${pixel.id}`)).body).toMatchObject({ id: pixel.id, owner_id: alex.id });
    expect(await api('/guilds/999999999999999999')).toEqual({
      status: 404,
      body: { message: 'Unknown Guild', code: 10004 },
    });
    // Since 2023 Discord answers 10004 for a guild the bot is not in, too (discord-api-docs #5840).
    expect(await api(`/guilds/${indie.id}`)).toEqual({
      status: 404,
      body: { message: 'Unknown Guild', code: 10004 },
    });
    const member = await api(`/guilds/${pixel.id}/members/${sam.id}`);
    expect(member.body).toMatchObject({
      user: { id: sam.id, username: 'sam' },
      nick: null,
      roles: [],
      deaf: false,
      mute: false,
      flags: 0,
    });
    expect(typeof member.body?.joined_at).toBe('string');
    expect(await api(`/guilds/${pixel.id}/members/${jordan.id}`)).toEqual({
      status: 404,
      body: { message: 'Unknown Member', code: 10007 },
    });
    const list = await api(`/guilds/${pixel.id}/members?limit=1000`);
    expect(list.body).toHaveLength(4);
  });

  it('adds, kicks and bans members with audit log entries', async () => {
    expect((await api(`/guilds/${pixel.id}/members/${casey.id}`, { method: 'PUT', json: {} })).status).toBe(
      201,
    );
    expect((await api(`/guilds/${pixel.id}/members/${casey.id}`, { method: 'PUT', json: {} })).status).toBe(
      204,
    );
    const kick = await api(`/guilds/${pixel.id}/members/${casey.id}`, {
      method: 'DELETE',
      headers: { ...BOT, 'x-audit-log-reason': encodeURIComponent('spam bot') },
    });
    expect(kick.status).toBe(204);
    expect((await api(`/guilds/${pixel.id}/members/${casey.id}`, { method: 'DELETE' })).body).toMatchObject({
      code: 10007,
    });

    expect((await api(`/guilds/${pixel.id}/bans/${riley.id}`, { method: 'PUT', json: {} })).status).toBe(204);
    expect((await api(`/guilds/${pixel.id}/members/${riley.id}`)).status).toBe(404);
    expect(() => sim.state.addMember(pixel.id, riley.id)).toThrow(/banned/);
    sim.state.removeMember(pixel.id, sam.id, { reason: 'leave' }); // leaving writes no audit entry

    const all = await api(`/guilds/${pixel.id}/audit-logs`);
    expect(all.body?.audit_log_entries).toMatchObject([
      { action_type: 22, target_id: riley.id, user_id: sim.state.botId, changes: [] },
      { action_type: 20, target_id: casey.id, user_id: sim.state.botId, reason: 'spam bot' },
    ]);
    const kicks = await api(`/guilds/${pixel.id}/audit-logs?action_type=20&limit=1`);
    expect(kicks.body?.audit_log_entries).toHaveLength(1);
    expect((kicks.body?.users as { id: string }[]).map((u) => u.id).sort()).toEqual(
      [casey.id, sim.state.botId].sort(),
    );
  });

  it('writes audit entries for state kicks with an actor', () => {
    sim.state.removeMember(lofi.id, jordan.id, { reason: 'kick', actorId: sam.id });
    expect(sim.state.listAudit(lofi.id, { actionType: 20 })[0]).toMatchObject({
      targetId: jordan.id,
      userId: sam.id,
    });
  });

  it('opens DM channels and records messages; 50007 when DMs are closed', async () => {
    const channel = await api('/users/@me/channels', { method: 'POST', json: { recipient_id: alex.id } });
    expect(channel.body).toMatchObject({ type: 1, recipients: [{ id: alex.id }] });
    const channelId = String(channel.body?.id);
    const msg = await api(`/channels/${channelId}/messages`, {
      method: 'POST',
      json: { content: 'hi', embeds: [{ title: 't' }] },
    });
    expect(msg.body).toMatchObject({ channel_id: channelId, content: 'hi', author: { id: sim.state.botId } });
    expect((await api(`/channels/${channelId}/messages`, { method: 'POST', json: {} })).body).toMatchObject({
      code: 50006,
    });
    expect(
      (await api('/channels/1/messages', { method: 'POST', json: { content: 'x' } })).body,
    ).toMatchObject({ code: 10003 });

    await fetch(`${sim.url}/control/users/${alex.id}/dms`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accepts: false }),
    });
    expect(
      await api(`/channels/${channelId}/messages`, { method: 'POST', json: { content: 'blocked' } }),
    ).toEqual({
      status: 403,
      body: { message: 'Cannot send messages to this user', code: 50007 },
    });
    const dms = (await (await fetch(`${sim.url}/control/dms?userId=${alex.id}`)).json()) as {
      content: string;
    }[];
    expect(dms.map((d) => d.content)).toEqual(['hi']);
  });
});

describe('control API and pages', () => {
  it('creates users, guilds, invites and members; validates input', async () => {
    const post = (path: string, json: unknown) =>
      fetch(`${sim.url}/control${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
    const user = (await (await post('/users', { username: 'dana' })).json()) as { id: string };
    expect((await (await post('/users', { username: 'dana' })).json()) as { id: string }).toMatchObject({
      id: user.id,
    });
    const guild = (await (await post('/guilds', { name: 'Test Guild', ownerId: user.id })).json()) as {
      id: string;
      botMember: boolean;
    };
    expect(guild.botMember).toBe(true);
    expect((await post('/guilds', { name: 'x' })).status).toBe(400);
    expect((await post(`/guilds/${guild.id}/invites`, { code: 'test-guild', maxAge: 0 })).status).toBe(201);
    expect((await post(`/guilds/${guild.id}/members`, { userId: casey.id })).status).toBe(201);
    expect((await post('/guilds/1/members', { userId: casey.id })).status).toBe(404);
    const del = await fetch(`${sim.url}/control/guilds/${guild.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await api('/invites/test-guild')).status).toBe(404);
  });

  it('serves the invite page and joins through it', async () => {
    const page = await fetch(`${sim.url}/invite/code-crafters?as=casey`);
    const text = await page.text();
    expect(text).toContain('Code Crafters');
    expect(text).toContain('Accept Invite');
    expect(text).toMatch(/value="100000000000000005"\s+selected/);
    const join = await fetch(`${sim.url}/invite/code-crafters`, {
      method: 'POST',
      body: new URLSearchParams({ user_id: casey.id }),
    });
    expect(await join.text()).toContain('You joined Code Crafters');
    expect(sim.state.requireGuild('200000000000000003').members[casey.id]).toBeDefined();

    const guildPage = await (await fetch(`${sim.url}/guilds/200000000000000003`)).text();
    expect(guildPage).toContain('Leave server');
    const leave = await fetch(`${sim.url}/guilds/200000000000000003/members/${casey.id}/leave`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(leave.status).toBe(303);
    expect(sim.state.requireGuild('200000000000000003').members[casey.id]).toBeUndefined();
    expect((await fetch(`${sim.url}/`)).status).toBe(200);
  });
});

describe('persistence', () => {
  it('survives a restart through statePath and seeds idempotently', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'discord-sim-'));
    const statePath = join(dir, 'state.json');
    try {
      const first = await startDiscordSimulator({ port: 0, statePath });
      first.state.seedDemo();
      first.state.createUser({ username: 'persisted' });
      await first.close();
      const second = await startDiscordSimulator({ port: 0, statePath });
      second.state.seedDemo();
      expect(second.state.findUserByUsername('persisted')).toBeDefined();
      expect(second.state.guilds.size).toBe(6);
      expect(second.state.findInvite('chill-gaming')?.guildId).toBe('200000000000000006');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
