import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import {
  addressSchema,
  affiliationSchema,
  emailSchema,
  passwordSchema,
  phoneSchema,
  realnameSchema,
  specialtySchema,
  usernameSchema,
  zipcodeSchema,
} from '@portal/shared/contracts/account';
import { confirmPasswordRules, zodRule } from '../../../components/zod-rule';

/** The user's own fields, each checked by the server's schema; shared by registration, profile and settings. */
const FIELDS = {
  username: { schema: usernameSchema, autoComplete: 'username', required: true },
  realname: { schema: realnameSchema, autoComplete: 'name', required: true },
  email: { schema: emailSchema, autoComplete: 'email', required: true, type: 'email' },
  affiliation: { schema: affiliationSchema, autoComplete: 'organization', required: true },
  address: { schema: addressSchema, autoComplete: 'street-address', required: true },
  phone: { schema: phoneSchema, autoComplete: 'tel', required: false },
  zipcode: { schema: zipcodeSchema, autoComplete: 'postal-code', required: false },
  specialty: { schema: specialtySchema, autoComplete: 'off', required: false },
} satisfies Record<string, { schema: ZodType; autoComplete: string; required: boolean; type?: string }>;

export type UserFieldName = keyof typeof FIELDS;

export function UserFields({ names }: { names: UserFieldName[] }) {
  const { t } = useTranslation();
  return names.map((name) => {
    const field: (typeof FIELDS)[UserFieldName] & { type?: string } = FIELDS[name];
    return (
      <Form.Item key={name} name={name} label={t(`fields.${name}`)} rules={[zodRule(field.schema, t)]} required={field.required}>
        <Input type={field.type} autoComplete={field.autoComplete} />
      </Form.Item>
    );
  });
}

/** A new password and its confirmation. */
export function NewPasswordFields({ labelKey = 'fields.password' }: { labelKey?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="password" label={t(labelKey)} rules={[zodRule(passwordSchema, t)]} required>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="password2" label={t('fields.password2')} dependencies={['password']} required rules={confirmPasswordRules(t)}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** The current password, which the server asks for before it changes the e-mail address or the password. */
export function CurrentPasswordField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="old_password" label={t('fields.old_password')} rules={[{ required: true, message: t('validation.password.required') }]}>
      <Input.Password autoComplete="current-password" />
    </Form.Item>
  );
}
