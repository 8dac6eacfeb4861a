import { randomToken } from '../shared/index.ts';
import { request } from './stack.ts';

/** A platform app token chosen in advance, for stacks started with DEMO_PLATFORM_TOKEN. */
export const PLATFORM_TOKEN = `plat${randomToken(28)}`;

/** Calls a helpdesk route with a token in the `api_access_token` header (and a JSON body when given). */
export function desk(
  url: string,
  token: string | undefined,
  options: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  return request(url, {
    ...options,
    headers: { ...(token === undefined ? {} : { api_access_token: token }), ...options.headers },
  });
}
