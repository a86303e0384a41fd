import { parseArgs } from 'node:util';
import { DAY, HOUR } from '../../src/clock.ts';
import {
  FULL_OPTIONS,
  QUICK_OPTIONS,
  runPopulation,
  type PopulationSize,
  type SimulationOptions,
} from './population.ts';
import { formatReport } from './report.ts';

// `npm run simulate [-- --quick] [--seed N] [--days D] [--tick-hours H] [--scale K] [--wall-seconds S] [--json]`
// Drives a population of honest members and owners, alt rings, no-bot farmers, churners, colluder rings,
// funnels through managers, ban-after-leave colluders
// and new-account farmers through the real product and the Discord simulator for a bounded simulated
// time (and a wall-clock cap), then prints coins created per actor type against what the rules allow.
// Exits 1 when an abuser type gained anything beyond the honest faucet or an invariant broke (decision 024).

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seed: { type: 'string' },
    days: { type: 'string' },
    'tick-hours': { type: 'string' },
    scale: { type: 'string' },
    'wall-seconds': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${value}`);
  return n;
}

const base = args.quick ? QUICK_OPTIONS : FULL_OPTIONS;
const scale = positive('scale', args.scale) ?? 1;
const seed = args.seed === undefined ? 1 : Number.parseInt(args.seed, 10);
if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${args.seed}`);
const days = positive('days', args.days);
const tickHours = positive('tick-hours', args['tick-hours']);
const wallSeconds = positive('wall-seconds', args['wall-seconds']);

function scaled(population: PopulationSize, k: number): PopulationSize {
  const out = { ...population };
  for (const key of Object.keys(out) as (keyof PopulationSize)[])
    out[key] = Math.max(1, Math.round(out[key] * k));
  return out;
}

const options: SimulationOptions = {
  ...base,
  seed,
  population: scaled(base.population, scale),
  durationMs: days !== undefined ? days * DAY : base.durationMs,
  tickMs: tickHours !== undefined ? tickHours * HOUR : base.tickMs,
  wallClockCapMs: wallSeconds !== undefined ? wallSeconds * 1000 : base.wallClockCapMs,
  log: args.json ? undefined : (line) => console.log(line),
};

const report = await runPopulation(options);
console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
process.exit(report.ok ? 0 : 1);
