import { Button, Card, Col, Form, Input, Radio, Row, Space, Tag, Tree, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type Key, type ReactNode } from 'react';
import { KEYWORD_TYPES, METADATA_LIMITS, type KeywordType, type Language } from '@portal/shared';
import { keywordCreateSchema } from '@portal/shared/contracts/metadata';
import { pageLanguage } from '../../../app/i18n';
import { useBusy } from '../../../components/useBusy';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { resource, unlinkKeyword, type EditorTabProps, type Keyword, type KeywordStandard, type MetaKeywordStandard } from '../api';
import type { EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';
import { useTypedInput } from './useTypedInput';

type KeywordForm = { type: KeywordType; name: string; translation: string };

/**
 * The required mark as a screen reader should meet it: the star is only seen (the field itself
 * says it is required), so a field's name stays its label ('Keyword', not '* Keyword').
 */
function requiredMark(label: ReactNode, { required }: { required: boolean }) {
  return (
    <>
      {required && (
        <span aria-hidden="true" style={{ display: 'inline-block', marginInlineEnd: 4, color: '#ff4d4f', fontFamily: 'sans-serif', lineHeight: 1 }}>
          *
        </span>
      )}
      {label}
    </>
  );
}

/** Keywords of the four types, each with its translation; keyword standards as a tree when the centre keeps any. */
export function KeywordsTab({ record, readOnly, session }: EditorTabProps & { session?: EditorSession }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<KeywordForm>();
  const key = ['metadata', 'keywords', record.id];
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => resource.list<Keyword>('keyword', { metadatakeyword__metadata__id: record.id }),
  });
  const keywords = data?.results ?? [];
  const other: Language = record.language === 'en' ? 'zh-hans' : 'en';
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  /** Add waits for its save: a double click adds the keyword once. */
  const adding = useBusy();
  // A keyword typed and not added yet: leaving the editor asks first.
  useTypedInput({ session, form, active: !readOnly, title: t('editor.keyword.add'), fields: ['name', 'translation'] });

  const add = async (values: KeywordForm) => {
    const done = await run(() => resource.create('keyword', { ...values, name: values.name.trim(), language: record.language, metadata: record.id }), form);
    if (!done) return;
    message.success(t('editor.keyword.added'));
    form.setFieldsValue({ name: '', translation: '' });
    await refresh();
  };

  const remove = async (keyword: Keyword) => {
    if (await run(async () => (await unlinkKeyword(record.id, keyword.id), true))) {
      message.success(t('metadata.deleted'));
      await refresh();
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('editor.keyword.intro', { min: METADATA_LIMITS.keywordsMin })}</Typography.Paragraph>
      {!readOnly && (
        <Form<KeywordForm>
          form={form}
          name="keyword"
          layout="vertical"
          onFinish={(values) => void adding.run(() => add(values))}
          initialValues={{ type: KEYWORD_TYPES[0] }}
          requiredMark={requiredMark}
        >
          <Form.Item name="type" label={t('editor.keyword.type')} rules={[zodRule(keywordCreateSchema.shape.type, t)]}>
            <Radio.Group options={KEYWORD_TYPES.map((value) => ({ value, label: t(`metadata.options.keywordType.${value}`) }))} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={10}>
              <Form.Item
                name="name"
                label={t('editor.keyword.name')}
                validateFirst
                rules={[{ required: true, whitespace: true, message: t('metadata.keyword.required') }, zodRule(keywordCreateSchema.shape.name, t)]}
              >
                <Input count={lengthCount(keywordCreateSchema.shape.name)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={10}>
              <Form.Item
                name="translation"
                label={t('editor.keyword.translation', { language: t(`metadata.options.language.${other}`) })}
                rules={[{ required: true, whitespace: true, message: t('metadata.keyword.translationRequired') }, zodRule(keywordCreateSchema.shape.translation, t)]}
              >
                <Input count={lengthCount(keywordCreateSchema.shape.translation)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={4}>
              <Form.Item label=" ">
                <Button type="primary" htmlType="submit" loading={adding.busy}>
                  {t('editor.keyword.add')}
                </Button>
              </Form.Item>
            </Col>
          </Row>
        </Form>
      )}
      <Row gutter={[16, 16]}>
        {KEYWORD_TYPES.map((type) => {
          const ofType = keywords.filter((keyword) => keyword.type === type);
          return (
            <Col xs={24} md={12} key={type}>
              <Card size="small" title={`${t(`metadata.options.keywordType.${type}`)} (${ofType.length})`} role="region" aria-label={t(`metadata.options.keywordType.${type}`)}>
                {ofType.length === 0 && <Typography.Text type="secondary">{t('editor.none')}</Typography.Text>}
                <Space wrap>
                  {ofType.map((keyword) => {
                    const translation = keyword.translations?.find((row) => row.language !== keyword.language)?.name;
                    return (
                      <Tag
                        key={keyword.id}
                        closable={!readOnly}
                        closeIcon={!readOnly ? <span aria-label={t('editor.keyword.remove', { name: keyword.name })}>×</span> : undefined}
                        onClose={(event) => {
                          event.preventDefault();
                          void remove(keyword);
                        }}
                      >
                        {keyword.name}
                        {translation ? ` / ${translation}` : ''}
                      </Tag>
                    );
                  })}
                </Space>
              </Card>
            </Col>
          );
        })}
      </Row>
      <StandardsTree record={record} readOnly={readOnly} />
    </>
  );
}

/** meta-keyword-standard: the centre's keyword standards, shown only when there are any. */
function StandardsTree({ record, readOnly }: EditorTabProps) {
  const { run, t } = useFeedback();
  const queryClient = useQueryClient();
  const { data: roots } = useQuery({
    queryKey: ['metadata', 'keyword-standard', 'roots'],
    queryFn: () => resource.list<KeywordStandard>('keyword-standard', { parent_null: 'true' }),
  });
  const linksKey = ['metadata', 'meta-keyword-standard', record.id];
  const { data: links } = useQuery({
    queryKey: linksKey,
    queryFn: () => resource.list<MetaKeywordStandard>('meta-keyword-standard', { metadata__id: record.id }),
  });
  const [children, setChildren] = useState<Record<string, KeywordStandard[]>>({});
  if (!roots?.results.length) return null;

  const label = (standard: KeywordStandard) => (pageLanguage === 'en' && standard.name_en ? standard.name_en : standard.name);
  type Node = { key: string; title: string; isLeaf?: boolean; children?: Node[] };
  const toNode = (standard: KeywordStandard): Node => ({
    key: standard.id,
    title: [standard.code, label(standard)].filter(Boolean).join(' '),
    children: children[standard.id]?.map(toNode),
    isLeaf: children[standard.id] ? children[standard.id]!.length === 0 : undefined,
  });
  const checked = (links?.results ?? []).map((link) => link.keyword_standard_id);

  const loadData = async (node: { key: Key }) => {
    const id = String(node.key);
    if (children[id]) return;
    const reply = await run(() => resource.list<KeywordStandard>('keyword-standard', { parent__id: id }));
    setChildren((current) => ({ ...current, [id]: reply?.results ?? [] }));
  };

  const toggle = async (id: string, on: boolean) => {
    await run(async () => {
      if (on) await resource.create('meta-keyword-standard', { metadata: record.id, keyword_standard: id });
      else {
        const link = links?.results.find((row) => row.keyword_standard_id === id);
        if (link) await resource.remove('meta-keyword-standard', link.id);
      }
      return true;
    });
    await queryClient.invalidateQueries({ queryKey: linksKey });
  };

  return (
    <Card size="small" title={t('editor.keyword.standards')} style={{ marginTop: 16 }}>
      <Tree
        checkable
        checkStrictly
        disabled={readOnly}
        treeData={roots.results.map(toNode)}
        loadData={loadData}
        checkedKeys={checked}
        onCheck={(_, info) => void toggle(String(info.node.key), info.checked)}
      />
    </Card>
  );
}
