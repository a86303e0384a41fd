import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIM_BOT_TOKEN,
  startDiscordSimulator,
  type DiscordSimulator,
  type SimGuild,
} from '../sim/discord/index.ts';
import { DiscordApi, DiscordApiError } from './discord-api.ts';

// The product's Discord client (@discordjs/rest underneath) against Discord on a bad day: Cloudflare's
// HTML pages instead of JSON, 5xx and unannounced 429s. It must retry what @discordjs/rest retries and
// never surface a SyntaxError from parsing a page as JSON.

let sim: DiscordSimulator & { url: string };
let guild: SimGuild;
let memberId: string;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  const owner = sim.state.createUser({ username: 'api_owner' });
  memberId = sim.state.createUser({ username: 'api_member' }).id;
  guild = sim.state.createGuild({ name: 'Api guild', ownerId: owner.id });
  sim.state.addMember(guild.id, memberId);
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.state.unreliable.reset();
  sim.state.rateLimits.configure({ enabled: false });
});

const api = () => new DiscordApi({ baseUrl: sim.url, botToken: DEFAULT_SIM_BOT_TOKEN, retries: 3 });

describe('DiscordApi under injected faults', () => {
  it('survives HTML 429 and 502 pages: every call answers, retried by @discordjs/rest', async () => {
    sim.state.unreliable.configure({ rate: 0.3, seed: 21, faults: ['html'], retryAfterSeconds: 0.01 });
    const client = api();
    for (let i = 0; i < 40; i++) {
      const member = await client.getGuildMember(guild.id, memberId);
      expect(member?.user?.id).toBe(memberId);
    }
    const { html } = sim.state.unreliable.injected;
    expect(html).toBeGreaterThan(0);
    // Each injected page was answered by a retry: as many responses as calls plus pages.
    expect(client.stats().responses).toBe(40 + html);
  });

  it('survives JSON 5xx and unannounced 429s the same way', async () => {
    sim.state.unreliable.configure({
      rate: 0.3,
      seed: 22,
      faults: ['server-error', 'rate-limit'],
      retryAfterSeconds: 0.01,
    });
    const client = api();
    for (let i = 0; i < 40; i++) expect(await client.isBotInGuild(guild.id)).toBe(true);
    const { serverError, rateLimit } = sim.state.unreliable.injected;
    expect(serverError).toBeGreaterThan(0);
    expect(rateLimit).toBeGreaterThan(0);
    expect(client.stats().rateLimited).toBe(rateLimit);
  });

  it('gives up on an HTML 502 that never ends with a DiscordApiError, not a SyntaxError', async () => {
    sim.state.unreliable.configure({ rate: 1, seed: 1, faults: ['html'], retryAfterSeconds: 0.01 });
    const client = api();
    const failure = await client.getGuildMember(guild.id, memberId).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(DiscordApiError);
    expect(failure).not.toBeInstanceOf(SyntaxError);
    expect((failure as DiscordApiError).status).toBe(502);
    expect((failure as DiscordApiError).code).toBe(0);
    // 1 try + 3 retries of the 502 (the HTML 429s in between are waited out, not counted as retries).
    expect(sim.state.unreliable.injected.html - client.stats().rateLimited).toBe(4);
  });
});
