import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Asks for one name or path (a new folder, a new empty file, a rename or move). `submit` resolves
 * to an error text to show under the field (the server's refusal), or undefined when it is done.
 */
export function NameDialog({
  open,
  title,
  label,
  initial,
  submit,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  submit: (value: string) => Promise<string | undefined>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ value: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ value: initial });
  }, [open, initial, form]);
  const ok = async () => {
    const { value } = await form.validateFields();
    const refused = await submit(value);
    if (refused) form.setFields([{ name: 'value', errors: [refused] }]);
    else onClose();
  };
  return (
    <Modal open={open} title={title} okText={t('editor.save')} cancelText={t('editor.cancel')} onOk={ok} onCancel={onClose} destroyOnHidden width={520}>
      <Form form={form} layout="vertical" onFinish={ok}>
        <Form.Item name="value" label={label} rules={[{ required: true, whitespace: true, message: t('fileTree.nameRequired') }]}>
          <Input autoFocus maxLength={4096} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
