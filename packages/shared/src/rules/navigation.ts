/**
 * First segments of the personal centre's hash routes (spec section 2: personal, metadata, data
 * area, review, analysis). The account screens (`/login`, `/register` ...) are not among them.
 */
const PERSONAL_SECTIONS = ['personal', 'metadata', 'data', 'review', 'invited', 'analyze', 'apply-list', 'application', 'offline'];

/** Pages of the public site that ask for a login; they are returned to with a full page load. */
export const SITE_RETURN_PAGES = ['/admin/', '/admin/review'] as const;

/**
 * Where to go after logging in: back to the page the visitor asked for when it is a page of the
 * personal centre (its dashboard `/` included) or a site page of SITE_RETURN_PAGES, otherwise the
 * site root. Spec section 2 names metadata pages only; issue 6 asks for every page that sent the
 * visitor to the login screen. The return address only ever points inside the site: anything
 * absolute, protocol-relative or odd is dropped.
 */
export function safeReturnAddress(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000) return undefined;
  if ((SITE_RETURN_PAGES as readonly string[]).includes(next)) return next;
  // Only a hash route of the personal centre, optionally with a query.
  if (!/^\/[A-Za-z0-9/_\-?=&%.]*$/.test(next)) return undefined;
  if (next.includes('//') || next.includes('\\') || next.includes('..')) return undefined;
  if (next !== '/' && !PERSONAL_SECTIONS.includes(next.split(/[/?]/)[1] ?? '')) return undefined;
  return next;
}

/** Whether a return address is a site page (a full page load) rather than a personal-centre route. */
export const isSiteReturnPage = (next: string) => (SITE_RETURN_PAGES as readonly string[]).includes(next);

/** Who the menu is drawn for: the role facts of spec section 6. */
export interface MenuUser {
  is_staff: boolean;
  is_project: number;
}

/**
 * An entry of the personal centre's left menu (spec section 2). Every entry opens a page its
 * reader can use: the spec's entries this release has no page for (report printing, the
 * review-audit list) are left out rather than shown disabled, and a page
 * one role alone may use (the staff's pre-review) is in that role's menu only.
 */
export interface MenuItemDef {
  path: string;
  labelKey: string;
  /** The spec's Chinese-site-only entries. */
  zhOnly?: boolean;
  isVisible?: (user: MenuUser) => boolean;
}

export interface MenuGroupDef {
  key: string;
  labelKey: string;
  icon: string;
  items: MenuItemDef[];
  /** First path segments whose pages open this group. */
  segments: string[];
  isVisible?: (user: MenuUser) => boolean;
}

export type MenuEntry = ({ kind: 'item' } & MenuItemDef & { icon: string }) | ({ kind: 'group' } & MenuGroupDef);

const isProjectUser = (user: MenuUser) => user.is_project === 1 || user.is_project === 2;

export const PERSONAL_MENU: MenuEntry[] = [
  { kind: 'item', path: '/', labelKey: 'menu.dashboard', icon: 'dashboard' },
  {
    kind: 'group',
    key: 'orders',
    labelKey: 'menu.orders',
    icon: 'orders',
    // Incoming requests sit with the orders: anyone who owns a record can receive them.
    segments: ['data', 'apply-list', 'application'],
    items: [
      { path: '/data/basket', labelKey: 'menu.basket' },
      { path: '/data/order', labelKey: 'menu.orderHistory' },
      { path: '/data/downloadData', labelKey: 'menu.download' },
      { path: '/data/voucher', labelKey: 'menu.voucher' },
      // The tables made from data files (issue 20) that the reader may browse.
      { path: '/data/detailedData', labelKey: 'menu.dataTables' },
      { path: '/apply-list', labelKey: 'ordersUi.menu.requests' },
    ],
  },
  {
    kind: 'group',
    key: 'metadata',
    labelKey: 'menu.myData',
    icon: 'metadata',
    segments: ['metadata'],
    // Spec section 6: the my-projects group replaces my-data for project users.
    isVisible: (user) => !isProjectUser(user),
    items: [
      { path: '/metadata/add', labelKey: 'menu.newData' },
      { path: '/metadata/draft', labelKey: 'menu.drafts' },
      { path: '/metadata/review', labelKey: 'menu.reviewing' },
      { path: '/metadata/published', labelKey: 'menu.published' },
      { path: '/metadata/apply-statistics', labelKey: 'menu.applyStatistics' },
    ],
  },
  {
    kind: 'group',
    key: 'analysis',
    labelKey: 'menu.analysis',
    icon: 'analysis',
    segments: ['analyze'],
    items: [
      { path: '/analyze', labelKey: 'menu.myMethods' },
      { path: '/analyze/exploredways', labelKey: 'menu.exploreMethods' },
      { path: '/analyze/methodsharing', labelKey: 'menu.shareMethods' },
    ],
  },
  {
    kind: 'group',
    key: 'review',
    labelKey: 'menu.review',
    icon: 'review',
    segments: ['invited', 'review'],
    items: [
      { path: '/invited/review', labelKey: 'menu.invitedReview' },
      { path: '/review/hitory', labelKey: 'menu.reviewHistory' },
      // The data centre's formal pre-review of received records: a staff task.
      { path: '/review/preview', labelKey: 'menu.preReview', zhOnly: true, isVisible: (user) => user.is_staff },
      // Where each DOI the data centre assigns stands with DataCite, and a retry: the server answers staff only.
      { path: '/review/doi-registrations', labelKey: 'doi.ui.title', isVisible: (user) => user.is_staff },
    ],
  },
  {
    kind: 'group',
    key: 'projects',
    labelKey: 'menu.projects',
    icon: 'projects',
    segments: ['review'],
    isVisible: isProjectUser,
    items: [
      { path: '/review/projectList', labelKey: 'menu.projectReview' },
      { path: '/review/hitory', labelKey: 'menu.projectHistory' },
    ],
  },
  { kind: 'item', path: '/personal/information', labelKey: 'menu.profile', icon: 'profile' },
  { kind: 'item', path: '/personal/settings', labelKey: 'menu.settings', icon: 'settings' },
];

/** The menu as this user sees it in this language: the role rules and the Chinese-only items. */
export function visibleMenu(user: MenuUser, language: 'zh-hans' | 'en'): MenuEntry[] {
  const shown = (item: MenuItemDef) => (!item.zhOnly || language === 'zh-hans') && (!item.isVisible || item.isVisible(user));
  return PERSONAL_MENU.flatMap((entry): MenuEntry[] => {
    if (entry.kind === 'item') return shown(entry) ? [entry] : [];
    if (entry.isVisible && !entry.isVisible(user)) return [];
    const items = entry.items.filter(shown);
    return items.length ? [{ ...entry, items }] : [];
  });
}

/** The group to open for a path: the one holding the page, else the one of its first segment. */
export function groupForPath(entries: MenuEntry[], path: string): string | undefined {
  const groups = entries.filter((e): e is Extract<MenuEntry, { kind: 'group' }> => e.kind === 'group');
  const holding = groups.find((g) => g.items.some((item) => item.path === path));
  if (holding) return holding.key;
  const segment = path.split('/')[1] ?? '';
  return groups.find((g) => g.segments.includes(segment))?.key;
}

/** Every path the menu names (each must be a page of the personal centre's router). */
export const PERSONAL_MENU_PATHS = [...new Set(PERSONAL_MENU.flatMap((entry) => (entry.kind === 'item' ? [entry.path] : entry.items.map((item) => item.path))))];
