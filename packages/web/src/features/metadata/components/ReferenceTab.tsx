import { Button, Col, Form, Input, Modal, Popconfirm, Row, Select, Space, Table, type TableColumnsType } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LITERATURE_TYPES, type Language } from '@portal/shared';
import { literatureFields, literatureI18nCreateSchema } from '@portal/shared/contracts/metadata';
import { zodRule } from '../../../components/zod-rule';
import { resource, type Citation, type EditorTabProps, type Literature } from '../api';
import { useFeedback } from './useFeedback';
import { useLinkRows } from './useLinkRows';

type LiteratureForm = Pick<Literature, 'title' | 'title_en' | 'type' | 'year' | 'publisher' | 'link' | 'doi'>;
type TranslationForm = { title: string; publisher?: string; abstract?: string };

/** Reference: literature cited by the record (literature/ with `metadata`, citation/), translated, ordered, removed. */
export function ReferenceTab({ record, readOnly }: EditorTabProps) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const key = ['metadata', 'citation', record.id];
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: () => resource.list<Citation>('citation', { metadata__id: record.id }) });
  const rows = data?.results ?? [];
  const [editing, setEditing] = useState<Literature | 'new' | null>(null);
  const [translating, setTranslating] = useState<Literature | null>(null);
  const [form] = Form.useForm<LiteratureForm>();
  const [translationForm] = Form.useForm<TranslationForm>();
  const other: Language = record.language === 'en' ? 'zh-hans' : 'en';
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const nextSort = () => (rows.length ? Math.max(...rows.map((row) => Number(row.sort) || 0)) + 1 : 0);

  const save = async (values: LiteratureForm) => {
    const fields = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? '']));
    const done = await run(
      () =>
        editing === 'new' || editing === null
          ? resource.create('literature', { ...fields, metadata: record.id, sort: nextSort() })
          : // `metadata`: an entry other records use too changes on this record's own copy (the server's copy-on-write).
            resource.update('literature', editing.id, { ...fields, metadata: record.id }),
      form,
    );
    if (!done) return;
    message.success(editing === 'new' ? t('editor.reference.added') : t('editor.reference.modified'));
    setEditing(null);
    await refresh();
  };

  const translate = async (values: TranslationForm) => {
    if (!translating) return;
    const existing = translating.translations?.find((row) => row.language === other);
    const done = await run(
      () =>
        existing
          ? resource.update('literature-i18n', existing.id, { ...values, metadata: record.id })
          : resource.create('literature-i18n', { ...values, literature: translating.id, language: other, metadata: record.id }),
      translationForm,
    );
    if (!done) return;
    message.success(t('metadata.saved'));
    setTranslating(null);
    await refresh();
  };

  const { move, remove } = useLinkRows('citation', rows, refresh, { run, message, t });

  const columns: TableColumnsType<Citation> = [
    { title: t('editor.reference.title'), key: 'title', render: (_, row) => row.literature_detail?.title },
    { title: t('editor.reference.type'), key: 'type', render: (_, row) => (row.literature_detail ? t(`metadata.options.literatureType.${row.literature_detail.type}`) : '') },
    { title: t('editor.reference.year'), key: 'year', render: (_, row) => row.literature_detail?.year },
    {
      title: t('editor.reference.translation'),
      key: 'translation',
      render: (_, row) => row.literature_detail?.translations?.find((tr) => tr.language === other)?.title ?? '',
    },
  ];
  if (!readOnly) {
    columns.push({
      title: t('editor.actions'),
      key: 'actions',
      render: (_, row, index) => (
        <Space wrap>
          <Button size="small" icon={<ArrowUpOutlined />} aria-label={t('editor.moveUp')} disabled={index === 0} onClick={() => void move(index, -1)} />
          <Button size="small" icon={<ArrowDownOutlined />} aria-label={t('editor.moveDown')} disabled={index === rows.length - 1} onClick={() => void move(index, 1)} />
          <Button size="small" onClick={() => row.literature_detail && setEditing(row.literature_detail)}>
            {t('editor.edit')}
          </Button>
          <Button size="small" onClick={() => row.literature_detail && setTranslating(row.literature_detail)}>
            {t('editor.reference.translate')}
          </Button>
          <Popconfirm title={t('editor.removeConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(row.id)}>
            <Button size="small" danger>
              {t('editor.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  const existing = translating?.translations?.find((row) => row.language === other);
  return (
    <>
      {!readOnly && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => setEditing('new')}>
          {t('editor.reference.add')}
        </Button>
      )}
      <Table<Citation> rowKey="id" loading={isLoading} columns={columns} dataSource={rows} pagination={false} locale={{ emptyText: t('editor.none') }} />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('editor.reference.add') : t('editor.edit')}
        width={720}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okText={t('editor.saveShort')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<LiteratureForm>
          form={form}
          name="literature"
          layout="vertical"
          onFinish={save}
          initialValues={editing && editing !== 'new' ? editing : { type: 'citation' }}
        >
          <Form.Item name="title" label={t('editor.reference.title')} rules={[zodRule(literatureFields.title, t)]}>
            <Input />
          </Form.Item>
          <Form.Item name="title_en" label={t('editor.reference.titleEn')}>
            <Input />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="type" label={t('editor.reference.type')} rules={[zodRule(literatureFields.type, t)]}>
                <Select options={LITERATURE_TYPES.map((value) => ({ value, label: t(`metadata.options.literatureType.${value}`) }))} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="year" label={t('editor.reference.year')} rules={[zodRule(literatureFields.year, t)]}>
                <Input inputMode="numeric" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="publisher" label={t('editor.reference.publisher')}>
            <Input />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="link" label={t('editor.reference.link')} rules={[zodRule(literatureFields.link, t)]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="doi" label="DOI">
                <Input />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Modal>
      <Modal
        open={translating !== null}
        title={t('editor.reference.translateTitle', { language: t(`metadata.options.language.${other}`) })}
        onCancel={() => setTranslating(null)}
        onOk={() => translationForm.submit()}
        okText={t('editor.saveShort')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<TranslationForm> form={translationForm} name="literatureTranslation" layout="vertical" onFinish={translate} initialValues={existing ?? {}}>
          <Form.Item name="title" label={t('editor.reference.title')} rules={[zodRule(literatureI18nCreateSchema.shape.title, t)]}>
            <Input />
          </Form.Item>
          <Form.Item name="publisher" label={t('editor.reference.publisher')}>
            <Input />
          </Form.Item>
          <Form.Item name="abstract" label={t('editor.reference.abstract')}>
            <Input.TextArea autoSize={{ minRows: 3 }} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
