import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiJson, errorMessage, errorStatus, setUnauthorizedHandler } from './api.ts';

function answer(status: number, body: string, statusText = ''): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(body || null, { status, statusText }))),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('ApiError', () => {
  it('carries the status and the parsed JSON body, and keeps the spec text as its message', async () => {
    answer(400, JSON.stringify({ message: 'Minimum 3 coins required', field: 'coins' }));
    const err = await apiJson('POST', '/api/servers', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const apiErr = err as ApiError;
    expect(apiErr.status).toBe(400);
    expect(apiErr.body).toEqual({ message: 'Minimum 3 coins required', field: 'coins' });
    expect(apiErr.message).toBe('400: {"message":"Minimum 3 coins required","field":"coins"}');
    expect(errorStatus(apiErr)).toBe(400);
    expect(errorMessage(apiErr, 'fallback')).toBe('Minimum 3 coins required');
  });

  it('keeps a non-JSON body as text and falls back for the message', async () => {
    answer(502, '<html>Bad gateway</html>');
    const err = (await apiJson('GET', '/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(err.body).toBe('<html>Bad gateway</html>');
    expect(errorMessage(err, 'Failed to join server')).toBe('Failed to join server');
  });

  it('uses the status text when the body is empty', async () => {
    answer(404, '', 'Not Found');
    const err = (await apiJson('GET', '/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe('404: Not Found');
    expect(err.body).toBe('');
    expect(err.serverMessage).toBeNull();
  });

  it('ignores a blank or non-string message', () => {
    expect(new ApiError(400, { message: '  ' }, '').serverMessage).toBeNull();
    expect(new ApiError(400, { message: 3 }, '').serverMessage).toBeNull();
  });

  it('is not confused with other errors (a network failure has no status)', () => {
    const plain = new Error('400: {"message":"looks like one"}');
    expect(errorStatus(plain)).toBeNull();
    expect(errorMessage(plain, 'fallback')).toBe('fallback');
  });

  it('calls the unauthorized handler on a 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    answer(401, JSON.stringify({ message: 'Not signed in' }));
    await expect(apiJson('GET', '/api/campaigns')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
