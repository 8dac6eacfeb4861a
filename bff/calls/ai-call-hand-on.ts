import type { Server } from 'socket.io';
import type { Logger } from '../../shared/server/index.ts';

/** The server-side event of the Socket.IO adapter that tells every node a person took a handed-on call. */
const HANDED_ON_EVENT = 'calls:person_answered';

/** How nodes share the adapter: only while Redis answers may a server-side event be published. */
export interface SharedNodes {
  reachable(): boolean;
}

/**
 * A person accepted a call (issue 30): the call with the AI it was handed on from ends, on
 * whichever node holds its stream (`hear`, ai-calls.ts, ends it when it is that node's). This node
 * hears it at once; with shared nodes every other node does too, as a server-side event of the
 * adapter (bff/cable/cable-relay.ts carries its notices the same way).
 */
export function createAiCallHandOn(
  io: Server,
  { shared, logger }: { shared: SharedNodes | undefined; logger: Logger },
  hear: (personCallId: string) => void,
): (personCallId: string) => void {
  if (shared)
    io.on(HANDED_ON_EVENT, (value: unknown) => {
      if (typeof value === 'string') hear(value);
      else logger.warn('a person-answered notice from another node was not understood');
    });
  return (personCallId) => {
    hear(personCallId);
    // The adapter publishes without awaiting: a publish while Redis is away would be an unhandled rejection.
    if (shared?.reachable()) io.serverSideEmit(HANDED_ON_EVENT, personCallId);
    else if (shared) logger.warn({ call: personCallId }, 'a person-answered notice did not reach the other nodes');
  };
}
