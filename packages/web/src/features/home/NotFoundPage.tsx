import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { siteRoot } from '../../app/site';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.body', { path: location.pathname + location.hash })}
      extra={
        <Button type="primary" href={siteRoot()}>
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
