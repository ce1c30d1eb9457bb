import { Button, Card, Form, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Language } from '@portal/shared';
import { metadataApi } from '../api';
import { useFeedback } from '../components/useFeedback';

/** /metadata/add: the language of the record is chosen first (spec section 5), then it is created. */
export default function AddPage() {
  const { run, t } = useFeedback();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ language: Language }>();
  const [creating, setCreating] = useState(false);

  const handleFinish = async ({ language }: { language: Language }) => {
    setCreating(true);
    const record = await run(() => metadataApi.create(language), form);
    setCreating(false);
    if (record) navigate(`/metadata/edit/${record.id}`);
  };

  return (
    <Card title={<h1 style={{ margin: 0, fontSize: 20 }}>{t('editor.addTitle')}</h1>}>
      <Typography.Paragraph>{t('editor.addIntro')}</Typography.Paragraph>
      <Form form={form} name="add" layout="vertical" onFinish={handleFinish} style={{ maxWidth: 560 }}>
        <Form.Item name="language" label={t('editor.language')} rules={[{ required: true, message: t('metadata.validation.language') }]}>
          <Radio.Group
            options={[
              { value: 'zh-hans', label: t('editor.languageZh') },
              { value: 'en', label: t('editor.languageEn') },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={creating}>
          {t('editor.create')}
        </Button>
      </Form>
    </Card>
  );
}
