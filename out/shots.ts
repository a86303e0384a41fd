import { startE2E } from '../tests/e2e/support.ts';
import { createCampaign, findUserByDiscordId } from '../src/test/factories.ts';
import { createBotCampaign } from '../src/bot/bot-test-kit.ts';

const e2e = await startE2E({ background: true });
await e2e.app.server.background.bot!.ready;
try {
  for (const [w, h, tag] of [[1280, 900, 'desktop'], [390, 844, 'phone']] as const) {
    const { page } = await e2e.newPage({ width: w, height: h });
    const name = `shot_owner_${tag}`;
    await e2e.signIn(page, name);
    const du = e2e.app.sim.state.findUserByUsername(name)!;
    const owner = findUserByDiscordId(e2e.app.server.ctx.db, du.id)!;
    const guild = e2e.app.sim.state.createGuild({ name: 'Lantern Hall', ownerId: du.id });
    createCampaign(e2e.app.server.ctx.db, { ownerId: owner.id, name: 'Lantern Hall', guildId: guild.id, inviteCode: `old-${tag}`, inviteLink: `https://discord.gg/old-${tag}`, inviteValid: false, membersRemaining: 12, initialMemberSlots: 20 });
    const g2 = e2e.app.sim.state.createGuild({ name: 'Pixel Raiders', ownerId: du.id });
    createCampaign(e2e.app.server.ctx.db, { ownerId: owner.id, name: 'Pixel Raiders', guildId: g2.id, membersRemaining: 5, initialMemberSlots: 10 });
    await page.goto('/campaigns');
    await page.getByText('Invite expired — update it').first().waitFor();
    await page.screenshot({ path: `out/campaigns-${tag}.png`, fullPage: true });
    await page.goto('/dashboard');
    await page.getByText('Invite expired — update it').first().waitFor();
    await page.screenshot({ path: `out/dashboard-${tag}.png`, fullPage: true });
    // A live event toast and the header balance.
    const memberCtx = await e2e.app.signIn(`shot_member_${tag}`);
    void memberCtx;
    const { campaign, guild: g3 } = createBotCampaign(e2e.app, await e2e.app.signIn(`shot_other_${tag}`), { name: 'Cozy Corner' });
    await page.goto('/');
    await page.waitForTimeout(500);
    const res = await page.evaluate(async (id) => (await fetch(`/api/servers/${id}/join`, { method: 'POST' })).status, campaign.id);
    if (res !== 200) throw new Error(`join ${res}`);
    e2e.app.sim.state.addMember(g3.id, du.id);
    await page.getByText('Join Verified!').waitFor();
    await page.screenshot({ path: `out/live-toast-${tag}.png` });
  }
} finally {
  await e2e.close();
}
