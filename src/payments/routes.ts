import express, { Router } from 'express';
import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { createPaymentIntentSchema, paymentIntentIdSchema } from '../shared/payment-schemas.ts';
import { createPaymentIntent } from './create-payment-intent.ts';
import { handleStripeEvent, verifyStripeEvent } from './handle-stripe-event.ts';
import { syncPayment } from './sync-payment.ts';

export function paymentRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/create-payment-intent', async (req, res) => {
    const userId = requireUser(req);
    const { packageType } = parseInput(createPaymentIntentSchema, req.body);
    res.json(await createPaymentIntent(ctx, userId, packageType));
  });

  router.post('/payments/:paymentIntentId/sync', async (req, res) => {
    const userId = requireUser(req);
    const parsed = paymentIntentIdSchema.safeParse(req.params.paymentIntentId);
    if (!parsed.success) throw new AppError('not_found', 'Payment not found');
    res.json(await syncPayment(ctx, userId, parsed.data));
  });

  return router;
}

/** Stripe's webhook: mounted before the JSON parser because the signature covers the raw bytes. */
export function stripeWebhookRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(
    '/stripe/webhook',
    express.raw({ type: 'application/json', limit: '512kb' }),
    async (req, res) => {
      const event = verifyStripeEvent(ctx, req.body, req.get('stripe-signature'));
      await handleStripeEvent(ctx, event);
      res.json({ received: true });
    },
  );
  return router;
}
