/**
 * The app's styles, adopted into the shadow root as a constructable stylesheet (no <style> element
 * and no inline style attributes with text, so a strict CSP works). Colours come from custom
 * properties set by theme.ts; directions use logical properties, so right-to-left locales mirror.
 */
import * as components from './component-css.ts';

const BASE_CSS = `
.root{height:100%;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans JP",sans-serif;color:var(--p-text)}
.panel{position:fixed;bottom:88px;right:20px;z-index:2147483000;width:380px;max-width:calc(100vw - 40px);height:560px;max-height:calc(100vh - 120px);
display:flex;flex-direction:column;background:var(--p-bg);color:var(--p-text);border-radius:14px;box-shadow:0 10px 40px var(--p-shadow);overflow:hidden}
.left .panel{right:auto;left:20px}
.panel.full{position:static;width:100%;max-width:none;height:100%;max-height:none;border-radius:0;box-shadow:none}
.header{display:flex;align-items:center;gap:4px;padding:12px 12px 12px 16px;background:var(--p-primary);color:var(--p-on-primary)}
.title{flex:1;min-width:0}
.title h2{margin:0;font-size:16px;font-weight:600;outline:none}
.subtitle{margin:0;font-size:13px}
button{font:inherit;cursor:pointer}
button:disabled{cursor:default}
.icon{background:none;border:0;color:inherit;min-width:36px;min-height:36px;border-radius:8px;display:grid;place-items:center}
[dir=rtl] .svg-icon.back{transform:scaleX(-1)}
.icon:disabled{opacity:.6}
.messages{flex:1;overflow-y:auto;padding:12px 14px;display:flex;flex-direction:column;gap:2px}
.message{max-width:85%;display:flex;flex-direction:column;align-items:flex-start}
.message.first{margin-top:10px}
.greeting{max-width:85%;margin-top:10px;align-self:flex-start}
.message.mine{align-self:flex-end;align-items:flex-end}
.meta{margin:0 4px 2px;font-size:12px;color:var(--p-muted)}
.bubble{padding:8px 12px;border-radius:12px;background:var(--p-bubble);color:var(--p-text)}
.mine .bubble{background:var(--p-primary);color:var(--p-on-primary)}
.avatar{display:inline-grid;place-items:center;width:22px;height:22px;margin-inline-end:6px;border-radius:50%;background:var(--p-primary);color:var(--p-on-primary);font-size:10px;font-weight:600}
.human .bubble{background:var(--p-bg);border:1px solid var(--p-border)}
.status{margin:2px 4px 0;font-size:12px;color:var(--p-muted);display:flex;gap:8px}
.notice{align-self:center;margin:10px 0;font-size:13px;color:var(--p-muted);text-align:center}
.text{overflow-wrap:anywhere}
.text p{margin:0;white-space:pre-wrap}
.typing{margin:8px 0 0;padding:10px 12px;align-self:flex-start;background:var(--p-bubble);border-radius:12px}
.dots{display:flex;gap:4px}
.dots span{width:6px;height:6px;border-radius:50%;background:var(--p-muted);animation:blink 1.2s infinite}
.dots span:nth-child(2){animation-delay:.2s}.dots span:nth-child(3){animation-delay:.4s}
@keyframes blink{0%,80%,100%{opacity:.3}40%{opacity:1}}
@media (prefers-reduced-motion:reduce){.dots span{animation:none}}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.error,.offline{margin:0;padding:8px 14px;background:var(--p-errorBg);color:var(--p-errorText);font-size:14px}
.composer{display:flex;align-items:flex-end;gap:8px;padding:10px;border-top:1px solid var(--p-border)}
textarea,input{flex:1;resize:none;font:inherit;font-size:16px;line-height:1.4;padding:8px 10px;border:1px solid var(--p-border);border-radius:8px;color:var(--p-text);background:var(--p-bg)}
textarea{box-sizing:border-box;max-height:calc(7em + 18px);overflow-y:auto}
.primary{font-weight:600;padding:8px 16px;border:0;border-radius:8px;background:var(--p-primary);color:var(--p-on-primary)}
.primary:disabled{opacity:.6}
.wide{width:100%}
.link{background:none;border:0;padding:0;color:inherit;text-decoration:underline}
.link.end{align-self:center;margin:4px;font-size:13px;color:var(--p-muted)}
.ended{padding:14px;display:flex;flex-direction:column;gap:10px;overflow-y:auto;border-top:1px solid var(--p-border)}
.ended>p{margin:0;text-align:center;color:var(--p-muted)}
:focus-visible,.attach:focus-within{outline:3px solid #ffbf47;outline-offset:2px}
@media (max-width:480px){
.panel:not(.full){inset:0;width:100%;max-width:none;height:var(--p-viewport-height,100%);max-height:none;border-radius:0;top:var(--p-viewport-top,0);bottom:auto}
}
`;

export const APP_CSS = BASE_CSS + Object.values(components).join('');
