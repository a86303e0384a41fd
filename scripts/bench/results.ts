import os from 'node:os';
import { round, type LoadResult } from './load.ts';
import type { BaselineResult } from './claim-baseline.ts';
import type { JoinPathResult } from './join-path.ts';
import type { WebSizes } from './web-size.ts';
import type { LedgerCheck, Target } from './report.ts';
import type { MemorySplit } from './soak.ts';

/** The shape of bench/results.json (the bench-quick test checks these keys). */
export interface BenchResults {
  mode: 'full' | 'quick';
  startedAt: string;
  durationSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryMb: number;
    node: string;
    platform: string;
    /** 1-minute load average when the run started and ended (other processes skew the numbers). */
    loadAverage1m: { before: number; after: number };
  };
  sessions: 'sqlite' | 'redis';
  /** How the product ran: the compiled dist/server with production's node flags, or the sources through tsx. */
  /** `env`: what the product got beyond the bench's configuration (production's process-file env, --product-env). */
  runtime: { kind: 'dist' | 'tsx'; nodeFlags: string[]; distDir?: string; env?: Record<string, string> };
  data: {
    users: number;
    activeCampaigns: number;
    inactiveCampaigns: number;
    transactions: number;
    joins: number;
    seedMs: number;
  };
  signIn: { users: number; seconds: number; perSecond: number };
  /** null when the phase was skipped (`--only`). */
  discover: {
    connections: number;
    seconds: number;
    bodyBytes: number;
    product: LoadResult;
    express: LoadResult;
    raw: LoadResult;
    ratioToExpress: number;
    ratioToRaw: number;
    /** Campaigns on the first page (its bytes are bodyBytes). */
    firstPageCampaigns: number;
    /** Every page for one member, following Link rel="next". */
    catalogue: { pages: number; campaigns: number; bytes: number };
    /** Discover at 390 × 844 with 4× CPU throttling (median of 3), or null when Chromium is missing. */
    phone: { firstCardMs: number; cards: number; cls: number } | null;
    /** Discover measured again while members keep joining (each credit writes a campaign row). */
    underWrites: {
      product: LoadResult;
      writes: { joins: number; seconds: number; perSecond: number };
    } | null;
  } | null;
  claims: {
    /** The first users' claims (not measured): JIT and statement caches warm up. */
    warmup: LoadResult;
    /** All measured blocks together (wall time = sum of the blocks' wall times). */
    product: LoadResult;
    /** Interleaved blocks: product, then the raw loop, per reward type. */
    blocks: { type: string; productPerSecond: number; rawPerSecond: number }[];
    rawSqlite: BaselineResult;
    ratioToRawSqlite: number;
  } | null;
  joinPath: JoinPathResult | null;
  /** The product's CPU use with no requests (3 s after the sign-ins), in % of one core; included in CPU/req. */
  idleCpuPercent: number | null;
  memory: {
    atRestMb: number | null;
    afterRunMb: number | null;
    /** The split from the product's /metrics (V8 heap, external, the rest of RSS). */
    atRest: MemorySplit | null;
    afterRun: MemorySplit | null;
  };
  web: WebSizes;
  ledger: LedgerCheck;
  targets: Target[];
}

export const RESULT_KEYS = [
  'mode',
  'machine',
  'data',
  'signIn',
  'discover',
  'claims',
  'joinPath',
  'memory',
  'web',
  'ledger',
  'targets',
] as const satisfies readonly (keyof BenchResults)[];

/** The machine line of the soak and PostgreSQL reports: the CPUs, Node, and how busy the machine was. */
export type MachineSummary = Pick<BenchResults['machine'], 'cpus' | 'cpuModel' | 'node' | 'loadAverage1m'>;

/** Describes this machine now; `loadBefore` is the 1-minute load average when the run started. */
export function describeMachine(loadBefore: number): MachineSummary {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.versions.node,
    loadAverage1m: { before: round(loadBefore, 2), after: round(os.loadavg()[0] ?? 0, 2) },
  };
}
