import { MIMEType } from 'node:util';
import { type FetchResult } from './contract/safe-fetch.types';

type Fetched = Pick<FetchResult, 'body' | 'contentType'>;

/** The Content-Type parsed by Node's WHATWG MIME parser; null when absent or malformed. */
function mimeOf(contentType: string): MIMEType | null {
  try {
    return new MIMEType(contentType);
  } catch {
    return null;
  }
}

/**
 * The body as text, decoded with the charset the Content-Type names (any WHATWG encoding label:
 * `ISO-8859-1`, `windows-1252`, `shift_jis`…), UTF-8 when it names none or one no decoder knows.
 * Bytes invalid in the encoding become U+FFFD rather than failing the fetch.
 */
export function bodyText({ body, contentType }: Fetched): string {
  const label = mimeOf(contentType)?.params.get('charset');
  let decoder = new TextDecoder('utf-8');
  if (label) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      // An unknown label: UTF-8, as a browser falls back to its default.
    }
  }
  return decoder.decode(body);
}

/** Whether the body is an HTML page (to turn into Markdown) rather than text to keep as it is. */
export function isHtml({ contentType }: Pick<Fetched, 'contentType'>): boolean {
  const essence = mimeOf(contentType)?.essence;
  return essence === 'text/html' || essence === 'application/xhtml+xml';
}
