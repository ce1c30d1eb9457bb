import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';

/**
 * An Ant Design form rule from the same zod schema the server checks with, so that the form
 * and the server say the same thing (messages are catalogue keys).
 */
export function zodRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value === undefined || value === null ? undefined : value);
      if (!result.success) throw new Error(t(result.error.issues[0]!.message));
    },
  };
}

/** Rules of a "confirm password" field that must repeat the field `passwordField`. */
export function confirmPasswordRules(t: TFunction, passwordField = 'password'): Rule[] {
  return [
    { required: true, message: t('validation.password2.required') },
    ({ getFieldValue }) => ({
      validator: async (_rule, value: string) => {
        if (value && value !== getFieldValue(passwordField)) throw new Error(t('validation.password2.mismatch'));
      },
    }),
  ];
}
