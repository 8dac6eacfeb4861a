import { describe, expect, it } from 'vitest';
import { contentDisposition } from './serve.ts';
import { safeFileName } from './file-names.ts';

/** Names a hostile sender gives a file, and what may never reach a header, a folder or the screen. */
describe('a hostile file name', () => {
  it.each([
    ['header splitting', 'a.png\r\nSet-Cookie: s=1\r\n\r\n<script>', 'image/png'],
    ['a quote and parameters', 'x.png"; filename*=UTF-8\'\'evil.html; x="', 'image/png'],
    ['path traversal', '../../../../etc/passwd.png', 'image/png'],
    ['a Windows path', '..\\..\\boot.ini.pdf', 'application/pdf'],
    ['a right-to-left override', 'invoice\u202efdp.exe', 'application/pdf'],
    ['an HTML name for a photo', '<img src=x onerror=alert(1)>.html', 'image/jpeg'],
    ['nothing but dots', '....', 'image/gif'],
  ] as const)('%s: no control character, quote, backslash or folder, and its checked extension', (_, raw, type) => {
    const name = safeFileName(raw, type);
    expect(name).not.toMatch(/[\u0000-\u001f\u007f"\\/\u202a-\u202e]/);
    expect(name.startsWith('.')).toBe(false);
    expect(name.endsWith(`.${type === 'image/jpeg' ? 'jpg' : type.split('/')[1]}`)).toBe(true);
    const header = contentDisposition('attachment', name);
    // One header value: no line break, a quoted name nothing closes early, and the encoded name whole.
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[^\s"';]*$/);
    expect(header.split('"').length).toBe(3);
  });
});
