import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const SECTIONS = [
  { key: '/admin', labelKey: 'reviewDesk.tabs.users' },
  { key: '/admin/review', labelKey: 'reviewDesk.tabs.desk' },
] as const;

/** The admin area's sections: the users of the portal and the data centre's review desk. */
export function AdminTabs({ active }: { active: (typeof SECTIONS)[number]['key'] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <nav aria-label={t('admin.title')}>
      <Tabs activeKey={active} onChange={(key) => navigate(key)} items={SECTIONS.map(({ key, labelKey }) => ({ key, label: t(labelKey) }))} style={{ marginBottom: 8 }} />
    </nav>
  );
}
