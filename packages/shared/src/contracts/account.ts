import { z } from 'zod';
import { LANGUAGES, PROJECT_ROLES } from '../domain/constants.js';
import { pageOf } from './page.js';

/**
 * Account payloads (spec sections 3, 5, 7). Messages are i18n keys of the shared catalogues:
 * the server translates them into the caller's language, the web forms reuse the same keys.
 */

const required = (key: string) => z.string({ error: key }).trim().min(1, key);

export const LIMITS = {
  username: { min: 3, max: 30 },
  password: { min: 8, max: 128 },
  realname: 100,
  email: 254,
  affiliation: 200,
  address: 300,
  phone: 30,
  zipcode: 20,
  specialty: 200,
} as const;

export const usernameSchema = required('validation.username.required').pipe(
  z
    .string()
    .min(LIMITS.username.min, 'validation.username.length')
    .max(LIMITS.username.max, 'validation.username.length')
    .regex(/^[A-Za-z0-9_.@+-]+$/, 'validation.username.chars'),
);

export const emailSchema = required('validation.email.required').pipe(z.string().max(LIMITS.email, 'validation.email.invalid').email('validation.email.invalid').toLowerCase());

export const passwordSchema = z
  .string({ error: 'validation.password.required' })
  .min(1, 'validation.password.required')
  .pipe(z.string().min(LIMITS.password.min, 'validation.password.length').max(LIMITS.password.max, 'validation.password.length'));

const text = (requiredKey: string, max: number, tooLongKey: string) => required(requiredKey).pipe(z.string().max(max, tooLongKey));

export const realnameSchema = text('validation.realname.required', LIMITS.realname, 'validation.realname.long');
export const affiliationSchema = text('validation.affiliation.required', LIMITS.affiliation, 'validation.affiliation.long');
export const addressSchema = text('validation.address.required', LIMITS.address, 'validation.address.long');
/** Optional fields: absent in a change form means "leave as it is", in a registration "empty". */
export const phoneSchema = z
  .string()
  .trim()
  .max(LIMITS.phone, 'validation.phone.invalid')
  .regex(/^[0-9+\-() ]*$/, 'validation.phone.invalid')
  .optional();
export const zipcodeSchema = z
  .string()
  .trim()
  .max(LIMITS.zipcode, 'validation.zipcode.invalid')
  .regex(/^[A-Za-z0-9 -]*$/, 'validation.zipcode.invalid')
  .optional();
export const specialtySchema = z.string().trim().max(LIMITS.specialty, 'validation.specialty.long').optional();
const orEmpty = <T extends z.ZodType<string | undefined>>(schema: T) => schema.transform((v) => v ?? '');

/** Form posts carry checkboxes as text. */
const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

export const registerSchema = z
  .object({
    username: usernameSchema,
    realname: realnameSchema,
    email: emailSchema,
    password: passwordSchema,
    password2: z.string({ error: 'validation.password2.required' }).min(1, 'validation.password2.required'),
    affiliation: affiliationSchema,
    address: addressSchema,
    phone: orEmpty(phoneSchema),
    zipcode: orEmpty(zipcodeSchema),
    specialty: orEmpty(specialtySchema),
    captcha: required('validation.captcha.required').pipe(z.string().max(10, 'account.captchaError')),
    agreement: checkbox,
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.password2) {
      ctx.addIssue({ code: 'custom', path: ['password2'], message: 'validation.password2.mismatch' });
    }
    if (!value.agreement) {
      ctx.addIssue({ code: 'custom', path: ['agreement'], message: 'validation.agreement.required' });
    }
  });
export type RegisterInput = z.input<typeof registerSchema>;

/**
 * The language of the portal's mails to the user (Settings): one of the site's languages. Until the user
 * chooses, it is the language of their last sign-in.
 */
export const mailLanguageSchema = z.enum(LANGUAGES, { error: 'validation.mail_language.invalid' });

export const loginSchema = z.object({
  username: required('validation.login.required').pipe(z.string().max(LIMITS.email, 'account.loginFailed')),
  password: z.string({ error: 'validation.password.required' }).min(1, 'validation.password.required').max(LIMITS.password.max, 'account.loginFailed'),
});

export const forgotSchema = z.object({ email: emailSchema });

/** Resend the verification e-mail, by username or e-mail address. */
export const sendSchema = z.object({
  username: required('validation.login.required').pipe(z.string().max(LIMITS.email, 'account.userNotExists')),
});

export const resetSchema = z
  .object({
    key: required('account.linkTimeout').pipe(z.string().max(200, 'account.linkTimeout')),
    password: passwordSchema,
    password2: z.string({ error: 'validation.password2.required' }).min(1, 'validation.password2.required'),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.password2) {
      ctx.addIssue({ code: 'custom', path: ['password2'], message: 'validation.password2.mismatch' });
    }
  });

/**
 * /account/change/: profile fields, the mail language, and optionally a new e-mail or a new password,
 * both of which need the current password (`old_password`).
 */
export const changeSchema = z
  .object({
    username: usernameSchema.optional(),
    realname: realnameSchema.optional(),
    email: emailSchema.optional(),
    affiliation: affiliationSchema.optional(),
    address: addressSchema.optional(),
    phone: phoneSchema,
    zipcode: zipcodeSchema,
    specialty: specialtySchema,
    old_password: z.string().max(LIMITS.password.max, 'account.originPasswordError').optional(),
    password: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(passwordSchema.optional()),
    password2: z.string().optional(),
    mail_language: mailLanguageSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.password !== undefined && value.password !== value.password2) {
      ctx.addIssue({ code: 'custom', path: ['password2'], message: 'validation.password2.mismatch' });
    }
  });
export type ChangeInput = z.input<typeof changeSchema>;

export const projectRoleSchema = z.coerce
  .number()
  .int()
  .refine((v) => (PROJECT_ROLES as readonly number[]).includes(v), 'validation.isProject.invalid');

/** What the server sends about a user; never the password hash or stored token hashes. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  realname: z.string(),
  name: z.string(),
  phone: z.string(),
  address: z.string(),
  affiliation: z.string(),
  zipcode: z.string(),
  specialty: z.string(),
  is_staff: z.boolean(),
  is_project: z.number(),
  date_joined: z.string(),
  last_login: z.string().nullable(),
  profile: z.object({ real_name: z.string() }),
  /** The language of the portal's mails to the user (the last sign-in's until chosen in Settings). */
  mail_language: mailLanguageSchema,
});
export type User = z.infer<typeof userSchema>;

export const userWithTokenSchema = userSchema.extend({ token: z.string() });
export type UserWithToken = z.infer<typeof userWithTokenSchema>;

/**
 * The account calls' replies (spec section 7): the server serializes each through its schema (no
 * field it does not name leaves), the web client checks them against it in development builds.
 */

/** Reply of the account form posts that have no other payload (forgot, send, reset, change). */
export const statusReplySchema = z.object({ status: z.number(), msg: z.string() });
export type StatusReply = z.infer<typeof statusReplySchema>;

/** POST /account/register/ (201): the message and the address the verification mail went to. */
export const registerReplySchema = statusReplySchema.extend({ email: z.string() });
export type RegisterReply = z.infer<typeof registerReplySchema>;

/** POST /account/profile-login/: the user, the token (API clients read it here) and the message. */
export const loginReplySchema = userWithTokenSchema.extend({ msg: z.string() });
export type LoginReply = z.infer<typeof loginReplySchema>;

/** POST /account/ptpe-account/: 1 when the login names an active programme account, else 0. */
export const programmeAccountReplySchema = z.object({ s: z.literal([0, 1]) });

/** GET /api/account/account/ (staff): a page of users. */
export const userPageSchema = pageOf(userSchema);
export type UserPage = z.infer<typeof userPageSchema>;
