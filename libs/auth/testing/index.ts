/** What tests of a BudgetStore adapter use: the contract every adapter passes. Not for production code. */
export * from './budget-store.contract';
