import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIM_BOT_TOKEN,
  startDiscordSimulator,
  type DiscordSimulator,
  type SimGuild,
} from '../sim/discord/index.ts';
import { DEFAULT_RATE_LIMITS } from '../sim/discord/rate-limits.ts';
import { createReadiness } from '../ops/readiness.ts';
import { readMetric } from '../metrics.ts';
import {
  DiscordApi,
  DiscordApiError,
  DiscordBusyError,
  inBackground,
  waitInWords,
  whilePersonWaits,
} from './discord-api.ts';

// Issue 26 items 3-5 at the port: a person never waits on Discord past a deadline (a long Retry-After,
// Cloudflare's ban page, a Discord that does not answer), each member's OAuth calls queue on their own
// token's buckets, invite look-ups carry the bot token, and a 401 on the bot token is survived.

let sim: DiscordSimulator & { url: string };
let guild: SimGuild;
let memberId: string;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  const owner = sim.state.createUser({ username: 'deadline_owner' });
  memberId = sim.state.createUser({ username: 'deadline_member' }).id;
  guild = sim.state.createGuild({ name: 'Deadline guild', ownerId: owner.id });
  sim.state.addMember(guild.id, memberId);
  sim.state.createInvite(guild.id, { code: 'deadline-invite' });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.state.unreliable.reset();
  sim.state.rateLimits.config = structuredClone(DEFAULT_RATE_LIMITS);
  sim.state.rateLimits.reset();
  sim.state.botTokenValid = true;
});

const logLines: string[] = [];
const logger = {
  error: (m: string) => void logLines.push(`error ${m}`),
  warn: (m: string) => void logLines.push(`warn ${m}`),
  info: (m: string) => void logLines.push(`info ${m}`),
};
const api = (extra: Partial<ConstructorParameters<typeof DiscordApi>[0]> = {}) =>
  new DiscordApi({ baseUrl: sim.url, botToken: DEFAULT_SIM_BOT_TOKEN, logger, ...extra });

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

/** A member with a bearer token the simulator knows (as after sign-in). */
function memberToken(name: string): string {
  const user = sim.state.createUser({ username: name });
  const token = `token-${name}`;
  sim.state.tokens.set(token, {
    userId: user.id,
    scope: 'identify guilds',
    expiresAt: Date.now() + 3_600_000,
    refreshToken: `refresh-${name}`,
  });
  return token;
}

describe('a call a person waits on', () => {
  it('answers "Discord is busy" at once when Discord asks for Retry-After: 120', async () => {
    const client = api();
    sim.state.unreliable.inject({ fault: 'rate-limit', retryAfterSeconds: 120, path: '/members/' });
    const failure = await failureOf(whilePersonWaits(() => client.getGuildMember(guild.id, memberId)));
    expect(failure).toBeInstanceOf(DiscordBusyError);
    const busy = failure as DiscordBusyError;
    expect(busy.message).toBe('Discord is busy — try again in 2 min');
    expect(busy.retryAfterSeconds).toBe(120);
    expect(busy.status).toBe(503);
    // The next person's call to the same bucket is told at once, without asking Discord again
    // (another 429 would count toward the invalid-request ban).
    const responses = client.stats().responses;
    const again = await failureOf(whilePersonWaits(() => client.getGuildMember(guild.id, memberId)));
    expect(again).toBeInstanceOf(DiscordBusyError);
    expect((again as DiscordBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(119);
    expect(client.stats().responses).toBe(responses);
    // Other buckets are not held.
    expect(await whilePersonWaits(() => client.isBotInGuild(guild.id))).toBe(true);
  });

  it('answers "Discord is busy" at once on Cloudflare ban pages (HTML 429, Retry-After: 3600)', async () => {
    const client = api();
    const bansBefore = await readMetric('coinsync_discord_busy_total', { reason: 'ban' });
    sim.state.rateLimits.ban(3_600_000);
    const failure = await failureOf(whilePersonWaits(() => client.isBotInGuild(guild.id)));
    expect(failure).toBeInstanceOf(DiscordBusyError);
    expect((failure as DiscordBusyError).message).toBe('Discord is busy — try again in 60 min');
    expect((failure as DiscordBusyError).retryAfterSeconds).toBe(3600);
    expect((failure as DiscordBusyError).reason).toBe('ban');
    // The ban covers every request from this address: no other person's call is sent during it.
    const responses = client.stats().responses;
    const other = await failureOf(whilePersonWaits(() => client.getInvite('deadline-invite')));
    expect(other).toBeInstanceOf(DiscordBusyError);
    expect(client.stats().responses).toBe(responses);
    expect(sim.state.rateLimits.stats().cloudflareBanned).toBe(1);
    expect(logLines.some((l) => l.includes('Cloudflare refuses our requests'))).toBe(true);
    expect(await readMetric('coinsync_discord_busy_total', { reason: 'ban' })).toBe(bansBefore + 2);
  });

  it('background work waits a ban out and then gets its answer; people are told meanwhile', async () => {
    const client = api();
    sim.state.rateLimits.ban(1_500);
    // A person with a short deadline is told; the background call waits and succeeds.
    const person = await failureOf(whilePersonWaits(() => client.isBotInGuild(guild.id), 300));
    expect(person).toBeInstanceOf(DiscordBusyError);
    const background = client.getGuildMember(guild.id, memberId);
    expect((await background)?.user?.id).toBe(memberId);
    // One ban page was seen; the background call was sent once the ban was over.
    expect(sim.state.rateLimits.stats().cloudflareBanned).toBe(1);
  });

  it('gives up at the deadline when Discord does not answer, with a Retry-After to come back', async () => {
    // A Discord that never answers (the request hangs until aborted).
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const client = api({ fetch: hanging, retries: 0 });
    const failure = await failureOf(whilePersonWaits(() => client.isBotInGuild(guild.id), 200));
    expect(failure).toBeInstanceOf(DiscordBusyError);
    expect((failure as DiscordBusyError).reason).toBe('deadline');
    expect((failure as DiscordBusyError).message).toBe('Discord is busy — try again in 30 s');
  });

  it('waits out a Retry-After shorter than the deadline (the person gets the answer)', async () => {
    const client = api();
    sim.state.unreliable.inject({ fault: 'rate-limit', retryAfterSeconds: 0.2, path: '/members/' });
    const member = await whilePersonWaits(() => client.getGuildMember(guild.id, memberId));
    expect(member?.user?.id).toBe(memberId);
  });

  it('leaves background work without a deadline, even when started from a person’s request', async () => {
    const client = api();
    sim.state.unreliable.inject({ fault: 'rate-limit', retryAfterSeconds: 0.3, path: '/members/' });
    const member = await whilePersonWaits(() =>
      inBackground(() => client.getGuildMember(guild.id, memberId)),
    );
    expect(member?.user?.id).toBe(memberId);
  });

  it('words waits as a person reads them', () => {
    expect(waitInWords(400)).toBe('1 s');
    expect(waitInWords(120_050)).toBe('2 min');
    expect(waitInWords(45_000)).toBe('45 s');
    expect(waitInWords(120_000)).toBe('2 min');
    expect(waitInWords(3_600_000)).toBe('60 min');
    expect(waitInWords(4 * 3_600_000)).toBe('4 h');
  });
});

describe('one rate-limit queue per token', () => {
  it("one member's exhausted bucket delays no other member, and there is no site-wide 50/s", async () => {
    // Long windows, so the first member's bucket stays empty for the whole test.
    sim.state.rateLimits.configure({
      globalWindowMs: 60_000,
      buckets: { 'current-user-guilds': { limit: 2, windowMs: 60_000 } },
    });
    const client = api();
    const heavy = memberToken('heavy_user');
    await client.getCurrentUserGuilds(heavy);
    await client.getCurrentUserGuilds(heavy);
    // The heavy member's third call waits for his bucket (a minute): left running.
    const waiting = client.getCurrentUserGuilds(heavy).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waitsBefore = client.stats().waitedForBucket;
    expect(waitsBefore).toBeGreaterThanOrEqual(1);
    // 60 other members' first calls: none is held back (neither by his bucket nor by a shared 50/s).
    const others = Array.from({ length: 60 }, (_, i) => memberToken(`other_user_${i}`));
    const lists = await Promise.all(others.map((t) => client.getCurrentUserGuilds(t)));
    expect(lists).toHaveLength(60);
    expect(client.stats().waitedForBucket).toBe(waitsBefore);
    expect(sim.state.rateLimits.stats().rateLimited).toBe(0);
    void waiting;
  });

  it('keeps a bounded number of token queues (least recently used go)', async () => {
    const client = api({ maxTokenClients: 5 });
    for (let i = 0; i < 12; i++) await client.getCurrentUser(memberToken(`lru_user_${i}`));
    expect(client.tokenClientCount()).toBe(5);
  });
});

describe('invite look-ups', () => {
  it('are sent with the bot token, so Discord sends rate-limit headers with them', async () => {
    const seen: { url: string; authorization: string | null; limit: string | null }[] = [];
    const recording: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      const headers = new Headers(init?.headers);
      seen.push({
        url: url instanceof Request ? url.url : url.toString(),
        authorization: headers.get('authorization'),
        limit: res.headers.get('x-ratelimit-limit'),
      });
      return res;
    };
    const invite = await api({ fetch: recording }).getInvite('deadline-invite');
    expect(invite?.guild?.id).toBe(guild.id);
    const call = seen.find((s) => s.url.includes('/invites/'));
    expect(call?.authorization).toBe(`Bot ${DEFAULT_SIM_BOT_TOKEN}`);
    expect(call?.limit).not.toBeNull();
  });
});

describe('a 401 on the bot token', () => {
  it('is reported (log, metric, readiness) and bot REST comes back once the token is valid again', async () => {
    const client = api({ botTokenRetryMs: 0 });
    const readiness = createReadiness({
      store: { transaction: () => Promise.resolve() } as never,
      now: () => Date.now(),
      startedAt: Date.now(),
      botOff: 'test',
      jobs: { get: () => undefined, list: () => [] } as never,
      discordBotToken: () => client.botTokenState(),
    });
    expect(await client.isBotInGuild(guild.id)).toBe(true);
    const rejectedBefore = await readMetric('coinsync_discord_bot_token_rejected_total');

    sim.state.botTokenValid = false;
    const failure = await failureOf(client.getGuildMember(guild.id, memberId));
    expect(failure).toBeInstanceOf(DiscordApiError);
    expect((failure as DiscordApiError).status).toBe(401);
    expect(logLines.some((l) => l.includes('Discord rejected the bot token (401)'))).toBe(true);
    expect(await readMetric('coinsync_discord_bot_token_rejected_total')).toBe(rejectedBefore + 1);
    const report = await readiness();
    expect(report.ready).toBe(false);
    expect(report.checks.discordBotToken?.detail).toMatch(/Discord rejected the bot token \(401\)/);

    // Still rejected: the configured token is sent again (not "Expected token to be set").
    const second = await failureOf(client.getGuildMember(guild.id, memberId));
    expect((second as DiscordApiError).status).toBe(401);

    sim.state.botTokenValid = true;
    expect((await client.getGuildMember(guild.id, memberId))?.user?.id).toBe(memberId);
    expect(await client.isBotInGuild(guild.id)).toBe(true);
    expect(await client.getInvite('deadline-invite')).not.toBeNull();
    expect((await readiness()).checks.discordBotToken).toEqual({ ok: true, detail: 'accepted' });
    expect(logLines.some((l) => l.includes('bot token is accepted again'))).toBe(true);
  });

  it('is tried again only now and then while Discord keeps rejecting it', async () => {
    const client = api({ botTokenRetryMs: 60_000 });
    sim.state.botTokenValid = false;
    await failureOf(client.isBotInGuild(guild.id));
    const responses = client.stats().responses;
    for (let i = 0; i < 5; i++) {
      const failure = await failureOf(client.isBotInGuild(guild.id));
      expect((failure as DiscordApiError).status).toBe(401);
    }
    // No more 401s sent (each would count toward Discord's invalid-request ban).
    expect(client.stats().responses).toBe(responses);
  });
});
