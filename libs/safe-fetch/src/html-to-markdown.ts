import TurndownService from 'turndown';

/**
 * Elements dropped with their content: code and styling (script, style, noscript, template),
 * embedded documents and plug-ins (iframe, frame, object, embed), forms and their controls,
 * and the document head, none of which is text a reader of the page sees.
 */
const DROPPED = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'head',
  'title',
  'meta',
  'link',
  'svg',
  'canvas',
] as const;

/** The DOM members the rules read (turndown's types name DOM classes this project does not load). */
interface ElementLike {
  readonly nodeName: string;
  getAttribute(name: string): string | null;
}

const LINK_SCHEMES = /^(https?|mailto):/i;
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

const converter = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
  .remove([...DROPPED])
  // A `javascript:` or `data:` link in untrusted content is a trap for whoever renders the
  // Markdown later: keep the words, drop the target. Relative and http(s)/mailto links stay.
  .addRule('unsafe-links', {
    filter: (node) => {
      const element = node as unknown as ElementLike;
      const href = element.nodeName === 'A' ? element.getAttribute('href')?.trim() : undefined;
      return href !== undefined && ANY_SCHEME.test(href) && !LINK_SCHEMES.test(href);
    },
    replacement: (content) => content,
  })
  // Inline images (base64 data URIs) would put megabytes of noise into the knowledge base.
  .addRule('inline-images', {
    filter: (node) => {
      const element = node as unknown as ElementLike;
      return element.nodeName === 'IMG' && /^\s*data:/i.test(element.getAttribute('src') ?? '');
    },
    replacement: (_content, node) => (node as unknown as ElementLike).getAttribute('alt') ?? '',
  });

/** A web page as Markdown: headings, lists, links, code and tables' text, without the page's machinery. */
export function htmlToMarkdown(html: string): string {
  return converter.turndown(html).trim();
}
