import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: it gives the router ReactDOM's flushSync, which `navigate(..., { flushSync: true })` needs.
import { RouterProvider } from 'react-router/dom';
import { isLanguage } from '@portal/shared';
import './app/global.css';
import { initI18n } from './app/i18n';
import { ChunkLoadError, loadChunk } from './app/lazy';
import { Providers } from './app/Providers';

/**
 * One page serves the public site and the personal centre (the `/personal/` path, hash routes).
 * Each router is a chunk of its own, so that public pages never load the personal centre's code.
 */
async function chooseRouter() {
  const segments = location.pathname.split('/').filter(Boolean);
  const prefix = isLanguage(segments[0]) ? `/${segments[0]}` : '';
  const rest = prefix ? segments.slice(1) : segments;
  if (rest[0] === 'personal') return (await loadChunk(() => import('./app/personalRouter'))).createPersonalRouter();
  return (await loadChunk(() => import('./app/publicRouter'))).createPublicRouter(prefix || '/');
}

/** Hands a router that could not be loaded to the error boundary, which offers a reload. */
function Failed({ error }: { error: unknown }): never {
  throw error instanceof ChunkLoadError ? error : new ChunkLoadError(error);
}

const [router] = await Promise.all([chooseRouter().catch((error: unknown) => ({ failed: error })), initI18n()]);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>{'failed' in router ? <Failed error={router.failed} /> : <RouterProvider router={router} />}</Providers>
  </StrictMode>,
);
