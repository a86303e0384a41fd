// @ts-check
// ESLint rule `coinsync/no-untranslated-text` (decision 050): the web app says nothing in English that a
// member of another language would see. Every text a component shows goes through the catalogue
// (`t('…')`, `i18n.t('…')`, `<Trans i18nKey="…">`); what is left in the source may carry no letters
// ("—", "·", "%", "+"), or only names that are never translated (brands, the listed technical words).
//
// It looks where a text reaches a member:
// - JSX text children, and string or template literals rendered as children (`{'Loading'}`,
//   `{ready ? 'Yes' : ''}`);
// - the props a member reads or hears: `title`, `aria-label`, `placeholder`, `alt`, `label`,
//   `description`… and any prop named `*Label`, `*Text`, `*Title`, `*Description`, `*Placeholder`;
// - the same names as object properties anywhere (toast titles and descriptions, a toast's action
//   label, a table of labels);
// - the fallback of `errorMessage(err, '…')` and the words given to `useDocumentTitle`.
// A literal reaches it through `?:`, `&&`, `||`, `??` and `as`. It cannot see a string returned by a
// helper and shown elsewhere: those are found by review and by the e2e screenshots.

const LETTER = /\p{L}/u;
const URLS = /\b(?:https?:\/\/|mailto:)\S*/gu;
/** CSS colours ("#f2f3f5") carry letters but say nothing. */
const HEX_COLOUR = /#[0-9a-f]{3,8}\b/giu;

/** Names never translated: brands, and words that read the same in every language we ship. */
export const DEFAULT_ALLOWED_WORDS = [
  'CoinSync',
  'Discord',
  'Stripe',
  'YouTube',
  'TikTok',
  'Instagram',
  'X',
  'Twitter',
  'HTTP',
  'HTTPS',
  'JSON',
  'CSV',
  'API',
  'HMAC-SHA256',
  'USD',
];

const VISIBLE_NAMES = new Set([
  'title',
  'label',
  'description',
  'placeholder',
  'alt',
  'heading',
  'subtitle',
  'message',
  'content',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'aria-placeholder',
]);
const VISIBLE_SUFFIX = /[a-z](Label|Text|Title|Description|Placeholder|Message)$/;

/** Calls whose arguments (by position) a member sees. */
const VISIBLE_ARGUMENTS = new Map([
  ['errorMessage', [1]],
  ['useDocumentTitle', [0, 1]],
  ['documentTitle', [0]],
]);

/** @param {string} name */
function isVisibleName(name) {
  return VISIBLE_NAMES.has(name) || VISIBLE_SUFFIX.test(name);
}

/**
 * The literal texts an expression can evaluate to (through conditionals and logical operators).
 * @param {any} node
 * @returns {any[]}
 */
function literalLeaves(node) {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? [node] : [];
    case 'TemplateLiteral':
      return [node];
    case 'ConditionalExpression':
      return [...literalLeaves(node.consequent), ...literalLeaves(node.alternate)];
    case 'LogicalExpression':
      return [...literalLeaves(node.left), ...literalLeaves(node.right)];
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
      return literalLeaves(node.expression);
    default:
      return [];
  }
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Texts a member sees come from the i18n catalogue (t() or <Trans>), not English literals.',
    },
    schema: [
      {
        type: 'object',
        properties: { allow: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      literal:
        'Untranslated text "{{text}}": show it with t(\'…\') or <Trans> and add it to the web catalogues (decision 050).',
    },
  },
  create(context) {
    const extra = /** @type {{ allow?: string[] }} */ (context.options[0] ?? {}).allow ?? [];
    const allowed = [...DEFAULT_ALLOWED_WORDS, ...extra]
      .sort((a, b) => b.length - a.length)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const ALLOWED = new RegExp(`(?<![\\p{L}\\d])(?:${allowed.join('|')})(?![\\p{L}\\d])`, 'gu');

    /** True when the text, without URLs and allowed names, still has a letter. */
    const /** @param {string} text */ hasWords = (text) =>
        LETTER.test(text.replace(URLS, ' ').replace(HEX_COLOUR, ' ').replace(ALLOWED, ' '));

    /**
     * @param {any} node
     * @param {string} text
     */
    function report(node, text) {
      const shown = text.replace(/\s+/g, ' ').trim();
      context.report({
        node,
        messageId: 'literal',
        data: { text: shown.length > 40 ? `${shown.slice(0, 39)}…` : shown },
      });
    }

    /** @param {any} expression */
    function checkExpression(expression) {
      for (const leaf of literalLeaves(expression)) {
        if (leaf.type === 'Literal') {
          if (hasWords(leaf.value)) report(leaf, leaf.value);
        } else {
          const text = leaf.quasis.map((/** @type {any} */ q) => q.value.cooked ?? '').join(' ');
          if (hasWords(text)) report(leaf, text);
        }
      }
    }

    return {
      /** @param {any} node */
      JSXText(node) {
        if (hasWords(node.value)) report(node, node.value);
      },
      /** @param {any} node */
      JSXExpressionContainer(node) {
        const parent = node.parent;
        if (parent && (parent.type === 'JSXElement' || parent.type === 'JSXFragment'))
          checkExpression(node.expression);
      },
      /** @param {any} node */
      JSXAttribute(node) {
        if (node.name.type !== 'JSXIdentifier' || !isVisibleName(node.name.name) || !node.value) return;
        if (node.value.type === 'Literal') checkExpression(node.value);
        else if (node.value.type === 'JSXExpressionContainer') checkExpression(node.value.expression);
      },
      /** @param {any} node */
      Property(node) {
        if (node.computed || node.parent?.type !== 'ObjectExpression') return;
        const name =
          node.key.type === 'Identifier'
            ? node.key.name
            : node.key.type === 'Literal'
              ? String(node.key.value)
              : null;
        if (name !== null && isVisibleName(name)) checkExpression(node.value);
      },
      /** @param {any} node */
      CallExpression(node) {
        const callee = node.callee;
        const name =
          callee.type === 'Identifier'
            ? callee.name
            : callee.type === 'MemberExpression' && callee.property.type === 'Identifier'
              ? callee.property.name
              : null;
        const positions = name === null ? undefined : VISIBLE_ARGUMENTS.get(name);
        if (!positions) return;
        for (const index of positions) checkExpression(node.arguments[index]);
      },
    };
  },
};

export default rule;

/** The project's plugin (eslint.config.js): `coinsync/no-untranslated-text`. */
export const plugin = { rules: { 'no-untranslated-text': rule } };
