import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { inviteNotAllowedMessage } from '../campaigns/create-guild-invite.ts';
import { guildCapMessage } from '../shared/join-constants.ts';
import { localizeMessage } from './server-messages.ts';

// The API's `{ message }` in the reader's language (decision 051): the signed-in member's stored
// language (here their Discord locale at sign-in), else the browser's Accept-Language; English stays
// the spec's words. Both request paths answer: POST /api/hourly/claim goes through the fast path.

let app: TestApp;
let amelie: TestClient;
let john: TestClient;

async function memberSpeaking(username: string, locale: string): Promise<TestClient> {
  const user = app.sim.state.createUser({ username });
  app.sim.state.setUserLocale(user.id, locale);
  return app.signIn(username);
}

beforeAll(async () => {
  app = await startTestApp();
  amelie = await memberSpeaking('api_amelie', 'fr');
  john = await memberSpeaking('api_john', 'en-US');
});
afterAll(() => app.close());

describe('a signed-in member', () => {
  it('gets refusals in the language stored on the account, whatever the browser asks', async () => {
    expect((await amelie.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    const again = await amelie.request(
      'POST',
      '/api/hourly/claim',
      { type: 'regular' },
      { 'accept-language': 'de' },
    );
    expect(again).toMatchObject({
      status: 425,
      body: { message: 'Vous pourrez de nouveau réclamer votre récompense horaire dans 1 heure.' },
    });
    const invalid = await amelie.post('/api/hourly/claim', { type: 'weekly' });
    expect(invalid).toMatchObject({
      status: 400,
      body: { message: 'Le type de récompense doit être regular, bonus ou daily' },
    });
  });

  it('in English gets the spec’s words exactly', async () => {
    expect((await john.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    const again = await john.request(
      'POST',
      '/api/hourly/claim',
      { type: 'regular' },
      { 'accept-language': 'de' },
    );
    expect(again).toMatchObject({
      status: 425,
      body: { message: 'You can claim your hourly reward again in 1 hour.' },
    });
  });
});

describe('a visitor', () => {
  it('gets the language of Accept-Language, else English', async () => {
    const visitor = app.anonymous();
    const german = await visitor.request('GET', '/api/transactions', undefined, {
      'accept-language': 'de-DE,de;q=0.9',
    });
    expect(german).toMatchObject({ status: 401, body: { message: 'Nicht angemeldet' } });
    const turkish = await visitor.request('GET', '/api/transactions', undefined, { 'accept-language': 'tr' });
    expect(turkish).toMatchObject({ status: 401, body: { message: 'Giriş yapılmadı' } });
    const missing = await visitor.request('GET', '/api/no-such-route', undefined, {
      'accept-language': 'es-ES',
    });
    expect(missing).toMatchObject({ status: 404, body: { message: 'No encontrado' } });
    const other = await visitor.request('GET', '/api/transactions', undefined, { 'accept-language': 'ja' });
    expect(other).toMatchObject({ status: 401, body: { message: 'Not signed in' } });
  });
});

describe('answers sent before the session is read (decision 061)', () => {
  it('follow Accept-Language: the access-token guard and the cross-site guard', async () => {
    const visitor = app.anonymous();
    const badToken = await visitor.request('GET', '/api/transactions', undefined, {
      authorization: 'Bearer cs_pat_nonsense',
      'accept-language': 'de',
    });
    expect(badToken).toMatchObject({
      status: 401,
      body: { message: 'Ungültiges oder widerrufenes Zugriffstoken' },
    });
    const english = await visitor.request('GET', '/api/transactions', undefined, {
      authorization: 'Bearer cs_pat_nonsense',
    });
    expect(english).toMatchObject({ status: 401, body: { message: 'Invalid or revoked access token' } });

    const crossSite = await john.request(
      'POST',
      '/api/hourly/claim',
      { type: 'regular' },
      { 'sec-fetch-site': 'cross-site', 'accept-language': 'fr-FR,fr;q=0.9' },
    );
    expect(crossSite).toMatchObject({ status: 403, body: { message: 'Requête intersite refusée' } });
  });

  it('the sign-in rate limiter answers in the browser’s language', async () => {
    const limited = await startTestApp({ signInRateLimit: 1 });
    try {
      const visitor = limited.anonymous();
      expect((await visitor.raw('/api/auth/discord')).status).toBe(302);
      const res = await visitor.request('GET', '/api/auth/discord', undefined, { 'accept-language': 'tr' });
      expect(res).toMatchObject({
        status: 429,
        body: { message: 'Çok fazla giriş denemesi. Lütfen bir dakika bekle ve tekrar dene.' },
      });
    } finally {
      await limited.close();
    }
  });
});

describe('messages catalogued in session 12 (decision 061)', () => {
  it('the bot-invite refusal and the guild-cap refusal carry their values over', () => {
    expect(localizeMessage(inviteNotAllowedMessage('Café Club'), 'de')).toBe(
      'Unser Bot darf in Café Club keine Einladungen erstellen. Öffne in Discord „Leute einladen“ → „Einladungslink bearbeiten“, stelle „Läuft ab nach“ auf „Nie“ und füge den Link unten ein.',
    );
    const seven = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
    expect(localizeMessage(guildCapMessage(100, seven), 'es')).toBe(
      'Tu cuenta de Discord está en 100 servidores, el máximo que permite Discord sin Nitro: Discord rechazaría esta invitación. Ya puedes salir sin penalización de: A, B, C, D, E y 2 más.',
    );
    expect(localizeMessage(guildCapMessage(200, ['Zeta']), 'fr')).toBe(
      'Votre compte Discord est sur 200 serveurs, le maximum autorisé par Discord : Discord refuserait cette invitation. Vous pouvez déjà quitter sans pénalité : Zeta.',
    );
    expect(localizeMessage(guildCapMessage(100, []), 'tr')).toMatch(
      /^Discord hesabın 100 sunucuda; bu, Discord'un Nitro olmadan/,
    );
  });
});
