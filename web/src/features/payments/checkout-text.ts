// Checkout texts, shared by the card form and the return from a redirect-based payment method.
export const CHECKOUT_TEXT = {
  successTitle: 'Payment Successful',
  successDescription: 'Your coins have been added!',
  processingTitle: 'Payment processing — your coins arrive when your bank confirms',
  processingDescription: 'No need to pay again: we add them to your balance as soon as the payment clears.',
  failedTitle: 'Payment Failed',
  failedDescription: 'Your payment was not completed and no coins were added. Please try again.',
  canceledDescription: 'This payment was canceled. No coins were added.',
  authenticationDescription:
    'The payment was not authenticated with your bank. No coins were added. Please try again.',
  unconfirmedTitle: 'Checking your payment',
  unconfirmedDescription:
    'We could not confirm your payment yet. If it went through, your coins will appear shortly.',
} as const;
