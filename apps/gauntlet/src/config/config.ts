import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isIP } from 'node:net';
import { callbackDomainProblem, DEFAULT_SCHEDULE_LIMITS } from '@gauntlet/domain';

/** Configuration problems stop the process at start with one line naming the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  /**
   * CALLBACK_BASE_URL: the public address of the callback listener (`/oob` of this service, or a
   * proxy or tunnel in front of it), under which probes plant their addresses; default PUBLIC_BASE_URL + /oob
   */
  callbackBaseUrl: string;
  /**
   * CALLBACK_DOMAIN: a domain whose names reach the listener (a wildcard DNS record to this service,
   * or the zone delegated to the DNS listener); probes plant tokens as labels under it (an e-mail
   * address's domain). Null: those probes do not run.
   */
  callbackDomain: string | null;
  /** CALLBACK_DNS_PORT: the UDP port the DNS listener answers on (on CALLBACK_DNS_HOST), for a delegated CALLBACK_DOMAIN; null: no DNS listener */
  callbackDnsPort: number | null;
  /**
   * CALLBACK_DNS_HOST: the address the DNS listener binds, 127.0.0.1 unless told: a resolver that
   * answers whoever asks is opened to the world on purpose (a delegated zone), never by following HOST
   */
  callbackDnsHost: string;
  /** CALLBACK_DNS_ANSWER: the addresses a planted name resolves to (IPv4 and IPv6, comma-separated): where /oob is reachable */
  callbackDnsAnswers: string[];
  adminEmail: string | null;
  adminPassword: string | null;
  jwtSecret: string;
  jwtTtlSeconds: number;
  secretsKey: Buffer;
  outboundAllowPrivate: boolean;
  webhookTimeoutMs: number;
  webhookRetryDelaysMs: number[];
  /** CHROMIUM_PATH; null: the browser is found (Playwright's Chromium, then a system one) */
  chromiumPath: string | null;
  eventstoreUrl: string | null;
  mongodbUrl: string | null;
  mongodbDatabase: string;
  kafkaBrokers: string[] | null;
  kafkaPartitions: number;
  /** a consumer silent this long leaves its group, and the others take its partitions over */
  kafkaSessionTimeoutMs: number;
  /** prefix of every topic and consumer group: several deployments on one broker */
  busNamespace: string;
  /** 0 turns the per-IP limit off (behind a gateway that limits, or for benchmarks) */
  rateLimitPerMinute: number;
  reportDownloadsPerHour: number;
  /** connection checks an account may have running at once, and run per hour */
  targetChecksInFlight: number;
  targetChecksPerHour: number;
  /** one deadline for a whole connection check */
  targetCheckDeadlineMs: number;
  /** longest wait for one operation in a scanned page (a script, a click, a title) */
  browserOperationTimeoutMs: number;
  /** longest wait for a scanned page to load and show its chat input */
  browserNavigationTimeoutMs: number;
  scanQuota: { free: number | null; pro: number | null; enterprise: number | null };
  /** live schedules an account may keep, by plan; null: unlimited */
  scheduleLimits: { free: number | null; pro: number | null; enterprise: number | null };
  trustProxy: boolean;
  logLevel: string;
  scannerConcurrency: number;
  /** a scanner renews its lease on a running scan this often x3; an unrenewed scan is ended partial */
  scanLeaseMs: number;
  /** the scheduler role looks at the schedules this often (SCHEDULER_TICK_MS) */
  schedulerTickMs: number;
  /** a due time seen later than this was missed, and the schedule's catch-up policy decides (SCHEDULER_GRACE_MS) */
  schedulerGraceMs: number;
  /** a bearer token /metrics asks for (METRICS_TOKEN); null: /metrics is open */
  metricsToken: string | null;
  /** an LLM judge consulted where the rules are unsure (JUDGE_*); null: none, nothing contacted */
  judge: ModelEndpoint | null;
  /** an attacker model rewriting refused attacks (ATTACKER_*); null: none, nothing contacted */
  attacker: ModelEndpoint | null;
}

/** An OpenAI-compatible model the operator configured. */
export interface ModelEndpoint {
  url: string;
  model: string;
  apiKey: string | null;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  try {
    const u = new URL(raw);
    if (!protocols.includes(u.protocol)) throw new Error();
    return raw;
  } catch {
    throw new ConfigError(name, `must be a ${protocols.join(' or ')} URL`);
  }
}

/** `<PREFIX>_URL`, `<PREFIX>_MODEL`, `<PREFIX>_API_KEY`: all or nothing of the first two */
function modelEndpoint(env: Env, prefix: 'JUDGE' | 'ATTACKER'): ModelEndpoint | null {
  const endpoint = url(env, `${prefix}_URL`, ['http:', 'https:']);
  const model = env[`${prefix}_MODEL`]?.trim() || null;
  if (!endpoint && !model) return null;
  if (!endpoint) throw new ConfigError(`${prefix}_URL`, `must be set when ${prefix}_MODEL is set`);
  if (!model) throw new ConfigError(`${prefix}_MODEL`, `must be set when ${prefix}_URL is set`);
  return { url: endpoint, model, apiKey: env[`${prefix}_API_KEY`] || null };
}

function quota(env: Env, name: string, fallback: number | null): number | null {
  const raw = env[name];
  if (raw === 'unlimited') return null;
  if (raw === undefined || raw === '') return fallback;
  return int(env, name, 0);
}

function namespace(env: Env): string {
  const raw = env.BUS_NAMESPACE ?? '';
  if (!/^[A-Za-z0-9._-]{0,100}$/.test(raw)) throw new ConfigError('BUS_NAMESPACE', 'may contain only letters, digits, ".", "_" and "-" (at most 100)');
  return raw;
}

/**
 * JWT_SECRET and SECRETS_KEY are generated once into DATA_DIR when unset, so a fresh
 * `npm start` needs nothing configured, and tokens and sealed secrets survive restarts.
 */
function generatedSecrets(dataDir: string): { jwtSecret: string; secretsKey: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secrets = { jwtSecret: randomBytes(48).toString('base64url'), secretsKey: randomBytes(32).toString('base64') };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secrets;
}

/** The setting and host of the first of the service's own addresses that is `domain` or a name under it, or null. */
function ownHostUnder(domain: string, addresses: Record<string, string>): string | null {
  for (const [variable, address] of Object.entries(addresses)) {
    const host = new URL(address).hostname.toLowerCase().replace(/\.$/, '');
    if (host === domain || host.endsWith(`.${domain}`)) return `${variable}'s host ${host}`;
  }
  return null;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const dataDir = resolve(env.DATA_DIR || './data');
  const publicBaseUrl = (url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const callbackBaseUrl = (url(env, 'CALLBACK_BASE_URL', ['http:', 'https:']) ?? `${publicBaseUrl}/oob`).replace(/\/+$/, '');
  if (/[?#]/.test(callbackBaseUrl)) throw new ConfigError('CALLBACK_BASE_URL', 'must not carry a query or fragment: tokens are appended to its path');

  const callbackDomain = env.CALLBACK_DOMAIN?.trim().toLowerCase().replace(/\.$/, '') || null;
  const domainProblem = callbackDomain && callbackDomainProblem(callbackDomain);
  if (domainProblem) throw new ConfigError('CALLBACK_DOMAIN', domainProblem);
  // a request to the service under the domain would be taken for a callback before any route saw it
  const ownHost = callbackDomain && ownHostUnder(callbackDomain, { PUBLIC_BASE_URL: publicBaseUrl, CALLBACK_BASE_URL: callbackBaseUrl });
  if (ownHost) throw new ConfigError('CALLBACK_DOMAIN', `covers ${ownHost}: requests to the service itself would be heard as callbacks; use a domain of its own`);
  const callbackDnsPort = env.CALLBACK_DNS_PORT?.trim() ? int(env, 'CALLBACK_DNS_PORT', 0, 0, 65535) : null;
  if (callbackDnsPort !== null && !callbackDomain) throw new ConfigError('CALLBACK_DNS_PORT', 'needs CALLBACK_DOMAIN: the DNS listener answers only for names under it');
  const callbackDnsAnswers = (env.CALLBACK_DNS_ANSWER ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (callbackDnsAnswers.some((a) => !isIP(a) || a.includes('%'))) throw new ConfigError('CALLBACK_DNS_ANSWER', 'must be IPv4 or IPv6 addresses, comma-separated');
  const callbackDnsHost = env.CALLBACK_DNS_HOST?.trim() || '127.0.0.1';
  if (!isIP(callbackDnsHost)) throw new ConfigError('CALLBACK_DNS_HOST', 'must be an IPv4 or IPv6 address');

  const adminEmail = env.ADMIN_EMAIL?.trim() || null;
  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminEmail && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) throw new ConfigError('ADMIN_EMAIL', 'must be an email address');
  if (adminEmail && !adminPassword) throw new ConfigError('ADMIN_PASSWORD', 'must be set when ADMIN_EMAIL is set');
  if (adminPassword && adminPassword.length < 12) throw new ConfigError('ADMIN_PASSWORD', 'must be at least 12 characters');

  const needGenerated = !env.JWT_SECRET || !env.SECRETS_KEY;
  const generated = needGenerated ? generatedSecrets(dataDir) : null;
  const jwtSecret = env.JWT_SECRET || generated!.jwtSecret;
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
  const secretsKey = Buffer.from(env.SECRETS_KEY || generated!.secretsKey, 'base64');
  if (secretsKey.length !== 32) throw new ConfigError('SECRETS_KEY', 'must be 32 bytes, base64-encoded');

  const delays = (env.WEBHOOK_RETRY_DELAYS_MS ?? '60000,300000,1800000').split(',').map((s) => s.trim());
  if (delays.length !== 3 || delays.some((d) => !/^\d+$/.test(d))) {
    throw new ConfigError('WEBHOOK_RETRY_DELAYS_MS', 'must be three comma-separated whole numbers of milliseconds');
  }

  const kafka = env.KAFKA_BROKERS?.split(',').map((s) => s.trim()).filter(Boolean) ?? null;
  if (kafka && kafka.some((b) => !/^[\w.-]+:\d+$/.test(b))) throw new ConfigError('KAFKA_BROKERS', 'must be host:port[,host:port...]');

  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken))) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters without spaces');

  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');

  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    publicBaseUrl,
    callbackBaseUrl,
    callbackDomain,
    callbackDnsPort,
    callbackDnsHost,
    callbackDnsAnswers,
    adminEmail,
    adminPassword,
    jwtSecret,
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 3600, 60, 30 * 24 * 3600),
    secretsKey,
    outboundAllowPrivate: bool(env, 'OUTBOUND_ALLOW_PRIVATE', false),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 30000, 100, 120000),
    webhookRetryDelaysMs: delays.map(Number),
    chromiumPath: env.CHROMIUM_PATH?.trim() || null,
    eventstoreUrl: url(env, 'EVENTSTORE_URL', ['esdb:', 'esdb+discover:', 'kurrentdb:', 'kdb:']),
    mongodbUrl: url(env, 'MONGODB_URL', ['mongodb:', 'mongodb+srv:']),
    mongodbDatabase: env.MONGODB_DATABASE || 'gauntlet',
    kafkaBrokers: kafka && kafka.length ? kafka : null,
    kafkaPartitions: int(env, 'KAFKA_PARTITIONS', 6, 1, 1000),
    // the broker refuses a session shorter than its group.min.session.timeout.ms (6 s by default)
    kafkaSessionTimeoutMs: int(env, 'KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000, 1_800_000),
    busNamespace: namespace(env),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 120, 0),
    reportDownloadsPerHour: int(env, 'REPORT_DOWNLOADS_PER_HOUR', 30, 1),
    targetChecksInFlight: int(env, 'TARGET_CHECKS_IN_FLIGHT', 2, 1, 100),
    targetChecksPerHour: int(env, 'TARGET_CHECKS_PER_HOUR', 60, 1),
    targetCheckDeadlineMs: int(env, 'TARGET_CHECK_DEADLINE_MS', 60_000, 1_000, 600_000),
    browserOperationTimeoutMs: int(env, 'BROWSER_OPERATION_TIMEOUT_MS', 5_000, 100, 120_000),
    browserNavigationTimeoutMs: int(env, 'BROWSER_NAVIGATION_TIMEOUT_MS', 30_000, 1_000, 300_000),
    scanQuota: {
      free: quota(env, 'SCAN_QUOTA_FREE', 10),
      pro: quota(env, 'SCAN_QUOTA_PRO', 500),
      enterprise: quota(env, 'SCAN_QUOTA_ENTERPRISE', null),
    },
    scheduleLimits: {
      free: quota(env, 'SCHEDULE_LIMIT_FREE', DEFAULT_SCHEDULE_LIMITS.free),
      pro: quota(env, 'SCHEDULE_LIMIT_PRO', DEFAULT_SCHEDULE_LIMITS.pro),
      enterprise: quota(env, 'SCHEDULE_LIMIT_ENTERPRISE', DEFAULT_SCHEDULE_LIMITS.enterprise),
    },
    trustProxy: bool(env, 'TRUST_PROXY', false),
    logLevel,
    scannerConcurrency: int(env, 'SCANNER_CONCURRENCY', 2, 1, 64),
    scanLeaseMs: int(env, 'SCAN_LEASE_MS', 15_000, 300, 600_000),
    schedulerTickMs: int(env, 'SCHEDULER_TICK_MS', 15_000, 100, 3_600_000),
    schedulerGraceMs: int(env, 'SCHEDULER_GRACE_MS', 120_000, 1_000, 86_400_000),
    metricsToken,
    judge: modelEndpoint(env, 'JUDGE'),
    attacker: modelEndpoint(env, 'ATTACKER'),
  };
}

export const CONFIG = Symbol('CONFIG');
