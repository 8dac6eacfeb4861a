/** The BFF's door: build it, what a host builds it from, and the store functions that seed inboxes, keys and people. */
export { createBff, BFF_MIGRATIONS, type Bff, type BffDeps } from './app.ts';
export { attachmentBucketComplete, BffEnv, bffSettings, keyGoesWithEngineUrl, secretsGoWithRedis, readBffConfig, readBffStoreConfig, type BffConfig, type BffSettings } from './config.ts';
export { openBffInfrastructure, openBffStore, WIDGET_ASSETS_DIR, type BffInfrastructure, type BffStoreOptions } from './infrastructure.ts';
export { EngineClient, EngineCallError, type EngineClientOptions } from './engine-client.ts';
export { EngineOperator, type EngineOperatorOptions } from './engine-operator.ts';
export { createInbox, addSiteKey, findSiteKey, readSetting, writeSetting, generateSiteKey, enableClientApi, oldestInboxId } from './store/inboxes.ts';
export { identifierHash } from './client-api/hmac.ts';
export { createPlatformToken, createSignInLink } from './store/credentials.ts';
export { insertAccount, roleIn, upsertAccountUser } from './store/accounts.ts';
export { findUserByEmail, insertUser } from './store/users.ts';
export { inboxMembers, setInboxMembers } from './store/account-inboxes.ts';
export { consoleSignInUrl, SIGN_IN_LINK_TTL_MS } from './helpdesk/helpdesk-service.ts';
export { WidgetSessions } from './sessions.ts';
export { SITE_KEY_LIMIT, WIDGET_REQUESTS_PER_MINUTE } from './app.ts';
export { answerWhileStarting, STARTING_RETRY_AFTER_S } from './starting.ts';
export { Metrics } from './metrics.ts';
