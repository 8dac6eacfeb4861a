import type { ComponentChildren } from 'preact';
import { parseBlocks, type Inline } from './markdown-lite.ts';

function renderInline(nodes: readonly Inline[]): ComponentChildren {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'strong':
        return <strong key={index}>{renderInline(node.children)}</strong>;
      case 'em':
        return <em key={index}>{renderInline(node.children)}</em>;
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'link':
        return (
          <a key={index} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInline(node.children)}
          </a>
        );
    }
  });
}

/**
 * A message's text with markdown-lite formatting, built as elements (never as HTML), so a message
 * cannot inject markup: the widget and the agent console show it alike.
 */
export function RichText({ text }: { text: string }) {
  return (
    <div class="text" dir="auto">
      {parseBlocks(text).map((block, index) => {
        if (block.kind === 'paragraph') return <p key={index}>{renderInline(block.children)}</p>;
        const items = block.items.map((item, itemIndex) => <li key={itemIndex}>{renderInline(item)}</li>);
        return block.ordered ? <ol key={index}>{items}</ol> : <ul key={index}>{items}</ul>;
      })}
    </div>
  );
}
