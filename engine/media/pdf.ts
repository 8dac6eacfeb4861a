/**
 * Whether a PDF can be read, judged from its structure as PDF readers find it (ISO 32000-1 §7.5):
 * a file ends with `%%EOF` after its trailer, the trailer names the document's catalog (`/Root`),
 * and an encrypted file (`/Encrypt` in the trailer) cannot be read without its password. Nothing is
 * decompressed: a page count is given when the page objects are in plain sight, not when they are
 * packed in compressed object streams.
 */
export type PdfCheck = { readable: true; pages: number | undefined } | { readable: false; reason: string };

/** How far from the end `%%EOF` may be (readers accept trailing garbage; Acrobat looks at the last 1024 bytes). */
const EOF_WINDOW = 1024;

export function checkPdf(bytes: Buffer): PdfCheck {
  const tail = bytes.toString('latin1', Math.max(0, bytes.length - EOF_WINDOW));
  if (!tail.includes('%%EOF')) return { readable: false, reason: 'The PDF is cut short: it does not end with %%EOF.' };
  const text = bytes.toString('latin1');
  if (/\/Encrypt\b/.test(text))
    return { readable: false, reason: 'The PDF is encrypted; it cannot be read without its password.' };
  if (!/\/Root\s+\d+\s+\d+\s+R\b/.test(text) && !/\/Type\s*\/Catalog\b/.test(text)) {
    return { readable: false, reason: 'The PDF has no document catalog (/Root): it is damaged.' };
  }
  return { readable: true, pages: pageCount(text) };
}

/** How far apart /Type /Pages and its /Count may be in one page tree node (a node is a short dictionary). */
const DICTIONARY_REACH = 512;
const PAGES_COUNT = new RegExp(
  `/Type\\s*/Pages\\b[^>]{0,${DICTIONARY_REACH}}?/Count\\s+(\\d+)|/Count\\s+(\\d+)[^>]{0,${DICTIONARY_REACH}}?/Type\\s*/Pages\\b`,
  'g',
);

function pageCount(text: string): number | undefined {
  // Page objects: /Type /Page, not /Pages.
  const leaves = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  if (leaves > 0) return leaves;
  // Else the page tree's root says how many pages lie under it: the largest /Count of a /Pages node.
  // Each look ahead stays within one dictionary's reach (DICTIONARY_REACH), so a file of nothing but
  // "/Count 1 " is read in linear time, not once from every place a match could start.
  let largest: number | undefined;
  for (const match of text.matchAll(PAGES_COUNT)) {
    const count = Number(match[1] ?? match[2]);
    if (largest === undefined || count > largest) largest = count;
  }
  return largest;
}
