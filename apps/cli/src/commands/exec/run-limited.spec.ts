import { HeadTail } from './run-limited';

describe('HeadTail (the capture of cairn exec --max-output)', () => {
  it('keeps everything up to the cap, byte for byte, across chunks', () => {
    const capture = new HeadTail(10);
    for (const part of ['abc', 'defg', 'hij']) capture.push(Buffer.from(part));
    expect(capture.total).toBe(10);
    expect(capture.cutBytes).toBe(0);
    expect(capture.text()).toBe('abcdefghij');
  });

  it('over the cap keeps the first and the last half and says how much it cut', () => {
    const capture = new HeadTail(10);
    const text = 'ABCDE' + 'x'.repeat(95) + 'VWXYZ';
    // Pushed in uneven chunks, so the tail is trimmed across chunk boundaries.
    for (let i = 0; i < text.length; i += 7) capture.push(Buffer.from(text.slice(i, i + 7)));
    expect(capture.total).toBe(105);
    expect(capture.cutBytes).toBe(95);
    expect(capture.text()).toBe('ABCDE\n[… 95 bytes cut by cairn exec --max-output …]\nVWXYZ');
  });

  it('one chunk larger than the cap splits into head and tail', () => {
    const capture = new HeadTail(4);
    capture.push(Buffer.from('12345678'));
    expect(capture.cutBytes).toBe(4);
    expect(capture.text()).toBe('12\n[… 4 bytes cut by cairn exec --max-output …]\n78');
  });
});
