import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { DataStore, DbHandle } from '../db/engine.ts';
import type { SocialTask } from '../db/schema.ts';
import { formatCents, parseMoney } from '../shared/money.ts';
import { displayTextSchema, isMoneyString, plainTextSchema } from '../shared/text.ts';
import { DEFAULT_SOCIAL_TASK_CENTS, SOCIAL_PLATFORMS } from '../shared/social-schemas.ts';
import { socialRepo } from './social-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

// The operator's task catalogue (src/cli/tasks.ts is a thin shell over these functions).

const MAX_TASK_CENTS = 100_000; // 1000.00 coins: a typo guard, not a business rule.

export const newSocialTaskSchema = z.object({
  platform: z.enum(SOCIAL_PLATFORMS, {
    message: `--platform must be one of: ${SOCIAL_PLATFORMS.join(', ')}`,
  }),
  title: displayTextSchema(
    {
      required: '--title is required',
      tooShort: '--title needs at least 2 visible characters',
      tooLong: '--title is at most 120 characters',
      invalid: '--title contains invisible or control characters',
    },
    { max: 120 },
  ),
  url: plainTextSchema(
    {
      required: '--url is required',
      tooLong: '--url is at most 500 characters',
      invalid: '--url contains invisible or control characters',
    },
    { max: 500 },
  ).pipe(
    z
      .url({ protocol: /^https?$/, message: '--url must be an http(s) URL, e.g. https://youtube.com/@you' })
      // Members open it from the site: https only in production (issue 27 item 5).
      .refine((url) => process.env.NODE_ENV !== 'production' || url.startsWith('https://'), {
        message: '--url must be an https URL in production, e.g. https://youtube.com/@you',
      }),
  ),
  coins: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return DEFAULT_SOCIAL_TASK_CENTS;
      const cents = isMoneyString(value.trim()) ? parseMoney(value) : null;
      if (cents === null || cents <= 0 || cents > MAX_TASK_CENTS) {
        ctx.addIssue({
          code: 'custom',
          message: '--coins must be an amount between 0.01 and 1000.00, e.g. 2.00',
        });
        return z.NEVER;
      }
      return cents;
    }),
});

export class UsageError extends Error {}

export const TASKS_USAGE = `Usage:
  npm run tasks -- add --platform <${SOCIAL_PLATFORMS.join('|')}> --title "<title>" --url <https://...> [--coins 2.00]
  npm run tasks -- list
  npm run tasks -- remove <task id>`;

export type TasksCommand =
  | { kind: 'add'; task: z.output<typeof newSocialTaskSchema> }
  | { kind: 'list' }
  | { kind: 'remove'; id: string };

/** Turns CLI arguments into a validated command, or throws UsageError with a clear message. */
export function parseTasksCommand(argv: string[]): TasksCommand {
  const [command, ...rest] = argv;
  if (command === 'list') {
    if (rest.length > 0) throw new UsageError(`"list" takes no arguments.\n\n${TASKS_USAGE}`);
    return { kind: 'list' };
  }
  if (command === 'remove') {
    const [id, ...extra] = rest;
    if (!id || extra.length > 0 || id.startsWith('--'))
      throw new UsageError(`"remove" needs exactly one task id.\n\n${TASKS_USAGE}`);
    return { kind: 'remove', id };
  }
  if (command === 'add') {
    let values: Record<string, string | boolean | undefined>;
    try {
      ({ values } = parseArgs({
        args: rest,
        options: {
          platform: { type: 'string' },
          title: { type: 'string' },
          url: { type: 'string' },
          coins: { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (err) {
      throw new UsageError(`${errorMessage(err)}\n\n${TASKS_USAGE}`);
    }
    const parsed = newSocialTaskSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      const message =
        issue?.code === 'invalid_type' && typeof field === 'string'
          ? `--${field} is required`
          : issue?.message;
      throw new UsageError(`${message ?? 'Invalid arguments'}\n\n${TASKS_USAGE}`);
    }
    return { kind: 'add', task: parsed.data };
  }
  throw new UsageError(command ? `Unknown command "${command}".\n\n${TASKS_USAGE}` : TASKS_USAGE);
}

export async function addSocialTask(
  store: DataStore,
  task: z.output<typeof newSocialTaskSchema>,
  now: number,
): Promise<SocialTask> {
  return store.transaction((tx) => socialRepo(tx).insertTask(task, now));
}

/** Every task, oldest first (reads through `h`, e.g. the store's `read`). */
export async function listAllSocialTasks(h: DbHandle): Promise<SocialTask[]> {
  return socialRepo(h).listTasks();
}

/** Deletes a task (its starts and completions go with it; past ledger entries stay). False if unknown. */
export async function removeSocialTask(store: DataStore, id: string): Promise<boolean> {
  return store.transaction((tx) => socialRepo(tx).deleteTask(id));
}

/** One line per task for the terminal. */
export function formatTaskLine(task: SocialTask): string {
  return `${task.id}  ${task.platform.padEnd(9)}  ${formatCents(task.coins).padStart(7)}  ${task.title}  ${task.url}`;
}
