import type { RequestSubject } from './store/idempotency-keys.ts';

/**
 * Whom a request with an Idempotency-Key is about, so that its record can be found by a forget
 * (engine/customer-erasure.ts) whatever the caller wrote in the key itself (issue 33: a key may
 * hold an e-mail address). The path names a conversation (`/v1/conversations/{id}/…`) or a
 * customer (`/v1/customers/{ref}/…`); a JSON body or answer names a `customer_ref`, and an answer
 * its conversation (`conversation_id`, or its own `id` when it is one).
 */
export function subjectOfRequest(path: string, body: Buffer | undefined, isJson: boolean): RequestSubject {
  const conversation = /^\/v1\/conversations\/(cnv_[0-9A-Za-z]+)(?:\/|$)/.exec(path)?.[1] ?? null;
  const customerSegment = /^\/v1\/customers\/([^/]+)(?:\/|$)/.exec(path)?.[1];
  const fromPath = customerSegment === undefined ? null : decoded(customerSegment);
  const fromBody = isJson && body ? customerRefOf(parsed(body.toString('utf8'))) : null;
  return { customerRef: fromPath ?? fromBody, conversationId: conversation };
}

/** Whom an answer (as the route gave it, before it is kept) is about. */
export function subjectOfAnswer(answer: unknown): RequestSubject {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer))
    return { customerRef: null, conversationId: null };
  const fields = answer as Record<string, unknown>;
  const conversationId =
    typeof fields['conversation_id'] === 'string'
      ? fields['conversation_id']
      : typeof fields['id'] === 'string' && fields['id'].startsWith('cnv_')
        ? fields['id']
        : null;
  return { customerRef: customerRefOf(answer), conversationId };
}

function customerRefOf(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const ref = (value as Record<string, unknown>)['customer_ref'];
  return typeof ref === 'string' ? ref : null;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
