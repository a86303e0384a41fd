import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DATA_KEYS,
  AFTER_CHANGE_KEYS,
  AFTER_PURCHASE_KEYS,
  authKeys,
  campaignKeys,
  joinKeys,
  paymentKeys,
  rewardKeys,
  serverKeys,
  socialKeys,
  transactionKeys,
} from './query-keys.ts';
import { refetchAfterChange } from './refetch-after-change.ts';

// Every query the app runs, one per factory entry (with sample arguments).
const ALL_QUERIES = [
  authKeys.user(),
  authKeys.config(),
  serverKeys.pages(''),
  serverKeys.pages('cats'),
  serverKeys.featured(''),
  campaignKeys.list(),
  campaignKeys.myServers(),
  campaignKeys.botInvite(),
  transactionKeys.recent(),
  transactionKeys.summary(),
  transactionKeys.history('all', 1),
  transactionKeys.earnings(),
  socialKeys.list(),
  rewardKeys.status(),
  joinKeys.list(),
  paymentKeys.intent('small'),
];

function seededClient(): QueryClient {
  const client = new QueryClient();
  for (const key of ALL_QUERIES) client.setQueryData(key, 'cached');
  return client;
}

const invalidated = (client: QueryClient) =>
  client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => JSON.stringify(q.queryKey))
    .sort();

describe('query keys', () => {
  it('join into the API path the default query function GETs (docs/spec/product-spec.md §7)', () => {
    expect(transactionKeys.summary().join('/')).toBe('/api/transactions/summary');
    expect(transactionKeys.recent().join('/')).toBe('/api/transactions');
    expect(campaignKeys.myServers().join('/')).toBe('/api/servers/mine');
    expect(socialKeys.list().join('/')).toBe('/api/social');
  });

  it('are unique', () => {
    const keys = ALL_QUERIES.map((k) => JSON.stringify(k));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('after a coin-moving change, every account query and both Discover lists refetch; config, bot invite and payment sessions do not', async () => {
    const client = seededClient();
    await refetchAfterChange(client);
    const untouched = [authKeys.config(), campaignKeys.botInvite(), paymentKeys.intent('small')].map((k) =>
      JSON.stringify(k),
    );
    expect(invalidated(client)).toEqual(
      ALL_QUERIES.map((k) => JSON.stringify(k))
        .filter((k) => !untouched.includes(k))
        .sort(),
    );
  });

  it('keepServerLists leaves only the Discover lists alone', async () => {
    const client = seededClient();
    await refetchAfterChange(client, { keepServerLists: true });
    const lists = [serverKeys.pages(''), serverKeys.pages('cats'), serverKeys.featured('')].map((k) =>
      JSON.stringify(k),
    );
    const after = invalidated(client);
    for (const key of lists) expect(after).not.toContain(key);
    expect(after).toContain(JSON.stringify(transactionKeys.history('all', 1)));
  });

  it('the sets are built from the factories', () => {
    expect(AFTER_CHANGE_KEYS).toEqual([serverKeys.all(), ...ACCOUNT_DATA_KEYS]);
    expect(AFTER_PURCHASE_KEYS).toEqual([authKeys.user(), transactionKeys.all()]);
  });
});
