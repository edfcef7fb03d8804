import { eventFromArgument, parseHookInput } from './hook-input';

describe('hook input', () => {
  it('names events as Claude Code does or in kebab case', () => {
    expect(eventFromArgument('user-prompt-submit')).toBe('UserPromptSubmit');
    expect(eventFromArgument('PostToolUseFailure')).toBe('PostToolUseFailure');
    expect(eventFromArgument('session_end')).toBe('SessionEnd');
    expect(eventFromArgument('pre-tool-use')).toBeUndefined();
  });

  it('takes the recorded shape and keeps its fields', () => {
    const input = parseHookInput(
      JSON.stringify({
        session_id: 's',
        transcript_path: '/t',
        cwd: '/c',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'p',
        extra: 1,
      }),
      'UserPromptSubmit',
    );
    expect(input).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'p', cwd: '/c' });
  });

  it.each([
    ['not json', 'the hook input on stdin is not JSON'],
    ['[]', 'the hook input on stdin is not a JSON object'],
    ['{"hook_event_name":"Stop","session_id":"s","cwd":"/c"}', 'expected a UserPromptSubmit event, got "Stop"'],
    ['{"hook_event_name":"UserPromptSubmit","cwd":"/c","prompt":"p"}', 'the hook input has no session_id'],
    [
      '{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/c","prompt":3}',
      'the UserPromptSubmit input has no prompt',
    ],
  ])('says what is wrong with %p', (text, problem) => {
    expect(parseHookInput(text, 'UserPromptSubmit')).toEqual({ problem });
  });
});
