import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isLanguage } from '@portal/shared';
import './app/global.css';
import { initI18n } from './app/i18n';
import { Providers } from './app/Providers';
import { createPersonalRouter, createPublicRouter } from './app/routers';

/** One page serves the public site and the personal centre (the `/personal/` path, hash routes). */
function chooseRouter() {
  const segments = location.pathname.split('/').filter(Boolean);
  const prefix = isLanguage(segments[0]) ? `/${segments[0]}` : '';
  const rest = prefix ? segments.slice(1) : segments;
  return rest[0] === 'personal' ? createPersonalRouter() : createPublicRouter(prefix || '/');
}

await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={chooseRouter()} />
    </Providers>
  </StrictMode>,
);
