/** The Reports page's own sheet, adopted when the page's chunk loads (the first screen never pays for it). */
export const REPORTS_CSS = `
.reports{grid-area:list / list / list / side;overflow:auto;padding:1rem 1.25rem;display:grid;gap:1rem;align-content:start}
.reports h1{margin:0;font-size:1.3rem}.reports h2{margin:0 0 .5rem;font-size:1.1rem}
.reports .controls{display:flex;gap:1rem;flex-wrap:wrap;align-items:end}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
.chart{margin:0;background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:.75rem}
.chart svg{width:100%;height:auto;display:block}
.chart figcaption{display:flex;gap:.75rem;flex-wrap:wrap;align-items:baseline;margin-top:.4rem}
.axes line{stroke:var(--line);stroke-width:1}.axes text{fill:var(--muted);font-size:10px}
.bar.one,.key.one::before{fill:var(--accent);background:var(--accent)}
.bar.two,.key.two::before{fill:var(--waiting);background:var(--waiting)}
.bar.three,.key.three::before{fill:#2e7d4f;background:#2e7d4f}
.line path{fill:none;stroke-width:2}.line.one{stroke:var(--accent);fill:var(--accent)}.line.two{stroke:var(--waiting);fill:var(--waiting)}.line.three{stroke:#2e7d4f;fill:#2e7d4f}
.legend{display:flex;gap:.75rem;flex-wrap:wrap;color:var(--muted)}
.key::before{content:"";display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
.downloads{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:.75rem}
.downloads ul{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}
.downloads li{display:flex;gap:.75rem;flex-wrap:wrap;align-items:center}
.downloads .kind{min-width:11rem;font-weight:600}
`;
