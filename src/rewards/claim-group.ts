import { AsyncResource } from 'node:async_hooks';
import type { DbHandle } from '../db/engine.ts';
import { recordStoreGroup } from '../metrics.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';
import {
  claimAndCreditOne,
  claimEachAndCredit,
  type ClaimAndCredit,
  type ClaimInput,
  type ClaimWithCredit,
} from './rewards-repo.ts';

// PostgreSQL's group of claims (decision 062, session 17): the claims of one reward queued during one
// event-loop turn (the requests node parsed in one poll phase) go out at the turn's end (`setImmediate`,
// as SQLite's group commit, decision 046 "Session 16") as ONE statement on the pool, one round trip and
// one commit for all of them, where each member's claim was one statement of its own; while
// `MAX_IN_FLIGHT` groups are in flight, new claims wait for the next. A lone claim is
// the one-statement claim it was (`claimAndCreditOne`); a member's second claim in the same turn goes in
// a group after the first's has been answered (one statement cannot write one row twice; the claims of
// one member keep their order). The group commits or fails whole: when it fails (a refused credit undoes it, a deadlock, an
// error of one member's part) nothing of it was written, and each member's claim runs alone, so every
// caller gets its own outcome, as if there had been no group.

interface Pending extends ClaimWithCredit {
  resolve: (outcome: ClaimAndCredit) => void;
  reject: (err: unknown) => void;
}

/** The last groups (two members or more): their size and whether the one statement committed, newest last (tests). */
export const recentClaimGroups: { size: number; committed: boolean }[] = [];
const GROUPS_KEPT = 64;
function noteGroup(size: number, committed: boolean): void {
  recordStoreGroup(size, committed ? 'committed' : 'failed');
  recentClaimGroups.push({ size, committed });
  if (recentClaimGroups.length > GROUPS_KEPT) recentClaimGroups.shift();
}

/**
 * How many groups of one reward may be in flight on one pool at once; claims that arrive meanwhile wait
 * for the next group (so a busy process sends fewer, larger statements, as SQLite's mutex makes its
 * group commits larger), which leaves when a group in flight is answered.
 */
const MAX_IN_FLIGHT = 2;

/** A pool's claims of one reward: those queued for the next group, and the groups in flight. */
interface Lane {
  queue: Pending[];
  inFlight: number;
  scheduled: boolean;
}
const lanes = new WeakMap<DbHandle, Map<RewardType, Lane>>();

function laneOf(h: DbHandle, type: RewardType): Lane {
  let byType = lanes.get(h);
  if (!byType) lanes.set(h, (byType = new Map<RewardType, Lane>()));
  let lane = byType.get(type);
  if (!lane) byType.set(type, (lane = { queue: [], inFlight: 0, scheduled: false }));
  return lane;
}

/**
 * A claim and its credit as part of a group (PostgreSQL only: `h` is the pool's handle,
 * `autocommitHandle`). Resolves with its own outcome once the statement that wrote it has committed.
 */
export function claimAndCredit(
  h: DbHandle,
  input: ClaimInput,
  credit: ClaimWithCredit['credit'],
): Promise<ClaimAndCredit> {
  return new Promise((resolve, reject) => {
    const lane = laneOf(h, input.type);
    lane.queue.push({ input, credit, resolve, reject });
    schedule(h, input.type, lane);
  });
}

/** The next group leaves at the end of this turn, unless one is due already or too many are in flight. */
function schedule(h: DbHandle, type: RewardType, lane: Lane): void {
  if (lane.scheduled || lane.inFlight >= MAX_IN_FLIGHT || lane.queue.length === 0) return;
  lane.scheduled = true;
  setImmediate(flushOutsideCallers, h, type);
}

async function runAlone(h: DbHandle, claim: Pending): Promise<void> {
  try {
    claim.resolve(await claimAndCreditOne(h, claim.input, claim.credit));
  } catch (err) {
    claim.reject(err);
  }
}

async function runGroup(h: DbHandle, type: RewardType, group: Pending[]): Promise<void> {
  if (group.length === 1) return runAlone(h, group[0]!);
  let outcomes: ClaimAndCredit[];
  try {
    outcomes = await claimEachAndCredit(h, type, group);
  } catch {
    // Nothing of the group was written: each claim on its own decides (and reports its own error).
    noteGroup(group.length, false);
    await Promise.all(group.map((claim) => runAlone(h, claim)));
    return;
  }
  noteGroup(group.length, true);
  outcomes.forEach((outcome, i) => group[i]!.resolve(outcome));
}

/** The queued claims of `type`: a group of each member's first, then of the second claims, and so on, in order. */
async function flush(h: DbHandle, type: RewardType): Promise<void> {
  const lane = laneOf(h, type);
  lane.scheduled = false;
  let claims = lane.queue;
  lane.queue = [];
  lane.inFlight += 1;
  try {
    while (claims.length > 0) {
      const named = new Set<string>();
      const group: Pending[] = [];
      const later: Pending[] = [];
      for (const claim of claims) {
        if (named.has(claim.input.userId)) later.push(claim);
        else {
          named.add(claim.input.userId);
          group.push(claim);
        }
      }
      await runGroup(h, type, group);
      claims = later;
    }
  } finally {
    lane.inFlight -= 1;
    schedule(h, type, lane);
  }
}

// The group's statement runs in no caller's async context (one person's Discord deadline, decision 037,
// is no other claim's); each caller continues in its own after it.
const flushOutsideCallers = AsyncResource.bind((h: DbHandle, type: RewardType) => void flush(h, type));
