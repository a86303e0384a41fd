import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';

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
