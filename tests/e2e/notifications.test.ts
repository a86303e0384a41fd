import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';
import { insertCampaign } from '../../src/test/factories.ts';
import { deliverDueNotifications } from '../../src/notifications/deliver.ts';

// Issue 31 item 5 (decision 052) in the browser: an owner sets a Discord webhook on a campaign, sends a
// test, and the delivery log shows it delivered; the simulator's channel holds the message.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('owner notifications', () => {
  it('saves a Discord webhook, refuses a wrong URL on the field, and logs the test delivered', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'notify_e2e_owner');
    const sim = e2e.app.sim.state;
    const owner = sim.findUserByUsername('notify_e2e_owner')!;
    const guild = sim.createGuild({ name: 'Bell Tower', ownerId: owner.id, botMember: true });
    const me = (await page.request.get('/api/auth/user')).json() as Promise<{ id: string }>;
    await insertCampaign(e2e.app.server.ctx.store, {
      ownerId: (await me).id,
      guildId: guild.id,
      name: 'Bell Tower',
    });
    const hook = sim.channelWebhooks.create({ guildId: guild.id });

    await page.goto('/campaigns');
    await waitUntilInteractive(page);
    await page.getByRole('button', { name: 'Notifications of Bell Tower' }).click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByLabel('Discord webhook URL');
    await field.fill('https://example.com/hook');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .getByText('Please paste a Discord webhook URL (https://discord.com/api/webhooks/…).')
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    await field.fill(`https://discord.com/api/webhooks/${hook.id}/${hook.token}`);
    await dialog.getByText('Every slot is filled').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .getByText(`discord.com/api/webhooks/${hook.id.slice(0, 6)}…/…${hook.token.slice(-4)}`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByRole('list', { name: 'Delivery log' }).getByText('Pending').waitFor();
    await deliverDueNotifications(e2e.app.server.ctx);
    // The log asks again by itself while a delivery is pending.
    await dialog
      .getByRole('list', { name: 'Delivery log' })
      .getByText('Delivered')
      .waitFor({ timeout: 10_000 });
    expect(hook.messages.map((m) => m.content)).toEqual([
      '🔔 Test notification for **Bell Tower**: this channel will receive the events you chose on CoinSync.',
    ]);
    expect(errors).toEqual([]);
  });
});
