import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';
import { createCampaign, findUserByDiscordId } from '../../src/test/factories.ts';

// Issue 28 item 11: the "Bot removed" panel goes away by itself once the owner is back from adding the
// bot (the campaign lists are asked again when the tab is shown or focused after Invite Bot).

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('bot-missing panel', () => {
  it('disappears after the bot was added, without a reload', async () => {
    const { page, context } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'paused_owner');
    const state = e2e.app.sim.state;
    const discordUser = state.findUserByUsername('paused_owner')!;
    const owner = findUserByDiscordId(e2e.app.server.ctx.db, discordUser.id)!;
    const guild = state.createGuild({ name: 'Quiet Harbour', ownerId: discordUser.id });
    const campaign = createCampaign(e2e.app.server.ctx.db, {
      ownerId: owner.id,
      name: 'Quiet Harbour',
      guildId: guild.id,
    });
    await e2e.app.exec(
      sql`UPDATE servers SET bot_removed_at = ${e2e.app.clock.now()} WHERE id = ${campaign.id}`,
    );

    await page.goto('/campaigns');
    await waitUntilInteractive(page);
    const card = page.getByRole('article', { name: 'Quiet Harbour' });
    await card.getByText('Bot removed — invite the bot again to resume').waitFor();

    const popup = context.waitForEvent('page');
    await card.getByRole('link', { name: /Invite Bot/ }).click();
    const discord = await popup;
    // The owner adds the bot in Discord (the product resumes the campaign when the bot arrives).
    await e2e.app.exec(sql`UPDATE servers SET bot_removed_at = NULL WHERE id = ${campaign.id}`);
    await discord.close();
    await page.bringToFront();
    await page.evaluate(() => {
      const w = globalThis as unknown as {
        dispatchEvent(e: unknown): void;
        Event: new (t: string) => unknown;
      };
      w.dispatchEvent(new w.Event('focus'));
    });

    await card.getByText('Bot removed — invite the bot again to resume').waitFor({ state: 'detached' });
    await card.getByText('Active', { exact: true }).waitFor();
    expect(await page.getByText('Bot removed — invite the bot again to resume').count()).toBe(0);
  });
});
