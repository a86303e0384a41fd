import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiAccessToken, CreateAccessTokenInput, CreatedAccessToken } from '@shared/access-tokens.ts';
import { apiJson, apiRequest, errorMessage } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { accountKeys } from '../../lib/query-keys.ts';
import { toast } from '../../lib/toaster.tsx';

/** GET /api/account/tokens: the usable tokens, newest first (never the secrets). */
export function useAccessTokens() {
  return useQuery<ApiAccessToken[]>({ queryKey: accountKeys.tokens() });
}

/** POST /api/account/tokens: the answer carries the token, shown once by the caller. */
export function useCreateAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAccessTokenInput) =>
      apiJson<CreatedAccessToken>('POST', '/api/account/tokens', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

/** DELETE /api/account/tokens/:id: the token stops working at once. */
export function useRevokeAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => {
      toast({ title: i18n.t('account.tokens.revoked'), description: i18n.t('account.tokens.revokedText') });
      return queryClient.invalidateQueries({ queryKey: accountKeys.tokens() });
    },
    onError: (err) =>
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('account.tokens.revokeFailed')),
        variant: 'destructive',
      }),
  });
}
