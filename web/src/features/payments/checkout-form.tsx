import { Box, Button, Card, HStack, Icon, Skeleton, Stack, Text } from '@chakra-ui/react';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LuLock } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { invalidateBalance } from './invalidate-balance.ts';
import { formatPrice } from './pack-display.ts';
import { syncPayment } from './use-sync-payment.ts';

/** The card form inside Stripe's <Elements>: Pay $amount, Processing... while submitting. */
export function CheckoutForm({ price }: { price: number }) {
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
      toast({ title: 'Payment Failed', description: error.message ?? 'Your payment could not be completed.', variant: 'destructive' });
      setSubmitting(false);
      return;
    }
    // The webhook credits the coins too; syncing now makes the new balance visible right away.
    try {
      await syncPayment(paymentIntent.id);
    } catch {
      // The webhook will still credit the payment; nothing to tell the user here.
    }
    toast({ title: 'Payment Successful', description: 'Your coins have been added!' });
    await invalidateBalance(queryClient);
    void navigate('/dashboard');
  }

  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="2xl">
      <Card.Body p={{ base: '5', md: '6' }}>
        <form onSubmit={(e) => void handleSubmit(e)} aria-label="Card payment">
          <Stack gap="5">
            <Text as="h2" fontWeight="semibold" textStyle="lg">
              Payment details
            </Text>
            <Box position="relative" minH={ready ? undefined : '44'}>
              {ready ? null : (
                <Stack gap="3" position="absolute" inset="0" aria-hidden="true">
                  <Skeleton h="11" borderRadius="lg" />
                  <HStack gap="3">
                    <Skeleton h="11" flex="1" borderRadius="lg" />
                    <Skeleton h="11" flex="1" borderRadius="lg" />
                  </HStack>
                  <Skeleton h="11" borderRadius="lg" />
                </Stack>
              )}
              <PaymentElement
                options={{ layout: 'tabs' }}
                onReady={() => setReady(true)}
                onLoadError={(event) => setLoadError(event.error.message ?? 'The payment form could not load.')}
              />
            </Box>
            {loadError ? (
              <Text role="alert" color="red.400" textStyle="sm">
                {loadError} Please refresh the page and try again.
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
              {submitting ? 'Processing...' : `Pay ${formatPrice(price)}`}
            </Button>
            <HStack gap="2" justify="center" color="fg.subtle" textStyle="xs">
              <Icon as={LuLock} />
              <Text>Payments are processed securely by Stripe.</Text>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
