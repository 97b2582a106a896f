import { useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './markdown-parse';

function inlines(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'strong':
        return <strong key={index}>{inlines(node.children)}</strong>;
      case 'em':
        return <em key={index}>{inlines(node.children)}</em>;
      case 'link':
        return node.href === null ? (
          <span key={index}>{inlines(node.children)}</span>
        ) : (
          <a key={index} href={node.href} target="_blank" rel="noopener noreferrer">
            {inlines(node.children)}
          </a>
        );
    }
  });
}

function blocks(nodes: Block[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case 'heading': {
        // Inside a page section: h1 and h2 of the text sit under the section's own heading.
        const Tag = `h${Math.min(6, node.level + 2)}` as 'h3' | 'h4' | 'h5' | 'h6';
        return <Tag key={index}>{inlines(node.children)}</Tag>;
      }
      case 'paragraph':
        return <p key={index}>{inlines(node.children)}</p>;
      case 'list': {
        const items = node.items.map((item, i) => <li key={i}>{blocks(item)}</li>);
        return node.ordered ? <ol key={index}>{items}</ol> : <ul key={index}>{items}</ul>;
      }
      case 'quote':
        return <blockquote key={index}>{blocks(node.blocks)}</blockquote>;
      case 'code':
        return (
          <pre key={index} className="code-block">
            {node.text}
          </pre>
        );
      case 'rule':
        return <hr key={index} />;
    }
  });
}

/** Markdown drawn as React elements (ui/markdown-parse.ts): the text's tags stay text, links only to safe addresses. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const tree = useMemo(() => parseMarkdown(source), [source]);
  return <div className={className ? `markdown ${className}` : 'markdown'}>{blocks(tree)}</div>;
}
