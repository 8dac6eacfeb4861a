import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseSessionKeys } from './session-tokens.ts';
import { parseSecretKeys } from './secret-box.ts';

/**
 * The pieces every process's settings are made of (the engine's, the BFF's and the demo's
 * `config.ts`): each variable is checked once, by one schema, and a bad value stops start-up with
 * a message that names it (DESIGN "Errors": bad configuration stops the process at once).
 */

/** A bad setting: its message names every variable that is wrong and says what was expected. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * An empty variable counts as unset (`DATABASE_URL= npm start` turns PostgreSQL off), so that
 * shells and compose files can blank a setting without deleting it.
 *
 * @example
 * z.preprocess(blankIsUnset, z.string().optional())
 */
export const blankIsUnset = (value: unknown): unknown => (value === '' ? undefined : value);

/**
 * An optional variable: unset and empty both give `undefined`; anything else must pass `schema`.
 *
 * @example
 * const Env = z.object({ DATABASE_URL: optionalVariable(PostgresUrl) });
 */
export function optionalVariable<S extends z.ZodType>(schema: S) {
  return z.preprocess(blankIsUnset, schema.optional());
}

/** A TCP port; 0 asks the system for a free one (tests). */
const portError = 'must be a port number from 0 to 65535';
export const Port = z.coerce.number({ error: portError }).int(portError).min(0, portError).max(65_535, portError);

/** The address to listen on: `127.0.0.1` unless told (`0.0.0.0` to accept other machines). */
export const Host = z.string().min(1).default('127.0.0.1');

/** A `postgres://` (or `postgresql://`) URL. */
export const PostgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });

/** A `redis://` (or TLS `rediss://`) URL. */
export const RedisUrl = z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' });

/** An `http(s)://` base URL (another service, e.g. the engine at `AI_API_URL`). */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** Where the embedded databases live: a folder (made absolute here) or `memory://`, which keeps nothing. */
export const DataDir = z
  .string()
  .min(1)
  .default('./.data')
  .transform((dir) => (dir.startsWith('memory://') ? dir : resolve(dir)));

/**
 * One service's folder inside DATA_DIR (`<DATA_DIR>/bff`); `memory://` stays as it is.
 *
 * @example
 * openSql({ dataDir: dataFolder(config.dataDir, 'bff'), schema: 'bff' })
 */
export function dataFolder(dataDir: string, service: string): string {
  return dataDir.startsWith('memory://') ? dataDir : join(dataDir, service);
}

/**
 * The widget session tokens' key set (`SESSION_KEYS`): `kid:secret` pairs, the first signs; parsed
 * here, so a weak or malformed key stops start-up.
 */
export const SessionKeySet = z.string().transform((text, ctx) => {
  try {
    return parseSessionKeys(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** `SECRETS_KEYS`: `kid:base64url` pairs of 32-byte keys; the first seals the secrets a service stores. */
export const SecretKeySet = z.string().transform((text, ctx) => {
  try {
    return parseSecretKeys(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** pino's levels; unset leaves the logger's own default (`info`, silent under Vitest). */
/**
 * The installation operator's token, as the engine (ENGINE_OPERATOR_TOKEN) and the BFF
 * (AI_OPERATOR_TOKEN) read it: long enough that it cannot be guessed, sent as a bearer token.
 */
export const OperatorToken = z
  .string()
  .min(32, 'must be at least 32 characters')
  .max(256, 'must be at most 256 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * Checks `env` against `schema` and gives the typed settings. Anything wrong throws a
 * ConfigError listing every bad variable, one a line (`  PORT: …`).
 *
 * @example
 * const config = readEnv(z.object({ PORT: Port.default(8080) }), process.env);
 */
export function readEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  // A list's entries are named by their value in the message, not by their index in the path.
  const variable = (path: PropertyKey[]) => path.filter((part) => typeof part === 'string').join('.') || '(settings)';
  const lines = parsed.error.issues.map((issue) => `  ${variable(issue.path)}: ${issue.message}`);
  throw new ConfigError(`The configuration is not valid:\n${lines.join('\n')}`);
}

/** A command's settings (`read`), or, when any is wrong, its message printed and the process ended with exit code 1. */
export function settingsOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
