import { Component, useCallback, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { isChunkLoadError, isOfflineChunkError, originAnswers } from '../lib/lazy-page.ts';
import { PageHydratedMark } from '../lib/page-hydrated.ts';
import { ErrorState } from './error-state.tsx';
import { i18n } from '../lib/i18n.ts';
import { useTranslation } from 'react-i18next';

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
    if (isOfflineChunkError(this.state.error))
      return (
        <>
          <PageHydratedMark />
          <OfflinePage />
        </>
      );
    const chunk = isChunkLoadError(this.state.error);
    return (
      <>
        <PageHydratedMark />
        <ErrorState
          title={chunk ? i18n.t('routeError.downloadTitle') : i18n.t('routeError.crashTitle')}
          description={chunk ? i18n.t('routeError.downloadText') : i18n.t('routeError.crashText')}
          onRetry={this.retry}
          retryLabel={chunk ? i18n.t('routeError.reload') : i18n.t('common.tryAgain')}
        />
      </>
    );
  }
}

/** While offline, the origin is asked again this often (doubling from the first, up to the last). */
const FIRST_PROBE_MS = 3_000;
const MAX_PROBE_MS = 30_000;

/**
 * A page whose code could not be downloaded because the origin did not answer (offline, or the server
 * restarting): says so, offers Retry, and reloads by itself as soon as the origin answers again (the
 * browser's `online` event, and a probe every few seconds for a server coming back). Never reloads into
 * the browser's own error page.
 */
function OfflinePage() {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(false);
  const [stillOffline, setStillOffline] = useState(false);

  const check = useCallback(async (manual: boolean) => {
    if (manual) setChecking(true);
    const answers = await originAnswers();
    if (answers) {
      window.location.reload();
      return;
    }
    if (manual) {
      setChecking(false);
      setStillOffline(true);
    }
  }, []);

  useEffect(() => {
    let delay = FIRST_PROBE_MS;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const loop = () => {
      timer = setTimeout(() => {
        void check(false).then(() => {
          if (stopped) return;
          delay = Math.min(delay * 2, MAX_PROBE_MS);
          loop();
        });
      }, delay);
    };
    const onOnline = () => void check(false);
    window.addEventListener('online', onOnline);
    loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [check]);

  return (
    <ErrorState
      title={t('routeError.downloadTitle')}
      description={stillOffline ? t('routeError.stillOffline') : t('routeError.offline')}
      onRetry={checking ? undefined : () => void check(true)}
      retryLabel={t('routeError.retry')}
    />
  );
}
