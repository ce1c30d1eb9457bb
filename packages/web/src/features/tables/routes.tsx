import type { RouteObject } from 'react-router';

/** The personal centre's pages of this feature (issue 20), spread into the shell's routes by app/personalRouter.tsx. */
export const tableRoutes: RouteObject[] = [];
