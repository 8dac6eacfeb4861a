import type { DeskConversation } from './types.ts';

/** The customer's name as the people see it: their name, e-mail, or "Visitor" and a short id. */
export function contactName(conversation: DeskConversation): string {
  return (
    conversation.contact.name ?? conversation.contact.email ?? `Visitor ${conversation.contact.customer_ref.slice(-4)}`
  );
}

/** How long ago a Unix time was, briefly ("just now", "4 min", "2 h", "3 d"). */
export function sinceText(epochSeconds: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor(nowMs / 1000 - epochSeconds));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** A Unix time as the person's clock shows it. */
export function clockText(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** How long ago a Unix time was, in words that read alone ("just now", "4 min ago", "3 d ago"). */
export function agoText(epochSeconds: number, nowMs: number): string {
  const since = sinceText(epochSeconds, nowMs);
  return since === 'just now' ? since : `${since} ago`;
}

/** A conversation's state in the people's words, never the API's status name. */
export function statusWords(conversation: Pick<DeskConversation, 'status' | 'handled_by'>): string {
  if (conversation.status === 'resolved') return 'Resolved';
  if (conversation.status === 'snoozed') return 'Snoozed';
  return conversation.handled_by === 'human' || conversation.status === 'open' ? 'With people' : 'With the AI';
}

/**
 * The customer's conversations before the one open, newest first: never the open one, never a
 * newer one (the Application API lists them all).
 */
export function earlierThan(open: DeskConversation, all: readonly DeskConversation[]): DeskConversation[] {
  return all
    .filter((other) => other.id !== open.id && other.created_at <= open.created_at && other.id < open.id)
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}
