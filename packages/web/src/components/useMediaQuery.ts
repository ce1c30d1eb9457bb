import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches, known on the first render and followed as it changes (Ant
 * Design's `useBreakpoint` answers only after an effect, which would draw the other layout first).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => matchMedia(query).matches);
}
