import { z } from 'zod';

/**
 * The fields every helpdesk request shares: ids in paths, names, locales, e-mail addresses and
 * free attributes (Chatwoot-shaped, shared/reference/chatwoot-application-api.md). Ids are integers.
 */

export const Role = z.enum(['administrator', 'agent']);

/** An integer id in a path. */
export const IdParam = z.coerce.number().int().min(1).max(2_147_483_647);
export const AccountParams = z.strictObject({ account_id: IdParam });
export const IdParams = z.strictObject({ id: IdParam });
export const AccountBotParams = z.strictObject({ account_id: IdParam, id: IdParam });

export const Name = z.string().trim().min(1).max(255);
export const Locale = z.string().regex(/^[a-z]{2}(_[A-Z]{2})?$/, 'a locale such as en or pt_BR');
export const Attributes = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'at most 16 KB');
export const Email = z.email().max(320);
export const OutgoingUrl = z.url({ protocol: /^https?$/ }).max(2000);
