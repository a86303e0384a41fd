import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';
import {
  createCampaign,
  findCampaignByName,
  findJoins,
  findUserByDiscordId,
} from '../../src/test/factories.ts';
import { refreshInviteStats } from '../../src/joins/invite-stats.ts';

let e2e: E2E;
const db = () => e2e.app.server.ctx.db;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** A simulator guild with a permanent invite, so invite tabs stay on this machine. */
function simGuild(name: string, ownerUsername: string, code: string, botMember = true) {
  const state = e2e.app.sim.state;
  const owner = state.findUserByUsername(ownerUsername) ?? state.createUser({ username: ownerUsername });
  const guild = state.createGuild({ name, ownerId: owner.id, botMember });
  state.createInvite(guild.id, { code, maxAge: 0 });
  return { guild, inviteLink: `${e2e.app.sim.url}/invite/${code}` };
}

function ourUserId(username: string): string {
  const discordUser = e2e.app.sim.state.findUserByUsername(username);
  const user = discordUser && findUserByDiscordId(db(), discordUser.id);
  if (!user) throw new Error(`${username} has not signed in`);
  return user.id;
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

describe('Discover page', () => {
  it('shows the empty state before any campaign exists', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'early_bird');
    await page.getByText('No servers found. Be the first to submit one!').waitFor();
    expect(errors).toEqual([]);
  });

  it('lists featured and regular campaigns with their texts, filters by search, and marks the own featured server', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'disco_owner');
    const ownerId = ourUserId('disco_owner');
    const pixel = simGuild('Pixel Raiders', 'disco_owner', 'e2e-pixel');
    createCampaign(db(), {
      ownerId,
      kind: 'featured',
      name: 'Pixel Raiders',
      guildId: pixel.guild.id,
      inviteLink: pixel.inviteLink,
      membersRemaining: 42,
    });
    await page.reload();

    // Only featured campaigns so far: the regular grid says so, and the owner sees "Your Server".
    const own = card(page, 'Pixel Raiders');
    await own.getByText('Your Server').waitFor();
    await own.getByText('42 members left').waitFor();
    await own.getByText('+0.75 coins').waitFor();
    expect(await own.getByRole('button', { name: /^Join/ }).count()).toBe(0);
    await page.getByText('No regular servers available.').waitFor();
    await page.getByRole('heading', { name: 'Featured Servers' }).waitFor();

    const someoneElse = await e2e.app.signIn('disco_other');
    const otherId = someoneElse.user!.id;
    createCampaign(db(), {
      ownerId: otherId,
      name: 'Code Crafters',
      inviteLink: simGuild('Code Crafters', 'disco_other', 'e2e-code').inviteLink,
    });
    const quiet = simGuild('Quiet Library', 'disco_other', 'e2e-quiet', false);
    createCampaign(db(), {
      ownerId: otherId,
      kind: 'nobot',
      name: 'Quiet Library',
      guildId: quiet.guild.id,
      inviteLink: quiet.inviteLink,
    });
    createCampaign(db(), { ownerId: otherId, name: 'Sold Out', membersRemaining: 0 });
    createCampaign(db(), { ownerId, name: 'Owner Regular' });
    await page.reload();

    await card(page, 'Code Crafters').getByText('+0.50 coins').waitFor();
    const nobot = card(page, 'Quiet Library');
    await nobot.getByText('No Bot').waitFor();
    await nobot.getByText('+0.20 coins').waitFor();
    await nobot.getByRole('button', { name: 'Join Quiet Library' }).waitFor();
    expect(await card(page, 'Code Crafters').getByText('No Bot').count()).toBe(0);
    expect(await card(page, 'Sold Out').count()).toBe(0);
    expect(await card(page, 'Owner Regular').count()).toBe(0);
    expect(await page.getByText('No regular servers available.').count()).toBe(0);

    const search = page.getByLabel('Search servers');
    await search.fill('cRaFt');
    await card(page, 'Code Crafters').waitFor();
    await card(page, 'Quiet Library').waitFor({ state: 'detached' });
    await card(page, 'Pixel Raiders').waitFor({ state: 'detached' });
    await search.fill('nothing like this');
    await page.getByText('No servers match “nothing like this”').waitFor();
    expect(await page.getByText('No servers found. Be the first to submit one!').count()).toBe(0);
    await search.fill('');
    await card(page, 'Pixel Raiders').waitFor();
    expect(errors).toEqual([]);
  });

  it('joins a bot server: opens the invite, explains the wait and drops the card', async () => {
    const { page, context, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'bot_joiner');
    const joiner = card(page, 'Code Crafters');
    const popup = context.waitForEvent('page');
    await joiner.getByRole('button', { name: 'Join Code Crafters' }).click();
    const tab = await popup;
    await tab.waitForURL(/\/invite\/e2e-code$/);
    await page
      .getByText('Join the server in Discord — your coins arrive once our bot sees you join')
      .waitFor();
    await joiner.waitFor({ state: 'detached' });
    const joins = findJoins(db(), findCampaignByName(db(), 'Code Crafters').id);
    expect(joins.map((j) => j.userId)).toEqual([ourUserId('bot_joiner')]);
    expect(errors).toEqual([]);
  });

  it('shows the server message when a join is refused', async () => {
    const { page, context, errors } = await e2e.newPage();
    await e2e.signIn(page, 'disco_member');
    // disco_member is already in Pixel Raiders on Discord.
    const pixel = e2e.app.sim.state.findInvite('e2e-pixel')!;
    e2e.app.sim.state.addMember(pixel.guildId, e2e.app.sim.state.findUserByUsername('disco_member')!.id);
    await card(page, 'Pixel Raiders').getByRole('button', { name: 'Join Pixel Raiders' }).click();
    await page.getByText('You are already a member of this server. Only new members earn coins.').waitFor();
    await page.getByText('Error', { exact: true }).waitFor();
    expect(context.pages()).toHaveLength(1);
    // The refused request logs a 409 in the console; that is the expected failure.
    expect(errors.filter((e) => !/409/.test(e))).toEqual([]);
  });

  it('finishes a no-bot join after a page reload once the 10 s have passed', async () => {
    const { page, context, errors } = await e2e.newPage();
    await e2e.signIn(page, 'nobot_joiner');
    await page.getByText('5.00').first().waitFor();
    const popup = context.waitForEvent('page');
    await card(page, 'Quiet Library').getByRole('button', { name: 'Join Quiet Library' }).click();
    const invitePage = await popup;
    await invitePage.waitForURL(/\/invite\/e2e-quiet$/);
    // The member accepts the invite on Discord: the no-bot claim pays only once the guild is in their list.
    await invitePage.getByRole('button', { name: 'Accept Invite' }).click();
    await page.getByText('Your +0.20 coins arrive in about 10 seconds.').waitFor();
    await card(page, 'Quiet Library').getByText('Claiming...').waitFor();

    // Browser-side code as strings: the server tsconfig has no DOM types.
    const stored = await page.evaluate<[string, string][]>(
      "Object.entries(localStorage).filter(([key]) => key.startsWith('coinsync:pending-nobot-claims:'))",
    );
    expect(stored).toHaveLength(1);
    const [key, value] = stored[0]!;
    const [pending] = JSON.parse(value) as { serverId: string; claimAt: number }[];
    expect(pending?.claimAt).toBeGreaterThan(Date.now());

    // The server's clock moves on 10 s; the browser's entry is made due, then the page is loaded again.
    e2e.app.clock.advance(10_000);
    const due = JSON.stringify([{ ...pending, claimAt: Date.now() - 1 }]);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(due)})`);
    await page.reload();

    await page.getByText('+0.20 coins added to your balance').waitFor();
    await page.getByText('5.20').first().waitFor();
    await card(page, 'Quiet Library').waitFor({ state: 'detached' });
    expect(await page.evaluate(`localStorage.getItem(${JSON.stringify(key)})`)).toBeNull();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('finishes a pending no-bot claim on whichever page is loaded next', async () => {
    const owner = await e2e.app.signIn('reading_owner');
    const { inviteLink, guild } = simGuild('Reading Room', 'reading_owner', 'e2e-reading', false);
    createCampaign(db(), {
      ownerId: owner.user!.id,
      kind: 'nobot',
      name: 'Reading Room',
      inviteLink,
      guildId: guild.id,
    });
    const { page, context, errors } = await e2e.newPage();
    await e2e.signIn(page, 'dashboard_joiner');
    const popup = context.waitForEvent('page');
    await card(page, 'Reading Room').getByRole('button', { name: 'Join Reading Room' }).click();
    await (await popup).getByRole('button', { name: 'Accept Invite' }).click();
    await page.getByText('Your +0.20 coins arrive in about 10 seconds.').waitFor();
    const stored = await page.evaluate<[string, string][]>(
      "Object.entries(localStorage).filter(([key]) => key.startsWith('coinsync:pending-nobot-claims:'))",
    );
    const [key, value] = stored[0]!;
    const [pending] = JSON.parse(value) as { serverId: string; claimAt: number }[];

    e2e.app.clock.advance(10_000);
    const due = JSON.stringify([{ ...pending, claimAt: Date.now() - 1 }]);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(due)})`);
    // A fresh load of the Dashboard, not Discover, picks the claim up.
    await page.goto('/dashboard');
    await page.getByText('+0.20 coins added to your balance').waitFor();
    await page.getByText('5.20').first().waitFor();
    expect(await page.evaluate(`localStorage.getItem(${JSON.stringify(key)})`)).toBeNull();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('reschedules a claim the server finds too early instead of dropping it', async () => {
    const slowOwner = await e2e.app.signIn('slow_owner');
    const { inviteLink, guild } = simGuild('Slow Clock Club', 'slow_owner', 'e2e-slow', false);
    createCampaign(db(), {
      ownerId: slowOwner.user!.id,
      kind: 'nobot',
      name: 'Slow Clock Club',
      inviteLink,
      guildId: guild.id,
    });
    const { page, context, errors } = await e2e.newPage();
    await page.clock.install();
    await e2e.signIn(page, 'skewed_joiner');
    const popup = context.waitForEvent('page');
    await card(page, 'Slow Clock Club').getByRole('button', { name: 'Join Slow Clock Club' }).click();
    await (await popup).getByRole('button', { name: 'Accept Invite' }).click();
    await page.getByText('Your +0.20 coins arrive in about 10 seconds.').waitFor();

    // The browser's 10 s pass but the server's clock has not moved: the server answers 425.
    const tooEarly = page.waitForResponse((res) => res.url().endsWith('/claim-nobot'));
    await page.clock.runFor(10_000);
    expect((await tooEarly).status()).toBe(425);
    expect(await page.getByText('Claim Failed').count()).toBe(0);
    await card(page, 'Slow Clock Club').getByText('Claiming...').waitFor();

    // Once the server agrees, the rescheduled attempt pays.
    e2e.app.clock.advance(10_000);
    const paid = page.waitForResponse((res) => res.url().endsWith('/claim-nobot'));
    await page.clock.runFor(2_000);
    expect((await paid).status()).toBe(200);
    await page.getByText('+0.20 coins added to your balance').waitFor();
    await card(page, 'Slow Clock Club').waitFor({ state: 'detached' });
    e2e.app.assertLedger();
    expect(errors.filter((e) => !/425/.test(e))).toEqual([]);
  });

  it('loads more cards as the member scrolls, searches on the server, and shows counts from the invite', async () => {
    const seller = await e2e.app.signIn('many_owner');
    const { guild, inviteLink } = simGuild('Counted Guild', 'many_owner', 'e2e-counted');
    createCampaign(db(), {
      ownerId: seller.user!.id,
      name: 'Counted Guild',
      guildId: guild.id,
      inviteCode: 'e2e-counted',
      inviteLink,
    });
    for (let i = 0; i < 40; i++) createCampaign(db(), { ownerId: seller.user!.id, name: `Scroll Town ${i}` });
    await refreshInviteStats(e2e.app.server.ctx);
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'scroller');
    const cards = page.getByRole('article');
    await card(page, 'Scroll Town 39').waitFor();
    const firstPage = await cards.count();
    expect(firstPage).toBeLessThan(30);
    // The oldest campaign is not on the first page; scrolling brings it in.
    expect(await card(page, 'Scroll Town 0').count()).toBe(0);
    for (let i = 0; i < 10 && (await card(page, 'Scroll Town 0').count()) === 0; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(300);
    }
    await card(page, 'Scroll Town 0').waitFor();
    expect(await cards.count()).toBeGreaterThan(firstPage);

    // Search is answered by the server over every campaign, loaded or not.
    await page.reload();
    await card(page, 'Scroll Town 39').waitFor();
    // The reloaded page is server-rendered: search once the app has hydrated it (decision 031).
    await waitUntilInteractive(page);
    const searched = page.waitForResponse((res) => res.url().includes('/api/servers?q=Town%200'));
    await page.getByLabel('Search servers').fill('Town 0');
    await searched;
    await card(page, 'Scroll Town 0').waitFor();
    await expect.poll(() => cards.count()).toBe(1);

    // Member and online counts from the invite (cached server-side).
    await page.getByLabel('Search servers').fill('Counted');
    const counted = card(page, 'Counted Guild');
    await counted.getByText(/\d+ members?/).waitFor();
    await counted.getByText(/\d+ online/).waitFor();
    expect(errors).toEqual([]);
  });
});
