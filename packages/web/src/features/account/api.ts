import { useQuery } from '@tanstack/react-query';
import { AUTH_COOKIES, type User } from '@portal/shared';
import { api, isRequestError } from '../../api/client';
import { path } from '../../api/routes';
import { clearCookie, readCookie } from '../../api/cookies';
import { flashAfterReload } from '../../app/flash';
import { siteRoot } from '../../app/site';

export const CURRENT_USER_KEY = ['account', 'current'] as const;

/** Whether this browser holds a session (before `/account/validate/` has said whose). */
export const hasSessionCookie = () => readCookie('csrftoken') !== undefined;

/**
 * The signed-in user from /account/validate/, or null when there is no valid token. The token
 * cookie is HttpOnly; the server gives a `csrftoken` cookie with it and takes both back at logout
 * (and when the token has expired), so without `csrftoken` the browser is not signed in.
 */
export function useCurrentUser() {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async (): Promise<User | null> => {
      if (!hasSessionCookie()) return null;
      const reply = await api.get<User>(path('validate'));
      if (!reply || isRequestError(reply)) {
        // A revoked, expired or unknown token: the server has expired its cookie; forget the rest.
        if (reply?.request_error.status === 401) clearSession();
        return null;
      }
      return reply;
    },
    staleTime: 60_000,
  });
}

/**
 * Clears the token, csrftoken and sessionid cookies (spec section 2) as far as a script can: the
 * HttpOnly token is expired by the server's logout reply.
 */
export function clearSession(): void {
  for (const name of AUTH_COOKIES) clearCookie(name);
}

/** Revokes the token on the server, clears the cookies and goes to the site root. */
export async function signOut(doneText: string): Promise<void> {
  try {
    await api.postForm(path('logout'), {});
  } catch {
    // Signing out locally matters more than a server that cannot be reached.
  } finally {
    clearSession();
    flashAfterReload('info', doneText);
    location.assign(siteRoot());
  }
}
