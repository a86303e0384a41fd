import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MINUTE } from '../clock.ts';
import { ADDRESS_RECORD_EVERY_MS } from '../http/write-limits.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';

// Where members act from (decision 022) is recorded at sign-in and on signed-in writes, at most every
// ADDRESS_RECORD_EVERY_MS per member and address (decision 033), through the store. A recording that
// fails is logged and never fails the request it rode on (the next write records again).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** When the member's addresses were last seen, on either engine. */
const seenAt = async (client: TestClient) =>
  (
    await app.query<{ at: number }>(
      sql`SELECT last_seen_at AS "at" FROM user_addresses WHERE user_id = ${client.user!.id}`,
    )
  ).map((r) => r.at);

describe('address recording', () => {
  it('records the sign-in, then a write at most every few minutes per member and address', async () => {
    const signedInAt = app.clock.now();
    const member = await app.signIn('addr_record_1');
    expect(await seenAt(member)).toEqual([signedInAt]);

    app.clock.advance(MINUTE);
    const firstWrite = app.clock.now();
    await member.post('/api/hourly/claim', { type: 'regular' });
    expect(await seenAt(member)).toEqual([firstWrite]);

    app.clock.advance(ADDRESS_RECORD_EVERY_MS - MINUTE);
    await member.post('/api/hourly/claim', { type: 'regular' });
    expect(await seenAt(member)).toEqual([firstWrite]);

    app.clock.advance(MINUTE);
    await member.post('/api/hourly/claim', { type: 'regular' });
    expect(await seenAt(member)).toEqual([app.clock.now()]);
  });

  it('logs a failed recording and answers the sign-in and the write as usual, then records on the next write', async () => {
    // Renaming the table makes every recording fail, on either engine.
    await app.exec(sql`ALTER TABLE user_addresses RENAME TO user_addresses_away`);
    let member: TestClient;
    let claim: Awaited<ReturnType<TestClient['post']>>;
    try {
      member = await app.signIn('addr_record_2');
      expect(member.user).toBeDefined();
      claim = await member.post('/api/hourly/claim', { type: 'regular' });
    } finally {
      await app.exec(sql`ALTER TABLE user_addresses_away RENAME TO user_addresses`);
    }
    expect(claim.status).toBe(200);
    expect(app.logLines.filter((l) => l.includes('address recording failed')).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(await seenAt(member)).toEqual([]);
    // Not throttled: the failed recording did not count as one.
    await member.post('/api/hourly/claim', { type: 'regular' });
    expect(await seenAt(member)).toEqual([app.clock.now()]);
  });
});
