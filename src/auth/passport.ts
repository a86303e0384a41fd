import passport from 'passport';
import { Strategy as DiscordStrategy } from 'passport-discord';
import type { Config } from '../config.ts';
import type { DataStore } from '../db/engine.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { DiscordApi, whilePersonWaits } from '../discord/discord-api.ts';
import { upsertUserFromDiscord } from '../users/users.ts';
import { saveOAuthTokens } from './oauth-tokens.ts';

/**
 * What sign-in asks Discord for: the profile and the guild list. No `email`: no feature uses it
 * (issue 27 item 5), so it is neither requested nor stored.
 */
export const DISCORD_SCOPES = ['identify', 'guilds'];

/** What the session holds about the signed-in user: the id only; handlers load the rest. */
export interface SessionUser {
  id: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends SessionUser {}
  }
}

/**
 * A passport instance of our own (not the global singleton) so several apps can live in one process
 * during tests. passport-discord fetches the profile from discord.com directly, so userProfile is
 * replaced by a call through our Discord port, which honours the configured base URL.
 */
export function createPassport(deps: {
  config: Config;
  store: DataStore;
  clock: Clock;
  logger: Logger;
  discord: DiscordApi;
}) {
  const { config, store, clock, logger, discord } = deps;
  const instance = new passport.Authenticator();
  const strategy = new DiscordStrategy(
    {
      clientID: config.discord.clientId,
      clientSecret: config.discord.clientSecret,
      callbackURL: `${config.publicUrl}/api/auth/discord/callback`,
      authorizationURL: `${config.discord.baseUrl}/oauth2/authorize`,
      tokenURL: `${config.discord.baseUrl}/api/oauth2/token`,
      scope: DISCORD_SCOPES,
      state: true,
      pkce: true,
    } as DiscordStrategy.StrategyOptions,
    // Five parameters: passport-oauth2 then passes the token response (expires_in, scope) as `params`.
    (
      accessToken: string,
      refreshToken: string,
      params: { expires_in?: number; scope?: string },
      profile: DiscordStrategy.Profile,
      done: (err: unknown, user?: SessionUser) => void,
    ) => {
      const now = clock.now();
      upsertUserFromDiscord(
        store,
        {
          id: profile.id,
          username: profile.username,
          avatar: profile.avatar ?? null,
          email: null,
          locale: (profile as { locale?: string }).locale ?? null,
        },
        now,
        config.discordIdHashKey,
      )
        .then(async ({ user, created }) => {
          await saveOAuthTokens(
            store,
            config.tokenEncryptionKey,
            user.id,
            {
              accessToken,
              refreshToken,
              expiresIn: Number(params.expires_in ?? 604800),
              scope: params.scope ?? DISCORD_SCOPES.join(' '),
            },
            now,
          );
          if (created) logger.info('new user signed up', { userId: user.id, discordId: user.discordId });
          done(null, { id: user.id });
        })
        .catch((err: unknown) => done(err));
    },
  );
  strategy.userProfile = (accessToken, done) => {
    // Called from passport-oauth2's HTTP callback (the request's context is lost there): a person waits.
    void whilePersonWaits(() => discord.getCurrentUser(accessToken)).then(
      (me) =>
        done(null, {
          provider: 'discord',
          id: me.id,
          username: me.username,
          avatar: me.avatar,
          email: me.email ?? undefined,
          locale: me.locale,
        }),
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
    );
  };
  instance.use(strategy);
  instance.serializeUser<SessionUser>((user, done) => done(null, { id: user.id }));
  instance.deserializeUser<SessionUser>((stored, done) => done(null, stored));
  return instance;
}

export type PassportInstance = ReturnType<typeof createPassport>;
