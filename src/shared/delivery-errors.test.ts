import { describe, expect, it } from 'vitest';
import {
  DELIVERY_ERRORS,
  deliveryError,
  parseDeliveryError,
  type DeliveryErrorKind,
} from './delivery-errors.ts';

const PARAMS: Partial<Record<DeliveryErrorKind, Record<string, string | number>>> = {
  endpointStatus: { status: 503 },
  timeout: { seconds: 10 },
  networkCode: { code: 'EHOSTUNREACH' },
  discordStatus: { status: 500 },
};

describe('delivery errors', () => {
  it('reads back the kind and values of every sentence it writes', () => {
    for (const kind of Object.keys(DELIVERY_ERRORS) as DeliveryErrorKind[]) {
      const params = PARAMS[kind] ?? {};
      const text = deliveryError(kind, params);
      expect(text).not.toMatch(/\{\{/);
      expect(parseDeliveryError(text), text).toEqual({
        kind,
        params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      });
    }
  });

  it('writes the sentences the delivery log has always recorded', () => {
    expect(deliveryError('endpointStatus', { status: 500 })).toBe('the endpoint answered 500');
    expect(deliveryError('networkCode', { code: 'ENOTFOUND' })).toBe('network error (ENOTFOUND)');
    expect(parseDeliveryError('network error')?.kind).toBe('network');
  });

  it('knows nothing of a sentence it did not write', () => {
    expect(parseDeliveryError('the endpoint said no')).toBeNull();
    expect(parseDeliveryError('')).toBeNull();
  });
});
