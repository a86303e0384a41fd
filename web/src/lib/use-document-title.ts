import { useEffect } from 'react';
import { PRODUCT_NAME } from './brand.ts';

/** What a page asked for while it was rendered on the server (see `captureDocumentHead`). */
export interface DocumentHead {
  title?: string;
  description?: string;
}

let serverHead: DocumentHead | null = null;

/**
 * Runs a server render (renderToString is synchronous) and returns what the rendered page asked of
 * useDocumentTitle, so the server's HTML carries the page's own <title> and description before any
 * JavaScript has run (the browser's tab, screen readers and link previews see it at once).
 */
export function captureDocumentHead<T>(render: () => T): { result: T; head: DocumentHead } {
  const head: DocumentHead = {};
  serverHead = head;
  try {
    return { result: render(), head };
  } finally {
    serverHead = null;
  }
}

/** "<title> | CoinSync": the document title of a page. */
export function documentTitle(title: string): string {
  return `${title} | ${PRODUCT_NAME}`;
}

/** Sets document.title ("<title> | CoinSync") and optionally the meta description; restores both on unmount. */
export function useDocumentTitle(title: string, description?: string): void {
  // On the server (inside captureDocumentHead) effects never run: the render reports instead.
  if (serverHead) {
    serverHead.title = documentTitle(title);
    if (description) serverHead.description = description;
  }
  useEffect(() => {
    const previousTitle = document.title;
    document.title = documentTitle(title);
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    const previousDescription = meta?.content;
    if (description) {
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'description';
        document.head.append(meta);
      }
      meta.content = description;
    }
    return () => {
      document.title = previousTitle;
      if (meta && previousDescription !== undefined) meta.content = previousDescription;
    };
  }, [title, description]);
}
