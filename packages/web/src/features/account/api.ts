import { useQuery } from '@tanstack/react-query';
import { AUTH_COOKIES, type User } from '@portal/shared';
import { api, isRequestError } from '../../api/client';
import { clearCookie, readCookie, writeCookie } from '../../api/cookies';
import { flashAfterReload } from '../../app/flash';
import { siteRoot } from '../../app/site';

export const CURRENT_USER_KEY = ['account', 'current'] as const;
const TOKEN_COOKIE_DAYS = 30;

/** The signed-in user from /account/validate/, or null when there is no valid token. */
export function useCurrentUser() {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async (): Promise<User | null> => {
      if (!readCookie('token')) return null;
      const reply = await api.get<User & { token: string }>('/account/validate/');
      if (!reply || isRequestError(reply)) {
        // A revoked or unknown token: forget it.
        if (reply?.request_error.status === 401) clearCookie('token');
        return null;
      }
      return reply;
    },
    staleTime: 60_000,
  });
}

export function storeToken(token: string): void {
  writeCookie('token', token, TOKEN_COOKIE_DAYS);
}

/** Clears the token, csrftoken and sessionid cookies (spec section 2). */
export function clearSession(): void {
  for (const name of AUTH_COOKIES) clearCookie(name);
}

/** Revokes the token on the server, clears the cookies and goes to the site root. */
export async function signOut(doneText: string): Promise<void> {
  try {
    await api.postForm('/account/logout/', {});
  } catch {
    // Signing out locally matters more than a server that cannot be reached.
  } finally {
    clearSession();
    flashAfterReload('info', doneText);
    location.assign(siteRoot());
  }
}
