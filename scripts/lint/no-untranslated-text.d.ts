import type { Rule } from 'eslint';

/** Typed view of no-untranslated-text.js (a plain-JS module: eslint.config.js loads it without a build). */
declare const rule: Rule.RuleModule;
export default rule;
export declare const DEFAULT_ALLOWED_WORDS: string[];
export declare const plugin: { rules: { 'no-untranslated-text': Rule.RuleModule } };
