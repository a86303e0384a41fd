import { toast } from '../../lib/toaster.tsx';

interface SafeParser {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/** Shows the first schema problem as a "Validation Error" toast; true when the input is fine. */
export function passesSchema(schema: SafeParser, value: unknown): boolean {
  const result = schema.safeParse(value);
  if (result.success) return true;
  toast({
    title: 'Validation Error',
    description: result.error.issues[0]?.message ?? 'Required',
    variant: 'destructive',
  });
  return false;
}
