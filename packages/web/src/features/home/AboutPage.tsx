import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export default function AboutPage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={1}>{t('about.title')}</Typography.Title>
      <Typography.Paragraph>{t('about.body1')}</Typography.Paragraph>
      <Typography.Paragraph>{t('about.body2')}</Typography.Paragraph>
      <Typography.Paragraph>{t('about.body3')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('about.contact')}</Typography.Paragraph>
    </Card>
  );
}
