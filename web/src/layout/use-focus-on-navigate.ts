import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side navigation, move focus to the new page's <h1> (as a full page load would put a
 * screen reader at the top) and scroll to the top. Pages load lazily, so wait for the heading to appear.
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
    let frame = 0;
    const deadline = performance.now() + 5000;
    const tryFocus = () => {
      const heading = document.getElementById(containerId)?.querySelector<HTMLElement>('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        return;
      }
      if (performance.now() < deadline) frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [pathname, containerId]);
}
