import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { insertCampaign, insertJoin, updateCampaign } from '../../test/factories.ts';
import { DAY, SECOND } from '../../clock.ts';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { JOIN_MESSAGES } from '../../shared/join-constants.ts';
import { balanceOf, createBotCampaign, findJoin, startBotTestApp, waitFor } from '../bot-test-kit.ts';
import { EPHEMERAL, buttons, commandsRegistered, createLobby, press, run, text } from './test-kit.ts';

// /farm, its Join / Claim / page buttons, /joins and /campaign, through discord.js and the simulator.

let app: TestApp;
let owner: TestClient;
let member: TestClient;
let webMember: TestClient;
let lobbyId: string;

beforeAll(async () => {
  app = await startBotTestApp();
  owner = await app.signIn('farm_owner');
  member = await app.signIn('farm_member');
  webMember = await app.signIn('farm_web');
  lobbyId = createLobby(app, owner, [member, webMember]).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

/** Cancels every campaign so each test sees only its own on /farm. */
async function clearCampaigns(): Promise<void> {
  await app.exec(sql`UPDATE servers SET canceled_at = ${app.clock.now()} WHERE canceled_at IS NULL`);
}

describe('/farm', () => {
  it('lists joinable servers with their reward and a Join button each; Join records the join exactly like the website', async () => {
    await clearCampaigns();
    const { guild, campaign } = await createBotCampaign(app, owner, { name: 'Pixel Raiders', slots: 3 });
    const farm = await run(app, member, 'farm', { guildId: lobbyId });
    expect(farm.callbacks).toEqual([4]);
    expect(farm.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(farm.reply.embeds[0]!.fields).toEqual([
      { name: '1. Pixel Raiders', value: '**+0.50 coins** · 3 slots left' },
    ]);
    expect(text(farm.reply)).toContain(
      'Stay 2 days (5 days for ★ featured servers) or 2.00 coins are taken back.',
    );
    const join = buttons(farm.reply).find((b) => b.custom_id === `farm:join:${campaign.id}`)!;
    expect(join.label).toBe('Join 1. Pixel Raiders');

    const pressed = await press(app, member, farm.reply, join.custom_id!);
    // Joining asks Discord whether the member is already in the guild: acknowledged first (5), then edited.
    expect(pressed.callbacks).toEqual([5]);
    expect(pressed.refused).toEqual([]);
    expect(pressed.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(pressed.reply.embeds[0]!.title).toBe('Almost there!');
    expect(buttons(pressed.reply)).toEqual([
      expect.objectContaining({ style: 5, label: 'Open invite', url: campaign.inviteLink }),
    ]);

    const viaBot = (await findJoin(app, campaign.id, member.user!.id))!;
    const web = await webMember.post<{ potentialReward: string; inviteLink: string }>(
      `/api/servers/${campaign.id}/join`,
    );
    expect(web.status).toBe(200);
    expect(web.body.inviteLink).toBe(campaign.inviteLink);
    const viaWeb = (await findJoin(app, campaign.id, webMember.user!.id))!;
    const shape = (j: typeof viaBot) => ({ ...j, id: 'x', userId: 'x' });
    expect(shape(viaBot)).toEqual(shape(viaWeb));
    expect(viaBot).toMatchObject({
      verified: false,
      coinsAwarded: false,
      hasLeft: false,
      joinedAt: app.clock.now(),
    });

    // Accepting the invite on Discord: the bot verifies and pays, as for a website join.
    const before = await balanceOf(app, member);
    app.sim.state.addMember(guild.id, member.user!.discordId);
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.coinsAwarded === true,
      5000,
      'verification',
    );
    expect(await balanceOf(app, member)).toBe(before + 50);

    // The server is joined: /farm no longer offers it, /joins shows it with its safe-to-leave time.
    const after = await run(app, member, 'farm');
    expect(text(after.reply)).not.toContain('Pixel Raiders');
    const joins = await run(app, member, 'joins', { guildId: lobbyId });
    const field = joins.reply.embeds[0]!.fields![0]!;
    const safe = Math.floor((app.clock.now() + 2 * DAY) / 1000);
    expect(field.name).toBe('Pixel Raiders');
    expect(field.value).toBe(`✓ Verified +0.50, stay until <t:${safe}:f>\nSafe to leave <t:${safe}:R>`);
    expect(buttons(joins.reply).map((b) => b.url)).toEqual([`${app.url}/joins`]);

    // A day later the owner's /campaign says how many of the paid members are still there (decision 054).
    app.clock.advance(DAY + SECOND);
    const owned = await run(app, owner, 'campaign', { guildId: lobbyId });
    const mine = owned.reply.embeds[0]!.fields!.find((f) => f.name === 'Pixel Raiders')!;
    expect(mine.value).toContain('Still there: D+1 100% · end of stay — · D+7 — · D+30 —');
  });

  it('refuses a full server with the website’s words, and changes nothing', async () => {
    await clearCampaigns();
    const { campaign } = await createBotCampaign(app, owner, { name: 'Almost Full', slots: 1 });
    const farm = await run(app, member, 'farm');
    await updateCampaign(app.server.ctx.store, campaign.id, { membersRemaining: 0 });
    const pressed = await press(app, member, farm.reply, `farm:join:${campaign.id}`);
    const web = await webMember.post<{ message: string }>(`/api/servers/${campaign.id}/join`);
    expect(web.body.message).toBe(JOIN_MESSAGES.noSlots);
    expect(pressed.reply.content).toBe(JOIN_MESSAGES.noSlots);
    expect(pressed.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(await findJoin(app, campaign.id, member.user!.id)).toBeUndefined();
  });

  it('pages five at a time with ◀ / ▶ buttons that edit the message', async () => {
    await clearCampaigns();
    for (let i = 1; i <= 7; i++) await createBotCampaign(app, owner, { name: `Paged ${i}` });
    const first = await run(app, member, 'farm');
    expect(first.reply.embeds[0]!.fields).toHaveLength(5);
    const [joinRow, pager] = first.reply.components;
    expect(joinRow!.components).toHaveLength(5);
    expect(pager!.components.map((b) => [b.label, b.disabled ?? false])).toEqual([
      ['◀ Previous', true],
      ['Next ▶', false],
      ['Open Discover', false],
    ]);
    const second = await press(app, member, first.reply, pager!.components[1]!.custom_id!);
    expect(second.callbacks).toEqual([7]);
    expect(second.reply.id).toBe(first.reply.id);
    expect(second.reply.embeds[0]!.fields!.map((f) => f.name)).toEqual(['6. Paged 2', '7. Paged 1']);
    expect(second.reply.embeds[0]!.footer!.text).toBe('Page 2 (last)');
    const back = await press(
      app,
      member,
      second.reply,
      second.reply.components[1]!.components[0]!.custom_id!,
    );
    expect(back.reply.embeds[0]!.fields).toHaveLength(5);
  });

  it('searches by name and keeps the search when paging', async () => {
    await clearCampaigns();
    for (let i = 1; i <= 6; i++) await createBotCampaign(app, owner, { name: `Lo-fi Room ${i}` });
    await createBotCampaign(app, owner, { name: 'Anime Haven' });
    const found = await run(app, member, 'farm', { options: { search: 'lo-fi' } });
    expect(found.reply.embeds[0]!.title).toBe('Servers to join matching “lo-fi”');
    const next = await press(app, member, found.reply, found.reply.components[1]!.components[1]!.custom_id!);
    expect(next.reply.embeds[0]!.fields!.map((f) => f.name)).toEqual(['6. Lo\\-fi Room 1']);
    const none = await run(app, member, 'farm', { options: { search: 'nothing like this' } });
    expect(none.reply.embeds[0]!.title).toBe('No servers match “nothing like this”');
  });

  it('fits Discord’s limits with the longest names (the simulator refuses anything over them)', async () => {
    await clearCampaigns();
    const long = (i: number) => `${i}${'*_`~|> Ω'.repeat(12)}`.slice(0, 100);
    for (let i = 1; i <= 6; i++) await createBotCampaign(app, owner, { name: long(i) });
    const farm = await run(app, member, 'farm');
    expect(farm.refused).toEqual([]);
    expect(farm.callbacks).toEqual([4]);
    for (const b of buttons(farm.reply)) expect((b.label ?? '').length).toBeLessThanOrEqual(80);
    expect(buttons(farm.reply).filter((b) => b.custom_id?.startsWith('farm:join:'))).toHaveLength(5);
    for (const row of farm.reply.components) expect(row.components.length).toBeLessThanOrEqual(5);

    // 30 joins with long names: /joins stays within 25 fields and 6,000 characters.
    for (let i = 0; i < 30; i++) {
      const c = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id, name: long(i) });
      await insertJoin(app.server.ctx.store, {
        userId: member.user!.id,
        campaignId: c.id,
        joinedAt: app.clock.now(),
      });
    }
    const joins = await run(app, member, 'joins');
    expect(joins.callbacks).toEqual([4]);
    expect(joins.reply.embeds[0]!.fields!.length).toBeLessThanOrEqual(25);
    expect(joins.reply.embeds[0]!.footer!.text).toMatch(/^10 of \d+ joins/);
    // ... and /campaign for an owner of 40 campaigns.
    const campaigns = await run(app, owner, 'campaign', { guildId: lobbyId });
    expect(campaigns.callbacks).toEqual([4]);
    expect(campaigns.reply.embeds[0]!.fields).toHaveLength(20);
    expect(campaigns.reply.content.length + JSON.stringify(campaigns.reply.embeds).length).toBeGreaterThan(0);
  });
});

describe('no-bot servers', () => {
  it('Join gives the invite and a Claim button; Claim pays after the delay like the website, with the same refusals', async () => {
    await clearCampaigns();
    const guild = app.sim.state.createGuild({
      name: 'Quiet Corner',
      ownerId: owner.user!.discordId,
      botMember: false,
    });
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      kind: 'nobot',
      name: 'Quiet Corner',
      guildId: guild.id,
      membersRemaining: 5,
    });
    const farm = await run(app, member, 'farm');
    expect(farm.reply.embeds[0]!.fields![0]!.value).toBe('**+0.20 coins** · 5 slots left · No Bot');
    const joined = await press(app, member, farm.reply, `farm:join:${campaign.id}`);
    expect(joined.reply.embeds[0]!.title).toBe('Stay for a moment');
    const claim = buttons(joined.reply).find((b) => b.custom_id === `farm:claim:${campaign.id}`)!;
    expect(claim.label).toBe('Claim +0.20');

    // Too early: the join message stays as it was, the refusal comes as a new ephemeral message.
    const early = await press(app, member, joined.reply, claim.custom_id!);
    expect(early.callbacks).toEqual([6]);
    expect(early.followup!.content).toBe(JOIN_MESSAGES.tooEarly);
    expect(early.followup!.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(early.reply.embeds[0]!.title).toBe('Stay for a moment');

    app.sim.state.addMember(guild.id, member.user!.discordId);
    app.clock.advance(10 * SECOND);
    const before = await balanceOf(app, member);
    const paid = await press(app, member, early.reply, claim.custom_id!);
    expect(paid.callbacks).toEqual([6]);
    expect(paid.reply.id).toBe(joined.reply.id);
    expect(paid.reply.embeds[0]).toMatchObject({
      title: 'Coins Earned!',
      description: '+0.20 coins added to your balance',
    });
    expect(paid.reply.components).toEqual([]);
    expect(await balanceOf(app, member)).toBe(before + 20);
    const row = await findJoin(app, campaign.id, member.user!.id);
    expect(row).toMatchObject({ coinsAwarded: true });
  });
});

describe('/campaign', () => {
  it('shows an owner’s progress (slots filled, joins via the site, early leaves, completion) and links to My Campaigns', async () => {
    await clearCampaigns();
    await app.exec(
      sql`DELETE FROM servers WHERE owner_id = ${owner.user!.id} AND id NOT IN (SELECT server_id FROM server_joins)`,
    );
    const { guild, campaign } = await createBotCampaign(app, owner, { name: 'Code Crafters', slots: 2 });
    const { campaign: done } = await createBotCampaign(app, owner, { name: 'Finished One', slots: 1 });
    await updateCampaign(app.server.ctx.store, done.id, { membersRemaining: 0, canceledAt: null });
    await updateCampaign(app.server.ctx.store, campaign.id, { canceledAt: null });

    const farm = await run(app, member, 'farm');
    await press(app, member, farm.reply, `farm:join:${campaign.id}`);
    app.sim.state.addMember(guild.id, member.user!.discordId);
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.coinsAwarded === true,
      5000,
      'verification',
    );
    app.sim.state.removeMember(guild.id, member.user!.discordId, { reason: 'leave' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true,
      5000,
      'leave',
    );
    await app.server.background.bot!.idle();

    const { reply } = await run(app, owner, 'campaign', { guildId: lobbyId });
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    const fields = reply.embeds[0]!.fields!;
    expect(fields[0]!.name).toBe('Code Crafters');
    expect(fields[0]!.value).toContain('Slots filled **0/2** · Slots Remaining 2');
    expect(fields[0]!.value).toContain('Joins via Website 1 · Early leaves 1');
    expect(fields[0]!.value).toContain('● Active');
    const finished = fields.find((f) => f.name === 'Finished One')!;
    expect(finished.value).toContain('100%');
    expect(finished.value).toContain('✓ Completed');
    expect(buttons(reply).map((b) => b.url)).toEqual([`${app.url}/campaigns`, `${app.url}/submit`]);
  });

  it('shows the website’s empty state to someone without campaigns', async () => {
    const { reply } = await run(app, webMember, 'campaign', { guildId: lobbyId });
    expect(reply.embeds[0]).toMatchObject({
      title: "You don't have any active campaigns yet",
      description: 'Submit a server to get started!',
    });
  });
});
