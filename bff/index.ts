/** The BFF's door: build it, and the store functions a host needs to seed inboxes and keys. */
export { createBff, BFF_MIGRATIONS, type Bff, type BffDeps } from './app.ts';
export { EngineClient, EngineCallError, type EngineClientOptions } from './engine-client.ts';
export { createInbox, addSiteKey, findSiteKey, readSetting, writeSetting, generateSiteKey, enableClientApi } from './store/inboxes.ts';
export { identifierHash } from './client-api/hmac.ts';
export { customerRoom, conversationRoom } from './realtime.ts';
export { WidgetSessions } from './sessions.ts';
export { SITE_KEY_LIMIT, WIDGET_REQUESTS_PER_MINUTE } from './app.ts';
