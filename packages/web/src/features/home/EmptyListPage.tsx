import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The data and news pages until datasets and news can be published: an honest empty list. */
export default function EmptyListPage({ section }: { section: 'data' | 'news' }) {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={1}>{t(`${section}.title`)}</Typography.Title>
      <Empty description={t(`${section}.empty`)} />
    </Card>
  );
}
