/** Reading Prometheus text in tests: the value of one series, matched by name and a subset of labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** Sum of the series named `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return parseMetrics(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether any series named `name` with these labels exists. */
export function hasSample(text: string, name: string, labels: Record<string, string> = {}): boolean {
  return parseMetrics(text).some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
