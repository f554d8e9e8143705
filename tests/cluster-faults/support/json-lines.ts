import type { ServiceHandle } from '@pty-ws/testkit';

/** Every line a process writes from now on (stdout and stderr), for checking that each is JSON. */
export class LineRecorder {
  private readonly lines: Array<{ label: string; line: string }> = [];
  private readonly partial = new Map<string, string>();
  private readonly detach: Array<() => void> = [];

  constructor(services: readonly ServiceHandle[]) {
    for (const s of services) {
      for (const [name, stream] of [
        ['stdout', s.child.stdout],
        ['stderr', s.child.stderr],
      ] as const) {
        if (!stream) continue;
        const key = `${s.label} ${name}`;
        const onData = (d: Buffer) => this.take(key, d.toString());
        stream.on('data', onData);
        this.detach.push(() => stream.off('data', onData));
      }
    }
  }

  private take(key: string, text: string): void {
    const parts = ((this.partial.get(key) ?? '') + text).split('\n');
    this.partial.set(key, parts.pop() ?? '');
    for (const line of parts) if (line.trim() !== '') this.lines.push({ label: key, line });
  }

  /** Stops recording; returns how many lines were seen and the ones that are not one JSON object. */
  stop(): { count: number; notJson: string[] } {
    for (const off of this.detach) off();
    for (const [key, rest] of this.partial) if (rest.trim() !== '') this.lines.push({ label: key, line: rest });
    const notJson = this.lines
      .filter(({ line }) => {
        try {
          const v: unknown = JSON.parse(line);
          return typeof v !== 'object' || v === null || Array.isArray(v);
        } catch {
          return true;
        }
      })
      .map(({ label, line }) => `[${label}] ${line.slice(0, 300)}`);
    return { count: this.lines.length, notJson };
  }
}
