import { Router } from 'express';
import { PRODUCT_NAME } from '../shared/brand.ts';
import { ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_SCOPE_LABELS } from '../shared/access-tokens.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { typeOf } from './schema-types.ts';
import { API_OPERATIONS, openApiPath, type ApiOperation } from './operations.ts';

// GET /api/openapi.json (the document) and GET /api/docs (the same, as a page people read). Public,
// before the session: no cookie is read or set. The page is built once, with no script (CSP-safe).

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function authLabel(op: ApiOperation): string {
  if (op.auth === 'public') return '<span class="b pub">public</span>';
  if (op.auth === 'session') return '<span class="b ses">session only</span>';
  return `<span class="b tok">token: ${escapeHtml(op.auth)}</span>`;
}

type Json = Record<string, unknown>;
interface DocOperation {
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Json }> }>;
}

/** An operation's inputs and answers, as TypeScript-like types (a closed <details>: no script needed). */
function operationDetails(op: DocOperation): string {
  const lines: string[] = [];
  for (const p of op.parameters ?? []) {
    lines.push(`${p.in} ${p.name}${p.required ? '' : '?'}: ${typeOf(p.schema)}`);
  }
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) lines.push(`body: ${typeOf(body)}`);
  for (const [status, response] of Object.entries(op.responses)) {
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    const shape = media?.schema && type === 'application/json' ? typeOf(media.schema) : (type ?? 'no body');
    lines.push(`${status} ${response.description}: ${shape}`);
  }
  return `<details><summary>Parameters and responses</summary><pre>${escapeHtml(lines.join('\n'))}</pre></details>`;
}

function docsPage(): string {
  const document = buildOpenApiDocument() as { paths: Record<string, Record<string, DocOperation>> };
  const byTag = new Map<string, ApiOperation[]>();
  for (const op of API_OPERATIONS) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  const item = (op: ApiOperation) => {
    const path = openApiPath(op.path);
    const details = document.paths[path]?.[op.method];
    return `<li><code class="m ${op.method}">${op.method.toUpperCase()}</code> <code>${escapeHtml(path)}</code> ${authLabel(
      op,
    )}<br><span class="s">${escapeHtml(op.summary)}</span>${details ? operationDetails(details) : ''}</li>`;
  };
  const sections = [...byTag]
    .map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2><ul>${ops.map(item).join('')}</ul>`)
    .join('');
  const scopes = Object.entries(ACCESS_TOKEN_SCOPE_LABELS)
    .map(([scope, { help }]) => `<li><code>${escapeHtml(scope)}</code> — ${escapeHtml(help)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PRODUCT_NAME} API</title>
<style>body{margin:0;background:#1e1f22;color:#dbdee1;font:15px/1.55 system-ui,sans-serif}main{max-width:54rem;margin:0 auto;padding:2rem 1.25rem 4rem}h1{color:#f2f3f5;font-size:1.75rem;margin:0 0 .5rem}h2{color:#f2f3f5;font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid #3f4147;padding-bottom:.35rem}ul{list-style:none;padding:0;margin:0}li{padding:.55rem .75rem;margin:.35rem 0;background:#2b2d31;border-radius:8px;overflow-wrap:anywhere}code{font:13px/1.4 ui-monospace,monospace;color:#f2f3f5}.m{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;padding:.05rem .3rem;font-weight:700;font-size:12px}.get{background:#1f6f43}.post{background:#3b48c4}.delete{background:#a12d2f}.s{color:#b5bac1;font-size:14px}.b{display:inline-block;font-size:12px;border-radius:999px;padding:0 .5rem;margin-left:.25rem}.pub{background:#3f4147}.ses{background:#5c3a11;color:#ffd8a8}.tok{background:#233b6e;color:#c5d4ff}a{color:#8ea1ff}p{color:#b5bac1}details{margin-top:.35rem}summary{cursor:pointer;color:#8ea1ff;font-size:13px}pre{margin:.4rem 0 0;padding:.6rem;background:#1e1f22;border-radius:6px;overflow-x:auto;font:12px/1.5 ui-monospace,monospace;color:#dbdee1;white-space:pre-wrap}</style>
</head><body><main><h1>${PRODUCT_NAME} API</h1>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Money is a string with two decimals ("12.50"); errors are <code>{ "message": "…" }</code>.</p>
<p>Personal access tokens are created on the Account page and sent as <code>Authorization: Bearer ${ACCESS_TOKEN_PREFIX}…</code>. A token acts only for its owner, within its scopes; it can never buy or move coins, delete the account or manage tokens.</p>
<ul>${scopes}</ul>${sections}</main></body></html>
`;
}

export function publicApiRoutes(): Router {
  const router = Router();
  const document = JSON.stringify(buildOpenApiDocument());
  const page = docsPage();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
