import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign, insertCampaign, readJoins } from '../test/factories.ts';
import { DAY, SECOND } from '../clock.ts';
import { sql } from 'drizzle-orm';
import type { ApiJoin } from '../shared/api-types.ts';
import { sameAddressCappedMessage } from '../shared/join-schemas.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import {
  balanceOf as balanceWithBonus,
  createBotCampaign,
  findJoin,
  joinViaWebsite,
  startBotTestApp,
  waitFor,
} from '../bot/bot-test-kit.ts';
import { pruneUserAddresses } from './same-address.ts';

// Issue 12 item 3, decision 022: a campaign pays at most 3 joins of members who signed in from an
// address its owner also used in the last 7 days. Each test client connects from its own loopback
// address (127.0.x.y), which express sees as req.ip: no proxy header is involved.

let app: TestApp;
let counter = 0;
/** Coins earned beyond the 5.00 welcome bonus, hundredths. */
const balanceOf = async (a: TestApp, client: TestClient) => (await balanceWithBonus(a, client)) - 500;
const member = (address?: string) => app.signIn(`addr_member_${++counter}`, address ? { address } : {});

beforeAll(async () => {
  app = await startBotTestApp();
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

/** Every recorded address, on either engine. */
const addressRows = () =>
  app.query<{ addressHash: string; lastSeenAt: number }>(
    sql`SELECT address_hash AS "addressHash", last_seen_at AS "lastSeenAt" FROM user_addresses`,
  );

async function verified(client: TestClient, guildId: string, campaignId: string): Promise<void> {
  app.sim.state.addMember(guildId, client.user!.discordId);
  await waitFor(
    async () => (await findJoin(app, campaignId, client.user!.id))?.verified === true,
    5000,
    'verification',
  );
}

describe('same-address rule', () => {
  it('pays 3 members on the owner’s address, refuses the 4th at once with a message, and still pays others', async () => {
    const owner = await app.signIn('addr_owner_1');
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    for (let i = 0; i < 3; i++) {
      const housemate = await member(owner.address);
      await joinViaWebsite(housemate, campaign.id);
      await verified(housemate, guild.id, campaign.id);
      expect(await balanceOf(app, housemate)).toBe(50);
      expect((await findJoin(app, campaign.id, housemate.user!.id))?.sameAddress).toBe(true);
    }

    const fourth = await member(owner.address);
    const refused = await fourth.post(`/api/servers/${campaign.id}/join`);
    expect(refused).toMatchObject({ status: 403, body: { message: sameAddressCappedMessage(3) } });
    expect(await findJoin(app, campaign.id, fourth.user!.id)).toBeUndefined();

    const stranger = await member();
    await joinViaWebsite(stranger, campaign.id);
    await verified(stranger, guild.id, campaign.id);
    expect(await balanceOf(app, stranger)).toBe(50);
    expect((await findJoin(app, campaign.id, stranger.user!.id))?.sameAddress).toBe(false);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(6);
  });

  it('applies the cap at verification when joins were requested at once: the extra ones earn nothing and take no slot', async () => {
    const owner = await app.signIn('addr_owner_2');
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    const ring = [];
    for (let i = 0; i < 5; i++) ring.push(await member(owner.address));
    // All five ask before anyone is verified: the cap cannot be reached yet, so every join is recorded.
    for (const alt of ring) await joinViaWebsite(alt, campaign.id);
    for (const alt of ring) await verified(alt, guild.id, campaign.id);

    const balances = await Promise.all(ring.map((alt) => balanceOf(app, alt)));
    expect(balances.filter((b) => b === 50)).toHaveLength(3);
    expect(balances.filter((b) => b === 0)).toHaveLength(2);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(7);
    // The unpaid ones see why on My Joins.
    const unpaid = ring[balances.indexOf(0)]!;
    const joins = await unpaid.get<ApiJoin[]>('/api/joins');
    expect(joins.body.find((j) => j.campaignId === campaign.id)?.state).toBe('same_address');
  });

  it('counts an address only within the window, and forgets it after', async () => {
    const owner = await app.signIn('addr_owner_3');
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    app.clock.advance(8 * DAY);
    // The owner now signs in elsewhere; the old address is 8 days old.
    await app.signIn('addr_owner_3');
    for (let i = 0; i < 4; i++) {
      const former = await member(owner.address);
      await joinViaWebsite(former, campaign.id);
      await verified(former, guild.id, campaign.id);
      expect(await balanceOf(app, former)).toBe(50);
    }
    await pruneUserAddresses(app.server.ctx);
    const oldest = Math.min(...(await addressRows()).map((r) => r.lastSeenAt));
    expect(oldest).toBeGreaterThanOrEqual(app.clock.now() - 7 * DAY);
  });

  it('keeps only keyed hashes of addresses', async () => {
    const rows = await addressRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.addressHash).not.toMatch(/127\.|::/);
  });

  it('refuses a no-bot claim past the cap with the message, and writes nothing', async () => {
    const owner = await app.signIn('addr_owner_4');
    const guild = app.sim.state.createGuild({
      name: 'Addr NoBot',
      ownerId: owner.user!.discordId,
      botMember: false,
    });
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      kind: 'nobot',
      guildId: guild.id,
      membersRemaining: 10,
    });
    const ring = [];
    for (let i = 0; i < 4; i++) ring.push(await member(owner.address));
    for (const alt of ring) await joinViaWebsite(alt, campaign.id);
    app.clock.advance(10 * SECOND);
    const answers = [];
    for (const alt of ring) {
      app.sim.state.addMember(guild.id, alt.user!.discordId);
      answers.push(await alt.post<{ message?: string }>(`/api/servers/${campaign.id}/claim-nobot`));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 403]);
    expect(answers[3]!.body.message).toBe(sameAddressCappedMessage(3));
    expect((await readJoins(app.server.ctx.store, campaign.id)).filter((j) => j.coinsAwarded)).toHaveLength(
      3,
    );
    expect(await balanceOf(app, ring[3]!)).toBe(0);
  });
});
