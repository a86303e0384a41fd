import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/public-api/openapi.ts';
import { API_OPERATIONS } from '../../src/public-api/operations.ts';
import { literal, propertyName, typeOf } from '../../src/public-api/schema-types.ts';
import * as accessTokens from '../../src/shared/access-tokens.ts';
import * as apiSchemas from '../../src/shared/api-schemas.ts';
import * as campaignSchemas from '../../src/shared/campaign-schemas.ts';
import * as historySchemas from '../../src/shared/history-schemas.ts';
import * as joinSchemas from '../../src/shared/join-schemas.ts';
import * as notificationSchemas from '../../src/shared/notification-schemas.ts';
import * as paymentSchemas from '../../src/shared/payment-schemas.ts';
import * as reminderSchemas from '../../src/shared/reminder-schemas.ts';
import * as rewardsSchemas from '../../src/shared/rewards-schemas.ts';
import * as socialSchemas from '../../src/shared/social-schemas.ts';

// `npm run api:client`: writes the typed TypeScript client of the public API (src/api-client/
// coinsync-api.ts) from the OpenAPI document, the same one GET /api/openapi.json serves (decision 053).
// It covers the operations an access token may call plus the public JSON ones. The unit test
// src/api-client/api-client.test.ts fails when the committed file differs from what this writes.

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export const CLIENT_PATH = fileURLToPath(new URL('../../src/api-client/coinsync-api.ts', import.meta.url));

// A body or result whose schema src/shared exports is typed from that schema (`z.output<typeof
// apiCampaignSchema>`), so the client states each shape once, where the app states it; a shape built
// in the route table (operations.ts) is written out from its JSON Schema.
const SHARED_MODULES: Record<string, Record<string, unknown>> = {
  'access-tokens.ts': accessTokens,
  'api-schemas.ts': apiSchemas,
  'campaign-schemas.ts': campaignSchemas,
  'history-schemas.ts': historySchemas,
  'join-schemas.ts': joinSchemas,
  'notification-schemas.ts': notificationSchemas,
  'payment-schemas.ts': paymentSchemas,
  'reminder-schemas.ts': reminderSchemas,
  'rewards-schemas.ts': rewardsSchemas,
  'social-schemas.ts': socialSchemas,
};
const SHARED_SCHEMAS = new Map<unknown, { file: string; name: string }>(
  Object.entries(SHARED_MODULES).flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter(([, value]) => value instanceof z.ZodType)
      .map(([name, value]) => [value, { file, name }] as const),
  ),
);

/** The shared schemas the client's types name, by file: its `import type` lines. */
class SharedImports {
  private readonly byFile = new Map<string, Set<string>>();

  /** The TypeScript type of `schema` from the shared schemas it is made of; null if it is not. */
  typeOf(schema: z.ZodType | undefined, io: 'input' | 'output'): string | null {
    if (!schema) return null;
    const shared = SHARED_SCHEMAS.get(schema);
    if (shared) {
      const names = this.byFile.get(shared.file) ?? new Set();
      this.byFile.set(shared.file, names.add(shared.name));
      return `z.${io}<typeof ${shared.name}>`;
    }
    if (schema instanceof z.ZodArray) {
      const item = this.typeOf(schema.element as z.ZodType, io);
      return item === null ? null : `Array<${item}>`;
    }
    if (schema instanceof z.ZodNullable) {
      const inner = this.typeOf(schema.unwrap() as z.ZodType, io);
      return inner === null ? null : `${inner} | null`;
    }
    return null;
  }

  lines(): string[] {
    if (this.byFile.size === 0) return [];
    const files = [...this.byFile].sort(([a], [b]) => a.localeCompare(b));
    return [
      "import type { z } from 'zod';",
      ...files.map(
        ([file, names]) => `import type { ${[...names].sort().join(', ')} } from '../shared/${file}';`,
      ),
    ];
  }
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function jsonBody(response: Operation['responses'][string] | undefined): Schema | undefined {
  return response?.content?.['application/json']?.schema;
}

function inClient(op: Operation): boolean {
  const byToken = op.security?.some((s) => 'accessToken' in s) ?? false;
  const publicJson = op.security?.length === 0 && jsonBody(op.responses['200']) !== undefined;
  return byToken || (publicJson && op.operationId !== 'receiveStripeWebhook');
}

function operationCode(
  method: string,
  route: string,
  op: Operation,
  shared: SharedImports,
): { types: string; method: string } {
  const name = pascal(op.operationId);
  const schemas = API_OPERATIONS.find((o) => o.operationId === op.operationId);
  const params = op.parameters ?? [];
  const group = (where: 'path' | 'query') =>
    params
      .filter((p) => p.in === where)
      .map((p) => `${propertyName(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema)};`);
  const pathFields = group('path');
  const queryFields = group('query');
  const body = op.requestBody?.content['application/json']?.schema;
  const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
  const result =
    success
      .map(
        (s) =>
          shared.typeOf(schemas?.responses[Number(s)]?.schema, 'output') ?? typeOf(jsonBody(op.responses[s])),
      )
      .join(' | ') || 'unknown';
  const inputFields: string[] = [];
  if (pathFields.length > 0) inputFields.push(`params: { ${pathFields.join(' ')} };`);
  if (queryFields.length > 0) inputFields.push(`query?: { ${queryFields.join(' ')} };`);
  if (body) inputFields.push(`body: ${shared.typeOf(schemas?.body, 'input') ?? typeOf(body)};`);
  const types = [
    `/** ${method.toUpperCase()} ${route}: ${op.summary ?? ''} */`,
    `export type ${name}Result = ${result};`,
    ...(inputFields.length > 0 ? [`export interface ${name}Input { ${inputFields.join(' ')} }`] : []),
  ].join('\n');
  // Only optional query parameters: the argument itself is optional.
  const optional = pathFields.length === 0 && !body;
  const arg = inputFields.length === 0 ? '' : `input${optional ? '?' : ''}: ${name}Input`;
  const sent = inputFields.length === 0 ? '{}' : optional ? 'input ?? {}' : 'input';
  const call = `send<${name}Result>('${method.toUpperCase()}', ${literal(route)}, ${sent})`;
  return {
    types,
    method: `/** ${op.summary ?? ''} (${op.description ?? ''}) */\n${op.operationId}: (${arg}) => ${call},`,
  };
}

const RUNTIME = `
export interface CoinSyncClientOptions {
  /** The site, e.g. https://coinsync.example (no trailing /api). */
  baseUrl: string;
  /** A personal access token (cs_pat_…) from the Account page. */
  token?: string;
  fetch?: typeof fetch;
}

/** A refusal or failure: the HTTP status and the API's body (\`{ message }\` for errors). */
export class CoinSyncApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const message = (body as { message?: unknown } | null)?.message;
    super(typeof message === 'string' ? message : \`HTTP \${status}\`);
    this.name = 'CoinSyncApiError';
  }
}

interface Input {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export function createCoinSyncClient(options: CoinSyncClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\\/$/, '');
  async function send<T>(method: string, route: string, input: Input): Promise<T> {
    const path = route.replace(/\\{(\\w+)\\}/g, (_m, key: string) => encodeURIComponent(input.params?.[key] ?? ''));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(input.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = \`Bearer \${options.token}\`;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    const query = search.size > 0 ? \`?\${search.toString()}\` : '';
    const res = await doFetch(\`\${base}\${path}\${query}\`, {
      method,
      headers,
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    });
    const text = await res.text();
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (!res.ok) throw new CoinSyncApiError(res.status, body);
    return body as T;
  }
  return {
`;

/** The client's source, formatted as the repository's Prettier settings format it. */
export async function generateClientSource(): Promise<string> {
  const document = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
  const types: string[] = [];
  const methods: string[] = [];
  const shared = new SharedImports();
  for (const [route, byMethod] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      if (!inClient(op)) continue;
      const code = operationCode(method, route, op, shared);
      types.push(code.types);
      methods.push(code.method);
    }
  }
  const source = [
    '// Generated by `npm run api:client` from the OpenAPI document (GET /api/openapi.json). Do not edit:',
    '// change the route table (src/public-api/operations.ts) or the schemas, then run it again.',
    ...shared.lines(),
    '',
    types.join('\n\n'),
    RUNTIME,
    methods.join('\n'),
    '  };',
    '}',
    '',
    'export type CoinSyncClient = ReturnType<typeof createCoinSyncClient>;',
    '',
  ].join('\n');
  const config = (await prettier.resolveConfig(CLIENT_PATH)) ?? {};
  return prettier.format(source, { ...config, filepath: CLIENT_PATH });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(CLIENT_PATH, await generateClientSource());
  console.log(`wrote ${path.relative(process.cwd(), CLIENT_PATH)}`);
}
