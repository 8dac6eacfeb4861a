export { createConversationService, type ConversationService, type ConversationServiceDeps } from './service.ts';
export { transcriptText } from './reads.ts';
