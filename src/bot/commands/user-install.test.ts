import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { balanceOf, startBotTestApp } from '../bot-test-kit.ts';
import { EPHEMERAL, commandsRegistered, createLobby, run, text } from './test-kit.ts';
import { USER_INSTALLABLE } from './index.ts';

// Issue 32 item 1: the member commands are installable to a user account as well as to servers, and
// answer in any server (also one without the bot), in the bot's DM and in private channels. The
// simulator models user installs, `contexts` and `authorizing_integration_owners` as Discord does.

let app: TestApp;
let alice: TestClient;
let lobbyId: string;
let botlessId: string;

beforeAll(async () => {
  app = await startBotTestApp();
  alice = await app.signIn('install_alice');
  lobbyId = createLobby(app, alice).id;
  // A server Alice is in that never added the bot.
  botlessId = app.sim.state.createGuild({
    name: 'No Bot Here',
    ownerId: alice.user!.discordId,
    botMember: false,
  }).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

const sim = () => app.sim.state.interactions;

describe('registration', () => {
  it('registers member commands for guild and user installs in every context; owner commands guild-only', () => {
    for (const command of sim().listCommands(null)) {
      const expected = USER_INSTALLABLE.has(command.name)
        ? { integration_types: [0, 1], contexts: [0, 1, 2] }
        : { integration_types: [0], contexts: [0] };
      expect({ name: command.name, ...expected }).toEqual({
        name: command.name,
        integration_types: command.integration_types,
        contexts: command.contexts,
      });
    }
    expect([...USER_INSTALLABLE].sort()).toEqual([
      'bonus',
      'coins',
      'daily',
      'farm',
      'help',
      'hourly',
      'joins',
      'remind',
    ]);
    expect(sim().findCommand(null, 'campaign')).toMatchObject({ integration_types: [0], contexts: [0] });
  });
});

describe('without a user install', () => {
  it('a server without the bot and a private channel offer nothing', () => {
    const bob = app.sim.state.createUser({ username: 'install_bob' });
    app.sim.state.addMember(botlessId, bob.id);
    expect(() => sim().runCommand({ userId: bob.id, guildId: botlessId, name: 'coins' })).toThrow(
      'the bot is not in this server',
    );
    expect(() =>
      sim().runCommand({ userId: bob.id, guildId: null, name: 'coins', privateChannel: true }),
    ).toThrow('cannot be used here');
  });
});

describe('with a user install', () => {
  beforeAll(() => sim().installForUser(alice.user!.discordId));

  it.each([
    ['a server without the bot', { guildId: 'botless' }, 0],
    ['the bot’s DM', {}, 1],
    ['a private channel', { privateChannel: true }, 2],
  ] as const)('/coins and /daily answer in %s, reading interaction.user', async (_where, where, context) => {
    const opts = 'guildId' in where ? { guildId: botlessId } : where;
    const before = await balanceOf(app, alice);
    const coins = await run(app, alice, 'coins', opts);
    expect(coins.callbacks).toEqual([4]);
    expect(coins.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(Object.fromEntries(coins.reply.embeds[0]!.fields!.map((f) => [f.name, f.value])).Balance).toBe(
      `**${(before / 100).toFixed(2)}** coins`,
    );
    const interaction = [...sim().interactions.values()].at(-1)!;
    expect(interaction.context).toBe(context);
    expect(interaction.owners['1']).toBe(alice.user!.discordId);

    const daily = await run(app, alice, 'daily', opts);
    expect(daily.reply.embeds[0]!.title).toBe('Daily Reward Claimed!');
    expect(await balanceOf(app, alice)).toBe(before + 500);
    app.clock.advance(24 * 60 * 60 * 1000);
  });

  it('/help answers in a private channel', async () => {
    const { reply } = await run(app, alice, 'help', { privateChannel: true });
    expect(text(reply)).toContain('/daily');
  });

  it('in a server with the bot, both installs authorize the command', async () => {
    await run(app, alice, 'coins', { guildId: lobbyId });
    const interaction = [...sim().interactions.values()].at(-1)!;
    expect(interaction.owners).toEqual({ '0': lobbyId, '1': alice.user!.discordId });
  });

  it('owner commands stay where the bot is installed: Discord does not offer /campaign elsewhere', async () => {
    expect(() =>
      sim().runCommand({ userId: alice.user!.discordId, guildId: null, name: 'campaign' }),
    ).toThrow('cannot be used here');
    expect(() =>
      sim().runCommand({ userId: alice.user!.discordId, guildId: botlessId, name: 'campaign' }),
    ).toThrow('cannot be used here');
    const { reply } = await run(app, alice, 'campaign', { guildId: lobbyId });
    expect(reply.content ?? '').not.toContain('works only in a server');
  });

  it('a stale client that still offers /campaign in a DM gets a clear answer, nothing else runs', async () => {
    const current = sim()
      .listCommands(null)
      .map(({ name, description, options, integration_types, contexts }) => ({
        name,
        description,
        options,
        integration_types,
        // The old registration, before owner commands were limited to servers.
        contexts: name === 'campaign' ? null : contexts,
      }));
    sim().overwriteCommands(null, current);
    const { reply, callbacks } = await run(app, alice, 'campaign');
    expect(callbacks).toEqual([4]);
    expect(reply.content).toBe(
      '/campaign works only in a server that has the CoinSync bot. Run it there, or use the website.',
    );
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
  });
});
