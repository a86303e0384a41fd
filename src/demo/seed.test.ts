import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { ENGINES } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import type { ApiServer } from '../shared/api-types.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { listSocialTasks } from '../social/list-social-tasks.ts';
import { DEMO_CAMPAIGNS } from './demo-world.ts';
import { seedDemo } from './seed.ts';

interface Row {
  id: string;
  name: string;
  kind: 'regular' | 'featured' | 'nobot';
  guildId: string | null;
  coinReward: number;
  inviteLink: string;
}

const pgEnabled = await pgTestsEnabled();

describe.each(ENGINES)('seedDemo on %s', (engine) => {
  describe.skipIf(engine === 'pg' && !pgEnabled)('', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ engine });
    });
    afterAll(() => app?.close());

    it('creates the demo campaigns once, through the real submit and promote services and the ledger', async () => {
      await seedDemo(app.server.ctx, app.sim);
      const countTx = async () =>
        (await app.query<{ n: number }>(sql`SELECT count(*) AS n FROM transactions`))[0]!.n;
      const txAfterFirst = await countTx();
      await seedDemo(app.server.ctx, app.sim);
      expect(await countTx()).toBe(txAfterFirst);

      const rows = await app.query<Row>(
        sql`SELECT id, name, kind, server_id AS "guildId", coin_reward AS "coinReward", invite_link AS "inviteLink" FROM servers`,
      );
      expect(rows.map((r) => r.name).sort()).toEqual(DEMO_CAMPAIGNS.map((c) => c.guild.name).sort());
      expect(rows.filter((r) => r.kind === 'featured')).toHaveLength(2);
      expect(rows.filter((r) => r.kind === 'nobot').every((r) => r.guildId === null)).toBe(true);
      for (const row of rows)
        expect(row.coinReward, row.name).toBe(CAMPAIGN_KIND_RULES[row.kind].rewardCents);
      await app.checkLedger();

      // The transaction texts are the real ones (the services wrote them).
      const texts = (await app.query<{ d: string }>(sql`SELECT description AS d FROM transactions`)).map(
        (t) => t.d,
      );
      expect(texts).toContain('Featured: Pixel Raiders (100 members)');
      expect(texts).toContain('Campaign: Anime Haven (40 members)');
      expect(texts).toContain('No-bot campaign: Retro Arcade Club (12 members)');

      // Invite links resolve in the simulator.
      for (const row of rows) {
        const code = row.inviteLink.split('/invite/')[1] ?? '';
        expect(app.sim.state.findInvite(code), row.name).toBeDefined();
      }

      // alex owns Pixel Raiders (featured) and Anime Haven (regular): welcome + demo coins − 100 − 40.
      const alex = await app.signIn('alex');
      const mine = (await alex.get<ApiServer[]>('/api/servers/mine')).body.map((s) => s.name);
      expect(mine.sort()).toEqual(['Anime Haven', 'Pixel Raiders']);
      // Looked at on SQLite only, as when Discover's list ran on SQLite only (decision 028).
      if (engine === 'sqlite') {
        const alexView = (await alex.get<ApiServer[]>('/api/servers')).body.map((s) => s.name);
        expect(alexView).toContain('Pixel Raiders');
        expect(alexView).not.toContain('Anime Haven');
      }
      expect(await alex.balanceCents()).toBe(500 + 50_000 - 10_000 - 4_000);

      // sam is already in Pixel Raiders on Discord; casey is not.
      const pixel = rows.find((r) => r.name === 'Pixel Raiders')!.id;
      const sam = await app.signIn('sam');
      expect((await sam.post(`/api/servers/${pixel}/join`)).status).toBe(409);
      const casey = await app.signIn('casey');
      expect((await casey.post(`/api/servers/${pixel}/join`)).status).toBe(200);
      await app.checkLedger();
    });

    it('adds one social task per platform once, YouTube first with 2.00 coins', async () => {
      await seedDemo(app.server.ctx, app.sim);
      const tasks = await listSocialTasks(app.server.ctx.store.read, 'nobody');
      expect(tasks.map((t) => t.platform)).toEqual(['youtube', 'discord', 'tiktok', 'instagram', 'twitter']);
      expect(tasks[0]).toMatchObject({
        title: 'Subscribe to our YouTube channel',
        coins: '2.00',
        completed: false,
      });
      expect(tasks.every((t) => t.coins === '2.00' && t.url.startsWith('https://'))).toBe(true);
    });
  });
});
