/** The engine's door: build it, and the store functions a host needs to seed accounts. */
export { createEngine, ENGINE_MIGRATIONS, type Engine, type EngineDeps } from './app.ts';
export {
  createAccount,
  issueApiKey,
  revokeApiKey,
  findAccount,
  generateApiKey,
  apiKeyExists,
  findCallerByKey,
  setAccountRateLimit,
} from './store/accounts.ts';
export { addKnowledgeDocument } from './store/knowledge.ts';
export { defineAction, setSandboxFixture } from './store/actions.ts';
export { addMonitor } from './store/monitors.ts';
export { ActionDefinition } from './brain/actions.ts';
export { CONVERSATION_MOVES } from './conversation-states.ts';
export {
  embeddingsSettings,
  EmbeddingsVariables,
  llmSettings,
  LlmVariables,
  modelGoesWithEmbeddingsUrl,
  modelGoesWithLlmUrl,
} from './config.ts';
export { sttSettings, SttVariables } from './media/stt-config.ts';
export { ttsSettings, TtsVariables } from './calls/tts-config.ts';
export type { SttSettings } from './media/transcriber.ts';
export type { EmbeddingsSettings } from './brain/embeddings-client.ts';
export type { LlmSettings } from './brain/llm-client.ts';
export { DEFAULT_REQUESTS_PER_MINUTE } from './store/environment.ts';
export { MemoryRateLimiter, type RateLimiter } from '../shared/server/index.ts';
export type { Caller, Environment } from './store/environment.ts';
