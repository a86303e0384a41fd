import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import type { ApiUser } from '../shared/api-types.ts';

// The app language (decision 050): the Discord locale at sign-in until the member picks one in the
// switcher; the pick outlives later sign-ins.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function member(username: string, discordLocale?: string) {
  const user = app.sim.state.createUser({ username });
  if (discordLocale) app.sim.state.setUserLocale(user.id, discordLocale);
  return app.signIn(username);
}

describe('the app language', () => {
  it('follows the Discord locale at sign-in, mapped to ours', async () => {
    expect((await member('lang_de', 'de')).user!.locale).toBe('de');
    expect((await member('lang_es', 'es-419')).user!.locale).toBe('es');
    expect((await member('lang_pt', 'pt-BR')).user!.locale).toBe('pt-BR');
    expect((await member('lang_us', 'en-US')).user!.locale).toBe('en');
    expect((await member('lang_ja', 'ja')).user!.locale).toBe('en');
  });

  it('keeps the language chosen in the switcher across sign-ins', async () => {
    const client = await member('lang_switch', 'fr');
    const chosen = await client.request<ApiUser>('PUT', '/api/account/locale', { locale: 'tr' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.locale).toBe('tr');
    expect((await client.get<ApiUser>('/api/auth/user')).body.locale).toBe('tr');

    app.sim.state.setUserLocale(client.user!.discordId, 'de');
    const again = await app.signIn('lang_switch');
    expect(again.user!.locale).toBe('tr');
  });

  it('refuses a language it does not have with a 400 and changes nothing', async () => {
    const client = await member('lang_bad', 'de');
    for (const body of [{ locale: 'xx' }, { locale: 'pt' }, {}, { locale: 3 }]) {
      const res = await client.request<{ message: string }>('PUT', '/api/account/locale', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Choose one of: en, es, pt-BR, fr, de, tr');
    }
    expect((await client.get<ApiUser>('/api/auth/user')).body.locale).toBe('de');
  });

  it('needs a signed-in member', async () => {
    const res = await app.anonymous().request('PUT', '/api/account/locale', { locale: 'de' });
    expect(res.status).toBe(401);
  });
});
