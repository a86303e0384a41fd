// OAuth2 authorization code flow (with PKCE) and the bot-authorization ("Add to server") flow.
import { createHash, randomBytes } from 'node:crypto';
import type { RESTPostOAuth2AccessTokenResult } from 'discord-api-types/v10';
import type { Request, Response, Router } from 'express';
import { avatar, html, sendErrorPage, sendPage, type RawHtml } from './html.ts';
import { bodyString, queryString } from './http-util.ts';
import { SimError, type SimState, type SimUser } from './state.ts';

const KNOWN_SCOPES = new Set([
  'identify',
  'email',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'connections',
  'bot',
  'applications.commands',
]);
const CODE_TTL_MS = 10 * 60 * 1000;
const TOKEN_TTL_S = 604800;

interface OAuthConfig {
  state: SimState;
  clientId: string;
  clientSecret: string;
  /** Path part of publicUrl ('' when mounted at the root), for links back to simulator pages. */
  basePath: string;
  log: (msg: string) => void;
}

interface AuthorizeParams {
  responseType: string | undefined;
  clientId: string | undefined;
  redirectUri: string | undefined;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  loginHint: string | undefined;
  guildId: string | undefined;
  permissions: string | undefined;
  disableGuildSelect: boolean;
}

function readParams(req: Request): AuthorizeParams {
  return {
    responseType: queryString(req, 'response_type'),
    clientId: queryString(req, 'client_id'),
    redirectUri: queryString(req, 'redirect_uri'),
    scopes: (queryString(req, 'scope') ?? '').split(/[\s+]+/).filter(Boolean),
    state: queryString(req, 'state'),
    codeChallenge: queryString(req, 'code_challenge'),
    codeChallengeMethod: queryString(req, 'code_challenge_method'),
    loginHint: queryString(req, 'login_hint'),
    guildId: queryString(req, 'guild_id'),
    permissions: queryString(req, 'permissions'),
    disableGuildSelect: queryString(req, 'disable_guild_select') === 'true',
  };
}

/** Returns an error message, or null when the request is acceptable. */
function validate(p: AuthorizeParams, clientId: string, registered: ReadonlySet<string>): string | null {
  if (p.clientId !== clientId) return 'Unknown application: invalid client_id.';
  if (p.scopes.length === 0) return 'Invalid scope: no scope was given.';
  const unknown = p.scopes.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown) return `Invalid scope: ${unknown}.`;
  const isBot = p.scopes.includes('bot');
  if (!isBot || p.responseType !== undefined) {
    if (p.responseType !== 'code') return 'Unsupported response_type: only "code" is supported.';
  }
  if (p.redirectUri !== undefined || !isBot) {
    if (!p.redirectUri) return 'Invalid OAuth2 redirect_uri: missing.';
    try {
      const url = new URL(p.redirectUri);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Invalid OAuth2 redirect_uri.';
      if (registered.size > 0 && !registered.has(p.redirectUri)) return 'Invalid OAuth2 redirect_uri.';
    } catch {
      return 'Invalid OAuth2 redirect_uri.';
    }
  }
  if (p.codeChallengeMethod && !p.codeChallenge)
    return 'code_challenge is required with code_challenge_method.';
  if (p.codeChallenge && (p.codeChallengeMethod ?? 'plain') !== 'S256' && p.codeChallengeMethod !== 'plain') {
    return 'Unsupported code_challenge_method: use S256.';
  }
  return null;
}

function errorPage(res: Response, message: string): void {
  sendErrorPage(res, 400, 'Something went wrong', message);
}

function redirectWith(res: Response, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  res.redirect(303, url.toString());
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Remembers which simulated user this browser last signed in as. */
export const SIM_USER_COOKIE = 'discord_sim_user';

export function mountAuthorize(router: Router, cfg: OAuthConfig): void {
  const { state } = cfg;

  const issueCode = (p: AuthorizeParams, user: SimUser): string => {
    const code = randomBytes(15).toString('base64url');
    state.codes.set(code, {
      userId: user.id,
      clientId: cfg.clientId,
      redirectUri: p.redirectUri ?? '',
      scope: p.scopes.join(' '),
      codeChallenge: p.codeChallenge ?? null,
      codeChallengeMethod: p.codeChallenge ? (p.codeChallengeMethod ?? 'plain') : null,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    return code;
  };

  const completeUserFlow = (res: Response, p: AuthorizeParams, user: SimUser): void => {
    cfg.log(`oauth: ${user.username} authorized ${p.scopes.join(' ')}`);
    // Like a browser signed in to discord.com: the simulator's invite pages then know who you are.
    res.cookie(SIM_USER_COOKIE, user.id, { httpOnly: true, sameSite: 'lax', path: '/' });
    redirectWith(res, p.redirectUri ?? '', { code: issueCode(p, user), state: p.state });
  };

  const cancelUrl = (p: AuthorizeParams): string | null => {
    if (!p.redirectUri) return null;
    const url = new URL(p.redirectUri);
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set(
      'error_description',
      'The resource owner or authorization server denied the request',
    );
    if (p.state !== undefined) url.searchParams.set('state', p.state);
    return url.toString();
  };

  const renderUserPage = (req: Request, res: Response, p: AuthorizeParams, error?: string): void => {
    const users = [...state.users.values()];
    const cancel = cancelUrl(p);
    const body = html` <h1>Sign in to the application</h1>
      <p class="muted">
        It wants to access: ${p.scopes.join(', ')}. Pick which simulated Discord user you are.
      </p>
      ${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="${req.originalUrl}">
        <ul>
          ${users.map(
            (u) =>
              html`<li>
                <span class="row"
                  >${avatar(u.username)}${u.globalName ?? u.username}
                  <span class="muted">@${u.username}</span></span
                >
                <button name="user_id" value="${u.id}">Continue as ${u.username}</button>
              </li>`,
          )}
        </ul>
      </form>
      <h2>Or a new user</h2>
      <form method="post" action="${req.originalUrl}">
        <label for="username">Username</label>
        <input id="username" name="username" required pattern="[A-Za-z0-9_.]{2,32}" autocomplete="off" />
        <button type="submit">Create user and continue</button>
      </form>
      <p>${cancel ? html`<a class="button secondary" href="${cancel}">Cancel</a>` : ''}</p>`;
    sendPage(res, 'Authorize', body, { status: error ? 400 : 200 });
  };

  const botGuildChoices = (p: AuthorizeParams) =>
    [...state.guilds.values()].filter((g) => (p.disableGuildSelect && p.guildId ? g.id === p.guildId : true));

  const renderBotPage = (req: Request, res: Response, p: AuthorizeParams, error?: string): void => {
    const preselectGuild = p.guildId ? state.guilds.get(p.guildId) : undefined;
    const asName = queryString(req, 'as') ?? p.loginHint;
    const asUser =
      (asName && state.findUserByUsername(asName)) ||
      (preselectGuild && state.users.get(preselectGuild.ownerId));
    const cancel = cancelUrl(p);
    const body: RawHtml = html` <h1>Add the bot to a server</h1>
      <p class="muted">
        ${state.botUser.globalName} wants to join a server (permissions ${p.permissions ?? '0'}). You need to
        own the server.
      </p>
      ${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="${req.originalUrl}">
        <label for="user_id">You are</label>
        <select id="user_id" name="user_id">
          ${[...state.users.values()].map(
            (u) =>
              html`<option value="${u.id}" ${u.id === asUser?.id ? html`selected` : ''}>
                ${u.username}
              </option>`,
          )}
        </select>
        <label for="guild_id">Server</label>
        <select id="guild_id" name="guild_id">
          ${botGuildChoices(p).map(
            (g) =>
              html`<option value="${g.id}" ${g.id === p.guildId ? html`selected` : ''}>
                ${g.name}${g.botJoinedAt ? ' (bot already there)' : ''}
              </option>`,
          )}
        </select>
        <div class="row">
          <button type="submit">Authorize</button>
          ${cancel ? html`<a class="button secondary" href="${cancel}">Cancel</a>` : ''}
        </div>
      </form>`;
    sendPage(res, 'Add bot', body, { status: error ? 400 : 200 });
  };

  router.get('/oauth2/authorize', (req, res) => {
    const p = readParams(req);
    const problem = validate(p, cfg.clientId, cfg.state.redirectUris);
    if (problem) return errorPage(res, problem);
    if (p.scopes.includes('bot')) return renderBotPage(req, res, p);
    if (p.loginHint) {
      try {
        return completeUserFlow(res, p, state.createUser({ username: p.loginHint }));
      } catch (err) {
        if (err instanceof SimError) return errorPage(res, err.message);
        throw err;
      }
    }
    renderUserPage(req, res, p);
  });

  router.post('/oauth2/authorize', (req, res) => {
    const p = readParams(req);
    const problem = validate(p, cfg.clientId, cfg.state.redirectUris);
    if (problem) return errorPage(res, problem);
    const userId = bodyString(req, 'user_id');
    const username = bodyString(req, 'username');
    let user: SimUser | undefined;
    try {
      user = userId ? state.users.get(userId) : username ? state.createUser({ username }) : undefined;
    } catch (err) {
      if (err instanceof SimError && !p.scopes.includes('bot'))
        return renderUserPage(req, res, p, err.message);
      throw err;
    }
    if (!p.scopes.includes('bot')) {
      if (!user) return renderUserPage(req, res, p, 'Pick a user or type a username.');
      return completeUserFlow(res, p, user);
    }
    const guild = state.guilds.get(bodyString(req, 'guild_id') ?? '');
    if (!user || !guild) return renderBotPage(req, res, p, 'Pick a user and a server.');
    if (guild.ownerId !== user.id) {
      return renderBotPage(
        req,
        res,
        p,
        `${user.username} does not have Manage Server permission in ${guild.name}.`,
      );
    }
    state.setBotInGuild(guild.id, true);
    cfg.log(`oauth: bot added to ${guild.name} by ${user.username}`);
    if (p.redirectUri) {
      return redirectWith(res, p.redirectUri, {
        code: p.responseType === 'code' ? issueCode(p, user) : undefined,
        state: p.state,
        guild_id: guild.id,
        permissions: p.permissions ?? '0',
      });
    }
    sendPage(
      res,
      'Authorized',
      html`<h1>Authorized</h1>
        <p>The bot was added to <strong>${guild.name}</strong>. You may close this page.</p>
        <p><a href="${cfg.basePath}/guilds/${guild.id}">Open ${guild.name}</a></p>`,
    );
  });
}

// ---- token endpoint --------------------------------------------------------------------------

function oauthError(res: Response, status: number, error: string, description?: string): void {
  res.status(status).json(description ? { error, error_description: description } : { error });
}

function clientCredentials(req: Request): { id?: string; secret?: string } {
  const header = req.get('authorization') ?? '';
  if (/^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    if (sep >= 0) {
      return {
        id: decodeURIComponent(decoded.slice(0, sep)),
        secret: decodeURIComponent(decoded.slice(sep + 1)),
      };
    }
  }
  return { id: bodyString(req, 'client_id'), secret: bodyString(req, 'client_secret') };
}

export function mountToken(router: Router, cfg: OAuthConfig): void {
  const { state } = cfg;

  const issueToken = (res: Response, userId: string, scope: string): void => {
    const access = randomBytes(20).toString('base64url');
    const refresh = randomBytes(20).toString('base64url');
    state.tokens.set(access, {
      userId,
      scope,
      expiresAt: Date.now() + TOKEN_TTL_S * 1000,
      refreshToken: refresh,
    });
    state.changed();
    res.json({
      access_token: access,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      refresh_token: refresh,
      scope,
    } satisfies RESTPostOAuth2AccessTokenResult);
  };

  router.post('/oauth2/token', (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) {
      // Discord only parses form bodies; anything else looks like a request without grant_type.
      return oauthError(res, 400, 'unsupported_grant_type', 'Grant type None is not supported');
    }
    const client = clientCredentials(req);
    if (client.id !== cfg.clientId || client.secret !== cfg.clientSecret)
      return oauthError(res, 401, 'invalid_client');
    const grantType = bodyString(req, 'grant_type');
    if (grantType === 'authorization_code') {
      const codeValue = bodyString(req, 'code') ?? '';
      const code = state.codes.get(codeValue);
      if (!code || code.expiresAt <= Date.now()) {
        state.codes.delete(codeValue);
        return oauthError(res, 400, 'invalid_grant', 'Invalid "code" in request.');
      }
      state.codes.delete(codeValue); // single use, even when the rest is wrong
      if (bodyString(req, 'redirect_uri') !== code.redirectUri) {
        return oauthError(res, 400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
      }
      if (code.codeChallenge) {
        const verifier = bodyString(req, 'code_verifier');
        const computed = verifier && (code.codeChallengeMethod === 'S256' ? s256(verifier) : verifier);
        if (!verifier || computed !== code.codeChallenge) {
          return oauthError(res, 400, 'invalid_grant', 'Invalid "code_verifier" in request.');
        }
      }
      return issueToken(res, code.userId, code.scope);
    }
    if (grantType === 'refresh_token') {
      const refresh = bodyString(req, 'refresh_token');
      const entry = refresh
        ? [...state.tokens.entries()].find(([, t]) => t.refreshToken === refresh)
        : undefined;
      if (!entry) return oauthError(res, 400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      state.tokens.delete(entry[0]);
      return issueToken(res, entry[1].userId, entry[1].scope);
    }
    return oauthError(
      res,
      400,
      'unsupported_grant_type',
      `Grant type ${grantType ?? 'None'} is not supported`,
    );
  });

  router.post('/oauth2/token/revoke', (req, res) => {
    const client = clientCredentials(req);
    if (client.id !== cfg.clientId || client.secret !== cfg.clientSecret)
      return oauthError(res, 401, 'invalid_client');
    const token = bodyString(req, 'token');
    for (const [access, t] of state.tokens) {
      if (access === token || t.refreshToken === token) state.tokens.delete(access);
    }
    state.changed();
    res.json({});
  });
}
