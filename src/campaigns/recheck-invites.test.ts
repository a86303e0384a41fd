import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiServer } from '../shared/api-types.ts';
import { DiscordApi } from '../discord/discord-api.ts';
import { recheckInvites } from './recheck-invites.ts';
import { createGuildWithInvite, campaignsOf, signInWithCoins } from './test-support.ts';

let app: TestApp;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'health_owner', 95);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

const validity = async (id: string) => (await campaignsOf(app, owner)).find((s) => s.id === id)?.inviteValid;

describe('recheckInvites', () => {
  it('marks a dead invite invalid, leaves live ones alone, and restores it once the invite works again', async () => {
    const live = createGuildWithInvite(app, owner);
    const dying = createGuildWithInvite(app, owner);
    const a = (
      await owner.post<ApiServer>('/api/servers', { name: 'Alive', inviteLink: live.link, coinReward: '5' })
    ).body;
    const b = (
      await owner.post<ApiServer>('/api/servers', { name: 'Dying', inviteLink: dying.link, coinReward: '5' })
    ).body;
    const nobot = (
      await owner.post<ApiServer>('/api/servers/no-bot', {
        name: 'Dying Quiet',
        inviteLink: dying.link,
        memberCount: '3',
      })
    ).body;

    expect(await recheckInvites(app.server.ctx)).toMatchObject({ checked: 3, invalidated: 0, restored: 0 });
    expect(await Promise.all([validity(a.id), validity(b.id), validity(nobot.id)])).toEqual([
      true,
      true,
      true,
    ]);

    // The owner deletes the invite on Discord.
    app.sim.state.invites.delete(dying.code);
    expect(await recheckInvites(app.server.ctx)).toMatchObject({ invalidated: 2, restored: 0 });
    expect(await Promise.all([validity(a.id), validity(b.id), validity(nobot.id)])).toEqual([
      true,
      false,
      false,
    ]);

    // ...and recreates it with the same code.
    app.sim.state.createInvite(dying.guild.id, { code: dying.code, maxAge: 0 });
    expect(await recheckInvites(app.server.ctx)).toMatchObject({ invalidated: 0, restored: 2 });
    expect(await validity(b.id)).toBe(true);
  });

  it('skips canceled campaigns and changes nothing when Discord is unreachable', async () => {
    const g = createGuildWithInvite(app, owner);
    const s = (
      await owner.post<ApiServer>('/api/servers', { name: 'Gone Soon', inviteLink: g.link, coinReward: '3' })
    ).body;
    await owner.delete(`/api/campaigns/${s.id}`);
    app.sim.state.invites.delete(g.code);
    await recheckInvites(app.server.ctx);
    expect(await validity(s.id)).toBe(true);

    const other = createGuildWithInvite(app, owner);
    const t = (
      await owner.post<ApiServer>('/api/servers', {
        name: 'Outage Safe',
        inviteLink: other.link,
        coinReward: '3',
      })
    ).body;
    app.sim.state.invites.delete(other.code);
    const down = {
      ...app.server.ctx,
      discord: new DiscordApi({ baseUrl: 'http://127.0.0.1:9', botToken: 'x' }),
    };
    const result = await recheckInvites(down);
    expect(result.failed).toBeGreaterThan(0);
    expect(result.invalidated).toBe(0);
    expect(await validity(t.id)).toBe(true);
  });

  it('keeps an invite the owner replaced while Discord was answering about the old one', async () => {
    const g = createGuildWithInvite(app, owner);
    const s = (
      await owner.post<ApiServer>('/api/servers', { name: 'Swapped', inviteLink: g.link, coinReward: '3' })
    ).body;
    app.sim.state.invites.delete(g.code);
    const fresh = app.sim.state.createInvite(g.guild.id, { maxAge: 0 });
    // Discord's answer about the old code (dead) is on its way when the owner puts the new one in.
    const discord = app.server.ctx.discord;
    const slow = Object.create(discord) as typeof discord;
    slow.getInvite = async (code) => {
      const answer = await discord.getInvite(code);
      if (code === g.code) {
        const res = await owner.post(`/api/campaigns/${s.id}/invite`, {
          inviteLink: `https://discord.gg/${fresh.code}`,
        });
        expect(res.status).toBe(200);
      }
      return answer;
    };
    await recheckInvites({ ...app.server.ctx, discord: slow });
    expect(await validity(s.id)).toBe(true);
    // The next run asks about the new invite, which works.
    await recheckInvites(app.server.ctx);
    expect(await validity(s.id)).toBe(true);
  });

  it('treats an invite that now points at another server as dead', async () => {
    const first = createGuildWithInvite(app, owner);
    const s = (
      await owner.post<ApiServer>('/api/servers', { name: 'Moved', inviteLink: first.link, coinReward: '3' })
    ).body;
    const elsewhere = createGuildWithInvite(app, owner);
    app.sim.state.invites.delete(first.code);
    app.sim.state.createInvite(elsewhere.guild.id, { code: first.code, maxAge: 0 });
    await recheckInvites(app.server.ctx);
    expect(await validity(s.id)).toBe(false);
  });
});
