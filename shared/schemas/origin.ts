import { z } from 'zod';

/** An origin as browsers send it: scheme, host and port, no path; normalised (`https://A.example:443` → `https://a.example`). */
export const Origin = z
  .url({
    protocol: /^https?$/,
    error: (issue) => `${JSON.stringify(issue.input)} is not an http(s) origin (scheme://host[:port])`,
  })
  .refine(
    (text) => {
      // Runs after a failed URL check too; that failure has been reported already.
      if (!URL.canParse(text)) return true;
      const url = new URL(text);
      return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    },
    { error: (issue) => `${JSON.stringify(issue.input)} is not an origin (scheme://host[:port], no path)` },
  )
  .transform((text) => (URL.canParse(text) ? new URL(text).origin : text));

/**
 * A comma-separated list of origins; blanks between commas are ignored, so `''` is no origin.
 *
 * @example
 * OriginList.parse('https://shop.example, http://localhost:3000') // ['https://shop.example', 'http://localhost:3000']
 */
export const OriginList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(Origin));
