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

/** The most characters a text schema takes (through optional, default and pipe), if it says. */
export function maxLengthOf(schema: ZodType | undefined): number | undefined {
  let current: unknown = schema;
  for (let depth = 0; current && depth < 6; depth++) {
    const node = current as { maxLength?: number | null; unwrap?: () => unknown; def?: { in?: unknown; innerType?: unknown } };
    if (typeof node.maxLength === 'number') return node.maxLength;
    current = typeof node.unwrap === 'function' ? node.unwrap() : (node.def?.in ?? node.def?.innerType);
  }
  return undefined;
}

/**
 * An Ant Design input's `count` for a limited text field: "n / max", which turns red past the
 * limit while the text stays as typed (the field's rule or the server refuses it with a message;
 * `maxLength` would cut it silently). A long text shows it always, a short one from 80 % of its limit.
 */
export function lengthCount(schema: ZodType | undefined, always = false) {
  const max = maxLengthOf(schema);
  if (!max) return undefined;
  return { max, show: always ? true : ({ count }: { count: number }) => (count >= max * 0.8 ? `${count} / ${max}` : null) };
}
