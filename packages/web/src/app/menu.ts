import { hasProjectRole, type Language, type User } from '@portal/shared';

/**
 * The personal centre's left menu (spec section 2). `available` marks the pages this release has;
 * the others are shown, disabled, so that people see what the centre will hold.
 */
export interface MenuItemDef {
  path: string;
  labelKey: string;
  zhOnly?: boolean;
  available?: boolean;
}

export interface MenuGroupDef {
  key: string;
  labelKey: string;
  icon: string;
  items: MenuItemDef[];
  /** First path segments whose pages open this group. */
  segments: string[];
  isVisible?: (user: User) => boolean;
}

export type MenuEntry = ({ kind: 'item' } & MenuItemDef & { icon: string }) | ({ kind: 'group' } & MenuGroupDef);

export const MENU: MenuEntry[] = [
  { kind: 'item', path: '/', labelKey: 'menu.dashboard', icon: 'dashboard', available: true },
  {
    kind: 'group',
    key: 'orders',
    labelKey: 'menu.orders',
    icon: 'orders',
    // Incoming requests sit with the orders: anyone who owns a record can receive them.
    segments: ['data', 'apply-list', 'application'],
    items: [
      { path: '/data/basket', labelKey: 'menu.basket', available: true },
      { path: '/data/order', labelKey: 'menu.orderHistory', available: true },
      { path: '/data/downloadData', labelKey: 'menu.download', available: true },
      { path: '/data/voucher', labelKey: 'menu.voucher', available: true },
      { path: '/apply-list', labelKey: 'ordersUi.menu.requests', available: true },
    ],
  },
  {
    kind: 'group',
    key: 'metadata',
    labelKey: 'menu.myData',
    icon: 'metadata',
    segments: ['metadata'],
    isVisible: (user) => !hasProjectRole(user),
    items: [
      { path: '/metadata/add', labelKey: 'menu.newData', available: true },
      { path: '/metadata/draft', labelKey: 'menu.drafts', available: true },
      { path: '/metadata/review', labelKey: 'menu.reviewing', available: true },
      { path: '/metadata/published', labelKey: 'menu.published', available: true },
      { path: '/metadata/apply-statistics', labelKey: 'menu.applyStatistics', available: true },
      { path: '/metadata/report', labelKey: 'menu.report', zhOnly: true },
      { path: '/metadata/audit-list', labelKey: 'menu.auditList', zhOnly: true },
    ],
  },
  {
    kind: 'group',
    key: 'analysis',
    labelKey: 'menu.analysis',
    icon: 'analysis',
    segments: ['analyze'],
    items: [{ path: '/analyze', labelKey: 'menu.myMethods' }],
  },
  {
    kind: 'group',
    key: 'review',
    labelKey: 'menu.review',
    icon: 'review',
    segments: ['invited', 'review'],
    items: [
      { path: '/invited/review', labelKey: 'menu.invitedReview', available: true },
      { path: '/review/hitory', labelKey: 'menu.reviewHistory', available: true },
      { path: '/review/preview', labelKey: 'menu.preReview', zhOnly: true, available: true },
    ],
  },
  {
    kind: 'group',
    key: 'projects',
    labelKey: 'menu.projects',
    icon: 'projects',
    segments: ['review'],
    isVisible: (user) => hasProjectRole(user),
    items: [
      { path: '/review/projectList', labelKey: 'menu.projectReview', available: true },
      { path: '/review/hitory', labelKey: 'menu.projectHistory', available: true },
    ],
  },
  { kind: 'item', path: '/personal/information', labelKey: 'menu.profile', icon: 'profile', available: true },
  { kind: 'item', path: '/personal/settings', labelKey: 'menu.settings', icon: 'settings', available: true },
];

/** The menu as this user sees it in this language: the is_project rule and the Chinese-only items. */
export function visibleMenu(user: User, language: Language): MenuEntry[] {
  return MENU.flatMap((entry): MenuEntry[] => {
    if (entry.kind === 'item') return [entry];
    if (entry.isVisible && !entry.isVisible(user)) return [];
    const items = entry.items.filter((item) => !item.zhOnly || language === 'zh-hans');
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

/** Every path the menu names, to route the ones without a page yet to their explanation. */
export const MENU_PATHS = MENU.flatMap((entry) => (entry.kind === 'item' ? [entry] : entry.items));
