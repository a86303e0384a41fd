import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPaymentResponse } from '@shared/payment-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { invalidateBalance } from './invalidate-balance.ts';

/** POST /api/payments/:id/sync: asks the server to check the payment with Stripe and credit it (once). */
export function syncPayment(paymentIntentId: string): Promise<SyncPaymentResponse> {
  return apiJson<SyncPaymentResponse>('POST', `/api/payments/${encodeURIComponent(paymentIntentId)}/sync`);
}

/** The sync call as a mutation; afterwards the balance and transactions are refetched. */
export function useSyncPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncPayment,
    onSettled: () => invalidateBalance(queryClient),
  });
}
