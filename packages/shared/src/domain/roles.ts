/** Role rules of spec section 6 that both the server and the menu need. */
export interface RoleCarrier {
  is_staff: boolean;
  is_project: number;
}

/** Users with is_project 1 or 2 see the my-projects group and lose my-data. */
export function hasProjectRole(user: Pick<RoleCarrier, 'is_project'>): boolean {
  return user.is_project === 1 || user.is_project === 2;
}
