/**
 * One error type with a stable code, mapped to an HTTP status in one handler (plugins/errors.ts).
 * `messageKey` is a key of the shared catalogues, translated into the caller's language there;
 * `fields` carries per-field message keys for form errors (DRF style: `{field: [message]}`).
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  /** A harvester over its rate: 503 with Retry-After, as OAI-PMH's flow control asks. */
  | 'BUSY'
  /** tus' checksum extension (issue 19): data that does not match the checksum sent with it. */
  | 'CHECKSUM_MISMATCH'
  | 'CSRF_FAILED';

const statusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  BUSY: 503,
  CHECKSUM_MISMATCH: 460,
  CSRF_FAILED: 403,
};

export class AppError extends Error {
  readonly status: number;
  readonly fields?: Record<string, string>;
  /** Extra members of the reply body, e.g. the `status` code of /account/change/. */
  readonly extra?: Record<string, unknown>;
  /** Values for the placeholders of the message. */
  readonly params?: Record<string, string | number>;

  constructor(
    readonly code: ErrorCode,
    readonly messageKey: string,
    options: Pick<AppError, 'fields' | 'extra' | 'params'> = {},
  ) {
    super(messageKey);
    this.status = statusOf[code];
    Object.assign(this, options);
  }
}

export const fieldError = (field: string, messageKey: string) => new AppError('VALIDATION_FAILED', messageKey, { fields: { [field]: messageKey } });
