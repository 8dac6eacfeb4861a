import { ParleyError } from '../../shared/index.ts';
import type { Caller } from '../store/environment.ts';

/**
 * Refuses a sandbox key where only a live key may act: copying to live, or what live customers'
 * requests are posted to. `what` names the act in the message.
 */
export function requireLiveKey(caller: Caller, what: string): void {
  if (caller.environment !== 'live')
    throw new ParleyError(
      'forbidden',
      `${what} needs a live key (service_live_…): a sandbox key reaches only the sandbox.`,
    );
}
