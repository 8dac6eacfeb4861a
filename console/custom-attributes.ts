/** Custom attributes as the contact panel edits them: one `key: value` a line. */
export function attributesText(attributes: Record<string, unknown>): string {
  return Object.entries(attributes)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/**
 * The lines back as attributes (string values; blank lines skipped); the line that has no key
 * before a colon is the error to show, and nothing is saved.
 */
export function parseAttributes(text: string): { attributes: Record<string, string> } | { badLine: string } {
  const attributes: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!key) return { badLine: line.trim() };
    attributes[key] = line.slice(colon + 1).trim();
  }
  return { attributes };
}
