import * as components from './component-css.ts';

/**
 * The app's styles, adopted into the shadow root as a constructable stylesheet (no <style> element
 * and no inline style attributes with text, so a strict CSP works). Directions use logical
 * properties, so right-to-left locales mirror.
 *
 * The design tokens, set on `.root` below; every rule (and every component's CSS) uses them:
 * - spacing `--s1`…`--s4`: 4, 8, 12, 16 px;
 * - type `--f-xs` 12, `--f-sm` 13, `--f-md` 15 (body), `--f-lg` 17 px (titles); inputs are 16 px
 *   (`--f-in`), below which iOS Safari zooms in on focus;
 * - radii `--r-sm` 8 (controls), `--r-md` 12 (bubbles, cards, menus), `--r-lg` 16 px (the panel);
 * - elevation `--e1` (the header, menus) and `--e2` (the panel, the preview card);
 * - motion `--m` .2 s (the panel and the preview card appearing), 0 s under `prefers-reduced-motion`.
 * Colours are `--p-<name>`, set by theme.ts for the light or dark theme (`--p-primary` is the site's).
 * Component CSS lives next to its component and joins through component-css.ts; the hosted
 * page's full-page layout is in widget/hosted/index.ts.
 */
const BASE_CSS = `
.root{--s1:4px;--s2:8px;--s3:12px;--s4:16px;--f-xs:12px;--f-sm:13px;--f-md:15px;--f-in:16px;--f-lg:17px;--r-sm:8px;--r-md:12px;--r-lg:16px;--e1:0 2px 6px var(--p-shadow);--e2:0 12px 40px var(--p-shadow);--m:.2s;
height:100%;font:var(--f-md)/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans JP",sans-serif;color:var(--p-text)}
@media (prefers-reduced-motion:reduce){.root{--m:0s}.dots span{animation:none}}
.panel{position:fixed;bottom:88px;right:20px;z-index:2147483000;width:380px;max-width:calc(100vw - 40px);height:560px;max-height:calc(100vh - 120px);
display:flex;flex-direction:column;background:var(--p-bg);color:var(--p-text);border-radius:var(--r-lg);box-shadow:var(--e2);overflow:hidden;animation:pop var(--m) ease-out}
@keyframes pop{from{opacity:0;transform:scale(.95)}}
.left .panel{right:auto;left:20px}
.header{flex:none;display:flex;align-items:center;gap:var(--s2);height:64px;padding-inline:var(--s4) var(--s2);background:var(--p-primary);color:var(--p-on-primary);border-bottom:1px solid var(--p-line);box-shadow:var(--e1)}
.logo{width:36px;height:36px;border-radius:50%}
.title{flex:1;min-width:0}
.title h2,.who{margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.title h2{font-size:var(--f-lg);font-weight:600;line-height:1.3;outline:none}
.who{font-size:var(--f-sm);line-height:20px}
.who .badge{margin-inline-end:var(--s1)}
button{font:inherit;cursor:pointer}
button:disabled{cursor:default}
.icon{background:none;border:0;color:inherit;min-width:36px;min-height:40px;border-radius:var(--r-sm);display:grid;place-items:center}
[dir=rtl] .svg-icon.back{transform:scaleX(-1)}
.icon:disabled{opacity:.55}
.more{position:relative}
.messages{flex:1;overflow-y:auto;padding:var(--s3) 14px;display:flex;flex-direction:column;gap:2px}
.message{max-width:85%;display:flex;flex-direction:column;align-items:flex-start}
.message.first{margin-top:10px}
.greeting{max-width:85%;margin-top:10px;align-self:flex-start}
.message.mine{align-self:flex-end;align-items:flex-end}
.meta{margin:0 var(--s1) 2px;font-size:var(--f-xs);color:var(--p-muted)}
.bubble{padding:var(--s2) var(--s3);border-radius:var(--r-md);background:var(--p-bubble);color:var(--p-text)}
.mine .bubble{background:var(--p-primary);color:var(--p-on-primary)}
.avatar{display:inline-grid;place-items:center;width:22px;height:22px;margin-inline-end:6px;border-radius:50%;background:var(--p-primary);color:var(--p-on-primary);font-size:10px;font-weight:600}
.human .bubble{background:var(--p-bg);border:1px solid var(--p-border)}
.status{margin:2px var(--s1) 0;font-size:var(--f-xs);color:var(--p-muted);display:flex;gap:var(--s2)}
.notice{align-self:center;margin:10px 0;font-size:var(--f-sm);color:var(--p-muted);text-align:center}
.text{overflow-wrap:anywhere}
.text p{margin:0;white-space:pre-wrap}
.typing{margin:var(--s2) 0 0;padding:10px var(--s3);align-self:flex-start;background:var(--p-bubble);border-radius:var(--r-md)}
.dots{display:flex;gap:var(--s1)}
.dots span{width:6px;height:6px;border-radius:50%;background:var(--p-muted);animation:blink 1.2s infinite}
.dots span:nth-child(2){animation-delay:.2s}.dots span:nth-child(3){animation-delay:.4s}
@keyframes blink{0%,80%,100%{opacity:.3}40%{opacity:1}}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.error,.offline{margin:0;padding:var(--s2) 14px;background:var(--p-errorBg);color:var(--p-errorText);font-size:14px}
.composer{display:flex;align-items:flex-end;gap:var(--s2);padding:10px;border-top:1px solid var(--p-border)}
textarea,input{flex:1;resize:none;font:inherit;font-size:var(--f-in);line-height:1.4;padding:var(--s2) 10px;border:1px solid var(--p-border);border-radius:var(--r-sm);color:var(--p-text);background:var(--p-bg)}
textarea{box-sizing:border-box;max-height:calc(7em + 18px);overflow-y:auto}
textarea:disabled,input:disabled,.primary:disabled{background:var(--p-offBg);color:var(--p-offText)}
.primary{font-weight:600;padding:var(--s2) var(--s4);border:0;border-radius:var(--r-sm);background:var(--p-primary);color:var(--p-on-primary)}
.wide{width:100%}
.link{background:none;border:0;padding:0;color:inherit;text-decoration:underline}
.ended{padding:14px;display:flex;flex-direction:column;gap:10px;overflow-y:auto;border-top:1px solid var(--p-border)}
.ended>p{margin:0;text-align:center;color:var(--p-muted)}
:focus-visible,.attach:has(:focus-visible){outline:2px solid var(--p-ring);outline-offset:2px}
textarea:focus-visible,input:focus-visible{outline:0;border-color:var(--p-ring);box-shadow:0 0 0 1px var(--p-ring)}
.header :focus-visible{outline-color:var(--p-on-primary);outline-offset:-2px}
@media (max-width:480px){
.panel:not(.full){inset:0;width:100%;max-width:none;height:var(--p-viewport-height,100%);max-height:none;border-radius:0;top:var(--p-viewport-top,0);bottom:auto}
}
`;

// Component CSS: add a line to component-css.ts (not here).
export const APP_CSS = BASE_CSS + Object.values(components).join('');
