// Pins the part of Discord's OpenAPI document that the product depends on, for the simulator's
// contract test (src/sim/discord/contract.test.ts).
//
//   node --import tsx scripts/discord-openapi-subset.ts <path/to/openapi.json> <commit>
//
// <path/to/openapi.json> is specs/openapi.json of the discord/discord-api-spec repository at <commit>.
// Keeps only the operations below and every component they reference (transitively), and records
// where the copy comes from. Re-run it with a newer commit to move the pin; the test then says what
// the simulator no longer matches.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The operations the product calls (src/discord, src/auth, src/bot through discord.js). */
const OPERATIONS: { method: 'get' | 'post'; path: string }[] = [
  { method: 'get', path: '/users/@me' },
  { method: 'get', path: '/users/@me/guilds' },
  { method: 'get', path: '/invites/{code}' },
  { method: 'get', path: '/guilds/{guild_id}' },
  { method: 'get', path: '/guilds/{guild_id}/members' },
  { method: 'get', path: '/guilds/{guild_id}/members/{user_id}' },
  { method: 'get', path: '/guilds/{guild_id}/audit-logs' },
  { method: 'get', path: '/guilds/{guild_id}/channels' },
  { method: 'post', path: '/channels/{channel_id}/invites' },
  { method: 'post', path: '/users/@me/channels' },
  { method: 'post', path: '/channels/{channel_id}/messages' },
  { method: 'get', path: '/gateway/bot' },
];

const SUBSET_FILE = 'src/sim/discord/contract/discord-openapi.subset.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function main(): void {
  const [source, commit] = process.argv.slice(2);
  if (!source || !commit || !/^[0-9a-f]{40}$/.test(commit)) {
    console.error('usage: discord-openapi-subset.ts <path/to/openapi.json> <40-hex commit>');
    process.exit(2);
  }
  const doc = JSON.parse(readFileSync(source, 'utf8')) as {
    openapi: string;
    info: Json;
    paths: Record<string, Record<string, Json>>;
    components: Record<string, Record<string, Json>>;
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const op of OPERATIONS) {
    const item = doc.paths[op.path];
    const operation = item?.[op.method];
    if (!item || !operation) throw new Error(`${op.method.toUpperCase()} ${op.path} is not in the document`);
    paths[op.path] = { ...paths[op.path], [op.method]: operation };
    if (item.parameters) paths[op.path]!.parameters = item.parameters;
  }

  // Follow every "#/components/<kind>/<name>" reference until nothing new turns up.
  const components: Record<string, Record<string, Json>> = {};
  const pending: Json[] = [paths];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value);
          if (!match) throw new Error(`unexpected $ref ${value}`);
          const [, kind, name] = match as unknown as [string, string, string];
          if (components[kind]?.[name] !== undefined) continue;
          const target = doc.components[kind]?.[name];
          if (target === undefined) throw new Error(`dangling $ref ${value}`);
          (components[kind] ??= {})[name] = target;
          pending.push(target);
        } else pending.push(value);
      }
    }
  }
  for (const kind of Object.keys(components)) {
    components[kind] = Object.fromEntries(
      Object.entries(components[kind]!).sort(([a], [b]) => a.localeCompare(b)),
    );
  }

  const subset = {
    'x-source': {
      repository: 'discord/discord-api-spec',
      path: 'specs/openapi.json',
      commit,
      extractedBy: 'scripts/discord-openapi-subset.ts',
    },
    openapi: doc.openapi,
    info: doc.info,
    paths,
    components,
  };
  const out = path.resolve(SUBSET_FILE);
  writeFileSync(out, `${JSON.stringify(subset, null, 1)}\n`);
  const count = Object.values(components).reduce((n, c) => n + Object.keys(c).length, 0);
  console.log(`wrote ${SUBSET_FILE}: ${OPERATIONS.length} operations, ${count} components`);
}

main();
