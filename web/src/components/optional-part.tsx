import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { isChunkLoadError, loadChunk } from '../lib/lazy-page.ts';

// Parts a page works without (tooltips, the toast view) download their code on first use. Offline or while
// the server restarts that download fails, and the failure must not reach an error boundary above: the
// shell's would swap the whole screen, bottom bar included, for "This page could not be downloaded". Such
// a part shows its fallback instead and tries again once the browser is back online. Any other error
// still goes up.

interface CatchProps {
  fallback: ReactNode;
  onLoadFailure: () => void;
  children: ReactNode;
}

class CatchLoadFailure extends Component<CatchProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override componentDidCatch(error: unknown): void {
    if (isChunkLoadError(error)) this.props.onLoadFailure();
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (isChunkLoadError(error)) return this.props.fallback;
    throw error;
  }
}

/**
 * React.lazy for an optional part: `fallback` while it loads, and while its code cannot be downloaded
 * (loadChunk: after a deploy the page reloads once for the new chunk names, as for pages).
 */
export function optionalPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return function OptionalPart({ fallback, ...props }: P & { fallback: ReactNode }): ReactNode {
    const [attempt, setAttempt] = useState(0);
    const [failed, setFailed] = useState(false);
    // A new lazy per attempt: React.lazy keeps a rejection for good.
    const [Part, setPart] = useState(() => lazy(() => loadChunk(load)));
    useEffect(() => {
      if (!failed) return undefined;
      const retry = () => {
        setPart(() => lazy(() => loadChunk(load)));
        setFailed(false);
        setAttempt((n) => n + 1);
      };
      window.addEventListener('online', retry);
      return () => window.removeEventListener('online', retry);
    }, [failed]);
    if (failed) return fallback;
    return (
      <CatchLoadFailure key={attempt} fallback={fallback} onLoadFailure={() => setFailed(true)}>
        <Suspense fallback={fallback}>
          <Part {...(props as P)} />
        </Suspense>
      </CatchLoadFailure>
    );
  };
}
