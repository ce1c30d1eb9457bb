import { useTranslation } from 'react-i18next';

/** The data and news pages until datasets and news can be published: an honest empty list. */
export default function EmptyListPage({ section }: { section: 'data' | 'news' }) {
  const { t } = useTranslation();
  return (
    <section className="card">
      <h1 className="page-title">{t(`${section}.title`)}</h1>
      <p className="empty-state">{t(`${section}.empty`)}</p>
    </section>
  );
}
