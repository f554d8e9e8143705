/** The page-wide status line (a polite live region): connection problems, token state, errors. */
export class StatusLine {
  constructor(private readonly el: HTMLElement) {}

  set(text: string, kind: 'info' | 'error' = 'info'): void {
    this.el.textContent = text;
    this.el.dataset['kind'] = kind;
  }

  get text(): string {
    return this.el.textContent ?? '';
  }

  clear(): void {
    this.el.textContent = '';
    delete this.el.dataset['kind'];
  }
}
