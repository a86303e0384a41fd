import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { insertCampaign } from '../../test/factories.ts';
import { startBotTestApp } from '../bot-test-kit.ts';
import { buttons, commandsRegistered, createLobby, press, run, text } from './test-kit.ts';

// /farm and the join pace (decision 038): the same rule as the website's join (joinServer), shown
// before a press, and refused with the same message when a stale /farm message is pressed anyway.

let app: TestApp;
let owner: TestClient;
let member: TestClient;
let lobbyId: string;

beforeAll(async () => {
  app = await startBotTestApp({ env: { JOIN_PACE_PER_HOUR: '2', JOIN_PACE_PER_DAY: '0' } });
  owner = await app.signIn('farmpace_owner');
  member = await app.signIn('farmpace_member');
  lobbyId = createLobby(app, owner, [member]).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('/farm and the join pace', () => {
  it('says when the next join is allowed, disables Join, and refuses a press past the pace', async () => {
    await app.exec(sql`UPDATE servers SET canceled_at = ${app.clock.now()} WHERE canceled_at IS NULL`);
    const campaigns = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id, name: `Paced ${i + 1}` }),
      ),
    );
    const before = await run(app, member, 'farm', { guildId: lobbyId });
    expect(text(before.reply)).not.toContain('Next join in');
    const third = buttons(before.reply).find((b) => b.custom_id === `farm:join:${campaigns[2]!.id}`)!;
    expect(third.disabled).toBe(false);

    // Two joins on the website fill the hour.
    for (const c of campaigns.slice(0, 2))
      expect((await member.post(`/api/servers/${c.id}/join`)).status).toBe(200);
    app.clock.advance(15 * 60_000);

    // The message from before still has an enabled Join: the server refuses it all the same.
    const pressed = await press(app, member, before.reply, third.custom_id!);
    expect(text(pressed.followup ?? pressed.reply)).toContain(
      'To keep your Discord account safe, you can join 2 servers an hour. Next join in 45 min.',
    );

    const after = await run(app, member, 'farm', { guildId: lobbyId });
    expect(text(after.reply)).toContain('Next join in 45 min');
    const join = buttons(after.reply).find((b) => b.custom_id === `farm:join:${campaigns[2]!.id}`)!;
    expect(join.disabled).toBe(true);
  });
  it('leaves out servers the member is already in on Discord', async () => {
    await app.exec(sql`UPDATE servers SET canceled_at = ${app.clock.now()} WHERE canceled_at IS NULL`);
    const guild = app.sim.state.createGuild({ name: 'Known Place', ownerId: owner.user!.discordId });
    await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      name: 'Known Place',
      guildId: guild.id,
    });
    await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id, name: 'Other Place' });
    const visitor = app.sim.state.createUser({ username: 'farmpace_visitor' });
    app.sim.state.addMember(guild.id, visitor.id);
    app.sim.state.addMember(lobbyId, visitor.id);
    // Signing in reads the member's guild list.
    await app.signIn('farmpace_visitor');
    const farm = await run(app, visitor.id, 'farm', { guildId: lobbyId });
    expect(text(farm.reply)).toContain('Other Place');
    expect(text(farm.reply)).not.toContain('Known Place');
  });
});
