import { type Ack } from '../../shared/index.ts';
import { toParleyError, type Logger } from '../../shared/server/index.ts';

/**
 * Runs a call command and answers its ack (when the client gave one) with the result, or with an
 * error code as HTTP would give it; anything unexpected is logged and answered `internal`.
 */
export function answer<T>(reply: unknown, logger: Logger, run: () => Promise<T>): void {
  const ack = typeof reply === 'function' ? (reply as (result: Ack<T>) => void) : undefined;
  run().then(
    (data) => ack?.({ ok: true, data }),
    (caught: unknown) => {
      const error = toParleyError(caught);
      if (error.code === 'internal') logger.error({ err: caught }, 'a call command failed');
      ack?.({ ok: false, error: { code: error.code, message: error.message } });
    },
  );
}
