/** After the user comes back, look again now and after these delays (a bot joins a second or two late). */
const RECHECK_AFTER_MS = [0, 3_000, 10_000];

/**
 * For a link that sends the user elsewhere to fix something (Invite Bot opens Discord in a new tab): once
 * they come back to this tab (it is shown or focused again), `recheck` runs now and twice more shortly
 * after, so a panel about the problem goes away by itself. Triggered by the user's own action, once: not
 * polling, and not a refetch on every focus (docs/spec/product-spec.md §9).
 */
export function recheckWhenBack(recheck: () => void): void {
  let done = false;
  const back = () => {
    if (done || document.visibilityState !== 'visible') return;
    done = true;
    window.removeEventListener('focus', back);
    document.removeEventListener('visibilitychange', back);
    for (const delay of RECHECK_AFTER_MS) setTimeout(recheck, delay);
  };
  // Registered after this click's own focus changes have settled.
  setTimeout(() => {
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', back);
  }, 0);
}
