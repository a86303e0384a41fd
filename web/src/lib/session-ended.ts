// When an API call answers 401 the app returns to the login page, which then says why. The flag lives
// in sessionStorage so it also survives the reload that follows a failed chunk or a manual refresh.
const KEY = 'coinsync:session-ended';

export function markSessionEnded(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage disabled: the login page simply shows without the notice.
  }
}

export function wasSessionEnded(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function clearSessionEnded(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to clear
  }
}

/** The query the login page is opened with after the account was deleted: it then says so. */
export const ACCOUNT_DELETED_PARAM = 'account=deleted';

export function wasAccountDeleted(search: string): boolean {
  return new URLSearchParams(search).get('account') === 'deleted';
}
