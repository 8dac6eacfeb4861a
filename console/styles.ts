/**
 * The console's styles, one sheet adopted by the document (no inline style for the page's CSP to
 * allow). Colours meet 4.5:1 in both themes; the theme follows the system.
 */
export const CONSOLE_CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--panel:#fff;--text:#1d2330;--muted:#4a5565;--line:#c9d0da;--accent:#1f3a5f;--on-accent:#fff;
--customer:#eef1f5;--ai:#e8f0fb;--person:#e6f4ea;--note:#fff4d6;--badge:#e3e7ee;--waiting:#8a4b00;--waiting-bg:#ffe9c7;--error:#8a1c12;--error-bg:#fdecea;--focus:#0b57d0;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
@media (prefers-color-scheme:dark){:root{--bg:#101317;--panel:#181c22;--text:#e8ebf0;--muted:#aab3c0;--line:#3a414c;--accent:#9cc3ff;--on-accent:#0d1b2e;
--customer:#262b33;--ai:#1d2a3d;--person:#1c3325;--note:#3a3116;--badge:#2b313a;--waiting:#ffcf8a;--waiting-bg:#3d2b10;--error:#ffb4ab;--error-bg:#3b1513;--focus:#9cc3ff}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh}
button,input,select,textarea{font:inherit;color:inherit}
button{cursor:pointer;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.4rem .75rem}
button:disabled{cursor:default;opacity:.6}
button.primary{background:var(--accent);color:var(--on-accent);border-color:var(--accent);font-weight:600}
button.link{border:0;background:none;padding:0;color:inherit;text-decoration:underline}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted{color:var(--muted)}
.mono{font-family:ui-monospace,monospace;word-break:break-all}
.error{color:var(--error);background:var(--error-bg);padding:.5rem .75rem;border-radius:6px;margin:.5rem 0}
.sign-in{display:grid;place-items:center;min-height:100vh;padding:1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:12px;padding:1.5rem;width:min(24rem,100%);display:grid;gap:.85rem}
.card h1{margin:0;font-size:1.3rem}
label{display:grid;gap:.25rem}
label.check{display:flex;align-items:center;gap:.4rem}
input,select,textarea{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.45rem .6rem}
.shift{display:grid;grid-template-columns:20rem 1fr 17rem;grid-template-rows:auto auto 1fr;grid-template-areas:"top top top" "banner banner banner" "list main side";height:100vh}
.top{grid-area:top;display:flex;align-items:center;gap:1rem;padding:.5rem 1rem;background:var(--panel);border-bottom:1px solid var(--line);flex-wrap:wrap}
.top p{margin:0}.brand{font-weight:700;margin-right:auto!important}
.pages{display:flex;gap:.4rem}.pages [aria-current=page]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.connection{font-size:.85rem;color:var(--muted)}.connection.live::before{content:"● ";color:#1e7d3a}
.banner{grid-area:banner;margin:.5rem 1rem}
.call-ring{display:flex;gap:.5rem;align-items:center;padding:.5rem;border:1px solid currentColor;border-radius:.5rem}.call-ring p{margin:0 auto 0 0}
.offline{color:var(--text);background:var(--error-bg);padding:.5rem .75rem;border-radius:6px;font-weight:600}
.shortcuts{background:var(--panel);color:var(--text);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;min-width:18rem}
.shortcuts h2{margin:0 0 .5rem;font-size:1.1rem}.shortcuts dl{margin:0 0 .75rem;display:grid;gap:.3rem}.shortcuts dl div{display:flex;gap:.75rem}
.shortcuts dt{min-width:2rem}.shortcuts dd{margin:0}kbd{border:1px solid var(--line);border-radius:4px;padding:0 .35rem;font-family:ui-monospace,monospace}
.list{grid-area:list;border-right:1px solid var(--line);overflow:auto;background:var(--panel)}
.filters{padding:.75rem;display:grid;gap:.5rem;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--panel)}
.tabs{display:flex;gap:.25rem}.tabs button{flex:1;white-space:nowrap;padding:.4rem .5rem}.tabs button[aria-pressed=true]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.count{font-size:.8rem;opacity:.9}
.status-filter{grid-template-columns:auto 1fr;align-items:center;gap:.5rem}
.list ul{list-style:none;margin:0;padding:0}
.item{display:grid;grid-template-columns:1fr auto;gap:.15rem .5rem;width:100%;text-align:left;border:0;border-bottom:1px solid var(--line);border-radius:0;padding:.7rem .9rem}
.item.current{background:var(--ai)}
.who{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.when{font-size:.85rem;color:var(--muted)}
.badge{font-size:.75rem;padding:.05rem .45rem;border-radius:99px;background:var(--badge);justify-self:end}
.badge.open{background:var(--waiting-bg);color:var(--waiting);font-weight:600}
.unread{justify-self:end;background:var(--accent);color:var(--on-accent);border-radius:99px;font-size:.75rem;padding:0 .45rem;font-weight:700}
.empty{padding:1rem;color:var(--muted)}.placeholder{text-align:center;margin-top:20vh}
.main{grid-area:main;display:flex;flex-direction:column;min-width:0;min-height:0}
.back{display:none;margin:.5rem 1rem 0;align-self:flex-start}
.conversation{display:flex;flex-direction:column;flex:1;min-height:0}
.conversation-head{display:flex;justify-content:space-between;gap:1rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--panel);flex-wrap:wrap}
.conversation-head h2{margin:0;font-size:1.15rem}.conversation-head p{margin:.1rem 0 0}
.actions{display:flex;gap:.5rem;flex-wrap:wrap}
.transcript{flex:1;overflow:auto;padding:1rem;display:flex;flex-direction:column;gap:.6rem}
.message{max-width:75%;border-radius:10px;padding:.5rem .75rem;background:var(--customer)}
.message p{margin:0}.message .text{white-space:pre-wrap;overflow-wrap:anywhere}
.message .text p+p{margin-top:.4rem}.message .text ul,.message .text ol{margin:.25rem 0;padding-left:1.25rem}
.message.customer{align-self:flex-start}
.message.ai{align-self:flex-end;background:var(--ai)}
.message.person{align-self:flex-end;background:var(--person)}
.message.note{align-self:flex-end;background:var(--note);border:1px dashed var(--line)}
.files{display:flex;flex-wrap:wrap;gap:.4rem;margin:.3rem 0}
.heard{flex-basis:100%;font-style:italic}
.thumb img{display:block;max-width:240px;max-height:240px;width:auto;height:auto;border-radius:8px}
.thumb-wait{display:block;width:160px;height:120px;border-radius:8px;background:var(--line)}
.chip{display:inline-flex;gap:.4rem;align-items:center;padding:.3rem .7rem;border:1px solid var(--line);border-radius:999px;color:inherit}
.meta{display:flex;gap:.5rem;align-items:baseline;font-size:.8rem;color:var(--muted);margin-bottom:.15rem!important}
.author{font-weight:600;color:var(--text)}
.tag{font-weight:600}
.seen{font-size:.75rem;color:var(--muted);text-align:right;margin-top:.2rem!important}
.notice{align-self:center;font-size:.85rem;color:var(--muted);margin:0;text-align:center}
.notice.team{font-style:italic;border:1px dashed var(--line);border-radius:6px;padding:.2rem .6rem}
.typing{font-size:.85rem;color:var(--muted);margin:0}
.composer{border-top:1px solid var(--line);padding:.75rem 1rem;background:var(--panel);display:grid;gap:.5rem;position:relative}
.composer.note textarea{background:var(--note)}
.composer textarea{width:100%;resize:vertical;min-height:4.5rem}
.composer-actions{display:flex;justify-content:space-between;align-items:center}
.composer.dropping{outline:2px dashed var(--accent);outline-offset:-4px}
.attach-tray{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;margin:0;padding:0}.attach-tray img{width:48px;height:48px;object-fit:cover;border-radius:4px}
.attach-button{cursor:pointer}.attach-button:focus-within{outline:2px solid var(--accent)}
.canned{list-style:none;margin:0;padding:0;border:1px solid var(--line);border-radius:6px;max-height:12rem;overflow:auto}
.canned li{padding:.4rem .6rem;cursor:pointer}.canned li[aria-selected=true]{background:var(--accent);color:var(--on-accent)}
.sidebar{grid-area:side;border-left:1px solid var(--line);padding:1rem;overflow:auto;background:var(--panel)}
.sidebar h2{margin:0 0 .75rem;font-size:1.05rem}.sidebar h3{font-size:.95rem;margin:1.25rem 0 .5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem .75rem;margin:0}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
dd a{color:inherit}
.earlier{list-style:none;padding:0;margin:0;display:grid;gap:.35rem}
.search{width:100%}.selects{display:grid;gap:.35rem}
.line{grid-column:1/-1;font-size:.85rem;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
mark{background:var(--waiting-bg);color:var(--text);font-weight:700}
.row-tags{display:flex;flex-wrap:wrap;gap:.25rem;font-size:.75rem;min-width:0}
.owner{color:var(--muted)}.label{border:1px solid var(--line);border-radius:99px;padding:0 .4rem}
.more{margin:.75rem auto;display:block}
.tools{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;padding:.5rem 1rem;border-bottom:1px solid var(--line);background:var(--panel)}
.tools p{margin:0}label.inline{display:flex;align-items:center;gap:.4rem}
.menu{position:relative}.menu summary{cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:.4rem .75rem}
.menu-body{position:absolute;z-index:2;top:110%;left:0;min-width:13rem;display:grid;gap:.35rem;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.5rem}
.contact-form{display:grid;gap:.5rem;margin-bottom:1rem}.contact-form p{margin:0}
.switch{display:inline-flex;align-items:center;gap:.4rem}.knob{width:2rem;height:1.1rem;border-radius:99px;border:1px solid var(--muted);position:relative}
.knob::after{content:"";position:absolute;top:.1rem;left:.1rem;width:.8rem;height:.8rem;border-radius:50%;background:var(--muted)}
.switch[aria-checked=true] .knob{background:var(--accent);border-color:var(--accent)}.switch[aria-checked=true] .knob::after{left:auto;right:.1rem;background:var(--on-accent)}
@media (max-width:1100px){.shift{grid-template-columns:18rem 1fr;grid-template-areas:"top top" "banner banner" "list main"}.sidebar{display:none}}
@media (max-width:760px){.shift{grid-template-columns:1fr;grid-template-areas:"top" "banner" "list"}.main{display:none}
.shift.has-selection{grid-template-areas:"top" "banner" "main"}.shift.has-selection .list{display:none}.shift.has-selection .main{display:flex}.back{display:inline}
.message{max-width:90%}}
`;
