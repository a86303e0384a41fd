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
// one commit for all of them, where each member's claim was one statement of its own. A lone claim is
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

/** The claims queued this turn, by pool and reward. */
const queues = new WeakMap<DbHandle, Map<RewardType, Pending[]>>();

/**
 * A claim and its credit as part of this turn's group (PostgreSQL only: `h` is the pool's handle,
 * `autocommitHandle`). Resolves with its own outcome once the statement that wrote it has committed.
 */
export function claimAndCredit(
  h: DbHandle,
  input: ClaimInput,
  credit: ClaimWithCredit['credit'],
): Promise<ClaimAndCredit> {
  return new Promise((resolve, reject) => {
    let byType = queues.get(h);
    if (!byType) queues.set(h, (byType = new Map()));
    let queue = byType.get(input.type);
    if (!queue) {
      byType.set(input.type, (queue = []));
      setImmediate(flushOutsideCallers, h, input.type);
    }
    queue.push({ input, credit, resolve, reject });
  });
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

/** This turn's claims of `type`: a group of each member's first, then of the second claims, and so on, in order. */
async function flush(h: DbHandle, type: RewardType): Promise<void> {
  const byType = queues.get(h)!;
  let claims = byType.get(type)!;
  byType.delete(type);
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
}

// The group's statement runs in no caller's async context (one person's Discord deadline, decision 037,
// is no other claim's); each caller continues in its own after it.
const flushOutsideCallers = AsyncResource.bind((h: DbHandle, type: RewardType) => void flush(h, type));
