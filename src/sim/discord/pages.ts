// Human-facing pages for the demo: index, invite acceptance, guild member list.
import express, { type Request, type Response, type Router } from 'express';
import { avatar, html, sendErrorPage, sendPage, table } from './html.ts';
import { bodyString, param, queryString } from './http-util.ts';
import { SIM_USER_COOKIE } from './oauth.ts';
import { SimError, type SimState } from './state.ts';
import { commandConsole } from './command-pages.ts';

/** Absolute link prefix of the simulator root (works under any mount path). */
function rootPrefix(req: Request): string {
  return `${req.baseUrl}/`;
}

function notFound(res: Response, what: string): void {
  sendPage(
    res,
    'Not found',
    html`<h1>${what}</h1>
      <p class="muted">It may have expired or been deleted.</p>`,
    { status: 404 },
  );
}

export function createPagesRouter(state: SimState): Router {
  const router = express.Router();

  router.get('/', (req, res) => {
    const root = rootPrefix(req);
    const users = [...state.users.values()];
    const guilds = [...state.guilds.values()];
    const invites = [...state.invites.values()];
    const dms = state.listDms().slice(-20).reverse();
    const body = html` <h1>Discord simulator</h1>
      <p class="muted">
        Gateway ${state.gatewayOnline ? 'online' : 'OFFLINE'} · bot ${state.botUser.username} (${state.botId})
      </p>
      <h2>Users (${users.length})</h2>
      ${table(
        ['Username', 'Id', 'DMs'],
        users.map((u) => [u.username, u.id, u.acceptsDms ? 'open' : 'closed']),
      )}
      <h2>Servers (${guilds.length})</h2>
      ${table(
        ['Name', 'Id', 'Members', 'Bot'],
        guilds.map((g) => [
          html`<a href="${root}guilds/${g.id}">${g.name}</a>`,
          g.id,
          state.memberCount(g),
          g.botJoinedAt ? 'yes' : 'no',
        ]),
      )}
      <h2>Invites (${invites.length})</h2>
      ${table(
        ['Code', 'Server', 'Expires'],
        invites.map((i) => [
          html`<a href="${root}invite/${i.code}">${i.code}</a>`,
          state.guilds.get(i.guildId)?.name ?? '?',
          i.expiresAt ?? 'never',
        ]),
      )}
      <h2>Recent DMs</h2>
      ${dms.length === 0 ? html`<p class="muted">No direct messages yet.</p>` : ''}
      ${table(
        [],
        dms.map((m) => [
          state.users.get(m.recipientId)?.username ?? m.recipientId,
          `${m.content}${m.embeds.length ? ` [${m.embeds.length} embed(s)]` : ''}`,
          html`<span class="muted">${m.createdAt}</span>`,
        ]),
      )}`;
    sendPage(res, 'Overview', body, { wide: true });
  });

  router.get('/invite/:code', (req, res) => {
    const invite = state.findInvite(param(req, 'code'));
    if (!invite) return notFound(res, 'Invite Invalid');
    const guild = state.requireGuild(invite.guildId);
    const as = queryString(req, 'as');
    const selected = as ? state.findUserByUsername(as) : state.users.get(signedInUserId(req) ?? '');
    const body = html` <p class="muted">You've been invited to join</p>
      <h1 class="row">${avatar(guild.name)}${guild.name}</h1>
      <p class="muted">${state.memberCount(guild)} Members</p>
      <form method="post">
        <label for="user_id">Join as</label>
        <select id="user_id" name="user_id" required>
          ${[...state.users.values()].map(
            (u) =>
              html`<option value="${u.id}" ${u.id === selected?.id ? html`selected` : ''}>
                ${u.username}
              </option>`,
          )}
        </select>
        <button type="submit" class="success">Accept Invite</button>
      </form>`;
    sendPage(res, `Join ${guild.name}`, body);
  });

  router.post('/invite/:code', (req, res) => {
    const invite = state.findInvite(param(req, 'code'));
    if (!invite) return notFound(res, 'Invite Invalid');
    const guild = state.requireGuild(invite.guildId);
    const userId = bodyString(req, 'user_id') ?? '';
    try {
      state.addMember(guild.id, userId);
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      sendErrorPage(res, err.status, 'Could not join', err.message);
      return;
    }
    const user = state.users.get(userId);
    const root = rootPrefix(req);
    sendPage(
      res,
      `Joined ${guild.name}`,
      html`<h1>You joined ${guild.name}</h1>
        <p>Welcome, ${user?.username}!</p>
        <p><a class="button" href="${root}guilds/${guild.id}">Open ${guild.name}</a></p>`,
    );
  });

  router.get('/guilds/:guildId', (req, res) => {
    const guild = state.guilds.get(param(req, 'guildId'));
    if (!guild) return notFound(res, 'Unknown server');
    const root = rootPrefix(req);
    const ids = Object.keys(guild.members);
    const body = html` <p><a href="${root}">← Simulator overview</a></p>
      <h1 class="row">${avatar(guild.name)}${guild.name}</h1>
      <p class="muted">
        ${state.memberCount(guild)} members · bot ${guild.botJoinedAt ? 'present' : 'not in this server'}
      </p>
      <ul>
        ${ids.map((id) => {
          const u = state.users.get(id);
          const name = u?.username ?? id;
          return html`<li>
            <span class="row"
              >${avatar(name)}${name}${id === guild.ownerId ? html` <span class="muted">(owner)</span>` : ''}</span
            >
            <form method="post" action="${root}guilds/${guild.id}/members/${id}/leave">
              <button class="danger" type="submit">Leave server</button>
            </form>
          </li>`;
        })}
      </ul>
      ${webhooksSection(state, root, guild.id)} ${commandConsole(state, req, guild)}`;
    sendPage(res, guild.name, body, { wide: true });
  });

  // Server Settings → Integrations → Webhooks: a channel webhook whose URL an owner pastes elsewhere.
  router.post('/guilds/:guildId/webhooks', (req, res) => {
    const guild = state.guilds.get(param(req, 'guildId'));
    if (!guild) return notFound(res, 'Unknown server');
    state.channelWebhooks.create({ guildId: guild.id, channelId: guild.channelId, name: 'Captain Hook' });
    res.redirect(303, `${rootPrefix(req)}guilds/${guild.id}#webhooks`);
  });

  router.post('/guilds/:guildId/members/:userId/leave', (req, res) => {
    const guildId = param(req, 'guildId');
    try {
      state.removeMember(guildId, param(req, 'userId'), { reason: 'leave' });
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      sendErrorPage(res, err.status, 'Could not leave', err.message);
      return;
    }
    res.redirect(303, `${rootPrefix(req)}guilds/${guildId}`);
  });

  return router;
}

/** The simulated user this browser last signed in as through the authorize page (cookie set there). */
function signedInUserId(req: Request): string | undefined {
  const cookies = req.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SIM_USER_COOKIE && value) return decodeURIComponent(value);
  }
  return undefined;
}

/** The guild's channel webhooks: the URL to copy ("Copy Webhook URL") and what each posted, newest first. */
function webhooksSection(state: SimState, root: string, guildId: string) {
  const hooks = [...state.channelWebhooks.byId.values()].filter((w) => w.guildId === guildId);
  return html`<h2 id="webhooks">Integrations → Webhooks</h2>
    <p class="muted">Channel webhooks post messages into #general (Discord's "Copy Webhook URL").</p>
    ${hooks.map(
      (w) =>
        html`<div>
          <label for="webhook-${w.id}">${w.name}</label>
          <input id="webhook-${w.id}" readonly value="https://discord.com/api/webhooks/${w.id}/${w.token}" />
          ${w.messages.length === 0 ? html`<p class="muted">No messages yet.</p>` : ''}
          ${table(
            [],
            w.messages
              .slice(-10)
              .reverse()
              .map((m) => [m.username ?? w.name, m.content, html`<span class="muted">${m.createdAt}</span>`]),
          )}
        </div>`,
    )}
    <form method="post" action="${root}guilds/${guildId}/webhooks">
      <button type="submit">New Webhook</button>
    </form>`;
}
