// The ledger's entry point: one definition for both engines in ledger.ts (decision 056).
export * from './ledger.ts';
