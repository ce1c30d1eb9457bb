import { createElement, lazy, type ComponentProps, type ComponentType } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@portal/shared';

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('A part of the page could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

/** A chunk that must arrive within 120 seconds (spec section 2), else a ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), CHUNK_LOAD_TIMEOUT_MS);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}

/**
 * A lazily loaded page whose chunk must arrive within 120 seconds (spec section 2). `preload()`
 * fetches it ahead: a page loaded before its first render draws at once, without the spinner, so
 * that the first page of a visit is drawn in one go (main.tsx).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pages take their own props, as React.lazy allows
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  let loaded: T | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const fetchOnce = () =>
    (pending ??= loadChunk(load).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // Another try may succeed (the error page offers one).
        pending = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(fetchOnce);
  const Page = (props: ComponentProps<T>) => createElement(loaded ?? Lazy, props);
  return Object.assign(Page, { preload: () => fetchOnce().then(() => undefined) });
}
