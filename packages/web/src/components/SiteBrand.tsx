import { useTranslation } from 'react-i18next';
import { siteVariant, sitePath } from '../app/site';

/**
 * Logo and title of the site variant (SITE_VARIANT). `compact` shows the logo alone (its text
 * alternative names the site); `wrap` lets a long title take two lines instead of being cut.
 */
export function SiteBrand({ compact = false, wrap = false }: { compact?: boolean; wrap?: boolean }) {
  const { t } = useTranslation();
  const variant = siteVariant();
  const title = t(`site.${variant}.title`);
  return (
    <a href={sitePath('/')} style={{ display: 'flex', alignItems: 'center', gap: 10, color: 'inherit', minWidth: 0 }}>
      <img src={`/logos/${variant}.svg`} alt={t('site.logoAlt', { title })} width={36} height={36} style={{ flex: 'none' }} />
      {!compact && (
        <span
          style={
            wrap
              ? { fontSize: 16, fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }
              : { fontSize: 18, fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }
          }
        >
          {title}
        </span>
      )}
    </a>
  );
}
