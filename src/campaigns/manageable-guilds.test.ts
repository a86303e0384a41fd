import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiManageableGuild } from '../shared/campaign-schemas.ts';

// Issue 31 item 3: GET /api/guilds/manageable, the Submit page's server picker, from the user's own
// Discord guild list (through the simulator's OAuth2 and REST), on the engine the suite runs on.

let app: TestApp;
let owner: TestClient;
let other: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('picker_owner');
  other = await app.signIn('picker_other');
});
afterAll(() => app.close());

describe('server picker', () => {
  it('lists servers the user owns or manages, with whether our bot is there', async () => {
    const s = app.sim.state;
    const me = owner.user!.discordId;
    const withBot = s.createGuild({ name: 'Bot Haven', ownerId: me, botMember: true });
    const withoutBot = s.createGuild({ name: 'Alpha Lonely', ownerId: me, botMember: false });
    const managed = s.createGuild({ name: 'Managed Club', ownerId: other.user!.discordId, botMember: true });
    s.addMember(managed.id, me);
    s.setManageGuild(managed.id, me, true);
    const plain = s.createGuild({ name: 'Just Member', ownerId: other.user!.discordId });
    s.addMember(plain.id, me);

    const res = await owner.get<ApiManageableGuild[]>('/api/guilds/manageable');
    expect(res.status).toBe(200);
    // Owned servers first (by name), then managed ones; a server where the user is a plain member is not offered.
    expect(res.body.map((g) => [g.name, g.botPresent])).toEqual([
      ['Alpha Lonely', false],
      ['Bot Haven', true],
      ['Managed Club', true],
    ]);
    const lonely = res.body[0]!;
    expect(lonely.id).toBe(withoutBot.id);
    expect(lonely.botInviteUrl).toContain(`guild_id=${withoutBot.id}`);
    expect(res.body[1]!.id).toBe(withBot.id);
    expect(res.body.some((g) => g.id === plain.id)).toBe(false);

    // Losing Manage Server takes the server off the list.
    s.setManageGuild(managed.id, me, false);
    const after = await owner.get<ApiManageableGuild[]>('/api/guilds/manageable');
    expect(after.body.map((g) => g.name)).toEqual(['Alpha Lonely', 'Bot Haven']);
  });

  it('is for signed-in users only', async () => {
    expect((await app.anonymous().get('/api/guilds/manageable')).status).toBe(401);
  });
});
