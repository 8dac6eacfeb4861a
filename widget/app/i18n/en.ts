import type { enOnDemand } from './en-on-demand.ts';
import type { enHome } from './en-home.ts';

/**
 * The English of the first download: every string the chat shows before anything loads on demand.
 * With `enOnDemand` (the conversation list's, the survey's and the pre-chat form's, which come with
 * them: extras.ts adds them to `en`), it is every string the widget shows, and the shape every
 * other catalogue has.
 */
const firstDownload = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  openChatUnread: 'Open chat, {count} unread',
  chatWith: 'Chat with {name}',
  aiAnswering: 'Replies instantly',
  handover: "You're being connected with a person from our team. They will answer here.",
  handback: "You're chatting with our AI assistant again.",
  humanAnswering: 'Our team is answering',
  peopleAway: 'Away — we answer by e-mail',
  messages: 'Messages',
  message: 'Message',
  placeholder: 'Write a message…',
  send: 'Send',
  attach: 'Attach a file',
  you: 'You',
  assistant: 'Assistant',
  support: 'Support',
  sending: 'Sending…',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Not sent',
  retry: 'Retry',
  writing: 'Writing an answer…',
  conversations: 'Your conversations',
  backToChat: 'Back to the conversation',
  newConversation: 'New conversation',
  closeConversation: 'End conversation',
  conversationClosed: 'This conversation has ended.',
  soundOn: 'Sound for new messages',
  offline: 'You are offline. Messages will be sent when you are back online.',
  connectError: 'The chat could not connect. Please try again later.',
  // look
  ended: 'Conversation ended',
  chat: 'Chat',
  personAnswering: '{name} is answering',
  in_a_few_minutes: 'Replies in a few minutes',
  in_a_few_hours: 'Replies in a few hours',
  in_a_day: 'Replies in about a day',
  moreOptions: 'More options',
  dismiss: 'Dismiss',
  // states
  aiBadge: 'AI',
};

export type MessageKey = keyof typeof firstDownload | keyof typeof enOnDemand | keyof typeof enHome;
export type Catalogue = { readonly [K in MessageKey]: string };

/**
 * Every English string. Those of the parts that load on demand are added when those parts load
 * (`Object.assign(en, enOnDemand)` in extras.ts), before anything shows them; until then they are
 * not in the first download at all.
 */
export const en = firstDownload as Catalogue;
