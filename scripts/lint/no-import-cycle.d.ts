import type { Rule } from 'eslint';

/** Typed view of no-import-cycle.js (a plain-JS module: eslint.config.js loads it without a build). */
declare const rule: Rule.RuleModule;
export default rule;
