import { useQuery } from '@tanstack/react-query';
import type { ApiJoin } from '@shared/api-types.ts';
import { joinKeys } from '../../lib/query-keys.ts';

/** GET /api/joins: every join of the signed-in member with its state, newest first. */
export function useMyJoins() {
  return useQuery<ApiJoin[]>({ queryKey: joinKeys.list() });
}
