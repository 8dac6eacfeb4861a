import { pino, type Logger } from 'pino';

/** The process logger: JSON lines on stdout, quiet in tests unless LOG_LEVEL says otherwise. */
export function createLogger(
  name: string,
  level = process.env['LOG_LEVEL'] ?? (process.env['VITEST'] ? 'silent' : 'info'),
): Logger {
  return pino({ name, level });
}

export type { Logger };
