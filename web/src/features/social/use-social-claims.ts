import { useQueryClient } from '@tanstack/react-query';
import type { ApiSocialTask } from '@shared/api-types.ts';
import { SOCIAL_CLAIM_DELAY_MS } from '@shared/social-constants.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, errorStatus } from '../../lib/api.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';
import { toast } from '../../lib/toaster.tsx';
import { delayUntil, readPendingClaims, writePendingClaims, type PendingSocialClaim } from './pending-claims.ts';
import { useCompleteSocialTask } from './use-complete-social-task.ts';
import { useStartSocialTask } from './use-start-social-task.ts';

/** A refused-too-early claim is retried after this long (the server's clock is the judge). */
const TOO_EARLY_RETRY_MS = 3000;
const COMPLETE_FAILED = 'Failed to complete task. The reward will retry when you refresh the page.';

export interface SocialClaims {
  /** Pending claim for a task, if any. */
  pendingFor: (taskId: string) => PendingSocialClaim | undefined;
  /** Opens the task's link, records the start on the server and schedules the claim. */
  startTask: (task: ApiSocialTask) => void;
}

/**
 * Runs the social-task claim flow: open link → /start → wait 15 s → /complete. Pending claims live in
 * localStorage, so a reload retries them (at once if due, else at their due time).
 */
export function useSocialClaims(userId: string, tasks: ApiSocialTask[] | undefined): SocialClaims {
  const queryClient = useQueryClient();
  const start = useStartSocialTask();
  const { mutateAsync: complete } = useCompleteSocialTask();
  const [pending, setPending] = useState<PendingSocialClaim[]>(() => readPendingClaims(userId));
  // Claims that failed for an unknown reason wait for the next page load (spec §8).
  const [stalled, setStalled] = useState<ReadonlySet<string>>(() => new Set());
  const inFlight = useRef(new Set<string>());

  useEffect(() => writePendingClaims(userId, pending), [userId, pending]);

  const remove = useCallback((taskId: string) => {
    setPending((prev) => prev.filter((p) => p.taskId !== taskId));
  }, []);
  const upsert = useCallback((claim: PendingSocialClaim) => {
    setPending((prev) => [...prev.filter((p) => p.taskId !== claim.taskId), claim]);
  }, []);

  // Drop claims for tasks that are no longer listed, or already completed.
  useEffect(() => {
    if (!tasks) return;
    const open = new Set(tasks.filter((t) => !t.completed).map((t) => t.id));
    setPending((prev) => (prev.every((p) => open.has(p.taskId)) ? prev : prev.filter((p) => open.has(p.taskId))));
  }, [tasks]);

  const attempt = useCallback(
    async (taskId: string) => {
      if (inFlight.current.has(taskId)) return;
      inFlight.current.add(taskId);
      try {
        const { earned } = await complete(taskId);
        remove(taskId);
        toast({ title: 'Task Completed!', description: `+${earned} coins added to your balance` });
      } catch (err) {
        const status = errorStatus(err);
        if (status === 425) {
          // Our clock ran ahead of the server's: trust the server and try again shortly.
          upsert({ taskId, claimAt: Date.now() + TOO_EARLY_RETRY_MS });
        } else if (status === 409) {
          remove(taskId);
          // Already completed (e.g. in another tab): show the fresh state.
          await refetchAfterChange(queryClient);
        } else if (status !== null && status >= 400 && status < 500) {
          remove(taskId);
          toast({ title: 'Error', description: errorMessage(err, COMPLETE_FAILED), variant: 'destructive' });
        } else {
          setStalled((prev) => new Set(prev).add(taskId));
          toast({ title: 'Error', description: errorMessage(err, COMPLETE_FAILED), variant: 'destructive' });
        }
      } finally {
        inFlight.current.delete(taskId);
      }
    },
    [complete, queryClient, remove, upsert],
  );

  // Schedule every pending claim once the task list is known (so dropped ones never fire).
  useEffect(() => {
    if (!tasks) return;
    const timers = pending
      .filter((p) => !stalled.has(p.taskId))
      .map((p) => window.setTimeout(() => void attempt(p.taskId), delayUntil(p.claimAt, Date.now())));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [tasks, pending, stalled, attempt]);

  const startTask = useCallback(
    (task: ApiSocialTask) => {
      // Open the tab synchronously, inside the click, so pop-up blockers allow it.
      window.open(task.url, '_blank', 'noopener,noreferrer');
      upsert({ taskId: task.id, claimAt: Date.now() + SOCIAL_CLAIM_DELAY_MS });
      start.mutate(task.id, {
        onSuccess: ({ claimableAt }) => {
          const claimAt = Date.parse(claimableAt);
          if (Number.isFinite(claimAt)) upsert({ taskId: task.id, claimAt });
        },
        onError: (err) => {
          remove(task.id);
          toast({ title: 'Error', description: errorMessage(err, COMPLETE_FAILED), variant: 'destructive' });
        },
      });
    },
    [remove, start, upsert],
  );

  const pendingFor = useCallback((taskId: string) => pending.find((p) => p.taskId === taskId), [pending]);

  return { pendingFor, startTask };
}
