import Database from 'better-sqlite3';
import type { BenchResults } from './results.ts';
import type { MemorySplit } from './soak.ts';
import { describeGc } from './gc.ts';

// Ledger check after the run, the targets, and the printed table.

export interface LedgerCheck {
  users: number;
  transactions: number;
  mismatches: number;
  ok: boolean;
}

/** balance == sum(transactions) for every user, by SQL on the database file (product stopped). */
export function checkLedger(databasePath: string): LedgerCheck {
  const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const mismatches = sqlite
      .prepare<[], { n: number }>(
        `SELECT COUNT(*) AS n FROM (
           SELECT u.id FROM users u LEFT JOIN transactions t ON t.user_id = u.id
           GROUP BY u.id HAVING u.coins != COALESCE(SUM(t.amount), 0))`,
      )
      .get()!.n;
    const users = sqlite.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()!.n;
    const transactions = sqlite.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM transactions').get()!.n;
    return { users, transactions, mismatches, ok: mismatches === 0 };
  } finally {
    sqlite.close();
  }
}

export interface Target {
  name: string;
  goal: string;
  actual: string;
  met: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function evaluateTargets(r: BenchResults): Target[] {
  const d = r.discover;
  const c = r.claims;
  const targets: Target[] = [];
  if (d) {
    targets.push({
      name: 'Discover vs bare Express',
      goal: '≥ 60 % req/s, p99 ≤ 25 ms @32',
      actual: `${pct(d.ratioToExpress)}, p99 ${ms(d.product.p99)}`,
      met: d.ratioToExpress >= 0.6 && d.product.p99 <= 25,
    });
  }
  if (c) {
    targets.push({
      name: 'Reward claims vs raw SQLite',
      goal: '≥ 25 %',
      actual: pct(c.ratioToRawSqlite),
      met: c.ratioToRawSqlite >= 0.25,
    });
  }
  if (r.joinPath) {
    targets.push({
      name: 'Member add → credited p99',
      goal: '≤ 50 ms',
      actual: ms(r.joinPath.p99Ms),
      met: r.joinPath.p99Ms <= 50,
    });
  }
  targets.push(
    {
      name: 'First-load JS (login)',
      goal: '≤ 200 kB gzip',
      actual: kb(r.web.login.jsGzip),
      met: r.web.login.jsGzip <= 200_000,
    },
    {
      name: 'RSS after the run',
      goal: '≤ 300 MB',
      actual: r.memory.afterRunMb === null ? 'n/a' : `${r.memory.afterRunMb.toFixed(0)} MB`,
      met: r.memory.afterRunMb !== null && r.memory.afterRunMb <= 300,
    },
  );
  return targets;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => [...(row[col] ?? '')].length)));
  return rows
    .map((row) =>
      row
        .map((cell, col) => cell.padEnd(widths[col]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const split = (m: MemorySplit | null | undefined) =>
  m
    ? ` (V8 heap ${m.heapUsedMb} used of ${m.heapTotalMb}, new space ${m.newSpaceMb}; external ${m.externalMb}; page renderer ${m.rendererHeapUsedMb} used of ${m.rendererHeapTotalMb} + ${m.rendererExternalMb} external; other ${m.otherMb})`
    : '';

export function formatReport(r: BenchResults, targets: Target[]): string {
  const d = r.discover;
  // CPU per request: the server process's user + system time over the run / answered requests (the
  // figure a busy shared machine distorts least; req/s falls with other processes' load).
  const cpu = (x: number | null | undefined) => (typeof x === 'number' ? `${x.toFixed(3)} ms` : '');
  const rows: string[][] = [['measurement', 'req/s (ops/s)', 'p50', 'p99', 'CPU/req', 'notes']];
  if (d) {
    rows.push(
      [
        'Discover GET /api/servers (product)',
        d.product.rps.toFixed(0),
        ms(d.product.p50),
        ms(d.product.p99),
        cpu(d.product.cpuMsPerRequest),
        [`${d.connections} conns, ${d.product.seconds} s, ${kb(d.bodyBytes)} body`, describeGc(d.product.gc)]
          .filter(Boolean)
          .join('; '),
      ],
      ...(d.underWrites
        ? [
            [
              '  while members join (campaign writes)',
              d.underWrites.product.rps.toFixed(0),
              ms(d.underWrites.product.p50),
              ms(d.underWrites.product.p99),
              cpu(d.underWrites.product.cpuMsPerRequest),
              `${d.underWrites.writes.joins} joins credited meanwhile (${d.underWrites.writes.perSecond}/s)`,
            ],
          ]
        : []),
      [
        '  same bytes, bare Express 5',
        d.express.rps.toFixed(0),
        ms(d.express.p50),
        ms(d.express.p99),
        cpu(d.express.cpuMsPerRequest),
        `product = ${pct(d.ratioToExpress)} of req/s` +
          (d.product.cpuMsPerRequest && d.express.cpuMsPerRequest
            ? `; by CPU/req ${pct(d.express.cpuMsPerRequest / d.product.cpuMsPerRequest)}`
            : ''),
      ],
      [
        '  same bytes, raw node:http',
        d.raw.rps.toFixed(0),
        ms(d.raw.p50),
        ms(d.raw.p99),
        cpu(d.raw.cpuMsPerRequest),
        `product = ${pct(d.ratioToRaw)}`,
      ],
      [
        '  first page / whole catalogue',
        '',
        '',
        '',
        '',
        `${d.firstPageCampaigns} campaigns ${kb(d.bodyBytes)} / ${d.catalogue.campaigns} in ${d.catalogue.pages} pages ${kb(d.catalogue.bytes)}`,
      ],
    );
    if (d.phone) {
      rows.push([
        '  Discover on a phone (390 px, 4× CPU)',
        '',
        '',
        '',
        '',
        `first card ${d.phone.firstCardMs} ms, ${d.phone.cards} cards, CLS ${d.phone.cls}`,
      ]);
    }
  }
  const c = r.claims;
  if (c) {
    rows.push(
      [
        'Reward claim POST /api/hourly/claim',
        c.product.rps.toFixed(0),
        ms(c.product.p50),
        ms(c.product.p99),
        cpu(c.product.cpuMsPerRequest),
        `${c.product.requests} claims in ${c.product.seconds} s (wall clock), ${c.product.non2xx} non-2xx`,
      ],
      [
        '  same transactions, raw better-sqlite3',
        c.rawSqlite.opsPerSecond.toFixed(0),
        '',
        ms(c.rawSqlite.p99Ms),
        cpu(c.rawSqlite.cpuMsPerClaim),
        `product = ${pct(c.ratioToRawSqlite)} of ops/s` +
          (c.product.cpuMsPerRequest
            ? `; by CPU/claim ${pct(c.rawSqlite.cpuMsPerClaim / c.product.cpuMsPerRequest)}`
            : ''),
      ],
    );
  }
  const j = r.joinPath;
  if (j)
    rows.push([
      'Member add → credited (gateway, bot)',
      '',
      ms(j.p50Ms),
      ms(j.p99Ms),
      '',
      `${j.credited}/${j.joins} joins, max ${ms(j.maxMs)}`,
    ]);
  rows.push([
    'Sign-in through the simulator',
    r.signIn.perSecond.toFixed(0),
    '',
    '',
    '',
    `${r.signIn.users} users`,
  ]);
  const mem = r.memory;
  const web = r.web;
  const lines = [
    '',
    `CoinSync bench (${r.mode}) — ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}, sessions in ${r.sessions}, product ${
      r.runtime.kind === 'dist'
        ? `dist/server (${Object.entries(r.runtime.env ?? {})
            .map(([k, v]) => `${k}=${v} `)
            .join('')}node ${r.runtime.nodeFlags.join(' ') || 'without flags'})`
        : 'via tsx (sources)'
    }, load average ${r.machine.loadAverage1m.before} → ${r.machine.loadAverage1m.after}`,
    `Data: ${r.data.users} users, ${r.data.activeCampaigns} active campaigns (+${r.data.inactiveCampaigns} inactive), ${r.data.transactions} transactions, ${r.data.joins} joins; seeded in ${(r.data.seedMs / 1000).toFixed(1)} s`,
    '',
    table(rows),
    '',
    `CPU/req: the server process's user + system time during the run per answered request (includes its idle use: ${r.idleCpuPercent ?? 'n/a'} % of a core with no requests)`,
    `Memory (product RSS): at rest ${mem.atRestMb?.toFixed(0) ?? 'n/a'} MB${split(mem.atRest)}, after the run ${mem.afterRunMb?.toFixed(0) ?? 'n/a'} MB${split(mem.afterRun)}`,
    `Web first load (gzip): login JS ${kb(web.login.jsGzip)} + CSS ${kb(web.login.cssGzip)}; Discover JS ${kb(web.discover.jsGzip)} + CSS ${kb(web.discover.cssGzip)}`,
    `Ledger: ${r.ledger.ok ? 'balance == sum(transactions) for all' : `BROKEN for ${r.ledger.mismatches} of`} ${r.ledger.users} users (${r.ledger.transactions} transactions)`,
    '',
    'Targets:',
    ...targets.map((t) => `  ${t.met ? '✓' : '✗'} ${t.name}: ${t.actual} (goal ${t.goal})`),
    '',
  ];
  return lines.join('\n');
}

/** One COUNT(*) on the database file through a read-only connection (the product may be running). */
export function countRows(databasePath: string, sql: string): number {
  const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    return sqlite.prepare<[], { n: number }>(sql).get()!.n;
  } finally {
    sqlite.close();
  }
}
