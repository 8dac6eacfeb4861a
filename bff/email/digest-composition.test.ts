import { describe, expect, it } from 'vitest';
import { composeDigest } from './digest-composition.ts';

const shop = { shopName: 'Ann & <Bob>', shopColor: 'red;background:url(x)', shopLogoUrl: 'javascript:alert(1)' };
const answer = (id: number, text: string) => ({
  id,
  author: 'human' as const,
  authorName: 'Eve "the agent"',
  text,
  createdAt: new Date(0),
});

describe('the words of a digest', () => {
  it('escapes everything the shop, the people and the AI wrote in the HTML, and keeps the text as written', () => {
    const email = composeDigest(shop, [answer(1, '<script>alert(1)</script> & more')], {
      continueUrl: 'https://chat.example/chat?site_key=pk_test_x#continue="><b>',
      repliesTaken: true,
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    expect(email.html).toContain('Ann &amp; &lt;Bob&gt;');
    expect(email.html).toContain('Eve &quot;the agent&quot;');
    expect(email.html).toContain('#continue=&quot;&gt;&lt;b&gt;');
    expect(email.html).not.toContain('javascript:');
    expect(email.html).not.toContain('url(x)');
    expect(email.text).toContain('<script>alert(1)</script> & more');
    expect(email.subject).toBe('New reply from Ann & <Bob>');
  });

  it('counts the answers in the subject and says a reply by e-mail is taken only when it is', () => {
    const email = composeDigest({ ...shop, shopName: 'Shop' }, [answer(1, 'One'), answer(2, 'Two')], {
      continueUrl: undefined,
      repliesTaken: false,
    });
    expect(email.subject).toBe('2 new replies from Shop');
    expect(email.text).not.toContain('answer this e-mail');
    expect(email.text).not.toContain('Continue the conversation');
  });
});
