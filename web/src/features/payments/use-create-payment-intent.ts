import { useQuery } from '@tanstack/react-query';
import type { CreatePaymentIntentResponse } from '@shared/payment-schemas.ts';
import { apiJson, errorStatus } from '../../lib/api.ts';
import { paymentKeys } from '../../lib/query-keys.ts';

/**
 * POST /api/create-payment-intent when the checkout opens. A query (not a mutation) so a remount or
 * React's double effect shares one request; never cached, so each visit starts a fresh session
 * (the server's idempotency key still folds a quick double visit into one PaymentIntent).
 * A 409 means the same purchase is being started in another tab: asking again shortly gets that
 * tab's PaymentIntent, so it is retried a few times before counting as a failure.
 */
export function useCreatePaymentIntent(packageType: string, enabled: boolean) {
  return useQuery<CreatePaymentIntentResponse>({
    queryKey: paymentKeys.intent(packageType),
    queryFn: () =>
      apiJson<CreatePaymentIntentResponse>('POST', '/api/create-payment-intent', { packageType }),
    enabled,
    gcTime: 0,
    retry: (failures, error) => errorStatus(error) === 409 && failures < 3,
    retryDelay: 1000,
  });
}
