import { Button, Col, Form, Input, Modal, Popconfirm, Row, Select, Space, Table, type TableColumnsType } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LITERATURE_TYPES, type Language } from '@portal/shared';
import { literatureFields, literatureI18nCreateSchema } from '@portal/shared/contracts/metadata';
import { useBusy } from '../../../components/useBusy';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { resource, type Citation, type EditorTabProps, type Literature } from '../api';
import type { EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';
import { useTypedInput } from './useTypedInput';
import { useLinkRows } from './useLinkRows';

type LiteratureForm = Pick<Literature, 'title' | 'title_en' | 'type' | 'year' | 'publisher' | 'link' | 'doi'>;
type TranslationForm = { title: string; publisher?: string; abstract?: string };

/** Reference: literature cited by the record (literature/ with `metadata`, citation/), translated, ordered, removed. */
export function ReferenceTab({ record, readOnly, session }: EditorTabProps & { session?: EditorSession }) {
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
  /** Each dialog's button waits for its save: a double click adds one entry. */
  const saving = useBusy();
  const editTitle = editing === 'new' ? t('editor.reference.add') : t('editor.edit');
  const closeEdit = useTypedInput({ session, form, active: editing !== null, title: editTitle, onClose: () => setEditing(null) });
  const translateTitle = t('editor.reference.translateTitle', { language: t(`metadata.options.language.${other}`) });
  const closeTranslation = useTypedInput({ session, form: translationForm, active: translating !== null, title: translateTitle, onClose: () => setTranslating(null) });
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
      <Table<Citation>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('editor.none') }}
      />
      <Modal
        open={editing !== null}
        title={editTitle}
        width={720}
        onCancel={closeEdit}
        onOk={() => void saving.submit(form, save)}
        confirmLoading={saving.busy}
        okText={t('editor.saveShort')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<LiteratureForm>
          form={form}
          name="literature"
          layout="vertical"
          onFinish={(values) => void saving.run(() => save(values))}
          initialValues={editing && editing !== 'new' ? editing : { type: 'citation' }}
        >
          <Form.Item name="title" label={t('editor.reference.title')} rules={[zodRule(literatureFields.title, t)]}>
            <Input count={lengthCount(literatureFields.title)} />
          </Form.Item>
          <Form.Item name="title_en" label={t('editor.reference.titleEn')} rules={[zodRule(literatureFields.title_en, t)]}>
            <Input count={lengthCount(literatureFields.title_en)} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item name="type" label={t('editor.reference.type')} rules={[zodRule(literatureFields.type, t)]}>
                <Select options={LITERATURE_TYPES.map((value) => ({ value, label: t(`metadata.options.literatureType.${value}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="year" label={t('editor.reference.year')} rules={[zodRule(literatureFields.year, t)]}>
                <Input inputMode="numeric" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="publisher" label={t('editor.reference.publisher')} rules={[zodRule(literatureFields.publisher, t)]}>
            <Input count={lengthCount(literatureFields.publisher)} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item name="link" label={t('editor.reference.link')} rules={[zodRule(literatureFields.link, t)]}>
                <Input count={lengthCount(literatureFields.link)} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="doi" label="DOI" rules={[zodRule(literatureFields.doi, t)]}>
                <Input count={lengthCount(literatureFields.doi)} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Modal>
      <Modal
        open={translating !== null}
        title={translateTitle}
        onCancel={closeTranslation}
        onOk={() => void saving.submit(translationForm, translate)}
        confirmLoading={saving.busy}
        okText={t('editor.saveShort')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<TranslationForm>
          form={translationForm}
          name="literatureTranslation"
          layout="vertical"
          onFinish={(values) => void saving.run(() => translate(values))}
          initialValues={existing ?? {}}
        >
          <Form.Item name="title" label={t('editor.reference.title')} rules={[zodRule(literatureI18nCreateSchema.shape.title, t)]}>
            <Input count={lengthCount(literatureI18nCreateSchema.shape.title)} />
          </Form.Item>
          <Form.Item name="publisher" label={t('editor.reference.publisher')} rules={[zodRule(literatureI18nCreateSchema.shape.publisher, t)]}>
            <Input count={lengthCount(literatureI18nCreateSchema.shape.publisher)} />
          </Form.Item>
          <Form.Item name="abstract" label={t('editor.reference.abstract')} rules={[zodRule(literatureI18nCreateSchema.shape.abstract, t)]}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} count={lengthCount(literatureI18nCreateSchema.shape.abstract, true)} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
