/**
 * The site's top menu (spec section 1): the public header and the personal centre's header draw it
 * (packages/web app/site.ts), and so does the first screen the server writes into a landing page
 * (packages/server modules/landing/first-screen.ts); Personal Center follows it.
 */
export const TOP_MENU = [
  { path: '/', labelKey: 'nav.home' },
  { path: '/data/', labelKey: 'nav.data' },
  { path: '/news/', labelKey: 'nav.news' },
  { path: '/about', labelKey: 'nav.about' },
] as const;
