import { describe, expect, it } from 'vitest';
import { addFiles, attachForm, MAX_FILES } from './attach-files.ts';

const file = (name: string, size = 3) => new File([new Uint8Array(size)], name, { type: 'image/png', lastModified: 1 });

describe('files a person attaches', () => {
  it('keeps each file once, in the order picked, and no more than the BFF takes with one message', () => {
    const photo = file('a.png');
    expect(addFiles([photo], [file('a.png'), file('b.png')]).map((kept) => kept.name)).toEqual(['a.png', 'b.png']);
    const many = Array.from({ length: 20 }, (_, index) => file(`${index}.png`));
    expect(addFiles([], many)).toHaveLength(MAX_FILES);
  });

  it("writes Chatwoot's form: the caption when there is one, private, echo_id and attachments[]", () => {
    const form = attachForm([file('a.png'), file('b.png')], 'Your label', true, 'e-1');
    expect(form.get('content')).toBe('Your label');
    expect(form.get('private')).toBe('true');
    expect(form.get('echo_id')).toBe('e-1');
    expect(form.getAll('attachments[]').map((entry) => (entry as File).name)).toEqual(['a.png', 'b.png']);
    expect(attachForm([file('a.png')], '', false, 'e-2').has('content')).toBe(false);
  });
});
