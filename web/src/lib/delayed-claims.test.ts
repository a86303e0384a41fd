import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import {
  DelayedClaims,
  MAX_TOO_EARLY_RETRIES,
  TOO_EARLY_RETRY_MS,
  type ClaimKind,
} from './delayed-claims.ts';

// Fake timers drive the delays (no test waits for real time); storage is an in-memory Map.

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

interface FakeKind extends ClaimKind {
  open: Set<string>;
  claims: string[];
  earned: string[];
  failed: { id: string; willRetry: boolean; status: number | null }[];
  dropped: string[];
  answer: (id: string) => Promise<{ earned: string }>;
}

function fakeKind(prefix: string, idField: string, delayMs: number): FakeKind {
  const kind: FakeKind = {
    storagePrefix: prefix,
    idField,
    delayMs,
    silentStatuses: [404],
    open: new Set(),
    claims: [],
    earned: [],
    failed: [],
    dropped: [],
    answer: () => Promise.resolve({ earned: '0.20' }),
    stillOpen: (ids) => Promise.resolve(new Set(ids.filter((id) => kind.open.has(id)))),
    claim: (id) => {
      kind.claims.push(id);
      return kind.answer(id);
    },
    onEarned: (earned, id) => kind.earned.push(`${id}:${earned}`),
    onFailed: (error, willRetry, id) =>
      kind.failed.push({ id, willRetry, status: error instanceof ApiError ? error.status : null }),
    onDropped: (id) => kind.dropped.push(id),
  };
  return kind;
}

const apiError = (status: number, message: string) =>
  new ApiError(status, { message }, JSON.stringify({ message }));

let storage: MemoryStorage;
let nobot: FakeKind;
let social: FakeKind;
let claims: DelayedClaims<'nobot' | 'social'>;

function newScheduler(): DelayedClaims<'nobot' | 'social'> {
  return new DelayedClaims({ nobot, social }, { storage: () => storage, now: () => Date.now() });
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-24T00:00:00Z') });
  storage = new MemoryStorage();
  nobot = fakeKind('coinsync:pending-nobot-claims:', 'serverId', 10_000);
  social = fakeKind('coinsync:pending-social-claims:', 'taskId', 15_000);
  claims = newScheduler();
});
afterEach(() => {
  claims.stop();
  vi.useRealTimers();
});

describe('DelayedClaims', () => {
  it('sends a claim once its delay has passed, stores it meanwhile in the spec shape, then forgets it', async () => {
    social.open.add('t1');
    claims.add('u1', 'social', 't1');
    expect(JSON.parse(storage.getItem('coinsync:pending-social-claims:u1') ?? 'null')).toEqual([
      { taskId: 't1', claimAt: Date.now() + 15_000 },
    ]);
    expect(claims.pending('social')).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(14_999);
    expect(social.claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(social.claims).toEqual(['t1']);
    expect(social.earned).toEqual(['t1:0.20']);
    expect(storage.getItem('coinsync:pending-social-claims:u1')).toBeNull();
    expect(claims.pending('social')).toEqual([]);
  });

  it('drops a due claim whose task or campaign is no longer open, without sending it', async () => {
    social.open.add('t1');
    nobot.open.add('s1');
    claims.add('u1', 'social', 't1');
    claims.add('u1', 'nobot', 's1');
    social.open.delete('t1'); // the task is removed while the claim waits
    nobot.open.delete('s1'); // the campaign is cancelled

    await vi.advanceTimersByTimeAsync(15_000);
    expect(social.claims).toEqual([]);
    expect(nobot.claims).toEqual([]);
    expect(social.dropped).toEqual(['t1']);
    expect(nobot.dropped).toEqual(['s1']);
    expect(social.failed).toEqual([]);
    expect(storage.items.size).toBe(0);
  });

  it('runs both kinds through the same mechanism, each with its own delay and storage field', async () => {
    social.open.add('t1');
    nobot.open.add('s1');
    claims.add('u1', 'social', 't1');
    claims.add('u1', 'nobot', 's1');
    expect(JSON.parse(storage.getItem('coinsync:pending-nobot-claims:u1') ?? 'null')).toEqual([
      { serverId: 's1', claimAt: Date.now() + 10_000 },
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(nobot.claims).toEqual(['s1']);
    expect(social.claims).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(social.claims).toEqual(['t1']);
  });

  it('resumes stored claims on page load: due ones at once, others at their due time', async () => {
    storage.setItem(
      'coinsync:pending-social-claims:u1',
      JSON.stringify([
        { taskId: 'due', claimAt: Date.now() - 1_000 },
        { taskId: 'later', claimAt: Date.now() + 5_000 },
        { taskId: '', claimAt: 1 },
        { nonsense: true },
      ]),
    );
    social.open = new Set(['due', 'later']);
    claims.resume('u1');
    await vi.advanceTimersByTimeAsync(0);
    expect(social.claims).toEqual(['due']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(social.claims).toEqual(['due', 'later']);
  });

  it('never waits longer than the delay, whatever the stored due time says (clocks disagree)', async () => {
    storage.setItem(
      'coinsync:pending-nobot-claims:u1',
      JSON.stringify([{ serverId: 's1', claimAt: Date.now() + 3_600_000 }]),
    );
    nobot.open.add('s1');
    claims.resume('u1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(nobot.claims).toEqual(['s1']);
  });

  it('retries a "too early" answer a few seconds later, a bounded number of times', async () => {
    social.open.add('t1');
    social.answer = () => Promise.reject(apiError(425, 'Too early'));
    claims.add('u1', 'social', 't1', 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(social.claims).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(TOO_EARLY_RETRY_MS);
    expect(social.claims).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(TOO_EARLY_RETRY_MS * (MAX_TOO_EARLY_RETRIES + 5));
    expect(social.claims).toHaveLength(MAX_TOO_EARLY_RETRIES + 1);
    // Still stored: the next page load tries again.
    expect(claims.pending('social')).toHaveLength(1);
    expect(social.failed).toEqual([]);
  });

  it('a refusal drops the claim with a message; a silent status drops it quietly; an outage keeps it for the next load', async () => {
    nobot.open = new Set(['refused', 'gone', 'outage']);
    nobot.answer = (id) =>
      Promise.reject(
        id === 'refused'
          ? apiError(409, 'No slots left')
          : id === 'gone'
            ? apiError(404, 'Campaign not found')
            : new TypeError('Failed to fetch'),
      );
    for (const id of ['refused', 'gone', 'outage']) claims.add('u1', 'nobot', id, 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(nobot.failed).toEqual([
      { id: 'refused', willRetry: false, status: 409 },
      { id: 'outage', willRetry: true, status: null },
    ]);
    expect(nobot.dropped).toEqual(['gone']);
    expect(claims.pending('nobot').map((c) => c.id)).toEqual(['outage']);

    // The outage is not retried in this page session...
    await vi.advanceTimersByTimeAsync(60_000);
    expect(nobot.claims.filter((id) => id === 'outage')).toHaveLength(1);
    // ...but on the next page load it is.
    nobot.answer = () => Promise.resolve({ earned: '0.20' });
    const nextLoad = newScheduler();
    nextLoad.resume('u1');
    await vi.advanceTimersByTimeAsync(0);
    expect(nobot.earned).toEqual(['outage:0.20']);
    nextLoad.stop();
  });

  it('an outage while checking the list keeps the claim and sends nothing', async () => {
    social.stillOpen = () => Promise.reject(new TypeError('Failed to fetch'));
    claims.add('u1', 'social', 't1', 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(social.claims).toEqual([]);
    expect(social.failed).toEqual([{ id: 't1', willRetry: true, status: null }]);
    expect(claims.pending('social')).toHaveLength(1);
  });

  it('never sends two requests for one claim at once', async () => {
    let release: (value: { earned: string }) => void = () => undefined;
    social.open.add('t1');
    social.answer = () => new Promise((resolve) => (release = resolve));
    claims.add('u1', 'social', 't1', 0);
    await vi.advanceTimersByTimeAsync(0);
    claims.resume('u1'); // e.g. the shell re-mounts while the request is out
    await vi.advanceTimersByTimeAsync(0);
    expect(social.claims).toEqual(['t1']);
    release({ earned: '2.00' });
    await vi.advanceTimersByTimeAsync(0);
    expect(social.earned).toEqual(['t1:2.00']);
  });

  it('keeps each account’s claims apart and stops on sign-out', async () => {
    social.open = new Set(['a', 'b']);
    claims.add('alice', 'social', 'a');
    claims.stop();
    claims.resume('bob');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(social.claims).toEqual([]);
    expect(claims.pending('social')).toEqual([]);
    claims.resume('alice');
    await vi.advanceTimersByTimeAsync(0);
    expect(social.claims).toEqual(['a']);
  });

  it('retainOnly drops claims for tasks no longer listed; remove forgets one; listeners hear every change', async () => {
    const heard = vi.fn();
    claims.subscribe(heard);
    social.open = new Set(['a', 'b', 'c']);
    for (const id of ['a', 'b', 'c']) claims.add('u1', 'social', id);
    const before = claims.pending('social');
    expect(claims.pending('social')).toBe(before); // stable between changes
    claims.retainOnly('social', new Set(['a', 'b']));
    claims.remove('social', 'b');
    expect(claims.pending('social').map((c) => c.id)).toEqual(['a']);
    expect(heard).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(social.claims).toEqual(['a']);
  });

  it('works without storage (private mode): the claim still runs in this tab', async () => {
    const noStorage = new DelayedClaims({ nobot, social }, { storage: () => null });
    nobot.open.add('s1');
    noStorage.add('u1', 'nobot', 's1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(nobot.claims).toEqual(['s1']);
    noStorage.stop();
  });
  it('retries a "not yet" refusal quietly (marked waiting), pays once the member acted, and drops it silently after the retries', async () => {
    const notYet = (error: unknown) => error instanceof ApiError && error.status === 409;
    Object.assign(nobot, { notYet, notYetRetryMs: 5_000, maxNotYetRetries: 2 });
    nobot.open.add('s1');
    let inGuild = false;
    nobot.answer = () =>
      inGuild ? Promise.resolve({ earned: '0.20' }) : Promise.reject(apiError(409, 'not in the guild yet'));
    claims.add('u1', 'nobot', 's1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(nobot.claims).toEqual(['s1']);
    expect(nobot.failed).toEqual([]);
    expect(claims.pending('nobot')).toEqual([expect.objectContaining({ id: 's1', waiting: true })]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(nobot.claims).toEqual(['s1', 's1']);
    inGuild = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(nobot.earned).toEqual(['s1:0.20']);
    expect(claims.pending('nobot')).toEqual([]);

    // Never accepted: after the retries the claim goes without a message (the page offers Claim).
    inGuild = false;
    nobot.open.add('s2');
    claims.add('u1', 'nobot', 's2');
    await vi.advanceTimersByTimeAsync(10_000 + 5_000 * 3);
    expect(nobot.claims.filter((id) => id === 's2')).toHaveLength(3);
    expect(nobot.failed).toEqual([]);
    expect(nobot.dropped).toEqual(['s2']);
    expect(claims.pending('nobot')).toEqual([]);
  });
});
