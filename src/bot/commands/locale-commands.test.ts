import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { insertCampaign } from '../../test/factories.ts';
import { startBotTestApp } from '../bot-test-kit.ts';
import { notifyCompletedCampaign } from '../completion-notice.ts';
import { EPHEMERAL, buttons, commandsRegistered, createLobby, run, text } from './test-kit.ts';
import { SLASH_COMMANDS } from './index.ts';

// The bot in the member's language (decision 051): replies follow the interaction's `locale` (the
// language of the member's Discord client), DMs the language stored on the account, and the commands
// are registered with name and description localizations that the simulator checks as Discord does.

let app: TestApp;
let hans: TestClient;
let lobbyId: string;

/** A member whose Discord client speaks `locale` (set before sign-in, so the account stores it too). */
async function memberSpeaking(username: string, locale: string): Promise<TestClient> {
  const user = app.sim.state.createUser({ username });
  app.sim.state.setUserLocale(user.id, locale);
  return app.signIn(username);
}

beforeAll(async () => {
  app = await startBotTestApp();
  hans = await memberSpeaking('locale_hans', 'de');
  lobbyId = createLobby(app, hans).id;
  await commandsRegistered(app);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('registration', () => {
  it('registers every command with names and descriptions in each language, which the simulator accepted', () => {
    const registered = app.sim.state.interactions.listCommands(null);
    expect(registered).toHaveLength(SLASH_COMMANDS.size);
    for (const command of registered) {
      expect(Object.keys(command.name_localizations ?? {}).sort(), command.name).toEqual(
        ['de', 'es-419', 'es-ES', 'fr', 'pt-BR', 'tr'].sort(),
      );
      expect(Object.keys(command.description_localizations ?? {}).sort(), command.name).toEqual(
        ['de', 'es-419', 'es-ES', 'fr', 'pt-BR', 'tr'].sort(),
      );
    }
    const farm = app.sim.state.interactions.findCommand(null, 'farm')!;
    expect(farm.name_localizations).toMatchObject({ de: 'verdienen', 'es-ES': 'ganar', tr: 'kazan' });
    expect(farm.options[0]).toMatchObject({
      name: 'search',
      name_localizations: { de: 'suche', fr: 'recherche' },
      description_localizations: { de: 'Nur Server, deren Name dies enthält' },
    });
    // The default (English) texts are the ones the product always had.
    expect(app.sim.state.interactions.findCommand(null, 'hourly')).toMatchObject({
      description: 'Claim your hourly reward (+1.00 coins every hour)',
      description_localizations: { de: 'Hol dir deine stündliche Belohnung (+1,00 Coins jede Stunde)' },
    });
  });
});

describe('an interaction with locale "de"', () => {
  it('is answered in German, refusals in the API’s German words', async () => {
    const first = await run(app, hans, 'hourly', { guildId: lobbyId });
    expect(first.reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(first.reply.embeds[0]).toMatchObject({
      title: 'Stündliche Belohnung abgeholt!',
      description: '+1,00 Coins deinem Guthaben gutgeschrieben',
    });
    const again = await run(app, hans, 'hourly', { guildId: lobbyId });
    expect(again.reply.content).toBe('Du kannst deine stündliche Belohnung in 1 Stunde wieder abholen.');
  });

  it('shows the balance and the next rewards with German numbers and words', async () => {
    const { reply } = await run(app, hans, 'coins', { guildId: lobbyId });
    const embed = reply.embeds[0]!;
    expect(embed.title).toBe('Deine Coins');
    expect(embed.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Guthaben', value: '**6,00** Coins' }),
        expect.objectContaining({ name: 'Stündlich +1,00', value: 'In 1 Stunde' }),
        expect.objectContaining({ name: 'Bonus +3,00', value: 'Bereit – nutze /bonus' }),
        expect.objectContaining({ name: 'Täglich +5,00', value: 'Bereit – nutze /täglich' }),
      ]),
    );
    expect(buttons(reply)).toEqual([expect.objectContaining({ label: 'Dashboard öffnen' })]);
  });

  it('lists the commands under the names a German client shows', async () => {
    const { reply } = await run(app, hans, 'help', { guildId: lobbyId });
    expect(reply.embeds[0]!.title).toBe('CoinSync-Bot');
    expect(text(reply)).toContain('**/verdienen** — Server, denen du für Coins beitreten kannst');
    expect(text(reply)).toContain('**/stündlich /bonus /täglich** — hol dir deine regelmäßigen Belohnungen');
    expect(text(reply)).toContain('CoinSync steht in keiner Verbindung zu Discord.');
  });
});

describe('other languages', () => {
  it('answers someone without an account in their language (Spanish, Latin America)', async () => {
    const stranger = app.sim.state.createUser({ username: 'locale_sofia' });
    app.sim.state.setUserLocale(stranger.id, 'es-419');
    app.sim.state.addMember(lobbyId, stranger.id);
    const { reply } = await run(app, stranger.id, 'coins', { guildId: lobbyId });
    expect(reply.embeds[0]!.title).toBe('Primero inicia sesión en CoinSync');
    expect(buttons(reply)).toEqual([expect.objectContaining({ label: 'Iniciar sesión en CoinSync' })]);
  });

  it('answers in Turkish, with the command names a Turkish client shows (/farm finding nothing)', async () => {
    const ayse = await memberSpeaking('locale_ayse', 'tr');
    app.sim.state.addMember(lobbyId, ayse.user!.discordId);
    const { reply } = await run(app, ayse, 'farm', { guildId: lobbyId, options: { search: 'no such name' } });
    expect(reply.embeds[0]).toMatchObject({
      title: '“no such name” ile eşleşen sunucu yok',
      description: 'Başka bir arama dene ya da /kazan komutunu aramasız kullan.',
    });
  });
});

describe('DMs', () => {
  it('tell an owner their campaign is complete in the language stored on their account', async () => {
    const owner = await memberSpeaking('locale_owner_fr', 'fr');
    const guild = app.sim.state.createGuild({ name: 'Salon Français', ownerId: owner.user!.discordId });
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      name: 'Salon Français',
      guildId: guild.id,
      membersRemaining: 0,
      initialMemberSlots: 3,
    });
    // The owner's Discord client now speaks English: a DM has no interaction, the stored locale counts.
    app.sim.state.setUserLocale(owner.user!.discordId, 'en-US');
    expect(await notifyCompletedCampaign(app.server.ctx, campaign.id)).toBe(true);
    const dms = app.sim.state.listDms({ userId: owner.user!.discordId });
    expect(dms.map((d) => d.content)).toContain(
      '🎉 Votre campagne CoinSync pour **Salon Français** est terminée : 3 nouveaux membres ont rejoint votre serveur. Merci de grandir avec nous !',
    );
  });
});
