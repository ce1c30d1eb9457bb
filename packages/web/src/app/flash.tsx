import { useEffect } from 'react';
import { showToast } from '../components/toast';

const KEY = 'portal.flash';
type Kind = 'success' | 'info';

/** A message to show after the page reloads (login and logout move to the site root by a full load). */
export function flashAfterReload(kind: Kind, text: string): void {
  sessionStorage.setItem(KEY, JSON.stringify({ kind, text }));
}

/** Shows, once, the message the previous page left. */
export function FlashMessage() {
  useEffect(() => {
    const saved = sessionStorage.getItem(KEY);
    if (!saved) return;
    sessionStorage.removeItem(KEY);
    try {
      const { kind, text } = JSON.parse(saved) as { kind: Kind; text: string };
      if ((kind === 'success' || kind === 'info') && typeof text === 'string') showToast(kind, text);
    } catch {
      // A damaged entry is simply dropped.
    }
  }, []);
  return null;
}
