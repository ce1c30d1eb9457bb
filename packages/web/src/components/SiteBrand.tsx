import { useTranslation } from 'react-i18next';
import { siteVariant, sitePath } from '../app/site';

/** Logo and title of the site variant (SITE_VARIANT). */
export function SiteBrand({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const variant = siteVariant();
  const title = t(`site.${variant}.title`);
  return (
    <a href={sitePath('/')} style={{ display: 'flex', alignItems: 'center', gap: 10, color: 'inherit', minWidth: 0 }}>
      <img src={`/logos/${variant}.svg`} alt={t('site.logoAlt', { title })} width={36} height={36} />
      {!compact && (
        <span style={{ fontSize: 18, fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {title}
        </span>
      )}
    </a>
  );
}
