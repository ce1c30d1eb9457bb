/**
 * The account module's one face. It owns `users`, `auth_tokens`, `account_links` and `captchas`:
 * other modules read accounts through AccountDirectory (names, staff, an account by username)
 * instead of reading `users` themselves; the per-account lock is db/index.ts's lockUserRow.
 */
export { AccountService, mailLanguageOf, type AuthenticatedUser, type AccountServiceOptions } from './account.service.js';
export { AccountDirectory } from './account-directory.js';
export { PasswordHasher } from './password-hasher.js';
export { accountRoutes } from './account.routes.js';
