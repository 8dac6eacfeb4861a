/** The BFF's door: build it, what a host builds it from, and the store functions that seed inboxes, keys and people. */
export { createBff, BFF_MIGRATIONS, type Bff, type BffDeps } from './host/app.ts';
export {
  attachmentBucketComplete,
  BffEnv,
  bffSettings,
  keyGoesWithEngineUrl,
  secretsGoWithRedis,
  readBffConfig,
  readBffStoreConfig,
  type BffConfig,
  type BffSettings,
} from './host/config.ts';
export {
  openBffInfrastructure,
  openBffStore,
  WIDGET_ASSETS_DIR,
  type BffInfrastructure,
  type BffStoreOptions,
} from './host/infrastructure.ts';
export { EngineClient, EngineCallError, type EngineClientOptions } from './engine-link/engine-client.ts';
export { EngineOperator, type EngineOperatorOptions } from './engine-link/engine-operator.ts';
export {
  createInbox,
  addSiteKey,
  findSiteKey,
  readSetting,
  writeSetting,
  generateSiteKey,
  enableClientApi,
  oldestInboxId,
} from './store/inboxes.ts';
export { identifierHash } from './client-api/hmac.ts';
export { createPlatformToken, createSignInLink } from './helpdesk/store/credentials.ts';
export { insertAccount, roleIn, upsertAccountUser } from './helpdesk/store/accounts.ts';
export { findUserByEmail, insertUser } from './helpdesk/store/users.ts';
export { inboxMembers, setInboxMembers } from './helpdesk/store/account-inboxes.ts';
export { consoleSignInUrl, SIGN_IN_LINK_TTL_MS } from './helpdesk/sign-in-service.ts';
export { WidgetSessions } from './widget/sessions.ts';
export { SITE_KEY_LIMIT, WIDGET_REQUESTS_PER_MINUTE } from './host/app.ts';
export { answerWhileStarting, STARTING_RETRY_AFTER_S } from './host/starting.ts';
export { Metrics } from './host/metrics.ts';
