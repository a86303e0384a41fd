import { describe, expect, it } from 'vitest';
import { storageFailureCode } from './errors.ts';

/** An error as drizzle throws it: its own message, the driver's error (with the code) as `cause`. */
function wrapped(cause: object): Error {
  return Object.assign(new Error('Failed query: insert into "transactions" …'), { cause });
}

describe('storageFailureCode', () => {
  it('names storage trouble from either engine, also when drizzle wrapped the driver error', () => {
    expect(storageFailureCode(Object.assign(new Error('disk'), { code: 'SQLITE_FULL' }))).toBe('SQLITE_FULL');
    expect(storageFailureCode(wrapped({ code: '25006' }))).toBe('25006'); // read-only standby
    expect(storageFailureCode(wrapped({ code: '53100' }))).toBe('53100'); // disk_full
    expect(storageFailureCode(wrapped({ code: '57P01' }))).toBe('57P01'); // admin_shutdown
    expect(storageFailureCode(wrapped({ code: '08006' }))).toBe('08006'); // connection_failure
    expect(
      storageFailureCode(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBe('ECONNREFUSED');
    expect(storageFailureCode(wrapped(new Error('Connection terminated unexpectedly')))).toBe(
      'connection lost',
    );
    expect(storageFailureCode(new Error('timeout exceeded when trying to connect'))).toBe('connection lost');
  });

  it('leaves the request’s own mistakes and plain bugs alone', () => {
    expect(storageFailureCode(wrapped({ code: '23505' }))).toBeUndefined(); // unique_violation
    expect(storageFailureCode(wrapped({ code: '22021' }))).toBeUndefined(); // NUL in text: a 400
    expect(
      storageFailureCode(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })),
    ).toBeUndefined();
    expect(storageFailureCode(new TypeError('Cannot read properties of undefined'))).toBeUndefined();
    expect(storageFailureCode('a string')).toBeUndefined();
  });
});
