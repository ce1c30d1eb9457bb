/** The transfer rate of an upload, from the bytes sent over the last few seconds. */
export interface Sample {
  at: number;
  sent: number;
}

/** How far back the speed looks: long enough to even out chunk bursts, short enough to follow a change. */
export const SPEED_WINDOW_MS = 5000;

/** The samples kept after a new one: those of the window, plus the one just before it. */
export function addSample(samples: readonly Sample[], sample: Sample): Sample[] {
  const kept = [...samples, sample];
  const from = kept.findIndex((s) => s.at >= sample.at - SPEED_WINDOW_MS);
  return kept.slice(Math.max(0, from - 1));
}

/** Bytes a second over the samples; 0 when they span no time (the first progress event). */
export function speedOf(samples: readonly Sample[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at <= first.at) return 0;
  return ((last.sent - first.sent) * 1000) / (last.at - first.at);
}

/** Seconds left at this speed, or undefined when it cannot be told (no speed yet). */
export function secondsLeft(sent: number, total: number, speed: number): number | undefined {
  if (speed <= 0) return undefined;
  return Math.ceil(Math.max(0, total - sent) / speed);
}

/** A duration as h:mm:ss or m:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
