import { i18n } from '../../lib/i18n.ts';

interface SafeParser {
  safeParse(
    v: unknown,
  ): { success: true } | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } };
}

/** The schema's first problem (docs/spec/product-spec.md §5: "the first schema error is shown"), with the field it concerns. */
export function firstSchemaProblem(
  schema: SafeParser,
  value: unknown,
): { field: string | null; message: string } | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    field: typeof field === 'string' ? field : null,
    message: issue?.message ?? i18n.t('common.required'),
  };
}
