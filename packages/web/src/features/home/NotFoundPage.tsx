import { useTranslation } from 'react-i18next';
import { siteRoot } from '../../app/site';

/** An address the site does not have (public paths and the personal centre's hash routes). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="result">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body', { path: location.pathname + location.hash })}</p>
      <a className="button button-primary" href={siteRoot()}>
        {t('notFound.back')}
      </a>
    </div>
  );
}
