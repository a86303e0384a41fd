import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isChunkLoadError } from '../lib/lazy-page.ts';
import { PageHydratedMark } from '../lib/page-hydrated.ts';
import { ErrorState } from './error-state.tsx';

interface Props {
  children: ReactNode;
}

interface State {
  error: unknown;
}

/**
 * One per route (keyed by path in the shell): a page that throws while rendering, or whose code cannot
 * be downloaded, shows a friendly panel with a retry, and the header, navigation and other pages keep
 * working.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept visible for whoever opens the console; there is no client error reporting service.
    console.warn('Page failed to render', error, info.componentStack);
  }

  private readonly retry = () => {
    // A chunk that failed twice needs a fresh index.html; anything else gets a fresh render.
    if (isChunkLoadError(this.state.error)) window.location.reload();
    else this.setState({ error: null });
  };

  override render() {
    if (this.state.error === null) return this.props.children;
    const chunk = isChunkLoadError(this.state.error);
    return (
      <>
        <PageHydratedMark />
        <ErrorState
          title={chunk ? 'This page could not be downloaded' : 'Something went wrong on this page'}
          description={
            chunk
              ? 'A new version of the app may have been released, or your connection dropped. Reload to continue.'
              : 'The rest of the app still works. Try again, or pick another page.'
          }
          onRetry={this.retry}
          retryLabel={chunk ? 'Reload page' : 'Try again'}
        />
      </>
    );
  }
}
