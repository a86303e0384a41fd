import { z } from 'zod';
import { isValidTimeZone, REMINDER_KINDS, type ReminderKind } from './reminder-constants.ts';

export * from './reminder-constants.ts';

const hhmm = z
  .string({ message: 'Quiet hours must be times like 22:00' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Quiet hours must be times like 22:00');

/** PUT /api/account/reminders: what to change (omitted fields stay as they are). */
export const updateRemindersSchema = z
  .object({
    kinds: z
      .object(
        Object.fromEntries(
          REMINDER_KINDS.map((k) => [k, z.boolean({ message: `${k} must be true or false` })]),
        ) as Record<ReminderKind, z.ZodBoolean>,
      )
      .partial()
      .strict()
      .optional(),
    timeZone: z
      .string({ message: 'Time zone must be an IANA name like America/Sao_Paulo' })
      .refine(isValidTimeZone, 'Time zone must be an IANA name like America/Sao_Paulo')
      .optional(),
    quietHours: z
      .object({ start: hhmm, end: hhmm })
      .refine((q) => q.start !== q.end, 'Quiet hours must start and end at different times')
      .nullable()
      .optional(),
  })
  .strict();
export type UpdateRemindersInput = z.infer<typeof updateRemindersSchema>;

/** GET/PUT /api/account/reminders */
export interface ReminderSettingsResponse {
  kinds: Record<ReminderKind, boolean>;
  timeZone: string;
  /** Local times "22:00"; null: no quiet hours. */
  quietHours: { start: string; end: string } | null;
  /** ISO time Discord refused a reminder DM (50007): every kind was switched off. */
  dmBlockedAt: string | null;
}
