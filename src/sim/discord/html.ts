// Tiny server-rendered HTML helpers for the simulator's human-facing pages.
import type { Response } from 'express';

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Tagged template that escapes interpolations unless they are `raw(...)`. */
export class RawHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
export const raw = (html: string): RawHtml => new RawHtml(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): RawHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) {
      if (part === null || part === undefined || part === false) continue;
      out += part instanceof RawHtml ? part.html : escapeHtml(part);
    }
    out += strings[i + 1] ?? '';
  });
  return new RawHtml(out);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:"gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif;background:#313338;color:#dbdee1;}
main{max-width:560px;margin:48px auto;background:#2b2d31;border-radius:8px;padding:32px;box-shadow:0 8px 24px rgba(0,0,0,.35)}
main.wide{max-width:900px}
h1{color:#f2f3f5;font-size:24px;margin:0 0 8px}
h2{color:#f2f3f5;font-size:16px;text-transform:uppercase;letter-spacing:.02em;margin:24px 0 8px}
p{line-height:1.4}
a{color:#00a8fc}
.muted{color:#949ba4;font-size:14px}
.banner{background:#5865f2;color:#fff;text-align:center;padding:6px;font-size:13px}
button,.button{display:inline-block;border:0;border-radius:4px;padding:10px 16px;font-size:14px;font-weight:600;cursor:pointer;background:#5865f2;color:#fff;text-decoration:none}
button:hover,.button:hover{background:#4752c4}
button.secondary,.button.secondary{background:#4e5058}
button.danger{background:#da373c}
button.success{background:#248046}
input,select{width:100%;padding:10px;border-radius:4px;border:0;background:#1e1f22;color:#dbdee1;font-size:15px;margin:6px 0 12px}
label{font-size:12px;font-weight:700;text-transform:uppercase;color:#b5bac1}
ul{list-style:none;padding:0;margin:0}
li{display:flex;justify-content:space-between;align-items:center;gap:12px;padding:8px 0;border-bottom:1px solid #3f4147}
li form{margin:0}
.avatar{display:inline-flex;width:32px;height:32px;border-radius:50%;background:#5865f2;color:#fff;align-items:center;justify-content:center;font-weight:700;margin-right:8px}
.row{display:flex;gap:8px;align-items:center}
.error{background:#3b2224;border:1px solid #da373c;padding:12px;border-radius:4px}
table{width:100%;border-collapse:collapse;font-size:14px}
td,th{text-align:left;padding:6px;border-bottom:1px solid #3f4147;vertical-align:top}
`;

export function page(title: string, body: RawHtml, opts: { wide?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Discord Simulator</title><style>${STYLE}</style></head>
<body><div class="banner">Discord simulator: a local stand-in for Discord, not the real service</div>
<main${opts.wide ? ' class="wide"' : ''}>${body.html}</main></body></html>`;
}

/** Sends a whole page: the one shell (banner, style, main) around `body`, with a status (default 200). */
export function sendPage(
  res: Response,
  title: string,
  body: RawHtml,
  opts: { wide?: boolean; status?: number } = {},
): void {
  res
    .status(opts.status ?? 200)
    .type('html')
    .send(page(title, body, opts));
}

/** A page that says what went wrong: a heading and the message in the error box. */
export function sendErrorPage(res: Response, status: number, heading: string, message: string): void {
  sendPage(
    res,
    'Error',
    html`<h1>${heading}</h1>
      <p class="error">${message}</p>`,
    { status },
  );
}

/** A table with a header row; each row's cells are text or html. */
export function table(headers: string[], rows: unknown[][]): RawHtml {
  return html`<table>
    ${
      headers.length
        ? html`<tr>
            ${headers.map((h) => html`<th>${h}</th>`)}
          </tr>`
        : ''
    }
    ${rows.map(
      (cells) =>
        html`<tr>
          ${cells.map((c) => html`<td>${c}</td>`)}
        </tr>`,
    )}
  </table>`;
}

export function avatar(name: string): RawHtml {
  return html`<span class="avatar" aria-hidden="true">${name.slice(0, 1).toUpperCase()}</span>`;
}
