import { i18n } from '../../lib/i18n.ts';

// "My Joins" from a toast raised outside a page (the delayed no-bot claim runs on whatever page is
// open): a client-side navigation, as a link would do (react-router follows popstate).
export const MY_JOINS_PATH = '/joins';

export function goToMyJoins(): void {
  if (window.location.pathname === MY_JOINS_PATH) return;
  window.history.pushState(null, '', MY_JOINS_PATH);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The toast action that opens My Joins (named in the language the app shows now). */
export function myJoinsAction(): { label: string; onClick: () => void } {
  return { label: i18n.t('nav.joins'), onClick: goToMyJoins };
}
