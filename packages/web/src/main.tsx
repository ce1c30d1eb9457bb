import { startTransition, StrictMode, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: it gives the router ReactDOM's flushSync, which `navigate(..., { flushSync: true })` needs.
import { RouterProvider } from 'react-router/dom';
import { isLanguage } from '@portal/shared';
import './app/global.css';
import { initI18n } from './app/i18n';
import { ChunkLoadError, loadChunk } from './app/lazy';
import { Providers } from './app/Providers';
import { createPublicRouter, preloadPublicPage } from './app/publicRouter';

type Router = Parameters<typeof RouterProvider>[0]['router'];
const Plain = ({ children }: { children: ReactNode }) => <>{children}</>;

/**
 * One page serves the public site and the personal centre (the `/personal/` path, hash routes).
 * The public router comes with the entry, so that a public page draws without a second round of
 * requests; the personal centre's router is a chunk of its own, loaded with Ant Design's providers
 * and the whole catalogue, so that public pages never load the personal centre's code.
 */
const segments = location.pathname.split('/').filter(Boolean);
const prefix = isLanguage(segments[0]) ? `/${segments[0]}` : '';
const isPersonal = (prefix ? segments[1] : segments[0]) === 'personal';

async function chooseRouter(): Promise<{ router: Router; Wrapper: ComponentType<{ children: ReactNode }> }> {
  if (isPersonal) {
    const [{ createPersonalRouter }, { AntdProviders }] = await Promise.all([loadChunk(() => import('./app/personalRouter')), loadChunk(() => import('./app/AntdProviders'))]);
    return { router: createPersonalRouter(), Wrapper: AntdProviders };
  }
  await preloadPublicPage(location.pathname, prefix || '/');
  return { router: createPublicRouter(prefix || '/'), Wrapper: Plain };
}

/** Hands a router (or the catalogue) that could not be loaded to the error boundary, which offers a reload. */
function Failed({ error }: { error: unknown }): never {
  throw error instanceof ChunkLoadError ? error : new ChunkLoadError(error);
}

/** Renders the router with its providers, or the error page when a part could not be loaded. */
function render([routing, catalogue]: [PromiseSettledResult<Awaited<ReturnType<typeof chooseRouter>>>, PromiseSettledResult<void>]) {
  let app: ReactNode;
  if (routing.status === 'fulfilled' && catalogue.status === 'fulfilled') {
    const { router, Wrapper } = routing.value;
    app = (
      <Wrapper>
        <RouterProvider router={router} />
      </Wrapper>
    );
  } else {
    app = <Failed error={catalogue.status === 'rejected' ? catalogue.reason : (routing as PromiseRejectedResult).reason} />;
  }
  const root = createRoot(document.getElementById('root')!);
  // In a transition React renders in slices of a few milliseconds, yielding between them, so that a
  // phone stays responsive while the first page is drawn (no long task holds the main thread).
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>{app}</Providers>
      </StrictMode>,
    ),
  );
}

// No top-level await: chunks loaded later may then share the entry's modules instead of splitting
// them into chunks of their own (a module awaiting at the top cannot be imported by what it awaits).
void Promise.allSettled([chooseRouter(), initI18n(isPersonal ? 'whole' : 'public')]).then(render);
