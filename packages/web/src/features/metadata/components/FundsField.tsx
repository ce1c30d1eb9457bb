import { Button, Form, Input, Modal, Select, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { METADATA_LIMITS } from '@portal/shared';
import { fundCreateSchema } from '@portal/shared/contracts/metadata';
import { pageLanguage } from '../../../app/i18n';
import { useBusy } from '../../../components/useBusy';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { recordKey, resource, type EditorTabProps, type Fund, type MetaFund } from '../api';
import type { EditorSession } from './editorSession';
import { useTypedInput } from './useTypedInput';
import { useFeedback } from './useFeedback';

/** Up to 3 funding projects from fund/, linked through meta-fund/; a new one can be created here. */
export function FundsField({ record, readOnly, session }: EditorTabProps & { session: EditorSession }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [fundForm] = Form.useForm<{ name: string; name_en: string; funder_identifier?: string }>();
  /** Add waits for its save: a double click creates the project once. */
  const adding = useBusy();
  const closeFund = useTypedInput({ session, form: fundForm, active: creating, title: t('editor.fundNew'), onClose: () => setCreating(false) });
  const { data: funds } = useQuery({ queryKey: ['metadata', 'funds'], queryFn: () => resource.list<Fund>('fund', { pageSize: 1000 }) });
  const { data: links } = useQuery({
    queryKey: ['metadata', 'meta-fund', record.id],
    queryFn: () => resource.list<MetaFund>('meta-fund', { metadata__id: record.id }),
  });
  const english = pageLanguage === 'en';

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'meta-fund', record.id] });
    await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
  };

  const change = async (ids: string[]) => {
    const added = ids.filter((id) => !record.fund.includes(id));
    const removed = (links?.results ?? []).filter((link) => !ids.includes(link.fund_id));
    await run(async () => {
      for (const fund of added) await resource.create('meta-fund', { metadata: record.id, fund });
      for (const link of removed) await resource.remove('meta-fund', link.id);
      return true;
    });
    await refresh();
  };

  const create = async (values: { name: string; name_en: string; funder_identifier?: string }) => {
    const done = await run(() => resource.create<Fund>('fund', { ...values, metadata: record.id }), fundForm);
    if (!done) return;
    message.success(t('editor.addedSuccess'));
    setCreating(false);
    fundForm.resetFields();
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'funds'] });
    await refresh();
  };

  return (
    <>
      <Form.Item label={t('editor.fields.funds')} extra={t('editor.fundsHint', { max: METADATA_LIMITS.fundsMax })}>
        <Space.Compact style={{ width: '100%' }}>
          <Select
            mode="multiple"
            aria-label={t('editor.fields.funds')}
            value={record.fund}
            maxCount={METADATA_LIMITS.fundsMax}
            optionFilterProp="label"
            onChange={(ids: string[]) => void change(ids)}
            options={(funds?.results ?? []).map((fund) => ({ value: fund.id, label: english ? fund.name_en || fund.name : fund.name }))}
            disabled={readOnly}
          />
          {!readOnly && record.fund.length < METADATA_LIMITS.fundsMax && <Button onClick={() => setCreating(true)}>{t('editor.fundNew')}</Button>}
        </Space.Compact>
      </Form.Item>
      <Modal
        open={creating}
        title={t('editor.fundNew')}
        onCancel={closeFund}
        onOk={() => void adding.submit(fundForm, create)}
        confirmLoading={adding.busy}
        okText={t('editor.add')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form form={fundForm} name="fund" layout="vertical" onFinish={(values) => void adding.run(() => create(values))}>
          <Form.Item name="name" label={t('editor.fundName')} rules={[zodRule(fundCreateSchema.shape.name, t)]}>
            <Input count={lengthCount(fundCreateSchema.shape.name)} />
          </Form.Item>
          <Form.Item name="name_en" label={t('editor.fundNameEn')} rules={[zodRule(fundCreateSchema.shape.name_en, t)]}>
            <Input count={lengthCount(fundCreateSchema.shape.name_en)} />
          </Form.Item>
          <Form.Item name="funder_identifier" label={t('identifiers.funder')} extra={t('identifiers.funderHelp')} rules={[zodRule(fundCreateSchema.shape.funder_identifier, t)]}>
            <Input autoComplete="off" spellCheck={false} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
