import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GlobalLimit } from './global-limit.ts';

// Issue 26 (review of decision 037): the bot's global 50/s is one limiter shared by people's calls
// and background work. Before, it was split 25/25, so a sweep was capped at 25/s even when nobody
// waited. Fake timers: slots are counted, not timed.

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(() => vi.useRealTimers());

function flood(limit: GlobalLimit, lane: 'person' | 'background', n: number) {
  const order: number[] = [];
  for (let i = 0; i < n; i += 1) void limit.acquire(lane).then(() => order.push(i));
  return order;
}

describe('the shared global limit', () => {
  it('lets background use the whole 50/s when nobody waits', async () => {
    const limit = new GlobalLimit(50);
    const granted = flood(limit, 'background', 200);
    await vi.advanceTimersByTimeAsync(999);
    expect(granted.length).toBe(50); // the old split gave background 25 a second
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted.length).toBe(100);
  });

  it('never grants more than 50 in any second, people and background together', async () => {
    const limit = new GlobalLimit(50);
    const times: number[] = [];
    for (let i = 0; i < 150; i += 1)
      void limit.acquire(i % 3 === 0 ? 'person' : 'background').then(() => times.push(Date.now()));
    await vi.advanceTimersByTimeAsync(4000);
    expect(times).toHaveLength(150);
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(50);
  });

  it('gives a person the next slot ahead of a queued background flood', async () => {
    const limit = new GlobalLimit(50);
    const background = flood(limit, 'background', 1000);
    await vi.advanceTimersByTimeAsync(2500); // the flood runs at 50/s
    const before = background.length;
    let personAfter = -1;
    void limit.acquire('person').then(() => (personAfter = background.length));
    await vi.advanceTimersByTimeAsync(40);
    // Granted within the next couple of slots, not after the ~870 background calls still queued.
    expect(personAfter).toBeGreaterThanOrEqual(before);
    expect(personAfter).toBeLessThanOrEqual(before + 2);
    expect(limit.stats().queued.background).toBeGreaterThan(800);
  });

  it('a person burst takes free slots at once; an aborted wait leaves the queue', async () => {
    const limit = new GlobalLimit(50);
    const people = flood(limit, 'person', 50);
    await vi.advanceTimersByTimeAsync(0);
    expect(people.length).toBe(50);
    const controller = new AbortController();
    const waiting = limit.acquire('background', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(limit.stats().queued.background).toBe(0);
  });
});
