import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordSimulator, DEFAULT_SIM_CLIENT_ID, type DiscordSimulator } from './index.ts';

// Issue 27 item 6: a demo runs on a laptop with a browser open to the web. The simulator's control API
// and interaction console refuse cross-site requests (the product API's rule) and, with the demo's
// local token set, need it or the same origin; the authorize page redirects only to a registered URI.

const TOKEN = 'c'.repeat(48);
let open: DiscordSimulator & { url: string };
let guarded: DiscordSimulator & { url: string };
const CALLBACK = 'http://127.0.0.1:5999/api/auth/discord/callback';

beforeAll(async () => {
  open = await startDiscordSimulator({});
  guarded = await startDiscordSimulator({ controlToken: TOKEN, redirectUris: [CALLBACK] });
});
afterAll(async () => {
  await open.close();
  await guarded.close();
});

const createUser = (base: string, headers: Record<string, string>, body = 'username=evil_made') =>
  fetch(`${base}/control/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    redirect: 'manual',
  });

describe('the simulator’s control API and interaction console', () => {
  it('refuse cross-site requests (a form post from another site), token or not', async () => {
    for (const sim of [open, guarded]) {
      const attempts: Record<string, string>[] = [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { origin: 'https://evil.example' },
      ];
      for (const headers of attempts) {
        const res = await createUser(sim.url, { ...headers, authorization: `Bearer ${TOKEN}` });
        expect(res.status, JSON.stringify(headers)).toBe(403);
      }
      const guild = sim.state.createGuild({
        name: 'Guild',
        ownerId: sim.state.createUser({ username: 'owner_' + sim.url.slice(-5).replace(':', '') }).id,
      });
      const command = await fetch(`${sim.url}/guilds/${guild.id}/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
        body: 'command=farm',
        redirect: 'manual',
      });
      expect(command.status).toBe(403);
    }
    expect([...open.state.users.values()].some((u) => u.username === 'evil_made')).toBe(false);
  });

  it('with the local token: needs it from scripts, and takes the simulator’s own pages (same origin)', async () => {
    expect((await createUser(guarded.url, {})).status).toBe(401);
    expect((await createUser(guarded.url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect(
      (await createUser(guarded.url, { authorization: `Bearer ${TOKEN}` }, 'username=script_made')).status,
    ).toBe(201);
    expect(
      (
        await createUser(
          guarded.url,
          { origin: guarded.url, 'sec-fetch-site': 'same-origin' },
          'username=page_made',
        )
      ).status,
    ).toBe(201);
    // Without a token (tests' standalone simulator), scripts are served.
    expect((await createUser(open.url, {}, 'username=test_made')).status).toBe(201);
  });
});

describe('the authorize page', () => {
  const authorize = (sim: { url: string }, redirectUri: string) =>
    fetch(
      `${sim.url}/oauth2/authorize?${new URLSearchParams({
        client_id: DEFAULT_SIM_CLIENT_ID,
        response_type: 'code',
        scope: 'identify',
        redirect_uri: redirectUri,
        state: 's',
      }).toString()}`,
      { redirect: 'manual' },
    );

  it('refuses a redirect_uri that is not registered, as Discord does', async () => {
    const res = await authorize(guarded, 'https://evil.example/steal');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Invalid OAuth2 redirect_uri');
    const ok = await authorize(guarded, CALLBACK);
    expect(ok.status).toBe(200);
  });
});
