/**
 * The personal centre's left menu: its entries and rules live in the shared rules
 * (`@portal/shared`, rules/navigation.ts), where they are tested.
 */
export { groupForPath, visibleMenu, type MenuEntry } from '@portal/shared';
