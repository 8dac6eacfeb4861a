/** Markdown-lite lives in `shared/` so that the widget and the agent console render a message alike. */
export * from '../../../../shared/markdown-lite.ts';
