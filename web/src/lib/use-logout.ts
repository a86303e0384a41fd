import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from './api.ts';
import { toast } from './toaster.tsx';
import { i18n } from './i18n.ts';

// Apart from use-auth.ts so the login bundle (which needs useAuth) carries no mutation code.
export function useLogout() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/logout'),
    onSuccess: () => {
      queryClient.clear();
      window.location.href = '/';
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('routeError.logoutFailed')),
        variant: 'destructive',
      });
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}
