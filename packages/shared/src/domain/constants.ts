/** Business constants and limits of spec section 9, shared by server and web. */

export const LANGUAGES = ['zh-hans', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-hans';

export const SITE_VARIANTS = ['portal', 'ptpe', 'sjynp', 'heihe'] as const;
export type SiteVariant = (typeof SITE_VARIANTS)[number];

export const MESSAGE_DURATION_SECONDS = 3;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const LANGUAGE_COOKIE = { name: 'lang', maxAgeDays: 365, path: '/' } as const;

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;

export const MENU_WIDTH = { expanded: 200, collapsed: 80 } as const;

/** Cookies the web client keeps; logout clears all three (spec section 2). */
export const AUTH_COOKIES = ['token', 'csrftoken', 'sessionid'] as const;
export const CSRF_HEADER = 'X-CSRFToken';

/** is_project values of spec section 6: 0 none, 1 and 2 see the my-projects menu. */
export const PROJECT_ROLES = [0, 1, 2] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Result codes of /account/change/ (spec section 4). */
export const CHANGE_RESULT = {
  success: 1,
  duplicate: 0,
  wrongPassword: -1,
  passwordChanged: 2,
} as const;

/** Lifetimes of single-use links, in hours. */
export const LINK_LIFETIME_HOURS = { activate: 72, reset: 2 } as const;
export const CAPTCHA_LIFETIME_MINUTES = 10;
/** The captcha image's size in pixels (server/modules/account/captcha.ts draws it, the register page shows it so). */
export const CAPTCHA_IMAGE = { width: 150, height: 50 } as const;
