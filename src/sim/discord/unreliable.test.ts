import { Client, Events, GatewayIntentBits, Partials, type GuildMember } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIM_BOT_TOKEN,
  startDiscordSimulator,
  type DiscordSimulator,
  type SimGuild,
} from './index.ts';
import { GUILD_MEMBERS_INTENT } from './state.ts';
import type { Fault, InjectedCounts } from './unreliable.ts';

// The unreliable-Discord setting: each fault kind really happens, at about the configured rate, and
// the same seed gives the same faults in the same places.

let sim: DiscordSimulator & { url: string };
let guild: SimGuild;
let ownerId: string;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  // These tests use member events and lists: the application has the Server Members intent enabled.
  sim.state.gateway.allowedPrivilegedIntents = GUILD_MEMBERS_INTENT;
  ownerId = sim.state.createUser({ username: 'flaky_owner' }).id;
  guild = sim.state.createGuild({ name: 'Flaky', ownerId });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.state.unreliable.reset();
  sim.state.rateLimits.configure({ enabled: false }); // only injected faults in these answers
});

const configure = async (body: Record<string, unknown>): Promise<void> => {
  const res = await fetch(`${sim.url}/control/unreliable`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(204);
};

const injected = async (): Promise<InjectedCounts> =>
  ((await (await fetch(`${sim.url}/control/unreliable`)).json()) as { injected: InjectedCounts }).injected;

/** Sends `n` requests one after the other; what came back, as "status content-type". */
async function outcomes(n: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${sim.url}/api/v10/guilds/${guild.id}`, {
      headers: { authorization: `Bot ${DEFAULT_SIM_BOT_TOKEN}` },
    });
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const body = await res.text();
    if (type === 'application/json') JSON.parse(body); // every JSON answer really is JSON
    seen.push(`${res.status} ${type}`);
  }
  return seen;
}

const N = 400;
/** Binomial(N, p) stays within 4.5 standard deviations of N·p (fails about once in 150,000 seeds). */
const near = (count: number, p: number) => {
  const sd = Math.sqrt(N * p * (1 - p));
  expect(count).toBeGreaterThanOrEqual(Math.floor(N * p - 4.5 * sd));
  expect(count).toBeLessThanOrEqual(Math.ceil(N * p + 4.5 * sd));
};

// Hang guards: a test of REST faults sends 400 requests one after the other (seconds at load ~20).
describe('REST faults', { timeout: 90_000 }, () => {
  it.each<[Fault, (o: string) => boolean, keyof InjectedCounts]>([
    ['rate-limit', (o) => o === '429 application/json', 'rateLimit'],
    ['server-error', (o) => o === '500 application/json' || o === '503 application/json', 'serverError'],
    ['html', (o) => o === '502 text/html' || o === '429 text/html', 'html'],
  ])('injects %s at the configured rate', async (fault, isFault, counter) => {
    await configure({ rate: 0.2, seed: 11, faults: [fault] });
    const seen = await outcomes(N);
    const faults = seen.filter(isFault).length;
    expect(seen.filter((o) => o !== '200 application/json').length).toBe(faults);
    near(faults, 0.2);
    expect((await injected())[counter]).toBe(faults);
  });

  it('spreads a mixed rate evenly over the enabled kinds; HTML pages come as 502 and 429', async () => {
    await configure({ rate: 0.3, seed: 5, faults: ['rate-limit', 'server-error', 'html'] });
    const seen = await outcomes(N);
    near(seen.filter((o) => o !== '200 application/json').length, 0.3);
    for (const kind of ['429 application/json', '502 text/html', '429 text/html']) {
      expect(seen.filter((o) => o === kind).length).toBeGreaterThan(0);
    }
    expect(seen.some((o) => o.startsWith('50') && o.endsWith('json'))).toBe(true);
  });

  it('replays the same faults for the same seed, and others for another seed', async () => {
    await configure({ rate: 0.25, seed: 1234 });
    const first = await outcomes(120);
    await configure({ rate: 0.25, seed: 1234 });
    const again = await outcomes(120);
    expect(again).toEqual(first);
    await configure({ rate: 0.25, seed: 4321 });
    expect(await outcomes(120)).not.toEqual(first);
  });

  it('injects nothing at rate 0 and validates its settings', async () => {
    expect(new Set(await outcomes(50))).toEqual(new Set(['200 application/json']));
    const bad = await fetch(`${sim.url}/control/unreliable`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rate: 2 }),
    });
    expect(bad.status).toBe(400);
    const unknown = await fetch(`${sim.url}/control/unreliable`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: ['meteor'] }),
    });
    expect(unknown.status).toBe(400);
  });
});

describe('late audit-log entries', () => {
  const kickMany = (n: number, prefix: string): string[] => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = sim.state.createUser({ username: `${prefix}_${i}` }).id;
      sim.state.addMember(guild.id, id);
      sim.state.removeMember(guild.id, id, { reason: 'kick', actorId: ownerId });
      ids.push(id);
    }
    return ids;
  };
  const visible = (ids: string[]) => {
    const shown = new Set(
      sim.state.listAudit(guild.id, { actionType: 20, limit: 100 }).map((e) => e.targetId),
    );
    return ids.filter((id) => shown.has(id));
  };

  it('hides about `rate` of the entries for lateAuditMs, the same ones for the same seed', async () => {
    await configure({ rate: 0.5, seed: 3, faults: ['late-audit'], lateAuditMs: 600_000 });
    const first = kickMany(80, 'late_a');
    const shown = visible(first);
    const late = first.length - shown.length;
    expect((await injected()).lateAudit).toBe(late);
    expect(late).toBeGreaterThan(80 * 0.5 - 4.5 * Math.sqrt(20));
    expect(late).toBeLessThan(80 * 0.5 + 4.5 * Math.sqrt(20));
    // Same seed: the same positions are late.
    await configure({ rate: 0.5, seed: 3 });
    const second = kickMany(80, 'late_b');
    const pattern = (ids: string[], shownIds: string[]) => ids.map((id) => shownIds.includes(id));
    expect(pattern(second, visible(second))).toEqual(pattern(first, shown));
  });

  it('delays every entry by auditDelayMs, then shows it', async () => {
    await configure({ auditDelayMs: 400 });
    const [id] = kickMany(1, 'late_all');
    expect(visible([id!])).toEqual([]);
    await new Promise((r) => setTimeout(r, 450));
    expect(visible([id!])).toEqual([id]);
  });
});

describe('dropped gateway events', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
      partials: [Partials.GuildMember, Partials.User],
      rest: { api: `${sim.url}/api` },
    });
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(DEFAULT_SIM_BOT_TOKEN);
    await ready;
  });
  afterAll(() => client.destroy());

  /** Adds members; returns the ids discord.js saw, once a final event (never dropped) arrived. */
  async function addAndCollect(n: number, prefix: string): Promise<{ added: string[]; seen: string[] }> {
    const seen: string[] = [];
    const sentinel = sim.state.createUser({ username: `${prefix}_end` }).id;
    const done = new Promise<void>((resolve) => {
      const listener = (m: GuildMember) => {
        if (m.id === sentinel) {
          client.off(Events.GuildMemberAdd, listener);
          resolve();
        } else seen.push(m.id);
      };
      client.on(Events.GuildMemberAdd, listener);
    });
    const added: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = sim.state.createUser({ username: `${prefix}_${i}` }).id;
      sim.state.addMember(guild.id, id);
      added.push(id);
    }
    const config = { ...sim.state.unreliable.config };
    sim.state.unreliable.config = { ...config, rate: 0 }; // the sentinel always arrives (events keep their order)
    sim.state.addMember(guild.id, sentinel);
    sim.state.unreliable.config = config;
    await done;
    return { added, seen };
  }

  it('drops about `rate` of the member events, the same ones for the same seed', async () => {
    await configure({ rate: 0.3, seed: 9, faults: ['drop-event'] });
    const first = await addAndCollect(N, 'drop_a');
    const dropped = first.added.length - first.seen.length;
    expect((await injected()).droppedEvents).toBe(dropped);
    near(dropped, 0.3);
    await configure({ rate: 0.3, seed: 9 });
    const second = await addAndCollect(N, 'drop_b');
    const pattern = (r: { added: string[]; seen: string[] }) => r.added.map((id) => r.seen.includes(id));
    expect(pattern(second)).toEqual(pattern(first));
  }, 90_000);
});
