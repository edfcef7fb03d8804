import { parseRetryAfter, redactUrl } from './http-json';
import { modelNameMatches } from './model-client';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP dates, clamped to [1 s, 60 s]', () => {
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfter('0', now)).toBe(1_000);
    expect(parseRetryAfter('3600', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(1_000);
  });

  it('falls back to 5 s when absent or unparseable', () => {
    for (const value of [undefined, null, '', 'soon', '-5']) expect(parseRetryAfter(value, now)).toBe(5_000);
  });
});

describe('redactUrl', () => {
  it('drops credentials and trailing slashes', () => {
    expect(redactUrl('http://user:secret@ollama:11434/')).toBe('http://ollama:11434');
    expect(redactUrl('https://llm.example.com/v1')).toBe('https://llm.example.com/v1');
  });
});

describe('modelNameMatches', () => {
  it('treats an untagged name as :latest, and nothing else as equal', () => {
    expect(modelNameMatches('nomic-embed-text', ['nomic-embed-text:latest'])).toBe(true);
    expect(modelNameMatches('nomic-embed-text:latest', ['nomic-embed-text'])).toBe(true);
    expect(modelNameMatches('nomic-embed-text:v1.5', ['nomic-embed-text:latest'])).toBe(false);
    expect(modelNameMatches('hf.co/org/model', ['hf.co/org/model:latest'])).toBe(true);
    expect(modelNameMatches('localhost:5000/model', ['localhost:5000/model:latest'])).toBe(true);
    expect(modelNameMatches('BAAI/bge-small-en-v1.5', ['baai/bge-small-en-v1.5'])).toBe(false);
  });
});
