/**
 * Requests and answers of the helpdesk Platform API (`/platform/api/v1`) and Application API
 * (`/api/v1`), Chatwoot-shaped (shared/reference/chatwoot-application-api.md): the BFF validates,
 * types and documents its routes with these, and the console reads its types from them.
 */
export * from './fields.ts';
export * from './people.ts';
export * from './inboxes.ts';
export * from './conversations.ts';
export * from './reports.ts';
export * from './findings.ts';
export * from './labels.ts';
export * from './teams.ts';
export * from './search.ts';
export * from './contacts.ts';
export * from './presence.ts';
