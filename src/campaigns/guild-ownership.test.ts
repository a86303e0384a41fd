import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DAY } from '../clock.ts';
import { oauthTokens } from '../db/schema.ts';
import * as pg from '../db/schema.pg.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { decryptToken, deleteOAuthTokens, SIGN_IN_AGAIN } from '../auth/oauth-tokens.ts';
import { notManagerMessage } from '../auth/user-guilds.ts';
import { createGuildWithInvite, campaignsOf, signInWithCoins } from './test-support.ts';

// Issue 12 item 1: only a guild's owner or members with Manage Server can list or feature it, read from
// the member's own OAuth2 guild list; tokens are stored encrypted and refreshed when expired.

let app: TestApp;
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'own_owner', 300);
  stranger = await signInWithCoins(app, 'own_stranger', 300);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

const tokenRow = async (client: TestClient) => {
  const h = app.server.ctx.store.read;
  const userId = client.user!.id;
  if (h.kind === 'sqlite') return h.db.select().from(oauthTokens).where(eq(oauthTokens.userId, userId)).get();
  const [row] = await h.db.select().from(pg.oauthTokens).where(eq(pg.oauthTokens.userId, userId));
  return row;
};

describe('listing and featuring need ownership or Manage Server', () => {
  it('refuses a stranger (403 saying why) for regular, featured and no-bot submissions, and writes nothing', async () => {
    const { guild, link } = createGuildWithInvite(app, owner, { name: 'Owned Place' });
    app.sim.state.addMember(guild.id, stranger.user!.discordId);
    const before = await stranger.balanceCents();
    for (const [path, body] of [
      ['/api/servers', { name: 'Owned Place', inviteLink: link, coinReward: '10' }],
      ['/api/servers', { name: 'Owned Place', inviteLink: link, isFeaturedIntent: true }],
      ['/api/servers/no-bot', { name: 'Owned Place', inviteLink: link, memberCount: '10' }],
    ] as const) {
      const res = await stranger.post(path, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: notManagerMessage('Owned Place', 'list') });
    }
    expect(await campaignsOf(app, stranger)).toHaveLength(0);
    expect(await stranger.balanceCents()).toBe(before);
  });

  it('accepts a member with Manage Server, and refuses to feature once that permission is gone', async () => {
    const { guild, link } = createGuildWithInvite(app, owner, { name: 'Moderated Place' });
    app.sim.state.addMember(guild.id, stranger.user!.discordId);
    app.sim.state.setManageGuild(guild.id, stranger.user!.discordId, true);
    const listed = await stranger.post<{ id: string }>('/api/servers', {
      name: 'Moderated Place',
      inviteLink: link,
      coinReward: '5',
    });
    expect(listed.status).toBe(201);

    app.sim.state.setManageGuild(guild.id, stranger.user!.discordId, false);
    const before = await stranger.balanceCents();
    const promote = await stranger.post(`/api/servers/${listed.body.id}/promote`);
    expect(promote.status).toBe(403);
    expect(promote.body).toEqual({ message: notManagerMessage('Moderated Place', 'feature') });
    expect(await stranger.balanceCents()).toBe(before);
    expect((await campaignsOf(app, stranger))[0]).toMatchObject({ isFeatured: false, featuredRemaining: 0 });
  });

  it("a stranger's earlier campaign cannot block the real owner's promotion", async () => {
    const { guild, link } = createGuildWithInvite(app, owner, { name: 'Contested' });
    app.sim.state.addMember(guild.id, stranger.user!.discordId);
    const blocked = await stranger.post('/api/servers', {
      name: 'Contested',
      inviteLink: link,
      isFeaturedIntent: true,
    });
    expect(blocked.status).toBe(403);
    const mine = await owner.post<{ id: string }>('/api/servers', {
      name: 'Contested',
      inviteLink: link,
      isFeaturedIntent: true,
    });
    expect(mine.status).toBe(201);
    expect((await owner.post(`/api/servers/${mine.body.id}/promote`)).status).toBe(200);
  });
});

describe('OAuth tokens at rest', () => {
  it('stores the tokens encrypted (AES-256-GCM), never in plain text', async () => {
    const row = (await tokenRow(owner))!;
    const plain = decryptToken(app.server.ctx.config.tokenEncryptionKey, row.accessTokenEnc);
    expect(plain).toBeTruthy();
    expect(app.sim.state.tokens.has(plain!)).toBe(true);
    expect(row.accessTokenEnc).not.toContain(plain!);
    expect(row.refreshTokenEnc).toMatch(/^v1\./);
    // A flipped byte is detected, not decrypted into garbage.
    const tampered = row.accessTokenEnc.slice(0, -2) + (row.accessTokenEnc.endsWith('A') ? 'BB' : 'AA');
    expect(decryptToken(app.server.ctx.config.tokenEncryptionKey, tampered)).toBeNull();
  });

  it('refreshes an expired access token through the refresh_token grant', async () => {
    const member = await signInWithCoins(app, 'own_refresh', 50);
    const before = (await tokenRow(member))!;
    const oldAccess = decryptToken(app.server.ctx.config.tokenEncryptionKey, before.accessTokenEnc)!;
    // Inside the session's 7-day idle limit, inside the token's last minute (refreshed ahead of expiry).
    app.clock.advance(7 * DAY - 30_000);
    const { link } = createGuildWithInvite(app, member, { name: 'Fresh Token' });
    expect(
      (await member.post('/api/servers', { name: 'Fresh Token', inviteLink: link, coinReward: '3' })).status,
    ).toBe(201);
    const after = (await tokenRow(member))!;
    const newAccess = decryptToken(app.server.ctx.config.tokenEncryptionKey, after.accessTokenEnc)!;
    expect(newAccess).not.toBe(oldAccess);
    expect(after.expiresAt).toBeGreaterThan(app.clock.now());
    expect(app.sim.state.tokens.has(oldAccess)).toBe(false);
  });

  it('asks to sign in again once the tokens are deleted (sign-out everywhere, account deletion)', async () => {
    const member = await signInWithCoins(app, 'own_deleted', 50);
    await deleteOAuthTokens(app.server.ctx.store, member.user!.id);
    expect(await tokenRow(member)).toBeUndefined();
    const { link } = createGuildWithInvite(app, member, { name: 'No Token' });
    const res = await member.post('/api/servers', { name: 'No Token', inviteLink: link, coinReward: '3' });
    expect(res).toMatchObject({ status: 403, body: { message: SIGN_IN_AGAIN } });
  });
});
