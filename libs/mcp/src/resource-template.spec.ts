import { matchTemplate } from './resource-template';

describe('matchTemplate', () => {
  it('extracts one path segment per variable', () => {
    expect(matchTemplate('cairn://projects/{project}/briefing', 'cairn://projects/web-app/briefing')).toEqual({
      project: 'web-app',
    });
    expect(matchTemplate('cairn://memories/{id}', 'cairn://memories/5f0c')).toEqual({ id: '5f0c' });
  });

  it('refuses other shapes, extra segments and broken escapes', () => {
    expect(matchTemplate('cairn://memories/{id}', 'cairn://memories/a/b')).toBeUndefined();
    expect(matchTemplate('cairn://memories/{id}', 'cairn://memoriesXa')).toBeUndefined();
    expect(matchTemplate('cairn://projects/{project}/briefing', 'cairn://projects//briefing')).toBeUndefined();
    expect(matchTemplate('cairn://memories/{id}', 'cairn://memories/%E0%A4%A')).toBeUndefined();
  });

  it('treats template punctuation literally', () => {
    expect(matchTemplate('cairn://a.b/{id}', 'cairn://aXb/1')).toBeUndefined();
  });
});
