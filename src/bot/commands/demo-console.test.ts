import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { startServer, type RunningServer } from '../../server.ts';
import { DEMO_GUILDS, DEMO_USERS } from '../../sim/discord/index.ts';
import { TestClient, signInThroughSimulator } from '../../test/harness.ts';
import { waitFor } from '../bot-test-kit.ts';
import { SLASH_COMMANDS } from './index.ts';

// Demo mode as `npm start` runs it: commands registered per guild too, and a person types a command on
// the simulator's guild page and sees the bot's reply there.

let server: RunningServer;
let dir: string;
const guild = DEMO_GUILDS[0];
const alex = DEMO_USERS.find((u) => u.username === 'alex')!;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'coinsync-demo-console-'));
  server = await startServer({
    port: 0,
    logger: createLogger('silent'),
    env: {
      NODE_ENV: 'development',
      DATABASE_PATH: path.join(dir, 'demo.db'),
      LOG_LEVEL: 'silent',
      MIN_DISCORD_ACCOUNT_AGE_DAYS: '0',
    },
  });
  await server.background.bot!.ready;
  const sim = server.simulator!;
  // Every guild with the bot gets its copy (registered one guild after the other, after login).
  await waitFor(
    () =>
      DEMO_GUILDS.filter((g) => g.botMember).every(
        (g) => sim.state.interactions.listCommands(g.id).length === SLASH_COMMANDS.size,
      ),
    20_000,
    'guild commands',
  );
  await signInThroughSimulator(new TestClient(server.url), alex.username);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(pathname: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/discord-sim${pathname}`, {
    method: 'POST',
    // As the browser posts the guild page's form: same origin (the demo's console refuses other sites
    // and scripts without its local token, issue 27).
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(server.url).origin,
      'sec-fetch-site': 'same-origin',
    },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
}

const notice = (res: Response) =>
  new URL(res.headers.get('location')!, server.url).searchParams.get('notice');

it('registers the commands per guild in demo mode, as well as globally', () => {
  const state = server.simulator!.state;
  expect(state.interactions.listCommands(null)).toHaveLength(SLASH_COMMANDS.size);
  for (const g of DEMO_GUILDS.filter((d) => d.botMember)) {
    expect(
      state.interactions
        .listCommands(g.id)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...SLASH_COMMANDS.keys()].sort());
  }
});

it('lets a person type /coins on the guild page and shows the ephemeral reply to them only', async () => {
  const sent = await post(`/guilds/${guild.id}/commands`, { user_id: alex.id, command: '/coins' });
  expect(sent.status).toBe(303);
  const location = sent.headers.get('location')!;
  expect(location).toBe(`/discord-sim/guilds/${guild.id}?as=${alex.id}#console`);
  const page = await (await fetch(`${server.url}${location}`)).text();
  expect(page).toContain('alex used <code>/coins</code>');
  expect(page).toContain('Your coins');
  expect(page).toContain('Only you can see this');

  const other = Object.keys(server.simulator!.state.guilds.get(guild.id)!.members).find(
    (id) => id !== alex.id,
  )!;
  const theirs = await (await fetch(`${server.url}/discord-sim/guilds/${guild.id}?as=${other}`)).text();
  expect(theirs).not.toContain('Your coins');
});

it('presses a button of the reply from the page', async () => {
  await post(`/guilds/${guild.id}/commands`, { user_id: alex.id, command: '/farm' });
  const messages = server.simulator!.state.interactions.visibleMessages(guild.id, alex.id);
  const farm = messages.at(-1)!;
  const join = farm.components
    .flatMap((r) => r.components)
    .find((b) => b.custom_id?.startsWith('farm:join:'))!;
  const pressed = await post(`/guilds/${guild.id}/buttons`, {
    user_id: alex.id,
    message_id: farm.id,
    custom_id: join.custom_id!,
  });
  expect(pressed.status).toBe(303);
  expect(notice(pressed)).toBeNull();
  const after = server.simulator!.state.interactions.visibleMessages(guild.id, alex.id);
  expect(after.length).toBe(messages.length + 1);
  expect(after.at(-1)!.content + JSON.stringify(after.at(-1)!.embeds)).toMatch(
    /Almost there!|Stay for a moment|already a member/,
  );
});

it('says so on the page when the command is unknown or nobody answers', async () => {
  const unknown = await post(`/guilds/${guild.id}/commands`, { user_id: alex.id, command: '/nope' });
  expect(notice(unknown)).toBe('Unknown application command');
  server.simulator!.state.interactions.configure({ responseDeadlineMs: 0 });
  try {
    const late = await post(`/guilds/${guild.id}/commands`, { user_id: alex.id, command: '/help' });
    const page = await (await fetch(`${server.url}${late.headers.get('location')!}`)).text();
    expect(page).toContain('The application did not respond');
  } finally {
    server.simulator!.state.interactions.reset();
  }
});
