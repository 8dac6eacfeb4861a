import { z } from 'zod';
import { OriginList } from '../shared/index.ts';
import { optionalVariable, Port, readEnv } from '../shared/server/index.ts';
import {
  embeddingsSettings,
  EmbeddingsVariables,
  llmSettings,
  LlmVariables,
  modelGoesWithEmbeddingsUrl,
  modelGoesWithLlmUrl,
  sttSettings,
  SttVariables,
  type EmbeddingsSettings,
  type LlmSettings,
  type SttSettings,
} from '../engine/index.ts';
import {
  attachmentBucketComplete,
  bffSettings,
  BffEnv,
  keyGoesWithEngineUrl,
  secretsGoWithRedis,
  type BffSettings,
} from '../bff/index.ts';

export { ConfigError } from '../shared/server/index.ts';

/** A demo key chosen in advance (for scripts and tests), checked for its environment's prefix. */
const knownKey = (pattern: RegExp, meaning: string) =>
  optionalVariable(z.string().regex(pattern, `must be ${meaning}`));

/** The BFF's variables (the demo runs a BFF) and the demo's own. */
const Env = BffEnv.extend({
  ENGINE_PORT: Port.default(8081),
  ...LlmVariables,
  ...EmbeddingsVariables,
  ...SttVariables,
  DEMO_SITE_KEY: knownKey(/^pk_test_[0-9A-Za-z]{16,64}$/, 'a sandbox site key (pk_test_ and 16-64 letters or digits)'),
  DEMO_API_KEY: knownKey(
    /^service_test_[0-9A-Za-z]{24,64}$/,
    'a sandbox API key (service_test_ and 24-64 letters or digits)',
  ),
  DEMO_LIVE_SITE_KEY: knownKey(
    /^pk_live_[0-9A-Za-z]{16,64}$/,
    'a live site key (pk_live_ and 16-64 letters or digits)',
  ),
  DEMO_ALLOWED_ORIGINS: optionalVariable(OriginList),
  DEMO_INBOX_IDENTIFIER: optionalVariable(
    z.string().regex(/^[\w-]{16,100}$/, 'must be 16 to 100 letters, digits, _ or -'),
  ),
  DEMO_PLATFORM_TOKEN: optionalVariable(z.string().regex(/^[0-9A-Za-z]{24,64}$/, 'must be 24 to 64 letters or digits')),
  DEMO_AGENT_PASSWORD: optionalVariable(z.string().min(8, 'must be at least 8 characters').max(200)),
})
  .superRefine(keyGoesWithEngineUrl)
  .superRefine(secretsGoWithRedis)
  .superRefine(attachmentBucketComplete)
  .superRefine(modelGoesWithLlmUrl)
  .superRefine(modelGoesWithEmbeddingsUrl);

export interface DemoConfig extends BffSettings {
  /** Where the demo's own engine listens; it is not started when `aiApiUrl` is set. */
  enginePort: number;
  demoSiteKey: string | undefined;
  demoApiKey: string | undefined;
  demoLiveSiteKey: string | undefined;
  /** Where the live demo key works; undefined means the demo's own origin. */
  demoAllowedOrigins: string[] | undefined;
  demoInboxIdentifier: string | undefined;
  /** The helpdesk's platform app token for the demo's operator; made on first start when unset. */
  demoPlatformToken: string | undefined;
  /** The demo agent's console password; unset: a new one at each start, printed beside the one-time link. */
  demoAgentPassword: string | undefined;
  /** The built-in engine's LLM brain (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY); unset: the retrieval brain. */
  llm: LlmSettings | undefined;
  /** The built-in engine's embeddings API (EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL, …); unset: words alone rank. */
  embeddings: EmbeddingsSettings | undefined;
  /** The built-in engine's transcription API for voice notes (STT_BASE_URL, STT_MODEL, STT_API_KEY); unset: not heard. */
  stt: SttSettings | undefined;
}

/** Reads the configuration from the environment; anything wrong stops start-up with a clear message (a ConfigError). */
export function readDemoConfig(env: NodeJS.ProcessEnv): DemoConfig {
  const value = readEnv(Env, env);
  return {
    ...bffSettings(value),
    enginePort: value.ENGINE_PORT,
    demoSiteKey: value.DEMO_SITE_KEY,
    demoApiKey: value.DEMO_API_KEY,
    demoLiveSiteKey: value.DEMO_LIVE_SITE_KEY,
    demoAllowedOrigins: value.DEMO_ALLOWED_ORIGINS,
    demoInboxIdentifier: value.DEMO_INBOX_IDENTIFIER,
    demoPlatformToken: value.DEMO_PLATFORM_TOKEN,
    demoAgentPassword: value.DEMO_AGENT_PASSWORD,
    llm: llmSettings(value),
    embeddings: embeddingsSettings(value),
    stt: sttSettings(value),
  };
}
