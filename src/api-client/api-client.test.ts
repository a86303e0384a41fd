import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { CLIENT_PATH, generateClientSource } from '../../scripts/api-client/generate.ts';
import type { CreatedAccessToken } from '../shared/access-tokens.ts';
import { ACCESS_TOKEN_MESSAGES, missingScopeMessage } from '../shared/access-tokens.ts';
import { CoinSyncApiError, createCoinSyncClient } from './coinsync-api.ts';

// The typed client (decision 053): committed, generated from the document (this fails until
// `npm run api:client` is run after a change to the routes or schemas), and used the way a partner
// script would use it, with a personal access token.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the typed API client', () => {
  it('is what `npm run api:client` writes from the current document', async () => {
    expect(readFileSync(CLIENT_PATH, 'utf8')).toBe(await generateClientSource());
  });

  it("reads, claims and is refused as the token's scopes say", async () => {
    const owner = await app.signIn('client_user');
    const created = await owner.post<CreatedAccessToken>('/api/account/tokens', {
      name: 'partner bot',
      scopes: ['read', 'rewards:claim'],
    });
    const client = createCoinSyncClient({ baseUrl: app.url, token: created.body.token });

    const me = await client.getMe();
    expect(me?.id).toBe(owner.user!.id);
    const status = await client.getRewardStatus();
    expect(status.canClaimRegular).toBe(true);
    app.clock.advance(1_000); // after the welcome bonus, so the history's order is not a tie
    const claimed = await client.claimReward({ body: { type: 'regular' } });
    expect(claimed).toEqual({ type: 'regular', earned: '1.00' });
    expect((await client.getMe())?.coins).toBe('6.00');
    const history = await client.listTransactions({ query: { pageSize: 1 } });
    expect(history.map((t) => t.type)).toEqual(['hourly']);

    // No campaigns:manage scope: refused with the API's message.
    const refused = await client.cancelCampaign({ params: { id: 'anything' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CoinSyncApiError);
    expect(refused).toMatchObject({ status: 403, message: missingScopeMessage('campaigns:manage') });

    await owner.delete(`/api/account/tokens/${created.body.id}`);
    const revoked = await client.getRewardStatus().catch((e: unknown) => e);
    expect(revoked).toMatchObject({ status: 401, message: ACCESS_TOKEN_MESSAGES.invalid });
  });
});
