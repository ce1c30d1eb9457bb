import { useSyncExternalStore } from 'react';

/** Narrower than Ant Design's `md` breakpoint (768 px): a phone, whose menus sit in drawers. */
const PHONE_QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  const query = matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the window is phone-sized, known on the first render (Ant Design's `useBreakpoint`
 * answers only after an effect, which would draw the desktop layout first and then swap it).
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, () => matchMedia(PHONE_QUERY).matches);
}
