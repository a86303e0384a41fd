import { describe, expect, it } from 'vitest';
import { runDiscordBench } from './discord.ts';

// Keeps the Discord benches from rotting: tiny sizes, run in-process. Figures are not asserted (they
// depend on the machine); only that every join was paid and every removal settled as it should.

describe('npm run bench -- --reconcile / --mass-leave (tiny)', () => {
  it('reconciles open joins and settles a mass kick while arrivals are verified', async () => {
    const ok = await runDiscordBench({
      reconcile: true,
      massLeave: true,
      guilds: 3,
      joinsPerGuild: 12,
      guildSize: 40,
      via: 'rest',
      leavers: 6,
      arrivals: 2,
      leaveReason: 'kick',
    });
    expect(ok).toBe(true);
  }, 60_000);
});
