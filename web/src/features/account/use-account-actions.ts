import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { ACCOUNT_DELETED_PARAM } from '../../lib/session-ended.ts';
import { useTranslation } from 'react-i18next';

/**
 * Leaves the app for the login page with nothing cached from the account that just ended; `notice`
 * names what the login page then says (lib/session-ended.ts).
 */
function leaveToLogin(queryClient: ReturnType<typeof useQueryClient>, notice?: 'account-deleted'): void {
  queryClient.clear();
  window.location.href = notice ? `/?${ACCOUNT_DELETED_PARAM}` : '/';
}

/** POST /api/auth/sign-out-everywhere: ends every session of this user, this browser's too. */
export function useSignOutEverywhere() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/sign-out-everywhere'),
    onSuccess: () => leaveToLogin(queryClient),
    onError: (err) => {
      toast({
        title: t('common.error'),
        description: errorMessage(err, t('account.signOutFailed')),
        variant: 'destructive',
      });
    },
  });
}

/** DELETE /api/account with the typed username; on success the account is gone and so is the session. */
export function useDeleteAccount({ onInvalid }: { onInvalid: (message: string) => void }) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (confirmUsername: string) => apiRequest('DELETE', '/api/account', { confirmUsername }),
    onSuccess: () => leaveToLogin(queryClient, 'account-deleted'),
    onError: (err) => {
      const message = errorMessage(err, t('account.deleteFailed'));
      onInvalid(message);
      toast({ title: t('common.error'), description: message, variant: 'destructive' });
    },
  });
}

/** GET /api/account/export, saved as the file name the server suggests. */
export async function downloadAccountData(): Promise<void> {
  const res = await apiRequest('GET', '/api/account/export');
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'coinsync-data.json';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
