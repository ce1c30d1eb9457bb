/** The download limits and the protection-period test the pages mirror: the server's own rules (shared/rules/download-selection.ts). */
export { checkSelection, isEmbargoed } from '@portal/shared';
