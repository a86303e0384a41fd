import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestClient } from '../test/harness.ts';
import { createBotCampaign, findJoin, startBotTestApp } from '../bot/bot-test-kit.ts';
import { buttons, commandsRegistered, createLobby, press, run, text } from '../bot/commands/test-kit.ts';

// Issue 26 item 3 in Discord itself: a slash-command Join whose member look-up Discord answers with
// Retry-After: 120 is answered "Discord is busy" within the interaction's time, and records nothing.

let app: TestApp;
let owner: TestClient;
let member: TestClient;
let lobbyId: string;

beforeAll(async () => {
  app = await startBotTestApp();
  owner = await app.signIn('busy_bot_owner');
  member = await app.signIn('busy_bot_member');
  lobbyId = createLobby(app, owner, [member]).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('/farm Join while Discord asks for a long wait', () => {
  it('answers "Discord is busy — try again in 2 min" and records no join', async () => {
    const { campaign } = await createBotCampaign(app, owner, { name: 'Busy Raiders', slots: 3 });
    const farm = await run(app, member, 'farm', { guildId: lobbyId });
    const join = buttons(farm.reply).find((b) => b.custom_id === `farm:join:${campaign.id}`)!;
    app.sim.state.unreliable.inject({
      fault: 'rate-limit',
      retryAfterSeconds: 120,
      path: `/members/${member.user!.discordId}`,
    });
    const pressed = await press(app, member, farm.reply, join.custom_id!);
    expect(pressed.refused).toEqual([]);
    expect(text(pressed.reply)).toContain('Discord is busy — try again in 2 min');
    expect(await findJoin(app, campaign.id, member.user!.id)).toBeUndefined();
  });
});
