import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginPath, personalPath } from '../../../app/site';
import { hasSessionCookie, useCurrentUser } from '../../account/api';
import { addToBasket } from './api';
import './cart.css';

/**
 * "Add to data cart" on the public pages (the landing page, each search result). Signed in, it puts
 * the dataset in the basket and says so beside the button, with the way to the basket; otherwise it
 * is a link to the login screen, which returns to the basket with the dataset added (`?add=`).
 */
export function AddToCartButton({ metadataId, title, compact = false }: { metadataId: string; title?: string; compact?: boolean }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const signedIn = user === undefined ? hasSessionCookie() : user !== null;
  const [state, setState] = useState<{ kind: 'idle' | 'busy' | 'added' | 'refused'; text?: string }>({ kind: 'idle' });
  const label = title ? t('dataCart.addLabel', { title }) : undefined;
  const className = compact ? 'button cart-button' : 'button button-primary cart-button';

  if (!signedIn) {
    return (
      <a className={className} href={loginPath(`/data/basket?add=${metadataId}`)} aria-label={label}>
        {t('dataCart.add')}
      </a>
    );
  }
  const add = async () => {
    setState({ kind: 'busy' });
    try {
      const result = await addToBasket(metadataId);
      if (result.ok) setState({ kind: 'added' });
      else setState({ kind: 'refused', text: result.status < 500 && result.text ? result.text : t('dataCart.failed') });
    } catch {
      setState({ kind: 'refused', text: t('dataCart.failed') });
    }
  };
  return (
    <span className="cart-add">
      <button type="button" className={className} onClick={() => void add()} disabled={state.kind === 'busy'} aria-label={label}>
        {state.kind === 'busy' ? t('dataCart.adding') : t('dataCart.add')}
      </button>
      <span role="status" className={state.kind === 'refused' ? 'cart-status cart-status-error' : 'cart-status'}>
        {state.kind === 'added' && (
          <>
            {t('dataCart.added')} <a href={personalPath('/data/basket')}>{t('dataCart.openBasket')}</a>
          </>
        )}
        {state.kind === 'refused' && state.text}
      </span>
    </span>
  );
}
