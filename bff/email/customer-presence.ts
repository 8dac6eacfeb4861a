/**
 * Whether a conversation's customer has the chat open now: a widget tab in their customer room,
 * or a Client API socket in their contact's room, on any node (through the adapter). A digest is
 * not sent to a customer who is there. Asking other nodes can fail (Redis away): then the customer
 * counts as away, and only what they have read is left out of the digest.
 */
import type { Server } from 'socket.io';
import { WIDGET_NAMESPACE } from '../../shared/index.ts';
import { CLIENT_NAMESPACE, contactRoom } from '../client-api/realtime.ts';
import { customerRoom } from '../widget/socket.ts';
import type { CustomerConnected } from './digest-sender.ts';

export function customerPresence(io: Server): CustomerConnected {
  return async ({ inboxId, customerRef }) => {
    try {
      if ((await io.of(WIDGET_NAMESPACE).in(customerRoom(inboxId, customerRef)).fetchSockets()).length > 0) return true;
      const contact = /^ctc_(\d+)$/.exec(customerRef);
      if (!contact) return false;
      return (
        (
          await io
            .of(CLIENT_NAMESPACE)
            .in(contactRoom(Number(contact[1])))
            .fetchSockets()
        ).length > 0
      );
    } catch {
      return false;
    }
  };
}
