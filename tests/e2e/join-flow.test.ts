import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2E, type E2E } from './support.ts';
import { createCampaign, findUserByDiscordId } from '../../src/test/factories.ts';

// The join flows on a phone (issue 28 items 3–4, issue 26 item 2; decision 038): a no-bot claim that
// finds the member not in the server yet turns the card into "Accept the invite, then Claim"; a reload
// offers Claim, not Join; toasts lead to My Joins; servers the member is already in are not offered;
// the join pace shows on the cards before a click. JOINFLOW_SHOTS=<dir> saves the card states as
// screenshots at 390 and 1280 px.

const PHONE = { width: 390, height: 844 };
const shots = process.env.JOINFLOW_SHOTS;

let e2e: E2E;
const db = () => e2e.app.server.ctx.db;

beforeAll(async () => {
  e2e = await startE2E({ env: { JOIN_PACE_PER_HOUR: '2', JOIN_PACE_PER_DAY: '0' } });
  if (shots) mkdirSync(shots, { recursive: true });
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

async function campaignOwner(username: string): Promise<string> {
  return (await e2e.app.signIn(username)).user!.id;
}

function discordIdOf(username: string): string {
  return e2e.app.sim.state.findUserByUsername(username)!.id;
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

/** Both widths of one card state, when JOINFLOW_SHOTS is set. */
async function shoot(page: Page, name: string, focus: string): Promise<void> {
  if (!shots) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.evaluate('window.scrollTo(0, 0)');
    await card(page, focus).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`) });
  }
  await page.setViewportSize(PHONE);
}

describe('join flows on a phone', () => {
  it('turns a no-bot claim before the invite was accepted into "Accept the invite, then Claim"; Claim pays; the toast opens My Joins', async () => {
    const ownerId = await campaignOwner('garden_owner');
    const { guild, inviteLink } = simGuild('Garden Club', 'garden_owner', 'e2e-garden', false);
    createCampaign(db(), { ownerId, kind: 'nobot', name: 'Garden Club', inviteLink, guildId: guild.id });

    const { page, context, errors } = await e2e.newPage(PHONE);
    await page.clock.install();
    await e2e.signIn(page, 'slow_accepter');
    const popup = context.waitForEvent('page');
    await card(page, 'Garden Club').getByRole('button', { name: 'Join Garden Club' }).click();
    // The member opens the invite but does not accept it (yet).
    await (await popup).close();
    await card(page, 'Garden Club').getByText('Claiming...').waitFor();

    // 10 s later the claim finds the member not in the server: no error, the card says what to do.
    e2e.app.clock.advance(10_000);
    const refused = page.waitForResponse((res) => res.url().endsWith('/claim-nobot'));
    await page.clock.runFor(10_000);
    expect((await refused).status()).toBe(409);
    const garden = card(page, 'Garden Club');
    await garden.getByText('Accept the invite, then Claim').waitFor();
    expect(await page.getByText('Claim Failed').count()).toBe(0);
    expect(await garden.getByRole('button', { name: 'Join Garden Club' }).count()).toBe(0);
    await shoot(page, 'accept-then-claim', 'Garden Club');

    // It keeps trying quietly.
    const again = page.waitForResponse((res) => res.url().endsWith('/claim-nobot'));
    await page.clock.runFor(5_000);
    expect((await again).status()).toBe(409);
    await garden.getByText('Accept the invite, then Claim').waitFor();

    // The member accepts in Discord, then presses Claim.
    e2e.app.sim.state.addMember(guild.id, discordIdOf('slow_accepter'));
    await garden.getByRole('button', { name: 'Claim Garden Club' }).click();
    await page.getByText('+0.20 coins added to your balance').waitFor();
    await garden.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'My Joins' }).click();
    await page.waitForURL(/\/joins$/);
    await page.getByRole('article', { name: 'Garden Club' }).waitFor();
    e2e.app.assertLedger();
    expect(errors.filter((e) => !/409/.test(e))).toEqual([]);
  });

  it('after accepting and reloading, offers Claim (not Join again) for a no-bot join that exists', async () => {
    const ownerId = await campaignOwner('atlas_owner');
    const { guild, inviteLink } = simGuild('Atlas Guild', 'atlas_owner', 'e2e-atlas', false);
    createCampaign(db(), { ownerId, kind: 'nobot', name: 'Atlas Guild', inviteLink, guildId: guild.id });

    const { page, context, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'reload_joiner');
    const popup = context.waitForEvent('page');
    await card(page, 'Atlas Guild').getByRole('button', { name: 'Join Atlas Guild' }).click();
    await (await popup).getByRole('button', { name: 'Accept Invite' }).click();
    // This browser forgets its pending claim (another device, cleared storage): only the server knows.
    await page.evaluate(
      "for (const key of Object.keys(localStorage)) if (key.startsWith('coinsync:pending-nobot-claims:')) localStorage.removeItem(key)",
    );
    e2e.app.clock.advance(10_000);
    await page.reload();

    const atlas = card(page, 'Atlas Guild');
    await atlas.getByText('Accept the invite, then Claim').waitFor();
    expect(await atlas.getByRole('button', { name: 'Join Atlas Guild' }).count()).toBe(0);
    await atlas.getByRole('button', { name: 'Claim Atlas Guild' }).click();
    await page.getByText('+0.20 coins added to your balance').waitFor();
    await atlas.waitFor({ state: 'detached' });
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('does not offer Join on servers the member is already in: featured says "Already a member", regular ones are left out', async () => {
    const ownerId = await campaignOwner('home_owner');
    const featured = simGuild('Old Haunt', 'home_owner', 'e2e-haunt');
    createCampaign(db(), {
      ownerId,
      kind: 'featured',
      name: 'Old Haunt',
      guildId: featured.guild.id,
      inviteLink: featured.inviteLink,
    });
    const regular = simGuild('Usual Spot', 'home_owner', 'e2e-usual');
    createCampaign(db(), {
      ownerId,
      name: 'Usual Spot',
      guildId: regular.guild.id,
      inviteLink: regular.inviteLink,
    });
    const fresh = simGuild('New Place', 'home_owner', 'e2e-new');
    createCampaign(db(), {
      ownerId,
      name: 'New Place',
      guildId: fresh.guild.id,
      inviteLink: fresh.inviteLink,
    });

    // The member is in two of them on Discord already; their guild list is read at sign-in.
    const member = e2e.app.sim.state.createUser({ username: 'regular_visitor' });
    e2e.app.sim.state.addMember(featured.guild.id, member.id);
    e2e.app.sim.state.addMember(regular.guild.id, member.id);

    const { page, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'regular_visitor');
    expect(findUserByDiscordId(db(), member.id)).toBeDefined();
    const haunt = card(page, 'Old Haunt');
    await haunt.getByText('Already a member').waitFor();
    expect(await haunt.getByRole('button', { name: /^Join/ }).count()).toBe(0);
    await card(page, 'New Place').getByRole('button', { name: 'Join New Place' }).waitFor();
    expect(await card(page, 'Usual Spot').count()).toBe(0);
    await shoot(page, 'already-a-member', 'Old Haunt');
    expect(errors).toEqual([]);
  });

  it('shows the join pace on the cards before a click ("Next join in …") once the hour is used up', async () => {
    const ownerId = await campaignOwner('pace_host');
    for (const name of ['Pace One', 'Pace Two', 'Pace Three']) {
      const g = simGuild(name, 'pace_host', `e2e-${name.toLowerCase().replace(' ', '-')}`);
      createCampaign(db(), { ownerId, name, guildId: g.guild.id, inviteLink: g.inviteLink });
    }
    const { page, context, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'pace_member');
    for (const name of ['Pace One', 'Pace Two']) {
      const popup = context.waitForEvent('page');
      await card(page, name)
        .getByRole('button', { name: `Join ${name}` })
        .click();
      await (await popup).close();
      await card(page, name).waitFor({ state: 'detached' });
    }
    const three = card(page, 'Pace Three');
    // A whole hour to wait (the two joins just now fill it); the label counts down from there.
    await three.getByText(/^Next join in (1 h|59 min)$/).waitFor();
    expect(await three.getByRole('button', { name: /^Join Pace Three: Next join in/ }).isDisabled()).toBe(
      true,
    );
    await page.getByRole('status').filter({ hasText: 'joins are paced: 2 an hour' }).waitFor();
    await shoot(page, 'pace-countdown', 'Pace Three');

    // After a reload it is still there (the server says how long).
    await page.reload();
    await card(page, 'Pace Three')
      .getByText(/^Next join in (1 h|59 min)$/)
      .waitFor();
    // The two joins wait for our bot: their cards offer the invite again, not Join (which would only
    // restart the wait).
    const one = card(page, 'Pace One');
    await one.getByText('Joined? Your coins arrive once our bot sees you.').waitFor();
    await one.getByRole('link', { name: 'Open the invite to Pace One' }).waitFor();
    expect(await one.getByRole('button', { name: /^Join/ }).count()).toBe(0);
    await shoot(page, 'pending-bot-join', 'Pace One');
    expect(errors).toEqual([]);
  });
});
