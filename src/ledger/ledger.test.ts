import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { createTestDatabase, createUser } from '../test/db.ts';
import { credit, debit, findLedgerMismatches, getBalance } from './ledger.ts';
import { transactions, users } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';

const database = createTestDatabase();
const { db } = database;
afterAll(() => database.dispose());
const now = Date.UTC(2026, 0, 1);

describe('ledger', () => {
  it('credits and debits write one transaction row each, signed', () => {
    const user = createUser(database);
    credit(db.$client, { userId: user.id, cents: 1250, type: 'purchase', description: 'Pack', now });
    debit(db.$client, { userId: user.id, cents: 300, type: 'campaign', description: 'Campaign', now });
    expect(getBalance(db.$client, user.id)).toBe(950);
    const rows = db.select().from(transactions).where(eq(transactions.userId, user.id)).all();
    expect(rows.map((r) => r.amount).sort((a, b) => a - b)).toEqual([-300, 1250]);
    expect(findLedgerMismatches(db.$client)).toEqual([]);
  });

  it('refuses a debit larger than the balance with a 402 and writes nothing', () => {
    const user = createUser(database);
    credit(db.$client, { userId: user.id, cents: 500, type: 'welcome', now });
    const attempt = () => debit(db.$client, { userId: user.id, cents: 501, type: 'campaign', now });
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(/you need 5\.01 coins and you have 5\.00/);
    expect(getBalance(db.$client, user.id)).toBe(500);
    expect(db.select().from(transactions).where(eq(transactions.userId, user.id)).all()).toHaveLength(1);
  });

  it('lets only penalties take a balance below zero', () => {
    const user = createUser(database);
    credit(db.$client, { userId: user.id, cents: 100, type: 'hourly', now });
    debit(db.$client, { userId: user.id, cents: 200, type: 'leave_penalty', allowNegative: true, now });
    expect(getBalance(db.$client, user.id)).toBe(-100);
    expect(() => debit(db.$client, { userId: user.id, cents: 1, type: 'campaign', now })).toThrow(
      /Insufficient/,
    );
    expect(findLedgerMismatches(db.$client)).toEqual([]);
  });

  it('makes keyed credits exactly-once', () => {
    const user = createUser(database);
    const first = credit(db.$client, {
      userId: user.id,
      cents: 500,
      type: 'welcome',
      idempotencyKey: `welcome:${user.id}`,
      now,
    });
    const second = credit(db.$client, {
      userId: user.id,
      cents: 500,
      type: 'welcome',
      idempotencyKey: `welcome:${user.id}`,
      now,
    });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(getBalance(db.$client, user.id)).toBe(500);
  });

  it('rolls back the transaction row when a credit would overflow decimal(10,2)', () => {
    const user = createUser(database);
    credit(db.$client, { userId: user.id, cents: 9_999_999_000, type: 'purchase', now });
    expect(() => credit(db.$client, { userId: user.id, cents: 1000, type: 'purchase', now })).toThrow(
      /maximum/,
    );
    expect(getBalance(db.$client, user.id)).toBe(9_999_999_000);
    expect(findLedgerMismatches(db.$client)).toEqual([]);
  });

  it('rejects non-integer or non-positive amounts', () => {
    const user = createUser(database);
    expect(() => credit(db.$client, { userId: user.id, cents: 1.5, type: 'hourly', now })).toThrow(
      RangeError,
    );
    expect(() => debit(db.$client, { userId: user.id, cents: 0, type: 'campaign', now })).toThrow(RangeError);
    expect(() => credit(db.$client, { userId: user.id, cents: -5, type: 'hourly', now })).toThrow(RangeError);
  });

  it('detects a balance changed outside the ledger', () => {
    const user = createUser(database);
    db.update(users).set({ coins: 123 }).where(eq(users.id, user.id)).run();
    expect(findLedgerMismatches(db.$client)).toEqual([{ userId: user.id, balance: 123, sum: 0 }]);
    db.update(users).set({ coins: 0 }).where(eq(users.id, user.id)).run();
  });

  it('never overdraws and always matches its transactions for any sequence of operations', () => {
    const op = fc.record({
      kind: fc.constantFrom('credit', 'debit', 'penalty'),
      cents: fc.integer({ min: 1, max: 5000 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const user = createUser(database);
        let model = 0;
        for (const { kind, cents } of ops) {
          if (kind === 'credit') {
            credit(db.$client, { userId: user.id, cents, type: 'hourly', now });
            model += cents;
          } else if (kind === 'penalty') {
            debit(db.$client, { userId: user.id, cents, type: 'leave_penalty', allowNegative: true, now });
            model -= cents;
          } else {
            try {
              debit(db.$client, { userId: user.id, cents, type: 'campaign', now });
              model -= cents;
            } catch (err) {
              expect(err).toBeInstanceOf(AppError);
              expect(model).toBeLessThan(cents);
            }
          }
          expect(getBalance(db.$client, user.id)).toBe(model);
        }
        expect(findLedgerMismatches(db.$client)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

describe('ledger under concurrency', () => {
  it('lets separate connections race on one balance without overdrawing', async () => {
    const user = createUser(database);
    credit(db.$client, { userId: user.id, cents: 5000, type: 'purchase', now });
    // 4 OS threads, each with its own connection, each trying 10 debits of 2.00 against 50.00.
    const workerCode = `
      const { parentPort, workerData } = require('node:worker_threads');
      const Database = require('better-sqlite3');
      const db = new Database(workerData.file);
      db.pragma('busy_timeout = 5000');
      const debit = db.transaction((id) => {
        const r = db.prepare('UPDATE users SET coins = coins - 200 WHERE id = ? AND coins >= 200').run(id);
        if (r.changes === 0) return false;
        db.prepare("INSERT INTO transactions (id, user_id, amount, type, created_at) VALUES (lower(hex(randomblob(16))), ?, -200, 'campaign', 0)").run(id);
        return true;
      });
      let ok = 0;
      for (let i = 0; i < 10; i++) if (debit.immediate(workerData.userId)) ok++;
      parentPort.postMessage(ok);
    `;
    const results = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<number>((resolve, reject) => {
            const w = new Worker(workerCode, {
              eval: true,
              workerData: { file: database.path, userId: user.id },
            });
            w.once('message', resolve);
            w.once('error', reject);
          }),
      ),
    );
    expect(results.reduce((a, b) => a + b, 0)).toBe(25);
    expect(getBalance(db.$client, user.id)).toBe(0);
    expect(findLedgerMismatches(db.$client)).toEqual([]);
  });
});
