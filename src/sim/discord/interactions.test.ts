import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';

// The simulator's interactions at the wire (no bot): registration, INTERACTION_CREATE, callbacks,
// webhooks, limits and the 3-second deadline, as discord-api-docs describe them.

let sim: DiscordSimulator & { url: string };
const api = (path: string) => `${sim.url}/api/v10${path}`;
const APP = '900000000000000001';
const bot = { authorization: 'Bot sim-bot-token', 'content-type': 'application/json' };
const json = { 'content-type': 'application/json' };
let userId: string;
let guildId: string;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  const owner = sim.state.createUser({ username: 'wire_owner' });
  userId = sim.state.createUser({ username: 'wire_user' }).id;
  guildId = sim.state.createGuild({ name: 'Wire Guild', ownerId: owner.id }).id;
  sim.state.addMember(guildId, userId);
});
afterAll(() => sim.close());

const command = {
  name: 'ping',
  description: 'Ping',
  options: [{ type: 3, name: 'text', description: 'Text' }],
};

async function put(path: string, body: unknown, headers: Record<string, string> = bot) {
  const res = await fetch(api(path), { method: 'PUT', headers, body: JSON.stringify(body) });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & Record<string, unknown>[],
  };
}

async function callback(id: string, token: string, body: unknown, query = '') {
  const res = await fetch(api(`/interactions/${id}/${token}/callback${query}`), {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('application commands', () => {
  it('bulk-overwrites global and guild commands, keeping ids across overwrites', async () => {
    const first = await put(`/applications/${APP}/commands`, [command]);
    expect(first.status).toBe(200);
    expect(first.body[0]).toMatchObject({ name: 'ping', type: 1, application_id: APP });
    const again = await put(`/applications/${APP}/commands`, [
      command,
      { name: 'pong', description: 'Pong' },
    ]);
    expect(again.body.map((c) => c.name)).toEqual(['ping', 'pong']);
    expect(again.body[0]!.id).toBe(first.body[0]!.id);
    const guild = await put(`/applications/${APP}/guilds/${guildId}/commands`, [
      { ...command, description: 'Guild ping' },
    ]);
    expect(guild.body[0]).toMatchObject({ guild_id: guildId });
    expect(sim.state.interactions.findCommand(guildId, 'ping')!.description).toBe('Guild ping');
    expect(sim.state.interactions.findCommand(null, 'ping')!.description).toBe('Ping');
    const list = await fetch(api(`/applications/${APP}/commands`), { headers: bot });
    expect(((await list.json()) as unknown[]).length).toBe(2);
  });

  it('refuses bad names, duplicates, a missing bot token and another application', async () => {
    expect(
      (await put(`/applications/${APP}/commands`, [{ name: 'Ping', description: 'x' }])).body,
    ).toMatchObject({ code: 50035 });
    expect(
      (await put(`/applications/${APP}/commands`, [{ name: 'a b', description: 'x' }])).body,
    ).toMatchObject({ code: 50035 });
    expect((await put(`/applications/${APP}/commands`, [command, command])).body).toMatchObject({
      code: 50035,
    });
    expect((await put(`/applications/${APP}/commands`, [{ name: 'x', description: '' }])).status).toBe(400);
    expect((await put(`/applications/${APP}/commands`, [command], json)).status).toBe(401);
    expect((await put(`/applications/123/commands`, [command])).status).toBe(403);
    // The earlier registration is untouched by refused overwrites.
    expect(sim.state.interactions.listCommands(null).map((c) => c.name)).toEqual(['ping', 'pong']);
  });

  it('keeps name and description localizations, and refuses them where Discord does', async () => {
    const localized = {
      ...command,
      name_localizations: { de: 'münze', 'es-ES': 'moneda', 'pt-BR': 'moeda', tr: 'yardım' },
      description_localizations: { de: 'Ping auf Deutsch', fr: 'Ping en français' },
      options: [
        {
          ...command.options[0],
          name_localizations: { de: 'suche' },
          description_localizations: { de: 'Der Text' },
        },
      ],
    };
    const guildPath = `/applications/${APP}/guilds/${guildId}/commands`;
    const ok = await put(guildPath, [localized]);
    expect(ok.status).toBe(200);
    expect(ok.body[0]).toMatchObject({
      name_localizations: localized.name_localizations,
      description_localizations: localized.description_localizations,
      options: [{ name_localizations: { de: 'suche' }, description_localizations: { de: 'Der Text' } }],
    });
    const refused = async (change: Record<string, unknown>) =>
      (await put(guildPath, [{ ...command, ...change }])).body;
    // Only Discord's locales: "en" and "es" alone are not among them ("en-US", "es-ES", "es-419" are).
    expect(await refused({ name_localizations: { en: 'ping' } })).toMatchObject({ code: 50035 });
    expect(await refused({ description_localizations: { es: 'Ping' } })).toMatchObject({ code: 50035 });
    // A localized name follows the name rule: lowercase, no spaces, 1-32 characters.
    expect(await refused({ name_localizations: { de: 'Münze' } })).toMatchObject({ code: 50035 });
    expect(await refused({ name_localizations: { fr: 'deux mots' } })).toMatchObject({ code: 50035 });
    expect(await refused({ name_localizations: { fr: 'x'.repeat(33) } })).toMatchObject({ code: 50035 });
    // A localized description: 1-100 characters.
    expect(await refused({ description_localizations: { de: 'x'.repeat(101) } })).toMatchObject({
      code: 50035,
    });
    expect(await refused({ description_localizations: { de: '' } })).toMatchObject({ code: 50035 });
    // A localized option name may not take another option's default name, nor repeat one in its locale.
    const twoOptions = (a: Record<string, string>, b: Record<string, string>) => ({
      options: [
        { type: 3, name: 'text', description: 'Text', name_localizations: a },
        { type: 3, name: 'more', description: 'More', name_localizations: b },
      ],
    });
    expect(await refused(twoOptions({ de: 'more' }, {}))).toMatchObject({ code: 50035 });
    expect(await refused(twoOptions({ de: 'gleich' }, { de: 'gleich' }))).toMatchObject({ code: 50035 });
    expect(
      (await put(guildPath, [{ ...command, ...twoOptions({ de: 'text' }, { de: 'mehr' }) }])).status,
    ).toBe(200);
  });
});

describe('INTERACTION_CREATE and responses', () => {
  it('dispatches a chat-input interaction on the gateway with member, guild, channel, options and token', async () => {
    const socket = new WebSocket(`${sim.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
    const frames: { t: string | null; d: Record<string, unknown> }[] = [];
    socket.on('message', (raw: Buffer) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
    await new Promise((r) => socket.once('open', r));
    socket.send(JSON.stringify({ op: 2, d: { token: 'sim-bot-token', intents: 1, properties: {} } }));
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await until(() => frames.some((f) => f.t === 'READY'));
    const interaction = sim.state.interactions.runCommand({
      userId,
      guildId,
      name: 'ping',
      options: { text: 'hi' },
    });
    await until(() => frames.some((f) => f.t === 'INTERACTION_CREATE'));
    const d = frames.find((f) => f.t === 'INTERACTION_CREATE')!.d;
    expect(d).toMatchObject({
      id: interaction.id,
      token: interaction.token,
      type: 2,
      application_id: APP,
      guild_id: guildId,
      context: 0,
      data: { name: 'ping', type: 1, options: [{ name: 'text', type: 3, value: 'hi' }], guild_id: guildId },
      member: { user: { id: userId } },
    });
    socket.close();
  });

  it('answers 204 to a callback (200 with ?with_response=true), once: a second gets 40060', async () => {
    const a = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
    const first = await callback(a.id, a.token, { type: 4, data: { content: 'pong', flags: 64 } });
    expect(first.status).toBe(204);
    const second = await callback(a.id, a.token, { type: 4, data: { content: 'again' } });
    expect(second).toEqual({
      status: 400,
      body: { message: 'Interaction has already been acknowledged.', code: 40060 },
    });

    const b = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
    const withResponse = await callback(
      b.id,
      b.token,
      { type: 4, data: { content: 'pong' } },
      '?with_response=true',
    );
    expect(withResponse.status).toBe(200);
    expect(withResponse.body).toMatchObject({
      interaction: { id: b.id, type: 2, response_message_ephemeral: false, response_message_loading: false },
      resource: { type: 4, message: { content: 'pong', type: 20, author: { id: APP } } },
    });
    // Ephemeral messages are only visible to the user who ran the command.
    const other = sim.state.createUser({ username: 'wire_other' });
    const visible = (viewer: string) =>
      sim.state.interactions.visibleMessages(guildId, viewer).map((m) => m.content);
    expect(visible(userId)).toContain('pong');
    expect(visible(other.id).filter((c) => c === 'pong')).toHaveLength(1);
  });

  it('refuses a callback after 3 seconds with 10062 Unknown interaction', async () => {
    sim.state.interactions.configure({ responseDeadlineMs: 50 });
    try {
      const late = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
      await new Promise((r) => setTimeout(r, 80));
      expect(await callback(late.id, late.token, { type: 5 })).toEqual({
        status: 404,
        body: { message: 'Unknown interaction', code: 10062 },
      });
      expect(late.refused.map((r) => r.code)).toEqual([10062]);
      expect(await callback('1', 'nope', { type: 4, data: { content: 'x' } })).toMatchObject({ status: 404 });
    } finally {
      sim.state.interactions.reset();
    }
  });

  it('defers (5), then edits @original (percent-encoded too) and sends follow-ups through /webhooks', async () => {
    const i = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
    expect((await callback(i.id, i.token, { type: 5, data: { flags: 64 } })).status).toBe(204);
    const loading = sim.state.interactions.messages.get(i.responseMessageId!)!;
    expect(loading.flags).toBe(64 | 128);
    const edit = await fetch(api(`/webhooks/${APP}/${i.token}/messages/%40original`), {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ content: 'done' }),
    });
    expect(edit.status).toBe(200);
    expect(await edit.json()).toMatchObject({ content: 'done', flags: 64 });
    const follow = await fetch(api(`/webhooks/${APP}/${i.token}`), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ content: 'more', flags: 64 }),
    });
    expect(await follow.json()).toMatchObject({ content: 'more', flags: 64 });
    const get = await fetch(api(`/webhooks/${APP}/${i.token}/messages/@original`));
    expect(await get.json()).toMatchObject({ content: 'done' });
    expect((await fetch(api(`/webhooks/${APP}/not-a-token/messages/@original`))).status).toBe(404);
    const del = await fetch(api(`/webhooks/${APP}/${i.token}/messages/@original`), { method: 'DELETE' });
    expect(del.status).toBe(204);
  });

  it('button presses: 7 updates the message, 6 defers and the edit of @original changes it; 6/7 on a command is refused', async () => {
    const i = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
    const components = [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }];
    expect((await callback(i.id, i.token, { type: 7, data: { content: 'x' } })).body).toMatchObject({
      code: 50035,
    });
    await callback(i.id, i.token, { type: 4, data: { content: 'menu', components } });
    const messageId = i.responseMessageId!;
    expect(() => sim.state.interactions.pressButton({ userId, messageId, customId: 'nope' })).toThrow();

    const p1 = sim.state.interactions.pressButton({ userId, messageId, customId: 'go' });
    expect(p1.type).toBe(3);
    await callback(p1.id, p1.token, { type: 7, data: { content: 'updated', components: [] } });
    expect(sim.state.interactions.messages.get(messageId)!.content).toBe('updated');

    await fetch(api(`/webhooks/${APP}/${p1.token}/messages/@original`), {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ components }),
    });
    const p2 = sim.state.interactions.pressButton({ userId, messageId, customId: 'go' });
    expect((await callback(p2.id, p2.token, { type: 6 })).status).toBe(204);
    await fetch(api(`/webhooks/${APP}/${p2.token}/messages/@original`), {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ content: 'later' }),
    });
    expect(sim.state.interactions.messages.get(messageId)!.content).toBe('later');
  });

  it('refuses messages over Discord’s limits with 50035 (and empty ones with 50006)', async () => {
    const over = [
      { content: 'x'.repeat(2001) },
      {
        embeds: [
          { title: 'x', fields: Array.from({ length: 26 }, (_, n) => ({ name: `f${n}`, value: 'v' })) },
        ],
      },
      { embeds: [{ description: 'x'.repeat(4000) }, { description: 'x'.repeat(2001) }] },
      {
        components: [
          {
            type: 1,
            components: Array.from({ length: 6 }, (_, n) => ({
              type: 2,
              style: 1,
              label: 'b',
              custom_id: `b${n}`,
            })),
          },
        ],
      },
      {
        components: [{ type: 1, components: [{ type: 2, style: 1, label: 'x'.repeat(81), custom_id: 'b' }] }],
      },
      {
        components: [
          { type: 1, components: [{ type: 2, style: 1, label: 'b', custom_id: 'x'.repeat(101) }] },
        ],
      },
    ];
    for (const data of over) {
      const i = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
      expect((await callback(i.id, i.token, { type: 4, data })).body).toMatchObject({ code: 50035 });
      expect(i.refused.map((r) => r.code)).toEqual([50035]);
      // Refused bodies do not count as the answer: a valid one still goes through.
      expect((await callback(i.id, i.token, { type: 4, data: { content: 'ok' } })).status).toBe(204);
    }
    const empty = sim.state.interactions.runCommand({ userId, guildId, name: 'ping' });
    expect((await callback(empty.id, empty.token, { type: 4, data: { content: '' } })).body).toMatchObject({
      code: 50006,
    });
  });

  it('runs a command through the control API and returns the answer; refuses non-members and unknown commands', async () => {
    const res = await fetch(`${sim.url}/control/interactions/commands`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'wire_user', guildId, command: '/ping', waitMs: 50 }),
    });
    // No bot is connected: nobody answers.
    expect(await res.json()).toMatchObject({ callbacks: [], settled: false, message: null });
    const outsider = sim.state.createUser({ username: 'wire_outsider' });
    expect(() => sim.state.interactions.runCommand({ userId: outsider.id, guildId, name: 'ping' })).toThrow(
      /not a member/,
    );
    expect(() => sim.state.interactions.runCommand({ userId, guildId, name: 'nope' })).toThrow(
      /Unknown application command/,
    );
  });
});
