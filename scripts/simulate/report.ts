import { formatCents } from '../../src/shared/money.ts';
import { ACTOR_LABELS, type SimulationReport } from './population.ts';

// The printed table of `npm run simulate`: one row per actor type, coins in "12.50" form.

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

export function formatReport(report: SimulationReport): string {
  const coins = (cents: number) => formatCents(cents);
  const columns = [
    ['actor type', 26],
    ['accts', 5],
    ['welcome', 8],
    ['timed', 8],
    ['joins', 7],
    ['no-bot', 7],
    ['penalty', 8],
    ['spent', 8],
    ['forfeit', 8],
    ['created', 9],
    ['faucet', 9],
    ['allowed', 9],
    ['abuse', 10],
    ['debt', 6],
    ['ok', 3],
  ] as const;
  const lines: string[] = [];
  lines.push(
    `Population simulation (${report.mode}, seed ${report.seed}): ${(report.simulatedMs / 86_400_000).toFixed(2)} simulated days in ${report.rounds} rounds, ` +
      `${report.requests} requests, ${(report.wallMs / 1000).toFixed(1)} s wall clock${report.stoppedByWallClock ? ' (stopped by the wall-clock cap)' : ''}`,
  );
  lines.push(
    'Coins per actor type (credits − debits from the ledger); abuse = forbidden actions accepted / attempted, coins',
  );
  lines.push(columns.map(([name, width], i) => pad(name, width, i > 0)).join(' '));
  for (const row of report.rows) {
    const abuser = row.type !== 'honest_member' && row.type !== 'honest_owner';
    const ok =
      row.created <= row.allowed &&
      (!abuser || (row.abuseWins === 0 && row.abuseCoins === 0 && row.created <= row.faucet));
    const cells = [
      ACTOR_LABELS[row.type],
      String(row.accounts),
      coins(row.welcome),
      coins(row.timed),
      coins(row.joinRewards),
      coins(row.nobotRewards),
      coins(-row.penalties),
      coins(-row.spent),
      coins(-row.forfeited),
      coins(row.created),
      coins(row.faucet),
      coins(row.allowed),
      abuser ? `${row.abuseWins}/${row.abuseAttempts} ${coins(row.abuseCoins)}` : '-',
      coins(row.debt),
      ok ? 'yes' : 'NO',
    ];
    lines.push(cells.map((c, i) => pad(c, columns[i]![1], i > 0)).join(' '));
  }
  lines.push('');
  lines.push('Checks:');
  for (const c of report.checks) lines.push(`  ${c.ok ? '✓' : '✗'} ${c.name} — ${c.detail}`);
  lines.push('');
  lines.push(
    report.ok
      ? 'PASS: no abuser type gained beyond the honest faucet; every invariant held.'
      : 'FAIL: see ✗ above.',
  );
  return lines.join('\n');
}
