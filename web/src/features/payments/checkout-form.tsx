import { Box, Button, Card, HStack, Icon, Skeleton, Stack, Text } from '@chakra-ui/react';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LuLock } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { invalidateBalance } from './invalidate-balance.ts';
import { formatPrice } from './pack-display.ts';
import { paymentOutcome, syncedPaymentToast, type PaymentOutcome } from './payment-outcome.ts';
import { CHECKOUT_TEXT } from './checkout-text.ts';
import { syncPayment } from './use-sync-payment.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';

/** The card form inside Stripe's <Elements>: Pay $amount, Processing... while submitting. */
export function CheckoutForm({ price }: { price: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || !ready || submitting) return;
    setSubmitting(true);
    const { error, paymentIntent } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/dashboard` },
      redirect: 'if_required',
    });
    if (error) {
      toast({
        title: CHECKOUT_TEXT.failedTitle,
        description: error.message ?? CHECKOUT_TEXT.failedDescription,
        variant: 'destructive',
      });
      setSubmitting(false);
      return;
    }
    const outcome = paymentOutcome(paymentIntent.status, paymentIntent.last_payment_error?.message ?? null);
    if (outcome.kind === 'failed') {
      // Not paid: the form stays, re-enabled, for another attempt.
      toast(outcome.toast);
      setSubmitting(false);
      return;
    }
    await announcePayment(paymentIntent.id, outcome);
    await invalidateBalance(queryClient);
    void navigate('/dashboard');
  }

  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="2xl">
      <Card.Body p={{ base: '5', md: '6' }}>
        <form onSubmit={(e) => void handleSubmit(e)} aria-label={t('checkout.cardPayment')}>
          <Stack gap="5">
            <Text as="h2" fontWeight="semibold" textStyle="lg">
              {t('checkout.details')}
            </Text>
            <Box position="relative" minH={ready ? undefined : '44'}>
              {ready ? null : <CardFieldsSkeleton />}
              <PaymentElement
                options={{ layout: 'tabs' }}
                onReady={() => setReady(true)}
                onLoadError={(event) => setLoadError(event.error.message ?? t('checkout.formFailed'))}
              />
            </Box>
            {loadError ? (
              <Text role="alert" color="red.400" textStyle="sm">
                {loadError} {t('checkout.refresh')}
              </Text>
            ) : null}
            <Button
              type="submit"
              colorPalette="brand"
              size="xl"
              borderRadius="xl"
              fontWeight="semibold"
              disabled={!stripe || !elements || !ready || submitting}
              boxShadow="0 8px 24px rgba(88,101,242,0.35)"
            >
              {submitting
                ? t('checkout.processing')
                : t('checkout.pay', { price: formatPrice(price, locale) })}
            </Button>
            <SecureNote />
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Paid or on its way: the webhook credits the coins too; syncing now makes a success visible at once
 * and says "added" only once the server has really credited them.
 */
async function announcePayment(
  paymentIntentId: string,
  outcome: Exclude<PaymentOutcome, { kind: 'failed' }>,
): Promise<void> {
  try {
    toast(syncedPaymentToast(await syncPayment(paymentIntentId)));
  } catch {
    toast(
      outcome.kind === 'processing'
        ? outcome.toast
        : { title: CHECKOUT_TEXT.unconfirmedTitle, description: CHECKOUT_TEXT.unconfirmedDescription },
    );
  }
}

/** The card fields' place while Stripe's form loads. */
function CardFieldsSkeleton() {
  return (
    <Stack gap="3" position="absolute" inset="0" aria-hidden="true">
      <Skeleton h="11" borderRadius="lg" />
      <HStack gap="3">
        <Skeleton h="11" flex="1" borderRadius="lg" />
        <Skeleton h="11" flex="1" borderRadius="lg" />
      </HStack>
      <Skeleton h="11" borderRadius="lg" />
    </Stack>
  );
}

function SecureNote() {
  const { t } = useTranslation();
  return (
    <HStack gap="2" justify="center" color="fg.subtle" textStyle="xs">
      <Icon as={LuLock} />
      <Text>{t('checkout.secure')}</Text>
    </HStack>
  );
}
