import { z } from 'zod';
import type { EmbeddingsSettings } from './brain/embeddings-client.ts';
import type { LlmSettings } from './brain/llm-client.ts';
import { SttVariables } from './media/stt-config.ts';
import { TtsVariables } from './calls/tts-config.ts';
import {
  DataDir,
  Host,
  HttpUrl,
  LogLevel,
  OperatorToken,
  optionalVariable,
  Port,
  PostgresUrl,
  PrivateExceptions,
  readEnv,
  RedisUrl,
  SecretKeySet,
  SessionKeySet,
} from '../shared/server/index.ts';

/**
 * The LLM brain's variables, read by `npm run engine` and `npm start` alike: any OpenAI-compatible
 * API's base with its `/v1` (llama.cpp's server, Ollama, vLLM, a hosted one), the model, and a key
 * when the API needs one. Unset: the retrieval brain answers.
 */
export const LlmVariables = {
  LLM_BASE_URL: optionalVariable(HttpUrl),
  LLM_MODEL: optionalVariable(z.string().min(1).max(200)),
  LLM_API_KEY: optionalVariable(z.string().min(1).max(500)),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(20_000),
  /** The model reads images (an OpenAI-compatible `image_url` part): uploaded photos are described with it. */
  LLM_VISION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
};

/** LLM_MODEL is what the API is asked for: it goes with LLM_BASE_URL. */
export function modelGoesWithLlmUrl(
  value: { LLM_BASE_URL?: string | undefined; LLM_MODEL?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.LLM_BASE_URL && !value.LLM_MODEL)
    ctx.addIssue({
      code: 'custom',
      path: ['LLM_MODEL'],
      message: 'must be set when LLM_BASE_URL is (the model the API is asked for)',
    });
  if (value.LLM_MODEL && !value.LLM_BASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['LLM_BASE_URL'],
      message: 'must be set when LLM_MODEL is (the OpenAI-compatible API, with its /v1)',
    });
}

/** The LLM settings of checked variables, or undefined when no LLM is configured. */
export function llmSettings(value: {
  LLM_BASE_URL?: string | undefined;
  LLM_MODEL?: string | undefined;
  LLM_API_KEY?: string | undefined;
  LLM_TIMEOUT_MS: number;
  LLM_VISION?: boolean;
}): LlmSettings | undefined {
  if (!value.LLM_BASE_URL || !value.LLM_MODEL) return undefined;
  return {
    baseUrl: value.LLM_BASE_URL,
    model: value.LLM_MODEL,
    apiKey: value.LLM_API_KEY,
    timeoutMs: value.LLM_TIMEOUT_MS,
    ...(value.LLM_VISION ? { vision: true } : {}),
  };
}

/**
 * The embeddings API's variables: any OpenAI-compatible API's base with its `/v1` that answers
 * `POST /embeddings` (Ollama, llama.cpp's server with --embeddings, vLLM, a hosted one), the model,
 * and a key when the API needs one. Set, the knowledge's sections and each question are embedded
 * and ranked by meaning beside words (docs/AI.md); unset, by words alone.
 */
export const EmbeddingsVariables = {
  EMBEDDINGS_BASE_URL: optionalVariable(HttpUrl),
  EMBEDDINGS_MODEL: optionalVariable(z.string().min(1).max(200)),
  EMBEDDINGS_API_KEY: optionalVariable(z.string().min(1).max(500)),
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
};

/** EMBEDDINGS_MODEL is what the API is asked for: it goes with EMBEDDINGS_BASE_URL. */
export function modelGoesWithEmbeddingsUrl(
  value: { EMBEDDINGS_BASE_URL?: string | undefined; EMBEDDINGS_MODEL?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.EMBEDDINGS_BASE_URL && !value.EMBEDDINGS_MODEL)
    ctx.addIssue({
      code: 'custom',
      path: ['EMBEDDINGS_MODEL'],
      message: 'must be set when EMBEDDINGS_BASE_URL is (the embedding model the API is asked for)',
    });
  if (value.EMBEDDINGS_MODEL && !value.EMBEDDINGS_BASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['EMBEDDINGS_BASE_URL'],
      message: 'must be set when EMBEDDINGS_MODEL is (the OpenAI-compatible API, with its /v1)',
    });
}

/** The embeddings settings of checked variables, or undefined when no embeddings API is configured. */
export function embeddingsSettings(value: {
  EMBEDDINGS_BASE_URL?: string | undefined;
  EMBEDDINGS_MODEL?: string | undefined;
  EMBEDDINGS_API_KEY?: string | undefined;
  EMBEDDINGS_TIMEOUT_MS: number;
}): EmbeddingsSettings | undefined {
  if (!value.EMBEDDINGS_BASE_URL || !value.EMBEDDINGS_MODEL) return undefined;
  return {
    baseUrl: value.EMBEDDINGS_BASE_URL,
    model: value.EMBEDDINGS_MODEL,
    apiKey: value.EMBEDDINGS_API_KEY,
    timeoutMs: value.EMBEDDINGS_TIMEOUT_MS,
  };
}

/** The standalone engine's settings (`npm run engine`), read from the environment. */
const Env = z
  .object({
    ...LlmVariables,
    ...EmbeddingsVariables,
    ENGINE_PORT: Port.default(8081),
    HOST: Host,
    DATA_DIR: DataDir,
    DATABASE_URL: optionalVariable(PostgresUrl),
    /** Without it the engine mints no widget session tokens. */
    SESSION_KEYS: optionalVariable(SessionKeySet),
    /** With several engine processes: the rate limits (per account and environment, per address without a key) are counted in Redis. */
    REDIS_URL: optionalVariable(RedisUrl),
    /** Proxies in front of the engine that append to X-Forwarded-For: requests without an API key are counted per client address, found that many entries from the right. */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Seals the webhook signing secrets the engine stores; unset: a key in DATA_DIR/secrets.key. Several processes (REDIS_URL) must share one. */
    SECRETS_KEYS: optionalVariable(SecretKeySet),
    WEBHOOK_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
    /** The largest file `POST /v1/media` takes, in bytes: 10 MB by default, at most 50 MB (files are kept in the database). */
    MEDIA_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(50 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    /** The most bytes of media one account keeps (both environments): 1 GiB by default; past it uploads are 413. */
    MEDIA_STORAGE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(1024 * 1024 * 1024),
    ...SttVariables,
    ...TtsVariables,
    /** Opens /operator/v1/accounts (the BFF makes an engine account per helpdesk account there, with its AI_OPERATOR_TOKEN). Unset: those routes refuse every request. */
    ENGINE_OPERATOR_TOKEN: optionalVariable(OperatorToken),
    /**
     * Comma list of the operator's own private endpoints that webhooks and action URLs may reach
     * although they are private: origins, or origins with a path that URLs must be under (list the
     * path, e.g. the BFF's /v1/engine-webhooks, so tenants reach only that part of it).
     */
    WEBHOOK_ALLOWED_PRIVATE_ORIGINS: PrivateExceptions.default([]),
    LOG_LEVEL: optionalVariable(LogLevel),
  })
  .superRefine(modelGoesWithLlmUrl)
  .superRefine(modelGoesWithEmbeddingsUrl)
  .superRefine((value, ctx) => {
    if (value.REDIS_URL && !value.SECRETS_KEYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRETS_KEYS'],
        message: 'must be set when REDIS_URL is (every process must open the secrets another stored)',
      });
    }
  });

export type EngineConfig = z.output<typeof Env>;

/** Reads the settings; anything wrong throws a ConfigError whose message names every bad variable. */
export function readEngineConfig(env: NodeJS.ProcessEnv): EngineConfig {
  return readEnv(Env, env);
}
