import { Result } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { loginPath } from '../../app/site';
import { PageSpinner } from '../../components/PageSpinner';
import { useCurrentUser } from '../account/api';

/**
 * The admin area's gate: a visitor is asked to sign in and comes back to `returnTo` (not told that
 * this is not theirs); a signed-in user who is not staff gets the 403 result. The server refuses
 * their calls anyway; this only spares them a page of errors.
 */
export function StaffOnly({ returnTo, children }: { returnTo: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: me, isLoading } = useCurrentUser();
  const isAnonymous = !isLoading && !me;
  useEffect(() => {
    if (isAnonymous) location.replace(loginPath(returnTo));
  }, [isAnonymous, returnTo]);

  if (isLoading || !me) return <PageSpinner />;
  if (!me.is_staff) return <Result status="403" title={t('account.forbidden')} />;
  return <>{children}</>;
}
