import { useTranslation } from 'react-i18next';
import { loginPath, personalPath } from '../../../app/site';
import { formatDate } from '../../../components/format';
import { useHaveDownload } from './api';
import { AddToCartButton } from './AddToCartButton';

/**
 * The landing page's way to the data: whether the caller may download it now (the server decides,
 * `/metadata/have-download/`), with the download page when they may, and the data cart otherwise.
 */
export function DownloadAccess({ metadataId }: { metadataId: string }) {
  const { t } = useTranslation();
  const access = useHaveDownload(metadataId);
  const state = access.data;
  return (
    <div className="cart-access">
      {state && (
        <p>
          {state.have_download ? t('dataCart.access.ok') : t(`dataCart.access.${state.reason}`, { date: formatDate(state.available_from) })}{' '}
          {state.have_download && <a href={personalPath('/data/downloadData')}>{t('dataCart.access.openDownload')}</a>}
          {state.reason === 'login' && <a href={loginPath(`/data/basket?add=${metadataId}`)}>{t('nav.login')}</a>}
        </p>
      )}
      {state?.reason !== 'notPublished' && state?.reason !== 'waiting' && state?.reason !== 'embargo' && <AddToCartButton metadataId={metadataId} />}
    </div>
  );
}
