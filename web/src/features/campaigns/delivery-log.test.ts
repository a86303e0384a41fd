import { afterAll, describe, expect, it } from 'vitest';
import { DELIVERY_ERRORS, deliveryError, type DeliveryErrorKind } from '@shared/delivery-errors.ts';
import { i18n, switchLocale } from '../../lib/i18n.ts';
import { deliveryErrorText } from './delivery-log.tsx';

// A delivery's recorded failure (English on the wire) in the member's language (decision 050).

const sample = (kind: DeliveryErrorKind) =>
  deliveryError(kind, { status: 502, seconds: 10, code: 'EHOSTUNREACH' });

afterAll(async () => {
  await switchLocale('en');
});

describe('deliveryErrorText', () => {
  it('says every recorded failure word for word in English', async () => {
    await switchLocale('en');
    for (const kind of Object.keys(DELIVERY_ERRORS) as DeliveryErrorKind[])
      expect(deliveryErrorText(sample(kind), i18n.t)).toBe(sample(kind));
  });

  it('says each in Turkish and German, values kept', async () => {
    await switchLocale('tr');
    for (const kind of Object.keys(DELIVERY_ERRORS) as DeliveryErrorKind[])
      expect(deliveryErrorText(sample(kind), i18n.t), kind).not.toBe(sample(kind));
    await switchLocale('de');
    expect(deliveryErrorText('the endpoint answered 503', i18n.t)).toBe('der Endpunkt antwortete 503');
    expect(deliveryErrorText('network error (EHOSTUNREACH)', i18n.t)).toBe('Netzwerkfehler (EHOSTUNREACH)');
  });

  it('shows a sentence it does not know as it came', async () => {
    await switchLocale('fr');
    expect(deliveryErrorText('the endpoint said no', i18n.t)).toBe('the endpoint said no');
  });
});
