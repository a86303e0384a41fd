import { useCallback, useState } from 'react';

/** `aria-describedby` for a field: its error (when shown) first, then its helper text. */
export function describedBy(
  id: string,
  { error, helper }: { error?: string | null; helper?: boolean },
): string | undefined {
  const ids = [error ? errorId(id) : null, helper ? helperId(id) : null].filter(
    (v): v is string => v !== null,
  );
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export const errorId = (fieldId: string) => `${fieldId}-error`;
export const helperId = (fieldId: string) => `${fieldId}-helper`;

/**
 * Form errors shown on the field (issue 14): the field is marked invalid, its message is linked with
 * aria-describedby, and focus moves to it — the spec's toast still shows as well. `ids` maps each field
 * to its input's id.
 */
export function useFieldErrors<F extends string>(ids: Record<F, string>) {
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});

  /** Shows `message` on `field` (replacing any other error) and moves focus to it. */
  const show = useCallback(
    (field: F, message: string) => {
      setErrors({ [field]: message } as Partial<Record<F, string>>);
      const input = document.getElementById(ids[field]);
      // Centred, so the sticky header never covers the field or its label.
      input?.focus({ preventScroll: true });
      input?.scrollIntoView({ block: 'center' });
    },
    [ids],
  );

  /** Clears the error of `field` (the user is editing it). */
  const clear = useCallback((field: F) => {
    setErrors((prev) => {
      if (prev[field] === undefined) return prev;
      const next = { ...prev };
      delete next[field];
      return next;
    });
  }, []);

  const reset = useCallback(() => setErrors({}), []);

  /** A field's props: its id, value and error, and an onChange that stores the value and clears the error. */
  const bind = <V>(field: F, value: V, setValue: (value: V) => void) => ({
    id: ids[field],
    value,
    error: errors[field],
    onChange: (next: V) => {
      setValue(next);
      clear(field);
    },
  });

  return { errors, show, clear, reset, bind };
}
