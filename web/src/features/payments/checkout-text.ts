import { i18n } from '../../lib/i18n.ts';

// Checkout texts, shared by the card form and the return from a redirect-based payment method; each read
// in the app's language at the moment it is shown (decision 050).
export const CHECKOUT_TEXT = {
  get successTitle() {
    return i18n.t('checkout.successTitle');
  },
  get successDescription() {
    return i18n.t('checkout.successDescription');
  },
  get processingTitle() {
    return i18n.t('checkout.processingTitle');
  },
  get processingDescription() {
    return i18n.t('checkout.processingDescription');
  },
  get failedTitle() {
    return i18n.t('checkout.failedTitle');
  },
  get failedDescription() {
    return i18n.t('checkout.failedDescription');
  },
  get canceledDescription() {
    return i18n.t('checkout.canceledDescription');
  },
  get authenticationDescription() {
    return i18n.t('checkout.authenticationDescription');
  },
  get unconfirmedTitle() {
    return i18n.t('checkout.unconfirmedTitle');
  },
  get unconfirmedDescription() {
    return i18n.t('checkout.unconfirmedDescription');
  },
};
