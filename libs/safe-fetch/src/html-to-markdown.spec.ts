import { htmlToMarkdown } from './html-to-markdown';

describe('htmlToMarkdown', () => {
  it('keeps what a reader sees as Markdown: headings, emphasis, lists, links, code', () => {
    const html = [
      '<h1>Install</h1>',
      '<p>Run <code>npm ci</code> <strong>first</strong>, then read <a href="https://example.com/docs">the docs</a>.</p>',
      '<ul><li>one</li><li>two</li></ul>',
      '<pre><code>const x = 1;</code></pre>',
    ].join('');
    expect(htmlToMarkdown(html)).toBe(
      [
        '# Install',
        '',
        'Run `npm ci` **first**, then read [the docs](https://example.com/docs).',
        '',
        '-   one',
        '-   two',
        '',
        '```',
        'const x = 1;',
        '```',
      ].join('\n'),
    );
  });

  it('drops scripts, styles, iframes, forms and the head, with their content', () => {
    const html = `<html><head><title>T</title><style>body{color:red}</style><script>steal()</script></head>
      <body><p>visible</p><script>alert("x")</script><noscript>enable js</noscript>
      <iframe src="https://evil.example/"><p>frame text</p></iframe>
      <form action="/login"><label>Password</label><input name="p" value="hunter2"><button>Go</button></form>
      <template><p>hidden template</p></template></body></html>`;
    const markdown = htmlToMarkdown(html);
    expect(markdown).toBe('visible');
  });

  it('keeps the words of javascript: and data: links but not their targets, and drops inline images', () => {
    const html =
      '<p><a href="javascript:alert(1)">click</a> <a href="data:text/html,x">here</a> <a href="/rel">rel</a>' +
      ' <img alt="chart" src="data:image/png;base64,iVBORw0KGgo="> <img alt="logo" src="https://example.com/l.png"></p>';
    expect(htmlToMarkdown(html)).toBe('click here [rel](/rel) chart ![logo](https://example.com/l.png)');
  });
});
