import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_BOT_TOKEN, startDiscordSimulator, type DiscordSimulator } from '../sim/discord/index.ts';
import { DiscordApi, whilePersonWaits } from './discord-api.ts';

// Issue 26 (review of decision 037): people's and background's bot calls share Discord's global
// 50/s, people first. A person's call made while a 1,000-call background sweep is queued is answered
// (no "Discord is busy") long before the sweep ends: it takes the next free slot. Counted, not timed.

let sim: DiscordSimulator & { url: string };

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
});
afterAll(() => sim.close());

describe("the bot's global limit, people first", () => {
  it('answers a person during a 1,000-call background sweep without waiting for it', async () => {
    const owner = sim.state.createUser({ username: 'flood_owner' }).id;
    const member = sim.state.createUser({ username: 'flood_member' }).id;
    // Ten guilds: Discord's member bucket is 10/s per guild, so the sweep is held by the global 50/s.
    const guilds = Array.from({ length: 11 }, (_, i) => {
      const g = sim.state.createGuild({ name: `Flood ${i}`, ownerId: owner });
      sim.state.addMember(g.id, member);
      return g.id;
    });
    const personGuild = guilds.pop()!;
    const api = new DiscordApi({ baseUrl: sim.url, botToken: DEFAULT_SIM_BOT_TOKEN });

    let backgroundDone = 0;
    const sweep = Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        api.getGuildMember(guilds[i % guilds.length]!, member).then(() => (backgroundDone += 1)),
      ),
    );
    // The sweep is under way (and holds the global limit) before the person comes.
    while (backgroundDone < 60) await new Promise((r) => setTimeout(r, 20));

    const found = await whilePersonWaits(() => api.getGuildMember(personGuild, member));
    const doneWhenAnswered = backgroundDone;
    expect(found?.user?.id).toBe(member);
    expect(api.stats().busy).toBe(0);
    // Answered while most of the sweep was still to come (it did not queue behind it).
    expect(doneWhenAnswered).toBeLessThan(500);
    const limit = api.globalLimitStats();
    expect(limit.granted.person).toBe(1);

    await sweep;
    expect(backgroundDone).toBe(1000);
    expect(api.stats().busy).toBe(0);
  }, 120_000);
});
