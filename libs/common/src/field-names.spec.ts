import { nameForMessage, pathForMessage } from './field-names';

describe('names repeated in error messages', () => {
  it('repeats field-like names and indices, and only the length of anything else', () => {
    expect(nameForMessage('contnet')).toBe('contnet');
    expect(nameForMessage('retry_policy.max-tries')).toBe('retry_policy.max-tries');
    expect(nameForMessage(3)).toBe('3');
    expect(nameForMessage('AKIA5K7M2P4R6T3W5Y7Z')).toBe('<a 20-character name>');
    expect(nameForMessage('ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c')).toBe('<a 40-character name>');
    expect(nameForMessage('x'.repeat(65))).toBe('<a 65-character name>');
    expect(pathForMessage(['details', 'sk_live_51Hq8Xk2LmN4pQ7rS9tU3vW', 0])).toBe('details.<a 31-character name>.0');
  });
});
