import { useMediaQuery } from './useMediaQuery';

/** Narrower than Ant Design's `md` breakpoint (768 px): a phone, whose menus sit in drawers. */
const PHONE_QUERY = '(max-width: 767.98px)';

/** Whether the window is phone-sized, known on the first render (no desktop layout drawn first). */
export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
