import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from './api.ts';
import { toast } from './toaster.tsx';

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
      toast({ title: 'Error', description: errorMessage(err, 'Failed to log out'), variant: 'destructive' });
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}
