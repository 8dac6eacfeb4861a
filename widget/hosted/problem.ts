import { LOCALES, type Locale } from '../api.ts';

/**
 * The hosted chat's error page: what a customer sees at a `/chat` address that cannot open a chat
 * (issue 16: it was a blank page), in the browser's language, with one technical line for the
 * site's owner. The server marks the problems it can tell (`<meta name="parley-problem">`, with a
 * 400 or 404); a bare `/chat` with no bridge to send a site key is told apart here.
 */
export type PageProblem = 'missing_site_key' | 'malformed_site_key' | 'unknown_site_key';

const TECHNICAL: Record<PageProblem, string> = {
  missing_site_key:
    'No site_key in the address: link to /chat?site_key=pk_…, or send an init message from the app or the framing page.',
  malformed_site_key:
    'The site_key in the address is not a site key (pk_test_ or pk_live_, then 16–64 letters or digits).',
  unknown_site_key:
    'The site_key in the address is unknown or was revoked: copy a current one from the inbox settings.',
};

const CSS = `
.problem{box-sizing:border-box;max-width:36rem;margin:0 auto;padding:15vh 24px 24px;color:CanvasText;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans JP",sans-serif}
.problem h1{margin:0 0 12px;font-size:22px;line-height:1.3}
.problem p{margin:0 0 12px}
.owner{margin-top:32px;padding-top:12px;border-top:1px solid GrayText;font-size:14px}
.owner code{display:block;margin-top:4px;font:13px/1.5 ui-monospace,monospace;overflow-wrap:anywhere}
`;

/** The problem the server marked on the page, if any. */
export function markedProblem(): PageProblem | undefined {
  const marked = document.querySelector('meta[name="parley-problem"]')?.getAttribute('content');
  return marked === 'malformed_site_key' || marked === 'unknown_site_key' ? marked : undefined;
}

/** The browser's first language the widget speaks, else English. */
function browserLocale(): Locale {
  for (const language of navigator.languages ?? [navigator.language]) {
    const base = language.toLowerCase().split(/[-_]/)[0];
    const found = LOCALES.find((locale) => locale === base);
    if (found) return found;
  }
  return 'en';
}

/**
 * Draws the error page into the chat's shadow root, and names the document after it. Its words in
 * six languages are a chunk of their own, so that the chat page's script stays small.
 */
export async function showProblem(root: ShadowRoot, problem: PageProblem): Promise<void> {
  const locale = browserLocale();
  const text = (await import('../app/i18n/page-problems.ts')).PAGE_PROBLEMS[locale];
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];

  const element = <K extends keyof HTMLElementTagNameMap>(name: K, words: string, className?: string) => {
    const made = document.createElement(name);
    made.textContent = words;
    if (className) made.className = className;
    return made;
  };
  const main = document.createElement('main');
  main.className = 'problem';
  const owner = element('p', text.forOwner + ' ', 'owner');
  const technical = element('code', TECHNICAL[problem]);
  technical.lang = 'en';
  technical.dir = 'ltr';
  owner.append(technical);
  main.append(
    element('h1', text.title),
    element('p', problem === 'unknown_site_key' ? text.unavailable : text.incomplete),
    owner,
  );
  root.replaceChildren(main);

  document.documentElement.lang = locale;
  document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
  document.title = text.title;
}
