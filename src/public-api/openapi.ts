import { z } from 'zod';
import { PRODUCT_NAME } from '../shared/brand.ts';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  ACCESS_TOKEN_SCOPE_LABELS,
} from '../shared/access-tokens.ts';
import { errorBodySchema } from '../shared/api-schemas.ts';
import { API_OPERATIONS, openApiPath, type ApiOperation, type ResponseSpec } from './operations.ts';

// The OpenAPI 3.1 document, generated from the route table (operations.ts) and the zod schemas the
// routes parse with: zod 4's JSON Schema output is draft 2020-12, which is OpenAPI 3.1's dialect, so
// a schema goes in as zod writes it (without its `$schema` line).

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema form: the document states the shape, the route
  // still applies the rule (and answers 400 with its message).
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad input (nothing changed)',
  401: 'Not signed in, or an invalid, expired or revoked access token',
  402: 'Not enough coins',
  403: 'Refused: cross-site request, a route tokens cannot use, or a missing scope',
  404: 'Not found (or not yours)',
  409: 'Conflicts with the current state',
  425: 'Too early (a cooldown or a delay still runs)',
  429: 'Too many requests (see Retry-After)',
  502: 'Discord did not answer as expected',
  503: 'Temporarily unavailable (see Retry-After)',
};

/** Statuses every route of this kind can answer, besides its own. */
function commonErrors(op: ApiOperation): number[] {
  if (op.auth === 'public') return [];
  const errors = [401, 403, 429, 503];
  if (op.params ?? op.query ?? op.body) errors.push(400);
  return errors;
}

function responseObject(spec: ResponseSpec): JsonSchema {
  const headers = spec.headers
    ? Object.fromEntries(
        Object.entries(spec.headers).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      )
    : undefined;
  const type = spec.contentType ?? 'application/json';
  const content = spec.schema
    ? { [type]: { schema: jsonSchema(spec.schema, 'output') } }
    : spec.contentType
      ? { [type]: { schema: { type: 'string' } } }
      : undefined;
  return { description: spec.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
}

function parameters(op: ApiOperation): JsonSchema[] {
  const list: JsonSchema[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodObject) => {
    const object = jsonSchema(schema, 'input');
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((object.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  };
  if (op.params) add('path', op.params);
  if (op.query) add('query', op.query);
  return list;
}

function security(op: ApiOperation): JsonSchema[] | undefined {
  if (op.auth === 'public') return [];
  if (op.auth === 'session') return [{ session: [] }];
  return [{ session: [] }, { accessToken: [op.auth] }];
}

function operationObject(op: ApiOperation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(op.responses)) responses[status] = responseObject(spec);
  for (const status of [...commonErrors(op), ...(op.errors ?? [])]) {
    responses[String(status)] ??= responseObject({
      description: STATUS_TEXT[status] ?? 'Error',
      schema: errorBodySchema,
    });
  }
  const tokenNote =
    op.auth === 'public'
      ? 'No sign-in needed.'
      : op.auth === 'session'
        ? 'Signed-in browser session only: access tokens are refused here.'
        : `Session, or an access token with the \`${op.auth}\` scope.`;
  const params = parameters(op);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: tokenNote,
    tags: [op.tag],
    security: security(op),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

const DESCRIPTION = `The ${PRODUCT_NAME} API. Money is a string with two decimals ("12.50").

**Personal access tokens** (create them on the Account page): send \`Authorization: Bearer ${ACCESS_TOKEN_PREFIX}…\`.
A token acts only for the user who created it, only within its scopes, at most ${ACCESS_TOKEN_REQUESTS_PER_MINUTE}
requests a minute, and is refused at once once revoked or expired. No token can buy or move coins, delete the account
or manage tokens. Requests with a token carry no cookies.

Errors are \`{ "message": "…" }\` with a 4xx or 5xx status; a 4xx changed nothing.`;

let cached: JsonSchema | undefined;

/** The OpenAPI 3.1 document of every route in operations.ts (built once per process). */
export function buildOpenApiDocument(): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of API_OPERATIONS) {
    const path = openApiPath(op.path);
    (paths[path] ??= {})[op.method] = operationObject(op);
  }
  const scopes = Object.fromEntries(
    Object.entries(ACCESS_TOKEN_SCOPE_LABELS).map(([scope, { help }]) => [scope, help]),
  );
  cached = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: `${PRODUCT_NAME} API`, version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: [...new Set(API_OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'coinsync.sid',
          description: 'The website session (`__Host-coinsync.sid` in production)',
        },
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal access token (${ACCESS_TOKEN_PREFIX}…). Scopes: ${JSON.stringify(scopes)}`,
        },
      },
    },
  };
  return cached;
}
