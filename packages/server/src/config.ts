import { ORDER_LIMITS } from '@portal/shared';
import path from 'node:path';
import { SITE_VARIANTS, type SiteVariant } from '@portal/shared';

/** Every setting comes from an environment variable; README.md lists each with its default. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://...` selects PostgreSQL; otherwise SQLite at `${dataDir}/portal.sqlite3`. */
  databaseUrl: string | undefined;
  publicUrl: string;
  siteVariant: SiteVariant;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Directory of the built web app; the server answers API calls only when it is missing. */
  webDist: string;
  logLevel: string;
  /** Fastify's trustProxy: false, a number of proxy hops, or the proxies' addresses / CIDRs. */
  trustProxy: boolean | number | string;
  rateLimits: RateLimits;
  /** Days a login token lives after its last use (sliding expiry). */
  tokenTtlDays: number;
  accountLimits: AccountLimits;
  /**
   * The installation's secret (`SECRET_KEY`), from which keys are derived (the OAI-PMH resumption
   * tokens' HMAC key); undefined: the random one the database keeps (`server_secrets`).
   */
  secretKey: string | undefined;
  /**
   * The address harvesters write to (OAI-PMH Identify's adminEmail, always a valid one): `ADMIN_EMAIL`,
   * else MAIL_FROM's when valid, else `noreply@` PUBLIC_URL's host (`adminEmailOf`).
   */
  adminEmail: string;
  /** Records (or headers, or sets) per OAI-PMH list reply before a resumption token. */
  oaiPageSize: number;
  /** Days an approved data order stays valid (`ORDER_VALID_DAYS`). */
  orderValidDays: number;
  /** Hours an unfinished resumable upload is kept after its last write (`UPLOAD_EXPIRY_HOURS`); then its parts are swept. */
  uploadExpiryHours: number;
  /** The DataCite repository account that registers the DOIs the data centre assigns; undefined: none configured. */
  datacite: DataciteConfig | undefined;
  /** The FTP server inside the portal process (`FTP_*`, README.md). */
  ftp: FtpConfig;
  /** Whole-dataset archives (`ARCHIVE_ENABLED`, `ARCHIVE_MAX_GB`, README.md): built for published records of at most `maxBytes` of data. */
  archive: { enabled: boolean; maxBytes: number };
  /** Analysis runs (`ANALYSIS_*`, README.md "Analysis"): the sandbox's limits and how many run at once. */
  analysis: { limits: { timeoutMs: number; memoryMb: number; threads: number; maxRows: number; maxBytes: number }; concurrency: number };
}

/** `FTP_ENABLED`, `FTP_HOST`, `FTP_PORT`, `FTP_PASV_PORTS`, `FTP_TLS_CERT` / `FTP_TLS_KEY` (README.md, FTP). */
export interface FtpConfig {
  enabled: boolean;
  /** The address the FTP server listens on. */
  listenHost: string;
  /** The host name accounts are told to connect to, and the passive mode's address. */
  host: string;
  /** 0: any free port (tests). */
  port: number;
  pasvMin: number;
  pasvMax: number;
  /** PEM files; both given: the server speaks implicit FTPS only (`ftps://`). */
  tls: { certFile: string; keyFile: string } | undefined;
}

/** `DATACITE_*` (README.md, DOI registration). */
export interface DataciteConfig {
  /** The REST API's base address: https://api.datacite.org, or https://api.test.datacite.org for DataCite's test system. */
  api: string;
  /** The repository's DOI prefix, `10.` and 4 to 9 digits. */
  prefix: string;
  /** The repository account (e.g. `TPDC.PORTAL`) and its password: HTTP basic authentication. */
  user: string;
  password: string;
  /** A new DOI: `{prefix}` and `{number}` (the next number of the portal's sequence) filled in. */
  doiPattern: string;
  /** How long one call to DataCite may take before it counts as failed (and is retried). */
  timeoutMs: number;
}

/** What one account may create; staff are exempt (see docs/ARCHITECTURE.md). */
export interface AccountLimits {
  /** Metadata records created (new or duplicated) per rolling hour. */
  recordsPerHour: number;
  /** Bytes of uploaded files (data files, documents, thumbnails) the account's uploads may hold. */
  storageBytes: number;
  /** Data applications and reapplications sent per rolling hour (`ORDER_APPLY_PER_HOUR`). */
  appliesPerHour: number;
}

/**
 * How new password hashes are made: 'owasp' (argon2id at OWASP's minimum, account.service.ts) in
 * every portal that serves people; 'fast-for-tests' only where test code asks for it through
 * buildApp's option (never from the environment, so no setting can weaken a production portal).
 */
export type PasswordHashing = 'owasp' | 'fast-for-tests';

export const defaultAccountLimits: AccountLimits = { recordsPerHour: 30, storageBytes: 10240 * 1024 * 1024, appliesPerHour: ORDER_LIMITS.appliesPerHour };

export interface RateLimit {
  max: number;
  timeWindowMs: number;
}

export interface RateLimits {
  login: RateLimit;
  register: RateLimit;
  mail: RateLimit;
  captcha: RateLimit;
  /** OAI-PMH requests (a ListRecords page of 100 ISO 19139 records costs tens of milliseconds of CPU). */
  oai: RateLimit;
}

export const defaultRateLimits: RateLimits = {
  login: { max: 10, timeWindowMs: 60_000 },
  register: { max: 10, timeWindowMs: 3_600_000 },
  mail: { max: 10, timeWindowMs: 3_600_000 },
  captcha: { max: 60, timeWindowMs: 60_000 },
  oai: { max: 60, timeWindowMs: 60_000 },
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export class ConfigError extends Error {}

/** An address as OAI-PMH's emailType has it (a dot in the domain). */
export const EMAIL = /^\S+@(\S+\.)+\S+$/;

/**
 * The address OAI-PMH's Identify gives harvesters, valid by its schema's emailType: `ADMIN_EMAIL`
 * (refused when invalid), else MAIL_FROM's address when valid, else `noreply@` the public address's
 * host: an IPv4 address in brackets, a host without a dot (`localhost`) as `<host>.localdomain`.
 */
export function adminEmailOf(adminEmail: string | undefined, mailFrom: string, publicUrl: string): string {
  if (adminEmail) {
    if (!EMAIL.test(adminEmail)) {
      throw new ConfigError(`ADMIN_EMAIL must be an e-mail address with a dot in its domain (OAI-PMH harvesters refuse others), not ${adminEmail}`);
    }
    return adminEmail;
  }
  const sender = (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
  if (EMAIL.test(sender)) return sender;
  let host: string;
  try {
    host = new URL(publicUrl).hostname;
  } catch {
    throw new ConfigError(`PUBLIC_URL is not an address: ${publicUrl}`);
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return `noreply@[${host}]`;
  if (!host.includes('.') || host.startsWith('[')) return `noreply@${host.startsWith('[') ? 'localhost' : host}.localdomain`;
  return `noreply@${host}`;
}

/**
 * Trusting every hop would let a client choose its own address (X-Forwarded-For) and with it its
 * rate-limit key: only a count of hops or the proxies' own addresses are accepted.
 */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^[0-9a-fA-F.:/,\s]+$/.test(value)) return value.replace(/\s+/g, '');
  throw new ConfigError(`TRUST_PROXY must be false, a number of proxy hops, or the proxies' addresses, not ${value}`);
}

/**
 * `RATE_LIMIT_LOGIN=10`, `RATE_LIMIT_REGISTER`, `RATE_LIMIT_MAIL`, `RATE_LIMIT_CAPTCHA`, `RATE_LIMIT_OAI`: how many
 * calls one address may make per window (the windows stay as they are).
 */
function parseRateLimits(env: NodeJS.ProcessEnv): RateLimits {
  const limits = { ...defaultRateLimits };
  for (const name of Object.keys(defaultRateLimits) as (keyof RateLimits)[]) {
    const max = positiveInteger(env, `RATE_LIMIT_${name.toUpperCase()}`, defaultRateLimits[name].max);
    limits[name] = { ...defaultRateLimits[name], max };
  }
  return limits;
}

/** A whole number of at least 1 from the environment, or the default when unset or empty. */
function positiveInteger(env: NodeJS.ProcessEnv, variable: string, fallback: number): number {
  const value = env[variable];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError(`${variable} must be a whole number of at least 1, not ${value}`);
  return Number(value);
}

/** The DataCite account, when DATACITE_PREFIX, DATACITE_USER and DATACITE_PASSWORD are all set; some of them alone is an error. */
function parseDatacite(env: NodeJS.ProcessEnv): DataciteConfig | undefined {
  const names = ['DATACITE_PREFIX', 'DATACITE_USER', 'DATACITE_PASSWORD'] as const;
  const given = names.filter((name) => env[name]);
  if (!given.length) return undefined;
  if (given.length < names.length) throw new ConfigError(`DOI registration needs ${names.join(', ')}; ${names.filter((name) => !env[name]).join(', ')} missing`);
  const prefix = env.DATACITE_PREFIX!.trim();
  if (!/^10\.\d{4,9}$/.test(prefix)) throw new ConfigError(`DATACITE_PREFIX must be a DOI prefix such as 10.12345, not ${prefix}`);
  const api = (env.DATACITE_API || 'https://api.datacite.org').replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(api)) throw new ConfigError(`DATACITE_API must be an http(s) address, not ${api}`);
  const doiPattern = (env.DATACITE_DOI_PATTERN || '{prefix}/tpdc.{number}').trim();
  const filled = doiPattern.replaceAll('{prefix}', prefix);
  if (!doiPattern.includes('{number}') || !filled.startsWith(`${prefix}/`) || /\s/.test(filled) || filled.replaceAll('{number}', '').length <= prefix.length + 1) {
    throw new ConfigError(`DATACITE_DOI_PATTERN must start with the prefix (${prefix}/ or {prefix}/) and contain {number}, not ${doiPattern}`);
  }
  return { api, prefix, user: env.DATACITE_USER!, password: env.DATACITE_PASSWORD!, doiPattern: filled, timeoutMs: positiveInteger(env, 'DATACITE_TIMEOUT_MS', 30_000) };
}

/** The FTP settings; on unless FTP_ENABLED is false or 0. */
function parseFtp(env: NodeJS.ProcessEnv, publicUrl: string): FtpConfig {
  const enabled = !['false', '0', 'no', 'off'].includes((env.FTP_ENABLED ?? 'true').trim().toLowerCase());
  const port = Number(env.FTP_PORT || 2121);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`FTP_PORT is not a port number: ${env.FTP_PORT}`);
  const range = (env.FTP_PASV_PORTS || '30000-30100').trim();
  const match = /^(\d+)-(\d+)$/.exec(range);
  const [pasvMin, pasvMax] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!match || pasvMin < 1024 || pasvMax > 65535 || pasvMin > pasvMax)
    throw new ConfigError(`FTP_PASV_PORTS must be a range of ports such as 30000-30100 (from 1024), not ${range}`);
  let host = env.FTP_HOST?.trim();
  if (!host) {
    try {
      host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
    } catch {
      throw new ConfigError(`PUBLIC_URL is not an address: ${publicUrl}`);
    }
  }
  const certFile = env.FTP_TLS_CERT || undefined;
  const keyFile = env.FTP_TLS_KEY || undefined;
  if (!!certFile !== !!keyFile) throw new ConfigError('FTPS needs both FTP_TLS_CERT and FTP_TLS_KEY (PEM files)');
  return {
    enabled,
    // PASV answers an IPv4 address: 'localhost' listens on 127.0.0.1.
    listenHost: (env.FTP_LISTEN_HOST || env.HOST || '127.0.0.1').replace(/^localhost$/, '127.0.0.1'),
    host,
    port,
    pasvMin,
    pasvMax,
    tls: certFile && keyFile ? { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) } : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT is not a port number: ${env.PORT}`);
  const siteVariant = (env.SITE_VARIANT ?? 'portal') as SiteVariant;
  if (!SITE_VARIANTS.includes(siteVariant)) {
    throw new ConfigError(`SITE_VARIANT must be one of ${SITE_VARIANTS.join(', ')}, not ${env.SITE_VARIANT}`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite database');
  }
  const mailFrom = env.MAIL_FROM ?? 'Three Poles Data Portal <noreply@localhost>';
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const adminEmail = adminEmailOf(env.ADMIN_EMAIL || undefined, mailFrom, publicUrl);
  const secretKey = env.SECRET_KEY || undefined;
  if (secretKey && secretKey.length < 32) throw new ConfigError('SECRET_KEY must be at least 32 characters long (e.g. `openssl rand -hex 32`)');
  return {
    port,
    host: env.HOST ?? 'localhost',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'var')),
    databaseUrl,
    publicUrl,
    siteVariant,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom,
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'packages/web/dist')),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimits: parseRateLimits(env),
    tokenTtlDays: positiveInteger(env, 'TOKEN_TTL_DAYS', 14),
    accountLimits: {
      recordsPerHour: positiveInteger(env, 'METADATA_CREATE_PER_HOUR', defaultAccountLimits.recordsPerHour),
      storageBytes: positiveInteger(env, 'USER_STORAGE_QUOTA_MB', defaultAccountLimits.storageBytes / (1024 * 1024)) * 1024 * 1024,
      appliesPerHour: positiveInteger(env, 'ORDER_APPLY_PER_HOUR', defaultAccountLimits.appliesPerHour),
    },
    secretKey,
    adminEmail,
    oaiPageSize: positiveInteger(env, 'OAI_PAGE_SIZE', 100),
    orderValidDays: positiveInteger(env, 'ORDER_VALID_DAYS', ORDER_LIMITS.validDays),
    uploadExpiryHours: positiveInteger(env, 'UPLOAD_EXPIRY_HOURS', 24),
    datacite: parseDatacite(env),
    ftp: parseFtp(env, publicUrl),
    analysis: {
      limits: {
        timeoutMs: positiveInteger(env, 'ANALYSIS_TIMEOUT_SECONDS', 60) * 1000,
        memoryMb: positiveInteger(env, 'ANALYSIS_MEMORY_MB', 512),
        threads: positiveInteger(env, 'ANALYSIS_THREADS', 1),
        maxRows: positiveInteger(env, 'ANALYSIS_MAX_ROWS', 100_000),
        maxBytes: positiveInteger(env, 'ANALYSIS_MAX_RESULT_MB', 32) * 1024 ** 2,
      },
      concurrency: positiveInteger(env, 'ANALYSIS_CONCURRENT_RUNS', 1),
    },
    archive: {
      enabled: !['false', '0', 'no', 'off'].includes((env.ARCHIVE_ENABLED ?? 'true').trim().toLowerCase()),
      maxBytes: positiveInteger(env, 'ARCHIVE_MAX_GB', 50) * 1024 ** 3,
    },
  };
}
