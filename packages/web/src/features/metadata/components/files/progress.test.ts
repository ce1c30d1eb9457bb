import { describe, expect, it } from 'vitest';
import { addSample, formatDuration, secondsLeft, speedOf, SPEED_WINDOW_MS } from './progress';

describe('upload progress', () => {
  it('measures the speed over the last window, keeping the sample just before it', () => {
    let samples = addSample([], { at: 0, sent: 0 });
    expect(speedOf(samples)).toBe(0);
    samples = addSample(samples, { at: 1000, sent: 1000 });
    expect(speedOf(samples)).toBe(1000);
    samples = addSample(samples, { at: 2000 + SPEED_WINDOW_MS, sent: 1000 + 4000 * 6 });
    // The window's start is the sample at 1000 (the one just before it): 24000 bytes in 6 s.
    expect(samples[0]).toEqual({ at: 1000, sent: 1000 });
    expect(speedOf(samples)).toBe(4000);
  });

  it('tells the time left only once there is a speed', () => {
    expect(secondsLeft(10, 100, 0)).toBeUndefined();
    expect(secondsLeft(10, 100, 30)).toBe(3);
    expect(secondsLeft(100, 100, 30)).toBe(0);
  });

  it('writes durations as m:ss and h:mm:ss', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(125)).toBe('2:05');
    expect(formatDuration(3 * 3600 + 61)).toBe('3:01:01');
  });
});
