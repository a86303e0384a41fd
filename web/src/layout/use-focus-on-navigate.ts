import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a lazily loaded page may take to show its heading before focus is left where it is. */
const HEADING_WAIT_MS = 30_000;

/**
 * After a client-side navigation, move focus to the new page's <h1> (as a full page load would put a
 * screen reader at the top) and scroll to the top. Pages load lazily (a chunk, then data), so watch the
 * main area until the heading appears: on a slow phone that can take seconds. If the member moves focus
 * themselves meanwhile (they tabbed or clicked into the page), their choice stands.
 * The first render is left alone: the browser already starts at the top of a fresh page.
 */
export function useFocusHeadingOnNavigate(containerId: string): void {
  const { pathname } = useLocation();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo({ top: 0 });
    const container = document.getElementById(containerId);
    if (!container) return;
    const focusedBefore = document.activeElement;
    const focusHeading = (): boolean => {
      const heading = container.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    // Focus that lands anywhere but where it was (the link just clicked) is the member's own move.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target !== focusedBefore) stop();
    };
    const timer = setTimeout(() => stop(), HEADING_WAIT_MS);
    function stop() {
      observer.disconnect();
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
    }
    observer.observe(container, { childList: true, subtree: true });
    document.addEventListener('focusin', onFocusIn);
    return stop;
  }, [pathname, containerId]);
}
