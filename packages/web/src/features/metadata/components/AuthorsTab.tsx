import { Button, Col, Form, Input, Modal, Popconfirm, Row, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { AUTHOR_ROLES, PROVIDER_ROLE } from '@portal/shared';
import { authorCreateSchema, authorI18nCreateSchema, metaAuthorCreateSchema } from '@portal/shared/contracts/metadata';
import { ORCID_URL } from '@portal/shared/rules/identifiers';
import { formatDate } from '../../../components/format';
import { useBusy } from '../../../components/useBusy';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { likeAuthor, resource, type Author, type EditorTabProps, type MetaAuthor } from '../api';
import type { EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';
import { useTypedInput } from './useTypedInput';
import { useLinkRows } from './useLinkRows';

const OTHER_ROLES = AUTHOR_ROLES.filter((role) => role !== PROVIDER_ROLE);
const today = () => new Date().toISOString().slice(0, 10);
const englishOf = (author: Author | null) => author?.translations?.find((row) => row.language === 'en');

/** An author as the search lists it: name, English name and affiliation (never the e-mail). */
const authorLabel = (author: Author) => {
  const english = englishOf(author)?.name;
  return [author.name, english && english !== author.name ? english : '', author.affiliation].filter(Boolean).join(' · ');
};

/** A calendar day (YYYY-MM-DD) in the page's language, read as that day wherever the browser is. */
const formatDay = (value: string | null | undefined) => formatDate(value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00` : value);

interface AuthorForm {
  name: string;
  name_en: string;
  email: string;
  affiliation: string;
  affiliation_en: string;
  phone?: string;
  orcid?: string;
  affiliation_ror?: string;
  role: string;
  event_date: string;
}

type IdentifiersForm = Pick<AuthorForm, 'orcid' | 'affiliation_ror'>;

/**
 * Data Resource Providers (role resourceProvider) and Author Information (the other roles):
 * meta-author rows, an existing author picked or a new one created, listed, ordered, removed.
 */
export function AuthorsTab({ record, readOnly, providers, session }: EditorTabProps & { providers: boolean; session?: EditorSession }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const key = ['metadata', 'meta-author', record.id, providers];
  const filter: Record<string, string> = providers ? { role: PROVIDER_ROLE } : { role__not: PROVIDER_ROLE };
  const { data, isLoading } = useQuery({
    queryKey: key,
    queryFn: () => resource.list<MetaAuthor>('meta-author', { metadata__id: record.id, ...filter }),
  });
  const rows = data?.results ?? [];
  const [mode, setMode] = useState<'new' | 'existing' | null>(null);
  const [englishFor, setEnglishFor] = useState<Author | null>(null);
  const [newForm] = Form.useForm<AuthorForm>();
  const [pickForm] = Form.useForm<{ author: string; role: string; event_date: string }>();
  const [englishForm] = Form.useForm<{ name: string; affiliation: string }>();
  const [identifiersFor, setIdentifiersFor] = useState<Author | null>(null);
  const [identifiersForm] = Form.useForm<IdentifiersForm>();
  const [found, setFound] = useState<Author[]>([]);
  const [searching, setSearching] = useState('');
  const searched = useRef('');
  /** Each dialog's button waits for its save: a double click adds one row. */
  const adding = useBusy();
  const what = providers ? t('editor.author.provider') : t('editor.author.author');
  const closeNew = useTypedInput({ session, form: newForm, active: mode === 'new', title: t('editor.author.createNew', { what }), onClose: () => setMode(null) });
  const closePick = useTypedInput({ session, form: pickForm, active: mode === 'existing', title: t('editor.author.pickExisting', { what }), onClose: () => setMode(null) });
  const closeEnglish = useTypedInput({ session, form: englishForm, active: englishFor !== null, title: t('editor.author.addEnglish'), onClose: () => setEnglishFor(null) });
  const identifiersTitle = t('identifiers.editTitle', { name: identifiersFor?.name ?? '' });
  const closeIdentifiers = useTypedInput({ session, form: identifiersForm, active: identifiersFor !== null, title: identifiersTitle, onClose: () => setIdentifiersFor(null) });

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['metadata', 'meta-author', record.id] });
  const nextSort = () => (rows.length ? Math.max(...rows.map((row) => row.sort)) + 1 : 0);

  const create = async (values: AuthorForm) => {
    const { role, event_date, ...author } = values;
    const done = await run(async () => {
      const created = await resource.create<Author>('author', author);
      await resource.create('meta-author', { metadata: record.id, author: created.id, role: providers ? PROVIDER_ROLE : role, event_date, sort: nextSort() });
      return true;
    }, newForm);
    if (!done) return;
    message.success(t('editor.addedSuccess'));
    setMode(null);
    newForm.resetFields();
    await refresh();
  };

  const pick = async (values: { author: string; role: string; event_date: string }) => {
    const done = await run(
      () =>
        resource.create('meta-author', {
          metadata: record.id,
          author: values.author,
          role: providers ? PROVIDER_ROLE : values.role,
          event_date: values.event_date,
          sort: nextSort(),
        }),
      pickForm,
    );
    if (!done) return;
    message.success(t('editor.addedSuccess'));
    setMode(null);
    pickForm.resetFields();
    await refresh();
  };

  /** like_author from the first character on: an empty search would list every author. */
  const search = async (text: string) => {
    const query = text.trim();
    searched.current = query;
    setSearching(query);
    if (!query) {
      setFound([]);
      return;
    }
    const reply = await run(() => likeAuthor(query));
    // Only the answer to what is typed now: an earlier, slower answer is dropped.
    if (searched.current === query) setFound(reply?.results ?? []);
  };

  const { move, remove } = useLinkRows('meta-author', rows, refresh, { run, message, t });

  const addEnglish = async (values: { name: string; affiliation: string }) => {
    if (!englishFor) return;
    // `metadata`: an author other records use too gets its English on this record's own copy (the server's copy-on-write).
    const done = await run(() => resource.create('author-i18n', { author: englishFor.id, language: 'en', ...values, metadata: record.id }), englishForm);
    if (!done) return;
    message.success(t('editor.addedSuccess'));
    setEnglishFor(null);
    englishForm.resetFields();
    await refresh();
  };

  /**
   * ORCID iD and the affiliation's ROR ID of a linked author. `metadata`: an author other records use
   * too changes on this record's own copy (the server's copy-on-write); staff change it in place.
   */
  const saveIdentifiers = async (values: IdentifiersForm) => {
    if (!identifiersFor) return;
    const changes = { orcid: values.orcid ?? '', affiliation_ror: values.affiliation_ror ?? '', metadata: record.id };
    const done = await run(() => resource.update('author', identifiersFor.id, changes), identifiersForm);
    if (!done) return;
    message.success(t('identifiers.saved'));
    setIdentifiersFor(null);
    identifiersForm.resetFields();
    await refresh();
  };

  const columns: TableColumnsType<MetaAuthor> = [
    { title: t('editor.author.name'), key: 'name', render: (_, row) => row.author_detail?.name },
    {
      title: t('editor.author.english'),
      key: 'english',
      render: (_, row) => {
        const english = englishOf(row.author_detail);
        if (english) return english.name;
        return (
          <Space>
            <Tag color="warning">{t('editor.author.noEnglish')}</Tag>
            {!readOnly && row.author_detail && (
              <Button size="small" onClick={() => setEnglishFor(row.author_detail)}>
                {t('editor.author.addEnglish')}
              </Button>
            )}
          </Space>
        );
      },
    },
    { title: t('editor.author.email'), key: 'email', render: (_, row) => row.author_detail?.email },
    { title: t('editor.author.affiliation'), key: 'affiliation', render: (_, row) => row.author_detail?.affiliation },
    {
      title: t('identifiers.orcid'),
      key: 'orcid',
      render: (_, row) =>
        row.author_detail?.orcid ? (
          <Typography.Link href={`${ORCID_URL}${row.author_detail.orcid}`} target="_blank" rel="noopener noreferrer">
            {row.author_detail.orcid}
          </Typography.Link>
        ) : null,
    },
    ...(providers ? [] : [{ title: t('editor.author.role'), key: 'role', render: (_: unknown, row: MetaAuthor) => t(`metadata.options.authorRole.${row.role}`) }]),
    { title: t('editor.author.eventDate'), dataIndex: 'event_date', key: 'event_date', render: (value: string) => formatDay(value) },
  ];
  if (!readOnly) {
    columns.push({
      title: t('editor.actions'),
      key: 'actions',
      render: (_, row, index) => (
        <Space>
          <Button size="small" icon={<ArrowUpOutlined />} aria-label={t('editor.moveUp')} disabled={index === 0} onClick={() => void move(index, -1)} />
          <Button size="small" icon={<ArrowDownOutlined />} aria-label={t('editor.moveDown')} disabled={index === rows.length - 1} onClick={() => void move(index, 1)} />
          {row.author_detail && (
            <Button size="small" aria-label={t('identifiers.editTitle', { name: row.author_detail.name })} onClick={() => setIdentifiersFor(row.author_detail)}>
              {t('identifiers.edit')}
            </Button>
          )}
          <Popconfirm title={t('editor.removeConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(row.id)}>
            <Button size="small" danger>
              {t('editor.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  const roleItem = !providers && (
    <Form.Item name="role" label={t('editor.author.role')} rules={[zodRule(metaAuthorCreateSchema.shape.role, t)]}>
      <Select showSearch optionFilterProp="label" options={OTHER_ROLES.map((role) => ({ value: role, label: t(`metadata.options.authorRole.${role}`) }))} />
    </Form.Item>
  );
  const dateItem = (
    <Form.Item name="event_date" label={t('editor.author.eventDate')} rules={[zodRule(metaAuthorCreateSchema.shape.event_date, t)]}>
      <Input type="date" />
    </Form.Item>
  );
  const count = (name: keyof typeof authorCreateSchema.shape) => lengthCount(authorCreateSchema.shape[name]);
  /** The author's identifiers, checked by the server's rule as typed (shared rules/identifiers.ts). */
  const identifierItems = (
    <>
      <Col xs={24} sm={12}>
        <Form.Item name="orcid" label={t('identifiers.orcid')} extra={t('identifiers.orcidHelp')} rules={[zodRule(authorCreateSchema.shape.orcid, t)]}>
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="affiliation_ror" label={t('identifiers.affiliationRor')} extra={t('identifiers.rorHelp')} rules={[zodRule(authorCreateSchema.shape.affiliation_ror, t)]}>
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
      </Col>
    </>
  );
  /** Two columns from a tablet up; one on a phone, where half a dialog is too narrow for a name. */
  const half = { xs: 24, sm: 12 } as const;

  return (
    <>
      <Typography.Paragraph type="secondary">{providers ? t('editor.author.providersIntro') : t('editor.author.authorsIntro')}</Typography.Paragraph>
      {!readOnly && (
        <Space wrap style={{ marginBottom: 16 }}>
          <Button type="primary" onClick={() => setMode('new')}>
            {t('editor.author.createNew', { what })}
          </Button>
          <Button
            onClick={() => {
              searched.current = '';
              setSearching('');
              setFound([]);
              setMode('existing');
            }}
          >
            {t('editor.author.pickExisting', { what })}
          </Button>
        </Space>
      )}
      <Table<MetaAuthor>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('editor.none') }}
      />

      <Modal
        open={mode === 'new'}
        title={t('editor.author.createNew', { what })}
        width={720}
        onCancel={closeNew}
        onOk={() => void adding.submit(newForm, create)}
        confirmLoading={adding.busy}
        okText={t('editor.add')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<AuthorForm>
          form={newForm}
          name={providers ? 'provider' : 'author'}
          layout="vertical"
          onFinish={(values) => void adding.run(() => create(values))}
          initialValues={{ event_date: today() }}
        >
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item name="name" label={t('editor.author.name')} rules={[zodRule(authorCreateSchema.shape.name, t)]}>
                <Input count={count('name')} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="name_en" label={t('editor.author.nameEn')} rules={[zodRule(authorCreateSchema.shape.name_en, t)]}>
                <Input count={count('name_en')} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="affiliation" label={t('editor.author.affiliation')} rules={[zodRule(authorCreateSchema.shape.affiliation, t)]}>
                <Input count={count('affiliation')} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="affiliation_en" label={t('editor.author.affiliationEn')} rules={[zodRule(authorCreateSchema.shape.affiliation_en, t)]}>
                <Input count={count('affiliation_en')} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="email" label={t('editor.author.email')} rules={[zodRule(authorCreateSchema.shape.email, t)]}>
                <Input count={count('email')} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="phone" label={t('editor.author.phone')} rules={[zodRule(authorCreateSchema.shape.phone, t)]}>
                <Input count={count('phone')} />
              </Form.Item>
            </Col>
            {identifierItems}
            <Col {...half}>{roleItem}</Col>
            <Col {...half}>{dateItem}</Col>
          </Row>
        </Form>
      </Modal>

      <Modal
        open={mode === 'existing'}
        title={t('editor.author.pickExisting', { what })}
        onCancel={closePick}
        onOk={() => void adding.submit(pickForm, pick)}
        confirmLoading={adding.busy}
        okText={t('editor.add')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form
          form={pickForm}
          name={providers ? 'pickProvider' : 'pickAuthor'}
          layout="vertical"
          onFinish={(values) => void adding.run(() => pick(values))}
          initialValues={{ event_date: today() }}
        >
          <Form.Item name="author" label={t('editor.author.search')} rules={[{ required: true, message: t('metadata.validation.author') }]}>
            <Select
              showSearch
              filterOption={false}
              onSearch={(text) => void search(text)}
              options={found.map((author) => ({ value: author.id, label: authorLabel(author) }))}
              notFoundContent={searching ? t('editor.none') : t('editor.author.searchHint')}
            />
          </Form.Item>
          {roleItem}
          {dateItem}
        </Form>
      </Modal>

      <Modal
        open={englishFor !== null}
        title={t('editor.author.addEnglish')}
        onCancel={closeEnglish}
        onOk={() => void adding.submit(englishForm, addEnglish)}
        confirmLoading={adding.busy}
        okText={t('editor.add')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form form={englishForm} name="authorEnglish" layout="vertical" onFinish={(values) => void adding.run(() => addEnglish(values))}>
          <Form.Item name="name" label={t('editor.author.nameEn')} rules={[zodRule(authorI18nCreateSchema.shape.name, t)]}>
            <Input count={lengthCount(authorI18nCreateSchema.shape.name)} />
          </Form.Item>
          <Form.Item name="affiliation" label={t('editor.author.affiliationEn')} rules={[zodRule(authorI18nCreateSchema.shape.affiliation, t)]}>
            <Input count={lengthCount(authorI18nCreateSchema.shape.affiliation)} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={identifiersFor !== null}
        title={identifiersTitle}
        onCancel={closeIdentifiers}
        onOk={() => void adding.submit(identifiersForm, saveIdentifiers)}
        confirmLoading={adding.busy}
        okText={t('editor.save')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form<IdentifiersForm>
          form={identifiersForm}
          name="authorIdentifiers"
          layout="vertical"
          onFinish={(values) => void adding.run(() => saveIdentifiers(values))}
          initialValues={{ orcid: identifiersFor?.orcid ?? '', affiliation_ror: identifiersFor?.affiliation_ror ?? '' }}
        >
          <Row gutter={16}>{identifierItems}</Row>
        </Form>
      </Modal>
    </>
  );
}
